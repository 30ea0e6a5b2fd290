//! The cart's price, computed by the server (`POST /api/cart/quote`, the server's own call;
//! docs/shop-contract.md, Prices): the web app shows these numbers instead of computing
//! money itself, and an order must match them. Only the photos' ids are trusted; prices
//! come from the event, or a photo pass of the event pays for the cart.

use axum::Json;
use axum::extract::State;
use raceshot_domain::{Flag, Money};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::catalogue::SUCCESS;
use super::extract::ApiJson;
use crate::api::contract;
use crate::api::error::ErrorAnswer;
use crate::api::extract::ClientIp;
use crate::app::state::AppState;
use crate::error::ShopResult;
use crate::services::commerce::{AskedCart, CommerceError, PassShortfall, price_with_pass};
use crate::services::commerce::{find_event, parse_event_key};

#[derive(Debug, Deserialize, ToSchema)]
pub struct QuoteRequest {
    pub event_key: String,
    pub image_ids: Vec<i64>,
    /// `Y` when the visitor takes the all-photos deal.
    #[schema(value_type = Option<contract::YesNo>, example = "N")]
    pub is_mhao: Option<Flag>,
    /// The wholesale cart: the event's wholesale packages and wholesale deal.
    pub wholesale: Option<bool>,
    /// With the deal: the `found_ref` of each search whose photos the cart holds (at most
    /// 8). The deal covers only photos those searches found; others are priced by the tiers.
    #[serde(default)]
    pub found_refs: Vec<String>,
    /// A photo pass's code as the runner typed it (`XXXX-XXXX-XXXX`; case, spaces and
    /// dashes do not matter). Send `found_refs` with an all-photos pass: it covers the
    /// photos those searches found.
    #[schema(example = "K7QM-4XTP-9HWA")]
    pub pass_code: Option<String>,
    /// The bib whose finisher certificate the cart buys (the event's certificates must be
    /// sold: offered at a price), from the results search. The cart may hold it alone.
    #[schema(example = "1234")]
    pub certificate_bib: Option<String>,
}

/// The photo pass given with the cart.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuotePass {
    /// The photos it covers; `null`: the photos the runner's searches found.
    pub photos: Option<u32>,
    /// Whether it pays for this cart; then every amount above is 0 and the order is `FREE`.
    pub pays: bool,
    /// Why it does not: `too_many_photos`, `not_found_by_search`, `wholesale`,
    /// `free_event` or `certificate` (a pass pays for photos only).
    #[schema(value_type = Option<String>, example = "too_many_photos")]
    pub reason: Option<&'static str>,
}

/// The cart totals, baht with two decimals, plus what order creation sends.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuoteResponse {
    #[schema(example = "success")]
    pub status: &'static str,
    /// Number of photos.
    pub total: u32,
    /// Every photo at the single-photo price (and the certificate, if any).
    #[schema(value_type = f64)]
    pub cart_full_amt: Money,
    /// The photos split over the package tiers, before the all-photos deal (and the
    /// certificate).
    #[schema(value_type = f64)]
    pub cart_full_amt_no_pomo: Money,
    /// `cart_full_amt` − `cart_amt`.
    #[schema(value_type = f64)]
    pub cart_discount: Money,
    /// What the cart costs after every discount.
    #[schema(value_type = f64)]
    pub cart_amt: Money,
    /// 5% of `cart_amt`.
    #[schema(value_type = f64)]
    pub cart_payment_fee: Money,
    /// `cart_amt` + `cart_payment_fee`: what is paid.
    #[schema(value_type = f64)]
    pub cart_final_payment: Money,
    /// With `certificate_bib`: the finisher certificate's price (included in every amount
    /// above but the discount); absent without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<f64>)]
    pub cart_certificate_amt: Option<Money>,
    /// To send as `amount` with order creation (= `cart_amt`).
    #[schema(value_type = f64)]
    pub amount: Money,
    /// To send as `paid_amount` with order creation (= `cart_final_payment`).
    #[schema(value_type = f64)]
    pub paid_amount: Money,
    /// With `pass_code`: what the pass covers and whether it pays for this cart; absent
    /// without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pass: Option<QuotePass>,
}

/// Prices a cart from the event's tiers, or with the photo pass given. A code that is no
/// pass of the event answers 422 `pass_not_found` (and counts against the client's wrong
/// codes: 429 past `orders.wrong_pass_codes_per_client_per_minute`); a pass that paid for
/// another order, 409 `pass_used`.
#[utoipa::path(post, path = "/api/cart/quote", tag = "cart",
    request_body = QuoteRequest,
    responses((status = 200, body = QuoteResponse), (status = 401, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer), (status = 409, response = ErrorAnswer), (status = 422, response = ErrorAnswer),
        (status = 429, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn quote(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    ApiJson(req): ApiJson<QuoteRequest>,
) -> ShopResult<Json<QuoteResponse>> {
    // A certificate's bib is looked up in the results: it is limited as a results search
    // is, so the quote cannot list which bibs have a result. A cart page quotes often;
    // other quotes read nothing about anyone and are not limited.
    if req.certificate_bib.is_some() {
        state.rate_limits.search.check(client)?;
    }
    let event = find_event(&state.catalogue, &parse_event_key(&req.event_key)?).await?;
    let asked = AskedCart {
        photo_ids: req.image_ids,
        deal: req.is_mhao.is_some_and(|f| f.0),
        wholesale: req.wholesale.unwrap_or(false),
        found_refs: req.found_refs,
        pass_code: req.pass_code,
        certificate_bib: req.certificate_bib,
    };
    let cart = price_with_pass(&state.commerce(), &event, &asked, client).await?;
    let pass = match cart.pass {
        Some(pass) => {
            if pass.redeemed {
                return Err(CommerceError::PassUsed.into());
            }
            Some(QuotePass {
                photos: pass.cover.photos(),
                pays: pass.pays.is_ok(),
                reason: pass.pays.err().map(shortfall_reason),
            })
        }
        None => None,
    };
    let totals = cart.totals;
    Ok(Json(QuoteResponse {
        status: SUCCESS,
        total: totals.count,
        cart_full_amt: totals.full,
        cart_full_amt_no_pomo: totals.packages,
        cart_discount: totals.discount,
        cart_amt: totals.amount,
        cart_payment_fee: totals.fee,
        cart_final_payment: totals.final_payment,
        cart_certificate_amt: cart.certificate.as_ref().map(|c| c.price),
        amount: totals.amount,
        paid_amount: totals.final_payment,
        pass,
    }))
}

fn shortfall_reason(why: PassShortfall) -> &'static str {
    match why {
        PassShortfall::TooManyPhotos { .. } => "too_many_photos",
        PassShortfall::NotFoundBySearch => "not_found_by_search",
        PassShortfall::Wholesale => "wholesale",
        PassShortfall::FreeEvent => "free_event",
        PassShortfall::Certificate => "certificate",
    }
}
