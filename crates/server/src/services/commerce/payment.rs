//! Payment flows: starting a PromptPay payment (a QR) or a card charge through the order's
//! [`Gateway`], and settling an order from a [`Confirmation`] — GB Prime Pay's status
//! check, OPN's charge as fetched from OPN, the sandbox's page, an operator's check of a
//! bank slip (PROMPTPAY) or approval (AM). Callbacks and webhooks only prompt a check;
//! none is believed on its own. Every confirmation ends in [`settle`]: is it this order's,
//! the trail entry, the amount check, then the guarded mark-paid.

use async_trait::async_trait;
use raceshot_domain::{GatewayKind, OrderUuid, PaymentChannel, PaymentStatus, ReceiptRef};
use raceshot_payments::PaymentError;
use raceshot_payments::gateway::{
    self, Confirmation, Gateway, Outcome, PaymentRequest, QrCode, Sandbox, TrailSink,
};
use raceshot_payments::trail::{TrailEntry, TrailKind, TrailStatus};
use raceshot_store::orders::{MarkedPaid, Order, PaymentEvent};
use raceshot_store::{ObjectKey, StoredName};

use super::Commerce;
use super::{CommerceError, CommerceResult};
use crate::infra::gateways::GatewayMissing;
use crate::infra::telemetry::order_tag;
use crate::services::links::Links;

/// Where an order's GB Prime Pay QR image is kept.
pub fn qr_image_key(order_uuid: &OrderUuid) -> Option<ObjectKey> {
    StoredName::parse(&format!("{}.png", order_uuid.simple())).map(|n| ObjectKey::shared("qr", &n))
}

/// `order_not_payable` unless the order may be paid (or confirmed) this way.
fn payable_only_if(payable: bool, why: &'static str) -> CommerceResult<()> {
    if payable {
        Ok(())
    } else {
        Err(CommerceError::NotPayable(why))
    }
}

/// The order as its gateway is asked about it.
pub fn payment_request(cx: &Commerce<'_>, order: &Order) -> PaymentRequest {
    PaymentRequest {
        callback_url: cx.links.gbp_callback_url(&order.uuid),
        order_page_url: cx.links.order_page_url(&order.uuid),
        sandbox_page_url: cx
            .links
            .sandbox_page_url(&order.uuid, false)
            .unwrap_or_default(),
        ..request_without_links(order)
    }
}

/// Whether what the order stored about its payment (its QR text, the gateway's answer)
/// may be shown: not for a sandbox order once the sandbox is off, as both lead to the
/// sandbox's page, which is gone.
pub fn payment_links_shown(links: &Links, order: &Order) -> bool {
    order.payment_gateway != GatewayKind::Sandbox || links.sandbox_open()
}

/// What a gateway is told of the order itself; the addresses are the server's to add.
fn request_without_links(order: &Order) -> PaymentRequest {
    PaymentRequest {
        order_id: order.id,
        order_uuid: order.uuid.to_string(),
        event_key: order.event_key.to_string(),
        amount: order.paid_amount,
        mobile: order.mobile.clone(),
        email: order.email.clone(),
        gateway_ref: order.gateway_ref.clone(),
        callback_url: String::new(),
        order_page_url: String::new(),
        sandbox_page_url: String::new(),
    }
}

/// Adds one entry to an order's payment trail; `false` when the trail held it already.
pub async fn record(cx: &Commerce<'_>, order: &Order, entry: &TrailEntry) -> CommerceResult<bool> {
    let (kind, status) = (entry.kind.to_string(), entry.status.to_string());
    let event = PaymentEvent {
        gateway: order.payment_gateway.as_str(),
        kind: &kind,
        external_ref: entry.external_ref.as_deref(),
        amount: entry.amount,
        status: &status,
        payload: &entry.payload,
    };
    Ok(cx
        .store
        .record_payment_event(order.id, &event, cx.clock.now())
        .await?)
}

/// The order's trail, as a gateway writes to it before each call.
struct OrderTrail<'a> {
    cx: &'a Commerce<'a>,
    order: &'a Order,
}

#[async_trait]
impl TrailSink for OrderTrail<'_> {
    async fn record(&self, entry: TrailEntry) -> Result<(), PaymentError> {
        record(self.cx, self.order, &entry)
            .await
            .map(drop)
            .map_err(|e| PaymentError::Trail(e.to_string()))
    }
}

