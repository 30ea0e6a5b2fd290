//! OPN Payments (Omise): card charges (with 3-D Secure), PromptPay charges, webhook
//! events and their signatures.
//!
//! What this adapter relies on (OPN's API documentation at docs.omise.co: Charges API,
//! Sources API, PromptPay, Webhooks, Errors):
//!
//! - Base `https://api.omise.co`; HTTP Basic auth with the secret key as user and an empty
//!   password; form-urlencoded request bodies; JSON answers. Requests pin
//!   `Omise-Version: 2019-05-29` so the shape of answers does not follow the account's
//!   default version.
//! - Amounts are integers in the smallest unit (satang), `currency=thb`.
//! - Card: the browser tokenises the card (`tokn_…`); the server creates the charge with
//!   `POST /charges` (`amount`, `currency`, `card`, `return_uri`, `description`,
//!   `metadata[order_uuid]`). A charge that needs 3-D Secure comes back
//!   `status: "pending"` with an `authorize_uri` to send the buyer to; a declined card
//!   comes back (HTTP 200) `status: "failed"` with `failure_code` and `failure_message`.
//! - PromptPay: `POST /sources` (`type=promptpay`, `amount`, `currency`), then
//!   `POST /charges` with `source` = the source id (and the same amount and currency).
//!   The charge is `pending` until paid; the QR image is at
//!   `source.scannable_code.image.download_uri`; the charge has `expires_at`, and an
//!   unpaid one ends `expired`.
//! - Errors: a 4xx/5xx with `{"object": "error", "code": ..., "message": ...}`.
//! - Webhooks: a POST of an event (`object: "event"`, `key` such as `charge.complete`,
//!   `data` = the charge). The server trusts no webhook body: it re-reads the charge with
//!   `GET /charges/{id}`. When a webhook secret is configured, the `Omise-Signature`
//!   header is checked too: it holds the lowercase hex HMAC-SHA256 of
//!   `{Omise-Signature-Timestamp}.{raw body}`, keyed with the webhook secret **decoded
//!   from base64**; while a secret is being rotated the header carries several
//!   signatures separated by commas, and any one matching is enough. The timestamp is
//!   checked too: a delivery signed more than [`WEBHOOK_TOLERANCE`] before or after the
//!   server's clock is refused like a bad signature, so a captured webhook cannot be
//!   replayed later.

use std::fmt;
use std::time::Duration;

use async_trait::async_trait;
use base64::Engine as _;
use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac};
use raceshot_domain::{GatewayKind, Money};
use serde_json::Value;
use sha2::Sha256;
use subtle::ConstantTimeEq;

use crate::PaymentError;
use crate::gateway::{
    CardCharge, CardNext, Confirmation, Gateway, Outcome, PaymentRequest, QrCode, QrPayment,
    TrailSink,
};
use crate::http::{self, RawResponse};
pub use crate::trail::ChargeStatus;
use crate::trail::{TrailEntry, TrailKind, TrailStatus};

pub const BASE_URL: &str = "https://api.omise.co";

/// The API version every request pins.
pub const API_VERSION: &str = "2019-05-29";

pub const SIGNATURE_HEADER: &str = "Omise-Signature";
pub const SIGNATURE_TIMESTAMP_HEADER: &str = "Omise-Signature-Timestamp";

/// How far a webhook's `Omise-Signature-Timestamp` may be from the server's clock, either
/// way: OPN signs each delivery (retries included) when it sends it, so a fresh delivery
/// is seconds old; five minutes leaves room for clock drift and a slow network.
pub const WEBHOOK_TOLERANCE: Duration = Duration::from_secs(5 * 60);

/// The webhook event key sent when a charge reaches its final state.
pub const CHARGE_COMPLETE: &str = "charge.complete";

#[derive(Clone)]
pub struct OpnSettings {
    /// [`BASE_URL`] or a fake's address in tests.
    pub base_url: String,
    /// `skey_…`.
    pub secret_key: String,
    /// The base64 webhook signing secret from OPN's dashboard, when signatures are checked.
    pub webhook_secret: Option<String>,
    pub timeout: Duration,
}

impl fmt::Debug for OpnSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpnSettings")
            .field("base_url", &self.base_url)
            .field("secret_key", &"[redacted]")
            .field(
                "webhook_secret",
                &self.webhook_secret.as_ref().map(|_| "[redacted]"),
            )
            .field("timeout", &self.timeout)
            .finish()
    }
}

