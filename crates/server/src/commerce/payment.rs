//! Payment flows per gateway: starting a PromptPay payment (a QR) or a card charge, and
//! settling an order from the gateway's own word — GB Prime Pay's status check, OPN's
//! charge as fetched from OPN, an operator's check of a bank slip (PROMPTPAY), or the
//! sandbox. Callbacks and webhooks only prompt a settlement; none is believed on its own.
//! Every call out and every message in lands in the order's payment trail first.

use chrono::{DateTime, Utc};
use raceshot_domain::{Money, PaymentChannel, PaymentStatus, ReceiptRef};
use raceshot_payments::GatewayKind;
use raceshot_payments::gbp::{GbpQrRequest, GbpTransaction};
use raceshot_payments::opn::{Charge, ChargeStatus};
use raceshot_payments::promptpay;
use raceshot_store::orders::{Order, PaymentEvent};
use raceshot_store::{ObjectKey, StoredName};

use super::gateways::gateway_error;
use super::links;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::jobs;
use crate::state::AppState;
use crate::telemetry::order_tag;

/// The gateway an order was made through.
pub fn gateway_of(order: &Order) -> ApiResult<GatewayKind> {
    order.payment_gateway.parse().map_err(|_| {
        ApiError::internal(anyhow::anyhow!(
            "order {} has unknown gateway {}",
            order.uuid,
            order.payment_gateway
        ))
    })
}

/// The reference of an order at its gateway (GB Prime Pay allows at most 15 characters).
pub fn order_reference(order: &Order) -> String {
    format!("RS{:013}", order.id)
}

/// The sandbox's reference of an order's payment.
fn sandbox_reference(order: &Order) -> String {
    format!("SBX{:012}", order.id)
}

/// Where an order's GB Prime Pay QR image is kept.
pub fn qr_image_key(order_uuid: &str) -> Option<ObjectKey> {
    let simple: String = order_uuid.chars().filter(|c| *c != '-').collect();
    StoredName::parse(&format!("{simple}.png")).map(|n| ObjectKey::shared("qr", &n))
}

async fn trail(
    state: &AppState,
    order: &Order,
    kind: &str,
    external_ref: Option<&str>,
    amount: Option<Money>,
    status: &str,
    payload: &str,
) -> ApiResult<bool> {
    let event = PaymentEvent {
        gateway: &order.payment_gateway,
        kind,
        external_ref,
        amount,
        status,
        payload,
    };
    Ok(state
        .store
        .record_payment_event(order.id, &event, state.now())
        .await?)
}

/// Starts paying a new PromptPay order: asks the gateway for a QR (or makes one) and
/// stores where it is. Card orders wait for the card; AM and FREE orders pay nothing
/// here. Safe to call again on an order whose QR is missing (a retried request).
pub async fn start_payment(state: &AppState, order: &Order) -> ApiResult<()> {
    if order.payment_channel != PaymentChannel::PromptPay
        || order.payment_status != PaymentStatus::Initial
        || order.qrcode_url.is_some()
    {
        return Ok(());
    }
    let now = state.now();
    let ttl = chrono::Duration::from_std(state.config.payments.qr_ttl).unwrap_or_default();
    let expires = now + ttl;
    let live = state.live();
    match gateway_of(order)? {
        GatewayKind::Sandbox => {
            let url = links::sandbox_page_url(state, &order.uuid, false);
            let reference = sandbox_reference(order);
            save_qr(state, order, &reference, &url, Some(expires)).await
        }
        GatewayKind::PromptPay => {
            let id = live.gateways.promptpay_id.as_ref().ok_or_else(|| {
                ApiError::internal(anyhow::anyhow!("payments.promptpay_id is not set"))
            })?;
            let payload = promptpay::payload(id, Some(order.paid_amount));
            save_qr(
                state,
                order,
                &order_reference(order),
                &payload,
                Some(expires),
            )
            .await
        }
        GatewayKind::Gbp => {
            let client = live.gateways.gbp()?;
            let reference = order_reference(order);
            let request = GbpQrRequest {
                amount: order.paid_amount,
                reference_no: reference.clone(),
                background_url: links::gbp_callback_url(state, &order.uuid),
                detail: format!("Raceshot {}", order.event_key),
                customer_telephone: Some(order.mobile.clone()),
                customer_email: order.email.clone(),
            };
            trail(
                state,
                order,
                "create_qr",
                None,
                Some(order.paid_amount),
                "requested",
                "",
            )
            .await?;
            let png = client.create_qr(&request).await.map_err(gateway_error)?;
            let key = qr_image_key(&order.uuid)
                .ok_or_else(|| ApiError::internal(anyhow::anyhow!("order uuid {}", order.uuid)))?;
            state.objects.put(&key, png).await?;
            trail(
                state,
                order,
                "create_qr",
                Some(&reference),
                Some(order.paid_amount),
                "created",
                "",
            )
            .await?;
            let url = links::qr_image_url(state, &order.uuid);
            save_qr(state, order, &reference, &url, Some(expires)).await
        }
        GatewayKind::Opn => {
            let client = live.gateways.opn()?;
            trail(
                state,
                order,
                "charge",
                None,
                Some(order.paid_amount),
                "requested",
                "promptpay",
            )
            .await?;
            let charge = client
                .create_promptpay_charge(order.paid_amount, &description(order), &order.uuid)
                .await
                .map_err(gateway_error)?;
            record_charge(state, order, &charge).await?;
            let qr = charge.qr_image_uri.clone().ok_or_else(|| {
                ApiError::new(
                    ErrorCode::PaymentGatewayError,
                    "the gateway answered without a QR image",
                )
            })?;
            let expires = charge
                .expires_at
                .as_deref()
                .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
                .map_or(expires, |t| t.with_timezone(&Utc));
            save_qr(state, order, &charge.id, &qr, Some(expires)).await
        }
    }
}

