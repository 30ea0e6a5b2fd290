//! Which face model pair made which templates, and moving an event from one pair to
//! another (`raceshot faces reindex`).
//!
//! Every stored template names its pair (`0018_model_pairs.sql`); an event's search, its
//! privacy requests and its alerts use the event's pair (`events.model_pair`). A move sets
//! `events.reindex_to`; from then on every photo of the event gets the new pair's faces
//! beside the old ones (new photos at ingestion, the others one job each), while searches
//! still use the old. When every photo has them, [`Store::finish_reindex`] replaces the
//! templates of privacy requests and alerts with the new pair's (found by the caller) and
//! moves the event, in one transaction; the old faces go a little later
//! ([`Store::delete_faces_of_other_pairs`]), once no process can still be searching them.

use crate::macros::{in_tx, on_pool};
use crate::photos::{FACE_COLUMNS, FaceRow, FaceSet, StoredFace};
use crate::{Pool, Result, Store};

/// Inserts a photo's faces of one pair inside a transaction.
macro_rules! insert_faces {
    ($tx:expr, $photo:expr, $event:expr, $set:expr) => {
        for f in &$set.faces {
            sqlx::query(
                "INSERT INTO faces (photo_id, event_id, model_pair, embedding, box_x1, box_y1, \
                    box_x2, box_y2, landmarks, score) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            )
            .bind($photo)
            .bind($event)
            .bind(&$set.pair)
            .bind(&f.embedding)
            .bind(f.bbox[0])
            .bind(f.bbox[1])
            .bind(f.bbox[2])
            .bind(f.bbox[3])
            .bind(&f.landmarks)
            .bind(f.score)
            .execute(&mut *$tx)
            .await?;
        }
    };
}
pub(crate) use insert_faces;

/// The lock under which templates of an event are filed and an event is moved to another
/// pair (PostgreSQL's advisory locks; SQLite's writers wait for each other anyway).
pub(crate) const TEMPLATES_LOCK: i32 = 0x5052_5651;

/// Takes [`TEMPLATES_LOCK`] for an event inside a PostgreSQL transaction.
macro_rules! lock_event_templates {
    ($is_postgres:expr, $tx:expr, $event:expr) => {
        if $is_postgres {
            // Ids beyond 32 bits share a key with another event: they wait on each other, no more.
            let key = i32::try_from($event & 0x7fff_ffff).unwrap_or_default();
            sqlx::query("SELECT pg_advisory_xact_lock($1, $2)")
                .bind($crate::face_pairs::TEMPLATES_LOCK)
                .bind(key)
                .execute(&mut *$tx)
                .await?;
        }
    };
}
pub(crate) use lock_event_templates;

/// What asking to move an event to a pair did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReindexStart {
    /// The event is moving: its photos need the pair's faces.
    Moving,
    /// The event uses the pair already (an event without photos takes it at once).
    AlreadyOn,
}

/// Whose template a stored face template is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TemplateOwner {
    /// A privacy request, by id.
    Privacy(String),
    /// An alert, by id.
    Alert(i64),
}

/// A privacy request's or an alert's template made by another pair than the event's
/// target, with the photos it is known to be on (those it hid, or matched).
#[derive(Debug, Clone, PartialEq)]
pub struct OldTemplate {
    pub owner: TemplateOwner,
    pub model_pair: String,
    pub embedding: Vec<u8>,
    pub photos: Vec<i64>,
}

/// What finishing a move did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finished {
    /// The event uses the new pair (its old faces stay until
    /// [`Store::delete_faces_of_other_pairs`]).
    Moved,
    /// The event is not moving to that pair (done already, or moved elsewhere).
    NotMoving,
    /// Photos still lack the new pair's faces.
    PhotosLeft(i64),
    /// Templates of the old pair remain that were not given (filed meanwhile, or no new
    /// template was found for them).
    TemplatesLeft(i64),
}

/// Each owner's template (id, pair, embedding) with the photos `links` give it (id, photo),
/// in one pass over each.
fn with_photos<K: Eq + std::hash::Hash>(
    templates: Vec<(K, String, Vec<u8>)>,
    links: Vec<(K, i64)>,
    owner: impl Fn(K) -> TemplateOwner,
) -> Vec<OldTemplate> {
    let mut photos: std::collections::HashMap<K, Vec<i64>> = std::collections::HashMap::new();
    for (id, photo) in links {
        photos.entry(id).or_default().push(photo);
    }
    templates
        .into_iter()
        .map(|(id, model_pair, embedding)| OldTemplate {
            photos: photos.remove(&id).unwrap_or_default(),
            owner: owner(id),
            model_pair,
            embedding,
        })
        .collect()
}

