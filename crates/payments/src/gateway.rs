//! One interface over the four gateways. The shop asks a [`Gateway`] for a PromptPay QR,
//! a card charge or the state of a payment; whatever the gateway's own word is, it comes
//! back as a [`Confirmation`], which the shop applies in one place (amount check, trail
//! entry, guarded mark-paid). Calls out are recorded in the order's trail through a
//! [`TrailSink`] before they are made, so a call that never answers still shows.

use async_trait::async_trait;
use bytes::Bytes;
use chrono::{DateTime, Utc};
use raceshot_domain::{GatewayKind, Money};

use crate::PaymentError;
use crate::trail::{TrailEntry, TrailKind, TrailStatus};

/// One order's payment as a gateway is asked about it. The amount is the one the shop
/// priced and stored, never one a browser sent. Its `Debug` leaves out the order's uuid
/// and the addresses (the callback address carries its token), so it may be logged.
#[derive(Clone, PartialEq, Eq)]
pub struct PaymentRequest {
    pub order_id: i64,
    pub order_uuid: String,
    pub event_key: String,
    pub amount: Money,
    pub mobile: String,
    pub email: Option<String>,
    /// What the gateway answered earlier for this order: a QR reference or a charge id.
    pub gateway_ref: Option<String>,
    /// Where GB Prime Pay posts its callback (an unguessable, signed address).
    pub callback_url: String,
    /// The shop's order page: where a buyer comes back to after 3-D Secure.
    pub order_page_url: String,
    /// The sandbox's own payment page of the order.
    pub sandbox_page_url: String,
}

impl std::fmt::Debug for PaymentRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PaymentRequest")
            .field("order_id", &self.order_id)
            .field("event_key", &self.event_key)
            .field("amount", &self.amount)
            .field("gateway_ref", &self.gateway_ref)
            .finish_non_exhaustive()
    }
}

impl PaymentRequest {
    /// The shop's reference of the order at a gateway (GB Prime Pay allows 15 characters).
    pub fn reference(&self) -> String {
        format!("RS{:013}", self.order_id)
    }

    /// What a charge says it is for.
    pub fn description(&self) -> String {
        format!("Raceshot order {} ({})", self.order_uuid, self.event_key)
    }
}

/// The QR a PromptPay payment is made with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QrCode {
    /// Shown as it is: a PromptPay payload, or the address of an image or a page.
    Text(String),
    /// An image the shop keeps and serves (GB Prime Pay hands out PNGs).
    Png(Bytes),
}

/// A PromptPay payment begun at a gateway.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QrPayment {
    /// The payment's reference at the gateway: what a status check asks about.
    pub reference: String,
    pub code: QrCode,
    /// When the gateway lets the QR lapse, if it says; the shop's own window otherwise.
    pub expires_at: Option<DateTime<Utc>>,
}

impl QrPayment {
    /// A QR shown as text, lapsing when the shop's own window ends.
    pub fn text(reference: String, text: String) -> Self {
        QrPayment {
            reference,
            code: QrCode::Text(text),
            expires_at: None,
        }
    }
}

/// What a card charge asks of the browser next.
#[derive(Debug, Clone, PartialEq)]
pub enum CardNext {
    /// Send the browser here (the bank's 3-D Secure page).
    Authorize(String),
    /// Charged at once, with no 3-D Secure step: apply it.
    Confirmed(Confirmation),
    /// The card was declined: the order may be paid again.
    Declined { code: String, message: String },
}

/// A card charge made at a gateway.
#[derive(Debug, Clone, PartialEq)]
pub struct CardCharge {
    /// A new charge the order must remember (so that it is finished, not doubled).
    pub gateway_ref: Option<String>,
    pub next: CardNext,
}

/// What a payment's own gateway (or an operator) says became of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Paid: `amount` as the gateway states it (`None` when it states none), and whether
    /// it was in baht. The shop marks the order paid only when both are the order's.
    Paid {
        amount: Option<Money>,
        in_baht: bool,
    },
    /// Not paid yet.
    Unpaid,
    /// The QR lapsed unpaid.
    Lapsed,
    /// The payment failed: a QR order is over, a card may be tried again.
    Declined,
}

/// A gateway's (or an operator's) word on one payment: the only thing that changes an
/// order's payment state.
#[derive(Debug, Clone, PartialEq)]
pub struct Confirmation {
    /// The order it is about, as the gateway names it: the shop's reference, the order's
    /// uuid, or the charge the order remembers. Any one that matches is enough.
    pub reference: Option<String>,
    pub order_uuid: Option<String>,
    pub charge_id: Option<String>,
    pub outcome: Outcome,
    /// How it is kept in the order's trail.
    pub entry: TrailEntry,
}