/// An OPN charge, as far as the shop cares.
#[derive(Debug, Clone, PartialEq)]
pub struct Charge {
    pub id: String,
    pub status: ChargeStatus,
    pub amount: Money,
    pub currency: String,
    pub paid: bool,
    /// Where to send the buyer for 3-D Secure.
    pub authorize_uri: Option<String>,
    pub failure_code: Option<String>,
    pub failure_message: Option<String>,
    /// The PromptPay QR image (`source.scannable_code.image.download_uri`).
    pub qr_image_uri: Option<String>,
    pub expires_at: Option<String>,
    /// `metadata.order_uuid`, as the shop set it.
    pub order_uuid: Option<String>,
    pub raw: Value,
}

impl Charge {
    /// How the charge, as OPN answered it, is kept in the trail.
    pub fn trail_entry(&self) -> TrailEntry {
        TrailEntry::new(
            TrailKind::ChargeIs(self.status),
            TrailStatus::Charge(self.status),
        )
        .reference(&self.id)
        .amount(self.amount)
        .payload(self.raw.to_string())
    }

    /// OPN's word on the charge: paid (with its amount and currency), lapsed, or not paid.
    pub fn confirmation(&self) -> Confirmation {
        Confirmation {
            reference: None,
            order_uuid: self.order_uuid.clone(),
            charge_id: Some(self.id.clone()),
            outcome: match self.status {
                ChargeStatus::Successful if self.paid => Outcome::Paid {
                    amount: Some(self.amount),
                    in_baht: self.currency.eq_ignore_ascii_case("thb"),
                },
                ChargeStatus::Expired => Outcome::Lapsed,
                _ => Outcome::Unpaid,
            },
            entry: self.trail_entry(),
        }
    }

    /// Reads a charge object. `id` and a whole, non-negative `amount` are required.
    pub fn from_json(raw: Value) -> Result<Self, PaymentError> {
        if !raw.is_object() {
            return Err(PaymentError::Protocol(
                "OPN charge is not a JSON object".to_owned(),
            ));
        }
        match str_at(&raw, &["object"]) {
            None | Some("charge") => {}
            Some(other) => {
                return Err(PaymentError::Protocol(format!(
                    "expected an OPN charge, got {:?}",
                    http::excerpt(other)
                )));
            }
        }
        let id = str_at(&raw, &["id"])
            .filter(|id| !id.is_empty())
            .ok_or_else(|| PaymentError::Protocol("OPN charge has no id".to_owned()))?
            .to_owned();
        let amount = raw
            .get("amount")
            .and_then(Value::as_i64)
            .and_then(|satang| Money::from_satang(satang).ok())
            .ok_or_else(|| {
                PaymentError::Protocol(format!("OPN charge {id} has no valid amount"))
            })?;
        let owned = |path: &[&str]| {
            str_at(&raw, path)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
        };
        Ok(Charge {
            status: str_at(&raw, &["status"]).map_or(ChargeStatus::Unknown, ChargeStatus::parse),
            currency: str_at(&raw, &["currency"]).unwrap_or_default().to_owned(),
            paid: raw.get("paid").and_then(Value::as_bool).unwrap_or(false),
            authorize_uri: owned(&["authorize_uri"]),
            failure_code: owned(&["failure_code"]),
            failure_message: owned(&["failure_message"]),
            qr_image_uri: owned(&["source", "scannable_code", "image", "download_uri"]),
            expires_at: owned(&["expires_at"]),
            order_uuid: owned(&["metadata", "order_uuid"]),
            id,
            amount,
            raw,
        })
    }
}

/// The string at a path of object keys, if every step is there.
fn str_at<'a>(value: &'a Value, path: &[&str]) -> Option<&'a str> {
    let mut current = value;
    for key in path {
        current = current.get(key)?;
    }
    current.as_str()
}

/// A webhook event, read only far enough to know which charge to re-read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookEvent {
    /// `evnt_…`, when present.
    pub id: Option<String>,
    /// `charge.complete`, `charge.create`, …
    pub key: String,
    /// The charge in `data`, when the event is about one.
    pub charge_id: Option<String>,
}

impl WebhookEvent {
    /// How the event is kept in the trail: once per event and charge status.
    pub fn trail_entry(&self, charge: &Charge, body: &str) -> TrailEntry {
        let reference = self.id.as_deref().unwrap_or(&charge.id);
        TrailEntry::new(TrailKind::Webhook, TrailStatus::Charge(charge.status))
            .reference(format!("{reference}:{}", charge.status))
            .amount(charge.amount)
            .payload(body)
    }

