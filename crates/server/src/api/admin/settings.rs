//! Shop settings in the console: the payment gateway and its keys, SMTP, the retention
//! window (the console settings of `config::SETTINGS`, laid over the configuration by `live`), and the shop's
//! logo for logo copies. Secrets are written, never shown: the answer only says whether
//! one is set. Admins only.

use std::collections::BTreeMap;

use axum::Json;
use axum::body::Body;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use raceshot_payments::GatewayKind;
use raceshot_store::{ObjectKey, StoredName};
use raceshot_vision::ModelPair;
use raceshot_vision::image_io::{ImageFormat, probe, sniff};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use super::auth::Admin;
use crate::api::error::{ErrorAnswer, ErrorBody};
use crate::api::extract::{ApiJson, capped_body};
use crate::app::live::{self, Refused};
use crate::app::state::AppState;
use crate::config::{Config, console_settings};
use crate::error::{ErrorCode, FieldProblem, OrMissing, ShopError, ShopResult};
use crate::infra::channels::email::SmtpTls;
use crate::infra::imaging::LOGO_MAX_PIXELS;
use crate::services::branding::SHOP_LOGO_SETTING;

/// Logos are small pictures.
const MAX_LOGO_BYTES: usize = 2 * 1024 * 1024;

/// One setting as the console shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct SettingBody {
    /// The configuration key (`payments.gateway`, `notify.smtp.host`, …).
    pub key: &'static str,
    /// Secrets are never shown, only whether they are set.
    pub secret: bool,
    /// The value in force; always `null` for secrets.
    pub value: Option<String>,
    /// A value is in force (from the console or the configuration).
    pub set: bool,
    /// The value comes from the console rather than the configuration.
    pub from_console: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SettingsBody {
    pub settings: Vec<SettingBody>,
    /// Gateways this deployment may switch to (`SANDBOX` only where the configuration
    /// allows it).
    pub gateways: Vec<&'static str>,
    /// Text messages go through this provider (`log`: written to the log only).
    pub sms_provider: &'static str,
    /// A shop logo is uploaded (else logo copies carry the shop's name).
    pub shop_logo: bool,
    /// The face models in use (`faces.model_pair`, set in the configuration).
    pub face_models: FaceModelsBody,
}

/// The face detector and recogniser in use, and their licence.
#[derive(Debug, Serialize, ToSchema)]
pub struct FaceModelsBody {
    /// `insightface` or `yunet-sface`.
    pub pair: &'static str,
    /// The models and their licences, in words.
    pub licence: &'static str,
    /// A shop that sells photos may run them (else the console warns).
    pub commercial: bool,
}

impl FaceModelsBody {
    pub fn of(pair: ModelPair) -> Self {
        Self {
            pair: pair.name(),
            licence: pair.licence(),
            commercial: pair.commercial(),
        }
    }
}

/// The value in force for a console key.
fn value_of(config: &Config, key: &str) -> Option<String> {
    let p = &config.payments;
    let smtp = config.notify.smtp.as_ref();
    let sms = config.notify.sms.as_ref();
    let line = config.notify.line.as_ref();
    match key {
        "payments.gateway" => Some(p.gateway.as_str().to_owned()),
        "payments.promptpay_id" => p.promptpay_id.as_ref().map(ToString::to_string),
        "payments.gbp.token" => p.gbp.token.as_ref().map(|s| s.expose().to_owned()),
        "payments.gbp.secret_key" => p.gbp.secret_key.as_ref().map(|s| s.expose().to_owned()),
        "payments.opn.public_key" => p.opn.public_key.clone(),
        "payments.opn.secret_key" => p.opn.secret_key.as_ref().map(|s| s.expose().to_owned()),
        "payments.opn.webhook_secret" => {
            p.opn.webhook_secret.as_ref().map(|s| s.expose().to_owned())
        }
        "notify.smtp.host" => smtp.map(|s| s.host.clone()),
        "notify.smtp.port" => smtp.map(|s| s.port.to_string()),
        "notify.smtp.username" => smtp.and_then(|s| s.username.clone()),
        "notify.smtp.password" => smtp.and_then(|s| s.password.clone()),
        "notify.smtp.from" => smtp.map(|s| s.from.clone()),
        "notify.smtp.tls" => smtp.map(|s| {
            match s.tls {
                SmtpTls::None => "none",
                SmtpTls::StartTls => "starttls",
                SmtpTls::Tls => "tls",
            }
            .to_owned()
        }),
        "sms.provider" => sms.map(|_| "thaibulksms".to_owned()),
        "sms.key" => sms.map(|s| s.key.clone()),
        "sms.secret" => sms.map(|s| s.secret.clone()),
        "sms.sender" => sms.and_then(|s| s.sender.clone()),
        "line.login_channel_id" => line.map(|l| l.login_channel_id.clone()),
        "line.login_channel_secret" => line.map(|l| l.login_channel_secret.clone()),
        "line.channel_access_token" => line.map(|l| l.channel_access_token.clone()),
        "messages.daily_cap.email" => Some(config.notify.daily_caps.email.to_string()),
        "messages.daily_cap.sms" => Some(config.notify.daily_caps.sms.to_string()),
        "messages.daily_cap.line" => Some(config.notify.daily_caps.line.to_string()),
        "orders.retention_days" => Some(config.orders.retention_days.to_string()),
        _ => None,
    }
}

