//! Race day in numbers: photos received (`photos.created_at`), photos that became
//! searchable (`photos.ready_at`, set once) and face searches (`search_counts`, per event
//! and five minutes), counted per time bucket for the console's race-day view; and how
//! many photos of an event became searchable since a moment, for the event page.

use chrono::{DateTime, Utc};

use crate::macros::{on_pool, rows_with_ids};
use crate::{Result, Store, millis};

/// Face searches are counted per this many milliseconds (five minutes).
pub const SEARCH_BUCKET_MS: i64 = 5 * 60 * 1000;

/// Photos of one event received by one photographer in one bucket.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ReceivedCount {
    pub event_id: i64,
    /// The bucket's start, Unix milliseconds.
    pub bucket: i64,
    /// The operator who uploaded them (0: `raceshot ingest` or another way).
    pub photographer_id: i64,
    pub photos: i64,
}

/// Photos of one event that became searchable, or its face searches, in one bucket.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct BucketCount {
    pub event_id: i64,
    /// The bucket's start, Unix milliseconds.
    pub bucket: i64,
    pub count: i64,
}

impl Store {
    /// Counts one face search of the event: in its total and in the current five minutes.
    pub async fn count_search(&self, event_id: i64, now: DateTime<Utc>) -> Result<()> {
        let bucket = millis(now) / SEARCH_BUCKET_MS * SEARCH_BUCKET_MS;
        on_pool!(self, pool => sqlx::query(
            "INSERT INTO event_searches (event_id, searches) VALUES ($1, 1) \
             ON CONFLICT (event_id) DO UPDATE SET searches = event_searches.searches + 1")
            .bind(event_id).execute(pool).await.map(|_| ()))?;
        on_pool!(self, pool => sqlx::query(
            "INSERT INTO search_counts (event_id, bucket, searches) VALUES ($1, $2, 1) \
             ON CONFLICT (event_id, bucket) DO UPDATE SET searches = search_counts.searches + 1")
            .bind(event_id).bind(bucket).execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// Deletes search counts of buckets that started before `before`; answers how many.
    pub async fn forget_search_counts_before(&self, before: DateTime<Utc>) -> Result<u64> {
        Ok(on_pool!(self, pool => sqlx::query(
            "DELETE FROM search_counts WHERE bucket < $1")
            .bind(millis(before)).execute(pool).await.map(|r| r.rows_affected()))?)
    }

    /// Photos of the events `event_ids` received since `since`, per bucket of `bucket_ms`
    /// (aligned on the Unix epoch) and photographer.
    pub async fn received_per_bucket(
        &self,
        event_ids: &[i64],
        since: DateTime<Utc>,
        bucket_ms: i64,
    ) -> Result<Vec<ReceivedCount>> {
        Ok(rows_with_ids!(
            self,
            event_ids,
            [millis(since), bucket_ms],
            |list| format!(
                "SELECT event_id, created_at / $2 * $2 AS bucket, photographer_id, COUNT(*) AS photos \
             FROM photos WHERE created_at >= $1 AND event_id IN ({list}) \
             GROUP BY event_id, created_at / $2 * $2, photographer_id"
            )
        ))
    }

    /// Photos of the events `event_ids` that became searchable since `since`, per bucket.
    pub async fn searchable_per_bucket(
        &self,
        event_ids: &[i64],
        since: DateTime<Utc>,
        bucket_ms: i64,
    ) -> Result<Vec<BucketCount>> {
        Ok(rows_with_ids!(
            self,
            event_ids,
            [millis(since), bucket_ms],
            |list| format!(
                "SELECT event_id, ready_at / $2 * $2 AS bucket, COUNT(*) AS count \
             FROM photos WHERE ready_at >= $1 AND event_id IN ({list}) \
             GROUP BY event_id, ready_at / $2 * $2"
            )
        ))
    }

    /// Face searches of the events `event_ids` since `since`, per bucket (a multiple of
    /// [`SEARCH_BUCKET_MS`]).
    pub async fn searches_per_bucket(
        &self,
        event_ids: &[i64],
        since: DateTime<Utc>,
        bucket_ms: i64,
    ) -> Result<Vec<BucketCount>> {
        Ok(rows_with_ids!(
            self,
            event_ids,
            [millis(since), bucket_ms],
            |list| format!(
                "SELECT event_id, bucket / $2 * $2 AS bucket, CAST(SUM(searches) AS BIGINT) AS count \
             FROM search_counts WHERE bucket >= $1 AND event_id IN ({list}) \
             GROUP BY event_id, bucket / $2 * $2"
            )
        ))
    }

    /// Photos of any event that became searchable since `since`: the recent pace of
    /// ingestion, for the queue's expected wait.
    pub async fn searchable_since(&self, since: DateTime<Utc>) -> Result<i64> {
        let (n,): (i64,) = on_pool!(self, pool => sqlx::query_as(
            "SELECT COUNT(*) FROM photos WHERE ready_at >= $1")
            .bind(millis(since)).fetch_one(pool).await)?;
        Ok(n)
    }

    /// How many of the event's shown photos became searchable after `since`, counting no
    /// further than `cap` (the work is bounded whatever the moment asked about).
    pub async fn arrivals_since(
        &self,
        event_id: i64,
        since: DateTime<Utc>,
        cap: i64,
    ) -> Result<i64> {
        let (n,): (i64,) = on_pool!(self, pool => sqlx::query_as(
            "SELECT COUNT(*) FROM (SELECT 1 FROM photos \
                WHERE event_id = $1 AND ready_at > $2 AND state = 'ready' AND NOT hidden \
                LIMIT $3) AS arrived")
            .bind(event_id).bind(millis(since)).bind(cap).fetch_one(pool).await)?;
        Ok(n)
    }
}

impl Store {
    /// Photos of each of the events `event_ids` received since `since`, for events with any.
    pub async fn received_since(
        &self,
        event_ids: &[i64],
        since: DateTime<Utc>,
    ) -> Result<Vec<(i64, i64)>> {
        Ok(rows_with_ids!(
            self,
            event_ids,
            [millis(since)],
            |list| format!(
                "SELECT event_id, COUNT(*) FROM photos WHERE created_at >= $1 AND event_id IN ({list}) \
             GROUP BY event_id"
            )
        ))
    }

    /// Photos of each of the events `event_ids` waiting for processing or in it, for
    /// events with any.
    pub async fn waiting_photos(&self, event_ids: &[i64]) -> Result<Vec<(i64, i64)>> {
        Ok(rows_with_ids!(self, event_ids, [], |list| format!(
            "SELECT event_id, COUNT(*) FROM photos \
             WHERE state IN ('queued', 'processing') AND event_id IN ({list}) GROUP BY event_id"
        )))
    }
}
