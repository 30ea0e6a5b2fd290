//! Photos of events, as the shop reads them.

use raceshot_domain::EventKey;

use sqlx::AssertSqlSafe;

use crate::macros::on_pool;
use crate::{Result, Store};

/// A photo as the shop shows it; `storage_name` names its objects under the event's key.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Photo {
    pub id: i64,
    pub event_id: i64,
    pub event_key: String,
    pub original_file_name: String,
    pub storage_name: String,
    pub photographer_id: i64,
}

const PHOTO_COLUMNS: &str =
    "p.id, p.event_id, e.event_key, p.original_file_name, p.storage_name, p.photographer_id";

impl Store {
    /// The key of the event a photo belongs to, if the photo exists and is shown.
    pub async fn event_key_of_photo(&self, photo_id: i64) -> Result<Option<EventKey>> {
        let key: Option<(String,)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT e.event_key FROM photos p JOIN events e ON e.id = p.event_id \
             WHERE p.id = $1 AND NOT p.hidden AND e.visible")
            .bind(photo_id).fetch_optional(pool).await)?;
        Ok(key.and_then(|(k,)| EventKey::parse(&k).ok()))
    }

    /// The photos an event page shows before any search: those an operator chose, else an
    /// even spread over the event's ready photos.
    pub async fn highlight_photos(&self, event_id: i64, limit: i64) -> Result<Vec<Photo>> {
        let base = format!(
            "SELECT {PHOTO_COLUMNS} FROM photos p JOIN events e ON e.id = p.event_id \
             WHERE p.event_id = $1 AND p.state = 'ready' AND NOT p.hidden"
        );
        let chosen = format!("{base} AND p.highlight ORDER BY p.id LIMIT $2");
        let photos: Vec<Photo> = on_pool!(self, pool =>
            sqlx::query_as(AssertSqlSafe(chosen.clone())).bind(event_id).bind(limit).fetch_all(pool).await)?;
        if !photos.is_empty() {
            return Ok(photos);
        }
        // A multiplicative hash of the id scatters the pick over the whole event.
        let spread = format!("{base} ORDER BY (p.id * 2654435761) % 4294967291 LIMIT $2");
        Ok(on_pool!(self, pool =>
            sqlx::query_as(AssertSqlSafe(spread.clone())).bind(event_id).bind(limit).fetch_all(pool).await)?)
    }
}
