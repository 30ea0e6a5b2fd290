//! Finisher certificates in the console (admins only): whether an event offers them and
//! at what price, and its two templates (`image`: the 1080 × 1350 picture, `print`: the A4
//! page), each an SVG document checked whole when saved; deleting one goes back to the
//! shop's own. A sample certificate shows a template as runners will get it. Every
//! change is audited. The rules are in `crate::services::certificates`.

use axum::Json;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use raceshot_domain::Money;
use raceshot_store::audit::event_target;
use raceshot_store::certificates::{CertificateChange, CertificateSettings};
use raceshot_store::events::Event;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::auth::Admin;
use super::results::event_of;
use crate::api::error::{ErrorAnswer, ErrorBody};
use crate::api::extract::{ApiJson, ApiPath, capped_body, content_type_is};
use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError, ShopResult};
use crate::services::certificates::template::{self, MAX_TEMPLATE_BYTES};
use crate::services::certificates::{self, Format};

/// One of an event's two templates.
#[derive(Debug, Serialize, ToSchema)]
pub struct TemplateBody {
    /// Whether the event has its own (else the shop's is used).
    pub custom: bool,
    /// The SVG in force.
    pub svg: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CertificatesBody {
    pub offered: bool,
    /// Baht with two decimals; 0: free to download.
    #[schema(value_type = f64)]
    pub price: Money,
    pub image: TemplateBody,
    pub print: TemplateBody,
    /// The placeholders a template may use, as `{{name}}`.
    pub fields: Vec<&'static str>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CertificatesInput {
    pub offered: bool,
    /// Baht; 0: free.
    #[schema(value_type = f64)]
    pub price: Money,
}

fn body(settings: &CertificateSettings) -> CertificatesBody {
    let template = |format: Format, saved: &Option<String>| TemplateBody {
        custom: saved.is_some(),
        svg: certificates::template_of(settings, format).to_owned(),
    };
    CertificatesBody {
        offered: settings.offered,
        price: settings.price,
        image: template(Format::Image, &settings.image_svg),
        print: template(Format::Print, &settings.print_svg),
        fields: template::FIELDS.to_vec(),
    }
}

fn format_of(raw: &str) -> ShopResult<Format> {
    Format::parse(raw)
        .ok_or_else(|| ShopError::new(ErrorCode::NotFound, "a template is `image` or `print`"))
}

async fn save(
    state: &AppState,
    admin: &Admin,
    event: &Event,
    change: CertificateChange,
    action: &str,
    detail: serde_json::Value,
) -> ShopResult<Json<CertificatesBody>> {
    let now = state.now();
    let settings = state
        .store
        .change_certificate_settings(event.id, &change, now)
        .await?;
    state
        .store
        .audit(
            &admin.0.actor(),
            action,
            &event_target(&event.spec.key),
            &detail,
            now,
        )
        .await?;
    Ok(Json(body(&settings)))
}

/// The event's certificate settings and templates.
#[utoipa::path(operation_id = "admin_certificates_get", get, path = "/api/admin/events/{event_key}/certificates", tag = "console",
    params(("event_key" = String, Path)),
    responses((status = 200, body = CertificatesBody), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer)))]
pub async fn get(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath(event_key): ApiPath<String>,
) -> ShopResult<Json<CertificatesBody>> {
    let event = event_of(&state, &event_key).await?;
    Ok(Json(body(
        &certificates::settings(&state.store, &event).await?,
    )))
}

/// Offers the event's certificates (or stops), free or at a price.
#[utoipa::path(operation_id = "admin_certificates_put", put, path = "/api/admin/events/{event_key}/certificates", tag = "console",
    params(("event_key" = String, Path)),
    request_body = CertificatesInput,
    responses((status = 200, body = CertificatesBody), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer),
        (status = 422, response = ErrorAnswer)))]
pub async fn put(
    State(state): State<AppState>,
    admin: Admin,
    ApiPath(event_key): ApiPath<String>,
    ApiJson(input): ApiJson<CertificatesInput>,
) -> ShopResult<Json<CertificatesBody>> {
    let event = event_of(&state, &event_key).await?;
    let detail = serde_json::json!({ "offered": input.offered, "price": input.price });
    let change = CertificateChange::Offer {
        offered: input.offered,
        price: input.price,
    };
    save(
        &state,
        &admin,
        &event,
        change,
        "certificates.settings",
        detail,
    )
    .await
}

