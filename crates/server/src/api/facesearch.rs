//! Face search (docs/shop-contract.md, Photos and search): sign an upload, PUT the selfie,
//! search; or the older one-step multipart call. Up to three people at once: `search_ids`
//! (or several `file` parts) beside the first selfie, and `match` (`any`, `all`). The
//! selfies and their embeddings live only as long as the request: each uploaded object is
//! stored without its metadata and deleted as soon as it is read, errors included, and
//! nothing of it reaches the database (Thai PDPA treats biometric data as sensitive). One
//! never searched is swept (`crate::services::selfies`).

use axum::Json;
use axum::body::Bytes;
use std::net::IpAddr;

use axum::extract::{Multipart, Path, State};
use chrono::Utc;
use raceshot_domain::Money;
use raceshot_store::events::Event;
use raceshot_store::selfies::Taken;
use raceshot_vision::image_io::strip_metadata;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::catalogue::{MatchedByBody, PhotoBody, SUCCESS};
use super::extract::{ApiJson, ApiQuery, NumberOrText};
use crate::api::error::ErrorAnswer;
use crate::api::extract::ClientIp;
use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError, ShopResult};
use crate::infra::signing;
use crate::services::commerce::{deal, find_event, find_event_on_sale, parse_event_key};
use crate::services::search::{
    Found, MAX_PEOPLE, Match, Narrowing, SearchError, check_selfie_bytes, search_event,
};
use crate::services::selfies::{self, ReserveError, upload_key};

pub use crate::services::search::MAX_SELFIE_BYTES;

/// What each refusal of a search answers.
impl From<SearchError> for ShopError {
    fn from(e: SearchError) -> Self {
        let message = e.to_string();
        match e {
            SearchError::TooLarge => ShopError::new(ErrorCode::FileTooLarge, message),
            SearchError::UnsupportedType => {
                ShopError::new(ErrorCode::UnsupportedImageType, message)
            }
            SearchError::Unreadable => ShopError::new(ErrorCode::UnreadableImage, message),
            SearchError::TooManyPixels => ShopError::new(ErrorCode::ImageTooManyPixels, message),
            SearchError::TooManySelfies => {
                ShopError::new(ErrorCode::TooManySelfies, message).with_field("file")
            }
            SearchError::NoSelfie => ShopError::field("file", "is required"),
            SearchError::NoFace { field } => {
                ShopError::new(ErrorCode::NoFace, message).with_field(field)
            }
            SearchError::BadMatch => ShopError::field("match", message),
            SearchError::Busy(busy) => busy.into(),
            SearchError::Fault(e) => ShopError::internal(e),
        }
    }
}