/// The order's own gateway.
fn gateway_of<'a>(
    live: &'a crate::app::live::Live,
    order: &Order,
) -> CommerceResult<&'a dyn Gateway> {
    Ok(live.gateways.get(order.payment_gateway)?)
}

/// Starts paying a new PromptPay order: asks the gateway for a QR (or makes one) and
/// stores where it is. Card orders wait for the card; AM and FREE orders pay nothing
/// here. Safe to call again on an order whose QR is missing (a retried request).
pub async fn start_payment(cx: &Commerce<'_>, order: &Order) -> CommerceResult<()> {
    if order.payment_channel != PaymentChannel::PromptPay
        || order.payment_status != PaymentStatus::Initial
        || order.qrcode_url.is_some()
    {
        return Ok(());
    }
    let now = cx.clock.now();
    let ttl = chrono::Duration::from_std(cx.payments.qr_ttl).unwrap_or_default();
    let live = cx.live.get();
    let trail = OrderTrail { cx, order };
    let qr = gateway_of(&live, order)?
        .start_qr(&payment_request(cx, order), &trail)
        .await?;
    let shown = match qr.code {
        QrCode::Text(text) => text,
        QrCode::Png(png) => {
            let key = qr_image_key(&order.uuid).ok_or_else(|| {
                CommerceError::Internal(anyhow::anyhow!("order uuid {}", order.uuid))
            })?;
            cx.objects.put(&key, png).await?;
            cx.links.qr_image_url(&order.uuid)
        }
    };
    let expires = qr.expires_at.unwrap_or(now + ttl);
    let api_response = serde_json::json!({ "qrcode": shown }).to_string();
    cx.store
        .set_order_payment(
            order.id,
            Some(&qr.reference),
            Some(&shown),
            Some(&api_response),
            Some(expires),
            now,
        )
        .await?;
    Ok(())
}

/// What a card payment asks of the browser next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardRedirect {
    /// Where to send the browser: the bank's 3-D Secure page, or the order page when the
    /// charge needed none.
    pub authorize_uri: String,
}

/// Charges a card order with the browser's card token.
pub async fn pay_by_card(
    cx: &Commerce<'_>,
    order: &Order,
    token: &str,
) -> CommerceResult<CardRedirect> {
    payable_only_if(
        order.payment_channel == PaymentChannel::Card
            && order.payment_status == PaymentStatus::Initial,
        "the order is not a card order waiting for payment",
    )?;
    if !order.payment_gateway.takes_cards() {
        return Err(CommerceError::NoCards(order.payment_gateway));
    }
    let live = cx.live.get();
    let trail = OrderTrail { cx, order };
    let charge = gateway_of(&live, order)?
        .charge_card(&payment_request(cx, order), token, &trail)
        .await?;
    if let Some(reference) = charge.gateway_ref.as_deref() {
        cx.store
            .set_order_payment(order.id, Some(reference), None, None, None, cx.clock.now())
            .await?;
    }
    match charge.next {
        gateway::CardNext::Authorize(uri) => Ok(CardRedirect { authorize_uri: uri }),
        gateway::CardNext::Confirmed(confirmation) => {
            let order = Order {
                gateway_ref: charge.gateway_ref.or(order.gateway_ref.clone()),
                ..order.clone()
            };
            settle(cx, &order, &confirmation, Receipt::Shop).await?;
            Ok(CardRedirect {
                authorize_uri: cx.links.order_page_url(&order.uuid),
            })
        }
        gateway::CardNext::Declined { code, message } => {
            Err(CommerceError::Declined { code, message })
        }
    }
}

/// Which receipt reference a paid order gets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Receipt {
    /// The shop's own random reference: gateways' references (and the sandbox's) can be
    /// sequential and so guessable.
    Shop,
    /// The buyer's bank slip (PROMPTPAY orders, confirmed by an operator).
    Slip(ReceiptRef),
    /// None: an approved AM order is found by its AM reference.
    None,
}

/// What a confirmation does to an order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// It names another order: nothing is recorded.
    NotThisOrder,
    MarkPaid,
    /// Paid, but not the order's amount in baht: recorded and refused.
    AmountDiffers,
    /// The order ends unpaid with this status.
    End(PaymentStatus),
    /// Recorded; the order stays as it is.
    Nothing,
}

