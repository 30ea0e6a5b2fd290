//! The console's view of messages to runners (admins only): per channel, whether a
//! provider is set up, its daily cap and what it sent today; the messages of the last days
//! counted per channel, kind and outcome (sent, only logged, capped, refused for good, or
//! still being sent or retried); and a test message through one channel to an address
//! the operator gives, which goes through the provider, counts against the cap and is
//! audited.

use axum::Json;
use axum::extract::State;
use chrono::Duration;
use raceshot_domain::order::{mask_email, mask_mobile};
use raceshot_domain::time::format_bangkok;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::auth::Admin;
use crate::api::error::ErrorAnswer;
use crate::api::extract::{ApiJson, ApiQuery};
use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError, ShopResult};
use crate::infra::channels::ChannelKind;
use crate::services::messages::{self, MessageKind, Outcome, SendError, templates};

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MessagesQuery {
    /// Messages of the last this many days (1 to 30; default 1).
    pub days: Option<u32>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MessagesBody {
    /// RFC 3339, Bangkok time: the counts are of messages made since.
    pub since: String,
    pub channels: Vec<ChannelBody>,
    pub counts: Vec<CountBody>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ChannelBody {
    /// `email`, `sms` or `line`.
    pub channel: &'static str,
    /// A provider is set up: messages reach people (else they are only logged).
    pub delivers: bool,
    /// Messages it sends per day at most (0: no cap).
    pub daily_cap: u32,
    /// Messages a provider accepted since midnight in Bangkok.
    pub sent_today: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CountBody {
    pub channel: String,
    /// `order_link`, `order_ready`, `order_code`, `privacy_decision` or `trial`.
    pub kind: String,
    /// `sent`, `logged`, `capped`, `failed` (refused for good) or `sending` (under way,
    /// or waiting to be tried again).
    pub outcome: &'static str,
    pub count: i64,
}

/// Messages to runners: channels and counts.
#[utoipa::path(operation_id = "admin_messages", get, path = "/api/admin/messages", tag = "console",
    params(MessagesQuery),
    responses((status = 200, body = MessagesBody), (status = 401, response = ErrorAnswer), (status = 403, response = ErrorAnswer)))]
pub async fn list(
    State(state): State<AppState>,
    _admin: Admin,
    ApiQuery(query): ApiQuery<MessagesQuery>,
) -> ShopResult<Json<MessagesBody>> {
    let now = state.now();
    let days = query.days.unwrap_or(1);
    if !(1..=30).contains(&days) {
        return Err(ShopError::field("days", "from 1 to 30"));
    }
    let since = now - Duration::days(i64::from(days));
    let live = state.live();
    let today = messages::start_of_day(now);
    let mut channels = Vec::new();
    for kind in ChannelKind::ALL {
        channels.push(ChannelBody {
            channel: kind.as_str(),
            delivers: messages::channel(&live, kind).delivers(),
            daily_cap: live.daily_caps.of(kind),
            sent_today: state
                .store
                .messages_sent_since(kind.as_str(), today)
                .await?,
        });
    }
    let counts = state
        .store
        .message_counts(since)
        .await?
        .into_iter()
        .map(|c| CountBody {
            channel: c.channel,
            kind: c.kind,
            outcome: c.state.as_str(),
            count: c.count,
        })
        .collect();
    Ok(Json(MessagesBody {
        since: format_bangkok(since),
        channels,
        counts,
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct TrialRequest {
    /// `email`, `sms` or `line`.
    pub channel: String,
    /// An e-mail address, a Thai mobile number, or a LINE user id (`U` and 32 hex
    /// characters: the LINE Developers console shows one's own).
    pub to: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TrialBody {
    /// `sent` (a provider took it), `logged` (no provider set up) or `capped`.
    pub outcome: &'static str,
}

/// Sends a test message through one channel.
#[utoipa::path(operation_id = "admin_messages_trial", post, path = "/api/admin/messages/trial", tag = "console",
    request_body = TrialRequest,
    responses((status = 200, body = TrialBody), (status = 401, response = ErrorAnswer), (status = 403, response = ErrorAnswer),
        (status = 422, response = ErrorAnswer), (status = 503, response = ErrorAnswer)))]
pub async fn trial(
    State(state): State<AppState>,
    Admin(session): Admin,
    ApiJson(req): ApiJson<TrialRequest>,
) -> ShopResult<Json<TrialBody>> {
    let (via, to, shown) = match req.channel.as_str() {
        "email" => {
            let email = raceshot_domain::Email::parse(req.to.trim())
                .ok_or_else(|| ShopError::field("to", "an e-mail address"))?;
            let shown = mask_email(email.as_str());
            (ChannelKind::Email, email.as_str().to_owned(), shown)
        }
        "sms" => {
            let mobile = raceshot_domain::Mobile::parse(
                req.to.trim(),
                raceshot_domain::Mobile::SEARCH_LENGTH,
            )
            .ok_or_else(|| ShopError::field("to", "a Thai mobile number"))?;
            let shown = mask_mobile(mobile.as_str());
            (ChannelKind::Sms, mobile.as_str().to_owned(), shown)
        }
        "line" => {
            let id = req.to.trim();
            if !(id.len() == 33
                && id.starts_with('U')
                && id[1..].bytes().all(|b| b.is_ascii_hexdigit()))
            {
                return Err(ShopError::field(
                    "to",
                    "a LINE user id: U and 32 hex characters",
                ));
            }
            (ChannelKind::Line, id.to_owned(), format!("{}***", &id[..5]))
        }
        _ => return Err(ShopError::field("channel", "email, sms or line")),
    };
    let key = format!("trial:{}:{}", uuid::Uuid::new_v4(), via.as_str());
    let message = templates::trial(&state.public_url);
    let outcome = messages::send_once(
        &state.outbox(),
        &key,
        MessageKind::Trial,
        via,
        &to,
        &message,
    )
    .await
    .map_err(|e| match e {
        SendError::Undeliverable(e) => {
            ShopError::new(ErrorCode::InvalidField, format!("{e:#}")).with_field("to")
        }
        // The operator needs the provider's reason (it names no secret).
        SendError::Failed(e) => ShopError::new(
            ErrorCode::Unavailable,
            format!("the provider refused the test message: {e:#}"),
        ),
    })?;
    state
        .store
        .audit(
            &session.actor(),
            "messages.trial",
            via.as_str(),
            &serde_json::json!({ "to": shown }),
            state.now(),
        )
        .await?;
    Ok(Json(TrialBody {
        outcome: match outcome {
            Outcome::Sent | Outcome::DoneBefore(_) => "sent",
            Outcome::Logged => "logged",
            Outcome::Capped => "capped",
        },
    }))
}
