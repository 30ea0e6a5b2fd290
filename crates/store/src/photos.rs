//! Photos of events and their faces: added with their processing job, moved through the
//! pipeline's states, and read by the shop and the face index.

use chrono::{DateTime, Utc};
use raceshot_domain::EventKey;
use sqlx::AssertSqlSafe;

use crate::jobs::insert_job;
use crate::macros::{in_tx, on_pool, rows_with_ids};
use crate::{Result, Store, StoreError, StoredName, millis};

/// A photo as the shop shows it; `storage_name` names its objects under the event's key.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Photo {
    pub id: i64,
    pub event_id: i64,
    #[sqlx(try_from = "String")]
    pub event_key: EventKey,
    pub original_file_name: String,
    pub storage_name: String,
    pub photographer_id: i64,
    /// When it was taken (Unix milliseconds), if the file said.
    pub taken_at: Option<i64>,
}

const PHOTO_COLUMNS: &str = "p.id, p.event_id, e.event_key, p.original_file_name, \
    p.storage_name, p.photographer_id, p.taken_at";

/// Which of an event's photos the manual search page shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PhotoFilter {
    pub photographer_id: Option<i64>,
    /// Taken at or after (Unix milliseconds); photos with no time are then left out.
    pub taken_from: Option<i64>,
    /// Taken before (Unix milliseconds).
    pub taken_until: Option<i64>,
}

impl Store {
    /// The key of the event a photo belongs to, if the photo exists and is shown.
    pub async fn event_key_of_photo(&self, photo_id: i64) -> Result<Option<EventKey>> {
        let key: Option<(String,)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT e.event_key FROM photos p JOIN events e ON e.id = p.event_id \
             WHERE p.id = $1 AND NOT p.hidden AND e.visible")
            .bind(photo_id).fetch_optional(pool).await)?;
        Ok(key.and_then(|(k,)| EventKey::parse(&k).ok()))
    }

    /// One page of an event's shown photos in the order they were taken (photos with no
    /// time last, then by id), and how many match the filter.
    pub async fn event_photo_page(
        &self,
        event_id: i64,
        filter: PhotoFilter,
        offset: i64,
        limit: i64,
    ) -> Result<(Vec<Photo>, i64)> {
        let matching = "FROM photos p JOIN events e ON e.id = p.event_id \
             WHERE p.event_id = $1 AND p.state = 'ready' AND NOT p.hidden \
             AND ($2 IS NULL OR p.photographer_id = $2) \
             AND ($3 IS NULL OR p.taken_at >= $3) AND ($4 IS NULL OR p.taken_at < $4)";
        let page = format!(
            "SELECT {PHOTO_COLUMNS} {matching} \
             ORDER BY (p.taken_at IS NULL), p.taken_at, p.id LIMIT $5 OFFSET $6"
        );
        let count = format!("SELECT COUNT(*) {matching}");
        let f = filter;
        let photos: Vec<Photo> = on_pool!(self, pool => sqlx::query_as(AssertSqlSafe(page.clone()))
            .bind(event_id).bind(f.photographer_id).bind(f.taken_from).bind(f.taken_until)
            .bind(limit).bind(offset).fetch_all(pool).await)?;
        let (total,): (i64,) = on_pool!(self, pool => sqlx::query_as(AssertSqlSafe(count.clone()))
            .bind(event_id).bind(f.photographer_id).bind(f.taken_from).bind(f.taken_until)
            .fetch_one(pool).await)?;
        Ok((photos, total))
    }

    /// The photographers of an event's shown photos, with how many each took.
    pub async fn event_photographers(&self, event_id: i64) -> Result<Vec<(i64, i64)>> {
        Ok(on_pool!(self, pool => sqlx::query_as(
            "SELECT photographer_id, COUNT(*) FROM photos \
             WHERE event_id = $1 AND state = 'ready' AND NOT hidden \
             GROUP BY photographer_id ORDER BY photographer_id")
            .bind(event_id).fetch_all(pool).await)?)
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

/// Where a photo is in the ingestion pipeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PhotoState {
    Queued,
    Processing,
    Ready,
    Failed,
}