fn description(order: &Order) -> String {
    format!("Raceshot order {} ({})", order.uuid, order.event_key)
}

async fn save_qr(
    state: &AppState,
    order: &Order,
    reference: &str,
    qr: &str,
    expires: Option<DateTime<Utc>>,
) -> ApiResult<()> {
    let api_response = serde_json::json!({ "qrcode": qr }).to_string();
    state
        .store
        .set_order_payment(
            order.id,
            Some(reference),
            Some(qr),
            Some(&api_response),
            expires,
            state.now(),
        )
        .await?;
    Ok(())
}

async fn record_charge(state: &AppState, order: &Order, charge: &Charge) -> ApiResult<()> {
    let kind = format!("charge:{}", charge.status.as_str());
    trail(
        state,
        order,
        &kind,
        Some(&charge.id),
        Some(charge.amount),
        charge.status.as_str(),
        &charge.raw.to_string(),
    )
    .await?;
    state
        .store
        .set_order_payment(order.id, Some(&charge.id), None, None, None, state.now())
        .await?;
    Ok(())
}

/// What a card payment asks of the browser next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardNext {
    /// Where to send the browser: the bank's 3-D Secure page, or the order page when the
    /// charge needed none.
    pub authorize_uri: String,
}

/// Charges a card order with the browser's card token.
pub async fn pay_by_card(state: &AppState, order: &Order, token: &str) -> ApiResult<CardNext> {
    if order.payment_channel != PaymentChannel::Card
        || order.payment_status != PaymentStatus::Initial
    {
        return Err(ApiError::new(
            ErrorCode::OrderNotPayable,
            "the order is not a card order waiting for payment",
        ));
    }
    let live = state.live();
    match gateway_of(order)? {
        GatewayKind::Sandbox => {
            trail(
                state,
                order,
                "card_token",
                Some(token),
                Some(order.paid_amount),
                "received",
                "",
            )
            .await?;
            Ok(CardNext {
                authorize_uri: links::sandbox_page_url(state, &order.uuid, true),
            })
        }
        GatewayKind::Opn => {
            let client = live.gateways.opn()?;
            // A charge still waiting for its 3-D Secure step is finished, not doubled.
            if let Some(earlier) = order.gateway_ref.as_deref() {
                let charge = client.get_charge(earlier).await.map_err(gateway_error)?;
                match (charge.status, charge.authorize_uri.clone()) {
                    (ChargeStatus::Successful, _) => {
                        settle_opn_charge(state, order, &charge).await?;
                        return Ok(CardNext {
                            authorize_uri: links::order_page_url(state, &order.uuid),
                        });
                    }
                    (ChargeStatus::Pending, Some(uri)) => {
                        return Ok(CardNext { authorize_uri: uri });
                    }
                    _ => {}
                }
            }
            // The token is the charge's only idempotency: a second charge with it is refused.
            trail(
                state,
                order,
                "charge",
                None,
                Some(order.paid_amount),
                "requested",
                "card",
            )
            .await?;
            let charge = client
                .create_card_charge(
                    token,
                    order.paid_amount,
                    &links::order_page_url(state, &order.uuid),
                    &description(order),
                    &order.uuid,
                )
                .await
                .map_err(gateway_error)?;
            record_charge(state, order, &charge).await?;
            match charge.status {
                ChargeStatus::Successful => {
                    settle_opn_charge(state, order, &charge).await?;
                    Ok(CardNext {
                        authorize_uri: links::order_page_url(state, &order.uuid),
                    })
                }
                ChargeStatus::Pending => match charge.authorize_uri {
                    Some(uri) => Ok(CardNext { authorize_uri: uri }),
                    None => Err(ApiError::new(
                        ErrorCode::PaymentGatewayError,
                        "the card charge is pending without a 3-D Secure address",
                    )),
                },
                _ => Err(ApiError::new(
                    ErrorCode::PaymentDeclined,
                    format!(
                        "the card was declined: {}: {}",
                        charge.failure_code.as_deref().unwrap_or("failed"),
                        charge.failure_message.as_deref().unwrap_or("")
                    ),
                )),
            }
        }
        other => Err(ApiError::new(
            ErrorCode::PaymentChannelNotAvailable,
            format!("the {other} gateway takes no cards"),
        )),
    }
}