/// Saves one of the event's templates (an SVG document, up to 512 KB), checked whole:
/// its size, its placeholders, its pictures, and a drawing with sample values.
#[utoipa::path(operation_id = "admin_certificates_put_template", put, path = "/api/admin/events/{event_key}/certificates/{format}", tag = "console",
    params(("event_key" = String, Path), ("format" = String, Path, description = "`image` or `print`")),
    request_body(content = String, content_type = "image/svg+xml"),
    responses((status = 200, body = CertificatesBody), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer),
        (status = 413, description = "Over 512 KB", body = ErrorBody), (status = 415, response = ErrorAnswer),
        (status = 422, response = ErrorAnswer), (status = 503, response = ErrorAnswer)))]
pub async fn put_template(
    State(state): State<AppState>,
    admin: Admin,
    ApiPath((event_key, format)): ApiPath<(String, String)>,
    headers: HeaderMap,
    body: Body,
) -> ShopResult<Json<CertificatesBody>> {
    let format = format_of(&format)?;
    if !content_type_is(&headers, &["image/svg+xml"]) {
        return Err(ShopError::new(
            ErrorCode::UnsupportedMediaType,
            "send the template as image/svg+xml",
        ));
    }
    let event = event_of(&state, &event_key).await?;
    let bytes = capped_body(body, MAX_TEMPLATE_BYTES, "templates up to 512 KB").await?;
    let svg = String::from_utf8(bytes.to_vec())
        .map_err(|_| ShopError::field("svg", "the template is not UTF-8 text"))?;
    let fonts = state
        .fonts
        .clone()
        .ok_or_else(|| ShopError::unavailable(certificates::CertificateError::NoFonts))?;
    let checked = svg.clone();
    state
        .cpu
        .run(move || template::check(&checked, format, &fonts))
        .await
        .map_err(ShopError::internal)?
        .map_err(|e| ShopError::field("svg", e.to_string()))?;
    set_template(&state, &admin, &event, format, Some(svg)).await
}

/// Goes back to the shop's own template.
#[utoipa::path(operation_id = "admin_certificates_delete_template", delete, path = "/api/admin/events/{event_key}/certificates/{format}", tag = "console",
    params(("event_key" = String, Path), ("format" = String, Path, description = "`image` or `print`")),
    responses((status = 200, body = CertificatesBody), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer)))]
pub async fn delete_template(
    State(state): State<AppState>,
    admin: Admin,
    ApiPath((event_key, format)): ApiPath<(String, String)>,
) -> ShopResult<Json<CertificatesBody>> {
    let format = format_of(&format)?;
    let event = event_of(&state, &event_key).await?;
    set_template(&state, &admin, &event, format, None).await
}

/// Saves `svg` as the event's template for `format` (`None`: the shop's), audited.
async fn set_template(
    state: &AppState,
    admin: &Admin,
    event: &Event,
    format: Format,
    svg: Option<String>,
) -> ShopResult<Json<CertificatesBody>> {
    let detail = serde_json::json!({ "template": format.as_str(), "reset": svg.is_none() });
    let change = match format {
        Format::Image => CertificateChange::ImageTemplate(svg),
        Format::Print => CertificateChange::PrintTemplate(svg),
    };
    save(state, admin, event, change, "certificates.template", detail).await
}

/// A sample of the template in force, filled with made-up values, as runners get it.
#[utoipa::path(operation_id = "admin_certificates_sample", get, path = "/api/admin/events/{event_key}/certificates/{format}/sample", tag = "console",
    params(("event_key" = String, Path), ("format" = String, Path, description = "`image` or `print`")),
    responses((status = 200, description = "The sample", content_type = "image/jpeg"),
        (status = 401, response = ErrorAnswer), (status = 403, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer), (status = 503, response = ErrorAnswer)))]
pub async fn sample(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath((event_key, format)): ApiPath<(String, String)>,
) -> ShopResult<Response> {
    let format = format_of(&format)?;
    let event = event_of(&state, &event_key).await?;
    let settings = certificates::settings(&state.store, &event).await?;
    let bytes = certificates::sample(&state.certificates(), &event, &settings, format).await?;
    Ok(([(header::CONTENT_TYPE, format.content_type())], bytes).into_response())
}
