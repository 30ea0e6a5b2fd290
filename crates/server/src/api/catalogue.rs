//! The catalogue calls of the shop (docs/shop-contract.md, Calls): event lists, one event,
//! banners, upcoming events, the event of a photo and an event's highlight photos. Derived
//! sale fields (docs/shop-contract.md, Events) are computed here from the sale window and
//! today's date in Bangkok.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use raceshot_domain::event::{Package, SaleState, SaleStatus};
use raceshot_domain::time::{format_bangkok, format_bangkok_short};
use raceshot_domain::{EventKey, Flag, Money, PageRequest};
use raceshot_store::events::Event;
use raceshot_store::photos::Photo;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::extract::ApiJson;
use crate::api::contract;
use crate::api::error::ErrorAnswer;
use crate::api::media::{derived_address, frame_address};
use crate::app::state::AppState;
use crate::error::{ShopError, ShopResult};
use crate::services::catalogue::Snapshot;
use crate::services::commerce::{find_event, lookup, parse_event_key};
use crate::services::photos::derived_name;

/// How many photos an event page shows before any search.
const HIGHLIGHT_LIMIT: i64 = 30;
pub const SUCCESS: &str = "success";

#[derive(Debug, Serialize, ToSchema)]
pub struct PackageBody {
    pub name: String,
    pub name_en: String,
    pub number_of_photo: u32,
    /// Baht, two decimals.
    #[schema(value_type = f64, example = 250.00)]
    pub price: Money,
}

impl From<&Package> for PackageBody {
    fn from(p: &Package) -> Self {
        PackageBody {
            name: p.name.clone(),
            name_en: p.name_en.clone(),
            number_of_photo: p.number_of_photo,
            price: p.price,
        }
    }
}

/// An event with the shop contract's field names; `Y`/`N` flags, prices in baht.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventBody {
    pub event_id: i64,
    pub event_key: String,
    pub title: String,
    pub coverurl: String,
    pub event_date_text: String,
    /// `YYYY-MM-DD`.
    pub eventdate: String,
    pub province: String,
    /// RFC 3339 in Bangkok time.
    pub on_sale_start: String,
    pub on_sale_end: String,
    /// Sale start as `YYYY-MM-DD HH:MM` Bangkok time, for the come-back notice.
    pub on_sale_start_txt: String,
    /// Bangkok calendar days left until the last day of sale (0 on that day).
    pub day_diff: i64,
    #[schema(value_type = contract::YesNo, example = "Y")]
    pub can_sale: Flag,
    #[schema(value_type = contract::YesNo, example = "N")]
    pub close_sale: Flag,
    #[schema(value_type = contract::YesNo)]
    pub is_hybrid: Flag,
    #[schema(value_type = contract::YesNo)]
    pub is_mhao_hybrid: Flag,
    #[schema(value_type = Option<f64>)]
    pub hybrid_mhao_price: Option<Money>,
    #[schema(value_type = contract::YesNo)]
    pub is_mhao: Flag,
    #[schema(value_type = Option<f64>)]
    pub mhao_price: Option<Money>,
    #[schema(value_type = contract::YesNo)]
    pub is_event_stage: Flag,
    #[schema(value_type = contract::YesNo)]
    pub is_free_download: Flag,
    #[schema(value_type = contract::YesNo)]
    pub is_free_download_keep_contract: Flag,
    pub caption_button_buy_all: String,
    pub face_threshold: f64,
    pub max_face_search: u32,
    pub package: Vec<PackageBody>,
    pub package_hb: Vec<PackageBody>,
    /// 1 when pinned to the top of the list.
    pub pin: u8,
    /// `SOON`, `ON_SALE` or `CLOSED`.
    #[schema(value_type = contract::EventStatus, example = "ON_SALE")]
    pub event_status: &'static str,
    /// The event's sponsor frame (a PNG), drawn over its previews stretched to each
    /// photo's size; absent when it has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame_url: Option<String>,
}

