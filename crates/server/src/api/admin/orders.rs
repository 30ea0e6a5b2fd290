//! Orders in the console: the list with its filters, an order with its payment trail,
//! approving AM orders, confirming PROMPTPAY orders against a slip, sending the e-mail
//! again. Admins only.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use chrono::{NaiveDate, TimeZone};
use raceshot_domain::time::format_bangkok;
use raceshot_domain::{PaymentChannel, PaymentStatus};
use raceshot_store::orders::{Order, OrderFilter};
use serde::{Deserialize, Serialize};
use utoipa::IntoParams;
use utoipa::ToSchema;

use super::auth::Admin;
use crate::api::contract;
use crate::api::error::ErrorAnswer;
use crate::api::extract::{ApiJson, ApiQuery};
use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError, ShopResult};
use crate::infra::channels::ChannelKind;
use crate::services::commerce::operator::{self, Outcome};
use crate::services::commerce::{find_order, parse_order_uuid};
use crate::services::messages::{self, MessageKind};

/// One message or step of an order's payment.
#[derive(Debug, Serialize, ToSchema)]
pub struct TrailEntry {
    pub gateway: String,
    pub kind: String,
    pub external_ref: Option<String>,
    /// Satang, when the step names an amount.
    pub amount: Option<i64>,
    pub status: String,
    /// RFC 3339, Bangkok time.
    pub at: String,
}

/// An order as operators see it: its row in the list, and more.
#[derive(Debug, Serialize, ToSchema)]
pub struct AdminOrder {
    #[serde(flatten)]
    pub order: AdminOrderRow,
    /// AM orders: the earlier all-photos order the request refers to (its uuid).
    pub am_order_ref: Option<String>,
    pub paid_at: Option<String>,
    /// The order's page, to send the buyer again (by the shop's chat, when neither mail
    /// nor SMS reaches them).
    pub order_page_url: String,
    /// Why the shop ended it unpaid: `photo_withdrawn`; else absent.
    pub end_reason: Option<String>,
    /// Money that reached it after it had ended: to refund (baht).
    #[schema(value_type = Option<f64>)]
    pub refund_due: Option<raceshot_domain::Money>,
    /// The bib whose finisher certificate it buys, if any.
    pub certificate_bib: Option<String>,
    pub trail: Vec<TrailEntry>,
}

/// An order and its payment trail.
#[utoipa::path(operation_id = "admin_orders_detail", get, path = "/api/admin/orders/{order_uuid}", tag = "console",
    params(("order_uuid" = String, Path)),
    responses((status = 200, body = AdminOrder), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer)))]
pub async fn detail(
    State(state): State<AppState>,
    _admin: Admin,
    Path(order_uuid): Path<String>,
) -> ShopResult<Json<AdminOrder>> {
    let order = find_order(&state.store, parse_order_uuid(&order_uuid)?).await?;
    let trail = state
        .store
        .payment_trail(order.id)
        .await?
        .into_iter()
        .map(|p| TrailEntry {
            gateway: p.gateway,
            kind: p.kind,
            external_ref: p.external_ref,
            amount: p.amount,
            status: p.status,
            at: chrono::DateTime::from_timestamp_millis(p.created_at)
                .map(format_bangkok)
                .unwrap_or_default(),
        })
        .collect();
    Ok(Json(AdminOrder {
        am_order_ref: order.am_order_ref.map(|u| u.to_string()),
        paid_at: order.paid_at.map(format_bangkok),
        order_page_url: state.links.order_page_url(&order.uuid),
        end_reason: order.end_reason.map(|r| r.as_str().to_owned()),
        refund_due: order.refund_due,
        certificate_bib: order
            .certificate
            .as_ref()
            .map(|c| c.bib.as_str().to_owned()),
        order: row(order),
        trail,
    }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OperatorOutcome {
    /// `paid`, or `already_paid` when nothing changed.
    pub outcome: &'static str,
}

/// Approves an all-photos (AM) order: it becomes paid and its delivery starts.
#[utoipa::path(operation_id = "admin_orders_approve", post, path = "/api/admin/orders/{order_uuid}/approve", tag = "console",
    params(("order_uuid" = String, Path)),
    responses((status = 200, body = OperatorOutcome), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer), (status = 409, response = ErrorAnswer)))]
