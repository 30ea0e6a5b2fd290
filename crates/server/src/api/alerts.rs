//! "Tell me when new photos of me arrive" (`crate::services::alerts`):
//! `POST /api/alerts` asks for one with the selfie just searched with (multipart:
//! `event_key`, `channel`, `mobile` for SMS, `consent`, `file`); an SMS alert is confirmed
//! by `POST /api/alerts/{alert_id}/confirm` with the code texted, a LINE alert by LINE
//! Login (`line_url`). A message's links open `GET /api/alerts/{alert_id}?t=` (the new
//! photos, no selfie needed) and `DELETE` the same (stop: the template and all else
//! deleted). Asking and code tries are rate-limited per client
//! (`alerts.per_client_per_minute`); no answer shows a number unmasked, a LINE id or a
//! template.

use axum::Json;
use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use raceshot_domain::order::mask_mobile;
use raceshot_store::alerts::Alert;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::catalogue::{PhotoBody, SUCCESS};
use super::facesearch::{multipart_error, read_limited};
use crate::api::error::ErrorAnswer;
use crate::api::extract::{ApiJson, ApiPath, ApiQuery, ClientIp};
use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError, ShopResult};
use crate::services::alerts::{self, AlertChannel, AlertError, Ask};
use crate::services::commerce::{find_event, parse_event_key};

#[derive(Debug, Serialize, ToSchema)]
pub struct AlertAsked {
    #[schema(example = "success")]
    pub status: &'static str,
    /// The alert's id (32 hex digits): what confirming and stopping name.
    pub alert_id: String,
    /// `sms` or `line`.
    pub channel: &'static str,
    /// What confirms it: `code` (the code texted to `contact`) or `line` (open `line_url`).
    pub next: &'static str,
    /// Where the code went, masked (SMS).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contact: Option<String>,
    /// Where the browser goes to confirm with LINE Login (LINE).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_url: Option<String>,
    /// Seconds left to confirm.
    pub expires_in: u64,
}