    pub fn parse(body: &[u8]) -> Result<Self, PaymentError> {
        let raw: Value = serde_json::from_slice(body)
            .map_err(|e| PaymentError::Protocol(format!("OPN webhook is not JSON: {e}")))?;
        if !raw.is_object() {
            return Err(PaymentError::Protocol(
                "OPN webhook is not a JSON object".to_owned(),
            ));
        }
        match str_at(&raw, &["object"]) {
            None | Some("event") => {}
            Some(_) => {
                return Err(PaymentError::Protocol(
                    "OPN webhook is not an event".to_owned(),
                ));
            }
        }
        let key = str_at(&raw, &["key"])
            .filter(|k| !k.is_empty())
            .ok_or_else(|| PaymentError::Protocol("OPN webhook event has no key".to_owned()))?
            .to_owned();
        let data_is_charge = match str_at(&raw, &["data", "object"]) {
            Some(object) => object == "charge",
            None => str_at(&raw, &["data", "id"]).is_some_and(|id| id.starts_with("chrg_")),
        };
        let charge_id = if data_is_charge {
            str_at(&raw, &["data", "id"])
                .filter(|id| is_object_id(id))
                .map(str::to_owned)
        } else {
            None
        };
        Ok(WebhookEvent {
            id: str_at(&raw, &["id"]).map(str::to_owned),
            key,
            charge_id,
        })
    }
}

/// An OPN object id (`chrg_test_5x…`): letters, digits and underscores only, so it is
/// safe to put in a URL path.
pub fn is_object_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 100 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// The webhook secret as HMAC key bytes (OPN hands it out base64-encoded).
fn webhook_key(secret: &str) -> Option<Vec<u8>> {
    use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};
    let secret = secret.trim();
    let key = STANDARD
        .decode(secret)
        .or_else(|_| STANDARD_NO_PAD.decode(secret))
        .ok()?;
    (!key.is_empty()).then_some(key)
}

fn webhook_mac(key: &[u8], timestamp: &str, body: &[u8]) -> Option<[u8; 32]> {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).ok()?;
    mac.update(timestamp.as_bytes());
    mac.update(b".");
    mac.update(body);
    Some(mac.finalize().into_bytes().into())
}

/// The `Omise-Signature` value OPN would send for this body: lowercase hex of
/// HMAC-SHA256(base64-decoded secret, `{timestamp}.{body}`). `None` when the secret is
/// not base64.
pub fn sign_webhook(secret: &str, timestamp: &str, body: &[u8]) -> Option<String> {
    let key = webhook_key(secret)?;
    webhook_mac(&key, timestamp, body).map(hex::encode)
}

/// Whether any of the comma-separated signatures in `signature_header` is OPN's signature
/// of `body` at `timestamp`, compared in constant time. False for a secret that is not
/// base64, an empty timestamp or an empty header.
pub fn verify_webhook_signature(
    secret: &str,
    timestamp: &str,
    body: &[u8],
    signature_header: &str,
) -> bool {
    let timestamp = timestamp.trim();
    if timestamp.is_empty() {
        return false;
    }
    let Some(key) = webhook_key(secret) else {
        return false;
    };
    let Some(expected) = webhook_mac(&key, timestamp, body) else {
        return false;
    };
    let mut matched = subtle::Choice::from(0);
    for candidate in signature_header.split(',') {
        if let Ok(bytes) = hex::decode(candidate.trim())
            && bytes.len() == expected.len()
        {
            matched |= bytes.as_slice().ct_eq(&expected);
        }
    }
    bool::from(matched)
}

/// Whether a webhook's `Omise-Signature-Timestamp` (Unix seconds) is within `tolerance` of
/// `now_unix_secs`, to refuse replays of old deliveries.
pub fn webhook_timestamp_is_fresh(
    timestamp: &str,
    now_unix_secs: i64,
    tolerance: Duration,
) -> bool {
    let Ok(sent) = timestamp.trim().parse::<i64>() else {
        return false;
    };
    now_unix_secs
        .checked_sub(sent)
        .is_some_and(|age| age.unsigned_abs() <= tolerance.as_secs())
}

/// Talks to OPN. Cheap to clone; clones share one connection pool.
#[derive(Clone)]
pub struct OpnClient {
    http: reqwest::Client,
    base_url: String,
    secret_key: String,
    webhook_secret: Option<String>,
}

