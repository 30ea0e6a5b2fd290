//! GB Prime Pay QR Cash: create a QR for an order, read the callback GB Prime Pay posts to
//! `backgroundUrl` when the runner pays, and confirm the payment with `check_status_txn`.
//!
//! What this adapter relies on (GB Prime Pay's API documentation at
//! doc.globalprimepay.com, the "API Query" page for `check_status_txn`, and the QR Cash
//! integration in use by merchants):
//!
//! - Production base `https://api.gbprimepay.com`, sandbox `https://api.globalprimepay.com`.
//! - `POST {base}/v3/qrcode`, form-urlencoded: `token` (the merchant token, which is the
//!   only credential of this call), `amount` in baht with two decimals (`100.00`),
//!   `referenceNo` (the merchant's reference, at most 15 characters), `backgroundUrl`,
//!   `detail`, and optionally `customerName`, `customerEmail`, `customerTelephone`. The
//!   answer is the QR image itself, `image/png`.
//! - The callback to `backgroundUrl` is a JSON object: `resultCode` (`"00"` = paid),
//!   `amount`, `referenceNo`, `gbpReferenceNo`, `currencyCode` (`764`), `paymentType`
//!   (`Q` = QR Cash), `date`, `time`, and more (`totalAmount`, `fee`, `vat`, `thbAmount`,
//!   `customerName`, `retryFlag`, …). Amounts are seen both as numbers and as strings.
//!   It is **not signed**: the server puts an unguessable token in `backgroundUrl`, treats
//!   the callback only as a hint, and marks an order paid only after `check_status_txn`
//!   says so. [`GbpCallback::parse`] also reads a form-urlencoded body, which GB Prime Pay
//!   uses for its other products' callbacks.
//! - `POST {base}/v1/check_status_txn` with HTTP Basic auth (the secret key as user, an
//!   empty password) and the JSON body `{"referenceNo": "..."}`. The answer is
//!   `{"resultCode": "00", "txn": {"amount": "1.00", "referenceNo": ..., "gbpReferenceNo":
//!   ..., "status": "S", "paymentType": "Q", "resultCode": "00", ...}}`; some accounts
//!   answer a `txns` array instead of `txn`. A transaction is paid when the outer
//!   `resultCode` is `"00"` and its `status` is `"S"` (settled); every other status letter,
//!   and every other result code (such as an unknown reference), counts as not paid.

use std::fmt;
use std::time::Duration;

use bytes::Bytes;
use raceshot_domain::Money;
use serde_json::Value;

use async_trait::async_trait;
use raceshot_domain::GatewayKind;

use crate::gateway::{
    Confirmation, Gateway, Outcome, PaymentRequest, QrCode, QrPayment, TrailSink,
};
use crate::http::{self, RawResponse};
use crate::trail::{TrailEntry, TrailKind, TrailStatus};
use crate::{PaymentError, baht_from_json};

pub const PRODUCTION_BASE_URL: &str = "https://api.gbprimepay.com";
pub const SANDBOX_BASE_URL: &str = "https://api.globalprimepay.com";

/// The longest `referenceNo` GB Prime Pay accepts.
pub const MAX_REFERENCE_NO_LEN: usize = 15;

/// The result code of a paid QR, in callbacks and status answers alike.
pub const PAID_RESULT_CODE: &str = "00";

/// The transaction status letter of a settled (paid) transaction.
pub const SETTLED_STATUS: &str = "S";

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

#[derive(Clone)]
pub struct GbpSettings {
    /// [`PRODUCTION_BASE_URL`], [`SANDBOX_BASE_URL`] or a fake's address in tests.
    pub base_url: String,
    /// The merchant token sent with every QR request.
    pub token: String,
    /// The secret key for `check_status_txn`.
    pub secret_key: String,
    pub timeout: Duration,
}

impl fmt::Debug for GbpSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GbpSettings")
            .field("base_url", &self.base_url)
            .field("token", &"[redacted]")
            .field("secret_key", &"[redacted]")
            .field("timeout", &self.timeout)
            .finish()
    }
}

