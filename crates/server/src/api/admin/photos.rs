//! Photos in the console: uploads straight from the browser (one file per PUT, so many
//! run in parallel and a failed one is re-sent alone), the event's photos with their
//! processing state and bib numbers, moderation (hide, highlight, delete) and bib
//! corrections. Admins, or photographers on the events assigned to them.

use axum::Json;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use raceshot_domain::EventKey;
use raceshot_store::audit::event_target;
use raceshot_store::bibs::BibSource;
use raceshot_store::events::Event;
use raceshot_store::photos::{Deleted, PhotoState};
use raceshot_store::{ObjectKey, ObjectKind, StoredName};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::auth::Session;
use crate::api::error::{ErrorAnswer, ErrorBody};
use crate::api::extract::{ApiJson, ApiPath, ApiQuery, capped_body, parse_json};
use crate::api::media::derived_address;
use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError, ShopResult};
use crate::services::photos::{
    FileAdded, MAX_PHOTO_BYTES, add_file, clean_file_name, derived_name,
};

const PAGE_SIZE: i64 = 60;

async fn event_for(
    state: &AppState,
    session: &Session,
    event_key: &str,
) -> ShopResult<(EventKey, Event)> {
    let not_found =
        || session.or_forbidden(ShopError::new(ErrorCode::EventNotFound, "no such event"));
    let key = EventKey::parse(event_key).map_err(|_| not_found())?;
    let event = state
        .store
        .all_events()
        .await?
        .into_iter()
        .find(|e| e.spec.key == key)
        .ok_or_else(not_found)?;
    session.require_event(state, event.id).await?;
    Ok((key, event))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UploadQuery {
    /// The file's name on the photographer's computer.
    pub file_name: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Uploaded {
    pub photo_id: i64,
    /// `queued`, or `exists` when the event holds this content already.
    pub result: &'static str,
}

/// Adds one photo to the event: the body is the file itself (JPEG or PNG).
#[utoipa::path(operation_id = "admin_photos_upload", put, path = "/api/admin/events/{event_key}/photos", tag = "console",
    params(("event_key" = String, Path), UploadQuery),
    request_body(content = Vec<u8>, content_type = "image/jpeg"),
    responses((status = 200, body = Uploaded), (status = 401, response = ErrorAnswer), (status = 403, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer), (status = 413, response = ErrorAnswer), (status = 415, response = ErrorAnswer),
        (status = 503, description = "Too many uploads at once: try again after Retry-After", body = ErrorBody)))]