/// The receipt a runner finds a gateway-paid order by: the shop's own random reference,
/// since gateways' references (and the sandbox's) can be sequential and so guessable. Only
/// a PROMPTPAY order takes its receipt from the bank slip its buyer holds.
fn shop_receipt() -> ReceiptRef {
    ReceiptRef::from_random(rand::random())
}

/// Marks an order paid and starts its delivery, once; `false` when it was paid already.
pub async fn mark_paid(
    state: &AppState,
    order: &Order,
    receipt: Option<ReceiptRef>,
) -> ApiResult<bool> {
    let now = state.now();
    let jobs = jobs::paid_order_jobs(state);
    let changed = state
        .store
        .mark_order_paid(
            order.id,
            receipt.as_ref().map(ReceiptRef::as_str),
            &jobs,
            now,
        )
        .await?;
    if changed {
        metrics::counter!("orders_paid_total", "gateway" => order.payment_gateway.clone())
            .increment(1);
        tracing::info!(order = %order_tag(&order.uuid), gateway = %order.payment_gateway, "order paid");
    }
    Ok(changed)
}

/// Settles an OPN order from a charge fetched from OPN: paid when the charge succeeded
/// for the order's amount in baht; expired when a PromptPay charge lapsed.
pub async fn settle_opn_charge(state: &AppState, order: &Order, charge: &Charge) -> ApiResult<()> {
    let ours = charge.order_uuid.as_deref() == Some(order.uuid.as_str())
        || order.gateway_ref.as_deref() == Some(charge.id.as_str());
    if !ours {
        tracing::warn!(order = %order_tag(&order.uuid), charge = %charge.id, "charge of another order");
        return Ok(());
    }
    match charge.status {
        ChargeStatus::Successful if charge.paid => {
            if charge.amount != order.paid_amount || !charge.currency.eq_ignore_ascii_case("thb") {
                trail(
                    state,
                    order,
                    "amount_mismatch",
                    Some(&charge.id),
                    Some(charge.amount),
                    "refused",
                    &charge.raw.to_string(),
                )
                .await?;
                tracing::error!(order = %order_tag(&order.uuid), charge = %charge.id, "paid amount differs");
                return Ok(());
            }
            mark_paid(state, order, Some(shop_receipt())).await?;
        }
        ChargeStatus::Expired if order.payment_channel == PaymentChannel::PromptPay => {
            state
                .store
                .end_unpaid_order(order.id, PaymentStatus::Expired, state.now())
                .await?;
        }
        _ => {}
    }
    Ok(())
}

/// Settles a GB Prime Pay order from its status check: paid when GB Prime Pay says the
/// order's reference was paid with the order's amount.
pub async fn settle_gbp(state: &AppState, order: &Order, txn: &GbpTransaction) -> ApiResult<()> {
    trail(
        state,
        order,
        if txn.paid {
            "status_check:paid"
        } else {
            "status_check:unpaid"
        },
        txn.gbp_reference_no.as_deref().or(Some(&txn.reference_no)),
        txn.amount,
        if txn.paid { "paid" } else { "unpaid" },
        &txn.raw.to_string(),
    )
    .await?;
    if !txn.paid || txn.reference_no != order_reference(order) {
        return Ok(());
    }
    if txn.amount != Some(order.paid_amount) {
        tracing::error!(order = %order_tag(&order.uuid), "GB Prime Pay paid amount differs");
        return Ok(());
    }
    mark_paid(state, order, Some(shop_receipt())).await?;
    Ok(())
}

