//! The cart's price, computed by the server (`POST /api/cart/quote`, not in the spec): the
//! web app shows these numbers instead of computing money itself, and an order must
//! match them. Only the photos' ids are trusted; prices come from the event.

use axum::Json;
use axum::extract::State;
use raceshot_domain::pricing::cart_totals;
use raceshot_domain::{Flag, Money};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::catalogue::{SUCCESS, find_event};
use super::extract::ApiJson;
use crate::error::{ApiError, ApiResult, ErrorBody, ErrorCode};
use crate::state::AppState;

/// The most photos one cart may hold.
pub const MAX_CART_PHOTOS: usize = 2000;

#[derive(Debug, Deserialize, ToSchema)]
pub struct QuoteRequest {
    pub event_key: String,
    pub image_ids: Vec<i64>,
    /// `Y` when the visitor takes the all-photos deal.
    #[schema(value_type = Option<String>, example = "N")]
    pub is_mhao: Option<Flag>,
    /// The wholesale cart: the event's hybrid tiers and hybrid deal.
    pub wholesale: Option<bool>,
}

/// The spec's cart totals (§3), baht with two decimals, plus what order creation sends.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuoteResponse {
    #[schema(example = "success")]
    pub status: &'static str,
    /// Number of photos.
    pub total: u32,
    /// Every photo at the single-photo price.
    #[schema(value_type = f64)]
    pub cart_full_amt: Money,
    /// The photos split over the package tiers, before the all-photos deal.
    #[schema(value_type = f64)]
    pub cart_full_amt_no_pomo: Money,
    /// `cart_full_amt` − `cart_amt`.
    #[schema(value_type = f64)]
    pub cart_discount: Money,
    /// What the photos cost after every discount.
    #[schema(value_type = f64)]
    pub cart_amt: Money,
    /// 5% of `cart_amt`.
    #[schema(value_type = f64)]
    pub cart_payment_fee: Money,
    /// `cart_amt` + `cart_payment_fee`: what is paid.
    #[schema(value_type = f64)]
    pub cart_final_payment: Money,
    /// To send as `amount` with order creation (= `cart_amt`).
    #[schema(value_type = f64)]
    pub amount: Money,
    /// To send as `paid_amount` with order creation (= `cart_final_payment`).
    #[schema(value_type = f64)]
    pub paid_amount: Money,
}

/// Prices a cart from the event's tiers.
#[utoipa::path(post, path = "/api/cart/quote", tag = "cart",
    request_body = QuoteRequest,
    responses((status = 200, body = QuoteResponse), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("client_token" = [])))]
pub async fn quote(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<QuoteRequest>,
) -> ApiResult<Json<QuoteResponse>> {
    let event = find_event(&state, &req.event_key).await?;
    let mut ids = req.image_ids.clone();
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() || ids.len() > MAX_CART_PHOTOS {
        return Err(ApiError::field(
            "image_ids",
            format!("must hold 1 to {MAX_CART_PHOTOS} photos"),
        ));
    }
    let found = state.store.shown_photo_events(&ids).await?;
    if found.iter().any(|(_, event_id)| *event_id != event.id) {
        return Err(ApiError::new(
            ErrorCode::MixedEvents,
            "the photos belong to more than one event",
        ));
    }
    if found.len() != ids.len() {
        return Err(ApiError::new(
            ErrorCode::ImageNotFound,
            "a photo is unknown or not on sale",
        ));
    }

    let s = &event.spec;
    let wholesale = req.wholesale.unwrap_or(false);
    if wholesale && !s.is_hybrid {
        return Err(ApiError::new(
            ErrorCode::WholesaleNotAvailable,
            "the event has no wholesale deal",
        ));
    }
    let (tiers, deal_on, cap) = if wholesale {
        (&s.hybrid_packages, s.is_mhao_hybrid, s.hybrid_mhao_price)
    } else {
        (&s.packages, s.is_mhao, s.mhao_price)
    };
    let take_deal = req.is_mhao.is_some_and(|f| f.0);
    if take_deal && !deal_on {
        return Err(ApiError::new(
            ErrorCode::DealNotAvailable,
            "the event has no all-photos deal",
        ));
    }
    let free = s.is_free_download || s.is_free_download_keep_contract;
    let count = u32::try_from(ids.len()).unwrap_or(u32::MAX);
    let totals =
        cart_totals(count, tiers, if take_deal { cap } else { None }, free).ok_or_else(|| {
            ApiError::internal(anyhow::anyhow!("event {} has no 1-photo tier", s.key))
        })?;
    Ok(Json(QuoteResponse {
        status: SUCCESS,
        total: totals.count,
        cart_full_amt: totals.full,
        cart_full_amt_no_pomo: totals.packages,
        cart_discount: totals.discount,
        cart_amt: totals.amount,
        cart_payment_fee: totals.fee,
        cart_final_payment: totals.final_payment,
        amount: totals.amount,
        paid_amount: totals.final_payment,
    }))
}