/// One QR to create. Its `Debug` leaves out `background_url`, whose token is a secret.
#[derive(Clone, PartialEq, Eq)]
pub struct GbpQrRequest {
    pub amount: Money,
    /// The merchant's reference, at most [`MAX_REFERENCE_NO_LEN`] characters.
    pub reference_no: String,
    /// Where GB Prime Pay posts the callback; should carry an unguessable token.
    pub background_url: String,
    /// What the payer's banking app shows.
    pub detail: String,
    pub customer_telephone: Option<String>,
    pub customer_email: Option<String>,
}

impl fmt::Debug for GbpQrRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GbpQrRequest")
            .field("amount", &self.amount)
            .field("reference_no", &self.reference_no)
            .field("background_url", &"[redacted]")
            .field("detail", &self.detail)
            .finish_non_exhaustive()
    }
}

/// The callback GB Prime Pay posts to `backgroundUrl`. Unsigned: a hint to call
/// [`GbpClient::check_status`], never proof of payment.
#[derive(Debug, Clone, PartialEq)]
pub struct GbpCallback {
    pub result_code: String,
    pub amount: Money,
    pub reference_no: String,
    pub gbp_reference_no: Option<String>,
    pub currency_code: Option<String>,
    pub payment_type: Option<String>,
    pub date: Option<String>,
    pub time: Option<String>,
    /// The whole body as received (a form body becomes an object of strings).
    pub raw: Value,
}

impl GbpCallback {
    /// Reads a JSON body, or failing that a form-urlencoded one. `resultCode`,
    /// `referenceNo` and a valid `amount` (string or number, at most two decimals, not
    /// negative) are required.
    pub fn parse(body: &[u8]) -> Result<Self, PaymentError> {
        let raw = match serde_json::from_slice::<Value>(body) {
            Ok(value @ Value::Object(_)) => value,
            Ok(_) => {
                return Err(PaymentError::Protocol(
                    "GBP callback is not a JSON object".to_owned(),
                ));
            }
            Err(_) => form_as_json(body).ok_or_else(|| {
                PaymentError::Protocol("GBP callback is neither JSON nor a form".to_owned())
            })?,
        };
        let result_code = text_field(&raw, "resultCode")
            .ok_or_else(|| PaymentError::Protocol("GBP callback has no resultCode".to_owned()))?;
        let reference_no = text_field(&raw, "referenceNo")
            .filter(|r| !r.is_empty())
            .ok_or_else(|| PaymentError::Protocol("GBP callback has no referenceNo".to_owned()))?;
        let amount = raw
            .get("amount")
            .and_then(baht_from_json)
            .ok_or_else(|| PaymentError::Protocol("GBP callback has no valid amount".to_owned()))?;
        Ok(GbpCallback {
            result_code,
            amount,
            reference_no,
            gbp_reference_no: text_field(&raw, "gbpReferenceNo"),
            currency_code: text_field(&raw, "currencyCode"),
            payment_type: text_field(&raw, "paymentType"),
            date: text_field(&raw, "date"),
            time: text_field(&raw, "time"),
            raw,
        })
    }

    /// Whether the callback claims payment (`resultCode` `"00"`). Still to be confirmed
    /// with [`GbpClient::check_status`].
    pub fn is_paid(&self) -> bool {
        self.result_code == PAID_RESULT_CODE
    }

    /// How the callback is kept in the trail: once per GB Prime Pay reference and result.
    pub fn trail_entry(&self, body: &str) -> TrailEntry {
        let reference = self
            .gbp_reference_no
            .as_deref()
            .unwrap_or(&self.reference_no);
        TrailEntry::new(
            TrailKind::Callback,
            if self.is_paid() {
                TrailStatus::Paid
            } else {
                TrailStatus::Unpaid
            },
        )
        .reference(format!("{reference}:{}", self.result_code))
        .amount(self.amount)
        .payload(body)
    }
}