impl Confirmation {
    /// Whether this word is about the order `req` describes.
    pub fn is_for(&self, req: &PaymentRequest) -> bool {
        let same = |theirs: &Option<String>, ours: Option<&str>| {
            theirs.as_deref().is_some_and(|t| Some(t) == ours)
        };
        same(&self.reference, Some(&req.reference()))
            || same(&self.order_uuid, Some(&req.order_uuid))
            || same(&self.charge_id, req.gateway_ref.as_deref())
    }

    /// An operator's confirmation (a checked slip, an approval): the order's own amount, in baht.
    pub fn by_operator(req: &PaymentRequest, entry: TrailEntry) -> Self {
        Confirmation {
            reference: None,
            order_uuid: Some(req.order_uuid.clone()),
            charge_id: None,
            outcome: Outcome::Paid {
                amount: Some(req.amount),
                in_baht: true,
            },
            entry,
        }
    }

    /// The trail entry of a payment refused because its amount or currency is not the
    /// order's.
    pub fn refused_entry(&self) -> TrailEntry {
        let mut entry = TrailEntry {
            kind: TrailKind::AmountMismatch,
            status: TrailStatus::Refused,
            ..self.entry.clone()
        };
        if let Outcome::Paid { amount, .. } = self.outcome {
            entry.amount = amount;
        }
        entry
    }
}

/// Where a gateway records what it asks, before it asks.
#[async_trait]
pub trait TrailSink: Send + Sync {
    async fn record(&self, entry: TrailEntry) -> Result<(), PaymentError>;
}

/// A payment gateway: GB Prime Pay, OPN, the shop's own PromptPay, or the sandbox.
#[async_trait]
pub trait Gateway: Send + Sync + std::fmt::Debug {
    fn kind(&self) -> GatewayKind;

    /// Begins a PromptPay payment.
    async fn start_qr(
        &self,
        req: &PaymentRequest,
        trail: &dyn TrailSink,
    ) -> Result<QrPayment, PaymentError>;

    /// Charges a card with the browser's token. Only gateways that
    /// [take cards](GatewayKind::takes_cards) do.
    async fn charge_card(
        &self,
        _req: &PaymentRequest,
        _token: &str,
        _trail: &dyn TrailSink,
    ) -> Result<CardCharge, PaymentError> {
        Err(PaymentError::Protocol(format!(
            "the {} gateway takes no cards",
            self.kind()
        )))
    }

    /// Asks the gateway what became of the order's payment; `None` from gateways that
    /// cannot be asked (the shop's own PromptPay, the sandbox) or before anything was
    /// asked of them.
    async fn check(&self, _req: &PaymentRequest) -> Result<Option<Confirmation>, PaymentError> {
        Ok(None)
    }
}

/// The sandbox: no money moves. Its QR and 3-D Secure step lead to the shop's own sandbox
/// page, whose buttons give a [`Confirmation`] through [`Sandbox::outcome`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Sandbox;

impl Sandbox {
    /// The sandbox's page of the order, where its QR and card step lead; an error when
    /// the shop gave none (the sandbox is off), so no answer points at a missing page.
    fn page(req: &PaymentRequest) -> Result<&str, PaymentError> {
        match req.sandbox_page_url.as_str() {
            "" => Err(PaymentError::Protocol("the sandbox is off".to_owned())),
            page => Ok(page),
        }
    }

    /// The sandbox's reference of an order's payment.
    pub fn reference(req: &PaymentRequest) -> String {
        format!("SBX{:012}", req.order_id)
    }

    /// A simulated outcome: paid, or failed.
    pub fn outcome(req: &PaymentRequest, paid: bool) -> Confirmation {
        let mut entry = TrailEntry::new(
            TrailKind::Sandbox { paid },
            if paid {
                TrailStatus::Paid
            } else {
                TrailStatus::Failed
            },
        )
        .amount(req.amount);
        if paid {
            entry = entry.reference(Sandbox::reference(req));
        }
        Confirmation {
            reference: None,
            order_uuid: Some(req.order_uuid.clone()),
            charge_id: None,
            outcome: if paid {
                Outcome::Paid {
                    amount: Some(req.amount),
                    in_baht: true,
                }
            } else {
                Outcome::Declined
            },
            entry,
        }
    }
}

#[async_trait]
impl Gateway for Sandbox {
    fn kind(&self) -> GatewayKind {
        GatewayKind::Sandbox
    }

    async fn start_qr(
        &self,
        req: &PaymentRequest,
        _trail: &dyn TrailSink,
    ) -> Result<QrPayment, PaymentError> {
        Ok(QrPayment::text(
            Sandbox::reference(req),
            Sandbox::page(req)?.to_owned(),
        ))
    }

