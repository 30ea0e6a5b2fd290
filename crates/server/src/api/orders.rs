//! The shop's order calls (docs/shop-contract.md, Orders and Finding an order): create
//! (v1 and v3), inquiry (v1 and v3), the card payment of an OPN order, find-order, and the
//! `PAYMENT_GATEWAY` setting. The server prices every order itself and refuses one whose
//! amounts differ from its own.

use std::collections::HashSet;
use std::net::IpAddr;

use axum::Json;
use axum::extract::State;
use raceshot_domain::order::{mask_email, mask_mobile, mask_order_uuid};
use raceshot_domain::time::format_bangkok;
use raceshot_domain::{
    Email, Flag, Mobile, Money, OrderUuid, PaymentChannel, PaymentStatus, ReceiptRef,
};
use raceshot_payments::GatewayKind;
use raceshot_store::orders::{Order, OrderLookup, OrderPhoto};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::catalogue::SUCCESS;
use super::extract::{ApiJson, NumberOrText};
use crate::api::contract;
use crate::api::error::ErrorAnswer;
use crate::api::extract::ClientIp;
use crate::api::media::derived_address;
use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError, ShopResult};
use crate::infra::gateways::PAYMENT_GATEWAY_SETTING;
use crate::services::alerts::{self, AlertChannel};
use crate::services::certificates::Format;
use crate::services::commerce::AskedCart;
use crate::services::commerce::access::{self, Destination};
use crate::services::commerce::orders::{PlaceOrder, place_order};
use crate::services::commerce::{
    MAX_CART_PHOTOS, find_order, order_variants, parse_event_key, parse_order_uuid, payment,
    variant_ready,
};
use crate::services::links::Variant;
use crate::services::photos::derived_name;

