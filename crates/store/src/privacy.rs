//! Runners' requests to hide their photos: the request with its face template and the name
//! of its face crop, the operator's decision, and the photos an approved request holds
//! hidden. The template's lifetime is in the migration's header
//! (`0009_privacy_requests.sql`) and kept here: rejecting clears it, and
//! [`Store::clear_privacy_templates_before`] clears approved ones, and undecided ones,
//! once their event's originals are gone. The crop's is in `0011_privacy_face_crops.sql`: the server deletes
//! the picture and then clears its name ([`Store::clear_privacy_face_crop`]), at the
//! decision or when [`Store::privacy_face_crops_due`] names it.

use chrono::{DateTime, Utc};
use raceshot_domain::EventKey;

use crate::macros::{in_tx, on_pool};
use crate::{Pool, Result, Store, StoreError, millis};

/// Where a request stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrivacyState {
    Pending,
    Approved,
    Rejected,
}

impl PrivacyState {
    pub fn as_str(self) -> &'static str {
        match self {
            PrivacyState::Pending => "pending",
            PrivacyState::Approved => "approved",
            PrivacyState::Rejected => "rejected",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "pending" => Some(PrivacyState::Pending),
            "approved" => Some(PrivacyState::Approved),
            "rejected" => Some(PrivacyState::Rejected),
            _ => None,
        }
    }
}

/// A new request: the selfie's face template and the name of its face crop, never the
/// selfie.
#[derive(Debug, Clone, PartialEq)]
pub struct NewPrivacyRequest {
    pub id: String,
    pub event_id: i64,
    pub contact: String,
    /// Little-endian f32 values.
    pub embedding: Vec<u8>,
    /// The model pair that made it: the event's.
    pub model_pair: String,
    /// The name of the picture of the face under `_shop/privacy/`, written after the row.
    pub face_crop: Option<String>,
    /// A hash of the requester's address.
    pub client: String,
}

/// A stored request.
#[derive(Debug, Clone, PartialEq)]
pub struct PrivacyRequest {
    pub id: String,
    pub event_id: i64,
    pub event_key: EventKey,
    pub event_title: String,
    pub contact: String,
    /// `None` once it is no longer needed (rejected, or past retention).
    pub embedding: Option<Vec<u8>>,
    /// The name of the picture of the face under `_shop/privacy/`; `None` once deleted
    /// (decided, or past retention).
    pub face_crop: Option<String>,
    pub state: PrivacyState,
    pub created_at: i64,
    pub decided_at: Option<i64>,
    pub decided_by: Option<String>,
    pub notified: bool,
    /// Photos it holds hidden.
    pub held: i64,
}

#[derive(sqlx::FromRow)]
struct Row {
    id: String,
    event_id: i64,
    event_key: String,
    event_title: String,
    contact: String,
    embedding: Option<Vec<u8>>,
    face_crop: Option<String>,
    state: String,
    created_at: i64,
    decided_at: Option<i64>,
    decided_by: Option<String>,
    notified: bool,
    held: i64,
}

impl Row {
    fn into_request(self) -> Result<PrivacyRequest> {
        Ok(PrivacyRequest {
            state: PrivacyState::parse(&self.state)
                .ok_or_else(|| StoreError::Corrupt(format!("privacy state {}", self.state)))?,
            id: self.id,
            event_id: self.event_id,
            event_key: self.event_key.try_into()?,
            event_title: self.event_title,
            contact: self.contact,
            embedding: self.embedding,
            face_crop: self.face_crop,
            created_at: self.created_at,
            decided_at: self.decided_at,
            decided_by: self.decided_by,
            notified: self.notified,
            held: self.held,
        })
    }
}

const SELECT: &str = "SELECT r.id, r.event_id, e.event_key, e.title AS event_title, r.contact, \
    r.embedding, r.face_crop, r.state, r.created_at, r.decided_at, r.decided_by, r.notified, \
    (SELECT COUNT(*) FROM privacy_holds h WHERE h.request_id = r.id) AS held \
    FROM privacy_requests r JOIN events e ON e.id = r.event_id";

