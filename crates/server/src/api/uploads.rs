//! Resumable photo uploads over HTTP: the tus 1.0 protocol (core, creation, termination,
//! expiration) at `/api/uploads`, for the photographer's uploader (`raceshot upload`),
//! the console and any tus client. A client signs in with `Authorization: Bearer <upload
//! token>` (or the console's session); the event and the file's name come in
//! `Upload-Metadata` (`event`, `filename`). The rules live in
//! `services::uploads::resumable`; this module speaks the protocol's headers and answers.
//! Every answer carries `Tus-Resumable: 1.0.0`; a refusal also carries the API's JSON
//! error body with its code.

use axum::Json;
use axum::body::Body;
use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use raceshot_store::operators::Operator;
use raceshot_store::uploads::Upload;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::admin::auth::Session;
use crate::api::error::ErrorAnswer;
use crate::api::extract::{ApiJson, ApiPath, ClientIp};
use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError, ShopResult};
use crate::services::commerce::{CommerceError, parse_event_key};
use crate::services::operators::may_work_on;
use crate::services::photos::MAX_PHOTO_BYTES;
use crate::services::uploads::resumable::{self, ResumableError};
use crate::services::uploads::{self as tokens};

const TUS_VERSION: &str = "1.0.0";
const TUS_EXTENSIONS: &str = "creation,termination,expiration";
/// The content type of a PATCH's bytes.
const OFFSET_STREAM: &str = "application/offset+octet-stream";
/// The photo a finished upload became (not part of tus: our uploaders read it).
pub const PHOTO_ID_HEADER: &str = "raceshot-photo-id";
/// `queued` (a new photo) or `exists` (the event held the file already), as the console's
/// one-request upload answers `result`.
pub const PHOTO_RESULT_HEADER: &str = "raceshot-photo-result";
/// `Upload-Metadata` is a few short pairs; anything longer is refused unread.
const MAX_METADATA_BYTES: usize = 2048;

fn tus(name: &'static str) -> HeaderName {
    HeaderName::from_static(name)
}

impl From<ResumableError> for ShopError {
    fn from(e: ResumableError) -> Self {
        let message = e.to_string();
        match e {
            ResumableError::NotFound => ShopError::new(ErrorCode::NotFound, message),
            ResumableError::Expired => ShopError::new(ErrorCode::UploadExpired, message),
            ResumableError::OffsetConflict { .. } => {
                ShopError::new(ErrorCode::UploadOffsetConflict, message)
            }
            ResumableError::TooLarge => ShopError::new(ErrorCode::PayloadTooLarge, message),
            ResumableError::TooManyOpen => {
                ShopError::new(ErrorCode::RateLimited, message).retry_after(60)
            }
            ResumableError::BadRequest(field) => ShopError::field("headers", field),
            ResumableError::EventNotFound => ShopError::new(ErrorCode::EventNotFound, message),
            ResumableError::Forbidden => ShopError::new(ErrorCode::Forbidden, message),
            ResumableError::NotAPhoto => ShopError::new(ErrorCode::UnsupportedImageType, message),
            ResumableError::Cut { .. } => ShopError::new(ErrorCode::MalformedMultipart, message),
            ResumableError::Store(e) => ShopError::internal(e),
            ResumableError::Fault(e) => ShopError::internal(e),
        }
    }
}

/// The account an upload request signs in: an upload token (`Bearer`), or the console's
/// session. A wrong token counts against the client like a failed console sign-in.
pub struct Uploader(pub Operator);

impl FromRequestParts<AppState> for Uploader {
    type Rejection = ShopError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> ShopResult<Self> {
        let bearer = parts
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::trim);
        let signed_in = match bearer {
            Some(secret) => {
                let found = tokens::authenticate(&state.store, secret, state.now()).await?;
                if found.is_none() {
                    let ClientIp(client) = ClientIp::from_request_parts(parts, state).await?;
                    state.rate_limits.login.check(client)?;
                }
                found
            }
            None => Session::of(state, &parts.headers)
                .await?
                .map(|s| s.operator),
        };
        signed_in.map(Uploader).ok_or_else(|| {
            ShopError::new(
                ErrorCode::NotSignedIn,
                "an upload token or a session is needed",
            )
        })
    }
}

/// An upload of the signed-in account, by the `{id}` of its address, for a request of
/// this protocol version: what HEAD, PATCH and DELETE act on.
pub struct OwnUpload(pub Upload);

impl FromRequestParts<AppState> for OwnUpload {
    type Rejection = ShopError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> ShopResult<Self> {
        check_version(&parts.headers)?;
        let Uploader(operator) = Uploader::from_request_parts(parts, state).await?;
        let ApiPath(id) = ApiPath::<String>::from_request_parts(parts, state).await?;
        Ok(OwnUpload(
            resumable::find(state.intake(), &operator, &id).await?,
        ))
    }
}

