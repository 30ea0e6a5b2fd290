//! PromptPay QR payloads made locally, following the EMVCo merchant-presented QR layout
//! that Thai banking apps read:
//!
//! | tag | value |
//! | --- | --- |
//! | `00` | payload format `01` |
//! | `01` | `11` static (no amount) or `12` dynamic (with amount) |
//! | `29` | merchant account: `00` AID `A000000677010111`, then `01` mobile (`0066` + 9 digits), `02` tax id (13 digits) or `03` e-wallet (15 digits) |
//! | `58` | country `TH` |
//! | `53` | currency `764` (baht) |
//! | `54` | amount, `210.00` (dynamic only) |
//! | `63` | CRC-16/CCITT-FALSE of everything before it, `6304` included, as 4 uppercase hex digits |
//!
//! Each field is its tag, its value's length in two decimal digits, then the value. The
//! tag order is the one every PromptPay generator in use writes (and the one the known
//! vector `00020101021129370016A000000677010111011300668012345675802TH530376463046197`,
//! for mobile 080-123-4567 with no amount, pins down).
//!
//! Written here rather than taken from a crate: the published generators take the amount
//! as a float and write `53` before `58`, which does not reproduce that vector.

use std::fmt;

use async_trait::async_trait;
use raceshot_domain::{GatewayKind, Money};

use crate::PaymentError;
use crate::gateway::{Gateway, PaymentRequest, QrPayment, TrailSink};

/// The application id of PromptPay credit transfers.
const PROMPTPAY_AID: &str = "A000000677010111";

/// Digits of a PromptPay proxy, checked on the way in; only [`PromptPayId::parse`] makes
/// them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ProxyDigits(String);

impl ProxyDigits {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Who receives a PromptPay transfer.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PromptPayId {
    /// A Thai mobile number, held in its local ten-digit form (`0801234567`).
    Mobile(ProxyDigits),
    /// A 13-digit national id or tax id.
    TaxId(ProxyDigits),
    /// A 15-digit e-wallet id.
    EWallet(ProxyDigits),
}

impl PromptPayId {
    /// Reads a receiver as people write it: `0801234567`, `080-123-4567`, `+66801234567`,
    /// `66801234567`, `+66 80 123 4567`, a 13-digit tax id (dashes and spaces allowed) or
    /// a 15-digit e-wallet id.
    pub fn parse(raw: &str) -> Option<Self> {
        let trimmed = raw.trim();
        let (plus, rest) = match trimmed.strip_prefix('+') {
            Some(rest) => (true, rest),
            None => (false, trimmed),
        };
        let mut digits = String::with_capacity(rest.len());
        for c in rest.chars() {
            match c {
                '0'..='9' => digits.push(c),
                ' ' | '-' | '.' | '(' | ')' => {}
                _ => return None,
            }
        }
        if plus {
            // Only Thai mobile numbers are written with a country code.
            return Self::mobile_from_international(&digits);
        }
        match digits.len() {
            10 if digits.starts_with('0') => Some(PromptPayId::Mobile(ProxyDigits(digits))),
            11 => Self::mobile_from_international(&digits),
            13 => Some(PromptPayId::TaxId(ProxyDigits(digits))),
            15 => Some(PromptPayId::EWallet(ProxyDigits(digits))),
            _ => None,
        }
    }

    /// `66` followed by the nine digits after the local leading zero.
    fn mobile_from_international(digits: &str) -> Option<Self> {
        let national = digits.strip_prefix("66")?;
        if national.len() == 9 && !national.starts_with('0') {
            Some(PromptPayId::Mobile(ProxyDigits(format!("0{national}"))))
        } else {
            None
        }
    }

    /// The digits as held: local mobile number, tax id or e-wallet id.
    pub fn digits(&self) -> &str {
        match self {
            PromptPayId::Mobile(d) | PromptPayId::TaxId(d) | PromptPayId::EWallet(d) => d.as_str(),
        }
    }

    /// The sub-tag of tag 29 and the value it carries.
    fn proxy(&self) -> (&'static str, String) {
        match self {
            PromptPayId::Mobile(d) => {
                let national = d.as_str().get(1..).unwrap_or_default();
                ("01", format!("0066{national}"))
            }
            PromptPayId::TaxId(d) => ("02", d.as_str().to_owned()),
            PromptPayId::EWallet(d) => ("03", d.as_str().to_owned()),
        }
    }
}

impl fmt::Display for PromptPayId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.digits())
    }
}

/// One EMVCo field: tag, two-digit length, value. Values here are all short ASCII.
fn field(out: &mut String, tag: &str, value: &str) {
    out.push_str(tag);
    out.push_str(&format!("{:02}", value.len()));
    out.push_str(value);
}

