//! Privacy requests in the console: the requests with the photos each matches (or holds,
//! once approved) and, until the decision, the picture of the requester's face to compare
//! them with; an admin's approval or rejection (`crate::services::privacy`). Admins only: they are
//! the operators with a right to every event, and the face picture is served to nobody
//! else, never cached (`no-store`). The service's errors answer by the `From<PrivacyError>`
//! impl in `api/privacy.rs`.

use axum::Json;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use raceshot_domain::time::format_bangkok;
use raceshot_store::privacy::{PrivacyRequest, PrivacyState};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::auth::Admin;
use crate::api::error::ErrorAnswer;
use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::media::derived_address;
use crate::app::state::AppState;
use crate::error::{ErrorCode, OrMissing, ShopError, ShopResult};
use crate::services::privacy::{self, Contact};

/// Requests listed at once, newest first.
const LIST_LIMIT: i64 = 200;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PrivacyQuery {
    /// `pending`, `approved` or `rejected`; all when absent.
    pub state: Option<String>,
}

/// A photo a request matches or holds.
#[derive(Debug, Serialize, ToSchema)]
pub struct PrivacyPhoto {
    pub photo_id: i64,
    pub thumbnail_url: String,
    /// Similarity to the request's face, while it is pending.
    pub similarity: Option<f32>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AdminPrivacyRequest {
    pub request_id: String,
    pub event_key: String,
    pub event_title: String,
    /// Masked: the requester is told by the shop, not by an operator.
    pub contact: String,
    /// `pending`, `approved` or `rejected`.
    pub state: String,
    /// RFC 3339, Bangkok time.
    pub created_at: String,
    pub decided_at: Option<String>,
    pub decided_by: Option<String>,
    /// Whether the requester has been told of the decision.
    pub notified: bool,
    /// The requester's face as the selfie showed it (a small crop), to compare with the
    /// photos: the console's address of the picture, while the request is pending.
    pub face_url: Option<String>,
    /// Pending: the event's photos showing the face; approved: those it hides.
    pub photos: Vec<PrivacyPhoto>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AdminPrivacyList {
    pub requests: Vec<AdminPrivacyRequest>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PrivacyApproved {
    /// Photos hidden by this approval.
    pub photos_hidden: usize,
}

fn instant(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(format_bangkok)
        .unwrap_or_default()
}

async fn shown(state: &AppState, r: PrivacyRequest) -> ShopResult<AdminPrivacyRequest> {
    let photos: Vec<(i64, Option<f32>)> = match r.state {
        PrivacyState::Pending => privacy::matches(&state.privacy(), &r)
            .await?
            .into_iter()
            .map(|(id, s)| (id, Some(s)))
            .collect(),
        PrivacyState::Approved => state
            .store
            .privacy_held_photos(&r.id)
            .await?
            .into_iter()
            .map(|id| (id, None))
            .collect(),
        PrivacyState::Rejected => Vec::new(),
    };
    let ids: Vec<i64> = photos.iter().map(|(id, _)| *id).collect();
    let owners: std::collections::HashMap<i64, _> =
        state.store.photo_owners(&ids).await?.into_iter().collect();
    let shown = photos
        .into_iter()
        .filter_map(|(photo_id, similarity)| {
            let owner = owners.get(&photo_id)?;
            Some(PrivacyPhoto {
                photo_id,
                thumbnail_url: derived_address(
                    &state.media_url,
                    &owner.event_key,
                    "thumbnail",
                    owner.storage_name.as_str(),
                ),
                similarity,
            })
        })
        .collect();
    let face_url = r
        .face_crop
        .is_some()
        .then(|| format!("/api/admin/privacy/requests/{}/face", r.id));
    Ok(AdminPrivacyRequest {
        request_id: r.id,
        event_key: r.event_key.to_string(),
        event_title: r.event_title,
        contact: Contact::masked(&r.contact),
        state: r.state.as_str().to_owned(),
        created_at: instant(r.created_at),
        decided_at: r.decided_at.map(instant),
        decided_by: r.decided_by,
        notified: r.notified,
        face_url,
        photos: shown,
    })
}

/// Requests to hide one's photos, newest first, with the photos each concerns.
#[utoipa::path(operation_id = "admin_privacy_list", get, path = "/api/admin/privacy/requests", tag = "console",
    params(PrivacyQuery),
    responses((status = 200, body = AdminPrivacyList), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 422, response = ErrorAnswer)))]
pub async fn list(
    State(state): State<AppState>,
    _admin: Admin,
    ApiQuery(q): ApiQuery<PrivacyQuery>,
) -> ShopResult<Json<AdminPrivacyList>> {
    let filter = q
        .state
        .as_deref()
        .filter(|s| !s.is_empty())
        .map(|s| {
            PrivacyState::parse(s)
                .ok_or_else(|| ShopError::field("state", "must be pending, approved or rejected"))
        })
        .transpose()?;
    let mut requests = Vec::new();
    for r in state.store.privacy_requests(filter, LIST_LIMIT).await? {
        requests.push(shown(&state, r).await?);
    }
    Ok(Json(AdminPrivacyList { requests }))
}

/// Approves a pending request: every photo of the event showing the face is hidden, now
/// and when ingested later; the requester is told.
#[utoipa::path(operation_id = "admin_privacy_approve", post, path = "/api/admin/privacy/requests/{request_id}/approve", tag = "console",
    params(("request_id" = String, Path)),
    responses((status = 200, body = PrivacyApproved), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer),
        (status = 409, response = ErrorAnswer)))]
pub async fn approve(
    State(state): State<AppState>,
    admin: Admin,
    ApiPath(request_id): ApiPath<String>,
) -> ShopResult<Json<PrivacyApproved>> {
    let hidden = privacy::approve(&state.privacy(), &request_id, &admin.0.actor()).await?;
    Ok(Json(PrivacyApproved {
        photos_hidden: hidden.len(),
    }))
}

/// Rejects a pending request: its face template is deleted; the requester is told.
#[utoipa::path(operation_id = "admin_privacy_reject", post, path = "/api/admin/privacy/requests/{request_id}/reject", tag = "console",
    params(("request_id" = String, Path)),
    responses((status = 204, description = "Rejected"), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer),
        (status = 409, response = ErrorAnswer)))]
pub async fn reject(
    State(state): State<AppState>,
    admin: Admin,
    ApiPath(request_id): ApiPath<String>,
) -> ShopResult<StatusCode> {
    privacy::reject(&state.privacy(), &request_id, &admin.0.actor()).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The requester's face, cut from the selfie (a JPEG, at most 256 px), while the request is
/// pending; deleted at the decision. Never cached.
#[utoipa::path(operation_id = "admin_privacy_face", get, path = "/api/admin/privacy/requests/{request_id}/face", tag = "console",
    params(("request_id" = String, Path)),
    responses((status = 200, description = "The JPEG", content_type = "image/jpeg"),
        (status = 401, response = ErrorAnswer), (status = 403, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer)))]
pub async fn face(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath(request_id): ApiPath<String>,
) -> ShopResult<Response> {
    let not_found = || ShopError::new(ErrorCode::NotFound, "no face picture for this request");
    let key = state
        .store
        .privacy_request(&request_id)
        .await?
        .and_then(|r| r.face_crop)
        .and_then(|name| privacy::face_crop_key(&name))
        .ok_or_else(not_found)?;
    let bytes = state.objects.get(&key).await.or_missing(not_found)?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/jpeg"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        bytes,
    )
        .into_response())
}
