//! What gateways send the shop: GB Prime Pay's callback (authorised by the unguessable
//! token in its address, then confirmed with a status check), OPN's webhook (signature and
//! its timestamp's freshness checked, the charge then fetched from OPN), and the sandbox
//! gateway's pay call and page. Every message is kept in the payment trail; replays
//! change nothing.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use raceshot_domain::{PaymentChannel, PaymentStatus};
use raceshot_payments::GatewayKind;
use raceshot_payments::gbp::GbpCallback;
use raceshot_payments::opn::{self, WebhookEvent};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::catalogue::SUCCESS;
use super::extract::ApiJson;
use super::web::html_escape;
use crate::api::contract;
use crate::api::error::ErrorAnswer;
use crate::app::state::AppState;
use crate::error::{ErrorCode, OrMissing, ShopError, ShopResult};
use crate::services::commerce::payment::{self, Receipt, SandboxResult};
use crate::services::commerce::{CommerceError, find_order, parse_order_uuid};

/// Gateway messages are small; anything larger is not one.
pub const MAX_CALLBACK_BYTES: usize = 64 * 1024;

#[derive(Debug, Serialize, ToSchema)]
pub struct Acknowledged {
    #[schema(example = "success")]
    pub status: &'static str,
}

fn ack() -> Json<Acknowledged> {
    Json(Acknowledged { status: SUCCESS })
}

/// GB Prime Pay's payment callback for one order.
#[utoipa::path(post, path = "/api/payments/gbp/{order_uuid}/{token}", tag = "payments",
    params(("order_uuid" = String, Path), ("token" = String, Path, description = "The order's callback token")),
    request_body(content = Object, description = "GB Prime Pay's callback (JSON or form)"),
    responses((status = 200, body = Acknowledged), (status = 403, response = ErrorAnswer), (status = 422, response = ErrorAnswer)))]
pub async fn gbp_callback(
    State(state): State<AppState>,
    Path((order_uuid, token)): Path<(String, String)>,
    body: Bytes,
) -> ShopResult<Json<Acknowledged>> {
    let signed = parse_order_uuid(&order_uuid)
        .ok()
        .filter(|uuid| state.links.gbp_callback_token_ok(uuid, &token));
    let Some(order_uuid) = signed else {
        return Err(ShopError::new(
            ErrorCode::InvalidSignature,
            "unknown callback address",
        ));
    };
    let order = find_order(&state.store, order_uuid).await?;
    let callback = GbpCallback::parse(&body)
        .map_err(|e| ShopError::field("body", format!("not a GB Prime Pay callback: {e}")))?;
    payment::record(
        &state.commerce(),
        &order,
        &callback.trail_entry(&String::from_utf8_lossy(&body)),
    )
    .await?;
    if callback.is_paid() && order.payment_status != PaymentStatus::Paid {
        // The callback is unsigned: only GB Prime Pay's own status check counts.
        payment::check(&state.commerce(), &order).await?;
    }
    Ok(ack())
}

/// OPN's webhook: events about charges.
#[utoipa::path(post, path = "/api/payments/opn/webhook", tag = "payments",
    request_body(content = Object, description = "An OPN event object"),
    responses((status = 200, body = Acknowledged), (status = 401, response = ErrorAnswer), (status = 422, response = ErrorAnswer)))]