/// What a refused upload address answers: too many asked, or too many unused.
impl From<ReserveError> for ShopError {
    fn from(e: ReserveError) -> Self {
        match e {
            ReserveError::Limited(limited) => limited.into(),
            ReserveError::TooManyWaiting { retry_after } => {
                ShopError::new(ErrorCode::RateLimited, e.to_string()).retry_after(retry_after)
            }
            ReserveError::Store(fault) => ShopError::internal(fault),
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SignRequest {
    pub event_key: String,
    pub file_name: Option<String>,
    /// `image/jpeg` or `image/png`.
    pub file_type: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SignResponse {
    #[schema(example = "success")]
    pub status: &'static str,
    /// Where to PUT the selfie: this server in the embedded default, a presigned S3 address
    /// when S3 is configured.
    pub url: String,
    pub file_name: String,
    pub search_id: String,
    pub file_location: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SearchRequest {
    pub search_id: String,
    pub file_location: Option<String>,
    /// Ignored: the event is named by `event_key`.
    #[schema(value_type = Option<NumberOrText>)]
    pub event_id: Option<serde_json::Value>,
    pub event_key: String,
    /// May raise the event's threshold, never lower it; a raised threshold holds for every
    /// face (otherwise small faces may match a little below the event's, as its crowd
    /// allows).
    pub face_threshold: Option<f64>,
    /// Ignored: prices come from the event.
    #[schema(value_type = Option<NumberOrText>)]
    pub mhao_price: Option<serde_json::Value>,
    /// May lower the event's limit, never raise it.
    pub max_face_search: Option<u32>,
    /// The other people's selfies, searched together with `search_id`'s (three people at
    /// most); each is deleted like the first.
    #[serde(default)]
    pub search_ids: Vec<String>,
    /// With several people: `any` (default) answers photos showing any of them, `all` only
    /// photos showing all of them.
    #[serde(rename = "match")]
    #[schema(rename = "match")]
    pub matching: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SearchResponse {
    #[schema(example = "success")]
    pub status: &'static str,
    /// Photos found; 0 when the selfie shows no face or matches nobody.
    pub image_length: usize,
    /// Each with `people`: which of the selfies (0-based, in the order sent) it shows.
    pub images: Vec<PhotoBody>,
    /// The all-photos deal per photo for these photos, baht with two decimals.
    #[schema(value_type = f64)]
    pub avg_price: Money,
    /// `no_face` when no face was found in the selfie.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    /// Names these photos to the cart: the all-photos deal covers the photos of the
    /// searches whose `found_ref` it sends (for `search.found_ttl_secs`). Empty when
    /// nothing was found.
    pub found_ref: String,
}

/// What upload signatures sign.
const UPLOAD: &str = "upload";

/// Reserves an upload for one selfie.
#[utoipa::path(post, path = "/v2/facesearch/sign", tag = "face search",
    request_body = SignRequest,
    responses((status = 200, body = SignResponse), (status = 401, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer), (status = 409, response = ErrorAnswer), (status = 415, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn sign(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    ApiJson(req): ApiJson<SignRequest>,
) -> ShopResult<Json<SignResponse>> {
    let event = find_event_on_sale(
        &state.catalogue,
        state.now(),
        &parse_event_key(&req.event_key)?,
    )
    .await?;
    if let Some(t) = req.file_type.as_deref()
        && !matches!(t, "image/jpeg" | "image/jpg" | "image/png")
    {
        return Err(ShopError::new(
            ErrorCode::UnsupportedImageType,
            "use a JPEG or PNG file",
        ));
    }
    let (search_id, expires) = selfies::reserve(
        &state.store,
        &state.rate_limits.sign,
        &state.config.search,
        client,
        event.id,
    )
    .await?;
    let key =
        upload_key(&search_id).ok_or_else(|| ShopError::internal(anyhow::anyhow!("upload key")))?;
    let id = search_id.to_string();
    let url = match state
        .objects
        .presign_put(&key, state.config.search.selfie_ttl)
        .await?
    {
        Some(url) => url,
        None => {
            let expires = expires.timestamp();
            let sig = signing::sign(&state.signing_key, UPLOAD, &[&id, &expires.to_string()]);
            format!(
                "{}/v2/facesearch/upload/{id}?expires={expires}&signature={sig}",
                state.public_url
            )
        }
    };
    Ok(Json(SignResponse {
        status: SUCCESS,
        url,
        file_name: req.file_name.unwrap_or_else(|| "selfie".to_owned()),
        search_id: id,
        file_location: key.as_str().to_owned(),
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UploadParams {
    pub expires: i64,
    pub signature: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct UploadResponse {
    #[schema(example = "success")]
    pub status: &'static str,
}

/// The signed PUT target of the embedded default (S3 takes the PUT itself otherwise).
#[utoipa::path(put, path = "/v2/facesearch/upload/{search_id}", tag = "face search",
    params(("search_id" = String, Path), UploadParams),
    request_body(content = Vec<u8>, content_type = "image/jpeg"),
    responses((status = 200, body = UploadResponse), (status = 403, response = ErrorAnswer),
        (status = 413, response = ErrorAnswer), (status = 415, response = ErrorAnswer)))]
pub async fn upload(
    State(state): State<AppState>,
    Path(search_id): Path<String>,
    ApiQuery(params): ApiQuery<UploadParams>,
    body: axum::body::Body,
) -> ShopResult<Json<UploadResponse>> {
    let forbidden = || {
        ShopError::new(
            ErrorCode::InvalidSignature,
            "the upload address is invalid or expired",
        )
    };
    let fresh = params.expires >= Utc::now().timestamp();
    let signed = signing::verify(
        &state.signing_key,
        UPLOAD,
        &[&search_id, &params.expires.to_string()],
        &params.signature,
    );
    if !fresh || !signed {
        return Err(forbidden());
    }
    let id = uuid::Uuid::parse_str(&search_id).map_err(|_| forbidden())?;
    // Read one byte past the limit at most: enough to know the file is too large.
    let body = axum::body::to_bytes(body, MAX_SELFIE_BYTES + 1)
        .await
        .map_err(|_| ShopError::from(SearchError::TooLarge))?;
    // What is kept, for seconds, is the picture: EXIF (a phone's GPS position, its serial)
    // and comments never reach storage.
    let checked = match check_selfie_bytes(&body).map_err(ShopError::from) {
        Ok(_) => state
            .cpu
            .run(move || strip_metadata(&body))
            .await
            .map_err(ShopError::internal)?
            .map_err(|_| ShopError::new(ErrorCode::UnreadableImage, "the image is damaged")),
        Err(e) => Err(e),
    };
    let clean = match checked {
        Ok(clean) => clean,
        Err(refused) => {
            // Nothing was stored: the address is spent, and no longer counts as waiting.
            selfies::spend(&state.store, &id).await?;
            return Err(refused);
        }
    };
    // One upload per address, and none once its search has run or it has lapsed.
    if !selfies::mark_uploaded(&state.store, state.config.search.selfie_ttl, &id).await? {
        return Err(ShopError::new(
            ErrorCode::InvalidSignature,
            "this upload address has been used",
        ));
    }
    let key = upload_key(&id).ok_or_else(forbidden)?;
    state.objects.put(&key, clean.into()).await?;
    Ok(Json(UploadResponse { status: SUCCESS }))
}

/// The per-client limit on face searches.
fn limit(state: &AppState, client: IpAddr) -> ShopResult<()> {
    Ok(state.rate_limits.search.check(client)?)
}

/// A multipart body that broke off, or ran past the body limit (then: too large).
pub(super) fn multipart_error(e: axum::extract::multipart::MultipartError) -> ShopError {
    if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
        SearchError::TooLarge.into()
    } else {
        ShopError::new(ErrorCode::MalformedMultipart, e.body_text())
    }
}

/// Searches an event's photos with the uploaded selfie, then deletes it.
#[utoipa::path(post, path = "/v2/facesearch", tag = "face search",
    request_body = SearchRequest,
    responses((status = 200, body = SearchResponse), (status = 401, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer), (status = 413, response = ErrorAnswer), (status = 415, response = ErrorAnswer),
        (status = 422, response = ErrorAnswer), (status = 429, response = ErrorAnswer),
        (status = 503, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn search(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    ApiJson(req): ApiJson<SearchRequest>,
) -> ShopResult<Json<SearchResponse>> {
    let id = uuid::Uuid::parse_str(&req.search_id)
        .map_err(|_| ShopError::field("search_id", "not a search id from /v2/facesearch/sign"))?;
    let key = upload_key(&id).ok_or_else(|| ShopError::field("search_id", "invalid"))?;
    if req
        .file_location
        .as_deref()
        .is_some_and(|l| l != key.as_str())
    {
        return Err(ShopError::field(
            "file_location",
            "does not belong to this search_id",
        ));
    }
    if req.search_ids.len() > MAX_LISTED_IDS {
        return Err(ShopError::from(SearchError::TooManySelfies).with_field("search_ids"));
    }
    let mut ids = vec![Some(id)];
    ids.extend(
        req.search_ids
            .iter()
            .map(|raw| uuid::Uuid::parse_str(raw).ok()),
    );
    // A search id serves only the client and the event it was signed for. Every selfie
    // that is this client's is read and deleted before anything else is checked: whatever
    // happens next, none is left behind (another client's is left to its own search, or
    // the sweep).
    let event_id = match parse_event_key(&req.event_key) {
        Ok(key) => find_event(&state.catalogue, &key).await.map(|e| e.id).ok(),
        Err(_) => None,
    };
    let mut selfies = Vec::with_capacity(ids.len());
    for id in ids.iter().flatten() {
        selfies.push(take_selfie(&state, id, client, event_id).await?);
    }
    if ids.len() > MAX_PEOPLE {
        return Err(ShopError::from(SearchError::TooManySelfies).with_field("search_ids"));
    }
    if let Some(bad) = ids.iter().position(Option::is_none) {
        return Err(ShopError::field(
            format!("search_ids[{}]", bad - 1),
            "not a search id from /v2/facesearch/sign",
        ));
    }
    let selfies = selfies.into_iter().collect::<ShopResult<Vec<Bytes>>>()?;
    let matching = req.matching.as_deref().map(Match::parse).transpose()?;
    // Only now: a refused search must not leave its selfies behind.
    for _ in &selfies {
        limit(&state, client)?;
    }
    let event = find_event_on_sale(
        &state.catalogue,
        state.now(),
        &parse_event_key(&req.event_key)?,
    )
    .await?;
    let narrowing = Narrowing {
        threshold: req.face_threshold,
        max: req.max_face_search,
    };
    let matching = matching.unwrap_or_default();
    find(
        &state,
        &event,
        selfies,
        narrowing,
        matching,
        search_id_field,
    )
    .await
    .map(Json)
}

/// The request field of the `i`th selfie: `search_id`, then `search_ids[…]`.
fn search_id_field(i: usize) -> String {
    match i {
        0 => "search_id".to_owned(),
        i => format!("search_ids[{}]", i - 1),
    }
}

/// The form part of the `i`th selfie.
fn file_field(i: usize) -> String {
    format!("file[{i}]")
}

/// `search_ids` longer than this are refused unread (their uploads lapse and are swept).
const MAX_LISTED_IDS: usize = 16;

/// Takes the search's upload and deletes its selfie: the selfie's bytes, or
/// `upload_not_found` when there is no upload for this client's search of this event
/// (never made, searched already, lapsed, or signed for another client or event). The
/// outer error is a storage fault; the inner one, the visitor's.
async fn take_selfie(
    state: &AppState,
    id: &uuid::Uuid,
    client: IpAddr,
    event_id: Option<i64>,
) -> ShopResult<ShopResult<Bytes>> {
    let no_upload = || ShopError::new(ErrorCode::UploadNotFound, "no upload for this search_id");
    let (Some(key), Some(event_id)) = (upload_key(id), event_id) else {
        return Ok(Err(no_upload()));
    };
    // One search per address, by its own client: a second one, one after the lapse, or
    // anyone else's finds nothing.
    let taken = selfies::take(&state.store, id, client, event_id).await?;
    if taken == Taken::NotYours {
        return Ok(Err(no_upload()));
    }
    // Read and delete at once.
    let bytes = state.objects.get(&key).await;
    state.objects.delete(&key).await?;
    Ok(match bytes {
        Ok(b) if taken == Taken::Yes => Ok(b),
        Ok(_) => Err(no_upload()),
        Err(e) if e.is_not_found() => Err(no_upload()),
        Err(e) => return Err(e.into()),
    })
}

/// The older one-step search: multipart with `file` (up to three, one person each) and
/// `event_key` (other fields optional, as in `/v2/facesearch`). The files are never
/// stored.
#[utoipa::path(post, path = "/v1/facesearch", tag = "face search",
    request_body(content_type = "multipart/form-data", content = Object),
    responses((status = 200, body = SearchResponse), (status = 401, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer), (status = 413, response = ErrorAnswer), (status = 415, response = ErrorAnswer),
        (status = 429, response = ErrorAnswer), (status = 503, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn search_multipart(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    mut form: Multipart,
) -> ShopResult<Json<SearchResponse>> {
    limit(&state, client)?;
    let mut files = Vec::new();
    let mut event_key = None;
    let mut threshold = None;
    let mut max = None;
    let mut matching = None;
    let bad = |field: &str| ShopError::field(field, "invalid value");
    while let Some(field) = form.next_field().await.map_err(multipart_error)? {
        let name = field.name().unwrap_or_default().to_owned();
        if name == "file" {
            files.push(read_limited(field).await?);
            continue;
        }
        let text = field.text().await.map_err(multipart_error)?;
        match name.as_str() {
            "event_key" => event_key = Some(text),
            "face_threshold" if !text.is_empty() => {
                threshold = Some(text.parse::<f64>().map_err(|_| bad("face_threshold"))?)
            }
            "max_face_search" if !text.is_empty() => {
                max = Some(text.parse::<u32>().map_err(|_| bad("max_face_search"))?)
            }
            "match" if !text.is_empty() => matching = Some(Match::parse(&text)?),
            _ => {}
        }
    }
    let event_key = event_key.ok_or_else(|| ShopError::field("event_key", "is required"))?;
    if files.is_empty() {
        return Err(ShopError::field("file", "is required"));
    }
    if files.len() > MAX_PEOPLE {
        return Err(SearchError::TooManySelfies.into());
    }
    for _ in 1..files.len() {
        limit(&state, client)?;
    }
    let event =
        find_event_on_sale(&state.catalogue, state.now(), &parse_event_key(&event_key)?).await?;
    let narrowing = Narrowing { threshold, max };
    let matching = matching.unwrap_or_default();
    find(&state, &event, files, narrowing, matching, file_field)
        .await
        .map(Json)
}

pub(super) async fn read_limited(
    mut field: axum::extract::multipart::Field<'_>,
) -> ShopResult<Bytes> {
    let mut buf = Vec::new();
    while let Some(chunk) = field.chunk().await.map_err(multipart_error)? {
        if buf.len() + chunk.len() > MAX_SELFIE_BYTES {
            return Err(SearchError::TooLarge.into());
        }
        buf.extend_from_slice(&chunk);
    }
    Ok(buf.into())
}

/// Searches the event with the selfies and shapes the answer.
async fn find(
    state: &AppState,
    event: &Event,
    selfies: Vec<Bytes>,
    narrowing: Narrowing,
    matching: Match,
    field_of: fn(usize) -> String,
) -> ShopResult<SearchResponse> {
    let found = search_event(
        state.search(),
        event,
        selfies,
        narrowing,
        matching,
        field_of,
    )
    .await?;
    let (photos, avg_price, reason) = match found {
        Found::NoFace => (Vec::new(), Money::ZERO, Some("no_face")),
        Found::Photos { photos, avg_price } => (photos, avg_price, None),
    };
    let images: Vec<PhotoBody> = photos
        .into_iter()
        .map(|f| PhotoBody {
            people: Some(f.people),
            matched_by: f.by_sequence.then_some(MatchedByBody::Sequence),
            ..PhotoBody::new(&f.photo, &state.media_url, Some(f.similarity))
        })
        .collect();
    let ids: Vec<i64> = images.iter().map(|p| p.id).collect();
    let found_ref =
        deal::remember(&state.store, state.config.search.found_ttl, event.id, &ids).await?;
    Ok(SearchResponse {
        status: SUCCESS,
        image_length: images.len(),
        images,
        avg_price,
        reason,
        found_ref,
    })
}