/// Refuses a request for another version of the protocol (412, naming ours).
fn check_version(headers: &HeaderMap) -> ShopResult<()> {
    match headers.get("tus-resumable").and_then(|v| v.to_str().ok()) {
        Some(TUS_VERSION) => Ok(()),
        _ => Err(ShopError::new(
            ErrorCode::TusVersionUnsupported,
            "send Tus-Resumable: 1.0.0",
        )),
    }
}

fn number(headers: &HeaderMap, name: &str) -> Option<i64> {
    headers
        .get(name)?
        .to_str()
        .ok()?
        .parse::<i64>()
        .ok()
        .filter(|n| *n >= 0)
}

/// `Upload-Metadata`: comma-separated `key base64value` pairs.
fn metadata(headers: &HeaderMap) -> Result<(String, String), ResumableError> {
    let bad = ResumableError::BadRequest("Upload-Metadata needs event and filename, in base64");
    let raw = headers
        .get("upload-metadata")
        .and_then(|v| v.to_str().ok())
        .filter(|v| v.len() <= MAX_METADATA_BYTES)
        .ok_or(ResumableError::BadRequest(
            "Upload-Metadata needs event and filename, in base64",
        ))?;
    let (mut event, mut file_name) = (None, None);
    for pair in raw.split(',') {
        let mut it = pair.trim().splitn(2, ' ');
        let key = it.next().unwrap_or_default();
        let value = it.next().unwrap_or_default().trim();
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(value)
            .ok()
            .and_then(|b| String::from_utf8(b).ok());
        match key {
            "event" => event = decoded,
            "filename" => file_name = decoded,
            _ => {}
        }
    }
    match (event, file_name) {
        (Some(event), Some(file_name)) => Ok((event, file_name)),
        _ => Err(bad),
    }
}

/// `Upload-Expires`, as HTTP dates are written.
fn expires(upload: &Upload) -> HeaderValue {
    let text = upload
        .expires_at
        .format("%a, %d %b %Y %H:%M:%S GMT")
        .to_string();
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

fn value(n: i64) -> HeaderValue {
    HeaderValue::from(n)
}

/// `Tus-Resumable: 1.0.0`, which every answer carries, refusals included (a layer of
/// these routes, `api::upload_routes`).
pub fn version_header() -> (HeaderName, HeaderValue) {
    (tus("tus-resumable"), HeaderValue::from_static(TUS_VERSION))
}

/// What the server supports.
#[utoipa::path(operation_id = "uploads_options", options, path = "/api/uploads", tag = "uploads",
    responses((status = 204, description = "Tus-Version, Tus-Extension and Tus-Max-Size")))]
pub async fn options() -> Response {
    let mut response = StatusCode::NO_CONTENT.into_response();
    let h = response.headers_mut();
    h.insert(tus("tus-version"), HeaderValue::from_static(TUS_VERSION));
    h.insert(
        tus("tus-extension"),
        HeaderValue::from_static(TUS_EXTENSIONS),
    );
    h.insert(tus("tus-max-size"), HeaderValue::from(MAX_PHOTO_BYTES));
    response
}

/// Announces a photo file: `Upload-Length` and `Upload-Metadata` (`event`, `filename`).
/// Answers its address in `Location`. An account may hold 500 unfinished uploads (429
/// past that).
#[utoipa::path(operation_id = "uploads_create", post, path = "/api/uploads", tag = "uploads",
    responses((status = 201, description = "Location, Upload-Expires"),
        (status = 401, response = ErrorAnswer), (status = 403, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer), (status = 412, response = ErrorAnswer),
        (status = 413, response = ErrorAnswer), (status = 422, response = ErrorAnswer),
        (status = 429, response = ErrorAnswer)))]
pub async fn create(
    State(state): State<AppState>,
    Uploader(operator): Uploader,
    headers: HeaderMap,
) -> ShopResult<Response> {
    check_version(&headers)?;
    let length = number(&headers, "upload-length")
        .ok_or(ResumableError::BadRequest("Upload-Length must be a number"))?;
    let (event, file_name) = metadata(&headers)?;
    let upload = resumable::start(state.intake(), &operator, &event, &file_name, length).await?;
    let mut response = StatusCode::CREATED.into_response();
    let location = format!("{}/api/uploads/{}", state.public_url, upload.id);
    let h = response.headers_mut();
    h.insert(
        header::LOCATION,
        HeaderValue::from_str(&location).map_err(ShopError::internal)?,
    );
    h.insert(tus("upload-expires"), expires(&upload));
    Ok(response)
}

/// Where the upload stands: `Upload-Offset` and `Upload-Length`.
#[utoipa::path(operation_id = "uploads_status", head, path = "/api/uploads/{id}", tag = "uploads", params(("id" = String, Path)),
    responses((status = 200, description = "Upload-Offset, Upload-Length, Upload-Expires"),
        (status = 401, response = ErrorAnswer), (status = 404, response = ErrorAnswer),
        (status = 410, response = ErrorAnswer)))]