impl PhotoState {
    pub fn as_str(self) -> &'static str {
        match self {
            PhotoState::Queued => "queued",
            PhotoState::Processing => "processing",
            PhotoState::Ready => "ready",
            PhotoState::Failed => "failed",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "queued" => Some(PhotoState::Queued),
            "processing" => Some(PhotoState::Processing),
            "ready" => Some(PhotoState::Ready),
            "failed" => Some(PhotoState::Failed),
            _ => None,
        }
    }
}

impl TryFrom<String> for PhotoState {
    type Error = StoreError;
    fn try_from(raw: String) -> Result<Self> {
        Self::parse(&raw).ok_or_else(|| StoreError::Corrupt(format!("photo state {raw}")))
    }
}

/// A photo to add to an event; its original is already in object storage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPhoto {
    pub event_id: i64,
    /// SHA-256 of the original file, hex: the same file is ingested once per event.
    pub content_hash: String,
    pub original_file_name: String,
    pub storage_name: String,
    pub photographer_id: i64,
}

/// What adding a photo did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Added {
    /// A new photo, queued for processing by a job.
    New(i64),
    /// The event already holds this file.
    Exists(i64, PhotoState),
}

/// What a processing job needs to know of a photo, every field parsed.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PhotoWork {
    pub id: i64,
    pub event_id: i64,
    #[sqlx(try_from = "String")]
    pub event_key: EventKey,
    pub original_file_name: String,
    #[sqlx(try_from = "String")]
    pub storage_name: StoredName,
    #[sqlx(try_from = "String")]
    pub state: PhotoState,
}

/// A face found in a photo: box and landmarks in the original's pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct NewFace {
    /// Little-endian f32 values.
    pub embedding: Vec<u8>,
    pub bbox: [f64; 4],
    /// Five (x, y) points as little-endian f32 values.
    pub landmarks: Vec<u8>,
    pub score: f64,
}

/// The faces one model pair (`faces.model_pair`, by name) found on a photo.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FaceSet {
    pub pair: String,
    pub faces: Vec<NewFace>,
}

/// What processing a photo found: its displayed size, faces and bibs, and when it was
/// taken.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ProcessedPhoto {
    pub size: (u32, u32),
    /// The faces as the event's pair found them: searched, counted, and matched against
    /// the event's templates.
    pub faces: FaceSet,
    /// While the event moves to another pair (`events.reindex_to`): that pair's faces.
    pub next_faces: Option<FaceSet>,
    pub bibs: Vec<crate::bibs::NewBib>,
    pub taken_at: Option<DateTime<Utc>>,
    /// Approved privacy requests whose face is on the photo: it is held hidden for them.
    pub held_for: Vec<String>,
}

/// What saving a processed photo did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Saved {
    Stored,
    /// The event's pairs are no longer those its faces were found by (it moved, or began
    /// to move, to another pair meanwhile): nothing was stored; process it again.
    EventMoved,
}

/// A stored face with its box in the original's pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredFace {
    pub id: i64,
    pub photo_id: i64,
    /// The model pair that made it, by name.
    pub model_pair: String,
    /// Little-endian f32 values.
    pub embedding: Vec<u8>,
    pub bbox: [f64; 4],
    /// The detector's confidence, 0 to 1 (blur, a turned head or a cut face lower it).
    pub score: f64,
}

#[derive(sqlx::FromRow)]
pub(crate) struct FaceRow {
    id: i64,
    photo_id: i64,
    model_pair: String,
    embedding: Vec<u8>,
    box_x1: f64,
    box_y1: f64,
    box_x2: f64,
    box_y2: f64,
    score: f64,
}

/// The columns of [`FaceRow`].
pub(crate) const FACE_COLUMNS: &str =
    "id, photo_id, model_pair, embedding, box_x1, box_y1, box_x2, box_y2, score";