/// What adding a request did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Filed {
    New,
    /// An undecided or approved request of the event is for the same face.
    Exists,
    /// The event uses another model pair than the template's now (it was moved
    /// meanwhile): nothing was filed.
    PairMoved,
}

/// What a decision did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decided {
    /// Decided now; for an approval, the photos newly hidden.
    Now(Vec<i64>),
    /// Decided before: nothing changed.
    Already(PrivacyState),
    Missing,
}

/// Holds and hides one photo of the event for a request, inside the caller's transaction;
/// answers whether the hold is new. A photo of another event is left alone. Unpaid orders
/// holding the photo are cancelled with it (`photo_withdrawn`): only buyers who paid
/// before the hold receive a held photo, and nobody pays for one afterwards.
macro_rules! hold {
    ($tx:expr, $request:expr, $photo:expr, $event:expr, $now:expr) => {{
        let inserted = sqlx::query(
            "INSERT INTO privacy_holds (request_id, photo_id) \
             SELECT $1, id FROM photos WHERE id = $2 AND event_id = $3 \
             ON CONFLICT (request_id, photo_id) DO NOTHING",
        )
        .bind($request)
        .bind($photo)
        .bind($event)
        .execute(&mut *$tx)
        .await?
        .rows_affected();
        if inserted > 0 {
            sqlx::query("UPDATE photos SET hidden = TRUE, updated_at = $2 WHERE id = $1")
                .bind($photo)
                .bind($now)
                .execute(&mut *$tx)
                .await?;
            sqlx::query(
                "UPDATE orders SET payment_status = 'CANCELLED', end_reason = $3, \
                    updated_at = $2 \
                 WHERE payment_status IN ('INITIAL', 'EXPIRED') \
                 AND id IN (SELECT order_id FROM order_images WHERE photo_id = $1)",
            )
            .bind($photo)
            .bind($now)
            .bind(raceshot_domain::EndReason::PhotoWithdrawn.as_str())
            .execute(&mut *$tx)
            .await?;
        }
        inserted > 0
    }};
}
pub(crate) use hold;

impl Store {
    /// Files a request, unless a pending or approved request of the event is for the same
    /// face: `same_face` is asked of each of their templates. Whoever files it, one face
    /// has one open request per event; one contact may file for several faces (a parent
    /// for two children). The comparison and the insert are one transaction, serialised
    /// per event (SQLite's write lock; a PostgreSQL advisory lock on the event), so that
    /// of two requests for one face at once, one is filed.
    pub async fn file_privacy_request(
        &self,
        r: &NewPrivacyRequest,
        same_face: impl Fn(&[u8]) -> bool,
        now: DateTime<Utc>,
    ) -> Result<Filed> {
        let is_postgres = matches!(self.pool, Pool::Postgres(_));
        let filed = in_tx!(self, tx => {
            crate::face_pairs::lock_event_templates!(is_postgres, tx, r.event_id);
            let (pair,): (Option<String>,) =
                sqlx::query_as("SELECT model_pair FROM events WHERE id = $1")
                    .bind(r.event_id).fetch_one(&mut *tx).await?;
            if pair.as_ref().is_some_and(|p| *p != r.model_pair) {
                return Ok(Filed::PairMoved);
            }
            let open: Vec<(Vec<u8>,)> = sqlx::query_as(
                "SELECT embedding FROM privacy_requests WHERE event_id = $1 AND model_pair = $2 \
                 AND state IN ('pending', 'approved') AND embedding IS NOT NULL")
                .bind(r.event_id).bind(&r.model_pair).fetch_all(&mut *tx).await?;
            if open.iter().any(|(template,)| same_face(template)) {
                Filed::Exists
            } else {
                sqlx::query(
                    "INSERT INTO privacy_requests (id, event_id, contact, embedding, face_crop, \
                        state, client, created_at, model_pair) \
                     VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7, $8)")
                    .bind(&r.id).bind(r.event_id).bind(&r.contact).bind(&r.embedding)
                    .bind(r.face_crop.as_deref()).bind(&r.client).bind(millis(now))
                    .bind(&r.model_pair)
                    .execute(&mut *tx).await?;
                Filed::New
            }
        });
        Ok(filed)
    }

