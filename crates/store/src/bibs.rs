//! Bib numbers on photos: what reading found (`photo_bibs`, replaced whenever a photo is
//! read again) and operators' corrections (`bib_corrections`, which win and outlive
//! re-reading). A photo carries a bib when reading found it and no operator took it off,
//! or when an operator put it on. Bibs arrive here in their normal form
//! (`raceshot_domain::Bib`).

use chrono::{DateTime, Utc};
use raceshot_domain::Bib;

use crate::macros::{in_tx, on_pool, rows_with_ids};
use crate::{Result, Store, millis};

/// A bib read on a photo: confidence 0–1 and box in the original's pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct NewBib {
    pub bib: Bib,
    pub confidence: f64,
    pub bbox: [f64; 4],
}

/// Where a bib stands on a photo, as the console shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BibSource {
    /// Read, and not taken off.
    Read,
    /// Put on by an operator (read or not).
    Added,
    /// Read, but taken off by an operator: not searchable.
    Removed,
}

/// One bib of a photo with how it came there.
#[derive(Debug, Clone, PartialEq)]
pub struct PhotoBib {
    pub photo_id: i64,
    pub bib: Bib,
    pub source: BibSource,
    /// The read's confidence and box, when reading found it.
    pub confidence: Option<f64>,
    pub bbox: Option<[f64; 4]>,
}

impl PhotoBib {
    /// Whether a search for the bib finds the photo.
    pub fn searchable(&self) -> bool {
        self.source != BibSource::Removed
    }
}

/// A shown photo carrying a bib; `bbox` where reading found it on the photo.
#[derive(Debug, Clone, PartialEq)]
pub struct BibHit {
    pub photo_id: i64,
    pub bbox: Option<[f64; 4]>,
}

#[derive(sqlx::FromRow)]
struct ReadRow {
    photo_id: i64,
    bib: String,
    confidence: f64,
    box_x1: f64,
    box_y1: f64,
    box_x2: f64,
    box_y2: f64,
}

impl ReadRow {
    fn bbox(&self) -> [f64; 4] {
        [self.box_x1, self.box_y1, self.box_x2, self.box_y2]
    }
}

#[derive(sqlx::FromRow)]
struct CorrectionRow {
    photo_id: i64,
    bib: String,
    present: bool,
}

/// Replaces a photo's read bibs inside a caller's transaction.
macro_rules! replace_reads {
    ($tx:expr, $photo_id:expr, $event_id:expr, $bibs:expr) => {{
        sqlx::query("DELETE FROM photo_bibs WHERE photo_id = $1")
            .bind($photo_id)
            .execute(&mut *$tx)
            .await?;
        for b in $bibs {
            sqlx::query(
                "INSERT INTO photo_bibs (photo_id, event_id, bib, confidence, box_x1, box_y1, \
                    box_x2, box_y2) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
                 ON CONFLICT (photo_id, bib) DO NOTHING",
            )
            .bind($photo_id)
            .bind($event_id)
            .bind(b.bib.as_str())
            .bind(b.confidence)
            .bind(b.bbox[0])
            .bind(b.bbox[1])
            .bind(b.bbox[2])
            .bind(b.bbox[3])
            .execute(&mut *$tx)
            .await?;
        }
    }};
}
pub(crate) use replace_reads;

impl Store {
    /// Replaces what reading found on a photo (best confidence first wins a repeated bib);
    /// corrections stay.
    pub async fn replace_photo_bibs(
        &self,
        photo_id: i64,
        event_id: i64,
        bibs: &[NewBib],
    ) -> Result<()> {
        let bibs = best_first(bibs);
        in_tx!(self, tx => { replace_reads!(tx, photo_id, event_id, &bibs); });
        Ok(())
    }