impl Store {
    /// Starts moving an event to `pair`; again for a moving event, nothing new. Asked for
    /// the pair the event uses, a move under way is called off (the faces it made so far
    /// are left to [`Store::delete_faces_of_other_pairs`]).
    pub async fn start_reindex(&self, event_id: i64, pair: &str) -> Result<ReindexStart> {
        let start = in_tx!(self, tx => {
            let (_, next): (Option<String>, Option<String>) = sqlx::query_as(
                "UPDATE events SET model_pair = COALESCE(model_pair, $2), \
                    reindex_to = CASE WHEN model_pair IS NULL OR model_pair = $2 \
                        THEN NULL ELSE $2 END \
                 WHERE id = $1 RETURNING model_pair, reindex_to")
                .bind(event_id).bind(pair).fetch_one(&mut *tx).await?;
            if next.is_some() {
                ReindexStart::Moving
            } else {
                sqlx::query(
                    "UPDATE photos SET faces_pair = $2 WHERE event_id = $1 AND faces_pair <> $2")
                    .bind(event_id).bind(pair).execute(&mut *tx).await?;
                ReindexStart::AlreadyOn
            }
        });
        Ok(start)
    }

    /// The ready photos of an event without faces of `pair`.
    pub async fn photos_to_reindex(&self, event_id: i64, pair: &str) -> Result<Vec<i64>> {
        let rows: Vec<(i64,)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT id FROM photos WHERE event_id = $1 AND state = 'ready' \
             AND (faces_pair IS NULL OR faces_pair <> $2) ORDER BY id")
            .bind(event_id).bind(pair).fetch_all(pool).await)?;
        Ok(rows.into_iter().map(|(id,)| id).collect())
    }

    /// Of an event's photos (queued, processing or ready), how many have `pair`'s faces,
    /// and how many there are.
    pub async fn reindex_progress(&self, event_id: i64, pair: &str) -> Result<(i64, i64)> {
        Ok(on_pool!(self, pool => sqlx::query_as(
            "SELECT COALESCE(SUM(CASE WHEN faces_pair = $2 THEN 1 ELSE 0 END), 0), COUNT(*) \
             FROM photos WHERE event_id = $1 AND state IN ('queued', 'processing', 'ready')")
            .bind(event_id).bind(pair).fetch_one(pool).await)?)
    }

    /// Stores a ready photo's faces of the pair its event is moving to. Answers false, and
    /// stores nothing, when the event is not moving to it or the photo has them already.
    pub async fn save_reindexed_faces(
        &self,
        photo_id: i64,
        event_id: i64,
        set: &FaceSet,
    ) -> Result<bool> {
        in_tx!(self, tx => {
            let moving = sqlx::query(
                "UPDATE events SET reindex_to = reindex_to WHERE id = $1 AND reindex_to = $2")
                .bind(event_id).bind(&set.pair).execute(&mut *tx).await?.rows_affected();
            let photo = sqlx::query(
                "UPDATE photos SET faces_pair = $2 WHERE id = $1 AND state = 'ready' \
                 AND (faces_pair IS NULL OR faces_pair <> $2)")
                .bind(photo_id).bind(&set.pair).execute(&mut *tx).await?.rows_affected();
            if moving == 0 || photo == 0 {
                return Ok(false);
            }
            sqlx::query("DELETE FROM faces WHERE photo_id = $1 AND model_pair = $2")
                .bind(photo_id).bind(&set.pair).execute(&mut *tx).await?;
            insert_faces!(tx, photo_id, event_id, set);
        });
        Ok(true)
    }

    /// The templates of an event's privacy requests and alerts that another pair than
    /// `pair` made, each with the photos it hid or matched.
    pub async fn templates_to_carry(&self, event_id: i64, pair: &str) -> Result<Vec<OldTemplate>> {
        let privacy: Vec<(String, String, Vec<u8>)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT id, model_pair, embedding FROM privacy_requests \
             WHERE event_id = $1 AND embedding IS NOT NULL AND model_pair <> $2 ORDER BY id")
            .bind(event_id).bind(pair).fetch_all(pool).await)?;
        let alerts: Vec<(i64, String, Vec<u8>)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT id, model_pair, embedding FROM alerts \
             WHERE event_id = $1 AND model_pair <> $2 ORDER BY id")
            .bind(event_id).bind(pair).fetch_all(pool).await)?;
        let held: Vec<(String, i64)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT h.request_id, h.photo_id FROM privacy_holds h \
             JOIN privacy_requests r ON r.id = h.request_id WHERE r.event_id = $1")
            .bind(event_id).fetch_all(pool).await)?;
        let matched: Vec<(i64, i64)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT m.alert_id, m.photo_id FROM alert_matches m \
             JOIN alerts a ON a.id = m.alert_id WHERE a.event_id = $1")
            .bind(event_id).fetch_all(pool).await)?;
        let mut out = with_photos(privacy, held, TemplateOwner::Privacy);
        out.extend(with_photos(alerts, matched, TemplateOwner::Alert));
        Ok(out)
    }

    /// The faces of every pair on the photos `ids`.
    pub async fn faces_of_photos_all_pairs(&self, ids: &[i64]) -> Result<Vec<StoredFace>> {
        let rows: Vec<FaceRow> = crate::macros::rows_with_ids!(self, ids, [], |list| format!(
            "SELECT {FACE_COLUMNS} FROM faces WHERE photo_id IN ({list})"
        ));
        Ok(rows.into_iter().map(FaceRow::into_face).collect())
    }

    /// Moves an event to `pair` once every photo has its faces: the templates of `carried`
    /// replaced by the new pair's and the event's pair set, at once. Changes nothing while
    /// photos lack the faces or templates of another pair remain.
    pub async fn finish_reindex(
        &self,
        event_id: i64,
        pair: &str,
        carried: &[(TemplateOwner, Vec<u8>)],
    ) -> Result<Finished> {
        let is_postgres = matches!(self.pool, Pool::Postgres(_));
        in_tx!(self, tx => {
            lock_event_templates!(is_postgres, tx, event_id);
            let moving = sqlx::query(
                "UPDATE events SET reindex_to = reindex_to WHERE id = $1 AND reindex_to = $2")
                .bind(event_id).bind(pair).execute(&mut *tx).await?.rows_affected();
            if moving == 0 {
                return Ok(Finished::NotMoving);
            }
            let (left,): (i64,) = sqlx::query_as(
                "SELECT COUNT(*) FROM photos WHERE event_id = $1 \
                 AND state IN ('queued', 'processing', 'ready') \
                 AND (faces_pair IS NULL OR faces_pair <> $2)")
                .bind(event_id).bind(pair).fetch_one(&mut *tx).await?;
            if left > 0 {
                return Ok(Finished::PhotosLeft(left));
            }
            for (owner, embedding) in carried {
                match owner {
                    TemplateOwner::Privacy(id) => sqlx::query(
                        "UPDATE privacy_requests SET embedding = $3, model_pair = $2 \
                         WHERE id = $1 AND embedding IS NOT NULL")
                        .bind(id).bind(pair).bind(embedding).execute(&mut *tx).await?,
                    TemplateOwner::Alert(id) => sqlx::query(
                        "UPDATE alerts SET embedding = $3, model_pair = $2 WHERE id = $1")
                        .bind(id).bind(pair).bind(embedding).execute(&mut *tx).await?,
                };
            }
            let (templates,): (i64,) = sqlx::query_as(
                "SELECT (SELECT COUNT(*) FROM privacy_requests WHERE event_id = $1 \
                            AND embedding IS NOT NULL AND model_pair <> $2) \
                      + (SELECT COUNT(*) FROM alerts WHERE event_id = $1 AND model_pair <> $2)")
                .bind(event_id).bind(pair).fetch_one(&mut *tx).await?;
            if templates > 0 {
                return Ok(Finished::TemplatesLeft(templates));
            }
            sqlx::query("UPDATE events SET model_pair = $2, reindex_to = NULL WHERE id = $1")
                .bind(event_id).bind(pair).execute(&mut *tx).await?;
            Ok(Finished::Moved)
        })
    }

    /// Deletes an event's faces of pairs it neither uses nor moves to; answers how many.
    pub async fn delete_faces_of_other_pairs(&self, event_id: i64) -> Result<u64> {
        Ok(on_pool!(self, pool => sqlx::query(
            "DELETE FROM faces WHERE event_id = $1 AND model_pair NOT IN \
                (SELECT COALESCE(e.model_pair, '') FROM events e WHERE e.id = $1 \
                 UNION ALL SELECT COALESCE(e.reindex_to, '') FROM events e WHERE e.id = $1)")
            .bind(event_id).execute(pool).await.map(|r| r.rows_affected()))?)
    }
}