pub async fn approve(
    State(state): State<AppState>,
    Admin(session): Admin,
    Path(order_uuid): Path<String>,
) -> ShopResult<Json<OperatorOutcome>> {
    let order = find_order(&state.store, parse_order_uuid(&order_uuid)?).await?;
    let outcome = operator::approve(&state.commerce(), &order, &session.actor()).await?;
    Ok(Json(answer(outcome)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ConfirmRequest {
    /// The bank slip's transaction reference; its last 4 characters become the receipt.
    pub slip_ref: String,
}

/// Confirms a PROMPTPAY order paid against its bank slip.
#[utoipa::path(operation_id = "admin_orders_confirm", post, path = "/api/admin/orders/{order_uuid}/confirm", tag = "console",
    params(("order_uuid" = String, Path)), request_body = ConfirmRequest,
    responses((status = 200, body = OperatorOutcome), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer), (status = 409, response = ErrorAnswer),
        (status = 422, response = ErrorAnswer)))]
pub async fn confirm(
    State(state): State<AppState>,
    Admin(session): Admin,
    Path(order_uuid): Path<String>,
    ApiJson(req): ApiJson<ConfirmRequest>,
) -> ShopResult<Json<OperatorOutcome>> {
    let order = find_order(&state.store, parse_order_uuid(&order_uuid)?).await?;
    let outcome =
        operator::confirm(&state.commerce(), &order, &req.slip_ref, &session.actor()).await?;
    Ok(Json(answer(outcome)))
}

fn answer(outcome: Outcome) -> OperatorOutcome {
    OperatorOutcome {
        outcome: outcome.as_str(),
    }
}

const PAGE_SIZE: i64 = 50;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OrderQuery {
    pub event_key: Option<String>,
    /// `INITIAL`, `PAID`, `EXPIRED` or `CANCELLED`.
    pub status: Option<String>,
    /// `PP`, `CC`, `AM` or `FREE`.
    pub channel: Option<String>,
    pub mobile: Option<String>,
    /// First day, `YYYY-MM-DD` (Bangkok).
    pub from: Option<String>,
    /// Last day, `YYYY-MM-DD` (Bangkok), included.
    pub to: Option<String>,
    /// 1-based.
    pub page: Option<u32>,
}

/// An order in the console's list.
#[derive(Debug, Serialize, ToSchema)]
pub struct AdminOrderRow {
    pub uuid: String,
    pub event_key: String,
    pub event_title: String,
    pub mobile: String,
    pub email: Option<String>,
    #[schema(value_type = contract::PaymentStatus)]
    pub payment_status: String,
    #[schema(value_type = contract::PaymentChannel)]
    pub payment_channel: String,
    #[schema(value_type = contract::PaymentGateway)]
    pub payment_gateway: String,
    pub image_count: i64,
    /// Baht.
    #[schema(value_type = f64)]
    pub paid_amount: raceshot_domain::Money,
    pub receipt_ref: Option<String>,
    /// RFC 3339, Bangkok time.
    pub created_at: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AdminOrderList {
    pub orders: Vec<AdminOrderRow>,
    pub total: i64,
    pub page: u32,
    pub page_size: i64,
}

fn parse_day(
    field: &str,
    raw: Option<&str>,
    next: bool,
) -> ShopResult<Option<chrono::DateTime<chrono::Utc>>> {
    let Some(raw) = raw.filter(|r| !r.is_empty()) else {
        return Ok(None);
    };
    let day = NaiveDate::parse_from_str(raw, "%Y-%m-%d")
        .map_err(|_| ShopError::field(field, "must be a date, YYYY-MM-DD"))?;
    let day = if next {
        day.succ_opt().unwrap_or(day)
    } else {
        day
    };
    let start = day.and_hms_opt(0, 0, 0).unwrap_or_default();
    Ok(raceshot_domain::time::bangkok()
        .from_local_datetime(&start)
        .single()
        .map(|t| t.with_timezone(&chrono::Utc)))
}

/// Orders, newest first, 50 a page, narrowed by event, status, channel, mobile and dates.
#[utoipa::path(operation_id = "admin_orders_list", get, path = "/api/admin/orders", tag = "console", params(OrderQuery),
    responses((status = 200, body = AdminOrderList), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 422, response = ErrorAnswer)))]