impl FaceRow {
    pub(crate) fn into_face(self) -> StoredFace {
        StoredFace {
            id: self.id,
            photo_id: self.photo_id,
            model_pair: self.model_pair,
            embedding: self.embedding,
            bbox: [self.box_x1, self.box_y1, self.box_x2, self.box_y2],
            score: self.score,
        }
    }
}

/// Where a stored face is: its photo and box (in the original's pixels).
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct FaceBox {
    pub id: i64,
    pub photo_id: i64,
    pub box_x1: f64,
    pub box_y1: f64,
    pub box_x2: f64,
    pub box_y2: f64,
}

impl FaceBox {
    /// x1, y1, x2, y2.
    pub fn bbox(&self) -> [f64; 4] {
        [self.box_x1, self.box_y1, self.box_x2, self.box_y2]
    }
}

/// A stored face, as the search index loads it.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct FaceVector {
    pub id: i64,
    pub photo_id: i64,
    pub embedding: Vec<u8>,
    /// The face's box width in its photo's pixels.
    pub width: f64,
}

impl FaceVector {
    /// The face's width in its photo's pixels, as the index classes faces.
    pub fn width(&self) -> f32 {
        self.width as f32
    }
}

impl Store {
    /// Adds a photo and queues its processing job in the same transaction; a file the
    /// event already holds is not added again.
    pub async fn add_photo(
        &self,
        photo: &NewPhoto,
        job: impl Fn(i64) -> crate::jobs::NewJob,
        now: DateTime<Utc>,
    ) -> Result<Added> {
        let now_ms = millis(now);
        let added = in_tx!(self, tx => {
            let id: Option<(i64,)> = sqlx::query_as(
                "INSERT INTO photos (event_id, content_hash, original_file_name, storage_name, \
                    photographer_id, state, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, 'queued', $6, $6) \
                 ON CONFLICT (event_id, content_hash) DO NOTHING RETURNING id")
                .bind(photo.event_id).bind(&photo.content_hash).bind(&photo.original_file_name)
                .bind(&photo.storage_name).bind(photo.photographer_id).bind(now_ms)
                .fetch_optional(&mut *tx).await?;
            match id {
                Some((id,)) => {
                    insert_job!(&mut *tx, &job(id), now);
                    Added::New(id)
                }
                None => {
                    let (id, state): (i64, String) = sqlx::query_as(
                        "SELECT id, state FROM photos WHERE event_id = $1 AND content_hash = $2")
                        .bind(photo.event_id).bind(&photo.content_hash)
                        .fetch_one(&mut *tx).await?;
                    Added::Exists(id, parse_state(&state)?)
                }
            }
        });
        Ok(added)
    }