    /// Puts a bib on a photo (`present`) or takes it off, as operator `operator`.
    pub async fn correct_bib(
        &self,
        photo_id: i64,
        event_id: i64,
        bib: &Bib,
        present: bool,
        operator: &str,
        now: DateTime<Utc>,
    ) -> Result<()> {
        on_pool!(self, pool => sqlx::query(
            "INSERT INTO bib_corrections (photo_id, event_id, bib, present, operator, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (photo_id, bib) DO UPDATE SET \
                present = excluded.present, operator = excluded.operator, \
                created_at = excluded.created_at")
            .bind(photo_id).bind(event_id).bind(bib.as_str()).bind(present).bind(operator)
            .bind(millis(now)).execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// The shown photos of an event that carry `bib`, in photo order, with the box where
    /// it was read.
    pub async fn photos_with_bib(&self, event_id: i64, bib: &Bib) -> Result<Vec<BibHit>> {
        let reads: Vec<ReadRow> = on_pool!(self, pool => sqlx::query_as(
            "SELECT b.photo_id, b.bib, b.confidence, b.box_x1, b.box_y1, b.box_x2, b.box_y2 \
             FROM photo_bibs b JOIN photos p ON p.id = b.photo_id \
             WHERE b.event_id = $1 AND b.bib = $2 AND p.state = 'ready' AND NOT p.hidden")
            .bind(event_id).bind(bib.as_str()).fetch_all(pool).await)?;
        let corrections: Vec<CorrectionRow> = on_pool!(self, pool => sqlx::query_as(
            "SELECT c.photo_id, c.bib, c.present FROM bib_corrections c \
             JOIN photos p ON p.id = c.photo_id \
             WHERE c.event_id = $1 AND c.bib = $2 AND p.state = 'ready' AND NOT p.hidden")
            .bind(event_id).bind(bib.as_str()).fetch_all(pool).await)?;
        let mut hits: Vec<BibHit> = merge(reads, corrections)
            .into_iter()
            .filter(PhotoBib::searchable)
            .map(|b| BibHit {
                photo_id: b.photo_id,
                bbox: b.bbox,
            })
            .collect();
        hits.sort_by_key(|h| h.photo_id);
        Ok(hits)
    }

    /// Every bib of the photos `ids`, searchable or taken off, by photo then bib.
    pub async fn bibs_of_photos(&self, ids: &[i64]) -> Result<Vec<PhotoBib>> {
        let reads: Vec<ReadRow> = rows_with_ids!(self, ids, [], |list| format!(
            "SELECT photo_id, bib, confidence, box_x1, box_y1, box_x2, box_y2 FROM photo_bibs \
             WHERE photo_id IN ({list})"
        ));
        let corrections: Vec<CorrectionRow> = rows_with_ids!(self, ids, [], |list| format!(
            "SELECT photo_id, bib, present FROM bib_corrections WHERE photo_id IN ({list})"
        ));
        let mut bibs = merge(reads, corrections);
        bibs.sort_by(|a, b| (a.photo_id, &a.bib).cmp(&(b.photo_id, &b.bib)));
        Ok(bibs)
    }
}

impl Store {
    /// The ready photos of an event, by id.
    pub async fn ready_photo_ids(&self, event_id: i64) -> Result<Vec<i64>> {
        let rows: Vec<(i64,)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT id FROM photos WHERE event_id = $1 AND state = 'ready' ORDER BY id")
            .bind(event_id).fetch_all(pool).await)?;
        Ok(rows.into_iter().map(|(id,)| id).collect())
    }

    /// How many photos of an event carry a read bib, and how many reads there are.
    pub async fn bib_read_counts(&self, event_id: i64) -> Result<(i64, i64)> {
        Ok(on_pool!(self, pool => sqlx::query_as(
            "SELECT COUNT(DISTINCT photo_id), COUNT(*) FROM photo_bibs WHERE event_id = $1")
            .bind(event_id).fetch_one(pool).await)?)
    }
}

/// Each bib once, the most confident read first: a photo stores one read per bib.
pub(crate) fn best_first(bibs: &[NewBib]) -> Vec<NewBib> {
    let mut sorted = bibs.to_vec();
    sorted.sort_by(|a, b| b.confidence.total_cmp(&a.confidence));
    sorted
}

/// Reads and corrections of the same photos as one list: a correction decides.
fn merge(reads: Vec<ReadRow>, corrections: Vec<CorrectionRow>) -> Vec<PhotoBib> {
    use std::collections::HashMap;
    let decided: HashMap<(i64, &str), bool> = corrections
        .iter()
        .map(|c| ((c.photo_id, c.bib.as_str()), c.present))
        .collect();
    let mut out: Vec<PhotoBib> = reads
        .iter()
        .map(|r| PhotoBib {
            photo_id: r.photo_id,
            bib: Bib::from_stored(r.bib.clone()),
            source: match decided.get(&(r.photo_id, r.bib.as_str())) {
                Some(false) => BibSource::Removed,
                Some(true) | None => BibSource::Read,
            },
            confidence: Some(r.confidence),
            bbox: Some(r.bbox()),
        })
        .collect();
    let read: std::collections::HashSet<(i64, &str)> =
        reads.iter().map(|r| (r.photo_id, r.bib.as_str())).collect();
    out.extend(
        corrections
            .iter()
            .filter(|c| c.present && !read.contains(&(c.photo_id, c.bib.as_str())))
            .map(|c| PhotoBib {
                photo_id: c.photo_id,
                bib: Bib::from_stored(c.bib.clone()),
                source: BibSource::Added,
                confidence: None,
                bbox: None,
            }),
    );
    out
}
