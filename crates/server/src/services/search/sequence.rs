//! Matching by sequence in a face search ([`raceshot_vision::sequence`]): of the faces the
//! index found between the pair's sequence floor and the threshold, those that continue a
//! face matched outright in a photo the same photographer took within a second. Only shown
//! photos anchor, and only outright matches: a sequence match never anchors another.
//! Linear in the hits: anchors are grouped by photographer and looked up by time.

use std::collections::HashMap;

use raceshot_store::{Store, StoreError};
use raceshot_vision::Hit;
use raceshot_vision::sequence::{self, Sighting};

/// Of `below` (hits under the threshold), those that continue one of `direct` (hits at it or
/// above), in `below`'s order.
pub async fn confirm(
    store: &Store,
    event_id: i64,
    direct: &[Hit],
    below: &[Hit],
) -> Result<Vec<Hit>, StoreError> {
    if direct.is_empty() || below.is_empty() {
        return Ok(Vec::new());
    }
    let hits = || direct.iter().chain(below);
    let photo_ids: Vec<i64> = hits().map(|h| h.photo_id).collect();
    let face_ids: Vec<i64> = hits().map(|h| h.face_id).collect();
    let photos: HashMap<i64, (i64, Option<i64>)> = store
        .shown_photos(event_id, &photo_ids)
        .await?
        .into_iter()
        .map(|p| (p.id, (p.photographer_id, p.taken_at)))
        .collect();
    let boxes: HashMap<i64, [f64; 4]> = store
        .face_boxes(event_id, &face_ids)
        .await?
        .into_iter()
        .collect();
    let sighting = |h: &Hit| {
        let &(camera, taken_ms) = photos.get(&h.photo_id)?;
        Some(Sighting {
            camera,
            taken_ms: taken_ms?,
            bbox: boxes.get(&h.face_id)?.map(|v| v as f32),
        })
    };
    Ok(continuing(
        &direct.iter().filter_map(sighting).collect::<Vec<_>>(),
        below.iter().map(|h| (h, sighting(h))),
    ))
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
