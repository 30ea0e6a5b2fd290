//! Public photo files: previews and thumbnails (both watermarked or small) and event logos,
//! served from object storage by content-addressed name. Originals are never served here.

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use raceshot_domain::EventKey;
use raceshot_store::{ObjectKey, ObjectKind, StoredName};

use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::jobs::ingest_photo::derived_name;
use crate::state::AppState;

/// The public address of a photo's preview or thumbnail (`kind`): JPEGs named after the
/// photo's stored name, whatever the original's format.
pub fn derived_address(media_url: &str, event_key: &str, kind: &str, storage_name: &str) -> String {
    format!(
        "{media_url}/{event_key}/{kind}/{}",
        derived_name(storage_name)
    )
}

/// The content type of a stored picture, by its name (stored pictures are JPEG or PNG).
pub fn image_type(name: &str) -> &'static str {
    if name.ends_with(".png") {
        "image/png"
    } else {
        "image/jpeg"
    }
}

pub async fn media(
    State(state): State<AppState>,
    Path((event_key, kind, name)): Path<(String, String, String)>,
) -> ApiResult<Response> {
    let not_found = || ApiError::new(ErrorCode::NotFound, "no such file");
    let key = EventKey::parse(&event_key).map_err(|_| not_found())?;
    let kind = ObjectKind::parse(&kind)
        .filter(|k| {
            matches!(
                k,
                ObjectKind::Preview | ObjectKind::Thumbnail | ObjectKind::Logo
            )
        })
        .ok_or_else(not_found)?;
    let name = StoredName::parse(&name).ok_or_else(not_found)?;
    let bytes = state
        .objects
        .get(&ObjectKey::new(&key, kind, &name))
        .await?;
    let content_type = image_type(name.as_str());
    Ok((
        [
            (header::CONTENT_TYPE, content_type),
            // Names are content hashes: a name never points at other bytes.
            (header::CACHE_CONTROL, "public, max-age=31536000, immutable"),
        ],
        bytes,
    )
        .into_response())
}
