//! Bib numbers: reading them off a photo (part of `ingest_photo`, and again by
//! `raceshot bibs`), searching an event by bib with face expansion, and operators'
//! corrections.
//!
//! **Reading** keeps only what fits the event's [`BibRule`] at the reader's confidence.
//!
//! **Face expansion**: the photos where a bib was read show its runner above it. The face
//! above each bib box (the one whose torso holds the box) is that runner's face; the event's
//! faces are searched with it at the event's threshold, so the photos where the bib is
//! hidden, turned away or too small to read are found too (`matched_by: face`). A misread
//! bib would bring a stranger's face, so when there are several anchors only those that
//! agree with another anchor are used; a lone anchor is used as it is.
//!
//! **Worn bibs**: the face search asks which bib each face of a few photos wears
//! ([`worn`]), so that a runner's bib vouches for the faces only weakly like their selfie
//! (`raceshot_vision::lookalike`).
//!
//! The search answers its own [`BibSearchError`]; `api/bibsearch.rs` maps it to codes.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, FixedOffset, NaiveDateTime, TimeZone, Utc};
use raceshot_domain::{Bib, BibError, BibRule, Money, time};
use raceshot_store::bibs::NewBib;
use raceshot_store::events::Event;
use raceshot_store::photos::{Photo, StoredFace};
use raceshot_store::{Store, StoreError};
use raceshot_vision::image_io::date_taken;
use raceshot_vision::ocr::wearer;
use raceshot_vision::{BBox, BibReader, Embedding, ModelPair, RgbImage, cosine};

use crate::services::search::{SearchContext, average_price, by_photo, shown_by_id};

/// Why a bib search found nothing to answer: the bib typed does not fit the event's rule,
/// or the store or the face index failed. `api/` maps it to error codes.
#[derive(Debug, thiserror::Error)]
pub enum BibSearchError {
    /// Not a bib of this event (its message says why).
    #[error(transparent)]
    Invalid(#[from] BibError),
    #[error(transparent)]
    Store(#[from] raceshot_store::StoreError),
    /// The face index failed.
    #[error(transparent)]
    Fault(anyhow::Error),
}

/// At most this many anchor faces are searched for one bib.
const MAX_ANCHORS: usize = 8;

/// How a bib search found a photo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchedBy {
    /// The bib was read on it (or an operator put it there).
    Bib,
    /// Its runner's face, taken from the photos where the bib was read.
    Face,
}

/// The text lines read on a photo that are bibs of the event, boxes scaled by `scale`
/// into the original's pixels. `faces` are in `img`'s pixels.
pub fn read_photo_bibs(
    reader: &dyn BibReader,
    img: &RgbImage,
    faces: &[BBox],
    rule: &BibRule,
    scale: f64,
) -> raceshot_vision::Result<Vec<NewBib>> {
    let lines = reader.read_photo(img, faces)?;
    Ok(lines
        .into_iter()
        .filter_map(|line| {
            let bib = rule.parse(&line.text).ok()?;
            let b = line.bbox;
            Some(NewBib {
                bib,
                confidence: f64::from(line.confidence),
                bbox: [b.x1, b.y1, b.x2, b.y2].map(|v| f64::from(v) * scale),
            })
        })
        .collect())
}

/// When the photo was taken, from its EXIF: the camera's offset when it wrote one, else
/// Bangkok time (the shop's events are in Thailand).
pub fn taken_at(original: &[u8]) -> Option<DateTime<Utc>> {
    let taken = date_taken(original)?;
    let local = NaiveDateTime::parse_from_str(&taken.local, "%Y:%m:%d %H:%M:%S").ok()?;
    let offset = taken
        .offset
        .as_deref()
        .and_then(|o| {
            DateTime::parse_from_str(&format!("2000-01-01 00:00 {o}"), "%Y-%m-%d %H:%M %:z").ok()
        })
        .map_or_else(time::bangkok, |t| *t.offset());
    offset_local(offset, local)
}

fn offset_local(offset: FixedOffset, local: NaiveDateTime) -> Option<DateTime<Utc>> {
    offset
        .from_local_datetime(&local)
        .single()
        .map(|t| t.with_timezone(&Utc))
}

/// The bib a visitor typed, in normal form, or why it is not one of the event's.
pub fn parse_query(rule: &BibRule, text: &str) -> Result<Bib, BibError> {
    rule.parse(text)
}

/// The face whose runner wears the bib at `bib_box` among the faces of one photo (their
/// boxes `bbox_of`): [`raceshot_vision::ocr::wearer`].
pub fn face_above<'f, F>(
    faces: &[&'f F],
    bbox_of: impl Fn(&F) -> [f64; 4],
    bib_box: Option<[f64; 4]>,
) -> Option<&'f F> {
    let boxes: Vec<[f64; 4]> = faces.iter().map(|f| bbox_of(f)).collect();
    wearer(&boxes, bib_box).map(|i| faces[i])
}

