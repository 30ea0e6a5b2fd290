//! `POST /v1/logs/` (docs/shop-contract.md, Calls): the web app reports what visitors put
//! in their carts. Only checked values are kept; the answer carries nothing the shop shows.

use axum::Json;
use axum::extract::State;
use raceshot_store::cart_logs::CartLog;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::catalogue::SUCCESS;
use super::extract::{ApiJson, NumberOrText};
use crate::api::error::ErrorAnswer;
use crate::app::state::AppState;
use crate::error::{ShopError, ShopResult};

/// Longest `list` kept: a cart's worth of ids.
const MAX_LIST: usize = 20_000;

#[derive(Debug, Deserialize, ToSchema)]
pub struct CartLogRequest {
    /// `cart` or `cart-wholesale`.
    pub service: String,
    pub cart_count: u32,
    /// The photo just added or removed (a number or a string).
    #[schema(value_type = Option<NumberOrText>)]
    pub image_id: Option<serde_json::Value>,
    /// Photo ids, comma-joined.
    pub list: Option<String>,
    pub event_key: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LogResponse {
    #[schema(example = "success")]
    pub status: &'static str,
}

/// Records one cart analytics event.
#[utoipa::path(post, path = "/v1/logs/", tag = "cart",
    request_body = CartLogRequest,
    responses((status = 200, body = LogResponse), (status = 401, response = ErrorAnswer), (status = 422, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn cart_log(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<CartLogRequest>,
) -> ShopResult<Json<LogResponse>> {
    if !matches!(req.service.as_str(), "cart" | "cart-wholesale") {
        return Err(ShopError::field(
            "service",
            "must be cart or cart-wholesale",
        ));
    }
    let event_key = raceshot_domain::EventKey::parse(&req.event_key)
        .map_err(|e| ShopError::field("event_key", e.to_string()))?;
    let image_id = match req.image_id {
        None | Some(serde_json::Value::Null) => String::new(),
        Some(serde_json::Value::Number(n)) => n.to_string(),
        Some(serde_json::Value::String(s)) if s.len() <= 64 => s,
        Some(_) => return Err(ShopError::field("image_id", "must be a photo id")),
    };
    let list = req.list.unwrap_or_default();
    if list.len() > MAX_LIST
        || !list
            .chars()
            .all(|c| c.is_ascii_digit() || c == ',' || c == ' ')
    {
        return Err(ShopError::field(
            "list",
            "must be photo ids joined by commas",
        ));
    }
    let log = CartLog {
        at: state.now(),
        service: req.service,
        event_key: event_key.to_string(),
        cart_count: i64::from(req.cart_count),
        image_id,
        list,
    };
    state.store.add_cart_log(&log).await?;
    Ok(Json(LogResponse { status: SUCCESS }))
}
