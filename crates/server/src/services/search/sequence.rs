//! Matching by sequence in a face search ([`raceshot_vision::sequence`]): after the index
//! search, the faces of the photos each outright match's photographer took within a second
//! of it are scored against the selfie, and those between the pair's sequence floor and
//! the threshold that continue an outright match are found too. Only shown photos anchor
//! and are looked at, and only outright matches anchor: a sequence match never anchors
//! another. Three queries (the anchors' photos, their neighbours, the neighbours' face
//! boxes) and a dot product a neighbouring face, only when the search found something;
//! linear in the hits and their neighbours.

use std::collections::{HashMap, HashSet};

use raceshot_store::StoreError;
use raceshot_store::photos::FaceBox;
use raceshot_vision::sequence::{self, Sighting};
use raceshot_vision::{Embedding, Hit, ModelPair};

use super::SearchContext;

/// The photos of the same photographer a moment from `direct` (the outright matches of
/// `query`), best face each, whose face between `floor` and `threshold` continues one of
/// them.
pub async fn continued(
    cx: SearchContext<'_>,
    (event_id, pair): (i64, ModelPair),
    query: &Embedding,
    direct: &[Hit],
    (floor, threshold): (f32, f32),
) -> Result<Vec<Hit>, StoreError> {
    if direct.is_empty() || floor >= threshold {
        return Ok(Vec::new());
    }
    let found: HashSet<i64> = direct.iter().map(|h| h.photo_id).collect();
    let ids: Vec<i64> = found.iter().copied().collect();
    let mut photos: HashMap<i64, (i64, i64)> = cx
        .store
        .shown_photos(event_id, &ids)
        .await?
        .into_iter()
        .filter_map(|p| Some((p.id, (p.photographer_id, p.taken_at?))))
        .collect();
    let mut windows: Vec<(i64, i64, i64)> = photos
        .values()
        .map(|&(by, at)| (by, at - sequence::WINDOW_MS, at + sequence::WINDOW_MS))
        .collect();
    windows.sort_unstable();
    windows.dedup();
    let mut near = Vec::new();
    for p in cx.store.photos_taken_within(event_id, &windows).await? {
        let Some(at) = p.taken_at else { continue };
        if !found.contains(&p.id) && photos.insert(p.id, (p.photographer_id, at)).is_none() {
            near.push(p.id);
        }
    }
    if near.is_empty() {
        return Ok(Vec::new());
    }
    let looked: Vec<i64> = ids.iter().chain(&near).copied().collect();
    let boxes = cx.store.face_boxes(&looked, pair.name()).await?;
    let sighting = |b: &FaceBox| {
        let &(camera, taken_ms) = photos.get(&b.photo_id)?;
        Some(Sighting {
            camera,
            taken_ms,
            bbox: b.bbox().map(|v| v as f32),
        })
    };
    let anchor_faces: HashSet<i64> = direct.iter().map(|h| h.face_id).collect();
    let anchors: Vec<Sighting> = boxes
        .iter()
        .filter(|b| anchor_faces.contains(&b.id))
        .filter_map(sighting)
        .collect();
    let candidates: Vec<_> = boxes
        .iter()
        .filter(|b| !found.contains(&b.photo_id))
        .collect();
    let face_ids: Vec<i64> = candidates.iter().map(|b| b.id).collect();
    let scores = cx.indexes.similarities(event_id, pair, query, &face_ids);
    let hits: Vec<(Hit, Option<Sighting>)> = candidates
        .iter()
        .zip(scores)
        .filter_map(|(b, score)| {
            let similarity = score.filter(|s| (floor..threshold).contains(s))?;
            let hit = Hit {
                photo_id: b.photo_id,
                face_id: b.id,
                similarity,
            };
            Some((hit, sighting(b)))
        })
        .collect();
    let mut best: HashMap<i64, Hit> = HashMap::new();
    for hit in continuing(&anchors, hits.iter().map(|(h, s)| (h, *s))) {
        best.entry(hit.photo_id)
            .and_modify(|b| {
                if hit.similarity > b.similarity {
                    *b = hit;
                }
            })
            .or_insert(hit);
    }
    Ok(best.into_values().collect())
}

/// The hits whose sighting continues one of `anchors`.
fn continuing<'a>(
    anchors: &[Sighting],
    below: impl Iterator<Item = (&'a Hit, Option<Sighting>)>,
) -> Vec<Hit> {
    let mut by_camera: HashMap<i64, Vec<&Sighting>> = HashMap::new();
    for a in anchors {
        by_camera.entry(a.camera).or_default().push(a);
    }
    for list in by_camera.values_mut() {
        list.sort_by_key(|a| a.taken_ms);
    }
    below
        .filter_map(|(hit, seen)| {
            let seen = seen?;
            let list = by_camera.get(&seen.camera)?;
            let from = list.partition_point(|a| a.taken_ms < seen.taken_ms - sequence::WINDOW_MS);
            list[from..]
                .iter()
                .take_while(|a| a.taken_ms <= seen.taken_ms + sequence::WINDOW_MS)
                .any(|a| sequence::continues(a, &seen))
                .then_some(*hit)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(camera: i64, taken_ms: i64, x: f32) -> Sighting {
        Sighting {
            camera,
            taken_ms,
            bbox: [x, 100.0, x + 60.0, 180.0],
        }
    }

    fn hit(photo_id: i64) -> Hit {
        Hit {
            photo_id,
            face_id: photo_id * 10,
            similarity: 0.25,
        }
    }

    #[test]
    fn only_hits_continuing_an_anchor_of_their_camera_and_moment_are_kept() {
        let anchors = [
            at(1, 10_000, 500.0),
            at(2, 10_000, 900.0),
            at(1, 20_000, 900.0),
        ];
        let (a, b, c, d, e) = (hit(1), hit(2), hit(3), hit(4), hit(5));
        let below = [
            (&a, Some(at(1, 10_400, 510.0))), // the first anchor's next frame
            (&b, Some(at(1, 10_400, 900.0))), // camera 1 then, but not where anyone was
            (&c, Some(at(2, 12_000, 900.0))), // camera 2, two seconds on
            (&d, None),                       // a photo with no time, or hidden
            (&e, Some(at(1, 19_200, 890.0))), // the third anchor's frame before
        ];
        let kept: Vec<i64> = continuing(&anchors, below.into_iter())
            .iter()
            .map(|h| h.photo_id)
            .collect();
        assert_eq!(kept, vec![1, 5]);
        assert!(continuing(&[], [(&a, Some(at(1, 10_400, 510.0)))].into_iter()).is_empty());
    }
}
