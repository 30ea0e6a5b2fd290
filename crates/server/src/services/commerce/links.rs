//! Addresses the server hands out for an order: signed, expiring download addresses of
//! its photos, the order's QR image, and the unguessable GB Prime Pay callback address.

use chrono::{DateTime, Utc};
use raceshot_domain::OrderUuid;

use crate::app::state::AppState;
use crate::infra::signing;

const DOWNLOAD: &str = "download";
const GBP_CALLBACK: &str = "gbp-callback";

/// Which file of a bought photo.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    Original,
    Logo,
}

impl Variant {
    pub fn as_str(self) -> &'static str {
        match self {
            Variant::Original => "original",
            Variant::Logo => "logo",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "original" => Some(Variant::Original),
            "logo" => Some(Variant::Logo),
            _ => None,
        }
    }
}

/// The signed address of one photo of an order, valid until `expires`.
pub fn download_url(
    state: &AppState,
    order_uuid: &OrderUuid,
    photo_id: i64,
    variant: Variant,
    expires: DateTime<Utc>,
) -> String {
    let expires = expires.timestamp();
    let signature = download_signature(state, order_uuid, photo_id, variant, expires);
    format!(
        "{}/api/orders/{order_uuid}/photos/{photo_id}/{}?expires={expires}&signature={signature}",
        state.public_url,
        variant.as_str()
    )
}

fn download_signature(
    state: &AppState,
    order_uuid: &OrderUuid,
    photo_id: i64,
    variant: Variant,
    expires: i64,
) -> String {
    let [photo, expires] = [photo_id.to_string(), expires.to_string()];
    signing::sign(
        &state.signing_key,
        DOWNLOAD,
        &[&order_uuid.to_string(), &photo, variant.as_str(), &expires],
    )
}

/// Whether a download address's signature is the server's (expiry is checked apart).
pub fn download_signature_ok(
    state: &AppState,
    order_uuid: &OrderUuid,
    photo_id: i64,
    variant: Variant,
    expires: i64,
    signature: &str,
) -> bool {
    let expected = download_signature(state, order_uuid, photo_id, variant, expires);
    signing::same(&expected, signature)
}

/// The token in an order's GB Prime Pay callback address.
pub fn gbp_callback_token(state: &AppState, order_uuid: &OrderUuid) -> String {
    signing::sign(&state.signing_key, GBP_CALLBACK, &[&order_uuid.to_string()])
}

pub fn gbp_callback_url(state: &AppState, order_uuid: &OrderUuid) -> String {
    format!(
        "{}/api/payments/gbp/{order_uuid}/{}",
        state.public_url,
        gbp_callback_token(state, order_uuid)
    )
}

pub fn gbp_callback_token_ok(state: &AppState, order_uuid: &OrderUuid, token: &str) -> bool {
    signing::verify(
        &state.signing_key,
        GBP_CALLBACK,
        &[&order_uuid.to_string()],
        token,
    )
}

/// The order's QR image, for gateways that hand out an image (GB Prime Pay).
pub fn qr_image_url(state: &AppState, order_uuid: &OrderUuid) -> String {
    format!("{}/api/orders/{order_uuid}/qr.png", state.public_url)
}

/// The sandbox gateway's payment page of an order; `None` while the sandbox is off
/// (`payments.allow_sandbox`), when that page answers 404 and no answer may lead to it.
pub fn sandbox_page_url(state: &AppState, order_uuid: &OrderUuid, card: bool) -> Option<String> {
    if !state.config.payments.allow_sandbox {
        return None;
    }
    let query = if card { "?card=1" } else { "" };
    Some(format!(
        "{}/sandbox/pay/{order_uuid}{query}",
        state.public_url
    ))
}

/// The shop's order page.
pub fn order_page_url(state: &AppState, order_uuid: &OrderUuid) -> String {
    format!("{}/download/{order_uuid}", state.public_url)
}
