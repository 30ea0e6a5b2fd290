//! Race results (`0019_results.sql`): an event's finishers as its organiser published
//! them, replaced whole by each import, found by bib or by a part of the name's key, and
//! deleted per runner by an operator or with the event's originals by the retention run.

use chrono::{DateTime, Utc};
pub use raceshot_domain::results::RaceResult;
use raceshot_domain::results::{ColumnMap, RaceTime, ResultRow};
use raceshot_domain::{Bib, EventKey};

use crate::macros::{in_tx, on_pool};
use crate::{Result, Store, StoreError, millis};

/// The most rows a name search answers.
pub const MAX_NAME_HITS: i64 = 20;

/// What the last import of an event's results was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imported {
    pub columns: ColumnMap,
    pub at: DateTime<Utc>,
    pub rows: i64,
}

#[derive(sqlx::FromRow)]
struct Row {
    bib: String,
    name: String,
    gender: Option<String>,
    category: Option<String>,
    distance: Option<String>,
    gun_time: Option<i64>,
    chip_time: Option<i64>,
    rank: Option<i64>,
}

impl Row {
    fn into_result(self) -> Result<RaceResult> {
        let time = |t: Option<i64>| -> Result<Option<RaceTime>> {
            t.map(|t| {
                u32::try_from(t)
                    .map(RaceTime::from_hundredths)
                    .map_err(|_| StoreError::Corrupt(format!("result time {t}")))
            })
            .transpose()
        };
        Ok(RaceResult {
            bib: Bib::from_stored(self.bib),
            name: self.name,
            gender: self.gender,
            category: self.category,
            distance: self.distance,
            gun_time: time(self.gun_time)?,
            chip_time: time(self.chip_time)?,
            rank: self
                .rank
                .map(|r| u32::try_from(r).map_err(|_| StoreError::Corrupt(format!("rank {r}"))))
                .transpose()?,
        })
    }
}

const COLUMNS: &str = "bib, name, gender, category, distance, gun_time, chip_time, rank";

impl Store {
    /// Replaces an event's results with `rows` and remembers the map they were read with,
    /// in one transaction: readers see the old results or the new, never a mix.
    pub async fn replace_results(
        &self,
        event_id: i64,
        rows: &[ResultRow],
        columns: &ColumnMap,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let map = serde_json::to_string(columns)
            .map_err(|e| StoreError::Corrupt(format!("a column map: {e}")))?;
        let count = i64::try_from(rows.len()).unwrap_or(i64::MAX);
        in_tx!(self, tx => {
            sqlx::query("DELETE FROM results WHERE event_id = $1")
                .bind(event_id).execute(&mut *tx).await?;
            for r in rows.iter().map(|row| &row.result) {
                sqlx::query(
                    "INSERT INTO results (event_id, bib, name, name_key, gender, category, \
                        distance, gun_time, chip_time, rank) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)")
                    .bind(event_id)
                    .bind(r.bib.as_str())
                    .bind(&r.name)
                    .bind(r.name_key())
                    .bind(&r.gender)
                    .bind(&r.category)
                    .bind(&r.distance)
                    .bind(r.gun_time.map(|t| i64::from(t.hundredths())))
                    .bind(r.chip_time.map(|t| i64::from(t.hundredths())))
                    .bind(r.rank.map(i64::from))
                    .execute(&mut *tx).await?;
            }
            sqlx::query(
                "INSERT INTO result_maps (event_id, columns, imported_at, row_count) \
                 VALUES ($1, $2, $3, $4) ON CONFLICT (event_id) DO UPDATE SET \
                    columns = excluded.columns, imported_at = excluded.imported_at, \
                    row_count = excluded.row_count")
                .bind(event_id).bind(&map).bind(millis(now)).bind(count)
                .execute(&mut *tx).await?;
        });
        Ok(())
    }

    /// The last import of an event's results, with its column map.
    pub async fn results_imported(&self, event_id: i64) -> Result<Option<Imported>> {
        let row: Option<(String, i64, i64)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT columns, imported_at, row_count FROM result_maps WHERE event_id = $1")
            .bind(event_id).fetch_optional(pool).await)?;
        row.map(|(columns, at, rows)| {
            Ok(Imported {
                columns: serde_json::from_str(&columns)
                    .map_err(|e| StoreError::Corrupt(format!("a column map: {e}")))?,
                at: crate::from_millis(at)?,
                rows,
            })
        })
        .transpose()
    }

    /// The result of `bib` at an event.
    pub async fn result_by_bib(&self, event_id: i64, bib: &Bib) -> Result<Option<RaceResult>> {
        let sql = format!("SELECT {COLUMNS} FROM results WHERE event_id = $1 AND bib = $2");
        let row: Option<Row> = on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.clone()))
            .bind(event_id).bind(bib.as_str()).fetch_optional(pool).await)?;
        row.map(Row::into_result).transpose()
    }

    /// The results of an event whose name key holds `key` (already a name key: letters,
    /// digits and Thai marks only), best rank first, at most [`MAX_NAME_HITS`].
    pub async fn results_by_name(&self, event_id: i64, key: &str) -> Result<Vec<RaceResult>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM results WHERE event_id = $1 AND name_key LIKE $2 \
             ORDER BY rank IS NULL, rank, name_key LIMIT $3"
        );
        // A name key has no `%` or `_`: the pattern matches the key as written.
        let pattern = format!("%{key}%");
        let rows: Vec<Row> = on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.clone()))
            .bind(event_id).bind(&pattern).bind(MAX_NAME_HITS).fetch_all(pool).await)?;
        rows.into_iter().map(Row::into_result).collect()
    }

    /// Deletes one runner's result (an operator's decision); `false` when there was none.
    pub async fn delete_result(&self, event_id: i64, bib: &Bib) -> Result<bool> {
        Ok(on_pool!(self, pool => sqlx::query(
            "DELETE FROM results WHERE event_id = $1 AND bib = $2")
            .bind(event_id).bind(bib.as_str()).execute(pool).await
            .map(|r| r.rows_affected() > 0))?)
    }

    /// The events dated before `cutoff` that still have results: the retention run deletes
    /// their certificates, then their rows.
    pub async fn events_with_results_before(&self, cutoff: &str) -> Result<Vec<EventKey>> {
        let keys: Vec<(String,)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT e.event_key FROM events e WHERE e.event_date < $1 \
             AND EXISTS (SELECT 1 FROM results r WHERE r.event_id = e.id) ORDER BY e.id")
            .bind(cutoff).fetch_all(pool).await)?;
        keys.into_iter()
            .map(|(k,)| {
                EventKey::parse(&k).map_err(|_| StoreError::Corrupt(format!("event key {k}")))
            })
            .collect()
    }

    /// Deletes the results of events dated before `cutoff` (`YYYY-MM-DD`): they go with the
    /// originals. Answers how many rows.
    pub async fn delete_results_before(&self, cutoff: &str) -> Result<u64> {
        let deleted = on_pool!(self, pool => sqlx::query(
            "DELETE FROM results WHERE event_id IN \
                (SELECT id FROM events WHERE event_date < $1)")
            .bind(cutoff).execute(pool).await.map(|r| r.rows_affected()))?;
        on_pool!(self, pool => sqlx::query(
            "DELETE FROM result_maps WHERE event_id IN \
                (SELECT id FROM events WHERE event_date < $1)")
            .bind(cutoff).execute(pool).await.map(|_| ()))?;
        Ok(deleted)
    }
}