/// The rule every confirmation goes through, whichever gateway or operator gave it.
pub fn decide(order: &Order, req: &PaymentRequest, confirmation: &Confirmation) -> Decision {
    if !confirmation.is_for(req) {
        return Decision::NotThisOrder;
    }
    let waiting_for_qr = order.payment_channel == PaymentChannel::PromptPay;
    match confirmation.outcome {
        Outcome::Paid { amount, in_baht } if amount == Some(order.paid_amount) && in_baht => {
            Decision::MarkPaid
        }
        Outcome::Paid { .. } => Decision::AmountDiffers,
        Outcome::Lapsed if waiting_for_qr => Decision::End(PaymentStatus::Expired),
        Outcome::Declined if waiting_for_qr => Decision::End(PaymentStatus::Cancelled),
        Outcome::Lapsed | Outcome::Declined | Outcome::Unpaid => Decision::Nothing,
    }
}

/// Applies a gateway's (or an operator's) confirmation to an order: checks that it is this
/// order's, records it, refuses an amount that is not the order's, and marks the order
/// paid once (or ends it unpaid). `true` when this call marked it paid.
pub async fn settle(
    cx: &Commerce<'_>,
    order: &Order,
    confirmation: &Confirmation,
    receipt: Receipt,
) -> CommerceResult<bool> {
    let decision = decide(order, &payment_request(cx, order), confirmation);
    if decision == Decision::NotThisOrder {
        tracing::warn!(order = %order_tag(order.uuid), reference = ?confirmation.entry.external_ref, "confirmation of another order");
        return Ok(false);
    }
    record(cx, order, &confirmation.entry).await?;
    match decision {
        Decision::MarkPaid => mark_paid(cx, order, receipt).await,
        Decision::AmountDiffers => {
            record(cx, order, &confirmation.refused_entry()).await?;
            tracing::error!(order = %order_tag(order.uuid), reference = ?confirmation.entry.external_ref, "paid amount differs");
            Ok(false)
        }
        Decision::End(status) => {
            cx.store
                .end_unpaid_order(order.id, status, cx.clock.now())
                .await?;
            Ok(false)
        }
        Decision::NotThisOrder | Decision::Nothing => Ok(false),
    }
}

/// Marks an order paid and starts its delivery, once; `false` when it was paid already or
/// could not be. Money that reaches an order the shop had ended (a photo in it withdrawn,
/// or a cancelled QR paid after all) is never kept silently: the order notes a refund due,
/// which the order page and the console show.
async fn mark_paid(cx: &Commerce<'_>, order: &Order, receipt: Receipt) -> CommerceResult<bool> {
    let receipt = match receipt {
        Receipt::Shop => Some(ReceiptRef::from_random(rand::random())),
        Receipt::Slip(slip) => Some(slip),
        Receipt::None => None,
    };
    let jobs = cx.jobs.paid_order(order.id);
    let marked = cx
        .store
        .mark_order_paid(
            order.id,
            receipt.as_ref().map(ReceiptRef::as_str),
            &jobs,
            cx.clock.now(),
        )
        .await?;
    match marked {
        MarkedPaid::Paid => {
            metrics::counter!("orders_paid_total", "gateway" => order.payment_gateway.as_str())
                .increment(1);
            tracing::info!(order = %order_tag(order.uuid), gateway = %order.payment_gateway, "order paid");
            return Ok(true);
        }
        MarkedPaid::Withdrawn => {
            tracing::warn!(order = %order_tag(order.uuid), "a withdrawn photo cancelled the order at payment");
        }
        MarkedPaid::Unchanged => {}
    }
    // An approval moves no money; a payment does.
    if order.payment_channel != PaymentChannel::Approval {
        let now = cx.store.order_by_id(order.id).await?;
        if now.is_some_and(|o| o.payment_status == PaymentStatus::Cancelled) {
            cx.store
                .note_refund_due(order.id, order.paid_amount, cx.clock.now())
                .await?;
            metrics::counter!("orders_refund_due_total", "gateway" => order.payment_gateway.as_str())
                .increment(1);
            tracing::error!(order = %order_tag(order.uuid), gateway = %order.payment_gateway, "payment reached a cancelled order: refund due");
        }
    }
    Ok(false)
}