impl EventBody {
    pub fn new(e: &Event, media_url: &str, now: DateTime<Utc>) -> Self {
        let s = &e.spec;
        let sale = SaleState::at(s.on_sale_start, s.on_sale_end, e.sale_closed, now);
        EventBody {
            event_id: e.id,
            event_key: s.key.to_string(),
            title: s.title.clone(),
            coverurl: s.cover_url.clone(),
            event_date_text: s.event_date_text.clone(),
            eventdate: s.event_date.format("%Y-%m-%d").to_string(),
            province: s.province.clone(),
            on_sale_start: format_bangkok(s.on_sale_start),
            on_sale_end: format_bangkok(s.on_sale_end),
            on_sale_start_txt: format_bangkok_short(s.on_sale_start),
            day_diff: sale.day_diff,
            can_sale: sale.can_sale.into(),
            close_sale: sale.close_sale.into(),
            is_hybrid: s.wholesale.into(),
            is_mhao_hybrid: s.wholesale_deal.into(),
            hybrid_mhao_price: s.wholesale_deal_price,
            is_mhao: s.deal.into(),
            mhao_price: s.deal_price,
            is_event_stage: s.is_event_stage.into(),
            is_free_download: s.is_free_download.into(),
            is_free_download_keep_contract: s.is_free_download_keep_contract.into(),
            caption_button_buy_all: s.caption_button_buy_all.clone(),
            face_threshold: s.face_threshold,
            max_face_search: s.max_face_search,
            package: s.packages.iter().map(PackageBody::from).collect(),
            package_hb: s.wholesale_packages.iter().map(PackageBody::from).collect(),
            pin: u8::from(s.pin),
            event_status: sale.status.as_str(),
            frame_url: e
                .frame_name
                .as_ref()
                .map(|name| frame_address(media_url, &s.key, name)),
        }
    }
}

/// A photo as the shop lists it, with ready-to-use image addresses.
#[derive(Debug, Serialize, ToSchema)]
pub struct PhotoBody {
    pub id: i64,
    /// Base name of the file as it was ingested.
    pub original_file_name: String,
    pub thumbnail_file_name: String,
    pub preview_file_name: String,
    pub photographer_id: i64,
    pub event_id: i64,
    /// `Y` when in the visitor's cart; the server always answers `N`.
    #[schema(value_type = contract::YesNo, example = "N")]
    pub atc: Flag,
    pub thumbnail_url: String,
    pub preview_url: String,
    /// Cosine similarity to the searched face (face search only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub similarity: Option<f32>,
    /// How a bib search found the photo; in a face search, `sequence` for a photo found
    /// only by sequence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_by: Option<MatchedByBody>,
    /// Which of the selfies (0-based, in the order sent) the photo shows (face search only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub people: Option<Vec<u8>>,
}

/// `bib`: the bib was read on the photo; `face`: its runner's face, taken from the photos
/// where the bib was read, is on it. `sequence` (face search): the face is a little short
/// of the threshold, but continues one matched outright in a photo the same photographer
/// took moments before or after.
#[derive(Debug, Clone, Copy, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum MatchedByBody {
    Bib,
    Face,
    Sequence,
}

impl From<crate::services::bibs::MatchedBy> for MatchedByBody {
    fn from(m: crate::services::bibs::MatchedBy) -> Self {
        match m {
            crate::services::bibs::MatchedBy::Bib => MatchedByBody::Bib,
            crate::services::bibs::MatchedBy::Face => MatchedByBody::Face,
        }
    }
}

impl PhotoBody {
    pub fn new(p: &Photo, media_url: &str, similarity: Option<f32>) -> Self {
        // Previews and thumbnails are JPEGs whatever the original's format.
        let derived = derived_name(&p.storage_name);
        let url = |kind: &str| derived_address(media_url, &p.event_key, kind, &p.storage_name);
        PhotoBody {
            id: p.id,
            original_file_name: p.original_file_name.clone(),
            thumbnail_file_name: derived.clone(),
            preview_file_name: derived.clone(),
            photographer_id: p.photographer_id,
            event_id: p.event_id,
            atc: Flag::NO,
            thumbnail_url: url("thumbnail"),
            preview_url: url("preview"),
            similarity,
            matched_by: None,
            people: None,
        }
    }
}

/// `{"status": "success", "body": [...]}`
#[derive(Debug, Serialize, ToSchema)]
pub struct ListBody<T> {
    #[schema(example = "success")]
    pub status: &'static str,
    pub body: Vec<T>,
}