/// The bib each face wears on the photos `ids`, by face id: the searchable bibs read (or
/// put on by an operator), each photo's given to its faces that `pair` made as
/// [`raceshot_vision::ocr::worn`] gives them. Two queries a 500 photos (the bibs read and
/// the operators' corrections) when none carries a bib, a third (the boxes of the faces on
/// those that do) otherwise; linear in the photos' bibs and faces.
pub async fn worn(
    store: &Store,
    pair: ModelPair,
    ids: &[i64],
) -> Result<HashMap<i64, Bib>, StoreError> {
    // Each photo's bibs with where they were read (none: put on by an operator).
    let mut bibs_of: HashMap<i64, Vec<_>> = HashMap::new();
    for b in store.bibs_of_photos(ids).await? {
        if b.searchable() {
            bibs_of.entry(b.photo_id).or_default().push((b.bib, b.bbox));
        }
    }
    if bibs_of.is_empty() {
        return Ok(HashMap::new());
    }
    // Only the photos that carry a bib have a face that wears one.
    let mut with_bibs: Vec<i64> = bibs_of.keys().copied().collect();
    with_bibs.sort_unstable();
    let mut faces_of: HashMap<i64, (Vec<i64>, Vec<[f64; 4]>)> = HashMap::new();
    for face in store.face_boxes(&with_bibs, pair.name()).await? {
        let (ids, boxes) = faces_of.entry(face.photo_id).or_default();
        ids.push(face.id);
        boxes.push(face.bbox());
    }
    let mut worn = HashMap::new();
    for (photo, bibs) in bibs_of {
        let Some((ids, boxes)) = faces_of.get(&photo) else {
            continue;
        };
        for (face, bib) in ids.iter().zip(raceshot_vision::ocr::worn(boxes, bibs)) {
            if let Some(bib) = bib {
                worn.insert(*face, bib);
            }
        }
    }
    Ok(worn)
}

/// The anchors to search with: all of them when they are one, else those that another
/// anchor agrees with (cosine at least `threshold`).
pub fn agreeing(anchors: Vec<Embedding>, threshold: f32) -> Vec<Embedding> {
    if anchors.len() < 2 {
        return anchors;
    }
    let agrees = |i: usize| {
        anchors
            .iter()
            .enumerate()
            .any(|(j, other)| j != i && cosine(&anchors[i], other) >= threshold)
    };
    let keep: Vec<bool> = (0..anchors.len()).map(agrees).collect();
    anchors
        .into_iter()
        .zip(keep)
        .filter_map(|(a, k)| k.then_some(a))
        .take(MAX_ANCHORS)
        .collect()
}

/// What a bib search found: the event's shown photos, those carrying the bib first.
#[derive(Debug, Clone)]
pub struct BibFound {
    pub photos: Vec<(Photo, MatchedBy)>,
    pub avg_price: Money,
    /// On each photo carrying the bib where the box tells whose it is: the runner's face
    /// (its box in the original's displayed pixels, and the detector's confidence).
    pub runner_faces: HashMap<i64, ([f64; 4], f64)>,
}

