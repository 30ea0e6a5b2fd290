//! A runner's finisher certificate: the 1080 × 1350 picture (`image`, JPEG) or the A4 page
//! (`print`, PDF), with the best of their photos or the one they pick (`?photo=`). A free
//! one by its bib (`GET /api/events/{event_key}/certificates/{bib}/{format}`), a bought
//! one by the order that bought it (`GET /api/orders/{order_uuid}/certificate/{format}`,
//! opened by the order's id as its ZIP is). Plain addresses, so a link or a download
//! button fetches them. Drawing is bounded by the certificates' rate limit and the CPU
//! pool; the rules are in `crate::services::certificates`.

use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::IntoParams;

use super::extract::{ApiPath, ApiQuery, ClientIp};
use crate::api::error::ErrorAnswer;
use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError, ShopResult};
use crate::services::certificates::{self, Certificate, Claim, Format};
use crate::services::commerce::{
    CommerceError, find_event, find_order, parse_event_key, parse_order_uuid,
};

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
    let format = parse_format(&format)?;
    let event = find_event(&state.catalogue, &parse_event_key(&event_key)?).await?;
    let made = certificates::certificate(
        &state.certificates(),
        &event,
        &bib,
        format,
        q.photo,
        Claim::Offer,
    )
    .await?;
    Ok(answer(made))
}

/// The finisher certificate an order bought, as a JPEG picture (`image`) or an A4 PDF
/// (`print`), once the order is paid.
#[utoipa::path(operation_id = "order_certificate", get, path = "/api/orders/{order_uuid}/certificate/{format}", tag = "orders",
    params(("order_uuid" = String, Path),
        ("format" = String, Path, description = "`image` (1080 × 1350 JPEG) or `print` (A4 PDF)"),
        CertificateQuery),
    responses((status = 200, description = "The certificate", content_type = "image/jpeg"),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer),
        (status = 429, response = ErrorAnswer), (status = 503, response = ErrorAnswer)))]
pub async fn bought(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    ApiPath((order_uuid, format)): ApiPath<(String, String)>,
    ApiQuery(q): ApiQuery<CertificateQuery>,
) -> ShopResult<Response> {
    state.rate_limits.certificates.check(client)?;
    let format = parse_format(&format)?;
    let order = find_order(&state.store, parse_order_uuid(&order_uuid)?).await?;
    let bought = order
        .certificate
        .as_ref()
        .ok_or_else(|| ShopError::new(ErrorCode::NotFound, "this order buys no certificate"))?;
    if !order.is_deliverable() {
        return Err(ShopError::new(
            ErrorCode::OrderNotPaid,
            "the order is not paid",
        ));
    }
    // The event may have left the shop's pages since: its row still names it.
    let event = state
        .store
        .event_by_key(&order.event_key)
        .await?
        .ok_or(CommerceError::EventNotFound)?;
    let made = certificates::certificate(
        &state.certificates(),
        &event,
        bought.bib.as_str(),
        format,
        q.photo,
        Claim::Bought,
    )
    .await?;
    Ok(answer(made))
}

fn parse_format(raw: &str) -> ShopResult<Format> {
    Format::parse(raw)
        .ok_or_else(|| ShopError::new(ErrorCode::NotFound, "a certificate is `image` or `print`"))
}

/// A drawn certificate as a download, kept by the runner's browser only (it names them).
fn answer(made: Certificate) -> Response {
    let disposition = format!("attachment; filename=\"{}\"", made.file_name);
    let mut response = (
        [
            (header::CONTENT_TYPE, made.format.content_type().to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        made.bytes,
    )
        .into_response();
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, max-age=600"),
    );
    response
}
