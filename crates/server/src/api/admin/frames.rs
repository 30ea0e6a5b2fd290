//! An event's sponsor frame in the console (admins only): upload one (a PNG with
//! transparency or an SVG, up to 8 MB; kept as a PNG), choose whether sold photos get a
//! framed copy too, or take it off. Every change is audited. The rules are in
//! `crate::services::frames`.

use axum::Json;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use raceshot_store::audit::event_target;
use raceshot_store::events::Event;
use raceshot_store::frames::EventFrame;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::auth::Admin;
use super::results::event_of;
use crate::api::error::{ErrorAnswer, ErrorBody};
use crate::api::extract::{ApiJson, ApiPath, capped_body, content_type_is};
use crate::api::media::frame_address;
use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError, ShopResult};
use crate::infra::framing::FrameError;
use crate::services::frames::{self, FramesError};

/// An upload larger than this is refused before it is read whole.
const MAX_FRAME_BYTES: usize = 8 * 1024 * 1024;

/// The event's frame, or none.
#[derive(Debug, Serialize, ToSchema)]
pub struct FrameBody {
    /// The frame as kept (a PNG), where the shop's pages load it; absent without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame_url: Option<String>,
    /// Sold photos get a framed copy beside the original and the logo copy.
    pub on_sold: bool,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct FrameInput {
    pub on_sold: bool,
}

fn body(state: &AppState, event: &Event, frame: Option<&EventFrame>) -> FrameBody {
    FrameBody {
        frame_url: frame.map(|f| frame_address(&state.media_url, &event.spec.key, &f.name)),
        on_sold: frame.is_some_and(|f| f.on_sold),
    }
}

async fn audit(
    state: &AppState,
    admin: &Admin,
    event: &Event,
    action: &str,
    detail: serde_json::Value,
) -> ShopResult<()> {
    state
        .store
        .audit(
            &admin.0.actor(),
            action,
            &event_target(&event.spec.key),
            &detail,
            state.now(),
        )
        .await?;
    Ok(())
}

/// The event's frame.
#[utoipa::path(operation_id = "admin_frame_get", get, path = "/api/admin/events/{event_key}/frame", tag = "console",
    params(("event_key" = String, Path)),
    responses((status = 200, body = FrameBody), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer)))]
pub async fn get(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath(event_key): ApiPath<String>,
) -> ShopResult<Json<FrameBody>> {
    let event = event_of(&state, &event_key).await?;
    let frame = state.store.event_frame(event.id).await?;
    Ok(Json(body(&state, &event, frame.as_ref())))
}

/// Makes an upload the event's frame: a PNG with transparency (up to 4096 × 4096 pixels)
/// or an SVG (drawn 3000 pixels on its long side with the shop's fonts), see-through
/// over at least 40% of its area. Whether sold photos carry it stays as it was.
#[utoipa::path(operation_id = "admin_frame_put", put, path = "/api/admin/events/{event_key}/frame", tag = "console",
    params(("event_key" = String, Path)),
    request_body(content = Vec<u8>, content_type = "image/png"),
    responses((status = 200, body = FrameBody), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer),
        (status = 413, description = "Over 8 MB", body = ErrorBody), (status = 415, response = ErrorAnswer),
        (status = 422, response = ErrorAnswer), (status = 503, response = ErrorAnswer)))]
pub async fn put(
    State(state): State<AppState>,
    admin: Admin,
    ApiPath(event_key): ApiPath<String>,
    headers: HeaderMap,
    upload: Body,
) -> ShopResult<Json<FrameBody>> {
    if !content_type_is(&headers, &["image/png", "image/svg+xml"]) {
        return Err(ShopError::new(
            ErrorCode::UnsupportedMediaType,
            "send the frame as image/png or image/svg+xml",
        ));
    }
    let event = event_of(&state, &event_key).await?;
    let bytes = capped_body(upload, MAX_FRAME_BYTES, "frames up to 8 MB are accepted").await?;
    let frame = frames::put_frame(
        &state.store,
        &state.objects,
        &state.cpu,
        state.fonts.as_ref(),
        (event.id, &event.spec.key),
        bytes,
        state.now(),
    )
    .await
    .map_err(refused)?;
    // The event answer names the frame.
    state.catalogue.invalidate();
    audit(
        &state,
        &admin,
        &event,
        "frame.upload",
        serde_json::json!({ "frame": frame.name.as_str() }),
    )
    .await?;
    Ok(Json(body(&state, &event, Some(&frame))))
}

/// Chooses whether sold photos get a framed copy too.
#[utoipa::path(operation_id = "admin_frame_settings", put, path = "/api/admin/events/{event_key}/frame/settings", tag = "console",
    params(("event_key" = String, Path)),
    request_body = FrameInput,
    responses((status = 200, body = FrameBody), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer),
        (status = 422, response = ErrorAnswer)))]
pub async fn settings(
    State(state): State<AppState>,
    admin: Admin,
    ApiPath(event_key): ApiPath<String>,
    ApiJson(input): ApiJson<FrameInput>,
) -> ShopResult<Json<FrameBody>> {
    let event = event_of(&state, &event_key).await?;
    let frame = state
        .store
        .set_frame_on_sold(event.id, input.on_sold, state.now())
        .await?
        .ok_or_else(|| ShopError::new(ErrorCode::NotFound, "the event has no frame"))?;
    audit(
        &state,
        &admin,
        &event,
        "frame.settings",
        serde_json::json!({ "on_sold": input.on_sold }),
    )
    .await?;
    Ok(Json(body(&state, &event, Some(&frame))))
}

/// Takes the event's frame off: new orders and free downloads come without it; orders
/// already made keep theirs.
#[utoipa::path(operation_id = "admin_frame_delete", delete, path = "/api/admin/events/{event_key}/frame", tag = "console",
    params(("event_key" = String, Path)),
    responses((status = 204, description = "Taken off (or there was none)"), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer)))]
pub async fn delete(
    State(state): State<AppState>,
    admin: Admin,
    ApiPath(event_key): ApiPath<String>,
) -> ShopResult<StatusCode> {
    let event = event_of(&state, &event_key).await?;
    if state.store.remove_event_frame(event.id).await? {
        state.catalogue.invalidate();
        audit(
            &state,
            &admin,
            &event,
            "frame.remove",
            serde_json::json!({}),
        )
        .await?;
    }
    Ok(StatusCode::NO_CONTENT)
}

/// What a refused upload answers.
fn refused(e: FramesError) -> ShopError {
    match e {
        FramesError::Picture(picture) => {
            let code = match &picture {
                FrameError::NotAFrame => ErrorCode::UnsupportedImageType,
                FrameError::TooManyPixels => ErrorCode::ImageTooManyPixels,
                FrameError::Unreadable(_) => ErrorCode::UnreadableImage,
                FrameError::Opaque => ErrorCode::FrameNotTransparent,
                FrameError::NoFonts => return ShopError::unavailable(picture),
            };
            ShopError::new(code, picture.to_string())
        }
        other => ShopError::internal(other),
    }
}
