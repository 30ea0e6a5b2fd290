//! Moving an event to another face model pair (`raceshot faces reindex --event KEY`), so
//! that a shop can leave the pair it may not sell with without losing its events.
//!
//! The move is started ([`start`]: `events.reindex_to`, one `reindex_photo` job per ready
//! photo, while new photos get both pairs' faces at ingestion), then finished once every
//! photo has the new pair's faces ([`finish`]). Until then every search, privacy request and
//! alert of the event uses the old pair, so searches stay correct throughout; the old faces
//! are deleted twice the catalogue's lifetime after the switch, when no process can still be
//! searching them.
//!
//! The templates of privacy requests and alerts were made from selfies the shop no longer
//! holds, so they cannot be embedded again. Each is carried over through a photo of the
//! same person: among the photos it hid or matched (or, for one that has none, the event's
//! photos it finds at the event's threshold), its best-matching face of the old pair, and on
//! that photo the new pair's face at the same place (boxes overlapping by
//! [`SAME_FACE_IOU`]). A template found on no photo cannot be carried: the move is not
//! finished while it lives (a pending alert ends within minutes, an active one with the
//! sale; an operator decides a privacy request), and the command says which.

use raceshot_store::Store;
use raceshot_store::events::Event;
use raceshot_store::face_pairs::{Finished, OldTemplate, ReindexStart, TemplateOwner};
use raceshot_store::photos::StoredFace;
use raceshot_vision::{BBox, Embedding, ModelPair, cosine};

use crate::app::faces::{self, FaceModels};
use crate::infra::clock::Clock;
use crate::jobs::kinds::ReindexPhoto;
use crate::jobs::queue::JobQueue;
use crate::services::alerts::watch::AlertTemplates;
use crate::services::search::index::FaceIndexes;

/// The least overlap (intersection over union) of two pairs' boxes of one face.
pub const SAME_FACE_IOU: f32 = 0.5;
/// Photos of the event searched for a template that hid or matched none.
const CANDIDATES: usize = 20;

/// What moving an event uses: its rows, the engines and indexes of both pairs, the queue
/// of its photos' jobs, and the alerts' templates it replaces.
pub struct Reindexing<'a> {
    pub store: &'a Store,
    pub faces: &'a FaceModels,
    pub indexes: &'a FaceIndexes,
    pub alerts: &'a AlertTemplates,
    pub jobs: &'a JobQueue,
    pub clock: Clock,
    /// How long a process may search the event's old faces after the switch
    /// (`server.catalogue_ttl` twice).
    pub old_faces_kept: std::time::Duration,
}

/// What starting a move did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Started {
    /// Photos queued for the new pair's faces.
    Moving { queued: usize },
    /// The event uses the pair already.
    AlreadyOn,
}

/// Starts moving `event` to `pair`, or carries on with a move started before: every ready
/// photo without the pair's faces gets a job. For an event on the pair already, the faces
/// of other pairs left by a move called off or interrupted after its switch are deleted.
pub async fn start(cx: &Reindexing<'_>, event: &Event, pair: ModelPair) -> anyhow::Result<Started> {
    if cx.store.start_reindex(event.id, pair.name()).await? == ReindexStart::AlreadyOn {
        cx.store.delete_faces_of_other_pairs(event.id).await?;
        return Ok(Started::AlreadyOn);
    }
    cx.faces.engine(pair).await?;
    let ids = cx.store.photos_to_reindex(event.id, pair.name()).await?;
    let requested = cx.clock.now();
    for id in &ids {
        let job = ReindexPhoto {
            photo_id: *id,
            pair: pair.name().to_owned(),
        };
        (cx.store)
            .enqueue(&cx.jobs.row(&job, requested), requested)
            .await?;
    }
    cx.jobs.wake();
    Ok(Started::Moving { queued: ids.len() })
}

/// Of the event's photos, how many have `pair`'s faces, and how many there are.
pub async fn progress(
    cx: &Reindexing<'_>,
    event_id: i64,
    pair: ModelPair,
) -> anyhow::Result<(i64, i64)> {
    Ok(cx.store.reindex_progress(event_id, pair.name()).await?)
}

/// What finishing a move did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finish {
    /// The event uses the new pair: its templates carried, its old faces deleted.
    Moved { carried: usize, old_faces: u64 },
    /// Photos still lack the new pair's faces.
    PhotosLeft(i64),
    /// These templates are on none of the event's photos: the move waits for them to end.
    NotCarried(Vec<TemplateOwner>),
    /// The event is not moving to the pair.
    NotMoving,
}