    /// Whether the event already holds a file with this content hash.
    pub async fn photo_by_hash(
        &self,
        event_id: i64,
        content_hash: &str,
    ) -> Result<Option<(i64, PhotoState)>> {
        let row: Option<(i64, String)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT id, state FROM photos WHERE event_id = $1 AND content_hash = $2")
            .bind(event_id).bind(content_hash).fetch_optional(pool).await)?;
        row.map(|(id, s)| Ok((id, parse_state(&s)?))).transpose()
    }

    /// Which of `hashes` (SHA-256, hex) the event holds already: what an uploader asks
    /// before sending files.
    pub async fn known_hashes(&self, event_id: i64, hashes: &[String]) -> Result<Vec<String>> {
        let mut known = Vec::new();
        for chunk in hashes.chunks(500) {
            let list: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 2)).collect();
            let sql = format!(
                "SELECT content_hash FROM photos WHERE event_id = $1 AND content_hash IN ({})",
                list.join(", ")
            );
            let rows: Vec<(String,)> = on_pool!(self, pool => {
                let mut q = sqlx::query_as(AssertSqlSafe(sql.clone())).bind(event_id);
                for hash in chunk {
                    q = q.bind(hash);
                }
                q.fetch_all(pool).await
            })?;
            known.extend(rows.into_iter().map(|(h,)| h));
        }
        Ok(known)
    }

    pub async fn photo_work(&self, photo_id: i64) -> Result<Option<PhotoWork>> {
        Ok(on_pool!(self, pool => sqlx::query_as(
            "SELECT p.id, p.event_id, e.event_key, p.original_file_name, p.storage_name, p.state \
             FROM photos p JOIN events e ON e.id = p.event_id WHERE p.id = $1")
            .bind(photo_id).fetch_optional(pool).await)?)
    }

    /// Moves a photo to `state`; `reason` says why a photo failed.
    pub async fn set_photo_state(
        &self,
        photo_id: i64,
        state: PhotoState,
        reason: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<()> {
        on_pool!(self, pool => sqlx::query(
            "UPDATE photos SET state = $1, failure_reason = $2, updated_at = $3 WHERE id = $4")
            .bind(state.as_str()).bind(reason).bind(millis(now)).bind(photo_id)
            .execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// Stores what processing found on a photo — its faces of each pair the event uses now
    /// and bibs, replacing any from an earlier attempt, when it was taken, and the privacy
    /// requests that hide it — and marks it ready, all at once, so a photo never shows half
    /// of it. An event without a pair yet takes the pair of `processed.faces`; an event
    /// whose pairs are not those of the sets (it began or finished a move meanwhile) stores
    /// nothing ([`Saved::EventMoved`]).
    pub async fn save_processed_photo(
        &self,
        photo_id: i64,
        event_id: i64,
        processed: &ProcessedPhoto,
        now: DateTime<Utc>,
    ) -> Result<Saved> {
        let (width, height) = processed.size;
        let bibs = crate::bibs::best_first(&processed.bibs);
        let sets: Vec<&FaceSet> = std::iter::once(&processed.faces)
            .chain(&processed.next_faces)
            .collect();
        let newest = sets.last().map_or("", |s| s.pair.as_str());
        in_tx!(self, tx => {
            // Written first: the event's row stays as read until the end (PostgreSQL holds
            // its lock; SQLite the database's).
            let (pair, next): (Option<String>, Option<String>) = sqlx::query_as(
                "UPDATE events SET model_pair = COALESCE(model_pair, $2) WHERE id = $1 \
                 RETURNING model_pair, reindex_to")
                .bind(event_id).bind(&processed.faces.pair).fetch_one(&mut *tx).await?;
            if pair.as_deref() != Some(processed.faces.pair.as_str())
                || next.as_deref() != processed.next_faces.as_ref().map(|s| s.pair.as_str())
            {
                return Ok(Saved::EventMoved);
            }
            sqlx::query("DELETE FROM faces WHERE photo_id = $1")
                .bind(photo_id).execute(&mut *tx).await?;
            for set in &sets {
                crate::face_pairs::insert_faces!(tx, photo_id, event_id, set);
            }
            crate::bibs::replace_reads!(tx, photo_id, event_id, &bibs);
            for request in &processed.held_for {
                let _held = crate::privacy::hold!(tx, request, photo_id, event_id, millis(now));
            }
            sqlx::query(
                "UPDATE photos SET state = 'ready', failure_reason = NULL, face_count = $1, \
                    width = $2, height = $3, taken_at = $4, updated_at = $5, \
                    ready_at = COALESCE(ready_at, $5), faces_pair = $7 WHERE id = $6")
                .bind(processed.faces.faces.len() as i64).bind(i64::from(width))
                .bind(i64::from(height)).bind(processed.taken_at.map(millis)).bind(millis(now))
                .bind(photo_id).bind(newest)
                .execute(&mut *tx).await?;
        });
        Ok(Saved::Stored)
    }

    /// A photo's faces made by `pair` (boxes in the original's pixels), for reading its
    /// bibs again.
    pub async fn faces_of_photo(&self, photo_id: i64, pair: &str) -> Result<Vec<StoredFace>> {
        let sql = format!(
            "SELECT {FACE_COLUMNS} FROM faces WHERE photo_id = $1 AND model_pair = $2 ORDER BY id"
        );
        let rows: Vec<FaceRow> = on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind(photo_id).bind(pair).fetch_all(pool).await)?;
        Ok(rows.into_iter().map(FaceRow::into_face).collect())
    }

    /// The faces `pair` made on the photos `ids`, with their boxes and embeddings.
    pub async fn faces_of_photos(&self, ids: &[i64], pair: &str) -> Result<Vec<StoredFace>> {
        let rows: Vec<FaceRow> = rows_with_ids!(self, ids, [pair], |list| format!(
            "SELECT {FACE_COLUMNS} FROM faces WHERE model_pair = $1 AND photo_id IN ({list})"
        ));
        Ok(rows.into_iter().map(FaceRow::into_face).collect())
    }

    /// The shown photos of an event that `windows` name, each window a photographer and a
    /// span of time (Unix milliseconds, both ends included); a photo in two windows comes
    /// twice. Each window is a range of `photos_event_taken`.
    pub async fn photos_taken_within(
        &self,
        event_id: i64,
        windows: &[(i64, i64, i64)],
    ) -> Result<Vec<Photo>> {
        let mut out = Vec::new();
        for chunk in windows.chunks(100) {
            let sql = (0..chunk.len())
                .map(|i| {
                    let b = 2 + 3 * i;
                    format!(
                        "SELECT {PHOTO_COLUMNS} FROM photos p JOIN events e ON e.id = p.event_id \
                         WHERE p.event_id = $1 AND p.taken_at BETWEEN ${} AND ${} \
                         AND p.photographer_id = ${} AND p.state = 'ready' AND NOT p.hidden",
                        b,
                        b + 1,
                        b + 2
                    )
                })
                .collect::<Vec<_>>()
                .join(" UNION ALL ");
            let mut rows: Vec<Photo> = on_pool!(self, pool => {
                let mut q = sqlx::query_as(AssertSqlSafe(sql.clone())).bind(event_id);
                for &(photographer, from, to) in chunk {
                    q = q.bind(from).bind(to).bind(photographer);
                }
                q.fetch_all(pool).await
            })?;
            out.append(&mut rows);
        }
        Ok(out)
    }

    /// The faces `pair` made on the photos `ids`: id, photo and box (in the original's
    /// pixels), without their embeddings.
    pub async fn face_boxes(&self, ids: &[i64], pair: &str) -> Result<Vec<FaceBox>> {
        Ok(rows_with_ids!(self, ids, [pair], |list| format!(
            "SELECT id, photo_id, box_x1, box_y1, box_x2, box_y2 FROM faces \
             WHERE model_pair = $1 AND photo_id IN ({list})"
        )))
    }

    /// Faces `pair` made on an event's photos with an id above `after`, in id order: the
    /// index loads an event page by page and later picks up only what is new.
    pub async fn faces_after(
        &self,
        event_id: i64,
        pair: &str,
        after: i64,
        limit: i64,
    ) -> Result<Vec<FaceVector>> {
        Ok(on_pool!(self, pool => sqlx::query_as(
            "SELECT id, photo_id, embedding, box_x2 - box_x1 AS width FROM faces \
             WHERE event_id = $1 AND model_pair = $2 AND id > $3 ORDER BY id LIMIT $4")
            .bind(event_id).bind(pair).bind(after).bind(limit).fetch_all(pool).await)?)
    }

    /// The shown (ready, not hidden) photos among `ids`, in no particular order.
    pub async fn shown_photos(&self, event_id: i64, ids: &[i64]) -> Result<Vec<Photo>> {
        Ok(rows_with_ids!(self, ids, [event_id], |list| format!(
            "SELECT {PHOTO_COLUMNS} FROM photos p JOIN events e ON e.id = p.event_id \
             WHERE p.event_id = $1 AND p.state = 'ready' AND NOT p.hidden AND p.id IN ({list})"
        )))
    }

    /// How many of `ids` are in each state; failed ones come with their file name and reason.
    pub async fn photo_progress(&self, ids: &[i64]) -> Result<PhotoProgress> {
        let mut progress = PhotoProgress::default();
        let rows: Vec<(i64, String, String, Option<String>)> = rows_with_ids!(
            self,
            ids,
            [],
            |list| format!(
                "SELECT id, original_file_name, state, failure_reason FROM photos WHERE id IN ({list})"
            )
        );
        for (id, name, state, reason) in rows {
            match parse_state(&state)? {
                PhotoState::Queued => progress.queued += 1,
                PhotoState::Processing => progress.processing += 1,
                PhotoState::Ready => progress.ready += 1,
                PhotoState::Failed => progress.failed.push((id, name, reason.unwrap_or_default())),
            }
        }
        Ok(progress)
    }

    /// Photos and faces of an event, for dashboards and benchmarks.
    pub async fn event_photo_counts(&self, event_id: i64) -> Result<(i64, i64)> {
        let (photos, faces): (i64, i64) = on_pool!(self, pool => sqlx::query_as(
            "SELECT (SELECT COUNT(*) FROM photos WHERE event_id = $1 AND state = 'ready'), \
                    (SELECT COUNT(*) FROM faces f JOIN events e ON e.id = f.event_id \
                        WHERE f.event_id = $1 AND f.model_pair = e.model_pair)")
            .bind(event_id).fetch_one(pool).await)?;
        Ok((photos, faces))
    }
}

/// States of a batch of photos.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PhotoProgress {
    pub queued: usize,
    pub processing: usize,
    pub ready: usize,
    /// (photo id, original file name, reason)
    pub failed: Vec<(i64, String, String)>,
}