pub async fn upload(
    State(state): State<AppState>,
    session: Session,
    Path(event_key): Path<String>,
    ApiQuery(q): ApiQuery<UploadQuery>,
    body: Body,
) -> ShopResult<Json<Uploaded>> {
    let (key, event) = event_for(&state, &session, &event_key).await?;
    // The browser retries a 503 `busy` later; memory stays bounded meanwhile.
    let _slot = state.upload_slots.acquire().await?;
    let bytes = capped_body(body, MAX_PHOTO_BYTES, "photos up to 60 MB are accepted").await?;
    let name = clean_file_name(q.file_name.as_deref().unwrap_or_default());
    let added = add_file(
        state.intake(),
        &key,
        event.id,
        &name,
        session.operator.id,
        bytes.to_vec(),
    )
    .await
    .map_err(ShopError::internal)?;
    let (photo_id, result) = match added {
        FileAdded::Queued(id) => (id, "queued"),
        FileAdded::Exists(id) => (id, "exists"),
        FileAdded::Refused(reason) => {
            return Err(ShopError::new(ErrorCode::UnsupportedImageType, reason));
        }
    };
    if result == "queued" {
        let detail = serde_json::json!({ "photo_id": photo_id, "file_name": name });
        state
            .store
            .audit(
                &session.actor(),
                "photo.upload",
                &event_target(&event_key),
                &detail,
                state.now(),
            )
            .await?;
    }
    Ok(Json(Uploaded { photo_id, result }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PhotoQuery {
    /// 1-based.
    pub page: Option<u32>,
    /// `queued`, `processing`, `ready` or `failed`.
    pub state: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AdminPhoto {
    pub id: i64,
    pub original_file_name: String,
    pub state: String,
    pub failure_reason: Option<String>,
    pub face_count: i64,
    pub hidden: bool,
    pub highlight: bool,
    /// Only once the photo is ready.
    pub thumbnail_url: Option<String>,
    /// Bib numbers read on the photo or put there by an operator, and those taken off.
    pub bibs: Vec<AdminBib>,
}

/// One bib of a photo as operators see it.
#[derive(Debug, Serialize, ToSchema)]
pub struct AdminBib {
    pub bib: String,
    /// `read` (found by reading, searchable), `added` (put on by an operator) or `removed`
    /// (read, but taken off by an operator: not searchable).
    pub source: AdminBibSource,
    /// The read's confidence, 0 to 1, when reading found it.
    pub confidence: Option<f64>,
}

#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AdminBibSource {
    Read,
    Added,
    Removed,
}

impl From<BibSource> for AdminBibSource {
    fn from(s: BibSource) -> Self {
        match s {
            BibSource::Read => AdminBibSource::Read,
            BibSource::Added => AdminBibSource::Added,
            BibSource::Removed => AdminBibSource::Removed,
        }
    }
}

#[derive(Debug, Default, Serialize, ToSchema)]
pub struct StateCounts {
    pub queued: i64,
    pub processing: i64,
    pub ready: i64,
    pub failed: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AdminPhotoList {
    pub photos: Vec<AdminPhoto>,
    pub total: i64,
    pub page: u32,
    pub page_size: i64,
    pub counts: StateCounts,
}

/// The event's photos in upload order, 60 a page, with how many are in each state.
#[utoipa::path(operation_id = "admin_photos_list", get, path = "/api/admin/events/{event_key}/photos", tag = "console",
    params(("event_key" = String, Path), PhotoQuery),
    responses((status = 200, body = AdminPhotoList), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer)))]
pub async fn list(
    State(state): State<AppState>,
    session: Session,
    Path(event_key): Path<String>,
    ApiQuery(q): ApiQuery<PhotoQuery>,
) -> ShopResult<Json<AdminPhotoList>> {
    let (key, event) = event_for(&state, &session, &event_key).await?;
    let filter = q
        .state
        .as_deref()
        .filter(|s| !s.is_empty())
        .map(|s| {
            PhotoState::parse(s).ok_or_else(|| {
                ShopError::field("state", "must be queued, processing, ready or failed")
            })
        })
        .transpose()?;
    let page = q.page.unwrap_or(1).max(1);
    let (rows, total) = state
        .store
        .list_photos(event.id, filter, i64::from(page - 1) * PAGE_SIZE, PAGE_SIZE)
        .await?;
    let mut counts = StateCounts::default();
    for (s, n) in state.store.photo_state_counts(event.id).await? {
        match s {
            PhotoState::Queued => counts.queued = n,
            PhotoState::Processing => counts.processing = n,
            PhotoState::Ready => counts.ready = n,
            PhotoState::Failed => counts.failed = n,
        }
    }
    let ids: Vec<i64> = rows.iter().map(|p| p.id).collect();
    let bibs = state.store.bibs_of_photos(&ids).await?;
    let photos = rows
        .into_iter()
        .map(|p| {
            let ready = p.state == PhotoState::Ready;
            let bibs = bibs
                .iter()
                .filter(|b| b.photo_id == p.id)
                .map(|b| AdminBib {
                    bib: b.bib.to_string(),
                    source: b.source.into(),
                    confidence: b.confidence,
                })
                .collect();
            AdminPhoto {
                thumbnail_url: ready
                    .then(|| derived_address(&state.media_url, &key, "thumbnail", &p.storage_name)),
                id: p.id,
                original_file_name: p.original_file_name,
                state: p.state.as_str().to_owned(),
                failure_reason: p.failure_reason,
                face_count: p.face_count,
                hidden: p.hidden,
                highlight: p.highlight,
                bibs,
            }
        })
        .collect();
    Ok(Json(AdminPhotoList {
        photos,
        total,
        page,
        page_size: PAGE_SIZE,
        counts,
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PhotoFlags {
    pub hidden: Option<bool>,
    pub highlight: Option<bool>,
}

async fn owned_photo(
    state: &AppState,
    session: &Session,
    photo_id: i64,
) -> ShopResult<raceshot_store::photos::PhotoOwner> {
    let owner = state.store.photo_owner(photo_id).await?.ok_or_else(|| {
        session.or_forbidden(ShopError::new(ErrorCode::ImageNotFound, "no such photo"))
    })?;
    session.require_event(state, owner.event_id).await?;
    Ok(owner)
}

/// Hides or shows a photo in the shop, and makes it a highlight of its event or not. A
/// photo an approved privacy request hides cannot be shown again (409 `privacy_hold`).
#[utoipa::path(operation_id = "admin_photos_moderate", post, path = "/api/admin/photos/{photo_id}", tag = "console",
    params(("photo_id" = i64, Path)), request_body = PhotoFlags,
    responses((status = 204, description = "Done"), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer)))]
pub async fn moderate(
    State(state): State<AppState>,
    session: Session,
    ApiPath(photo_id): ApiPath<i64>,
    ApiJson(flags): ApiJson<PhotoFlags>,
) -> ShopResult<StatusCode> {
    let owner = owned_photo(&state, &session, photo_id).await?;
    if flags.hidden == Some(false) && state.store.photo_privacy_held(photo_id).await? {
        return Err(ShopError::new(
            ErrorCode::PrivacyHold,
            "the photo shows someone who asked to hide their photos",
        ));
    }
    let now = state.now();
    state
        .store
        .set_photo_flags(photo_id, flags.hidden, flags.highlight, now)
        .await?;
    let detail = serde_json::json!({ "hidden": flags.hidden, "highlight": flags.highlight });
    state
        .store
        .audit(
            &session.actor(),
            "photo.moderate",
            &format!("photo:{photo_id}@{}", owner.event_key),
            &detail,
            now,
        )
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct BibCorrection {
    /// A bib of the event's rule, as typed.
    pub bib: String,
    /// `true` puts the bib on the photo, `false` takes it off; either wins over reading.
    pub present: bool,
}

/// Puts a bib number on a photo or takes one off: operators' corrections win over what
/// reading found, and stay when the photo is read again.
#[utoipa::path(operation_id = "admin_photos_bib", post, path = "/api/admin/photos/{photo_id}/bibs", tag = "console",
    params(("photo_id" = i64, Path)), request_body = BibCorrection,
    responses((status = 204, description = "Done"), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer),
        (status = 422, response = ErrorAnswer)))]