impl fmt::Debug for OpnClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpnClient")
            .field("base_url", &self.base_url)
            .field("checks_webhook_signatures", &self.webhook_secret.is_some())
            .finish_non_exhaustive()
    }
}

impl OpnClient {
    /// Fails with [`PaymentError::Protocol`] when the base URL is not an absolute http(s)
    /// address.
    pub fn new(settings: OpnSettings) -> Result<Self, PaymentError> {
        Ok(OpnClient {
            http: http::build_client(settings.timeout)?,
            base_url: http::normalise_base_url("OPN", &settings.base_url)?,
            secret_key: settings.secret_key,
            webhook_secret: settings.webhook_secret.filter(|s| !s.trim().is_empty()),
        })
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// Whether a webhook secret is configured, so signatures are checked.
    pub fn checks_webhook_signatures(&self) -> bool {
        self.webhook_secret.is_some()
    }

    /// Checks a webhook's signature headers: both must be present, match the webhook
    /// secret, and the timestamp must be within [`WEBHOOK_TOLERANCE`] of `now` (a replayed
    /// old delivery is refused like a forged one). Without a configured secret no webhook
    /// is accepted: the charge is re-read from OPN in any case, but an unsigned message
    /// must not set that work going.
    pub fn webhook_signature_ok(
        &self,
        timestamp: Option<&str>,
        signature: Option<&str>,
        body: &[u8],
        now: DateTime<Utc>,
    ) -> bool {
        match &self.webhook_secret {
            None => false,
            Some(secret) => match (timestamp, signature) {
                (Some(timestamp), Some(signature)) => {
                    let signed = verify_webhook_signature(secret, timestamp, body, signature);
                    let fresh =
                        webhook_timestamp_is_fresh(timestamp, now.timestamp(), WEBHOOK_TOLERANCE);
                    signed && fresh
                }
                _ => false,
            },
        }
    }

    /// A PromptPay source, then a charge on it: the charge comes back `pending` with the
    /// QR image address and `expires_at`.
    pub async fn create_promptpay_charge(
        &self,
        amount: Money,
        description: &str,
        order_uuid: &str,
    ) -> Result<Charge, PaymentError> {
        let satang = amount.satang().to_string();
        let source_form = [
            ("type", "promptpay"),
            ("amount", satang.as_str()),
            ("currency", "thb"),
        ];
        let source = self
            .post_form("opn.create_source", "/sources", &source_form)
            .await?;
        let source_id = str_at(&source, &["id"])
            .filter(|id| is_object_id(id))
            .ok_or_else(|| PaymentError::Protocol("OPN source has no id".to_owned()))?
            .to_owned();
        let charge_form = [
            ("amount", satang.as_str()),
            ("currency", "thb"),
            ("source", source_id.as_str()),
            ("description", description),
            ("metadata[order_uuid]", order_uuid),
        ];
        let charge = self
            .post_form("opn.create_charge", "/charges", &charge_form)
            .await?;
        Charge::from_json(charge)
    }

    /// Charges a card token. A declined card is `Ok` with status `Failed`; a card that
    /// needs 3-D Secure is `Ok` with status `Pending` and an `authorize_uri`, after which
    /// OPN sends the buyer back to `return_uri`.
    pub async fn create_card_charge(
        &self,
        card_token: &str,
        amount: Money,
        return_uri: &str,
        description: &str,
        order_uuid: &str,
    ) -> Result<Charge, PaymentError> {
        let satang = amount.satang().to_string();
        let form = [
            ("amount", satang.as_str()),
            ("currency", "thb"),
            ("card", card_token),
            ("return_uri", return_uri),
            ("description", description),
            ("metadata[order_uuid]", order_uuid),
        ];
        let charge = self
            .post_form("opn.create_charge", "/charges", &form)
            .await?;
        Charge::from_json(charge)
    }

    /// Re-reads a charge: the only word the server takes on its status.
    pub async fn get_charge(&self, id: &str) -> Result<Charge, PaymentError> {
        if !is_object_id(id) {
            return Err(PaymentError::Protocol(format!(
                "not an OPN charge id: {:?}",
                http::excerpt(id)
            )));
        }
        let request = self.authed(self.http.get(format!("{}/charges/{id}", self.base_url)));
        let response = http::send("opn.get_charge", request).await?;
        Charge::from_json(json_answer(&response)?)
    }

    fn authed(&self, request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        request
            .basic_auth(&self.secret_key, Some(""))
            .header("Omise-Version", API_VERSION)
    }

    async fn post_form(
        &self,
        what: &str,
        path: &str,
        form: &[(&str, &str)],
    ) -> Result<Value, PaymentError> {
        let request = self
            .authed(self.http.post(format!("{}{path}", self.base_url)))
            .form(form);
        let response = http::send(what, request).await?;
        json_answer(&response)
    }
}

/// The JSON of a 2xx answer, or the error it stands for.
fn json_answer(response: &RawResponse) -> Result<Value, PaymentError> {
    if response.is_server_error() {
        return Err(PaymentError::Unavailable {
            status: response.status,
        });
    }
    let parsed = serde_json::from_slice::<Value>(&response.body);
    if !response.is_success() {
        return Err(match parsed {
            Ok(value) if value.is_object() => rejected(response.status, &value, response),
            _ => PaymentError::Rejected {
                status: response.status,
                code: format!("http_{}", response.status),
                message: response.text_excerpt(),
            },
        });
    }
    match parsed {
        Ok(value) if str_at(&value, &["object"]) == Some("error") => {
            Err(rejected(response.status, &value, response))
        }
        Ok(value) => Ok(value),
        Err(e) => Err(PaymentError::Protocol(format!(
            "OPN answer is not JSON: {e}"
        ))),
    }
}

fn rejected(status: u16, value: &Value, response: &RawResponse) -> PaymentError {
    PaymentError::Rejected {
        status,
        code: str_at(value, &["code"])
            .map(http::excerpt)
            .unwrap_or_else(|| format!("http_{status}")),
        message: str_at(value, &["message"])
            .map(http::excerpt)
            .unwrap_or_else(|| response.text_excerpt()),
    }
}

/// The trail entry of a charge about to be asked for, paid by `source`.
fn charge_requested(req: &PaymentRequest, source: &str) -> TrailEntry {
    TrailEntry::new(TrailKind::Charge, TrailStatus::Requested)
        .amount(req.amount)
        .payload(source)
}

#[async_trait]
impl Gateway for OpnClient {
    fn kind(&self) -> GatewayKind {
        GatewayKind::Opn
    }

