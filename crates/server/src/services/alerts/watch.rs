//! Alerts at ingestion: each newly ingested photo's faces are matched against its event's
//! working alerts (in the ingest job, after the photo is stored), each match recorded once,
//! and a message scheduled: the first match of an alert is told at once, later ones in one
//! message no sooner than [`GAP`] after the last (so at most one message per quarter
//! hour, each with the count since the one before).
//!
//! The templates of an event's alerts are kept in this process as a [`FaceIndex`] (the
//! search's own scan, 8-bit codes): a photo's faces are checked against 10,000 alerts in
//! well under a millisecond. The cache is refreshed when an alert is confirmed or stopped
//! in this process, and at least every [`REFRESH`] for alerts confirmed through other
//! processes.
//!
//! A message is a `send_message` job whose subject is `{alert id}:{due}` (Unix ms), due at
//! that moment: each scheduled message is one job and one outbox row, sent at most once.
//! Once done with, the next match schedules the next ([`message_done`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use raceshot_store::alerts::AlertMatch;
use raceshot_store::photos::NewFace;
use raceshot_vision::{Embedding, FaceIndex, ModelPair};

use raceshot_store::Store;

use crate::jobs::kinds::SendMessage;
use crate::services::alerts::Alerting;
use crate::services::messages::{MessageKind, new_photos_subject, parse_new_photos_subject};

/// The least time between two messages of one alert.
pub const GAP: chrono::Duration = chrono::Duration::minutes(15);
/// How old an event's cached templates may be before they are read again.
pub const REFRESH: Duration = Duration::from_secs(60);

/// This process's alert templates, per event and model pair.
#[derive(Default)]
pub struct AlertTemplates {
    events: Mutex<HashMap<i64, Cached>>,
}

/// An event's templates of one pair, and when they were read.
type Cached = (ModelPair, Instant, Arc<FaceIndex>);

impl AlertTemplates {
    /// Reads an event's templates again at its next photo.
    pub fn forget(&self, event_id: i64) {
        self.events
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&event_id);
    }

    /// The working alerts of an event whose templates `pair` made, as an index (each
    /// alert one row, its id as photo id), read from the store when not cached (for that
    /// pair) or older than [`REFRESH`].
    async fn of(
        &self,
        store: &Store,
        now: DateTime<Utc>,
        event_id: i64,
        pair: ModelPair,
    ) -> anyhow::Result<Arc<FaceIndex>> {
        if let Some((of_pair, at, index)) = self
            .events
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&event_id)
            && *of_pair == pair
            && at.elapsed() < REFRESH
        {
            return Ok(index.clone());
        }
        let rows = store.alert_templates(event_id, pair.name(), now).await?;
        let dim = pair.embedding_dim();
        let mut index = FaceIndex::with_capacity(dim, rows.len());
        for (id, bytes) in rows {
            index.insert(id, id, &Embedding::from_bytes(&bytes, dim)?)?;
        }
        let index = Arc::new(index);
        self.events
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(event_id, (pair, Instant::now(), index.clone()));
        Ok(index)
    }
}

/// The alerts whose face is on a photo with `faces`, at `threshold`, each with its best
/// similarity.
pub fn matching(
    index: &FaceIndex,
    faces: &[NewFace],
    threshold: f32,
    dim: usize,
) -> Vec<AlertMatch> {
    let mut best: HashMap<i64, f32> = HashMap::new();
    for face in faces {
        let Ok(face) = Embedding::from_bytes(&face.embedding, dim) else {
            continue;
        };
        let Ok(hits) = index.search(&face, threshold, index.len()) else {
            continue;
        };
        for hit in hits {
            let s = best.entry(hit.photo_id).or_insert(hit.similarity);
            *s = s.max(hit.similarity);
        }
    }
    let mut matches: Vec<AlertMatch> = best
        .into_iter()
        .map(|(alert_id, similarity)| AlertMatch {
            alert_id,
            similarity,
        })
        .collect();
    matches.sort_by_key(|m| m.alert_id);
    matches
}

/// Matches a newly ingested photo's faces (`pair`'s, the event's) against its event's
/// alerts, records the matches and enqueues the messages now due. A photo hidden by a
/// privacy request tells no one.
pub async fn photo_ingested(
    cx: &Alerting<'_>,
    event_id: i64,
    photo_id: i64,
    pair: ModelPair,
    faces: &[NewFace],
    threshold: f32,
) -> anyhow::Result<usize> {
    if faces.is_empty() {
        return Ok(0);
    }
    let index = (cx.templates)
        .of(cx.store, cx.clock.now(), event_id, pair)
        .await?;
    if index.is_empty() {
        return Ok(0);
    }
    let matches = matching(&index, faces, threshold, pair.embedding_dim());
    if matches.is_empty() {
        return Ok(0);
    }
    let now = cx.clock.now();
    let scheduled = cx
        .store
        .record_alert_matches(photo_id, &matches, GAP, now)
        .await?;
    for (alert_id, due) in scheduled {
        enqueue_message(cx, alert_id, due).await?;
    }
    Ok(matches.len())
}

async fn enqueue_message(
    cx: &Alerting<'_>,
    alert_id: i64,
    due: DateTime<Utc>,
) -> anyhow::Result<()> {
    let Some(alert) = cx.store.alert_by_id(alert_id).await? else {
        return Ok(());
    };
    let job = SendMessage {
        kind: MessageKind::NewPhotos,
        subject: new_photos_subject(alert_id, due),
        channel: alert.channel.into(),
    };
    cx.store
        .enqueue(&cx.jobs.row(&job, due), cx.clock.now())
        .await?;
    cx.jobs.wake();
    metrics::counter!("alert_messages_scheduled_total").increment(1);
    Ok(())
}

/// The message of `subject` is done with (sent, refused or given up): when photos were
/// matched after it was due, the next is scheduled, a [`GAP`] after it.
pub async fn message_done(cx: &Alerting<'_>, subject: &str) -> anyhow::Result<()> {
    let Some((alert_id, due)) = parse_new_photos_subject(subject) else {
        return Ok(());
    };
    if cx.store.alert_message_done(alert_id, due).await? {
        let next = raceshot_store::alerts::next_message_at(due, GAP, cx.clock.now());
        if cx.store.schedule_alert_message(alert_id, next).await? {
            enqueue_message(cx, alert_id, next).await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(v: [f32; 2]) -> Embedding {
        Embedding::from_raw(v.to_vec(), 2).unwrap_or_else(|_| unreachable!())
    }

    fn face(v: [f32; 2]) -> NewFace {
        NewFace {
            embedding: e(v).to_bytes(),
            bbox: [0.0; 4],
            landmarks: Vec::new(),
            score: 0.9,
        }
    }

    #[test]
    fn a_photo_matches_each_alert_whose_face_it_shows_once_at_its_best() {
        let mut index = FaceIndex::new(2);
        for (id, v) in [(7, [1.0, 0.0]), (9, [0.0, 1.0]), (11, [-1.0, 0.0])] {
            index
                .insert(id, id, &e(v))
                .unwrap_or_else(|_| unreachable!());
        }
        let found = matching(
            &index,
            &[face([0.9, 0.1]), face([1.0, 0.02]), face([0.1, -1.0])],
            0.5,
            2,
        );
        assert_eq!(found.iter().map(|m| m.alert_id).collect::<Vec<_>>(), [7]);
        assert!(found[0].similarity > 0.99);
        assert!(matching(&index, &[], 0.5, 2).is_empty());
    }
}