/// Searches the event for the photos of the runner wearing `text`.
pub async fn search(
    cx: SearchContext<'_>,
    event: &Event,
    text: &str,
) -> Result<BibFound, BibSearchError> {
    let spec = &event.spec;
    let bib = parse_query(&spec.bib_rule, text)?;
    let hits = cx.store.photos_with_bib(event.id, &bib).await?;
    let limit = spec.max_face_search as usize;
    let mut ids: Vec<(i64, MatchedBy)> = hits
        .iter()
        .take(limit)
        .map(|h| (h.photo_id, MatchedBy::Bib))
        .collect();

    let hit_ids: Vec<i64> = hits.iter().map(|h| h.photo_id).collect();
    let pair = cx
        .faces
        .pairs_of(event)
        .map_err(BibSearchError::Fault)?
        .pair;
    let faces = cx.store.faces_of_photos(&hit_ids, pair.name()).await?;
    let dim = pair.embedding_dim();
    let mut runner_faces = HashMap::new();
    let anchors: Vec<Embedding> = hits
        .iter()
        .filter_map(|h| {
            let on_photo: Vec<&StoredFace> =
                faces.iter().filter(|f| f.photo_id == h.photo_id).collect();
            let face = face_above(&on_photo, |f| f.bbox, h.bbox)?;
            runner_faces.insert(h.photo_id, (face.bbox, face.score));
            Embedding::from_bytes(&face.embedding, dim).ok()
        })
        .collect();
    let threshold = crate::app::faces::threshold(spec.face_threshold, pair);
    let mut seen: HashSet<i64> = ids.iter().map(|(id, _)| *id).collect();
    let mut searches = Vec::new();
    for anchor in agreeing(anchors, threshold) {
        let found = cx
            .indexes
            .search(event.id, pair, anchor, threshold, limit)
            .await
            .map_err(BibSearchError::Fault)?;
        searches.push(found);
    }
    for p in by_photo(searches) {
        if ids.len() >= limit {
            break;
        }
        if seen.insert(p.photo_id) {
            ids.push((p.photo_id, MatchedBy::Face));
        }
    }

    let wanted: Vec<i64> = ids.iter().map(|(id, _)| *id).collect();
    // Hidden and deleted photos drop out here.
    let shown = shown_by_id(cx.store, event.id, &wanted).await?;
    let photos: Vec<(Photo, MatchedBy)> = ids
        .iter()
        .filter_map(|(id, how)| Some((shown.get(id)?.clone(), *how)))
        .collect();
    metrics::counter!("bib_searches_total").increment(1);
    let avg_price = average_price(spec, photos.len());
    Ok(BibFound {
        photos,
        avg_price,
        runner_faces,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn face(id: i64, bbox: [f64; 4]) -> StoredFace {
        StoredFace {
            id,
            photo_id: 1,
            model_pair: "insightface".to_owned(),
            embedding: Vec::new(),
            bbox,
            score: 0.9,
        }
    }

    #[test]
    fn the_runner_is_the_face_above_the_bib() {
        let left = face(1, [100.0, 100.0, 150.0, 160.0]);
        let right = face(2, [400.0, 90.0, 450.0, 150.0]);
        let far_up = face(3, [100.0, 0.0, 150.0, 20.0]);
        let faces = [&left, &right, &far_up];
        // A bib on the left runner's chest.
        let bib = Some([95.0, 220.0, 160.0, 260.0]);
        assert_eq!(face_above(&faces, |f| f.bbox, bib).map(|f| f.id), Some(1));
        // Between the two, far from both centre lines: nobody's.
        assert_eq!(
            face_above(&faces, |f| f.bbox, Some([250.0, 220.0, 300.0, 260.0])),
            None
        );
        // Above every face: nobody's.
        assert_eq!(
            face_above(&faces, |f| f.bbox, Some([95.0, 0.0, 160.0, 10.0])),
            None
        );
        // An operator's bib has no box: only a photo with one face tells whose it is.
        assert_eq!(face_above(&faces, |f| f.bbox, None), None);
        assert_eq!(
            face_above(&[&right], |f| f.bbox, None).map(|f| f.id),
            Some(2)
        );
    }

    #[test]
    fn anchors_that_no_other_anchor_agrees_with_are_dropped() {
        let e = |v: [f32; 2]| Embedding::from_raw(v.to_vec(), 2).unwrap();
        let same = [e([1.0, 0.0]), e([0.99, 0.1]), e([0.0, 1.0])];
        let kept = agreeing(same.to_vec(), 0.5);
        assert_eq!(kept.len(), 2);
        assert!(kept.iter().all(|k| k.as_slice()[0] > 0.9));
        // One anchor is used as it is; two that disagree are both doubtful.
        assert_eq!(agreeing(vec![e([0.0, 1.0])], 0.5).len(), 1);
        assert!(agreeing(vec![e([1.0, 0.0]), e([0.0, 1.0])], 0.5).is_empty());
    }

    #[test]
    fn taken_at_reads_the_camera_clock_as_bangkok_unless_told() {
        let at = |s: &str| {
            let local = NaiveDateTime::parse_from_str(s, "%Y:%m:%d %H:%M:%S").unwrap();
            offset_local(time::bangkok(), local).unwrap()
        };
        assert_eq!(
            at("2026:11:22 06:15:30").to_rfc3339(),
            "2026-11-21T23:15:30+00:00"
        );
    }
}
