//! A runner's finisher certificate
//! (`GET /api/events/{event_key}/certificates/{bib}/{format}`): the 1080 × 1350 picture
//! (`image`, JPEG) or the A4 page (`print`, PDF), with the best of their photos or the one
//! they pick (`?photo=`). A plain address, so a link or a download button fetches it.
//! Drawing is bounded by the certificates' rate limit and the CPU pool; the rules are in
//! `crate::services::certificates`.

use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::IntoParams;

use super::extract::{ApiPath, ApiQuery, ClientIp};
use crate::api::error::ErrorAnswer;
use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError, ShopResult};
use crate::services::certificates::{self, Format};
use crate::services::commerce::{find_event, parse_event_key};

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CertificateQuery {
    /// One of the runner's photos (from the results search's `photos`); none: the best.
    pub photo: Option<i64>,
}

/// A runner's finisher certificate as a JPEG picture (`image`) or an A4 PDF (`print`).
#[utoipa::path(operation_id = "certificate", get, path = "/api/events/{event_key}/certificates/{bib}/{format}", tag = "face search",
    params(("event_key" = String, Path), ("bib" = String, Path),
        ("format" = String, Path, description = "`image` (1080 × 1350 JPEG) or `print` (A4 PDF)"),
        CertificateQuery),
    responses((status = 200, description = "The certificate", content_type = "image/jpeg"),
        (status = 404, response = ErrorAnswer), (status = 409, response = ErrorAnswer),
        (status = 429, response = ErrorAnswer), (status = 503, response = ErrorAnswer)))]
pub async fn certificate(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    ApiPath((event_key, bib, format)): ApiPath<(String, String, String)>,
    ApiQuery(q): ApiQuery<CertificateQuery>,
) -> ShopResult<Response> {
    state.rate_limits.certificates.check(client)?;
    let format = Format::parse(&format).ok_or_else(|| {
        ShopError::new(ErrorCode::NotFound, "a certificate is `image` or `print`")
    })?;
    let event = find_event(&state.catalogue, &parse_event_key(&event_key)?).await?;
    let made =
        certificates::certificate(&state.certificates(), &event, &bib, format, q.photo).await?;
    let disposition = format!("attachment; filename=\"{}\"", made.file_name);
    let mut response = (
        [
            (header::CONTENT_TYPE, format.content_type().to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        made.bytes,
    )
        .into_response();
    // It names a runner: kept by their browser only.
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, max-age=600"),
    );
    Ok(response)
}