impl PhotoProgress {
    pub fn finished(&self) -> usize {
        self.ready + self.failed.len()
    }

    pub fn pending(&self) -> usize {
        self.queued + self.processing
    }
}

fn parse_state(raw: &str) -> Result<PhotoState> {
    PhotoState::parse(raw).ok_or_else(|| crate::StoreError::Corrupt(format!("photo state {raw}")))
}

impl Store {
    /// The event of each shown (ready, not hidden) photo among `ids`; ids missing from the
    /// answer are unknown, hidden or not ready.
    /// Whether the photo whose previews are named `{stem}.jpg` is shown in `event`:
    /// `None` when no such photo is stored (deleted, or never there), `Some(false)` while
    /// it is hidden or not ready.
    pub async fn photo_shown_by_stem(&self, event: &EventKey, stem: &str) -> Result<Option<bool>> {
        let row: Option<(bool, String)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT p.hidden, p.state FROM photos p JOIN events e ON e.id = p.event_id \
             WHERE p.storage_name IN ($2 || '.jpg', $2 || '.png') AND e.event_key = $1")
            .bind(event.as_str()).bind(stem).fetch_optional(pool).await)?;
        Ok(row.map(|(hidden, state)| !hidden && state == "ready"))
    }

    pub async fn shown_photo_events(&self, ids: &[i64]) -> Result<Vec<(i64, i64)>> {
        Ok(rows_with_ids!(self, ids, [], |list| format!(
            "SELECT id, event_id FROM photos WHERE state = 'ready' AND NOT hidden AND id IN ({list})"
        )))
    }
}