async fn body(state: &AppState, effective: &Config) -> ShopResult<SettingsBody> {
    let stored = live::overrides(&state.store)
        .await
        .map_err(ShopError::internal)?;
    let settings = console_settings()
        .map(|setting| {
            let value = value_of(effective, setting.key);
            SettingBody {
                key: setting.key,
                secret: setting.secret,
                set: value.is_some(),
                value: value.filter(|_| !setting.secret),
                from_console: stored.iter().any(|o| o.key == setting.key),
            }
        })
        .collect();
    let mut gateways = vec![GatewayKind::Gbp, GatewayKind::Opn, GatewayKind::PromptPay];
    if state.config.payments.allow_sandbox {
        gateways.push(GatewayKind::Sandbox);
    }
    Ok(SettingsBody {
        settings,
        gateways: gateways.into_iter().map(GatewayKind::as_str).collect(),
        sms_provider: if effective.notify.sms.is_some() {
            "thaibulksms"
        } else {
            "log"
        },
        shop_logo: state.store.setting(SHOP_LOGO_SETTING).await?.is_some(),
        face_models: FaceModelsBody::of(state.config.faces.model_pair),
    })
}

/// The settings in force.
#[utoipa::path(operation_id = "admin_settings_get", get, path = "/api/admin/settings", tag = "console",
    responses((status = 200, body = SettingsBody), (status = 401, response = ErrorAnswer), (status = 403, response = ErrorAnswer)))]
pub async fn get(State(state): State<AppState>, _admin: Admin) -> ShopResult<Json<SettingsBody>> {
    let effective = live::effective(&state.config, &state.store)
        .await
        .map_err(ShopError::internal)?;
    Ok(Json(body(&state, &effective).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SettingsChange {
    /// Key → new value; `null` goes back to the configuration's value. Keys left out stay.
    #[schema(value_type = Object)]
    pub changes: BTreeMap<String, Option<String>>,
}

/// Changes settings; checked whole (every problem named), then in force at once here and
/// within a minute in other processes.
#[utoipa::path(operation_id = "admin_settings_put", put, path = "/api/admin/settings", tag = "console",
    request_body = SettingsChange,
    responses((status = 200, body = SettingsBody), (status = 401, response = ErrorAnswer), (status = 403, response = ErrorAnswer),
        (status = 422, description = "Every problem, by key, in `errors`", body = ErrorBody)))]
pub async fn put(
    State(state): State<AppState>,
    Admin(session): Admin,
    ApiJson(req): ApiJson<SettingsChange>,
) -> ShopResult<Json<SettingsBody>> {
    let changes: Vec<(String, Option<String>)> = req
        .changes
        .into_iter()
        .map(|(k, v)| (k, v.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())))
        .collect();
    let now = state.now();
    let outcome = live::change(&state.config, &state.store, &state.live, &changes, now)
        .await
        .map_err(ShopError::internal)?;
    let effective = match outcome {
        Ok(effective) => effective,
        Err(Refused::UnknownKey(key)) => {
            return Err(ShopError::field(key, "not a setting the console changes"));
        }
        Err(Refused::Invalid(problems)) => {
            return Err(ShopError::fields(
                problems
                    .into_iter()
                    .map(|(field, message)| FieldProblem { field, message })
                    .collect(),
            ));
        }
        Err(Refused::Unusable(message)) => {
            return Err(ShopError::field("payments.gateway", message));
        }
    };
    // Which keys changed, never their values: some are secrets.
    let keys: Vec<&str> = changes.iter().map(|(k, _)| k.as_str()).collect();
    state
        .store
        .audit(
            &session.actor(),
            "settings.change",
            "settings",
            &serde_json::json!({ "keys": keys }),
            now,
        )
        .await?;
    Ok(Json(body(&state, &effective).await?))
}

