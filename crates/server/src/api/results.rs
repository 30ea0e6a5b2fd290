//! Finding one's result (`POST /v1/results/search`): a runner types their name (a part
//! of it, in Thai or Latin letters, spaces and case forgiven) or bib, and gets the
//! organiser's results rows; when one row is found, the photos of its bib come in the
//! same answer, as bib search finds them (read on the photo, and the same runner's face
//! elsewhere). The rules are in `crate::services::results`.

use axum::Json;
use axum::extract::State;
use raceshot_domain::Money;
use raceshot_domain::results::RaceResult;
use raceshot_store::events::Event;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::bibsearch::{BibSearchResponse, bib_answer};
use super::catalogue::SUCCESS;
use super::extract::{ApiJson, ClientIp};
use crate::api::error::ErrorAnswer;
use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError, ShopResult};
use crate::services::bibs::BibFound;
use crate::services::certificates::{self, Format};
use crate::services::commerce::{find_event, on_sale, parse_event_key};
use crate::services::results::{self, ResultsError};

#[derive(Debug, Deserialize, ToSchema)]
pub struct ResultsSearchRequest {
    pub event_key: String,
    /// A part of the runner's name, or their bib number.
    pub q: String,
}

/// A finisher's row as the organiser published it.
#[derive(Debug, Serialize, ToSchema)]
pub struct ResultBody {
    pub bib: String,
    pub name: String,
    pub gender: Option<String>,
    pub category: Option<String>,
    pub distance: Option<String>,
    /// `H:MM:SS`, with hundredths when the file had them.
    pub gun_time: Option<String>,
    pub chip_time: Option<String>,
    pub rank: Option<u32>,
}

impl From<RaceResult> for ResultBody {
    fn from(r: RaceResult) -> Self {
        ResultBody {
            bib: r.bib.as_str().to_owned(),
            name: r.name,
            gender: r.gender,
            category: r.category,
            distance: r.distance,
            gun_time: r.gun_time.map(|t| t.to_string()),
            chip_time: r.chip_time.map(|t| t.to_string()),
            rank: r.rank,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ResultsSearchResponse {
    #[schema(example = "success")]
    pub status: &'static str,
    /// At most 20 rows, best rank first.
    pub results: Vec<ResultBody>,
    /// The photos of the bib when exactly one row was found and the event's photos are on
    /// sale.
    pub photos: Option<BibSearchResponse>,
    /// The finisher certificate, when exactly one row was found and the event offers
    /// certificates.
    pub certificate: Option<CertificateOffer>,
}

/// A finisher certificate on offer for the one row found.
#[derive(Debug, Serialize, ToSchema)]
pub struct CertificateOffer {
    /// Baht with two decimals; 0: free to download (always at a free event). A priced one
    /// is bought in the cart (`certificate_bib`).
    #[schema(value_type = f64)]
    pub price: Money,
    /// The photo it shows unless the runner picks another of `photos`: where their face
    /// above their bib is largest and clearest.
    pub photo_id: Option<i64>,
    /// The picture (1080 × 1350 JPEG) and the A4 page (PDF), when free.
    pub image_url: Option<String>,
    pub print_url: Option<String>,
}

/// Finds a runner's results by name or bib, with the photos of the bib when one row is
/// found. Rate-limited with face and bib searches.
#[utoipa::path(operation_id = "results_search", post, path = "/v1/results/search", tag = "face search",
    request_body = ResultsSearchRequest,
    responses((status = 200, body = ResultsSearchResponse), (status = 401, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer), (status = 422, response = ErrorAnswer),
        (status = 429, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn search(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    ApiJson(req): ApiJson<ResultsSearchRequest>,
) -> ShopResult<Json<ResultsSearchResponse>> {
    state.rate_limits.search.check(client)?;
    let event = find_event(&state.catalogue, &parse_event_key(&req.event_key)?).await?;
    // Results stay findable after the sale; the photos come only while it is open.
    let with_photos = on_sale(&event, state.now());
    let found = results::find(state.search(), &event, &req.q, with_photos)
        .await
        .map_err(|e| match e {
            ResultsError::Query => ShopError::field("q", e.to_string()),
            ResultsError::BibSearch(e) => e.into(),
            ResultsError::Store(e) => e.into(),
            other => ShopError::new(ErrorCode::Internal, other.to_string()),
        })?;
    let photos = match &found.photos {
        Some(photos) => Some(bib_answer(&state, event.id, photos).await?),
        None => None,
    };
    let certificate = match found.results.as_slice() {
        [one] => certificate_offer(&state, &event, one, found.photos.as_ref()).await?,
        _ => None,
    };
    Ok(Json(ResultsSearchResponse {
        status: SUCCESS,
        results: found.results.into_iter().map(Into::into).collect(),
        photos,
        certificate,
    }))
}

/// The certificate on offer for `result`, with the photo it shows by default.
async fn certificate_offer(
    state: &AppState,
    event: &Event,
    result: &RaceResult,
    photos: Option<&BibFound>,
) -> ShopResult<Option<CertificateOffer>> {
    let settings = certificates::settings(&state.store, event).await?;
    if !settings.offered {
        return Ok(None);
    }
    let candidates = photos.map_or_else(Vec::new, certificates::candidates);
    let price = certificates::price(&settings, event);
    let free = price.satang() == 0;
    let url = |format: Format| {
        free.then(|| {
            format!(
                "/api/events/{}/certificates/{}/{}",
                event.spec.key,
                result.bib.as_str(),
                format.as_str()
            )
        })
    };
    Ok(Some(CertificateOffer {
        price,
        photo_id: certificates::best(&candidates).map(|c| c.photo.id),
        image_url: url(Format::Image),
        print_url: url(Format::Print),
    }))
}