/// A photo as the console lists it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ListedPhoto {
    pub id: i64,
    pub original_file_name: String,
    pub storage_name: String,
    #[sqlx(try_from = "String")]
    pub state: PhotoState,
    pub failure_reason: Option<String>,
    pub face_count: i64,
    pub hidden: bool,
    pub highlight: bool,
}

/// Where a photo belongs: its event and its stored name.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PhotoOwner {
    pub event_id: i64,
    #[sqlx(try_from = "String")]
    pub event_key: EventKey,
    #[sqlx(try_from = "String")]
    pub storage_name: StoredName,
}

/// What deleting a photo did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Deleted {
    /// Gone, with its faces; its files are the caller's to remove.
    Removed(PhotoOwner),
    /// In an order: kept (hide it instead).
    Sold,
    Missing,
}

impl Store {
    /// One page of an event's photos, oldest first, optionally in one state; and how many.
    pub async fn list_photos(
        &self,
        event_id: i64,
        state: Option<PhotoState>,
        offset: i64,
        limit: i64,
    ) -> Result<(Vec<ListedPhoto>, i64)> {
        let state = state.map(PhotoState::as_str);
        let rows: Vec<ListedPhoto> = on_pool!(self, pool => sqlx::query_as(
            "SELECT id, original_file_name, storage_name, state, failure_reason, face_count, hidden, \
             highlight FROM photos WHERE event_id = $1 AND ($2 IS NULL OR state = $2) \
             ORDER BY id LIMIT $3 OFFSET $4")
            .bind(event_id).bind(state).bind(limit).bind(offset).fetch_all(pool).await)?;
        let (total,): (i64,) = on_pool!(self, pool => sqlx::query_as(
            "SELECT COUNT(*) FROM photos WHERE event_id = $1 AND ($2 IS NULL OR state = $2)")
            .bind(event_id).bind(state).fetch_one(pool).await)?;
        Ok((rows, total))
    }