/// What `check_status_txn` says about one reference.
#[derive(Debug, Clone, PartialEq)]
pub struct GbpTransaction {
    /// Outer `resultCode` `"00"` and transaction `status` `"S"`.
    pub paid: bool,
    /// The transaction's amount, when there is a transaction and it is readable.
    pub amount: Option<Money>,
    pub reference_no: String,
    pub gbp_reference_no: Option<String>,
    /// The outer `resultCode`.
    pub result_code: String,
    /// The transaction's status letter (`S` settled), when there is a transaction.
    pub status: Option<String>,
    pub raw: Value,
}

impl GbpTransaction {
    /// GB Prime Pay's word on the reference: paid with its amount, or not paid.
    pub fn confirmation(&self) -> Confirmation {
        let mut entry = TrailEntry::new(
            TrailKind::StatusCheck { paid: self.paid },
            if self.paid {
                TrailStatus::Paid
            } else {
                TrailStatus::Unpaid
            },
        )
        .reference(
            self.gbp_reference_no
                .as_deref()
                .unwrap_or(&self.reference_no),
        )
        .payload(self.raw.to_string());
        entry.amount = self.amount;
        Confirmation {
            reference: Some(self.reference_no.clone()),
            order_uuid: None,
            charge_id: None,
            outcome: if self.paid {
                Outcome::Paid {
                    amount: self.amount,
                    in_baht: true,
                }
            } else {
                Outcome::Unpaid
            },
            entry,
        }
    }

    fn from_answer(requested: &str, raw: Value) -> Result<Self, PaymentError> {
        if !raw.is_object() {
            return Err(PaymentError::Protocol(
                "GBP status answer is not a JSON object".to_owned(),
            ));
        }
        let result_code = text_field(&raw, "resultCode").ok_or_else(|| {
            PaymentError::Protocol("GBP status answer has no resultCode".to_owned())
        })?;
        let txn = pick_transaction(&raw, requested);
        let status = txn.and_then(|t| text_field(t, "status"));
        let txn_result_ok = txn
            .and_then(|t| text_field(t, "resultCode"))
            .is_none_or(|code| code == PAID_RESULT_CODE);
        let paid = result_code == PAID_RESULT_CODE
            && status.as_deref() == Some(SETTLED_STATUS)
            && txn_result_ok;
        let amount = txn.and_then(|t| t.get("amount")).and_then(baht_from_json);
        let reference_no = txn
            .and_then(|t| text_field(t, "referenceNo"))
            .unwrap_or_else(|| requested.to_owned());
        let gbp_reference_no = txn.and_then(|t| text_field(t, "gbpReferenceNo"));
        Ok(GbpTransaction {
            paid,
            amount,
            reference_no,
            gbp_reference_no,
            result_code,
            status,
            raw,
        })
    }
}

/// `txn`, or from a `txns` array the entry for this reference (a settled one first).
fn pick_transaction<'a>(raw: &'a Value, requested: &str) -> Option<&'a Value> {
    if let Some(txn) = raw.get("txn").filter(|t| t.is_object()) {
        return Some(txn);
    }
    let txns = raw.get("txns")?.as_array()?;
    let matching: Vec<&Value> = txns
        .iter()
        .filter(|t| t.is_object())
        .filter(|t| text_field(t, "referenceNo").is_none_or(|r| r == requested))
        .collect();
    matching
        .iter()
        .copied()
        .find(|t| text_field(t, "status").as_deref() == Some(SETTLED_STATUS))
        .or_else(|| matching.last().copied())
}

/// A field as text: strings as they are, numbers and booleans written out; null and
/// missing are `None`.
fn text_field(value: &Value, key: &str) -> Option<String> {
    match value.get(key)? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn form_as_json(body: &[u8]) -> Option<Value> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(body).ok()?;
    if pairs.is_empty() {
        return None;
    }
    let map = pairs
        .into_iter()
        .map(|(k, v)| (k, Value::String(v)))
        .collect();
    Some(Value::Object(map))
}

/// Talks to GB Prime Pay. Cheap to clone; clones share one connection pool.
#[derive(Clone)]
pub struct GbpClient {
    http: reqwest::Client,
    base_url: String,
    token: String,
    secret_key: String,
}