pub async fn status(OwnUpload(upload): OwnUpload) -> ShopResult<Response> {
    let mut response = StatusCode::OK.into_response();
    let h = response.headers_mut();
    h.insert(tus("upload-offset"), value(upload.received));
    h.insert(tus("upload-length"), value(upload.length));
    h.insert(tus("upload-expires"), expires(&upload));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Some(photo) = upload.photo_id {
        h.insert(tus(PHOTO_ID_HEADER), value(photo));
    }
    Ok(response)
}

/// Sends bytes from `Upload-Offset`, which must be where the upload stands (409 otherwise:
/// ask with HEAD). The answer's `Upload-Offset` is where it stands now; the request that
/// brings the last byte adds the photo to its event (`Raceshot-Photo-Id`).
#[utoipa::path(operation_id = "uploads_patch", patch, path = "/api/uploads/{id}", tag = "uploads", params(("id" = String, Path)),
    request_body(content = Vec<u8>, content_type = "application/offset+octet-stream"),
    responses((status = 204, description = "Upload-Offset"),
        (status = 401, response = ErrorAnswer), (status = 404, response = ErrorAnswer),
        (status = 409, response = ErrorAnswer), (status = 410, response = ErrorAnswer),
        (status = 413, response = ErrorAnswer), (status = 415, response = ErrorAnswer)))]
pub async fn patch(
    State(state): State<AppState>,
    OwnUpload(upload): OwnUpload,
    headers: HeaderMap,
    body: Body,
) -> ShopResult<Response> {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok());
    if content_type != Some(OFFSET_STREAM) {
        return Err(ShopError::new(
            ErrorCode::UnsupportedMediaType,
            "send the bytes as application/offset+octet-stream",
        ));
    }
    let offset = number(&headers, "upload-offset")
        .ok_or(ResumableError::BadRequest("Upload-Offset must be a number"))?;
    let appended =
        resumable::append(state.intake(), &upload, offset, body.into_data_stream()).await?;
    let mut response = StatusCode::NO_CONTENT.into_response();
    let h = response.headers_mut();
    h.insert(tus("upload-offset"), value(appended.received));
    h.insert(tus("upload-expires"), expires(&upload));
    if let Some(photo) = appended.photo {
        h.insert(tus(PHOTO_ID_HEADER), value(photo.photo_id));
        let result = if photo.new { "queued" } else { "exists" };
        h.insert(tus(PHOTO_RESULT_HEADER), HeaderValue::from_static(result));
    }
    Ok(response)
}

/// Abandons an upload: what arrived is deleted.
#[utoipa::path(operation_id = "uploads_terminate", delete, path = "/api/uploads/{id}", tag = "uploads", params(("id" = String, Path)),
    responses((status = 204, description = "Deleted"), (status = 401, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer), (status = 410, response = ErrorAnswer)))]
pub async fn terminate(
    State(state): State<AppState>,
    OwnUpload(upload): OwnUpload,
) -> ShopResult<Response> {
    resumable::terminate(state.intake(), &upload).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// The most hashes one `known` call may ask about.
pub const MAX_KNOWN_HASHES: usize = 1000;
/// The body of a `known` call: the hashes and the event, with room to spare.
pub const KNOWN_BODY_LIMIT: usize = MAX_KNOWN_HASHES * 70 + 1024;

#[derive(Debug, Deserialize, ToSchema)]
pub struct KnownRequest {
    /// The event's key.
    pub event: String,
    /// SHA-256 digests of whole files, 64 hex digits each; at most 1,000.
    pub hashes: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct KnownResponse {
    /// The asked hashes whose files the event holds already.
    pub known: Vec<String>,
}

/// Which files an event holds already, by their SHA-256: what an uploader asks before
/// sending, so a card synced twice sends nothing twice.
#[utoipa::path(operation_id = "uploads_known", post, path = "/api/uploads/known", tag = "uploads", request_body = KnownRequest,
    responses((status = 200, body = KnownResponse), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer),
        (status = 422, response = ErrorAnswer)))]
pub async fn known(
    State(state): State<AppState>,
    Uploader(operator): Uploader,
    ApiJson(req): ApiJson<KnownRequest>,
) -> ShopResult<Json<KnownResponse>> {
    if req.hashes.len() > MAX_KNOWN_HASHES {
        return Err(ShopError::field("hashes", "at most 1000 at a time"));
    }
    if let Some(bad) = req
        .hashes
        .iter()
        .position(|h| h.len() != 64 || !h.bytes().all(|b| b.is_ascii_hexdigit()))
    {
        return Err(ShopError::field(format!("hashes[{bad}]"), "64 hex digits"));
    }
    let key = parse_event_key(&req.event)?;
    let event = state
        .store
        .any_event_by_key(&key)
        .await?
        .ok_or(CommerceError::EventNotFound)?;
    if !may_work_on(&state.store, &operator, event.id).await? {
        return Err(ShopError::new(
            ErrorCode::Forbidden,
            "this account may not upload to this event",
        ));
    }
    let hashes: Vec<String> = req.hashes.iter().map(|h| h.to_ascii_lowercase()).collect();
    let known = state.store.known_hashes(event.id, &hashes).await?;
    Ok(Json(KnownResponse { known }))
}