/// Sets the shop's logo (PNG or JPEG, up to 2 MB and 2048 × 2048 pixels), stamped on logo
/// copies of events without their own.
#[utoipa::path(operation_id = "admin_settings_put_logo", put, path = "/api/admin/settings/logo", tag = "console",
    request_body(content = Vec<u8>, content_type = "image/png"),
    responses((status = 204, description = "Stored"), (status = 401, response = ErrorAnswer), (status = 403, response = ErrorAnswer),
        (status = 413, response = ErrorAnswer), (status = 415, response = ErrorAnswer), (status = 422, response = ErrorAnswer)))]
pub async fn put_logo(
    State(state): State<AppState>,
    Admin(session): Admin,
    body: Body,
) -> ShopResult<StatusCode> {
    let bytes = capped_body(body, MAX_LOGO_BYTES, "logos up to 2 MB are accepted").await?;
    let ext = match sniff(&bytes) {
        Ok(ImageFormat::Png) => "png",
        Ok(ImageFormat::Jpeg) => "jpg",
        Err(_) => {
            return Err(ShopError::new(
                ErrorCode::UnsupportedImageType,
                "a logo is a PNG or JPEG file",
            ));
        }
    };
    // The header's size, before any pixel is decoded: a small file may declare a huge
    // image, which stamping would otherwise decode for every sold photo.
    let info = probe(&bytes)
        .map_err(|_| ShopError::new(ErrorCode::UnreadableImage, "the logo cannot be read"))?;
    if info.pixels() > LOGO_MAX_PIXELS {
        return Err(ShopError::new(
            ErrorCode::ImageTooManyPixels,
            "a logo may have at most 2048 × 2048 pixels",
        ));
    }
    let name = format!("{}.{ext}", &hex::encode(Sha256::digest(&bytes))[..24]);
    let stored = StoredName::parse(&name)
        .ok_or_else(|| ShopError::internal(anyhow::anyhow!("logo name {name}")))?;
    state
        .objects
        .put(&ObjectKey::shared("logo", &stored), bytes)
        .await?;
    let now = state.now();
    state
        .store
        .put_setting(SHOP_LOGO_SETTING, &format!("_shop/logo/{name}"), false, now)
        .await?;
    state
        .store
        .audit(
            &session.actor(),
            "settings.logo",
            "settings",
            &serde_json::json!({ "logo": name }),
            now,
        )
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The shop's logo, as uploaded.
#[utoipa::path(operation_id = "admin_settings_get_logo", get, path = "/api/admin/settings/logo", tag = "console",
    responses((status = 200, description = "The logo", content_type = "image/png"), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer)))]
pub async fn get_logo(State(state): State<AppState>, _admin: Admin) -> ShopResult<Response> {
    let not_found = || ShopError::new(ErrorCode::NotFound, "no shop logo");
    let key = state
        .store
        .setting(SHOP_LOGO_SETTING)
        .await?
        .ok_or_else(not_found)?;
    let name = key
        .strip_prefix("_shop/logo/")
        .and_then(StoredName::parse)
        .ok_or_else(not_found)?;
    let bytes = state
        .objects
        .get(&ObjectKey::shared("logo", &name))
        .await
        .or_missing(|| ShopError::new(ErrorCode::NotFound, "not found"))?;
    let content_type = if name.as_str().ends_with(".png") {
        "image/png"
    } else {
        "image/jpeg"
    };
    Ok((
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        bytes,
    )
        .into_response())
}
