//! Photo passes (`0021_photo_passes.sql`): batches of codes an operator makes for an event,
//! each kept as the SHA-256 of its code and redeemed at most once.

use chrono::{DateTime, Utc};
use raceshot_domain::pass::PassCover;

use crate::macros::{in_tx, on_pool};
use crate::{Result, Store, StoreError, millis};

/// A pass as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredPass {
    pub id: i64,
    pub event_id: i64,
    pub batch: String,
    pub cover: PassCover,
    /// The order it paid, once redeemed.
    pub order_id: Option<i64>,
    pub redeemed: bool,
}

/// One batch of an event's passes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PassBatch {
    pub batch: String,
    pub cover: PassCover,
    pub count: i64,
    pub redeemed: i64,
    pub created_at: DateTime<Utc>,
}

fn cover(photos: Option<i64>) -> Result<PassCover> {
    let photos = photos
        .map(u32::try_from)
        .transpose()
        .map_err(|_| StoreError::Corrupt("a pass's photo count".to_owned()))?;
    PassCover::from_photos(photos)
        .ok_or_else(|| StoreError::Corrupt("a pass's photo count".to_owned()))
}

#[derive(sqlx::FromRow)]
struct PassRow {
    id: i64,
    event_id: i64,
    batch: String,
    photos: Option<i64>,
    order_id: Option<i64>,
    redeemed_at: Option<i64>,
}

#[derive(sqlx::FromRow)]
struct BatchRow {
    batch: String,
    photos: Option<i64>,
    count: i64,
    redeemed: i64,
    created_at: i64,
}

impl Store {
    /// Adds a batch of passes of `event_id`, one per code hash, all covering `cover`, in one
    /// transaction (a hash already taken fails the whole batch).
    pub async fn add_passes(
        &self,
        event_id: i64,
        batch: &str,
        code_hashes: &[String],
        cover: PassCover,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let photos = cover.photos().map(i64::from);
        in_tx!(self, tx => {
            for hash in code_hashes {
                sqlx::query(
                    "INSERT INTO photo_passes (event_id, batch, code_hash, photos, created_at) \
                     VALUES ($1, $2, $3, $4, $5)")
                    .bind(event_id).bind(batch).bind(hash).bind(photos).bind(millis(now))
                    .execute(&mut *tx).await?;
            }
            Ok(())
        })
    }

    /// The pass whose code hashes to `code_hash`, if any.
    pub async fn pass_by_hash(&self, code_hash: &str) -> Result<Option<StoredPass>> {
        let row: Option<PassRow> = on_pool!(self, pool => sqlx::query_as(
            "SELECT id, event_id, batch, photos, order_id, redeemed_at FROM photo_passes \
             WHERE code_hash = $1")
            .bind(code_hash).fetch_optional(pool).await)?;
        row.map(|r| {
            Ok(StoredPass {
                id: r.id,
                event_id: r.event_id,
                batch: r.batch,
                cover: cover(r.photos)?,
                order_id: r.order_id,
                redeemed: r.redeemed_at.is_some(),
            })
        })
        .transpose()
    }

    /// The event's batches of passes, oldest first, with how many of each were redeemed.
    pub async fn pass_batches(&self, event_id: i64) -> Result<Vec<PassBatch>> {
        let rows: Vec<BatchRow> = on_pool!(self, pool => sqlx::query_as(
            "SELECT batch, MIN(photos) AS photos, COUNT(*) AS count, \
                COUNT(redeemed_at) AS redeemed, MIN(created_at) AS created_at \
             FROM photo_passes WHERE event_id = $1 GROUP BY batch ORDER BY MIN(id)")
            .bind(event_id).fetch_all(pool).await)?;
        rows.into_iter()
            .map(|r| {
                Ok(PassBatch {
                    cover: cover(r.photos)?,
                    batch: r.batch,
                    count: r.count,
                    redeemed: r.redeemed,
                    created_at: DateTime::from_timestamp_millis(r.created_at)
                        .ok_or_else(|| StoreError::Corrupt("a pass batch's time".to_owned()))?,
                })
            })
            .collect()
    }
}