/// A photo of the visitor's cart; only its `id` is trusted.
#[derive(Debug, Deserialize, ToSchema)]
pub struct CartImage {
    /// The photo id, as a number or a string of digits.
    #[schema(value_type = NumberOrText)]
    pub id: serde_json::Value,
    pub original_file_name: Option<String>,
    pub thumbnail_file_name: Option<String>,
    pub preview_file_name: Option<String>,
    #[schema(value_type = Option<NumberOrText>)]
    pub photographer_id: Option<serde_json::Value>,
    #[schema(value_type = Option<NumberOrText>)]
    pub event_id: Option<serde_json::Value>,
    #[schema(value_type = Option<contract::YesNo>)]
    pub atc: Option<Flag>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CreateOrderRequest {
    /// Digits only, 5 to 15.
    pub mobile: String,
    /// Optional; an e-mail address when given.
    pub email: Option<String>,
    pub event_key: String,
    /// The photos' price after discount, baht with two decimals (from the quote).
    #[schema(value_type = NumberOrText, example = 200.00)]
    pub amount: serde_json::Value,
    /// The net payment including the 5% fee, baht with two decimals (from the quote).
    #[schema(value_type = NumberOrText, example = 210.00)]
    pub paid_amount: serde_json::Value,
    #[serde(rename = "imageList")]
    pub image_list: Vec<CartImage>,
    pub image_length: u32,
    /// `Y` when the visitor takes the all-photos deal.
    #[schema(value_type = contract::YesNo, example = "N")]
    pub is_mhao: Flag,
    /// The gateway the web app was told (`/v1/utils/conf`); absent in older carts.
    #[schema(value_type = Option<contract::PaymentGateway>)]
    pub payment_gateway: Option<String>,
    /// `PP`, `CC`, `AM` or `FREE`; absent in older carts (then `PP`, or `FREE` when
    /// nothing is to be paid).
    #[schema(value_type = Option<contract::PaymentChannel>)]
    pub payment_channel: Option<String>,
    /// The wholesale cart: priced with the event's wholesale packages and deal.
    pub wholesale: Option<bool>,
    /// With the deal or an all-photos pass: the `found_ref` of each search whose photos
    /// the cart holds (as for the quote).
    #[serde(default)]
    pub found_refs: Vec<String>,
    /// A photo pass that pays for the whole cart (as for the quote): the order is `FREE`
    /// and the pass is used up with it. 422 `pass_not_found`, 409 `pass_used` or
    /// `pass_does_not_cover` otherwise.
    #[schema(example = "K7QM-4XTP-9HWA")]
    pub pass_code: Option<String>,
    /// The bib whose finisher certificate the order buys (as for the quote); `imageList`
    /// may then be empty.
    #[schema(example = "1234")]
    pub certificate_bib: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CreateOrderResponse {
    #[schema(example = "success")]
    pub status: &'static str,
    pub uuid: String,
}

fn baht_field(value: &serde_json::Value, field: &str) -> ShopResult<Money> {
    let parsed = match value {
        serde_json::Value::Number(n) => n.as_f64().and_then(|b| Money::from_baht(b).ok()),
        serde_json::Value::String(s) => raceshot_payments::parse_baht(s.trim()),
        _ => None,
    };
    parsed.ok_or_else(|| ShopError::field(field, "must be an amount in baht with two decimals"))
}

fn photo_id(value: &serde_json::Value) -> Option<i64> {
    match value {
        serde_json::Value::Number(n) => n.as_i64(),
        serde_json::Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
    .filter(|id| *id > 0)
}

/// The cart's photo ids, each once: the cap is checked before anything else and repeats
/// are found in linear time, so no list length costs more than a glance. A cart that buys
/// a certificate may hold no photo.
fn cart_ids(images: &[CartImage], with_certificate: bool) -> ShopResult<Vec<i64>> {
    if (images.is_empty() && !with_certificate) || images.len() > MAX_CART_PHOTOS {
        return Err(ShopError::field(
            "imageList",
            format!("must hold 1 to {MAX_CART_PHOTOS} photos"),
        ));
    }
    let mut seen = HashSet::with_capacity(images.len());
    images
        .iter()
        .enumerate()
        .map(|(i, image)| {
            let id = photo_id(&image.id).ok_or_else(|| {
                ShopError::field(format!("imageList[{i}].id"), "must be a photo id")
            })?;
            if !seen.insert(id) {
                return Err(ShopError::field(
                    format!("imageList[{i}].id"),
                    "the photo is in the list twice",
                ));
            }
            Ok(id)
        })
        .collect()
}

/// Creates an order from the visitor's cart.
#[utoipa::path(post, path = "/v1/order/create", tag = "orders",
    request_body = CreateOrderRequest,
    responses((status = 200, body = CreateOrderResponse), (status = 401, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer), (status = 409, response = ErrorAnswer), (status = 422, response = ErrorAnswer),
        (status = 429, response = ErrorAnswer), (status = 502, response = ErrorAnswer), (status = 504, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn create_v1(
    state: State<AppState>,
    client: ClientIp,
    req: ApiJson<CreateOrderRequest>,
) -> ShopResult<Json<CreateOrderResponse>> {
    create(state, client, req).await
}

/// Creates an order from the visitor's cart (the web app calls this one for OPN).
#[utoipa::path(post, path = "/v3/order/create", tag = "orders",
    request_body = CreateOrderRequest,
    responses((status = 200, body = CreateOrderResponse), (status = 401, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer), (status = 409, response = ErrorAnswer), (status = 422, response = ErrorAnswer),
        (status = 429, response = ErrorAnswer), (status = 502, response = ErrorAnswer), (status = 504, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn create_v3(
    state: State<AppState>,
    client: ClientIp,
    req: ApiJson<CreateOrderRequest>,
) -> ShopResult<Json<CreateOrderResponse>> {
    create(state, client, req).await
}

async fn create(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    ApiJson(req): ApiJson<CreateOrderRequest>,
) -> ShopResult<Json<CreateOrderResponse>> {
    state.rate_limits.order.check(client)?;
    let ask = place_order_of(req, client)?;
    let order = place_order(&state.commerce(), ask).await?;
    Ok(Json(CreateOrderResponse {
        status: SUCCESS,
        uuid: order.uuid.to_string(),
    }))
}

/// The order a request asks for, every field parsed (each bad one named).
fn place_order_of(req: CreateOrderRequest, client: IpAddr) -> ShopResult<PlaceOrder> {
    let mobile = Mobile::parse(&req.mobile, Mobile::ORDER_LENGTH)
        .ok_or_else(|| ShopError::field("mobile", "must be 5 to 15 digits"))?;
    let email = match req.email.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(raw) => Some(
            Email::parse(raw)
                .ok_or_else(|| ShopError::field("email", "must be an e-mail address"))?,
        ),
    };
    let shown = (
        baht_field(&req.amount, "amount")?,
        baht_field(&req.paid_amount, "paid_amount")?,
    );
    let photo_ids = cart_ids(&req.image_list, req.certificate_bib.is_some())?;
    if usize::try_from(req.image_length).ok() != Some(photo_ids.len()) {
        return Err(ShopError::field(
            "image_length",
            "must equal the number of photos in imageList",
        ));
    }
    let channel = match req.payment_channel.as_deref().filter(|c| !c.is_empty()) {
        Some(raw) => Some(
            PaymentChannel::parse(raw)
                .ok_or_else(|| ShopError::field("payment_channel", "must be PP, CC, AM or FREE"))?,
        ),
        None => None,
    };
    Ok(PlaceOrder {
        event_key: parse_event_key(&req.event_key)?,
        mobile,
        email,
        cart: AskedCart {
            photo_ids,
            deal: req.is_mhao.0,
            wholesale: req.wholesale.unwrap_or(false),
            found_refs: req.found_refs,
            pass_code: req.pass_code,
            certificate_bib: req.certificate_bib,
        },
        shown,
        gateway_seen: req.payment_gateway,
        channel,
        client,
    })
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct InquiryRequest {
    pub order_uuid: String,
}

/// The order as the order page shows it, amounts in baht.
#[derive(Debug, Serialize, ToSchema)]
pub struct InquiryResponse {
    #[schema(example = "success")]
    pub status: &'static str,
    /// `INITIAL`, `PAID`, `EXPIRED` or `CANCELLED`.
    #[schema(value_type = contract::PaymentStatus)]
    pub payment_status: &'static str,
    /// Masked: the last 4 digits only.
    pub mobile: String,
    /// Masked: `s***@example.com`.
    pub email: String,
    /// The net payment, fee included.
    #[schema(value_type = f64)]
    pub amount: Money,
    #[schema(value_type = contract::YesNo)]
    pub is_original_image_created: Flag,
    #[schema(value_type = contract::YesNo)]
    pub is_logo_image_created: Flag,
    /// The copies with the event's sponsor frame are made (orders that carry one).
    #[schema(value_type = contract::YesNo)]
    pub is_frame_image_created: Flag,
    /// Which files the order gives of each photo (docs/shop-contract.md, Sponsor frames):
    /// `original` and `logo`, with `frame` when it carries the sponsor's frame; a free
    /// download of an event with a frame gives `frame` only.
    #[schema(value_type = Vec<String>, example = json!(["original", "logo"]))]
    pub variants: Vec<&'static str>,
    #[schema(value_type = contract::YesNo)]
    pub is_send_sms: Flag,
    #[schema(value_type = contract::YesNo)]
    pub is_send_email: Flag,
    pub event_key: String,
    pub event_title: String,
    #[schema(value_type = contract::PaymentGateway)]
    pub payment_gateway: String,
    #[schema(value_type = contract::PaymentChannel)]
    pub payment_channel: &'static str,
    /// PromptPay: the QR's text (`PROMPTPAY`, `SANDBOX`: draw it) or image address (`GBP`,
    /// `OPN`: show it).
    pub qrcode_url: String,
    /// AM orders: the buyer's earlier all-photos order of the event, masked (`5f0c1a2e…`):
    /// it names the order to an operator and opens nothing.
    pub am_order_ref: String,
    /// The last 4 characters of the payment's reference, once paid.
    pub receipt_ref: String,
    /// JSON text: `[{thumbnail_file_name, original_file_name}]`, while unpaid.
    pub images_order: String,
    /// JSON text: `[{image, image_logo, image_frame, image_thumbnail, original_file_name,
    /// photographer_id, id}]` with signed download addresses, once paid (each empty while
    /// that file is not made, or when the order does not give it); `[]` once the
    /// originals' storage time has passed.
    pub images_paid: String,
    pub image_length: i64,
    /// The photos' price after discount, and the fee.
    #[schema(value_type = f64)]
    pub photos_amount: Money,
    #[schema(value_type = f64)]
    pub payment_fee: Money,
    /// RFC 3339 in Bangkok time (`2026-12-01T09:30:00+07:00`).
    pub create_date: String,
    /// When an unpaid order lapses (Bangkok time), if it does.
    pub expire_date: String,
    /// Originals were deleted after the retention window.
    #[schema(value_type = contract::YesNo)]
    pub storage_expired: Flag,
    /// No real money moves: the sandbox gateway.
    pub sandbox: bool,
    /// Why the shop ended the order unpaid, when it did: `photo_withdrawn` (a photo in it
    /// was hidden at the request of the person in it before it was paid); else empty.
    pub end_reason: String,
    /// Money that reached the order after it had ended, which the shop refunds (baht);
    /// 0 when none.
    #[schema(value_type = f64)]
    pub refund_due: Money,
    /// Photos of an unpaid order withdrawn at the request of the people in them (they are
    /// left out of `images_order`).
    pub photos_withdrawn: usize,
    /// The finisher certificate the order buys, if any.
    pub certificate: Option<OrderCertificateBody>,
    /// v1 only: JSON text holding `qrcode`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_response: Option<String>,
}

/// The order page's view of an order.
#[utoipa::path(post, path = "/v3/order/inquiry", tag = "orders",
    request_body = InquiryRequest,
    responses((status = 200, body = InquiryResponse), (status = 401, response = ErrorAnswer), (status = 404, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn inquiry_v3(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<InquiryRequest>,
) -> ShopResult<Json<InquiryResponse>> {
    inquiry(&state, parse_order_uuid(&req.order_uuid)?, Inquiry::V3)
        .await
        .map(Json)
}

/// The order page's view of an order, with `api_response` (older pages).
#[utoipa::path(post, path = "/v1/order/inquiry", tag = "orders",
    request_body = InquiryRequest,
    responses((status = 200, body = InquiryResponse), (status = 401, response = ErrorAnswer), (status = 404, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn inquiry_v1(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<InquiryRequest>,
) -> ShopResult<Json<InquiryResponse>> {
    inquiry(&state, parse_order_uuid(&req.order_uuid)?, Inquiry::V1)
        .await
        .map(Json)
}

/// The finisher certificate an order buys.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderCertificateBody {
    /// Whose: the runner's bib.
    pub bib: String,
    /// Baht with two decimals, included in the order's amounts.
    #[schema(value_type = f64)]
    pub price: Money,
    /// The picture (1080 × 1350 JPEG) and the A4 page (PDF), once the order is paid.
    pub image_url: Option<String>,
    pub print_url: Option<String>,
}

/// The certificate an order buys, with its addresses once the order is paid.
fn order_certificate(order: &Order) -> Option<OrderCertificateBody> {
    let bought = order.certificate.as_ref()?;
    let url = |format: Format| {
        order
            .is_deliverable()
            .then(|| format!("/api/orders/{}/certificate/{}", order.uuid, format.as_str()))
    };
    Some(OrderCertificateBody {
        bib: bought.bib.as_str().to_owned(),
        price: bought.price,
        image_url: url(Format::Image),
        print_url: url(Format::Print),
    })
}

#[derive(Serialize)]
struct OrderImage {
    thumbnail_file_name: String,
    original_file_name: String,
}

#[derive(Serialize)]
struct PaidImage {
    image: String,
    image_logo: String,
    image_frame: String,
    image_thumbnail: String,
    original_file_name: String,
    photographer_id: i64,
    id: i64,
}

/// The two inquiries: v1 (older pages) names thumbnails by address and adds
/// `api_response`; v3 names them by file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Inquiry {
    V1,
    V3,
}

async fn inquiry(
    state: &AppState,
    uuid: OrderUuid,
    version: Inquiry,
) -> ShopResult<InquiryResponse> {
    let mut order = find_order(&state.store, uuid).await?;
    if order.payment_status == PaymentStatus::Initial && order.gateway_ref.is_some() {
        payment::recheck(&state.commerce(), &order).await?;
        order = find_order(&state.store, order.uuid).await?;
    }
    let photos = state.store.order_photos(order.id).await?;
    let storage_expired = !photos.is_empty() && photos.iter().all(|p| p.original_purged);
    // A photo withdrawn at the request of the person in it is not shown to an order that
    // did not pay for it before the hold.
    let photos_withdrawn = if order.payment_status == PaymentStatus::Paid {
        0
    } else {
        photos.iter().filter(|p| p.held).count()
    };
    let images_order = images_order(state, &order, &photos, version);
    let images_paid = images_paid(state, &order, &photos);
    Ok(InquiryResponse {
        status: SUCCESS,
        payment_status: order.payment_status.as_str(),
        mobile: mask_mobile(&order.mobile),
        email: order.email.as_deref().map(mask_email).unwrap_or_default(),
        amount: order.paid_amount,
        is_original_image_created: Flag(order.is_original_image_created),
        is_logo_image_created: Flag(order.is_logo_image_created),
        is_frame_image_created: Flag(order.is_frame_image_created),
        variants: order_variants(&order).iter().map(|v| v.as_str()).collect(),
        is_send_sms: Flag(order.is_send_sms),
        is_send_email: Flag(order.is_send_email),
        event_key: order.event_key.to_string(),
        event_title: order.event_title.clone(),
        payment_gateway: order.payment_gateway.as_str().to_owned(),
        payment_channel: order.payment_channel.as_str(),
        qrcode_url: (order.qrcode_url.clone())
            .filter(|_| payment::payment_links_shown(&state.links, &order))
            .unwrap_or_default(),
        am_order_ref: order
            .am_order_ref
            .map(|uuid| mask_order_uuid(&uuid.to_string()))
            .unwrap_or_default(),
        receipt_ref: order.receipt_ref.clone().unwrap_or_default(),
        images_order: json_text(&images_order),
        images_paid: json_text(&images_paid),
        image_length: order.image_count,
        photos_amount: order.amount,
        payment_fee: order.payment_fee,
        create_date: format_bangkok(order.created_at),
        expire_date: order.expires_at.map(format_bangkok).unwrap_or_default(),
        storage_expired: Flag(storage_expired),
        sandbox: order.payment_gateway == GatewayKind::Sandbox,
        end_reason: order
            .end_reason
            .map(|r| r.as_str().to_owned())
            .unwrap_or_default(),
        refund_due: order.refund_due.unwrap_or(Money::ZERO),
        photos_withdrawn,
        certificate: order_certificate(&order),
        api_response: (version == Inquiry::V1).then(|| {
            (order.api_response.clone())
                .filter(|_| payment::payment_links_shown(&state.links, &order))
                .unwrap_or_else(|| "{}".to_owned())
        }),
    })
}

/// The photos of an unpaid order, as its page shows them (none once it is paid).
fn images_order(
    state: &AppState,
    order: &Order,
    photos: &[OrderPhoto],
    version: Inquiry,
) -> Vec<OrderImage> {
    if order.payment_status == PaymentStatus::Paid {
        return Vec::new();
    }
    photos
        .iter()
        .filter(|p| !p.held)
        .map(|p| OrderImage {
            thumbnail_file_name: match version {
                Inquiry::V1 => derived_address(
                    &state.media_url,
                    &order.event_key,
                    "thumbnail",
                    &p.storage_name,
                ),
                Inquiry::V3 => derived_name(&p.storage_name),
            },
            original_file_name: p.original_file_name.clone(),
        })
        .collect()
}

/// The bought photos of a deliverable order, with signed download addresses; none before.
fn images_paid(state: &AppState, order: &Order, photos: &[OrderPhoto]) -> Vec<PaidImage> {
    if !order.is_deliverable() {
        return Vec::new();
    }
    let expires = state.now()
        + chrono::Duration::from_std(state.config.orders.download_link_ttl).unwrap_or_default();
    let given = order_variants(order);
    let address = |variant: Variant, photo_id: i64| {
        if given.contains(&variant) && variant_ready(order, variant) {
            state
                .links
                .download_url(&order.uuid, photo_id, variant, expires)
        } else {
            String::new()
        }
    };
    photos
        .iter()
        .filter(|p| !p.original_purged)
        .map(|p| PaidImage {
            image: address(Variant::Original, p.id),
            image_logo: address(Variant::Logo, p.id),
            image_frame: address(Variant::Frame, p.id),
            image_thumbnail: derived_address(
                &state.media_url,
                &order.event_key,
                "thumbnail",
                &p.storage_name,
            ),
            original_file_name: p.original_file_name.clone(),
            photographer_id: p.photographer_id,
            id: p.id,
        })
        .collect()
}

fn json_text<T: Serialize>(items: &[T]) -> String {
    serde_json::to_string(items).unwrap_or_else(|_| "[]".to_owned())
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CardPaymentRequest {
    /// The card token the browser got from OPN (`tokn_…`).
    pub token_key: String,
    pub uuid: String,
    pub email: Option<String>,
    /// The order's mobile number, or the masked form the inquiry shows.
    pub mobile: String,
    /// The net payment in satang (the decimal point removed), or baht with a decimal point.
    #[schema(value_type = NumberOrText, example = 21000)]
    pub paid_amount: serde_json::Value,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CardPaymentData {
    /// Where the browser goes next: the bank's 3-D Secure page, or the order page.
    pub authorize_uri: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CardPaymentResponse {
    #[schema(example = "success")]
    pub status: &'static str,
    pub data: CardPaymentData,
}

/// Charges a card order (OPN, or the sandbox).
#[utoipa::path(post, path = "/v3/order/opn-cc-payment", tag = "orders",
    request_body = CardPaymentRequest,
    responses((status = 200, body = CardPaymentResponse), (status = 401, response = ErrorAnswer),
        (status = 402, response = ErrorAnswer), (status = 404, response = ErrorAnswer), (status = 409, response = ErrorAnswer),
        (status = 422, response = ErrorAnswer), (status = 502, response = ErrorAnswer), (status = 504, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn card_payment(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<CardPaymentRequest>,
) -> ShopResult<Json<CardPaymentResponse>> {
    let order = find_order(&state.store, parse_order_uuid(&req.uuid)?).await?;
    let token = req.token_key.trim();
    if token.is_empty() || token.len() > 64 || !raceshot_payments::opn::is_object_id(token) {
        return Err(ShopError::field("token_key", "must be a card token"));
    }
    // The order page knows the number only as the inquiry shows it, masked.
    if req.mobile != order.mobile && req.mobile != mask_mobile(&order.mobile) {
        return Err(ShopError::field(
            "mobile",
            "is not the order's mobile number",
        ));
    }
    let paid = match &req.paid_amount {
        serde_json::Value::Number(n) if n.is_u64() => {
            n.as_i64().and_then(|s| Money::from_satang(s).ok())
        }
        serde_json::Value::String(s) if s.bytes().all(|b| b.is_ascii_digit()) && !s.is_empty() => {
            s.parse().ok().and_then(|s| Money::from_satang(s).ok())
        }
        other => baht_field(other, "paid_amount").ok(),
    }
    .ok_or_else(|| ShopError::field("paid_amount", "must be the amount in satang"))?;
    if paid != order.paid_amount {
        return Err(ShopError::new(
            ErrorCode::AmountMismatch,
            format!("the order costs {}", order.paid_amount),
        ));
    }
    let next = payment::pay_by_card(&state.commerce(), &order, token).await?;
    Ok(Json(CardPaymentResponse {
        status: SUCCESS,
        data: CardPaymentData {
            authorize_uri: next.authorize_uri,
        },
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct FindOrderRequest {
    /// `mobile` (or `mobile_no`) or `payment_ref` (or `receipt`).
    pub filter_type: String,
    /// A mobile number of 10 to 15 digits, or the last 4 characters of the slip.
    pub txt_search: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FoundOrderRow {
    /// RFC 3339 in Bangkok time (`2026-12-01T09:30:00+07:00`).
    pub create_date: String,
    /// Always empty: an order found by its mobile number or receipt opens only with a
    /// one-time code (`/v1/order/find-order/send-code`, then `/open`).
    pub order_id: String,
    pub title: String,
    pub status: &'static str,
    /// Names the order to `/v1/order/find-order/send-code` and `/open`; works for an hour.
    pub lookup: String,
    /// Where a code for this order would go, masked (`s***@example.com`); empty when the
    /// shop cannot reach the order's buyer: then the order opens on the device that placed
    /// it, or from the link an operator sends again.
    pub contact: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FindOrderResponse {
    #[schema(example = "success")]
    pub status: &'static str,
    pub body: Vec<FoundOrderRow>,
}

/// The most orders one search lists.
const FOUND_LIMIT: i64 = 50;

/// Finds orders by mobile number or receipt reference.
#[utoipa::path(post, path = "/v1/order/find-order", tag = "orders",
    request_body = FindOrderRequest,
    responses((status = 200, body = FindOrderResponse), (status = 401, response = ErrorAnswer),
        (status = 422, response = ErrorAnswer), (status = 429, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn find_orders(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    ApiJson(req): ApiJson<FindOrderRequest>,
) -> ShopResult<Json<FindOrderResponse>> {
    state.rate_limits.find.check(client)?;
    let text = req.txt_search.trim();
    let found = match req.filter_type.as_str() {
        "mobile" | "mobile_no" => {
            let mobile = Mobile::parse(text, Mobile::SEARCH_LENGTH)
                .ok_or_else(|| ShopError::field("txt_search", "must be 10 to 15 digits"))?;
            state
                .store
                .find_orders(OrderLookup::Mobile(mobile.as_str()), FOUND_LIMIT)
                .await?
        }
        "payment_ref" | "receipt" => {
            let receipt = ReceiptRef::parse(text).ok_or_else(|| {
                ShopError::field("txt_search", "must be exactly 4 letters or digits")
            })?;
            state
                .store
                .find_orders(OrderLookup::Receipt(receipt.as_str()), FOUND_LIMIT)
                .await?
        }
        _ => {
            return Err(ShopError::field(
                "filter_type",
                "must be mobile or payment_ref",
            ));
        }
    };
    Ok(Json(FindOrderResponse {
        status: SUCCESS,
        body: found
            .into_iter()
            .map(|o| FoundOrderRow {
                create_date: format_bangkok(o.created_at),
                lookup: access::lookup(&state.commerce(), o.id),
                contact: Destination::of(&state.commerce(), o.email.as_deref(), &o.mobile)
                    .map(|d| d.masked())
                    .unwrap_or_default(),
                order_id: String::new(),
                title: o.title,
                status: o.status.as_str(),
            })
            .collect(),
    }))
}

/// The order a find-order lookup reference names, counted against the client's find-order
/// limit like the search itself.
async fn found_order(state: &AppState, client: IpAddr, lookup: &str) -> ShopResult<Order> {
    state.rate_limits.find.check(client)?;
    Ok(access::resolve(&state.commerce(), lookup).await?)
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SendCodeRequest {
    /// A row's `lookup` from find-order.
    pub lookup: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SendCodeResponse {
    #[schema(example = "success")]
    pub status: &'static str,
    /// Where the code went, masked.
    pub contact: String,
    pub expires_in_secs: u64,
}

/// Sends a one-time code that opens a found order to the order's own e-mail or mobile.
#[utoipa::path(post, path = "/v1/order/find-order/send-code", tag = "orders",
    request_body = SendCodeRequest,
    responses((status = 200, body = SendCodeResponse), (status = 401, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer), (status = 422, response = ErrorAnswer),
        (status = 429, response = ErrorAnswer), (status = 503, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn send_order_code(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    ApiJson(req): ApiJson<SendCodeRequest>,
) -> ShopResult<Json<SendCodeResponse>> {
    let order = found_order(&state, client, &req.lookup).await?;
    let sent = access::send_code(&state.commerce(), &order).await?;
    Ok(Json(SendCodeResponse {
        status: SUCCESS,
        contact: sent.contact,
        expires_in_secs: sent.expires_in.as_secs(),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct OpenOrderRequest {
    /// A row's `lookup` from find-order.
    pub lookup: String,
    /// The 6 digits sent.
    pub code: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OpenOrderResponse {
    #[schema(example = "success")]
    pub status: &'static str,
    /// The order's uuid: its page is `/download/{order_id}`.
    pub order_id: String,
}

/// Opens a found order with the code sent to its contact; a code works once.
#[utoipa::path(post, path = "/v1/order/find-order/open", tag = "orders",
    request_body = OpenOrderRequest,
    responses((status = 200, body = OpenOrderResponse), (status = 401, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer), (status = 422, response = ErrorAnswer), (status = 429, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn open_found_order(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    ApiJson(req): ApiJson<OpenOrderRequest>,
) -> ShopResult<Json<OpenOrderResponse>> {
    let order = found_order(&state, client, &req.lookup).await?;
    let order_id = access::open(&state.commerce(), &order, &req.code).await?;
    Ok(Json(OpenOrderResponse {
        status: SUCCESS,
        order_id: order_id.to_string(),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ConfRequest {
    /// `PAYMENT_GATEWAY`; `PAYMENT_CHANNELS` (the channels of a paid order that gateway
    /// takes, comma-separated: `PP` or `PP,CC`); `OPN_PUBLIC_KEY` for card tokens; or
    /// `LINE_LOGIN` (`on` when orders can be sent to the runner's LINE); `ALERTS` (the
    /// channels alerts of new photos can go through, comma-separated: `line`, `sms`, both,
    /// or empty).
    pub conf_name: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ConfValue {
    pub value: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ConfResponse {
    #[schema(example = "success")]
    pub status: &'static str,
    pub body: ConfValue,
}

/// One public setting of the shop.
#[utoipa::path(post, path = "/v1/utils/conf", tag = "orders",
    request_body = ConfRequest,
    responses((status = 200, body = ConfResponse), (status = 401, response = ErrorAnswer), (status = 422, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn conf(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<ConfRequest>,
) -> ShopResult<Json<ConfResponse>> {
    let value = match req.conf_name.as_str() {
        PAYMENT_GATEWAY_SETTING => state
            .store
            .setting(PAYMENT_GATEWAY_SETTING)
            .await?
            .unwrap_or_else(|| state.live().gateways.active.as_str().to_owned()),
        "PAYMENT_CHANNELS" => {
            let active = state.live().gateways.active;
            let mut channels = vec![PaymentChannel::PromptPay.as_str()];
            if active.takes_cards() {
                channels.push(PaymentChannel::Card.as_str());
            }
            channels.join(",")
        }
        "OPN_PUBLIC_KEY" => state
            .live()
            .gateways
            .opn_public_key
            .clone()
            .unwrap_or_default(),
        "LINE_LOGIN" => if state.live().line.api().is_some() {
            "on"
        } else {
            "off"
        }
        .to_owned(),
        "ALERTS" => alerts::available_channels(&state.live())
            .into_iter()
            .map(AlertChannel::as_str)
            .collect::<Vec<_>>()
            .join(","),
        _ => {
            return Err(ShopError::field(
                "conf_name",
                "must be PAYMENT_GATEWAY, PAYMENT_CHANNELS, OPN_PUBLIC_KEY, LINE_LOGIN or ALERTS",
            ));
        }
    };
    Ok(Json(ConfResponse {
        status: SUCCESS,
        body: ConfValue { value },
    }))
}