impl<T> ListBody<T> {
    pub fn new(body: Vec<T>) -> Json<Self> {
        Json(ListBody {
            status: SUCCESS,
            body,
        })
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PaginationRequest {
    /// 1-based page; default 1.
    pub page: Option<u32>,
    /// Default 18, at most 100.
    pub page_size: Option<u32>,
    /// Sent by older clients; ignored.
    #[schema(value_type = Option<Object>)]
    pub total_event_onsale: Option<serde_json::Value>,
    /// Sent by older clients; ignored.
    #[schema(value_type = Option<Object>)]
    pub page_tab: Option<serde_json::Value>,
}

/// Events on sale, pinned first, then the newest race.
#[utoipa::path(post, path = "/v1/events/pagination", tag = "catalogue",
    request_body = PaginationRequest,
    responses((status = 200, body = ListBody<EventBody>), (status = 401, response = ErrorAnswer), (status = 422, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn pagination(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<PaginationRequest>,
) -> ShopResult<Response> {
    let page = PageRequest::new(req.page, req.page_size).map_err(|e| {
        let field = if matches!(e, raceshot_domain::paging::PageError::Page) {
            "page"
        } else {
            "page_size"
        };
        ShopError::field(field, e.to_string())
    })?;
    let snapshot = state.catalogue.snapshot().await?;
    Ok(json_response(pagination_answer(
        &snapshot,
        page,
        &state.media_url,
        state.now(),
    )?))
}

/// The answer of `/v1/events/pagination` for `page`, rendered once per snapshot.
pub fn pagination_answer(
    snapshot: &Snapshot,
    page: PageRequest,
    media_url: &str,
    now: DateTime<Utc>,
) -> ShopResult<Bytes> {
    let key = format!("pagination:{}:{}", page.offset(), page.limit());
    snapshot.rendered(key, || {
        let events = snapshot.in_status(SaleStatus::OnSale, now);
        let page: Vec<EventBody> = events
            .into_iter()
            .skip(page.offset() as usize)
            .take(page.limit() as usize)
            .map(|e| EventBody::new(e, media_url, now))
            .collect();
        json_bytes(&ListBody {
            status: SUCCESS,
            body: page,
        })
    })
}

/// Serialises an answer once, to be kept and sent as it is.
fn json_bytes<T: Serialize>(value: &T) -> ShopResult<Bytes> {
    serde_json::to_vec(value)
        .map(Bytes::from)
        .map_err(ShopError::internal)
}

fn json_response(body: Bytes) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CountRequest {
    /// `ON_SALE` (default), `SOON` or `CLOSED`.
    #[schema(value_type = Option<contract::EventStatus>)]
    pub event_status: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EventCount {
    pub event_count: i64,
}

/// How many events are in a sale status (the home page's page count).
#[utoipa::path(post, path = "/v1/events/pagination-count", tag = "catalogue",
    request_body = CountRequest,
    responses((status = 200, body = ListBody<EventCount>), (status = 401, response = ErrorAnswer), (status = 422, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn pagination_count(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<CountRequest>,
) -> ShopResult<Response> {
    let status = match req.event_status.as_deref() {
        None | Some("") => SaleStatus::OnSale,
        Some(raw) => SaleStatus::parse(raw)
            .ok_or_else(|| ShopError::field("event_status", "must be ON_SALE, SOON or CLOSED"))?,
    };
    let snapshot = state.catalogue.snapshot().await?;
    Ok(json_response(count_answer(&snapshot, status, state.now())?))
}

/// The answer of `/v1/events/pagination-count` for `status`.
pub fn count_answer(
    snapshot: &Snapshot,
    status: SaleStatus,
    now: DateTime<Utc>,
) -> ShopResult<Bytes> {
    let event_count = snapshot.in_status(status, now).len() as i64;
    json_bytes(&ListBody {
        status: SUCCESS,
        body: vec![EventCount { event_count }],
    })
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BannerBody {
    pub image_url: String,
    pub link_url: String,
}

/// The home carousel's slides.
#[utoipa::path(get, path = "/v1/events/slider-banner", tag = "catalogue",
    responses((status = 200, body = ListBody<BannerBody>), (status = 401, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn slider_banner(State(state): State<AppState>) -> ShopResult<Response> {
    let snapshot = state.catalogue.snapshot().await?;
    Ok(json_response(banners_answer(&snapshot, state.now())?))
}

/// The answer of `/v1/events/slider-banner`.
pub fn banners_answer(snapshot: &Snapshot, now: DateTime<Utc>) -> ShopResult<Bytes> {
    let banners = snapshot.banners_on_sale(now);
    json_bytes(&ListBody {
        status: SUCCESS,
        body: banners
            .into_iter()
            .map(|b| BannerBody {
                image_url: b.image_url.clone(),
                link_url: b.link_url.clone(),
            })
            .collect(),
    })
}

/// Events whose sale has not started, the soonest first.
#[utoipa::path(get, path = "/v1/events/soon", tag = "catalogue",
    responses((status = 200, body = ListBody<EventBody>), (status = 401, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn soon(State(state): State<AppState>) -> ShopResult<Response> {
    let snapshot = state.catalogue.snapshot().await?;
    Ok(json_response(soon_answer(
        &snapshot,
        &state.media_url,
        state.now(),
    )?))
}

/// The answer of `/v1/events/soon`.
pub fn soon_answer(snapshot: &Snapshot, media_url: &str, now: DateTime<Utc>) -> ShopResult<Bytes> {
    let events = snapshot.in_status(SaleStatus::Soon, now);
    let size = raceshot_domain::paging::DEFAULT_PAGE_SIZE as usize;
    json_bytes(&ListBody {
        status: SUCCESS,
        body: events
            .into_iter()
            .take(size)
            .map(|e| EventBody::new(e, media_url, now))
            .collect(),
    })
}

/// `{"status": "success", ...event fields}`
#[derive(Debug, Serialize, ToSchema)]
pub struct EventResponse {
    #[schema(example = "success")]
    pub status: &'static str,
    #[serde(flatten)]
    pub event: EventBody,
}

/// One event by its key.
#[utoipa::path(get, path = "/v1/events/{event_key}", tag = "catalogue",
    params(("event_key" = String, Path, description = "The event's key")),
    responses((status = 200, body = EventResponse), (status = 401, response = ErrorAnswer), (status = 404, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn event(
    State(state): State<AppState>,
    Path(event_key): Path<String>,
) -> ShopResult<Response> {
    let snapshot = state.catalogue.snapshot().await?;
    let key = parse_event_key(&event_key)?;
    Ok(json_response(event_answer(
        &snapshot,
        &key,
        &state.media_url,
        state.now(),
    )?))
}

/// The answer of `/v1/events/{event_key}`, rendered once per snapshot.
pub fn event_answer(
    snapshot: &Snapshot,
    key: &EventKey,
    media_url: &str,
    now: DateTime<Utc>,
) -> ShopResult<Bytes> {
    let event = lookup(snapshot, key)?;
    snapshot.rendered(format!("event:{}", event.spec.key), || {
        json_bytes(&EventResponse {
            status: SUCCESS,
            event: EventBody::new(event, media_url, now),
        })
    })
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EventKeyBody {
    #[schema(example = "success")]
    pub status: &'static str,
    /// The event's key, or `-` when the photo is unknown.
    pub event_key: String,
}

/// The event a photo belongs to.
#[utoipa::path(get, path = "/v1/events/event-key/{image_id}", tag = "catalogue",
    params(("image_id" = String, Path, description = "A photo id")),
    responses((status = 200, body = EventKeyBody), (status = 401, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn event_key_of_image(
    State(state): State<AppState>,
    Path(image_id): Path<String>,
) -> ShopResult<Json<EventKeyBody>> {
    let key = match image_id.parse::<i64>() {
        Ok(id) => state.store.event_key_of_photo(id).await?,
        Err(_) => None,
    };
    Ok(Json(EventKeyBody {
        status: SUCCESS,
        event_key: key.map_or_else(|| "-".to_owned(), |k| k.to_string()),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct HighlightRequest {
    pub event_key: String,
}

/// The photos an event page shows before any search.
#[utoipa::path(post, path = "/v1/facesearch/highlight", tag = "catalogue",
    request_body = HighlightRequest,
    responses((status = 200, body = ListBody<PhotoBody>), (status = 401, response = ErrorAnswer), (status = 404, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn highlight(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<HighlightRequest>,
) -> ShopResult<Json<ListBody<PhotoBody>>> {
    let event = find_event(&state.catalogue, &parse_event_key(&req.event_key)?).await?;
    let photos = state
        .store
        .highlight_photos(event.id, HIGHLIGHT_LIMIT)
        .await?;
    Ok(ListBody::new(
        photos
            .iter()
            .map(|p| PhotoBody::new(p, &state.media_url, None))
            .collect(),
    ))
}