pub async fn correct_bib(
    State(state): State<AppState>,
    session: Session,
    ApiPath(photo_id): ApiPath<i64>,
    // Read as JSON, checked as a correction only once the operator may touch the photo.
    ApiJson(body): ApiJson<serde_json::Value>,
) -> ShopResult<StatusCode> {
    let owner = owned_photo(&state, &session, photo_id).await?;
    let req: BibCorrection = parse_json(body.to_string().as_bytes())?;
    let event = state
        .store
        .any_event_by_key(&owner.event_key)
        .await?
        .ok_or_else(|| ShopError::new(ErrorCode::EventNotFound, "no such event"))?;
    let bib = crate::services::bibs::parse_query(&event.spec.bib_rule, &req.bib)?;
    let now = state.now();
    let actor = session.actor();
    state
        .store
        .correct_bib(photo_id, owner.event_id, &bib, req.present, &actor, now)
        .await?;
    let detail = serde_json::json!({ "bib": bib.as_str(), "present": req.present });
    state
        .store
        .audit(
            &actor,
            "photo.bib",
            &format!("photo:{photo_id}@{}", owner.event_key),
            &detail,
            now,
        )
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Deletes a photo and its files; a photo in an order is kept (hide it instead).
#[utoipa::path(operation_id = "admin_photos_delete", delete, path = "/api/admin/photos/{photo_id}", tag = "console",
    params(("photo_id" = i64, Path)),
    responses((status = 204, description = "Deleted"), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer), (status = 409, response = ErrorAnswer)))]
pub async fn delete(
    State(state): State<AppState>,
    session: Session,
    ApiPath(photo_id): ApiPath<i64>,
) -> ShopResult<StatusCode> {
    owned_photo(&state, &session, photo_id).await?;
    let owner = match state.store.delete_photo(photo_id).await? {
        Deleted::Removed(owner) => owner,
        Deleted::Sold => {
            return Err(ShopError::new(
                ErrorCode::PhotoSold,
                "the photo is in an order; hide it instead",
            ));
        }
        Deleted::Missing => return Err(ShopError::new(ErrorCode::ImageNotFound, "no such photo")),
    };
    let key = &owner.event_key;
    let derived = derived_name(owner.storage_name.as_str());
    for (kind, name) in [
        (ObjectKind::Original, owner.storage_name.as_str()),
        (ObjectKind::Preview, derived.as_str()),
        (ObjectKind::Thumbnail, derived.as_str()),
    ] {
        if let Some(name) = StoredName::parse(name) {
            // The row is gone already: a file left behind is only wasted space.
            if let Err(e) = state
                .objects
                .delete(&ObjectKey::new(key, kind, &name))
                .await
            {
                tracing::warn!(photo_id, error = %e, "photo file not deleted");
            }
        }
    }
    state
        .store
        .audit(
            &session.actor(),
            "photo.delete",
            &format!("photo:{photo_id}@{}", owner.event_key),
            &serde_json::json!({}),
            state.now(),
        )
        .await?;
    Ok(StatusCode::NO_CONTENT)
}
