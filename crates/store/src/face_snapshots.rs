//! Which snapshot of an event's face index is current (`0024_face_index_snapshots.sql`):
//! one row per event and pair naming its object in `_shop/face-index/`, the highest face
//! id it holds and how many faces. A snapshot is only used while the rows still count as
//! many faces up to that id ([`Store::faces_up_to`]); ids are never reused (SQLite's
//! `AUTOINCREMENT`, PostgreSQL's identity), so a deleted face, or one committed late below
//! the snapshot's last id, changes the count.

use chrono::{DateTime, Utc};

use crate::macros::{in_tx, on_pool};
use crate::objects::StoredName;
use crate::{Result, Store, StoreError, millis};

/// A written face index snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FaceSnapshot {
    pub event_id: i64,
    pub pair: String,
    /// The highest face id it holds.
    pub up_to: i64,
    /// Faces it holds: every face of the event and pair with an id up to `up_to`.
    pub faces: i64,
    /// Its object in `_shop/face-index/`.
    pub name: StoredName,
    pub bytes: i64,
    pub created_at: DateTime<Utc>,
}

#[derive(sqlx::FromRow)]
struct Row {
    event_id: i64,
    model_pair: String,
    up_to: i64,
    faces: i64,
    object_name: String,
    bytes: i64,
    created_at: i64,
}

impl TryFrom<Row> for FaceSnapshot {
    type Error = StoreError;
    fn try_from(r: Row) -> Result<Self> {
        Ok(FaceSnapshot {
            event_id: r.event_id,
            pair: r.model_pair,
            up_to: r.up_to,
            faces: r.faces,
            name: StoredName::try_from(r.object_name)?,
            bytes: r.bytes,
            created_at: DateTime::from_timestamp_millis(r.created_at)
                .ok_or_else(|| StoreError::Corrupt("face snapshot time".to_owned()))?,
        })
    }
}

const COLUMNS: &str = "event_id, model_pair, up_to, faces, object_name, bytes, created_at";

impl Store {
    /// The current snapshot of the event's faces of `pair`, if one was written.
    pub async fn face_snapshot(&self, event_id: i64, pair: &str) -> Result<Option<FaceSnapshot>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM face_index_snapshots WHERE event_id = $1 AND model_pair = $2"
        );
        let row: Option<Row> = on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind(event_id).bind(pair).fetch_optional(pool).await)?;
        row.map(FaceSnapshot::try_from).transpose()
    }

    /// Every current snapshot (for the retention run's check).
    pub async fn face_snapshots(&self) -> Result<Vec<FaceSnapshot>> {
        let sql =
            format!("SELECT {COLUMNS} FROM face_index_snapshots ORDER BY event_id, model_pair");
        let rows: Vec<Row> = on_pool!(self, pool =>
            sqlx::query_as(sqlx::AssertSqlSafe(sql)).fetch_all(pool).await)?;
        rows.into_iter().map(FaceSnapshot::try_from).collect()
    }

    /// How many faces of the event and pair have ids up to `up_to` (an index-only count).
    pub async fn faces_up_to(&self, event_id: i64, pair: &str, up_to: i64) -> Result<i64> {
        Ok(on_pool!(self, pool => sqlx::query_scalar(
            "SELECT COUNT(*) FROM faces WHERE event_id = $1 AND model_pair = $2 AND id <= $3")
            .bind(event_id).bind(pair).bind(up_to).fetch_one(pool).await)?)
    }

    /// Makes `snapshot` the current one unless one holding as many ids or more is: answers
    /// the object no longer named (the one replaced, or `snapshot`'s own when it lost), for
    /// the caller to delete.
    pub async fn record_face_snapshot(
        &self,
        snapshot: &FaceSnapshot,
    ) -> Result<Option<StoredName>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM face_index_snapshots WHERE event_id = $1 AND model_pair = $2"
        );
        in_tx!(self, tx => {
            let current: Option<Row> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
                .bind(snapshot.event_id).bind(&snapshot.pair)
                .fetch_optional(&mut *tx).await?;
            let current = current.map(FaceSnapshot::try_from).transpose()?;
            match current {
                Some(c) if c.up_to >= snapshot.up_to => Ok(Some(snapshot.name.clone())),
                current => {
                    sqlx::query(
                        "INSERT INTO face_index_snapshots \
                           (event_id, model_pair, up_to, faces, object_name, bytes, created_at) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7) \
                         ON CONFLICT (event_id, model_pair) DO UPDATE SET up_to = excluded.up_to, \
                           faces = excluded.faces, object_name = excluded.object_name, \
                           bytes = excluded.bytes, created_at = excluded.created_at")
                        .bind(snapshot.event_id).bind(&snapshot.pair).bind(snapshot.up_to)
                        .bind(snapshot.faces).bind(snapshot.name.as_str()).bind(snapshot.bytes)
                        .bind(millis(snapshot.created_at))
                        .execute(&mut *tx).await?;
                    Ok(current.map(|c| c.name).filter(|n| n != &snapshot.name))
                }
            }
        })
    }

    /// Forgets the event's snapshot of `pair` if it is still the one named `name`; answers
    /// whether it was.
    pub async fn forget_face_snapshot(
        &self,
        event_id: i64,
        pair: &str,
        name: &StoredName,
    ) -> Result<bool> {
        let done = on_pool!(self, pool => sqlx::query(
            "DELETE FROM face_index_snapshots \
             WHERE event_id = $1 AND model_pair = $2 AND object_name = $3")
            .bind(event_id).bind(pair).bind(name.as_str()).execute(pool).await.map(|r| r.rows_affected()))?;
        Ok(done > 0)
    }
}
