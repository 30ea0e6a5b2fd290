//! Payment gateways: PromptPay EMVCo payloads, GB Prime Pay and OPN adapters, the sandbox
//! gateway and webhook verification. Knows nothing of HTTP routing or SQL.
//!
//! - [`promptpay`]: PromptPay QR payloads made locally (no gateway, the shop checks slips).
//! - [`gbp`]: GB Prime Pay QR Cash — create a QR, read its callback, confirm with
//!   `check_status_txn`.
//! - [`opn`]: OPN Payments (Omise) — card charges with 3-D Secure, PromptPay charges,
//!   webhook events and their signatures.
//! - [`gateway`]: the one interface the shop pays through ([`gateway::Gateway`], with the
//!   sandbox), and the [`gateway::Confirmation`] every gateway's word becomes.
//! - [`trail`]: the payment trail's typed entries.
//! - `testing` (feature `testing`): local fake GB Prime Pay and OPN servers.
//!
//! Every adapter talks through one `reqwest::Client` with the configured timeout, and every
//! failure comes back as a [`PaymentError`] that says whether trying again can help.

pub mod gateway;
pub mod gbp;
mod http;
pub mod opn;
pub mod promptpay;
#[cfg(feature = "testing")]
pub mod testing;
pub mod trail;

use raceshot_domain::Money;
pub use raceshot_domain::order::{GatewayKind, UnknownGateway};

/// Why a gateway call did not give an answer we can use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PaymentError {
    /// No answer within the configured timeout. The gateway may still have acted on the
    /// request, so a retry must be one the gateway treats as the same request, or be
    /// preceded by a status check.
    #[error("payment gateway did not answer in time")]
    Timeout,
    /// The gateway answered 5xx, or could not be reached at all (`status` 0: connection
    /// refused or dropped).
    #[error("payment gateway unavailable (HTTP status {status})")]
    Unavailable { status: u16 },
    /// The gateway answered and said no (any other non-2xx, or a failure result code).
    #[error("payment gateway rejected the request (HTTP {status}, {code}): {message}")]
    Rejected {
        status: u16,
        code: String,
        message: String,
    },
    /// An answer we cannot read, or settings we cannot use (such as a malformed base URL).
    #[error("payment gateway protocol error: {0}")]
    Protocol(String),
    /// The order's payment trail could not be written, so the call was not made.
    #[error("the payment trail could not be written: {0}")]
    Trail(String),
}

impl PaymentError {
    /// The same error with every trace of `secret` (an address that carries a token, as
    /// written, form-encoded, or its last segment alone) replaced: gateways may quote what
    /// they were sent, and errors end up in logs and answers.
    pub fn redacted(self, secret: &str) -> PaymentError {
        let encoded = serde_urlencoded::to_string([("", secret)])
            .map(|pair| pair.trim_start_matches('=').to_owned())
            .unwrap_or_default();
        let token = secret.rsplit('/').next().unwrap_or_default();
        let scrub = |text: String| {
            let mut text = text;
            for needle in [secret, encoded.as_str(), token] {
                if needle.len() >= 8 {
                    text = text.replace(needle, "[redacted]");
                }
            }
            text
        };
        match self {
            PaymentError::Rejected {
                status,
                code,
                message,
            } => PaymentError::Rejected {
                status,
                code: scrub(code),
                message: scrub(message),
            },
            PaymentError::Protocol(message) => PaymentError::Protocol(scrub(message)),
            PaymentError::Trail(message) => PaymentError::Trail(scrub(message)),
            other => other,
        }
    }

    /// Whether the same call may succeed later: timeouts and unavailable gateways.
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            PaymentError::Timeout | PaymentError::Unavailable { .. }
        )
    }
}

/// Reads a baht amount as gateways write it (`"100"`, `"100.5"`, `"100.00"`), refusing
/// signs, exponents, more than two decimals and anything above the shop's largest amount.
pub fn parse_baht(text: &str) -> Option<Money> {
    let text = text.trim();
    let (whole, fraction) = match text.split_once('.') {
        Some((whole, fraction)) => (whole, fraction),
        None => (text, ""),
    };
    if whole.is_empty() || whole.len() > 12 || !whole.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if fraction.len() > 2 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if text.contains('.') && fraction.is_empty() {
        return None;
    }
    let whole: i64 = whole.parse().ok()?;
    let fraction: i64 = match fraction.len() {
        0 => 0,
        1 => fraction.parse::<i64>().ok()? * 10,
        _ => fraction.parse().ok()?,
    };
    let satang = whole.checked_mul(100)?.checked_add(fraction)?;
    Money::from_satang(satang).ok()
}

/// A baht amount from a JSON value that may be a string (`"100.00"`) or a number (`100`,
/// `100.5`).
pub(crate) fn baht_from_json(value: &serde_json::Value) -> Option<Money> {
    match value {
        serde_json::Value::String(text) => parse_baht(text),
        serde_json::Value::Number(number) => {
            if let Some(whole) = number.as_u64() {
                let satang = i64::try_from(whole).ok()?.checked_mul(100)?;
                Money::from_satang(satang).ok()
            } else {
                // serde_json writes a float in its shortest exact form (`100.5`), which
                // parse_baht then holds to two decimals; `1e21` or `-1.0` are refused.
                parse_baht(&number.to_string())
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gateway_kinds_read_and_write_their_names() {
        for kind in GatewayKind::ALL {
            assert_eq!(kind.as_str().parse::<GatewayKind>(), Ok(kind));
            assert_eq!(kind.to_string(), kind.as_str());
            let json = serde_json::to_string(&kind).unwrap_or_default();
            assert_eq!(json, format!("\"{}\"", kind.as_str()));
        }
        assert_eq!(
            "promptpay".parse::<GatewayKind>(),
            Ok(GatewayKind::PromptPay)
        );
        assert!("PAYPAL".parse::<GatewayKind>().is_err());
    }

    #[test]
    fn baht_text_is_read_strictly() {
        let satang = |text: &str| parse_baht(text).map(Money::satang);
        assert_eq!(satang("100.00"), Some(10_000));
        assert_eq!(satang("100"), Some(10_000));
        assert_eq!(satang("100.5"), Some(10_050));
        assert_eq!(satang(" 0.01 "), Some(1));
        assert_eq!(satang("100.005"), None);
        assert_eq!(satang("-1.00"), None);
        assert_eq!(satang("+1.00"), None);
        assert_eq!(satang("1e3"), None);
        assert_eq!(satang("1."), None);
        assert_eq!(satang(".5"), None);
        assert_eq!(satang(""), None);
        assert_eq!(satang("99999999999999999999"), None);
        assert_eq!(satang("10000000.01"), None);
    }

    #[test]
    fn baht_json_may_be_a_string_or_a_number() {
        let satang = |value: serde_json::Value| baht_from_json(&value).map(Money::satang);
        assert_eq!(satang(serde_json::json!("210.00")), Some(21_000));
        assert_eq!(satang(serde_json::json!(210)), Some(21_000));
        assert_eq!(satang(serde_json::json!(210.5)), Some(21_050));
        assert_eq!(satang(serde_json::json!(0.1)), Some(10));
        assert_eq!(satang(serde_json::json!(1.005)), None);
        assert_eq!(satang(serde_json::json!(-5)), None);
        assert_eq!(satang(serde_json::json!(null)), None);
        assert_eq!(satang(serde_json::json!(u64::MAX)), None);
    }
}
