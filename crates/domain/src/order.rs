//! Orders: their payment states and channels, and the contact details a visitor leaves
//! (mobile number, e-mail, the last characters of a bank slip), each parsed once at the
//! edge so that nothing further in can hold an invalid one.

use std::fmt;
use std::str::FromStr;

/// Where an order is in its life (docs/shop-contract.md, Orders): waiting for payment,
/// paid, or ended unpaid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PaymentStatus {
    /// Waiting for payment (or, on AM orders, for an operator's approval).
    Initial,
    Paid,
    /// The payment window passed unpaid (a PromptPay QR lapsed).
    Expired,
    /// Ended by an operator or by a failed payment.
    Cancelled,
}

impl PaymentStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            PaymentStatus::Initial => "INITIAL",
            PaymentStatus::Paid => "PAID",
            PaymentStatus::Expired => "EXPIRED",
            PaymentStatus::Cancelled => "CANCELLED",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "INITIAL" => Some(PaymentStatus::Initial),
            "PAID" => Some(PaymentStatus::Paid),
            "EXPIRED" => Some(PaymentStatus::Expired),
            "CANCELLED" => Some(PaymentStatus::Cancelled),
            _ => None,
        }
    }
}

impl fmt::Display for PaymentStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why the shop itself ended an unpaid order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// A photo in it was hidden at the request of the person in it before it was paid: the
    /// order is cancelled rather than paid for a photo it would not deliver.
    PhotoWithdrawn,
}

impl EndReason {
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::PhotoWithdrawn => "photo_withdrawn",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "photo_withdrawn" => Some(EndReason::PhotoWithdrawn),
            _ => None,
        }
    }
}

/// How an order is paid (docs/shop-contract.md, Orders).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PaymentChannel {
    /// PromptPay QR.
    PromptPay,
    /// Card, with 3-D Secure.
    Card,
    /// All-photos order approved by an operator.
    Approval,
    /// A free-download-keep-contract event: nothing to pay.
    Free,
}

impl PaymentChannel {
    pub fn as_str(self) -> &'static str {
        match self {
            PaymentChannel::PromptPay => "PP",
            PaymentChannel::Card => "CC",
            PaymentChannel::Approval => "AM",
            PaymentChannel::Free => "FREE",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "PP" => Some(PaymentChannel::PromptPay),
            "CC" => Some(PaymentChannel::Card),
            "AM" => Some(PaymentChannel::Approval),
            "FREE" => Some(PaymentChannel::Free),
            _ => None,
        }
    }
}

impl fmt::Display for PaymentChannel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The payment gateway an order is paid through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum GatewayKind {
    /// GB Prime Pay QR Cash.
    Gbp,
    /// OPN Payments (Omise): cards and PromptPay charges.
    Opn,
    /// A PromptPay QR made by the shop itself; payment is checked by hand.
    PromptPay,
    /// No money moves: for demos and development.
    Sandbox,
}

impl GatewayKind {
    pub const ALL: [GatewayKind; 4] = [
        GatewayKind::Gbp,
        GatewayKind::Opn,
        GatewayKind::PromptPay,
        GatewayKind::Sandbox,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            GatewayKind::Gbp => "GBP",
            GatewayKind::Opn => "OPN",
            GatewayKind::PromptPay => "PROMPTPAY",
            GatewayKind::Sandbox => "SANDBOX",
        }
    }

    /// Whether the gateway charges cards (every gateway takes PromptPay).
    pub fn takes_cards(self) -> bool {
        matches!(self, GatewayKind::Opn | GatewayKind::Sandbox)
    }
}

impl fmt::Display for GatewayKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A gateway name that is none of `GBP`, `OPN`, `PROMPTPAY`, `SANDBOX`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown payment gateway {0:?} (expected GBP, OPN, PROMPTPAY or SANDBOX)")]
pub struct UnknownGateway(pub String);

impl FromStr for GatewayKind {
    type Err = UnknownGateway;

    /// Case-insensitive: `"opn"` and `"OPN"` are the same gateway.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let trimmed = s.trim();
        GatewayKind::ALL
            .into_iter()
            .find(|kind| kind.as_str().eq_ignore_ascii_case(trimmed))
            .ok_or_else(|| UnknownGateway(s.to_owned()))
    }
}

/// A mobile number: digits only, within the length a form allows: 5–15 on the order form,
/// 10–15 for finding orders (docs/shop-contract.md, Validation).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Mobile(String);

impl Mobile {
    /// The lengths the order form accepts.
    pub const ORDER_LENGTH: std::ops::RangeInclusive<usize> = 5..=15;
    /// The lengths the find-order search accepts.
    pub const SEARCH_LENGTH: std::ops::RangeInclusive<usize> = 10..=15;