    async fn charge_card(
        &self,
        req: &PaymentRequest,
        token: &str,
        trail: &dyn TrailSink,
    ) -> Result<CardCharge, PaymentError> {
        let page = Sandbox::page(req)?;
        trail
            .record(
                TrailEntry::new(TrailKind::CardToken, TrailStatus::Received)
                    .reference(token)
                    .amount(req.amount),
            )
            .await?;
        Ok(CardCharge {
            gateway_ref: None,
            next: CardNext::Authorize(format!("{page}?card=1")),
        })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::sync::Mutex;

    use super::*;

    /// A trail kept in memory.
    #[derive(Default)]
    pub(crate) struct Kept(pub Mutex<Vec<TrailEntry>>);

    #[async_trait]
    impl TrailSink for Kept {
        async fn record(&self, entry: TrailEntry) -> Result<(), PaymentError> {
            self.0
                .lock()
                .map_err(|e| PaymentError::Trail(e.to_string()))?
                .push(entry);
            Ok(())
        }
    }

    pub(crate) fn request() -> PaymentRequest {
        PaymentRequest {
            order_id: 42,
            order_uuid: "0b8f2f55-3f0e-4a55-9d4c-1f7b2d9e6a10".into(),
            event_key: "bangsaen-21".into(),
            amount: Money::from_satang(12_000).unwrap_or(Money::ZERO),
            mobile: "0812345678".into(),
            email: None,
            gateway_ref: None,
            callback_url: "http://shop/cb".into(),
            order_page_url: "http://shop/download/x".into(),
            sandbox_page_url: "http://shop/sandbox/pay/x".into(),
        }
    }

    #[test]
    fn a_confirmation_is_for_the_order_any_of_its_names_match() {
        let req = request();
        let mut word = Sandbox::outcome(&req, true);
        assert!(word.is_for(&req));
        word.order_uuid = Some("another".into());
        assert!(!word.is_for(&req));
        word.reference = Some(req.reference());
        assert!(word.is_for(&req));
        word.reference = None;
        word.charge_id = Some("chrg_test_1".into());
        assert!(!word.is_for(&req), "the order remembers no charge");
        let remembering = PaymentRequest {
            gateway_ref: Some("chrg_test_1".into()),
            ..req
        };
        assert!(word.is_for(&remembering));
        assert_eq!(remembering.reference(), "RS0000000000042");
    }

    #[test]
    fn a_refused_payment_is_kept_with_the_amount_the_gateway_stated() {
        let req = request();
        let mut word = Sandbox::outcome(&req, true);
        word.outcome = Outcome::Paid {
            amount: Money::from_satang(100).ok(),
            in_baht: true,
        };
        let refused = word.refused_entry();
        assert_eq!(refused.kind, TrailKind::AmountMismatch);
        assert_eq!(refused.status, TrailStatus::Refused);
        assert_eq!(refused.amount, Money::from_satang(100).ok());
        assert_eq!(refused.external_ref.as_deref(), Some("SBX000000000042"));
    }

    #[tokio::test]
    async fn the_sandbox_leads_to_its_own_page_and_records_card_tokens() {
        let req = request();
        let kept = Kept::default();
        let qr = Sandbox.start_qr(&req, &kept).await;
        assert_eq!(
            qr.map(|q| (q.reference, q.code)),
            Ok((
                "SBX000000000042".to_owned(),
                QrCode::Text(req.sandbox_page_url.clone())
            ))
        );
        let card = Sandbox.charge_card(&req, "tokn_test_1", &kept).await;
        assert_eq!(
            card.map(|c| c.next),
            Ok(CardNext::Authorize(format!(
                "{}?card=1",
                req.sandbox_page_url
            )))
        );
        let entries = kept.0.lock().map(|e| e.clone()).unwrap_or_default();
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].kind, TrailKind::CardToken);
        assert_eq!(entries[0].external_ref.as_deref(), Some("tokn_test_1"));
        let failed = Sandbox::outcome(&req, false);
        assert_eq!(failed.outcome, Outcome::Declined);
        assert_eq!(failed.entry.kind.to_string(), "sandbox:failed");
        assert_eq!(failed.entry.external_ref, None);
    }

    #[tokio::test]
    async fn without_its_page_the_sandbox_hands_out_no_link() {
        let req = PaymentRequest {
            sandbox_page_url: String::new(),
            ..request()
        };
        let kept = Kept::default();
        assert!(Sandbox.start_qr(&req, &kept).await.is_err());
        assert!(
            Sandbox
                .charge_card(&req, "tokn_test_1", &kept)
                .await
                .is_err()
        );
        assert!(kept.0.lock().map(|e| e.is_empty()).unwrap_or(false));
    }

    #[test]
    fn debug_output_names_no_order_key_nor_address() {
        let req = request();
        let shown = format!("{req:?}");
        assert!(!shown.contains(&req.order_uuid), "{shown}");
        assert!(!shown.contains("http"), "{shown}");
    }
}