pub async fn opn_webhook(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> ShopResult<Json<Acknowledged>> {
    let live = state.live();
    let client = live.gateways.opn()?;
    let header_text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    // The app's clock, not `Utc::now()`: in production it is the system clock OPN's
    // timestamps are made by; tests fix it and sign their webhooks at that instant.
    // A stale or future timestamp gets the same answer as a bad signature, so a probe
    // learns nothing from the difference.
    if !client.webhook_signature_ok(
        header_text(opn::SIGNATURE_TIMESTAMP_HEADER),
        header_text(opn::SIGNATURE_HEADER),
        &body,
        state.now(),
    ) {
        return Err(ShopError::new(
            ErrorCode::InvalidSignature,
            "the webhook signature does not match, or is not fresh",
        ));
    }
    let event = WebhookEvent::parse(&body)
        .map_err(|e| ShopError::field("body", format!("not an OPN event: {e}")))?;
    let Some(charge_id) = event.charge_id.as_deref() else {
        return Ok(ack());
    };
    // The event is only a hint: the charge as OPN tells it now is what counts.
    let charge = client.get_charge(charge_id).await?;
    let Some(order_uuid) = charge.order_uuid.as_deref() else {
        tracing::info!(charge = %charge.id, "webhook for a charge of no order");
        return Ok(ack());
    };
    let Ok(order_uuid) = parse_order_uuid(order_uuid) else {
        return Ok(ack()); // not one of ours
    };
    let order = match find_order(&state.store, order_uuid).await {
        Ok(order) => order,
        Err(CommerceError::OrderNotFound) => return Ok(ack()),
        Err(e) => return Err(e.into()),
    };
    let entry = event.trail_entry(&charge, &String::from_utf8_lossy(&body));
    payment::record(&state.commerce(), &order, &entry).await?;
    payment::settle(
        &state.commerce(),
        &order,
        &charge.confirmation(),
        Receipt::Shop,
    )
    .await?;
    Ok(ack())
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SandboxPayRequest {
    /// `paid` or `failed`.
    pub result: SandboxResult,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SandboxPayResponse {
    #[schema(example = "success")]
    pub status: &'static str,
    #[schema(value_type = contract::PaymentStatus)]
    pub payment_status: &'static str,
}

/// Simulates the outcome of a sandbox order's payment (no money moves).
#[utoipa::path(post, path = "/api/sandbox/orders/{order_uuid}/pay", tag = "payments",
    params(("order_uuid" = String, Path)),
    request_body = SandboxPayRequest,
    responses((status = 200, body = SandboxPayResponse), (status = 404, response = ErrorAnswer),
        (status = 409, response = ErrorAnswer), (status = 422, response = ErrorAnswer)))]
pub async fn sandbox_pay(
    State(state): State<AppState>,
    Path(order_uuid): Path<String>,
    ApiJson(req): ApiJson<SandboxPayRequest>,
) -> ShopResult<Json<SandboxPayResponse>> {
    sandbox_on(&state)?;
    let order = find_order(&state.store, parse_order_uuid(&order_uuid)?).await?;
    payment::sandbox_pay(&state.commerce(), &order, req.result).await?;
    let order = find_order(&state.store, order.uuid).await?;
    Ok(Json(SandboxPayResponse {
        status: SUCCESS,
        payment_status: order.payment_status.as_str(),
    }))
}

#[derive(Debug, Deserialize)]
pub struct SandboxPageQuery {
    pub card: Option<String>,
}

/// `not_found` unless the sandbox is allowed: a shop taking real money has no sandbox
/// page, whatever the order.
fn sandbox_on(state: &AppState) -> ShopResult<()> {
    if state.config.payments.allow_sandbox {
        Ok(())
    } else {
        Err(ShopError::new(
            ErrorCode::NotFound,
            "the sandbox gateway is off",
        ))
    }
}

/// The sandbox gateway's payment page: what the QR or the card's 3-D Secure step leads to.
pub async fn sandbox_page(
    State(state): State<AppState>,
    Path(order_uuid): Path<String>,
    Query(query): Query<SandboxPageQuery>,
) -> ShopResult<Response> {
    sandbox_on(&state)?;
    let order = find_order(&state.store, parse_order_uuid(&order_uuid)?).await?;
    if order.payment_gateway != GatewayKind::Sandbox {
        return Err(ShopError::new(ErrorCode::NotFound, "not a sandbox order"));
    }
    let card = query.card.is_some() || order.payment_channel == PaymentChannel::Card;
    let waiting = matches!(
        order.payment_status,
        PaymentStatus::Initial | PaymentStatus::Expired
    );
    let uuid = order.uuid; // hex digits and hyphens: nothing to escape
    let title = html_escape(&order.event_title);
    let step = if card { "3-D Secure" } else { "PromptPay" };
    let actions = if waiting {
        format!(
            r#"<form method="post" action="/sandbox/pay/{uuid}">
<button name="result" value="paid">{paid}</button>
<button name="result" value="failed" class="fail">{failed}</button>
</form>"#,
            paid = if card {
                "Authorize — ยืนยันการชำระ"
            } else {
                "Paid — จ่ายแล้ว"
            },
            failed = if card {
                "Fail authentication — ไม่ผ่าน"
            } else {
                "Failed — ไม่สำเร็จ"
            },
        )
    } else {
        format!("<p>{}</p>", order.payment_status.as_str())
    };
    let page = format!(
        r#"<!doctype html>
<html lang="th"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>SANDBOX payment {uuid}</title>
<style>body{{font-family:sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem}}
.banner{{background:#b00020;color:#fff;padding:.75rem;border-radius:.5rem;font-weight:bold}}
button{{font-size:1.1rem;padding:.75rem 1rem;margin:.5rem .5rem 0 0;border-radius:.5rem;border:0;background:#1b7f3b;color:#fff}}
button.fail{{background:#555}}</style></head>
<body><p class="banner">SANDBOX — ไม่มีการตัดเงินจริง / no real money moves</p>
<h1>{step}</h1><p>{title}</p><p>Order {uuid}</p><p><strong>{amount} THB</strong></p>
{actions}
<p><a href="/download/{uuid}">กลับไปหน้าคำสั่งซื้อ / back to the order</a></p></body></html>"#,
        amount = order.paid_amount,
    );
    Ok((
        [
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
            ),
            (header::CACHE_CONTROL, "no-store"),
        ],
        Html(page),
    )
        .into_response())
}

#[derive(Debug, Deserialize)]
pub struct SandboxForm {
    pub result: SandboxResult,
}

/// The sandbox page's buttons: apply the outcome, then back to the order page.
pub async fn sandbox_page_submit(
    State(state): State<AppState>,
    Path(order_uuid): Path<String>,
    axum::Form(form): axum::Form<SandboxForm>,
) -> ShopResult<Response> {
    sandbox_on(&state)?;
    let order = find_order(&state.store, parse_order_uuid(&order_uuid)?).await?;
    payment::sandbox_pay(&state.commerce(), &order, form.result).await?;
    Ok(Redirect::to(&format!("/download/{}", order.uuid)).into_response())
}

/// The order's QR image (GB Prime Pay hands out images).
pub async fn qr_image(
    State(state): State<AppState>,
    Path(order_uuid): Path<String>,
) -> ShopResult<Response> {
    let order = find_order(&state.store, parse_order_uuid(&order_uuid)?).await?;
    let key = payment::qr_image_key(&order.uuid)
        .ok_or_else(|| ShopError::new(ErrorCode::NotFound, "no QR image"))?;
    let png = state
        .objects
        .get(&key)
        .await
        .or_missing(|| ShopError::new(ErrorCode::NotFound, "not found"))?;
    Ok((
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "image/png"),
            (header::CACHE_CONTROL, "private, max-age=3600"),
        ],
        png,
    )
        .into_response())
}