/// Asks the order's gateway what became of its payment and applies the answer. Gateways
/// that cannot be asked leave the order as it is.
pub async fn check(cx: &Commerce<'_>, order: &Order) -> CommerceResult<()> {
    let live = cx.live.get();
    let req = payment_request(cx, order);
    let confirmation = gateway_of(&live, order)?.check(&req).await?;
    if let Some(confirmation) = confirmation {
        settle(cx, order, &confirmation, Receipt::Shop).await?;
    }
    Ok(())
}

/// Asks the order's gateway whether an unpaid order has been paid, at most once per
/// `RECHECK` per order across replicas: the order page's Refresh must not wait for a
/// callback that was lost. Gateway trouble leaves the order as it is.
pub async fn recheck(cx: &Commerce<'_>, order: &Order) -> CommerceResult<()> {
    const RECHECK: chrono::Duration = chrono::Duration::seconds(5);
    let waiting = order.payment_status == PaymentStatus::Initial
        && matches!(
            order.payment_channel,
            PaymentChannel::PromptPay | PaymentChannel::Card
        );
    let asked_before = order.gateway_ref.is_some();
    let answers = matches!(order.payment_gateway, GatewayKind::Gbp | GatewayKind::Opn);
    if !(waiting && asked_before && answers) {
        return Ok(());
    }
    let now = cx.clock.now();
    if !cx
        .store
        .claim_order_check(order.id, now - RECHECK, now)
        .await?
    {
        return Ok(());
    }
    if let Err(e) = check(cx, order).await {
        tracing::warn!(order = %order_tag(order.uuid), error = ?e, "payment re-check failed");
    }
    Ok(())
}

/// The sandbox's simulated outcome of a payment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SandboxResult {
    Paid,
    Failed,
}

/// Applies a simulated payment to a sandbox order: paid marks it paid; failed declines a
/// card (the order may be paid again) or cancels a PromptPay order.
pub async fn sandbox_pay(
    cx: &Commerce<'_>,
    order: &Order,
    result: SandboxResult,
) -> CommerceResult<()> {
    // A shop that no longer allows the sandbox must not let its old orders be "paid".
    if !cx.payments.allow_sandbox {
        return Err(GatewayMissing(GatewayKind::Sandbox).into());
    }
    let payable = order.payment_gateway == GatewayKind::Sandbox
        && matches!(
            order.payment_channel,
            PaymentChannel::PromptPay | PaymentChannel::Card
        )
        && matches!(
            order.payment_status,
            PaymentStatus::Initial | PaymentStatus::Expired
        );
    payable_only_if(
        payable,
        "the order is not a sandbox order waiting for payment",
    )?;
    let confirmation = Sandbox::outcome(&payment_request(cx, order), result == SandboxResult::Paid);
    settle(cx, order, &confirmation, Receipt::Shop).await?;
    Ok(())
}

/// An operator's confirmation of a PROMPTPAY order against the bank slip, whose last
/// characters become the order's receipt reference.
pub async fn confirm_by_slip(cx: &Commerce<'_>, order: &Order, slip: &str) -> CommerceResult<bool> {
    payable_only_if(
        order.payment_gateway == GatewayKind::PromptPay
            && order.payment_channel == PaymentChannel::PromptPay,
        "only PROMPTPAY orders are confirmed against a slip; other gateways confirm themselves",
    )?;
    let receipt = ReceiptRef::of_slip(slip).ok_or(CommerceError::MalformedSlipRef)?;
    let entry = TrailEntry::new(TrailKind::OperatorConfirm, TrailStatus::Paid)
        .reference(slip)
        .amount(order.paid_amount);
    let confirmation = Confirmation::by_operator(&payment_request(cx, order), entry);
    settle(cx, order, &confirmation, Receipt::Slip(receipt)).await
}