    /// How many of the event's photos are in each state.
    pub async fn photo_state_counts(&self, event_id: i64) -> Result<Vec<(PhotoState, i64)>> {
        let rows: Vec<(String, i64)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT state, COUNT(*) FROM photos WHERE event_id = $1 GROUP BY state")
            .bind(event_id).fetch_all(pool).await)?;
        rows.into_iter()
            .map(|(state, n)| Ok((PhotoState::try_from(state)?, n)))
            .collect()
    }

    /// Where each of the photos `ids` belongs, by photo id; unknown ids are left out.
    pub async fn photo_owners(&self, ids: &[i64]) -> Result<Vec<(i64, PhotoOwner)>> {
        let rows: Vec<(i64, i64, String, String)> = rows_with_ids!(self, ids, [], |list| format!(
            "SELECT p.id, p.event_id, e.event_key, p.storage_name FROM photos p \
             JOIN events e ON e.id = p.event_id WHERE p.id IN ({list})"
        ));
        rows.into_iter()
            .map(|(id, event_id, event_key, storage_name)| {
                Ok((
                    id,
                    PhotoOwner {
                        event_id,
                        event_key: EventKey::try_from(event_key)?,
                        storage_name: StoredName::try_from(storage_name)?,
                    },
                ))
            })
            .collect()
    }

    pub async fn photo_owner(&self, photo_id: i64) -> Result<Option<PhotoOwner>> {
        Ok(on_pool!(self, pool => sqlx::query_as(
            "SELECT p.event_id, e.event_key, p.storage_name FROM photos p \
             JOIN events e ON e.id = p.event_id WHERE p.id = $1")
            .bind(photo_id).fetch_optional(pool).await)?)
    }

    /// Hides or shows a photo, and makes it a highlight or not; `None` leaves a flag alone.
    pub async fn set_photo_flags(
        &self,
        photo_id: i64,
        hidden: Option<bool>,
        highlight: Option<bool>,
        now: DateTime<Utc>,
    ) -> Result<()> {
        on_pool!(self, pool => sqlx::query(
            "UPDATE photos SET hidden = COALESCE($2, hidden), highlight = COALESCE($3, highlight), \
             updated_at = $4 WHERE id = $1")
            .bind(photo_id).bind(hidden).bind(highlight).bind(millis(now))
            .execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// Deletes a photo no order holds (its faces go with it).
    pub async fn delete_photo(&self, photo_id: i64) -> Result<Deleted> {
        let Some(owner) = self.photo_owner(photo_id).await? else {
            return Ok(Deleted::Missing);
        };
        let removed = in_tx!(self, tx => {
            let sold: Option<(i64,)> = sqlx::query_as("SELECT order_id FROM order_images WHERE photo_id = $1 LIMIT 1")
                .bind(photo_id).fetch_optional(&mut *tx).await?;
            if sold.is_some() {
                false
            } else {
                sqlx::query("DELETE FROM photos WHERE id = $1").bind(photo_id).execute(&mut *tx).await?;
                true
            }
        });
        Ok(if removed {
            Deleted::Removed(owner)
        } else {
            Deleted::Sold
        })
    }
}
