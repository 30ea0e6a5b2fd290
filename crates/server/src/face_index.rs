//! The per-event face indexes of this process: a cache over the embeddings stored in the
//! database. An event's index is built on its first search and, before every search,
//! catches up with faces stored since (by any process, through any replica), so a replica
//! never needs a restart to find new photos. Hidden or deleted photos are filtered out when
//! results are turned into photos.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};

use raceshot_faces::{Embedding, FaceIndex, Hit};
use raceshot_store::Store;

/// Faces read per query while loading an event.
const PAGE: i64 = 20_000;

pub struct FaceIndexes {
    store: Store,
    dim: usize,
    events: Mutex<HashMap<i64, Arc<EventIndex>>>,
}

struct EventIndex {
    index: RwLock<FaceIndex>,
    /// Highest face id loaded; faces are only ever added with higher ids.
    loaded_up_to: tokio::sync::Mutex<i64>,
}

impl FaceIndexes {
    pub fn new(store: Store, dim: usize) -> Self {
        Self {
            store,
            dim,
            events: Mutex::new(HashMap::new()),
        }
    }

    fn event(&self, event_id: i64) -> Arc<EventIndex> {
        let mut events = self.events.lock().unwrap_or_else(|p| p.into_inner());
        events
            .entry(event_id)
            .or_insert_with(|| {
                Arc::new(EventIndex {
                    index: RwLock::new(FaceIndex::new(self.dim)),
                    loaded_up_to: tokio::sync::Mutex::new(0),
                })
            })
            .clone()
    }

    /// Loads the event's faces stored since the last call.
    async fn catch_up(&self, event_id: i64, ev: &EventIndex) -> anyhow::Result<()> {
        let mut up_to = ev.loaded_up_to.lock().await;
        loop {
            let faces = self.store.faces_after(event_id, *up_to, PAGE).await?;
            let Some(last) = faces.last() else {
                return Ok(());
            };
            let last_id = last.id;
            let mut parsed = Vec::with_capacity(faces.len());
            for f in &faces {
                parsed.push((
                    f.id,
                    f.photo_id,
                    Embedding::from_bytes(&f.embedding, self.dim)?,
                ));
            }
            {
                let mut index = ev.index.write().unwrap_or_else(|p| p.into_inner());
                for (face_id, photo_id, embedding) in &parsed {
                    index.insert(*face_id, *photo_id, embedding)?;
                }
            }
            *up_to = last_id;
            if (faces.len() as i64) < PAGE {
                return Ok(());
            }
        }
    }

    /// Loads an event's faces ahead of its first search.
    pub async fn warm(&self, event_id: i64) -> anyhow::Result<()> {
        let ev = self.event(event_id);
        self.catch_up(event_id, &ev).await
    }

    /// The best face of each photo above `threshold`, best first, at most `k`.
    pub async fn search(
        &self,
        event_id: i64,
        query: Embedding,
        threshold: f32,
        k: usize,
    ) -> anyhow::Result<Vec<Hit>> {
        let ev = self.event(event_id);
        self.catch_up(event_id, &ev).await?;
        let hits = tokio::task::spawn_blocking(move || {
            let index = ev.index.read().unwrap_or_else(|p| p.into_inner());
            index.search(&query, threshold, k)
        })
        .await??;
        Ok(hits)
    }

    /// Faces held in memory over all events, for metrics.
    pub fn faces_in_memory(&self) -> usize {
        let events = self.events.lock().unwrap_or_else(|p| p.into_inner());
        events
            .values()
            .map(|e| e.index.read().map_or(0, |i| i.len()))
            .sum()
    }
}
