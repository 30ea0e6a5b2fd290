//! Face search (spec §7): sign an upload, PUT the selfie, search; or the older one-step
//! multipart call. The selfie and its embedding live only as long as the request: the
//! uploaded object is stored without its metadata and deleted as soon as it is read,
//! errors included, and nothing of it reaches the database (Thai PDPA treats biometric
//! data as sensitive). One never searched is swept (`crate::selfies`).

use axum::Json;
use axum::body::Bytes;
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Multipart, Path, State};
use axum::http::HeaderMap;
use chrono::Utc;
use raceshot_domain::Money;
use raceshot_faces::image_io::strip_metadata;
use raceshot_store::events::Event;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::catalogue::{PhotoBody, SUCCESS};
use super::extract::{ApiJson, ApiQuery, NumberOrText};
use crate::commerce::find_event_on_sale;
use crate::error::{ErrorAnswer, ErrorCode, ShopError, ShopResult};
use crate::rate_limit::client_address;
use crate::search::{Found, Narrowing, check_selfie_bytes, search_event, too_large};
use crate::selfies::{self, upload_key};
use crate::signing;
use crate::state::AppState;

pub use crate::search::MAX_SELFIE_BYTES;

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
    /// May raise the event's threshold, never lower it.
    pub face_threshold: Option<f64>,
    /// Ignored: prices come from the event.
    #[schema(value_type = Option<NumberOrText>)]
    pub mhao_price: Option<serde_json::Value>,
    /// May lower the event's limit, never raise it.
    pub max_face_search: Option<u32>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SearchResponse {
    #[schema(example = "success")]
    pub status: &'static str,
    /// Photos found; 0 when the selfie shows no face or matches nobody.
    pub image_length: usize,
    pub images: Vec<PhotoBody>,
    /// The all-photos deal per photo for these photos, baht with two decimals.
    #[schema(value_type = f64)]
    pub avg_price: Money,
    /// `no_face` when no face was found in the selfie.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
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
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<SignRequest>,
) -> ShopResult<Json<SignResponse>> {
    find_event_on_sale(&state, &req.event_key).await?;
    if let Some(t) = req.file_type.as_deref()
        && !matches!(t, "image/jpeg" | "image/jpg" | "image/png")
    {
        return Err(ShopError::new(
            ErrorCode::UnsupportedImageType,
            "use a JPEG or PNG file",
        ));
    }
    let client = client_address(peer, &headers, &state.config.server.trusted_proxies);
    let (search_id, expires) = selfies::reserve(&state, client).await?;
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
        .map_err(|_| too_large())?;
    // What is kept, for seconds, is the picture: EXIF (a phone's GPS position, its serial)
    // and comments never reach storage.
    let checked = match check_selfie_bytes(&body) {
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
            selfies::take(&state, &id).await?;
            return Err(refused);
        }
    };
    // One upload per address, and none once its search has run or it has lapsed.
    if !selfies::mark_uploaded(&state, &id).await? {
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
fn limit(state: &AppState, peer: SocketAddr, headers: &HeaderMap) -> ShopResult<()> {
    let client = client_address(peer, headers, &state.config.server.trusted_proxies);
    state.search_limiter.check(client)
}

/// A multipart body that broke off, or ran past the body limit (then: too large).
fn multipart_error(e: axum::extract::multipart::MultipartError) -> ShopError {
    if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
        too_large()
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
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
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
    let no_upload = || ShopError::new(ErrorCode::UploadNotFound, "no upload for this search_id");
    // One search per address: a second one, or one after the lapse, finds nothing.
    let taken = selfies::take(&state, &id).await?;
    // Read and delete at once: whatever happens next, the selfie is gone.
    let bytes = state.objects.get(&key).await;
    state.objects.delete(&key).await?;
    let bytes = match bytes {
        Ok(b) if taken => b,
        Ok(_) => return Err(no_upload()),
        Err(e) if e.is_not_found() => return Err(no_upload()),
        Err(e) => return Err(e.into()),
    };
    // Only now: a refused search must not leave its selfie behind.
    limit(&state, peer, &headers)?;
    let event = find_event_on_sale(&state, &req.event_key).await?;
    find(
        &state,
        &event,
        bytes,
        req.face_threshold,
        req.max_face_search,
    )
    .await
    .map(Json)
}

/// The older one-step search: multipart with `file` and `event_key` (other fields
/// optional, as in `/v2/facesearch`). The file is never stored.
#[utoipa::path(post, path = "/v1/facesearch", tag = "face search",
    request_body(content_type = "multipart/form-data", content = Object),
    responses((status = 200, body = SearchResponse), (status = 401, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer), (status = 413, response = ErrorAnswer), (status = 415, response = ErrorAnswer),
        (status = 429, response = ErrorAnswer), (status = 503, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn search_multipart(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    mut form: Multipart,
) -> ShopResult<Json<SearchResponse>> {
    limit(&state, peer, &headers)?;
    let mut file = None;
    let mut event_key = None;
    let mut threshold = None;
    let mut max = None;
    let bad = |field: &str| ShopError::field(field, "invalid value");
    while let Some(field) = form.next_field().await.map_err(multipart_error)? {
        let name = field.name().unwrap_or_default().to_owned();
        if name == "file" {
            file = Some(read_limited(field).await?);
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
            _ => {}
        }
    }
    let event_key = event_key.ok_or_else(|| ShopError::field("event_key", "is required"))?;
    let file = file.ok_or_else(|| ShopError::field("file", "is required"))?;
    let event = find_event_on_sale(&state, &event_key).await?;
    find(&state, &event, file, threshold, max).await.map(Json)
}

async fn read_limited(mut field: axum::extract::multipart::Field<'_>) -> ShopResult<Bytes> {
    let mut buf = Vec::new();
    while let Some(chunk) = field.chunk().await.map_err(multipart_error)? {
        if buf.len() + chunk.len() > MAX_SELFIE_BYTES {
            return Err(too_large());
        }
        buf.extend_from_slice(&chunk);
    }
    Ok(buf.into())
}

/// Searches the event with the selfie and shapes the answer.
async fn find(
    state: &AppState,
    event: &Event,
    bytes: Bytes,
    threshold: Option<f64>,
    max: Option<u32>,
) -> ShopResult<SearchResponse> {
    let narrowing = Narrowing { threshold, max };
    let (photos, avg_price, reason) = match search_event(state, event, bytes, narrowing).await? {
        Found::NoFace => (Vec::new(), Money::ZERO, Some("no_face")),
        Found::Photos { photos, avg_price } => (photos, avg_price, None),
    };
    let images: Vec<PhotoBody> = photos
        .iter()
        .map(|(p, similarity)| PhotoBody::new(p, &state.media_url, Some(*similarity)))
        .collect();
    Ok(SearchResponse {
        status: SUCCESS,
        image_length: images.len(),
        images,
        avg_price,
        reason,
    })
}