impl fmt::Debug for GbpClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GbpClient")
            .field("base_url", &self.base_url)
            .finish_non_exhaustive()
    }
}

impl GbpClient {
    /// Fails with [`PaymentError::Protocol`] when the base URL is not an absolute http(s)
    /// address.
    pub fn new(settings: GbpSettings) -> Result<Self, PaymentError> {
        Ok(GbpClient {
            http: http::build_client(settings.timeout)?,
            base_url: http::normalise_base_url("GBP", &settings.base_url)?,
            token: settings.token,
            secret_key: settings.secret_key,
        })
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// Asks for a QR and returns its PNG bytes. An error never carries the callback
    /// address, even where GB Prime Pay's refusal quotes it: errors are logged.
    pub async fn create_qr(&self, req: &GbpQrRequest) -> Result<Bytes, PaymentError> {
        self.ask_for_qr(req)
            .await
            .map_err(|e| e.redacted(&req.background_url))
    }

    async fn ask_for_qr(&self, req: &GbpQrRequest) -> Result<Bytes, PaymentError> {
        let amount = req.amount.baht_text();
        let mut form: Vec<(&str, &str)> = vec![
            ("token", self.token.as_str()),
            ("amount", amount.as_str()),
            ("referenceNo", req.reference_no.as_str()),
            ("backgroundUrl", req.background_url.as_str()),
            ("detail", req.detail.as_str()),
        ];
        if let Some(telephone) = &req.customer_telephone {
            form.push(("customerTelephone", telephone.as_str()));
        }
        if let Some(email) = &req.customer_email {
            form.push(("customerEmail", email.as_str()));
        }
        let request = self
            .http
            .post(format!("{}/v3/qrcode", self.base_url))
            .form(&form);
        let response = http::send("gbp.create_qr", request).await?;
        if !response.is_success() {
            return Err(error_from(&response));
        }
        if response.body.starts_with(PNG_SIGNATURE) {
            return Ok(response.body);
        }
        // A 2xx that is no image: GB Prime Pay answers refusals as a result code.
        match serde_json::from_slice::<Value>(&response.body) {
            Ok(value) if text_field(&value, "resultCode").is_some() => {
                Err(rejected(response.status, &value, &response))
            }
            _ => Err(PaymentError::Protocol(format!(
                "GBP QR answer is not a PNG (content type {})",
                response.content_type.as_deref().unwrap_or("none")
            ))),
        }
    }

    /// Asks GB Prime Pay what became of a reference.
    pub async fn check_status(&self, reference_no: &str) -> Result<GbpTransaction, PaymentError> {
        let request = self
            .http
            .post(format!("{}/v1/check_status_txn", self.base_url))
            .basic_auth(&self.secret_key, Some(""))
            .json(&serde_json::json!({ "referenceNo": reference_no }));
        let response = http::send("gbp.check_status", request).await?;
        if !response.is_success() {
            return Err(error_from(&response));
        }
        let raw: Value = serde_json::from_slice(&response.body)
            .map_err(|e| PaymentError::Protocol(format!("GBP status answer is not JSON: {e}")))?;
        GbpTransaction::from_answer(reference_no, raw)
    }
}

fn error_from(response: &RawResponse) -> PaymentError {
    if response.is_server_error() {
        return PaymentError::Unavailable {
            status: response.status,
        };
    }
    match serde_json::from_slice::<Value>(&response.body) {
        Ok(value) if value.is_object() => rejected(response.status, &value, response),
        _ => PaymentError::Rejected {
            status: response.status,
            code: format!("http_{}", response.status),
            message: response.text_excerpt(),
        },
    }
}

fn rejected(status: u16, value: &Value, response: &RawResponse) -> PaymentError {
    let code = text_field(value, "resultCode")
        .or_else(|| text_field(value, "code"))
        .unwrap_or_else(|| format!("http_{status}"));
    let message = text_field(value, "resultMessage")
        .or_else(|| text_field(value, "message"))
        .map(|m| http::excerpt(&m))
        .unwrap_or_else(|| response.text_excerpt());
    PaymentError::Rejected {
        status,
        code,
        message,
    }
}

#[async_trait]
impl Gateway for GbpClient {
    fn kind(&self) -> GatewayKind {
        GatewayKind::Gbp
    }

