//! Upload addresses handed out for selfies and what became of them: signed, uploaded,
//! used by a search, swept. Every change is one guarded statement, so an address is used
//! once however many requests race for it, and a sweep never misses a selfie.

use chrono::{DateTime, Utc};

use crate::macros::{in_tx, on_pool};
use crate::{Result, Store, millis};

/// An address due for sweeping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DueUpload {
    pub search_id: String,
    /// Swept once already: this is the second, last sweep.
    pub swept: bool,
}

/// What taking an upload address for its search found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Taken {
    Yes,
    /// Unknown, searched already, or past its lifetime: whatever it held is to be deleted.
    Gone,
    /// Signed for another client or event: left as it is for its own client.
    NotYours,
}

impl Store {
    /// Records a new upload address for `client` and the event it searches, unless the
    /// client holds `max_pending` live ones already (then `false`).
    #[allow(clippy::too_many_arguments)]
    pub async fn reserve_selfie_upload(
        &self,
        search_id: &str,
        client: &str,
        event_id: i64,
        max_pending: i64,
        expires_at: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let reserved = in_tx!(self, tx => {
            let (pending,): (i64,) = sqlx::query_as(
                "SELECT COUNT(*) FROM selfie_uploads WHERE client = $1 AND expires_at > $2 \
                    AND state IN ('signed', 'uploaded')")
                .bind(client).bind(millis(now)).fetch_one(&mut *tx).await?;
            if pending >= max_pending {
                false
            } else {
                sqlx::query(
                    "INSERT INTO selfie_uploads (search_id, client, event_id, state, expires_at, \
                        created_at) VALUES ($1, $2, $3, 'signed', $4, $5)")
                    .bind(search_id).bind(client).bind(event_id).bind(millis(expires_at))
                    .bind(millis(now))
                    .execute(&mut *tx).await?;
                true
            }
        });
        Ok(reserved)
    }

    /// Takes the one upload an address allows; its selfie must be gone by `expires_at`.
    /// `false`: the address was used already, or swept.
    pub async fn mark_selfie_uploaded(
        &self,
        search_id: &str,
        expires_at: DateTime<Utc>,
    ) -> Result<bool> {
        let done = on_pool!(self, pool => sqlx::query(
            "UPDATE selfie_uploads SET state = 'uploaded', expires_at = $2 \
             WHERE search_id = $1 AND state = 'signed'")
            .bind(search_id).bind(millis(expires_at))
            .execute(pool).await.map(|r| r.rows_affected()))?;
        Ok(done == 1)
    }

    /// Spends an address whose upload was refused: it takes no other upload and serves no
    /// search. `false`: it was spent already or past its lifetime.
    pub async fn spend_selfie_upload(&self, search_id: &str, now: DateTime<Utc>) -> Result<bool> {
        let done = on_pool!(self, pool => sqlx::query(
            "UPDATE selfie_uploads SET state = 'used' \
             WHERE search_id = $1 AND state IN ('signed', 'uploaded') AND expires_at > $2")
            .bind(search_id).bind(millis(now))
            .execute(pool).await.map(|r| r.rows_affected()))?;
        Ok(done == 1)
    }

    /// Takes the address for its one search, by the client it was signed for and for its
    /// event only.
    pub async fn take_selfie_upload(
        &self,
        search_id: &str,
        client: &str,
        event_id: i64,
        now: DateTime<Utc>,
    ) -> Result<Taken> {
        let done = on_pool!(self, pool => sqlx::query(
            "UPDATE selfie_uploads SET state = 'used' \
             WHERE search_id = $1 AND state IN ('signed', 'uploaded') AND expires_at > $2 \
             AND client = $3 AND event_id = $4")
            .bind(search_id).bind(millis(now)).bind(client).bind(event_id)
            .execute(pool).await.map(|r| r.rows_affected()))?;
        if done == 1 {
            return Ok(Taken::Yes);
        }
        let owner: Option<(String, Option<i64>)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT client, event_id FROM selfie_uploads WHERE search_id = $1")
            .bind(search_id).fetch_optional(pool).await)?;
        Ok(match owner {
            Some((c, e)) if c != client || e != Some(event_id) => Taken::NotYours,
            _ => Taken::Gone,
        })
    }

    /// Addresses whose lifetime is over, oldest first.
    pub async fn due_selfie_uploads(
        &self,
        now: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<DueUpload>> {
        let rows: Vec<(String, String)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT search_id, state FROM selfie_uploads WHERE expires_at <= $1 \
             ORDER BY expires_at LIMIT $2")
            .bind(millis(now)).bind(limit).fetch_all(pool).await)?;
        Ok(rows
            .into_iter()
            .map(|(search_id, state)| DueUpload {
                search_id,
                swept: state == "swept",
            })
            .collect())
    }

    /// After the first sweep: swept again at `again_at`, for an upload that was still
    /// arriving the first time.
    pub async fn selfie_upload_swept(
        &self,
        search_id: &str,
        again_at: DateTime<Utc>,
    ) -> Result<()> {
        on_pool!(self, pool => sqlx::query(
            "UPDATE selfie_uploads SET state = 'swept', expires_at = $2 WHERE search_id = $1")
            .bind(search_id).bind(millis(again_at)).execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// After the last sweep.
    pub async fn forget_selfie_upload(&self, search_id: &str) -> Result<()> {
        on_pool!(self, pool => sqlx::query("DELETE FROM selfie_uploads WHERE search_id = $1")
            .bind(search_id).execute(pool).await.map(|_| ()))?;
        Ok(())
    }
}