/// The text to put in the QR code. `None` or a zero amount makes a static code (the payer
/// types the amount); any other amount a dynamic one.
pub fn payload(id: &PromptPayId, amount: Option<Money>) -> String {
    let amount = amount.filter(|a| a.satang() > 0);
    let (proxy_tag, proxy_value) = id.proxy();
    let mut merchant = String::new();
    field(&mut merchant, "00", PROMPTPAY_AID);
    field(&mut merchant, proxy_tag, &proxy_value);

    let mut out = String::new();
    field(&mut out, "00", "01");
    field(&mut out, "01", if amount.is_some() { "12" } else { "11" });
    field(&mut out, "29", &merchant);
    field(&mut out, "58", "TH");
    field(&mut out, "53", "764");
    if let Some(amount) = amount {
        field(&mut out, "54", &amount.baht_text());
    }
    out.push_str("6304");
    let crc = crc16_ccitt_false(out.as_bytes());
    out.push_str(&format!("{crc:04X}"));
    out
}

/// CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final
/// xor (check value of `123456789` is 0x29B1).
pub fn crc16_ccitt_false(data: &[u8]) -> u16 {
    let mut crc: u16 = 0xFFFF;
    for &byte in data {
        crc ^= u16::from(byte) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 {
                (crc << 1) ^ 0x1021
            } else {
                crc << 1
            };
        }
    }
    crc
}

/// Whether a payload ends in `6304` and a CRC that matches everything before it.
pub fn verify_crc(payload: &str) -> bool {
    let Some(split) = payload.len().checked_sub(4) else {
        return false;
    };
    let (Some(body), Some(crc)) = (payload.get(..split), payload.get(split..)) else {
        return false;
    };
    if !body.ends_with("6304") {
        return false;
    }
    if !crc.bytes().all(|b| b.is_ascii_hexdigit()) {
        return false;
    }
    let Ok(crc) = u16::from_str_radix(crc, 16) else {
        return false;
    };
    crc == crc16_ccitt_false(body.as_bytes())
}

/// Splits a payload (or the value of a template field such as 29) into its fields, or
/// `None` when a length runs past the end or a length is not two digits.
pub fn parse_fields(payload: &str) -> Option<Vec<(String, String)>> {
    let mut fields = Vec::new();
    let mut rest = payload;
    while !rest.is_empty() {
        let tag = rest.get(..2)?;
        let len_text = rest.get(2..4)?;
        if !len_text.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let len: usize = len_text.parse().ok()?;
        let value = rest.get(4..4 + len)?;
        fields.push((tag.to_owned(), value.to_owned()));
        rest = rest.get(4 + len..)?;
    }
    Some(fields)
}

/// The shop's own PromptPay: the QR names the shop's receiver and the order's amount; an
/// operator confirms each payment against the buyer's bank slip.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnPromptPay(pub PromptPayId);

#[async_trait]
impl Gateway for OwnPromptPay {
    fn kind(&self) -> GatewayKind {
        GatewayKind::PromptPay
    }

    async fn start_qr(
        &self,
        req: &PaymentRequest,
        _trail: &dyn TrailSink,
    ) -> Result<QrPayment, PaymentError> {
        Ok(QrPayment::text(
            req.reference(),
            payload(&self.0, Some(req.amount)),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_check_value() {
        assert_eq!(crc16_ccitt_false(b"123456789"), 0x29B1);
        assert_eq!(crc16_ccitt_false(b""), 0xFFFF);
    }

    #[test]
    fn mobile_numbers_in_every_spelling() {
        for raw in [
            "0801234567",
            "080-123-4567",
            "+66801234567",
            "+66 80 123 4567",
            "66801234567",
            " (080) 123 4567 ",
        ] {
            let id = PromptPayId::parse(raw);
            assert_eq!(
                id.as_ref().map(PromptPayId::digits),
                Some("0801234567"),
                "{raw}"
            );
            assert!(matches!(id, Some(PromptPayId::Mobile(_))), "{raw}");
        }
    }

    #[test]
    fn refuses_what_is_no_proxy() {
        for raw in [
            "",
            "080123456",
            "08012345678",
            "1801234567",
            "+660801234567",
            "+1 415 555 0100",
            "080123456a",
            "+",
            "12345678901234",
            "1234567890123456",
        ] {
            assert_eq!(PromptPayId::parse(raw), None, "{raw}");
        }
    }

    #[test]
    fn parse_fields_rejects_truncated_payloads() {
        assert_eq!(parse_fields("0002"), None);
        assert_eq!(parse_fields("00020"), None);
        assert_eq!(parse_fields("00xx01"), None);
        assert_eq!(parse_fields("ก"), None);
        assert_eq!(parse_fields(""), Some(vec![]));
    }

    #[test]
    fn verify_crc_never_panics_on_short_or_odd_input() {
        for text in ["", "6304", "63041", "ก6304ABCD", "6304ZZZZ", "6304+FFF"] {
            assert!(!verify_crc(text), "{text}");
        }
    }
}