    async fn start_qr(
        &self,
        req: &PaymentRequest,
        trail: &dyn TrailSink,
    ) -> Result<QrPayment, PaymentError> {
        trail.record(charge_requested(req, "promptpay")).await?;
        let charge = self
            .create_promptpay_charge(req.amount, &req.description(), &req.order_uuid)
            .await?;
        trail.record(charge.trail_entry()).await?;
        let qr = charge.qr_image_uri.clone().ok_or_else(|| {
            PaymentError::Protocol("the gateway answered without a QR image".to_owned())
        })?;
        Ok(QrPayment {
            expires_at: charge
                .expires_at
                .as_deref()
                .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
                .map(|t| t.with_timezone(&Utc)),
            reference: charge.id,
            code: QrCode::Text(qr),
        })
    }

    async fn charge_card(
        &self,
        req: &PaymentRequest,
        token: &str,
        trail: &dyn TrailSink,
    ) -> Result<CardCharge, PaymentError> {
        // A charge still waiting for its 3-D Secure step is finished, not doubled.
        if let Some(earlier) = req.gateway_ref.as_deref() {
            let charge = self.get_charge(earlier).await?;
            match (charge.status, &charge.authorize_uri) {
                (ChargeStatus::Successful, _) => {
                    return Ok(CardCharge {
                        gateway_ref: None,
                        next: CardNext::Confirmed(charge.confirmation()),
                    });
                }
                (ChargeStatus::Pending, Some(uri)) => {
                    return Ok(CardCharge {
                        gateway_ref: None,
                        next: CardNext::Authorize(uri.clone()),
                    });
                }
                _ => {}
            }
        }
        // The token is the charge's only idempotency: a second charge with it is refused.
        trail.record(charge_requested(req, "card")).await?;
        let charge = self
            .create_card_charge(
                token,
                req.amount,
                &req.order_page_url,
                &req.description(),
                &req.order_uuid,
            )
            .await?;
        trail.record(charge.trail_entry()).await?;
        let next = match (charge.status, &charge.authorize_uri) {
            (ChargeStatus::Successful, _) => CardNext::Confirmed(charge.confirmation()),
            (ChargeStatus::Pending, Some(uri)) => CardNext::Authorize(uri.clone()),
            (ChargeStatus::Pending, None) => {
                return Err(PaymentError::Protocol(
                    "the card charge is pending without a 3-D Secure address".to_owned(),
                ));
            }
            _ => CardNext::Declined {
                code: charge
                    .failure_code
                    .clone()
                    .unwrap_or_else(|| "failed".to_owned()),
                message: charge.failure_message.clone().unwrap_or_default(),
            },
        };
        Ok(CardCharge {
            gateway_ref: Some(charge.id),
            next,
        })
    }

