//! Addresses the server hands out: for an order, the signed, expiring download addresses
//! of its photos, its QR image, its page and the unguessable GB Prime Pay callback
//! address; for an alert of new photos, its pages signed until the alert ends; and the
//! address LINE Login returns to.

use chrono::{DateTime, Utc};
use raceshot_domain::OrderUuid;

use crate::infra::signing;

const DOWNLOAD: &str = "download";
const GBP_CALLBACK: &str = "gbp-callback";
const ALERT_PAGE: &str = "alert-link";

/// Which file of a bought photo.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    Original,
    Logo,
    /// The copy with the event's sponsor frame (`services/frames.rs`).
    Frame,
}

impl Variant {
    pub fn as_str(self) -> &'static str {
        match self {
            Variant::Original => "original",
            Variant::Logo => "logo",
            Variant::Frame => "frame",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "original" => Some(Variant::Original),
            "logo" => Some(Variant::Logo),
            "frame" => Some(Variant::Frame),
            _ => None,
        }
    }
}

/// The server's own addresses: its public base and the key that signs them. Built once at
/// start; what needs an address takes this, not the whole state.
#[derive(Clone)]
pub struct Links {
    /// Base of links this server writes, without a trailing slash.
    public_url: String,
    signing_key: Vec<u8>,
    /// Whether the sandbox gateway's page exists (`payments.allow_sandbox`).
    sandbox: bool,
}

impl Links {
    pub fn new(public_url: String, signing_key: Vec<u8>, sandbox: bool) -> Self {
        Self {
            public_url,
            signing_key,
            sandbox,
        }
    }

    /// The signed address of one photo of an order, valid until `expires`.
    pub fn download_url(
        &self,
        order_uuid: &OrderUuid,
        photo_id: i64,
        variant: Variant,
        expires: DateTime<Utc>,
    ) -> String {
        let expires = expires.timestamp();
        let signature = self.download_signature(order_uuid, photo_id, variant, expires);
        format!(
            "{}/api/orders/{order_uuid}/photos/{photo_id}/{}?expires={expires}&signature={signature}",
            self.public_url,
            variant.as_str()
        )
    }

    fn download_signature(
        &self,
        order_uuid: &OrderUuid,
        photo_id: i64,
        variant: Variant,
        expires: i64,
    ) -> String {
        let [photo, expires] = [photo_id.to_string(), expires.to_string()];
        signing::sign(
            &self.signing_key,
            DOWNLOAD,
            &[&order_uuid.to_string(), &photo, variant.as_str(), &expires],
        )
    }

    /// Whether a download address's signature is the server's (expiry is checked apart).
    pub fn download_signature_ok(
        &self,
        order_uuid: &OrderUuid,
        photo_id: i64,
        variant: Variant,
        expires: i64,
        signature: &str,
    ) -> bool {
        let expected = self.download_signature(order_uuid, photo_id, variant, expires);
        signing::same(&expected, signature)
    }

    /// The token in an order's GB Prime Pay callback address.
    pub fn gbp_callback_token(&self, order_uuid: &OrderUuid) -> String {
        signing::sign(&self.signing_key, GBP_CALLBACK, &[&order_uuid.to_string()])
    }

    pub fn gbp_callback_url(&self, order_uuid: &OrderUuid) -> String {
        format!(
            "{}/api/payments/gbp/{order_uuid}/{}",
            self.public_url,
            self.gbp_callback_token(order_uuid)
        )
    }

    pub fn gbp_callback_token_ok(&self, order_uuid: &OrderUuid, token: &str) -> bool {
        signing::verify(
            &self.signing_key,
            GBP_CALLBACK,
            &[&order_uuid.to_string()],
            token,
        )
    }

    /// The order's QR image, for gateways that hand out an image (GB Prime Pay).
    pub fn qr_image_url(&self, order_uuid: &OrderUuid) -> String {
        format!("{}/api/orders/{order_uuid}/qr.png", self.public_url)
    }

    /// Whether the sandbox gateway's pages exist (`payments.allow_sandbox`).
    pub fn sandbox_open(&self) -> bool {
        self.sandbox
    }

    /// The sandbox gateway's payment page of an order; `None` while the sandbox is off
    /// (`payments.allow_sandbox`), when that page answers 404 and no answer may lead to it.
    pub fn sandbox_page_url(&self, order_uuid: &OrderUuid, card: bool) -> Option<String> {
        if !self.sandbox_open() {
            return None;
        }
        let query = if card { "?card=1" } else { "" };
        Some(format!(
            "{}/sandbox/pay/{order_uuid}{query}",
            self.public_url
        ))
    }

    /// The shop's order page.
    pub fn order_page_url(&self, order_uuid: &OrderUuid) -> String {
        format!("{}/download/{order_uuid}", self.public_url)
    }

    /// The page of an alert's new photos, and the same page asking to stop, both signed
    /// until `expires` (the alert's end): `?t={expiry}.{signature}`.
    pub fn alert_pages(&self, public_id: &str, expires: DateTime<Utc>) -> (String, String) {
        let expires = expires.timestamp().to_string();
        let signature = signing::sign(&self.signing_key, ALERT_PAGE, &[public_id, &expires]);
        let view = format!(
            "{}/alerts/{public_id}?t={expires}.{signature}",
            self.public_url
        );
        let stop = format!("{view}&stop=1");
        (view, stop)
    }

    /// The expiry an alert page's token `{expiry}.{signature}` carries, when the server
    /// signed it for `public_id` (whether it has passed is checked apart).
    pub fn alert_token_expiry(&self, public_id: &str, token: &str) -> Option<i64> {
        let (expires, signature) = token.split_once('.')?;
        signing::verify(
            &self.signing_key,
            ALERT_PAGE,
            &[public_id, expires],
            signature,
        )
        .then(|| expires.parse().ok())
        .flatten()
    }

    /// The address LINE Login returns to.
    pub fn line_callback_url(&self) -> String {
        format!("{}/api/line/callback", self.public_url)
    }
}
