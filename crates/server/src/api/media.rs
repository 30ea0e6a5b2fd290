//! Public photo files: previews and thumbnails (both watermarked or small, served while
//! their photo is shown), event logos and sponsor frames, from object storage by
//! content-addressed name. Originals are never served here.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use raceshot_domain::EventKey;
use raceshot_store::{ObjectKey, ObjectKind, StoredName};

use super::admin::auth::Session;
use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError, ShopResult};
use crate::services::photos::derived_name;

/// The public address of a photo's preview or thumbnail (`kind`): JPEGs named after the
/// photo's stored name, whatever the original's format.
pub fn derived_address(
    media_url: &str,
    event_key: &EventKey,
    kind: &str,
    storage_name: &str,
) -> String {
    format!(
        "{media_url}/{event_key}/{kind}/{}",
        derived_name(storage_name)
    )
}

/// The public address of an event's sponsor frame (a PNG named after its content).
pub fn frame_address(media_url: &str, event_key: &EventKey, name: &StoredName) -> String {
    format!("{media_url}/{event_key}/frame/{name}")
}

/// The content type of a stored picture, by its name (stored pictures are JPEG or PNG).
pub fn image_type(name: &str) -> &'static str {
    if name.ends_with(".png") {
        "image/png"
    } else {
        "image/jpeg"
    }
}

/// Previews and thumbnails of a hidden or deleted photo answer 404 at once, so they are
/// only ever cached with a check back here (`no-cache`, answered 304 while unchanged):
/// hiding a photo withdraws it. Signed-in operators still see hidden ones (moderation).
pub async fn media(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path((event_key, kind, name)): Path<(String, String, String)>,
) -> ShopResult<Response> {
    let not_found = || ShopError::new(ErrorCode::NotFound, "no such file");
    let key = EventKey::parse(&event_key).map_err(|_| not_found())?;
    let kind = ObjectKind::parse(&kind)
        .filter(|k| {
            matches!(
                k,
                ObjectKind::Preview | ObjectKind::Thumbnail | ObjectKind::Logo | ObjectKind::Frame
            )
        })
        .ok_or_else(not_found)?;
    let name = StoredName::parse(&name).ok_or_else(not_found)?;
    let mut cache = "public, no-cache";
    if matches!(kind, ObjectKind::Preview | ObjectKind::Thumbnail) {
        let stem = name
            .as_str()
            .rsplit_once('.')
            .map_or(name.as_str(), |(s, _)| s);
        match state.store.photo_shown_by_stem(&key, stem).await? {
            Some(true) => {}
            Some(false) if Session::of(&state, &headers).await?.is_some() => {
                cache = "private, no-store";
            }
            _ => return Err(not_found()),
        }
    }
    // Names are content hashes: the name is the version.
    let etag = format!("\"{}\"", name.as_str());
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| tags.split(',').any(|t| t.trim() == etag));
    if fresh {
        return Ok((
            StatusCode::NOT_MODIFIED,
            [
                (header::ETAG, etag),
                (header::CACHE_CONTROL, cache.to_owned()),
            ],
        )
            .into_response());
    }
    let bytes = state
        .objects
        .get(&ObjectKey::new(&key, kind, &name))
        .await?;
    Ok((
        [
            (header::CONTENT_TYPE, image_type(name.as_str()).to_owned()),
            (header::CACHE_CONTROL, cache.to_owned()),
            (header::ETAG, etag),
        ],
        bytes,
    )
        .into_response())
}