    /// The charge the order remembers, as OPN tells it now.
    async fn check(&self, req: &PaymentRequest) -> Result<Option<Confirmation>, PaymentError> {
        match req.gateway_ref.as_deref() {
            Some(id) => Ok(Some(self.get_charge(id).await?.confirmation())),
            None => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn settings_debug_hides_secrets() {
        let settings = OpnSettings {
            base_url: BASE_URL.to_owned(),
            secret_key: "skey_test_visible".to_owned(),
            webhook_secret: Some("d2hzZWNyZXQ=".to_owned()),
            timeout: Duration::from_secs(5),
        };
        let text = format!("{settings:?}");
        assert!(!text.contains("skey_test_visible"));
        assert!(!text.contains("d2hzZWNyZXQ="));
    }

    #[test]
    fn charge_reads_nested_fields_and_tolerates_nulls() {
        let raw = json!({
            "object": "charge", "id": "chrg_test_1", "status": "pending", "amount": 21000,
            "currency": "thb", "paid": false, "authorize_uri": null, "failure_code": null,
            "expires_at": "2030-01-01T00:00:00Z",
            "metadata": {"order_uuid": "abc"},
            "source": {"scannable_code": {"image": {"download_uri": "https://x/qr.svg"}}}
        });
        let charge = Charge::from_json(raw).ok();
        let charge = charge.as_ref();
        assert_eq!(charge.map(|c| c.status), Some(ChargeStatus::Pending));
        assert_eq!(charge.map(|c| c.amount.satang()), Some(21_000));
        assert_eq!(
            charge.and_then(|c| c.qr_image_uri.as_deref()),
            Some("https://x/qr.svg")
        );
        assert_eq!(charge.and_then(|c| c.order_uuid.as_deref()), Some("abc"));
        assert_eq!(charge.and_then(|c| c.authorize_uri.as_deref()), None);
    }

    #[test]
    fn charge_refuses_bad_amounts_and_other_objects() {
        for raw in [
            json!({"id": "chrg_1", "amount": -1}),
            json!({"id": "chrg_1", "amount": 1.5}),
            json!({"id": "chrg_1", "amount": "100"}),
            json!({"id": "chrg_1"}),
            json!({"amount": 100}),
            json!({"object": "refund", "id": "rfnd_1", "amount": 100}),
            json!("chrg_1"),
        ] {
            assert!(Charge::from_json(raw.clone()).is_err(), "{raw}");
        }
        let unknown = Charge::from_json(json!({"id": "chrg_1", "amount": 1, "status": "new"}));
        assert_eq!(unknown.ok().map(|c| c.status), Some(ChargeStatus::Unknown));
    }

    #[test]
    fn object_ids_are_path_safe() {
        assert!(is_object_id("chrg_test_5xq2"));
        assert!(!is_object_id(""));
        assert!(!is_object_id("../account"));
        assert!(!is_object_id("chrg_1?x=1"));
        assert!(!is_object_id("chrg 1"));
    }

    #[test]
    fn fresh_timestamps() {
        let tolerance = Duration::from_secs(300);
        assert!(webhook_timestamp_is_fresh("1000", 1200, tolerance));
        assert!(webhook_timestamp_is_fresh("1400", 1200, tolerance));
        assert!(!webhook_timestamp_is_fresh("100", 1200, tolerance));
        assert!(!webhook_timestamp_is_fresh("soon", 1200, tolerance));
        assert!(!webhook_timestamp_is_fresh(
            "-9223372036854775808",
            1200,
            tolerance
        ));
    }

    #[test]
    fn signature_with_secret_that_is_not_base64_never_verifies() {
        assert_eq!(sign_webhook("not base64!", "1", b"{}"), None);
        assert!(!verify_webhook_signature("not base64!", "1", b"{}", "00"));
        assert!(!verify_webhook_signature("", "1", b"{}", "00"));
    }
}