/// Asks to be told of new photos of the selfie's face at the event, by `channel` (`sms` to
/// `mobile`, or `line`). `consent` must be `yes`: the alert keeps a face template until
/// the event's sale ends, `alerts.days` pass or it is stopped (422
/// `alert_consent_required`). A channel the shop has not set up is 404
/// `alerts_unavailable`; an event not on sale 422 `event_not_on_sale`; a selfie without a
/// face 422 `no_face`; a code that cannot be texted 422 `access_code_undeliverable`; a
/// number texted a code within a minute, or three times within ten minutes, 429
/// `rate_limited` with `Retry-After`.
#[utoipa::path(post, path = "/api/alerts", tag = "alerts",
    request_body(content_type = "multipart/form-data", content = Object),
    responses((status = 201, body = AlertAsked), (status = 401, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer), (status = 413, response = ErrorAnswer),
        (status = 415, response = ErrorAnswer), (status = 422, response = ErrorAnswer),
        (status = 429, response = ErrorAnswer), (status = 503, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn ask(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    mut form: Multipart,
) -> ShopResult<(StatusCode, Json<AlertAsked>)> {
    state.rate_limits.alerts.check(client)?;
    let (mut file, mut event_key, mut channel, mut mobile, mut consent) =
        (None, None, None, None, false);
    while let Some(field) = form.next_field().await.map_err(multipart_error)? {
        match field.name().unwrap_or_default() {
            "file" if file.is_none() => file = Some(read_limited(field).await?),
            "file" => return Err(ShopError::field("file", "one selfie")),
            "event_key" => event_key = Some(short_text(field).await?),
            "channel" => channel = Some(short_text(field).await?),
            "mobile" => mobile = Some(short_text(field).await?),
            "consent" => consent = short_text(field).await? == "yes",
            _ => {}
        }
    }
    let event_key = event_key.ok_or_else(|| ShopError::field("event_key", "is required"))?;
    let event = find_event(&state.catalogue, &parse_event_key(&event_key)?).await?;
    let channel = channel
        .as_deref()
        .and_then(AlertChannel::parse)
        .ok_or_else(|| ShopError::field("channel", "must be sms or line"))?;
    let file = file.ok_or_else(|| ShopError::field("file", "is required"))?;
    let asked = alerts::ask(
        &state.alerting(),
        &event,
        &Ask {
            channel,
            mobile,
            consent,
        },
        file,
        client,
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(AlertAsked {
            status: SUCCESS,
            alert_id: asked.public_id,
            channel: asked.channel.as_str(),
            next: match asked.channel {
                AlertChannel::Sms => "code",
                AlertChannel::Line => "line",
            },
            contact: asked.contact,
            line_url: asked.line_url,
            expires_in: asked.expires_in.as_secs(),
        }),
    ))
}

/// A text field of the form, at most 64 characters.
async fn short_text(field: axum::extract::multipart::Field<'_>) -> ShopResult<String> {
    let name = field.name().unwrap_or_default().to_owned();
    let text = field.text().await.map_err(multipart_error)?;
    if text.chars().count() > 64 {
        return Err(ShopError::field(name, "is too long"));
    }
    Ok(text)
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ConfirmAlert {
    /// The six-digit code texted to the alert's number.
    pub code: String,
}

/// An alert as its owner sees it: nothing of the face, the number masked.
#[derive(Debug, Serialize, ToSchema)]
pub struct AlertBody {
    pub alert_id: String,
    pub event_key: String,
    pub event_title: String,
    /// `sms` or `line`.
    pub channel: String,
    /// The number messages go to, masked (SMS).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contact: Option<String>,
    /// When the alert and its face template are deleted at the latest (RFC 3339).
    #[schema(value_type = String, format = DateTime)]
    pub expires_at: DateTime<Utc>,
}

impl AlertBody {
    fn new(a: &Alert) -> Self {
        AlertBody {
            alert_id: a.public_id.clone(),
            event_key: a.event_key.to_string(),
            event_title: a.event_title.clone(),
            channel: a.channel.as_str().to_owned(),
            contact: a.mobile.as_deref().map(mask_mobile),
            expires_at: a.expires_at,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AlertConfirmed {
    #[schema(example = "success")]
    pub status: &'static str,
    pub alert: AlertBody,
}

/// Confirms an SMS alert with the code texted to its number: from now on new photos of the
/// runner are told of. A wrong code is 422 `access_code_invalid`; five wrong codes void it
/// (422 `access_code_expired`: ask again); an unknown or expired alert 404
/// `alert_not_found`.
#[utoipa::path(post, path = "/api/alerts/{alert_id}/confirm", tag = "alerts",
    params(("alert_id" = String, Path, description = "the alert's id")),
    request_body = ConfirmAlert,
    responses((status = 200, body = AlertConfirmed), (status = 401, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer), (status = 422, response = ErrorAnswer),
        (status = 429, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn confirm(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    ApiPath(alert_id): ApiPath<String>,
    ApiJson(req): ApiJson<ConfirmAlert>,
) -> ShopResult<Json<AlertConfirmed>> {
    state.rate_limits.alerts.check(client)?;
    let alert = alerts::confirm(&state.alerting(), alert_id.trim(), &req.code).await?;
    Ok(Json(AlertConfirmed {
        status: SUCCESS,
        alert: AlertBody::new(&alert),
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AlertLink {
    /// The token of the message's link (omitted only to stop an alert never confirmed).
    pub t: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AlertPhotos {
    #[schema(example = "success")]
    pub status: &'static str,
    pub alert: AlertBody,
    pub image_length: usize,
    /// The photos found since the alert was confirmed, newest first.
    pub images: Vec<PhotoBody>,
}

/// The photos found for an alert since it was confirmed, by its message's link: no selfie
/// is sent, and nothing of the face is answered. A link that does not fit, or an alert
/// stopped or past its end, is 404 `alert_not_found`. Rate-limited as the event page's
/// question "new photos since I searched?" (`search.arrivals_per_client_per_minute`).
#[utoipa::path(get, path = "/api/alerts/{alert_id}", tag = "alerts",
    params(("alert_id" = String, Path, description = "the alert's id"), AlertLink),
    responses((status = 200, body = AlertPhotos), (status = 401, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer), (status = 429, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn photos(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    ApiPath(alert_id): ApiPath<String>,
    ApiQuery(link): ApiQuery<AlertLink>,
) -> ShopResult<Json<AlertPhotos>> {
    // As often as an event page asks "new photos since I searched?".
    state.rate_limits.arrivals.check(client)?;
    let token = link.t.unwrap_or_default();
    let alert = alerts::by_link(&state.alerting(), alert_id.trim(), &token).await?;
    let ids = alerts::found(&state.alerting(), &alert).await?;
    let mut shown = state.store.shown_photos(alert.event_id, &ids).await?;
    // Newest first, as found.
    let rank: std::collections::HashMap<i64, usize> =
        ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    shown.sort_by_key(|p| rank.get(&p.id).copied());
    let images: Vec<PhotoBody> = shown
        .iter()
        .map(|p| PhotoBody::new(p, &state.media_url, None))
        .collect();
    Ok(Json(AlertPhotos {
        status: SUCCESS,
        alert: AlertBody::new(&alert),
        image_length: images.len(),
        images,
    }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AlertStopped {
    #[schema(example = "success")]
    pub status: &'static str,
}

/// Stops an alert: its face template, its number or LINE account and its matches are
/// deleted now. A working alert is stopped by its message's link (`t`); one never
/// confirmed by its id alone. Anything else is 404 `alert_not_found`.
#[utoipa::path(delete, path = "/api/alerts/{alert_id}", tag = "alerts",
    params(("alert_id" = String, Path, description = "the alert's id"), AlertLink),
    responses((status = 200, body = AlertStopped), (status = 401, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer), (status = 429, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn stop(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    ApiPath(alert_id): ApiPath<String>,
    ApiQuery(link): ApiQuery<AlertLink>,
) -> ShopResult<Json<AlertStopped>> {
    state.rate_limits.alerts.check(client)?;
    alerts::stop(&state.alerting(), alert_id.trim(), link.t.as_deref()).await?;
    Ok(Json(AlertStopped { status: SUCCESS }))
}

/// The alerts service's errors by code.
impl From<AlertError> for ShopError {
    fn from(e: AlertError) -> Self {
        let message = e.to_string();
        match e {
            AlertError::NoConsent => {
                ShopError::new(ErrorCode::AlertConsentRequired, message).with_field("consent")
            }
            AlertError::NotOnSale => ShopError::new(ErrorCode::EventNotOnSale, message),
            AlertError::Unavailable(_) => ShopError::new(ErrorCode::AlertsUnavailable, message),
            AlertError::BadMobile => ShopError::field("mobile", message),
            AlertError::NotFound => ShopError::new(ErrorCode::AlertNotFound, message),
            AlertError::WrongCode => {
                ShopError::new(ErrorCode::AccessCodeInvalid, message).with_field("code")
            }
            AlertError::CodeVoid => ShopError::new(ErrorCode::AccessCodeExpired, message),
            AlertError::Undeliverable(_) => {
                ShopError::new(ErrorCode::AccessCodeUndeliverable, message)
            }
            AlertError::TooSoon(wait) => {
                ShopError::new(ErrorCode::RateLimited, message).retry_after(wait)
            }
            AlertError::Selfie(refused) => refused.into(),
            AlertError::Store(e) => ShopError::internal(e),
            AlertError::Fault(e) => ShopError::unavailable(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alert_errors_answer_their_codes() {
        let code = |e: AlertError| ShopError::from(e).code();
        assert_eq!(code(AlertError::NoConsent), ErrorCode::AlertConsentRequired);
        assert_eq!(
            code(AlertError::Unavailable(AlertChannel::Sms)),
            ErrorCode::AlertsUnavailable
        );
        assert_eq!(code(AlertError::NotFound), ErrorCode::AlertNotFound);
        assert_eq!(code(AlertError::WrongCode), ErrorCode::AccessCodeInvalid);
        assert_eq!(code(AlertError::CodeVoid), ErrorCode::AccessCodeExpired);
        assert_eq!(code(AlertError::BadMobile), ErrorCode::InvalidField);
        assert_eq!(code(AlertError::NotOnSale), ErrorCode::EventNotOnSale);
    }
}