/// Finishes moving `event` to `pair` when every photo has its faces: carries the templates
/// over and moves the event in one transaction. A template filed while the others were
/// carried is carried at the next of a few tries.
pub async fn finish(cx: &Reindexing<'_>, event: &Event, pair: ModelPair) -> anyhow::Result<Finish> {
    const TRIES: usize = 3;
    for _ in 0..TRIES {
        let (done, total) = progress(cx, event.id, pair).await?;
        if done < total {
            return Ok(Finish::PhotosLeft(total - done));
        }
        let old = cx.store.templates_to_carry(event.id, pair.name()).await?;
        let threshold = event.spec.face_threshold;
        let mut carried = Vec::with_capacity(old.len());
        let mut stranded = Vec::new();
        for template in old {
            match carry(cx, event.id, &template, pair, threshold).await? {
                Some(embedding) => carried.push((template.owner, embedding)),
                None => stranded.push(template.owner),
            }
        }
        if !stranded.is_empty() {
            return Ok(Finish::NotCarried(stranded));
        }
        match (cx.store)
            .finish_reindex(event.id, pair.name(), &carried)
            .await?
        {
            Finished::Moved => {
                cx.alerts.forget(event.id);
                // Processes whose catalogue still names the old pair search its faces a
                // little longer.
                tokio::time::sleep(cx.old_faces_kept).await;
                let old_faces = cx.store.delete_faces_of_other_pairs(event.id).await?;
                let carried = carried.len();
                return Ok(Finish::Moved { carried, old_faces });
            }
            Finished::PhotosLeft(n) => return Ok(Finish::PhotosLeft(n)),
            Finished::NotMoving => return Ok(Finish::NotMoving),
            Finished::TemplatesLeft(_) => continue,
        }
    }
    anyhow::bail!("templates kept being filed while the move was finished: try again")
}

/// The new pair's template of the person `template` shows: their face at the same place
/// on the photo where the old pair's face is most like the template.
async fn carry(
    cx: &Reindexing<'_>,
    event_id: i64,
    template: &OldTemplate,
    to: ModelPair,
    event_threshold: f64,
) -> anyhow::Result<Option<Vec<u8>>> {
    let from = faces::parse(&template.model_pair)?;
    let threshold = faces::threshold(event_threshold, from);
    let old = Embedding::from_bytes(&template.embedding, from.embedding_dim())?;
    let mut photos = template.photos.clone();
    if photos.is_empty() {
        let hits = (cx.indexes)
            .search(event_id, from, old.clone(), threshold, CANDIDATES)
            .await?;
        photos = hits.into_iter().map(|h| h.photo_id).collect();
    }
    let found = cx.store.faces_of_photos_all_pairs(&photos).await?;
    Ok(same_person(&found, &old, from, to, threshold).map(|f| f.embedding.clone()))
}

/// Among `faces` (of both pairs, on some photos), the `to` face at the place of the `from`
/// face most like `old`, if that one is at least `threshold` alike.
fn same_person<'a>(
    faces: &'a [StoredFace],
    old: &Embedding,
    from: ModelPair,
    to: ModelPair,
    threshold: f32,
) -> Option<&'a StoredFace> {
    let best = faces
        .iter()
        .filter(|f| f.model_pair == from.name())
        .filter_map(|f| {
            let e = Embedding::from_bytes(&f.embedding, from.embedding_dim()).ok()?;
            Some((cosine(&e, old), f))
        })
        .filter(|(s, _)| *s >= threshold)
        .max_by(|a, b| a.0.total_cmp(&b.0))?
        .1;
    faces
        .iter()
        .filter(|f| f.photo_id == best.photo_id && f.model_pair == to.name())
        .map(|f| (bbox(&f.bbox).iou(&bbox(&best.bbox)), f))
        .filter(|(overlap, _)| *overlap >= SAME_FACE_IOU)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, f)| f)
}

/// A stored `[x1, y1, x2, y2]` box as the vision crate's.
fn bbox(b: &[f64; 4]) -> BBox {
    let [x1, y1, x2, y2] = b.map(|v| v as f32);
    BBox { x1, y1, x2, y2 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn face(photo_id: i64, pair: ModelPair, values: &[f32], bbox: [f64; 4]) -> StoredFace {
        let mut v = vec![0.0; pair.embedding_dim()];
        v[..values.len()].copy_from_slice(values);
        let embedding = Embedding::from_raw(v, pair.embedding_dim()).map(|e| e.to_bytes());
        StoredFace {
            id: 0,
            photo_id,
            model_pair: pair.name().to_owned(),
            embedding: embedding.unwrap_or_default(),
            bbox,
            score: 0.9,
        }
    }

    #[test]
    fn a_template_is_carried_to_the_new_face_at_the_place_of_the_best_old_one() {
        let (from, to) = (ModelPair::InsightFace, ModelPair::YuNetSFace);
        let here = [100.0, 100.0, 200.0, 220.0];
        let there = [400.0, 100.0, 500.0, 220.0];
        let faces = vec![
            face(1, from, &[1.0, 0.2], here),  // the person, on photo 1
            face(1, from, &[0.0, 1.0], there), // someone else beside them
            face(1, to, &[0.3, 0.9], [395.0, 98.0, 505.0, 225.0]),
            face(1, to, &[0.9, 0.1], [104.0, 96.0, 198.0, 224.0]),
            face(2, from, &[0.7, 0.7], here), // less alike
            face(2, to, &[0.5, 0.5], here),
        ];
        let old = Embedding::from_raw(
            {
                let mut v = vec![0.0; from.embedding_dim()];
                v[0] = 1.0;
                v
            },
            from.embedding_dim(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let found = same_person(&faces, &old, from, to, 0.35).map(|f| (f.photo_id, f.bbox));
        assert_eq!(found, Some((1, [104.0, 96.0, 198.0, 224.0])));
        // Nobody alike enough: nothing carried.
        assert_eq!(same_person(&faces[1..2], &old, from, to, 0.35), None);
        // The new pair saw no face there: nothing carried.
        assert_eq!(same_person(&faces[..3], &old, from, to, 0.35), None);
    }
}