/// Asks the order's gateway whether an unpaid order has been paid, at most once per
/// `RECHECK` per order across replicas: the order page's Refresh must not wait for a
/// callback that was lost. Gateway trouble leaves the order as it is.
pub async fn recheck(state: &AppState, order: &Order) -> ApiResult<()> {
    const RECHECK: chrono::Duration = chrono::Duration::seconds(5);
    let waiting = order.payment_status == PaymentStatus::Initial
        && matches!(
            order.payment_channel,
            PaymentChannel::PromptPay | PaymentChannel::Card
        );
    let Some(reference) = order.gateway_ref.as_deref().filter(|_| waiting) else {
        return Ok(());
    };
    let gateway = gateway_of(order)?;
    if !matches!(gateway, GatewayKind::Gbp | GatewayKind::Opn) {
        return Ok(());
    }
    let now = state.now();
    if !state
        .store
        .claim_order_check(order.id, now - RECHECK, now)
        .await?
    {
        return Ok(());
    }
    let live = state.live();
    let outcome = match gateway {
        GatewayKind::Gbp => match live.gateways.gbp() {
            Ok(client) => match client.check_status(reference).await {
                Ok(txn) => settle_gbp(state, order, &txn).await,
                Err(e) => Err(gateway_error(e)),
            },
            Err(e) => Err(e),
        },
        _ => match live.gateways.opn() {
            Ok(client) => match client.get_charge(reference).await {
                Ok(charge) => settle_opn_charge(state, order, &charge).await,
                Err(e) => Err(gateway_error(e)),
            },
            Err(e) => Err(e),
        },
    };
    if let Err(e) = outcome {
        tracing::warn!(order = %order_tag(&order.uuid), error = ?e, "payment re-check failed");
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
pub async fn sandbox_pay(state: &AppState, order: &Order, result: SandboxResult) -> ApiResult<()> {
    // A shop that no longer allows the sandbox must not let its old orders be "paid".
    if !state.config.payments.allow_sandbox {
        return Err(ApiError::new(
            ErrorCode::NotFound,
            "the sandbox gateway is off",
        ));
    }
    let payable = gateway_of(order)? == GatewayKind::Sandbox
        && matches!(
            order.payment_channel,
            PaymentChannel::PromptPay | PaymentChannel::Card
        )
        && matches!(
            order.payment_status,
            PaymentStatus::Initial | PaymentStatus::Expired
        );
    if !payable {
        return Err(ApiError::new(
            ErrorCode::OrderNotPayable,
            "the order is not a sandbox order waiting for payment",
        ));
    }
    let reference = sandbox_reference(order);
    match result {
        SandboxResult::Paid => {
            trail(
                state,
                order,
                "sandbox:paid",
                Some(&reference),
                Some(order.paid_amount),
                "paid",
                "",
            )
            .await?;
            mark_paid(state, order, Some(shop_receipt())).await?;
        }
        SandboxResult::Failed => {
            trail(
                state,
                order,
                "sandbox:failed",
                None,
                Some(order.paid_amount),
                "failed",
                "",
            )
            .await?;
            if order.payment_channel == PaymentChannel::PromptPay {
                state
                    .store
                    .end_unpaid_order(order.id, PaymentStatus::Cancelled, state.now())
                    .await?;
            }
        }
    }
    Ok(())
}

/// An operator's confirmation of a PROMPTPAY order against the bank slip, whose last
/// characters become the order's receipt reference.
pub async fn confirm_by_slip(state: &AppState, order: &Order, slip: &str) -> ApiResult<bool> {
    if gateway_of(order)? != GatewayKind::PromptPay
        || order.payment_channel != PaymentChannel::PromptPay
    {
        return Err(ApiError::new(
            ErrorCode::OrderNotPayable,
            "only PROMPTPAY orders are confirmed against a slip; other gateways confirm themselves",
        ));
    }
    let receipt = ReceiptRef::of_slip(slip)
        .ok_or_else(|| ApiError::field("slip_ref", "needs at least 4 letters or digits"))?;
    trail(
        state,
        order,
        "operator_confirm",
        Some(slip),
        Some(order.paid_amount),
        "paid",
        "",
    )
    .await?;
    mark_paid(state, order, Some(receipt)).await
}

/// An operator's approval of an all-photos (AM) order.
pub async fn approve(state: &AppState, order: &Order, actor: &str) -> ApiResult<bool> {
    if order.payment_channel != PaymentChannel::Approval {
        return Err(ApiError::new(
            ErrorCode::OrderNotPayable,
            "only AM orders are approved",
        ));
    }
    trail(
        state,
        order,
        "operator_approve",
        Some(actor),
        Some(order.paid_amount),
        "approved",
        "",
    )
    .await?;
    mark_paid(state, order, None).await
}