pub async fn list(
    State(state): State<AppState>,
    _admin: Admin,
    ApiQuery(q): ApiQuery<OrderQuery>,
) -> ShopResult<Json<AdminOrderList>> {
    let nonempty = |v: &Option<String>| {
        v.as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
    };
    let filter = OrderFilter {
        event_key: nonempty(&q.event_key),
        status: nonempty(&q.status)
            .map(|s| {
                PaymentStatus::parse(&s).ok_or_else(|| {
                    ShopError::field("status", "must be INITIAL, PAID, EXPIRED or CANCELLED")
                })
            })
            .transpose()?,
        channel: nonempty(&q.channel)
            .map(|c| {
                PaymentChannel::parse(&c)
                    .ok_or_else(|| ShopError::field("channel", "must be PP, CC, AM or FREE"))
            })
            .transpose()?,
        mobile: nonempty(&q.mobile),
        from: parse_day("from", q.from.as_deref(), false)?,
        until: parse_day("to", q.to.as_deref(), true)?,
    };
    let page = q.page.unwrap_or(1).max(1);
    let (orders, total) = state
        .store
        .list_orders(&filter, i64::from(page - 1) * PAGE_SIZE, PAGE_SIZE)
        .await?;
    Ok(Json(AdminOrderList {
        orders: orders.into_iter().map(row).collect(),
        total,
        page,
        page_size: PAGE_SIZE,
    }))
}

fn row(o: Order) -> AdminOrderRow {
    AdminOrderRow {
        uuid: o.uuid.to_string(),
        event_key: o.event_key.to_string(),
        event_title: o.event_title,
        mobile: o.mobile,
        email: o.email,
        payment_status: o.payment_status.as_str().to_owned(),
        payment_channel: o.payment_channel.as_str().to_owned(),
        payment_gateway: o.payment_gateway.as_str().to_owned(),
        image_count: o.image_count,
        paid_amount: o.paid_amount,
        receipt_ref: o.receipt_ref,
        created_at: format_bangkok(o.created_at),
    }
}

/// Sends the order's "photos ready" e-mail again (paid orders with an address).
#[utoipa::path(operation_id = "admin_orders_resend_email", post, path = "/api/admin/orders/{order_uuid}/resend-email", tag = "console",
    params(("order_uuid" = String, Path)),
    responses((status = 204, description = "Sent"), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer), (status = 409, response = ErrorAnswer)))]
pub async fn resend_email(
    State(state): State<AppState>,
    Admin(session): Admin,
    Path(order_uuid): Path<String>,
) -> ShopResult<StatusCode> {
    let order = find_order(&state.store, parse_order_uuid(&order_uuid)?).await?;
    let email = order
        .email
        .clone()
        .filter(|_| order.is_deliverable())
        .ok_or_else(|| {
            ShopError::new(
                ErrorCode::OrderNotPaid,
                "only paid orders with an e-mail address get one",
            )
        })?;
    let sent = messages::send_again(
        &state.outbox(),
        MessageKind::OrderReady,
        &order.id.to_string(),
        ChannelKind::Email,
        &email,
    )
    .await
    .map_err(|e| {
        ShopError::new(
            ErrorCode::Unavailable,
            format!("the mail server refused: {e}"),
        )
    })?;
    if sent == messages::Outcome::Capped {
        return Err(ShopError::new(
            ErrorCode::Unavailable,
            "the shop sent all the e-mails it may send today",
        ));
    }
    state
        .store
        .audit(
            &session.actor(),
            "order.resend_email",
            &order.uuid.to_string(),
            &serde_json::json!({}),
            state.now(),
        )
        .await?;
    Ok(StatusCode::NO_CONTENT)
}