    pub fn parse(raw: &str, lengths: std::ops::RangeInclusive<usize>) -> Option<Self> {
        let ok = lengths.contains(&raw.len()) && raw.bytes().all(|b| b.is_ascii_digit());
        ok.then(|| Mobile(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An e-mail address as the shop's mail transport takes it: SMTP without the SMTPUTF8
/// extension, which many mail servers do not offer. The local part is an ASCII dot-atom
/// (RFC 5321: letters, digits and `!#$%&'*+-/=?^_`{|}~`, dots between); a local part in
/// another script is refused, since only SMTPUTF8 servers carry it. The domain is ASCII
/// letter-digit-hyphen labels; a domain written in another script (`ตัวอย่าง.ไทย`) is
/// accepted and kept in its IDNA (punycode) form (`xn--…`), which every mail server reads.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Email(String);

impl Email {
    pub const MAX_LENGTH: usize = 254;
    const MAX_LOCAL_LENGTH: usize = 64;
    const MAX_LABEL_LENGTH: usize = 63;

    /// The address in the form it is stored and mailed to, or `None` when no mail could
    /// reach it.
    pub fn parse(raw: &str) -> Option<Self> {
        let raw = raw.trim();
        // A domain in another script shrinks when converted; anything longer than this
        // cannot become a valid address, and is not worth converting.
        if raw.len() > 4 * Self::MAX_LENGTH
            || raw.chars().any(|c| c.is_whitespace() || c.is_control())
        {
            return None;
        }
        let (local, domain) = raw.rsplit_once('@')?;
        let local_ok = local.len() <= Self::MAX_LOCAL_LENGTH
            && local
                .split('.')
                .all(|atom| !atom.is_empty() && atom.bytes().all(is_atext));
        if !local_ok {
            return None;
        }
        let domain = if domain.is_ascii() {
            domain.to_owned()
        } else {
            // UTS 46 with STD3 rules, hyphen and DNS length checks: what mail servers and
            // the resolver accept.
            idna::domain_to_ascii_strict(domain).ok()?
        };
        let labels: Vec<&str> = domain.split('.').collect();
        let domain_ok = labels.len() >= 2
            && labels.iter().all(|l| {
                !l.is_empty()
                    && l.len() <= Self::MAX_LABEL_LENGTH
                    && !l.starts_with('-')
                    && !l.ends_with('-')
                    && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            })
            && labels
                .last()
                .is_some_and(|tld| tld.len() >= 2 && !tld.bytes().all(|b| b.is_ascii_digit()));
        let address = format!("{local}@{domain}");
        (domain_ok && address.len() <= Self::MAX_LENGTH).then_some(Email(address))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// RFC 5322 `atext` in ASCII: what a dot-atom local part is made of.
fn is_atext(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&b)
}

/// Letters and digits that cannot be mistaken for each other (no I, O, 0, 1): the codes the
/// shop makes for people to read and type.
pub(crate) const UNAMBIGUOUS: &[u8; 32] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// The receipt reference an order is found by: the last four characters of the payment's
/// slip or transaction reference, upper-cased: exactly 4 (docs/shop-contract.md, Finding
/// an order).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ReceiptRef(String);

impl ReceiptRef {
    pub const LENGTH: usize = 4;

    /// A search text: exactly four letters or digits.
    pub fn parse(raw: &str) -> Option<Self> {
        let ok =
            raw.chars().count() == Self::LENGTH && raw.chars().all(|c| c.is_ascii_alphanumeric());
        ok.then(|| ReceiptRef(raw.to_ascii_uppercase()))
    }

    /// The receipt reference of a full slip or transaction reference: its last four
    /// letters or digits; `None` when it has fewer.
    pub fn of_slip(slip: &str) -> Option<Self> {
        let tail: Vec<char> = slip.chars().filter(char::is_ascii_alphanumeric).collect();
        let start = tail.len().checked_sub(Self::LENGTH)?;
        Some(ReceiptRef(
            tail[start..]
                .iter()
                .collect::<String>()
                .to_ascii_uppercase(),
        ))
    }

    /// A receipt reference the shop makes itself, from four random bytes: letters and
    /// digits that cannot be mistaken for each other (no I, O, 0, 1), never sequential.
    pub fn from_random(bytes: [u8; 4]) -> Self {
        ReceiptRef(
            bytes
                .iter()
                .map(|b| char::from(UNAMBIGUOUS[usize::from(b % 32)]))
                .collect(),
        )
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A mobile number as answers and logs may show it: every digit but the last four hidden.
pub fn mask_mobile(mobile: &str) -> String {
    let digits: Vec<char> = mobile.chars().filter(char::is_ascii_digit).collect();
    let shown = if digits.len() > 4 { 4 } else { 0 };
    let hidden = digits.len() - shown;
    "*".repeat(hidden) + &digits[hidden..].iter().collect::<String>()
}

/// An e-mail address as answers may show it: the first character of the mailbox and the
/// domain, so its owner recognises it and nobody else learns it.
pub fn mask_email(email: &str) -> String {
    match email.trim().rsplit_once('@') {
        Some((local, domain)) if !local.is_empty() => {
            let first: String = local.chars().take(1).collect();
            format!("{first}***@{domain}")
        }
        _ if email.trim().is_empty() => String::new(),
        _ => "***".to_owned(),
    }
}

/// An order's uuid as a buyer may pass it on (an all-photos request names the earlier
/// order this way): its first 8 hex digits, enough for an operator to recognise the order
/// beside the one the console shows, far too little to open it (90 random bits remain).
pub fn mask_order_uuid(uuid: &str) -> String {
    let head: String = uuid.chars().take(8).collect();
    if head.is_empty() {
        String::new()
    } else {
        format!("{head}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_masked_order_uuid_opens_nothing() {
        let uuid = "5f0c1a2e-8d4b-4c1e-9a6f-0123456789ab";
        assert_eq!(mask_order_uuid(uuid), "5f0c1a2e…");
        assert_eq!(mask_order_uuid(""), "");
        assert!(!mask_order_uuid(uuid).contains("8d4b"));
    }

    #[test]
    fn states_and_channels_round_trip() {
        for s in [
            PaymentStatus::Initial,
            PaymentStatus::Paid,
            PaymentStatus::Expired,
            PaymentStatus::Cancelled,
        ] {
            assert_eq!(PaymentStatus::parse(s.as_str()), Some(s));
        }
        for c in [
            PaymentChannel::PromptPay,
            PaymentChannel::Card,
            PaymentChannel::Approval,
            PaymentChannel::Free,
        ] {
            assert_eq!(PaymentChannel::parse(c.as_str()), Some(c));
        }
        assert_eq!(PaymentChannel::parse("QR"), None);
    }

    #[test]
    fn mobiles_are_digits_within_the_form_length() {
        assert!(Mobile::parse("0812345678", Mobile::ORDER_LENGTH).is_some());
        assert!(Mobile::parse("12345", Mobile::ORDER_LENGTH).is_some());
        assert!(Mobile::parse("1234", Mobile::ORDER_LENGTH).is_none());
        assert!(Mobile::parse("1234567890123456", Mobile::ORDER_LENGTH).is_none());
        assert!(Mobile::parse("081-234-5678", Mobile::ORDER_LENGTH).is_none());
        assert!(Mobile::parse("+66812345678", Mobile::ORDER_LENGTH).is_none());
        assert!(Mobile::parse("081234567", Mobile::SEARCH_LENGTH).is_none());
        assert!(Mobile::parse("๐๘๑๒๓๔๕๖๗๘", Mobile::ORDER_LENGTH).is_none());
    }

    #[test]
    fn emails_in_plain_form_only() {
        for good in [
            "a@b.co",
            "runner.one+race@example.co.th",
            "o'brien/x=y?z^_`{|}~#$%&*!@mail-1.example.com",
        ] {
            assert_eq!(Email::parse(good).map(|e| e.0), Some(good.to_owned()));
        }
        for bad in [
            "",
            "a",
            "a@b",
            "@b.co",
            "a@.co",
            "a@b.c",
            "a b@c.co",
            "a@@b.co",
            "a@b..co",
            ".a@b.co",
            "a.@b.co",
            "a..b@c.co",
            "a@-b.co",
            "a@b.123",
            "a<b>@c.co",
            "a\"b@c.co",
            "a@b_c.co",
            "a@b.co.",
            // A control character anywhere.
            "run\u{7}ner@example.com",
            "runner@exa\u{0}mple.com",
            "runner@example\u{85}.com",
            // Local parts outside ASCII need SMTPUTF8, which mail servers need not offer.
            "นักวิ่ง@ตัวอย่าง.ไทย",
            "ru\u{200B}nner@example.com",
            // Domains IDNA refuses: a label opening with a combining mark, a disallowed
            // character.
            "runner@\u{0E31}abc.com",
            "runner@exa\u{FFFF}mple.com",
        ] {
            assert!(Email::parse(bad).is_none(), "{bad:?}");
        }
        let long_local = format!("{}@example.com", "a".repeat(65));
        assert!(Email::parse(&long_local).is_none());
        let long_label = format!("a@{}.com", "b".repeat(64));
        assert!(Email::parse(&long_label).is_none());
    }

    #[test]
    fn domains_in_other_scripts_are_kept_in_their_ascii_form() {
        assert_eq!(
            Email::parse(" runner@ตัวอย่าง.ไทย ").map(|e| e.0),
            Some("runner@xn--72c1a1bt4awk9o.xn--o3cw4h".to_owned())
        );
        assert_eq!(
            Email::parse("runner@BÜCHER.example").map(|e| e.0),
            Some("runner@xn--bcher-kva.example".to_owned())
        );
        // What it became parses as itself.
        let stored = Email::parse("runner@ตัวอย่าง.ไทย")
            .map(|e| e.0)
            .unwrap_or_default();
        assert_eq!(Email::parse(&stored).map(|e| e.0), Some(stored.clone()));
    }

    #[test]
    fn contacts_are_masked() {
        assert_eq!(mask_mobile("+66 81-234-5678"), "*******5678");
        assert_eq!(mask_mobile("0812345678"), "******5678");
        assert_eq!(mask_mobile("1234"), "****");
        assert_eq!(mask_email("runner@example.com"), "r***@example.com");
        assert_eq!(mask_email(" ก@example.com"), "ก***@example.com");
        assert_eq!(mask_email(""), "");
        assert_eq!(mask_email("no-at-sign"), "***");
    }

    #[test]
    fn shop_receipts_use_an_unambiguous_alphabet() {
        let r = ReceiptRef::from_random([0, 31, 32, 255]);
        assert_eq!(r.as_str(), "A9A9");
        assert_eq!(ReceiptRef::parse(r.as_str()), Some(r));
        for b in 0..=255u8 {
            let c = ReceiptRef::from_random([b; 4]);
            assert!(!c.as_str().contains(['I', 'O', '0', '1']), "{c:?}");
        }
    }

    #[test]
    fn receipts_are_the_last_four_characters() {
        assert_eq!(
            ReceiptRef::of_slip("20261121-ab12CD").map(|r| r.0),
            Some("12CD".to_owned())
        );
        assert_eq!(ReceiptRef::of_slip("a1c"), None);
        assert_eq!(
            ReceiptRef::parse("12cd").map(|r| r.0),
            Some("12CD".to_owned())
        );
        assert!(ReceiptRef::parse("12c").is_none());
        assert!(ReceiptRef::parse("12-c").is_none());
    }
}

/// The public id of an order: the one in its links, its QR page and the gateway's
/// reference. Always held in the canonical hyphenated lower-case form, so the same order
/// is never stored or looked up under two spellings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OrderUuid(uuid::Uuid);

/// A string that is not an order id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not an order id")]
pub struct OrderUuidError;

impl OrderUuid {
    /// A new random id (UUID version 4).
    pub fn new_random() -> Self {
        Self(uuid::Uuid::new_v4())
    }

    /// The 32 hex digits alone, for file names.
    pub fn simple(&self) -> String {
        self.0.simple().to_string()
    }

    /// Any spelling of a UUID a client may send (surrounding spaces, upper case, without
    /// hyphens); anything else is refused.
    pub fn parse(raw: &str) -> Result<Self, OrderUuidError> {
        uuid::Uuid::parse_str(raw.trim())
            .map(Self)
            .map_err(|_| OrderUuidError)
    }
}

impl fmt::Display for OrderUuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0.hyphenated(), f)
    }
}

impl FromStr for OrderUuid {
    type Err = OrderUuidError;
    fn from_str(raw: &str) -> Result<Self, Self::Err> {
        Self::parse(raw)
    }
}

impl TryFrom<String> for OrderUuid {
    type Error = OrderUuidError;
    fn try_from(raw: String) -> Result<Self, Self::Error> {
        Self::parse(&raw)
    }
}

impl serde::Serialize for OrderUuid {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod order_uuid_tests {
    use super::*;

    #[test]
    fn one_canonical_spelling() {
        let canonical = "5f0c1a2e-9b7d-4c1e-8f3a-0123456789ab";
        for raw in [
            canonical,
            " 5F0C1A2E-9B7D-4C1E-8F3A-0123456789AB ",
            "5f0c1a2e9b7d4c1e8f3a0123456789ab",
        ] {
            assert_eq!(
                OrderUuid::parse(raw).map(|u| u.to_string()),
                Ok(canonical.to_owned())
            );
        }
        for raw in ["", "42", "5f0c1a2e-9b7d-4c1e-8f3a", "../x"] {
            assert_eq!(OrderUuid::parse(raw), Err(OrderUuidError), "{raw}");
        }
    }
}