    async fn start_qr(
        &self,
        req: &PaymentRequest,
        trail: &dyn TrailSink,
    ) -> Result<QrPayment, PaymentError> {
        let reference = req.reference();
        let asked = TrailEntry::new(TrailKind::CreateQr, TrailStatus::Requested).amount(req.amount);
        trail.record(asked.clone()).await?;
        let png = self
            .create_qr(&GbpQrRequest {
                amount: req.amount,
                reference_no: reference.clone(),
                background_url: req.callback_url.clone(),
                detail: format!("Raceshot {}", req.event_key),
                customer_telephone: Some(req.mobile.clone()),
                customer_email: req.email.clone(),
            })
            .await?;
        let created = TrailEntry {
            status: TrailStatus::Created,
            ..asked
        };
        trail.record(created.reference(&reference)).await?;
        Ok(QrPayment {
            reference,
            code: QrCode::Png(png),
            expires_at: None,
        })
    }

    /// The status check of the shop's reference: the only word on a GB Prime Pay payment.
    async fn check(&self, req: &PaymentRequest) -> Result<Option<Confirmation>, PaymentError> {
        let txn = self.check_status(&req.reference()).await?;
        Ok(Some(txn.confirmation()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn settings_debug_hides_secrets() {
        let settings = GbpSettings {
            base_url: SANDBOX_BASE_URL.to_owned(),
            token: "tok-visible?".to_owned(),
            secret_key: "sec-visible?".to_owned(),
            timeout: Duration::from_secs(5),
        };
        let text = format!("{settings:?}");
        assert!(!text.contains("tok-visible"));
        assert!(!text.contains("sec-visible"));
        assert!(text.contains(SANDBOX_BASE_URL));
    }

    #[test]
    fn status_answer_with_txns_array_picks_the_settled_entry() {
        let raw = json!({
            "resultCode": "00",
            "txns": [
                {"referenceNo": "R1", "status": "P", "amount": "10.00"},
                {"referenceNo": "R1", "status": "S", "amount": "10.00", "gbpReferenceNo": "gbp1"},
                {"referenceNo": "R2", "status": "S", "amount": "99.00"}
            ]
        });
        let txn = GbpTransaction::from_answer("R1", raw).ok();
        assert_eq!(txn.as_ref().map(|t| t.paid), Some(true));
        assert_eq!(
            txn.as_ref().and_then(|t| t.amount).map(Money::satang),
            Some(1_000)
        );
        assert_eq!(
            txn.as_ref()
                .and_then(|t| t.gbp_reference_no.clone())
                .as_deref(),
            Some("gbp1")
        );
    }

    #[test]
    fn status_answer_without_transaction_is_unpaid() {
        let raw = json!({"resultCode": "02", "resultMessage": "Not found"});
        let txn = GbpTransaction::from_answer("R9", raw).ok();
        assert_eq!(txn.as_ref().map(|t| t.paid), Some(false));
        assert_eq!(txn.as_ref().map(|t| t.reference_no.as_str()), Some("R9"));
        assert_eq!(txn.and_then(|t| t.amount), None);
    }

    #[test]
    fn status_answer_failed_inner_result_is_unpaid() {
        let raw = json!({"resultCode": "00", "txn": {"status": "S", "resultCode": "99"}});
        assert_eq!(
            GbpTransaction::from_answer("R", raw).ok().map(|t| t.paid),
            Some(false)
        );
    }

    #[test]
    fn status_answer_must_be_an_object() {
        assert!(GbpTransaction::from_answer("R", json!([1, 2])).is_err());
        assert!(GbpTransaction::from_answer("R", json!({"txn": {}})).is_err());
    }
}
