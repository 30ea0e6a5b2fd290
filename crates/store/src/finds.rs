//! What searches answered: for each face, bib or group search that found photos, the
//! photo ids under a hash of the reference handed to the searcher, until a short expiry.
//! The all-photos deal covers only these photos (a visitor takes "all photos of me", not
//! any photos at the deal's price). Photo ids only: nothing biometric is kept. Every
//! replica reads the same rows, so a search on one and an order on another agree.

use chrono::{DateTime, Utc};

use crate::macros::on_pool;
use crate::{Result, Store, millis};

impl Store {
    /// Records that a search answered `photo_ids` of the event, under `id` (a hash of the
    /// reference the searcher holds), until `expires_at`.
    pub async fn remember_found(
        &self,
        id: &str,
        event_id: i64,
        photo_ids: &[i64],
        expires_at: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let ids = photo_ids
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(",");
        on_pool!(self, pool => sqlx::query(
            "INSERT INTO search_finds (id, event_id, photo_ids, expires_at, created_at) \
             VALUES ($1, $2, $3, $4, $5)")
            .bind(id).bind(event_id).bind(&ids).bind(millis(expires_at)).bind(millis(now))
            .execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// The photos the searches named by `ids` answered for the event, while they last;
    /// repeats included. Unknown, expired and other events' searches add nothing.
    pub async fn found_photos(
        &self,
        event_id: i64,
        ids: &[String],
        now: DateTime<Utc>,
    ) -> Result<Vec<i64>> {
        let mut photos = Vec::new();
        for id in ids {
            let row: Option<(String,)> = on_pool!(self, pool => sqlx::query_as(
                "SELECT photo_ids FROM search_finds \
                 WHERE id = $1 AND event_id = $2 AND expires_at > $3")
                .bind(id).bind(event_id).bind(millis(now)).fetch_optional(pool).await)?;
            if let Some((list,)) = row {
                photos.extend(list.split(',').filter_map(|p| p.parse::<i64>().ok()));
            }
        }
        Ok(photos)
    }

    /// Deletes what searches answered before `now`'s expiry; answers how many.
    pub async fn forget_finds_before(&self, now: DateTime<Utc>) -> Result<u64> {
        Ok(on_pool!(self, pool => sqlx::query(
            "DELETE FROM search_finds WHERE expires_at <= $1")
            .bind(millis(now)).execute(pool).await.map(|r| r.rows_affected()))?)
    }
}