    /// Removes a pending request that could not be completed (its face crop could not be
    /// written), so that the requester may send it again. Answers whether it was removed.
    pub async fn withdraw_privacy_request(&self, id: &str) -> Result<bool> {
        Ok(on_pool!(self, pool => sqlx::query(
            "DELETE FROM privacy_requests WHERE id = $1 AND state = 'pending' \
             AND NOT EXISTS (SELECT 1 FROM privacy_holds h WHERE h.request_id = $1)")
            .bind(id).execute(pool).await.map(|r| r.rows_affected() > 0))?)
    }

    /// Forgets a request's face crop once the picture is deleted: only when it still names
    /// `name`.
    pub async fn clear_privacy_face_crop(&self, id: &str, name: &str) -> Result<()> {
        on_pool!(self, pool => sqlx::query(
            "UPDATE privacy_requests SET face_crop = NULL WHERE id = $1 AND face_crop = $2")
            .bind(id).bind(name).execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// The face crops whose time is up, (request id, crop name), at most `limit`: those of
    /// decided requests (a deletion at the decision that failed), and those of requests
    /// never decided whose event is dated before `cutoff` (`YYYY-MM-DD`, the retention
    /// run's: the event's originals are gone).
    pub async fn privacy_face_crops_due(
        &self,
        cutoff: &str,
        limit: i64,
    ) -> Result<Vec<(String, String)>> {
        Ok(on_pool!(self, pool => sqlx::query_as(
            "SELECT r.id, r.face_crop FROM privacy_requests r JOIN events e ON e.id = r.event_id \
             WHERE r.face_crop IS NOT NULL AND (r.state <> 'pending' OR e.event_date < $1) \
             ORDER BY r.created_at, r.id LIMIT $2")
            .bind(cutoff).bind(limit).fetch_all(pool).await)?)
    }

    pub async fn privacy_request(&self, id: &str) -> Result<Option<PrivacyRequest>> {
        let sql = format!("{SELECT} WHERE r.id = $1");
        let row: Option<Row> = on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.clone()))
            .bind(id).fetch_optional(pool).await)?;
        row.map(Row::into_request).transpose()
    }

    /// Requests in `state` (all when `None`), newest first, at most `limit`.
    pub async fn privacy_requests(
        &self,
        state: Option<PrivacyState>,
        limit: i64,
    ) -> Result<Vec<PrivacyRequest>> {
        let sql = format!(
            "{SELECT} WHERE ($1 IS NULL OR r.state = $1) ORDER BY r.created_at DESC, r.id LIMIT $2"
        );
        let rows: Vec<Row> = on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.clone()))
            .bind(state.map(PrivacyState::as_str)).bind(limit).fetch_all(pool).await)?;
        rows.into_iter().map(Row::into_request).collect()
    }

    /// Approves a pending request: the photos `photo_ids` are held and hidden with it, in
    /// one transaction.
    pub async fn approve_privacy_request(
        &self,
        id: &str,
        photo_ids: &[i64],
        operator: &str,
        now: DateTime<Utc>,
    ) -> Result<Decided> {
        self.decide(id, PrivacyState::Approved, photo_ids, operator, now)
            .await
    }

    /// Rejects a pending request and clears its face template at once.
    pub async fn reject_privacy_request(
        &self,
        id: &str,
        operator: &str,
        now: DateTime<Utc>,
    ) -> Result<Decided> {
        self.decide(id, PrivacyState::Rejected, &[], operator, now)
            .await
    }

    async fn decide(
        &self,
        id: &str,
        to: PrivacyState,
        photo_ids: &[i64],
        operator: &str,
        now: DateTime<Utc>,
    ) -> Result<Decided> {
        let now_ms = millis(now);
        let decided = in_tx!(self, tx => {
            let row: Option<(String, i64)> = sqlx::query_as(
                "SELECT state, event_id FROM privacy_requests WHERE id = $1")
                .bind(id).fetch_optional(&mut *tx).await?;
            match row {
                None => Decided::Missing,
                Some((state, _)) if state != "pending" => Decided::Already(
                    PrivacyState::parse(&state)
                        .ok_or_else(|| StoreError::Corrupt(format!("privacy state {state}")))?,
                ),
                Some((_, event_id)) => {
                    let keep = to == PrivacyState::Approved;
                    // Guarded: of two decisions at once, one changes the row.
                    let changed = sqlx::query(
                        "UPDATE privacy_requests SET state = $2, decided_at = $3, decided_by = $4, \
                            embedding = CASE WHEN $5 THEN embedding ELSE NULL END \
                         WHERE id = $1 AND state = 'pending'")
                        .bind(id).bind(to.as_str()).bind(now_ms).bind(operator).bind(keep)
                        .execute(&mut *tx).await?.rows_affected();
                    if changed == 0 {
                        Decided::Already(to)
                    } else {
                        let mut hidden = Vec::new();
                        for photo_id in photo_ids {
                            let held = hold!(tx, id, *photo_id, event_id, now_ms);
                            if held {
                                hidden.push(*photo_id);
                            }
                        }
                        Decided::Now(hidden)
                    }
                }
            }
        });
        Ok(decided)
    }

    /// The approved requests of an event that still carry a template: what a photo
    /// ingested now is checked against, made by `pair`. (id, template)
    pub async fn privacy_templates(
        &self,
        event_id: i64,
        pair: &str,
    ) -> Result<Vec<(String, Vec<u8>)>> {
        Ok(on_pool!(self, pool => sqlx::query_as(
            "SELECT id, embedding FROM privacy_requests WHERE event_id = $1 AND model_pair = $2 \
             AND state = 'approved' AND embedding IS NOT NULL ORDER BY id")
            .bind(event_id).bind(pair).fetch_all(pool).await)?)
    }

    /// Whether an approved request holds the photo hidden.
    pub async fn photo_privacy_held(&self, photo_id: i64) -> Result<bool> {
        let row: Option<(i64,)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT photo_id FROM privacy_holds WHERE photo_id = $1 LIMIT 1")
            .bind(photo_id).fetch_optional(pool).await)?;
        Ok(row.is_some())
    }

    /// The photos a request holds, by id.
    pub async fn privacy_held_photos(&self, request_id: &str) -> Result<Vec<i64>> {
        let rows: Vec<(i64,)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT photo_id FROM privacy_holds WHERE request_id = $1 ORDER BY photo_id")
            .bind(request_id).fetch_all(pool).await)?;
        Ok(rows.into_iter().map(|(id,)| id).collect())
    }

    /// Notes that the requester was told of the decision.
    pub async fn mark_privacy_notified(&self, id: &str) -> Result<()> {
        on_pool!(self, pool => sqlx::query(
            "UPDATE privacy_requests SET notified = TRUE WHERE id = $1")
            .bind(id).execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// Clears the templates of approved and undecided requests whose event is dated
    /// before `cutoff` (`YYYY-MM-DD`): its originals are gone, no photo is ingested for it
    /// any more, and what an approved request hid stays hidden. A request nobody decided
    /// keeps its template no longer than its event's photos are sold. Answers how many
    /// were cleared.
    pub async fn clear_privacy_templates_before(&self, cutoff: &str) -> Result<u64> {
        Ok(on_pool!(self, pool => sqlx::query(
            "UPDATE privacy_requests SET embedding = NULL \
             WHERE embedding IS NOT NULL AND state IN ('approved', 'pending') \
             AND event_id IN (SELECT id FROM events WHERE event_date < $1)")
            .bind(cutoff).execute(pool).await.map(|r| r.rows_affected()))?)
    }
}
