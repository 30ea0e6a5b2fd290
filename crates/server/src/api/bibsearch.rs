//! Bib search (`POST /v1/bibsearch`) and the manual search page's listing
//! (`POST /v1/manual`): the runner's number instead of a selfie, and every photo of an
//! event in the order it was taken. Both answer the same Photo objects as face search.
//! The rules are in `crate::services::bibs` and the store; this is the HTTP edge.

use axum::Json;
use axum::extract::State;
use raceshot_domain::time::{self, DayEdge};
use raceshot_domain::{Money, PageRequest};
use raceshot_store::photos::PhotoFilter;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::catalogue::{PhotoBody, SUCCESS};
use super::extract::ApiJson;
use crate::api::error::ErrorAnswer;
use crate::api::extract::ClientIp;
use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError, ShopResult};
use crate::services::bibs;
use crate::services::commerce::{deal, find_event, find_event_on_sale, parse_event_key};

/// Bib and manual requests are a few short fields.
pub const BODY_LIMIT: usize = 4 * 1024;

#[derive(Debug, Deserialize, ToSchema)]
pub struct BibSearchRequest {
    pub event_key: String,
    /// The number on the runner's bib, as typed (`A 0042` and `a42` are one bib).
    pub bib: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BibSearchResponse {
    #[schema(example = "success")]
    pub status: &'static str,
    pub image_length: usize,
    /// Photos carrying the bib first (`matched_by: bib`), then those of the same runner's
    /// face (`matched_by: face`).
    pub images: Vec<PhotoBody>,
    /// The all-photos deal per photo for these photos, baht with two decimals.
    #[schema(value_type = f64)]
    pub avg_price: Money,
    /// Names these photos to the cart, as face search's `found_ref` does; empty when
    /// nothing was found.
    pub found_ref: String,
}

/// Finds an event's photos of the runner wearing a bib number: where it was read, and
/// where that runner's face is (face expansion). Rate-limited with face searches.
#[utoipa::path(post, path = "/v1/bibsearch", tag = "face search",
    request_body = BibSearchRequest,
    responses((status = 200, body = BibSearchResponse), (status = 401, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer), (status = 409, response = ErrorAnswer),
        (status = 422, response = ErrorAnswer), (status = 429, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn bib_search(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    ApiJson(req): ApiJson<BibSearchRequest>,
) -> ShopResult<Json<BibSearchResponse>> {
    state.rate_limits.search.check(client)?;
    let event = find_event_on_sale(
        &state.catalogue,
        state.now(),
        &parse_event_key(&req.event_key)?,
    )
    .await?;
    let found = bibs::search(state.search(), &event, &req.bib).await?;
    Ok(Json(bib_answer(&state, event.id, &found).await?))
}

/// The answer of a bib's photos, their `found_ref` remembered for the deal.
pub async fn bib_answer(
    state: &AppState,
    event_id: i64,
    found: &bibs::BibFound,
) -> ShopResult<BibSearchResponse> {
    let images: Vec<PhotoBody> = found
        .photos
        .iter()
        .map(|(p, how)| PhotoBody {
            matched_by: Some((*how).into()),
            ..PhotoBody::new(p, &state.media_url, None)
        })
        .collect();
    let ids: Vec<i64> = images.iter().map(|p| p.id).collect();
    let found_ref =
        deal::remember(&state.store, state.config.search.found_ttl, event_id, &ids).await?;
    Ok(BibSearchResponse {
        status: SUCCESS,
        image_length: images.len(),
        images,
        avg_price: found.avg_price,
        found_ref,
    })
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ManualRequest {
    pub event_key: String,
    /// 1-based page (default 1).
    pub page: Option<u32>,
    /// Photos per page, 1 to 100 (default 18).
    pub page_size: Option<u32>,
    /// Only this photographer's photos.
    pub photographer_id: Option<i64>,
    /// Taken at or after this time: `YYYY-MM-DDTHH:MM` Bangkok time, or RFC 3339.
    pub from: Option<String>,
    /// Taken before this time, in the same form.
    pub to: Option<String>,
}

/// A photo of the manual page: a Photo object with when it was taken and its bibs.
#[derive(Debug, Serialize, ToSchema)]
pub struct ManualPhoto {
    #[serde(flatten)]
    pub photo: PhotoBody,
    /// `YYYY-MM-DD HH:MM:SS`, Bangkok time; absent when the file did not say.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub taken_at: Option<String>,
    /// The bib numbers on the photo.
    pub bibs: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Photographer {
    pub photographer_id: i64,
    pub photos: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ManualResponse {
    #[schema(example = "success")]
    pub status: &'static str,
    pub body: Vec<ManualPhoto>,
    /// Photos matching the filter, over all pages.
    pub total: i64,
    pub page: u32,
    pub page_size: u32,
    /// Everyone who took the event's photos, for the filter.
    pub photographers: Vec<Photographer>,
}

fn instant(field: &str, raw: Option<&str>) -> ShopResult<Option<i64>> {
    raw.map(str::trim)
        .filter(|r| !r.is_empty())
        .map(|r| {
            time::parse_instant(r, DayEdge::Start)
                .map(|t| t.timestamp_millis())
                .map_err(|_| ShopError::field(field, "use YYYY-MM-DDTHH:MM"))
        })
        .transpose()
}

/// Every shown photo of an event, page by page, in the order it was taken; filtered by
/// photographer and time window.
#[utoipa::path(post, path = "/v1/manual", tag = "catalogue",
    request_body = ManualRequest,
    responses((status = 200, body = ManualResponse), (status = 401, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer), (status = 422, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn manual(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<ManualRequest>,
) -> ShopResult<Json<ManualResponse>> {
    let event = find_event(&state.catalogue, &parse_event_key(&req.event_key)?).await?;
    let paging = PageRequest::new(req.page, req.page_size)
        .map_err(|e| ShopError::field("page_size", e.to_string()))?;
    let filter = PhotoFilter {
        photographer_id: req.photographer_id,
        taken_from: instant("from", req.from.as_deref())?,
        taken_until: instant("to", req.to.as_deref())?,
    };
    let (photos, total) = state
        .store
        .event_photo_page(event.id, filter, paging.offset(), paging.limit())
        .await?;
    let ids: Vec<i64> = photos.iter().map(|p| p.id).collect();
    let bibs = state.store.bibs_of_photos(&ids).await?;
    let photographers = state
        .store
        .event_photographers(event.id)
        .await?
        .into_iter()
        .map(|(photographer_id, photos)| Photographer {
            photographer_id,
            photos,
        })
        .collect();
    let body = photos
        .iter()
        .map(|p| ManualPhoto {
            photo: PhotoBody::new(p, &state.media_url, None),
            taken_at: p
                .taken_at
                .and_then(chrono::DateTime::from_timestamp_millis)
                .map(|t| {
                    t.with_timezone(&time::bangkok())
                        .format("%Y-%m-%d %H:%M:%S")
                        .to_string()
                }),
            bibs: bibs
                .iter()
                .filter(|b| b.photo_id == p.id && b.searchable())
                .map(|b| b.bib.to_string())
                .collect(),
        })
        .collect();
    Ok(Json(ManualResponse {
        status: SUCCESS,
        body,
        total,
        page: req.page.unwrap_or(1),
        page_size: u32::try_from(paging.limit()).unwrap_or(0),
        photographers,
    }))
}

/// A bib that does not fit the event's rule, from a visitor or an operator: `invalid_bib`
/// on the `bib` field, saying why.
impl From<raceshot_domain::BibError> for ShopError {
    fn from(e: raceshot_domain::BibError) -> Self {
        ShopError::new(ErrorCode::InvalidBib, e.to_string()).with_field("bib")
    }
}

/// Bib search's errors by code: the bib's own refusal as above, faults as `internal`
/// with their causes.
impl From<bibs::BibSearchError> for ShopError {
    fn from(e: bibs::BibSearchError) -> Self {
        match e {
            bibs::BibSearchError::Invalid(e) => e.into(),
            bibs::BibSearchError::Store(e) => e.into(),
            bibs::BibSearchError::Fault(e) => ShopError::internal(e),
        }
    }
}