/// An operator's approval of an all-photos (AM) order.
pub async fn approve(cx: &Commerce<'_>, order: &Order, actor: &str) -> CommerceResult<bool> {
    payable_only_if(
        order.payment_channel == PaymentChannel::Approval,
        "only AM orders are approved",
    )?;
    // An AM request lapses like any unpaid order: approving it late would deliver photos
    // the buyer may no longer expect to pay for.
    // (Approving a paid one again changes nothing, and says so.)
    let lapsed = order.expires_at.is_some_and(|at| at <= cx.clock.now());
    let waiting = order.payment_status == PaymentStatus::Initial && !lapsed;
    payable_only_if(
        waiting || order.payment_status == PaymentStatus::Paid,
        "the request is no longer waiting for approval (it lapsed, or was ended)",
    )?;
    let entry = TrailEntry::new(TrailKind::OperatorApprove, TrailStatus::Approved)
        .reference(actor)
        .amount(order.paid_amount);
    let confirmation = Confirmation::by_operator(&payment_request(cx, order), entry);
    settle(cx, order, &confirmation, Receipt::None).await
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;
    use raceshot_domain::Money;

    use super::*;

    fn money(satang: i64) -> Money {
        Money::from_satang(satang).unwrap_or(Money::ZERO)
    }

    fn order(gateway: GatewayKind, channel: PaymentChannel) -> Order {
        Order {
            id: 7,
            uuid: OrderUuid::parse("5d1c3a5e-8f61-4b7e-9a57-0c2f1b8e4d21").unwrap(),
            event_id: 1,
            event_key: raceshot_domain::EventKey::parse("bangsaen-21").unwrap(),
            event_title: "Bangsaen 21".into(),
            event_date: "2026-12-06".into(),
            mobile: "0812345678".into(),
            email: None,
            deal: false,
            wholesale: false,
            image_count: 1,
            full_amount: money(12_000),
            discount: Money::ZERO,
            amount: money(12_000),
            payment_fee: Money::ZERO,
            paid_amount: money(12_000),
            payment_gateway: gateway,
            payment_channel: channel,
            payment_status: PaymentStatus::Initial,
            gateway_ref: None,
            qrcode_url: None,
            api_response: None,
            am_order_ref: None,
            receipt_ref: None,
            is_original_image_created: false,
            is_logo_image_created: false,
            frame: None,
            certificate: None,
            is_frame_image_created: false,
            is_send_sms: false,
            is_send_email: false,
            created_at: chrono::Utc.timestamp_opt(0, 0).single().unwrap_or_default(),
            paid_at: None,
            expires_at: None,
            last_checked_at: None,
            end_reason: None,
            refund_due: None,
        }
    }

    fn request(order: &Order) -> PaymentRequest {
        request_without_links(order)
    }

    fn decision(order: &Order, confirmation: &Confirmation) -> Decision {
        decide(order, &request(order), confirmation)
    }

    /// A GB Prime Pay status answer for the shop's reference of `order`.
    fn gbp_answer(order: &Order, paid: bool, amount: Option<Money>) -> Confirmation {
        let reference = request(order).reference();
        raceshot_payments::gbp::GbpTransaction {
            paid,
            amount,
            reference_no: reference,
            gbp_reference_no: Some("GBP-1".into()),
            result_code: "00".into(),
            status: Some(if paid { "S" } else { "P" }.into()),
            raw: serde_json::json!({}),
        }
        .confirmation()
    }

    /// An OPN charge as OPN tells it.
    fn opn_answer(
        uuid: &OrderUuid,
        status: &str,
        paid: bool,
        satang: i64,
        currency: &str,
    ) -> Confirmation {
        let charge = raceshot_payments::opn::Charge::from_json(serde_json::json!({
            "object": "charge", "id": "chrg_test_1", "status": status, "paid": paid,
            "amount": satang, "currency": currency, "metadata": {"order_uuid": uuid},
        }));
        match charge {
            Ok(charge) => charge.confirmation(),
            Err(e) => panic!("charge: {e}"),
        }
    }

    #[test]
    fn a_gateway_payment_of_the_orders_amount_marks_it_paid() {
        let gbp = order(GatewayKind::Gbp, PaymentChannel::PromptPay);
        let confirmation = gbp_answer(&gbp, true, Some(gbp.paid_amount));
        assert_eq!(decision(&gbp, &confirmation), Decision::MarkPaid);
        assert_eq!(confirmation.entry.kind.to_string(), "status_check:paid");

        let opn = order(GatewayKind::Opn, PaymentChannel::Card);
        let confirmation = opn_answer(&opn.uuid, "successful", true, 12_000, "THB");
        assert_eq!(decision(&opn, &confirmation), Decision::MarkPaid);
        assert_eq!(confirmation.entry.kind.to_string(), "charge:successful");

        let sandbox = order(GatewayKind::Sandbox, PaymentChannel::PromptPay);
        let confirmation = Sandbox::outcome(&request(&sandbox), true);
        assert_eq!(decision(&sandbox, &confirmation), Decision::MarkPaid);
    }

    #[test]
    fn another_amount_or_currency_is_refused_whoever_says_it() {
        let gbp = order(GatewayKind::Gbp, PaymentChannel::PromptPay);
        for amount in [Some(money(11_999)), Some(money(12_001)), None] {
            let confirmation = gbp_answer(&gbp, true, amount);
            assert_eq!(decision(&gbp, &confirmation), Decision::AmountDiffers);
            assert_eq!(
                confirmation.refused_entry().kind.to_string(),
                "amount_mismatch"
            );
            assert_eq!(confirmation.refused_entry().amount, amount);
        }
        let opn = order(GatewayKind::Opn, PaymentChannel::PromptPay);
        for (satang, currency) in [(100, "thb"), (12_000, "usd"), (1_200_000, "thb")] {
            let confirmation = opn_answer(&opn.uuid, "successful", true, satang, currency);
            assert_eq!(decision(&opn, &confirmation), Decision::AmountDiffers);
        }
    }

    #[test]
    fn a_confirmation_of_another_order_changes_nothing() {
        let gbp = order(GatewayKind::Gbp, PaymentChannel::PromptPay);
        let other = Order {
            id: 8,
            ..gbp.clone()
        };
        let confirmation = gbp_answer(&other, true, Some(gbp.paid_amount));
        assert_eq!(decision(&gbp, &confirmation), Decision::NotThisOrder);

        let opn = order(GatewayKind::Opn, PaymentChannel::Card);
        let confirmation = opn_answer(&OrderUuid::new_random(), "successful", true, 12_000, "thb");
        assert_eq!(decision(&opn, &confirmation), Decision::NotThisOrder);
        // The charge the order remembers is its own, whatever its metadata says.
        let remembering = Order {
            gateway_ref: Some("chrg_test_1".into()),
            ..opn
        };
        assert_eq!(decision(&remembering, &confirmation), Decision::MarkPaid);
    }

    #[test]
    fn unpaid_lapsed_and_declined_payments_end_only_qr_orders() {
        let qr = order(GatewayKind::Opn, PaymentChannel::PromptPay);
        let card = order(GatewayKind::Opn, PaymentChannel::Card);
        let expired = |o: &Order| opn_answer(&o.uuid, "expired", false, 12_000, "thb");
        assert_eq!(
            decision(&qr, &expired(&qr)),
            Decision::End(PaymentStatus::Expired)
        );
        assert_eq!(decision(&card, &expired(&card)), Decision::Nothing);
        for status in ["pending", "failed", "reversed"] {
            let confirmation = opn_answer(&qr.uuid, status, false, 12_000, "thb");
            assert_eq!(decision(&qr, &confirmation), Decision::Nothing, "{status}");
        }
        let unpaid = gbp_answer(&qr, false, Some(qr.paid_amount));
        assert_eq!(decision(&qr, &unpaid), Decision::Nothing);

        let sandbox_qr = order(GatewayKind::Sandbox, PaymentChannel::PromptPay);
        let sandbox_card = order(GatewayKind::Sandbox, PaymentChannel::Card);
        let failed = |o: &Order| Sandbox::outcome(&request(o), false);
        assert_eq!(
            decision(&sandbox_qr, &failed(&sandbox_qr)),
            Decision::End(PaymentStatus::Cancelled)
        );
        assert_eq!(
            decision(&sandbox_card, &failed(&sandbox_card)),
            Decision::Nothing,
            "a declined card may be tried again"
        );
    }

    #[test]
    fn an_operators_confirmation_is_for_the_orders_own_amount() {
        let am = order(GatewayKind::Gbp, PaymentChannel::Approval);
        let entry = TrailEntry::new(TrailKind::OperatorApprove, TrailStatus::Approved)
            .reference("admin@example.com");
        let confirmation = Confirmation::by_operator(&request(&am), entry);
        assert_eq!(decision(&am, &confirmation), Decision::MarkPaid);
        assert_eq!(confirmation.entry.kind.to_string(), "operator_approve");
    }
}
