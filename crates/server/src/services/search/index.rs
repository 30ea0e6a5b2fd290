//! The per-event face indexes of this process: a cache over the embeddings stored in the
//! database, each of one model pair's faces (an index never mixes pairs: an event moved to
//! another pair is loaded afresh). An event's index is built on its first search and,
//! before every search, catches up with faces stored since (by any process, through any
//! replica), so a replica never needs a restart to find new photos. Hidden or deleted photos are filtered out when
//! results are turned into photos.
//!
//! A cold index starts from the event's snapshot when one matches the rows, then reads the
//! faces stored after it; once `search.index_snapshot_faces` faces have arrived since the
//! last snapshot, a new one is written in the background (`snapshot`).
//!
//! The cache is bounded by memory (`search.index_memory_mb`): past it, the indexes searched
//! least recently (warmed but never searched first) are dropped, and loaded again by their
//! next search. The resident size is the `face_index_resident_bytes` gauge.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use raceshot_store::Store;
use raceshot_store::objects::Objects;
use raceshot_vision::{Embedding, FaceIndex, Hit, ModelPair, Thresholds};

use super::snapshot;

/// Faces read per query while loading an event.
const PAGE: i64 = 20_000;

/// Where a query's matches start.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cutoff {
    /// One threshold for every face.
    Fixed(f32),
    /// Thresholds fitted on how the query scores against the event's faces, class by
    /// class of face width ([`raceshot_vision::calibration`]), never below `least` nor
    /// above `most`.
    Fitted { least: f32, most: f32 },
}

impl Cutoff {
    /// Each width class's threshold for `query` on `index`.
    fn thresholds(
        self,
        index: &FaceIndex,
        query: &Embedding,
    ) -> raceshot_vision::Result<Thresholds> {
        Ok(match self {
            Cutoff::Fixed(t) => Thresholds::uniform(t),
            Cutoff::Fitted { least, most } => index.stranger_fit(query)?.thresholds(least, most),
        })
    }
}

pub struct FaceIndexes {
    store: Store,
    objects: Objects,
    /// Faces that arrive after an event's last snapshot before another is written (0:
    /// never written).
    snapshot_every: usize,
    /// The most bytes the indexes may hold before the least recently searched go.
    budget: usize,
    events: Mutex<HashMap<i64, Arc<EventIndex>>>,
    /// A counter that orders searches: higher is more recent.
    clock: AtomicU64,
}

struct EventIndex {
    /// The pair whose faces it holds.
    pair: ModelPair,
    index: RwLock<FaceIndex>,
    loaded: tokio::sync::Mutex<Loaded>,
    /// Faces the event's newest snapshot known here holds.
    snapshot_faces: AtomicUsize,
    /// A snapshot is being written.
    writing: AtomicBool,
    /// When it was last searched (`FaceIndexes::clock`); 0: only warmed.
    last_search: AtomicU64,
}

#[derive(Default)]
struct Loaded {
    /// Highest face id loaded; faces are only ever added with higher ids.
    up_to: i64,
    /// Whether the snapshot was looked for (once, before the first rows).
    snapshot_checked: bool,
}

impl EventIndex {
    fn memory_bytes(&self) -> usize {
        self.index.read().map_or(0, |i| i.memory_bytes())
    }
}

impl FaceIndexes {
    pub fn new(store: Store, objects: Objects, budget_bytes: usize, snapshot_every: usize) -> Self {
        Self {
            store,
            objects,
            snapshot_every,
            budget: budget_bytes,
            events: Mutex::new(HashMap::new()),
            clock: AtomicU64::new(0),
        }
    }

    /// The event's index of `pair`'s faces; one of another pair is dropped.
    fn event(&self, event_id: i64, pair: ModelPair) -> Arc<EventIndex> {
        let mut events = self.events.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(ev) = events.get(&event_id)
            && ev.pair == pair
        {
            return ev.clone();
        }
        let ev = Arc::new(EventIndex {
            pair,
            index: RwLock::new(FaceIndex::new(pair.embedding_dim())),
            loaded: tokio::sync::Mutex::new(Loaded::default()),
            snapshot_faces: AtomicUsize::new(0),
            writing: AtomicBool::new(false),
            last_search: AtomicU64::new(0),
        });
        events.insert(event_id, ev.clone());
        ev
    }

    /// Drops the least recently searched indexes (never `keep`) until the rest fit the
    /// budget, and reports what stays.
    fn evict(&self, keep: i64) {
        let mut events = self.events.lock().unwrap_or_else(|p| p.into_inner());
        let mut sizes: Vec<(u64, i64, usize)> = events
            .iter()
            .map(|(id, e)| (e.last_search.load(Ordering::Relaxed), *id, e.memory_bytes()))
            .collect();
        let mut total: usize = sizes.iter().map(|(_, _, bytes)| bytes).sum();
        sizes.sort_unstable();
        for (_, id, bytes) in sizes {
            if total <= self.budget {
                break;
            }
            if id != keep {
                events.remove(&id);
                total -= bytes;
                tracing::info!(event = id, bytes, "face index evicted");
            }
        }
        metrics::gauge!("face_index_resident_bytes").set(total as f64);
        metrics::gauge!("face_index_events").set(events.len() as f64);
    }

    /// The exact similarity of `query` to each of `face_ids` in the event's index as it is
    /// loaded now (`None`: not there): a search's second look at a few faces.
    pub fn similarities(
        &self,
        event_id: i64,
        pair: ModelPair,
        query: &Embedding,
        face_ids: &[i64],
    ) -> Vec<Option<f32>> {
        self.loaded(event_id, pair, |index| {
            face_ids
                .iter()
                .map(|&id| index.similarity(query, id))
                .collect()
        })
        .unwrap_or_else(|| vec![None; face_ids.len()])
    }

    /// For each of `face_ids`, how much it resembles the most alike of `others` in the
    /// event's index as it is loaded now ([`FaceIndex::most_alike`]; `None`: not there).
    pub fn most_alike(
        &self,
        event_id: i64,
        pair: ModelPair,
        face_ids: &[i64],
        others: &[i64],
    ) -> Vec<Option<f32>> {
        self.loaded(event_id, pair, |index| index.most_alike(face_ids, others))
            .unwrap_or_else(|| vec![None; face_ids.len()])
    }

    /// `read` of the event's index of `pair`'s faces if it is loaded now.
    fn loaded<T>(
        &self,
        event_id: i64,
        pair: ModelPair,
        read: impl FnOnce(&FaceIndex) -> T,
    ) -> Option<T> {
        let ev = {
            let events = self.events.lock().unwrap_or_else(|p| p.into_inner());
            events.get(&event_id).filter(|e| e.pair == pair).cloned()
        }?;
        let index = ev.index.read().unwrap_or_else(|p| p.into_inner());
        Some(read(&index))
    }

    /// Bytes the indexes hold now.
    pub fn resident_bytes(&self) -> usize {
        let events = self.events.lock().unwrap_or_else(|p| p.into_inner());
        events.values().map(|e| e.memory_bytes()).sum()
    }

    /// The events whose index is held now.
    pub fn resident_events(&self) -> Vec<i64> {
        let events = self.events.lock().unwrap_or_else(|p| p.into_inner());
        let mut ids: Vec<i64> = events.keys().copied().collect();
        ids.sort_unstable();
        ids
    }

    /// Loads the event's faces stored since the last call: the first call starts from the
    /// event's snapshot when one matches the rows.
    async fn catch_up(&self, event_id: i64, ev: &Arc<EventIndex>) -> anyhow::Result<()> {
        let mut loaded = ev.loaded.lock().await;
        if !loaded.snapshot_checked {
            loaded.snapshot_checked = true;
            match snapshot::load(&self.store, &self.objects, event_id, ev.pair).await {
                Ok(Some((index, up_to))) => {
                    tracing::info!(
                        event = event_id,
                        faces = index.len(),
                        "face index read from its snapshot"
                    );
                    ev.snapshot_faces.store(index.len(), Ordering::Relaxed);
                    *ev.index.write().unwrap_or_else(|p| p.into_inner()) = index;
                    loaded.up_to = up_to;
                }
                Ok(None) => {}
                Err(e) => tracing::warn!(
                    event = event_id,
                    error = format!("{e:#}"),
                    "face index snapshot unreadable: building from the rows"
                ),
            }
        }
        loop {
            let faces = (self.store)
                .faces_after(event_id, ev.pair.name(), loaded.up_to, PAGE)
                .await?;
            let Some(last) = faces.last() else {
                break;
            };
            let last_id = last.id;
            let mut parsed = Vec::with_capacity(faces.len());
            for f in &faces {
                parsed.push((
                    f.id,
                    f.photo_id,
                    Embedding::from_bytes(&f.embedding, ev.pair.embedding_dim())?,
                    f.width(),
                ));
            }
            {
                let mut index = ev.index.write().unwrap_or_else(|p| p.into_inner());
                for (face_id, photo_id, embedding, width) in &parsed {
                    index.insert_face(*face_id, *photo_id, embedding, *width)?;
                }
            }
            loaded.up_to = last_id;
            if (faces.len() as i64) < PAGE {
                break;
            }
        }
        drop(loaded);
        self.snapshot_when_due(event_id, ev);
        Ok(())
    }

    /// Writes a snapshot in the background once enough faces arrived since the last; the
    /// writer writes again while faces that arrived during a write make another due (a
    /// search meanwhile finds it busy and leaves it to the writer).
    fn snapshot_when_due(&self, event_id: i64, ev: &Arc<EventIndex>) {
        let every = self.snapshot_every;
        if !snapshot_due(ev, every) || ev.writing.swap(true, Ordering::AcqRel) {
            return;
        }
        let (store, objects, ev) = (self.store.clone(), self.objects.clone(), ev.clone());
        tokio::spawn(async move {
            loop {
                match snapshot::write(&store, &objects, event_id, ev.pair, &ev.index).await {
                    Ok(faces) => ev.snapshot_faces.store(faces, Ordering::Relaxed),
                    Err(e) => {
                        tracing::warn!(
                            event = event_id,
                            error = format!("{e:#}"),
                            "face index snapshot not written"
                        );
                        ev.writing.store(false, Ordering::Release);
                        return;
                    }
                }
                ev.writing.store(false, Ordering::Release);
                // Faces a search added while this one was written, after it found the
                // writer busy, are seen here: it added them before it looked.
                if !snapshot_due(&ev, every) || ev.writing.swap(true, Ordering::AcqRel) {
                    return;
                }
            }
        });
    }

    /// Loads an event's faces of `pair` ahead of its first search.
    pub async fn warm(&self, event_id: i64, pair: ModelPair) -> anyhow::Result<()> {
        let ev = self.event(event_id, pair);
        self.catch_up(event_id, &ev).await?;
        self.evict(event_id);
        Ok(())
    }

    /// The best face of each photo above `threshold` among the event's faces of `pair`
    /// (the pair that embedded `query`), best first, at most `k`.
    pub async fn search(
        &self,
        event_id: i64,
        pair: ModelPair,
        query: Embedding,
        threshold: f32,
        k: usize,
    ) -> anyhow::Result<Vec<Hit>> {
        let mut each = self
            .search_each(event_id, pair, vec![(query, Cutoff::Fixed(threshold))], k)
            .await?;
        Ok(each.pop().unwrap_or_default())
    }

    /// [`FaceIndexes::search`] for several queries, each from its own cutoff (fitted ones
    /// on the same faces the search scans), under one read of the index and in one pass
    /// over it ([`FaceIndex::search_each`]): the hits of each, in the order given.
    pub async fn search_each(
        &self,
        event_id: i64,
        pair: ModelPair,
        queries: Vec<(Embedding, Cutoff)>,
        k: usize,
    ) -> anyhow::Result<Vec<Vec<Hit>>> {
        let ev = self.event(event_id, pair);
        let now = self.clock.fetch_add(1, Ordering::Relaxed) + 1;
        ev.last_search.store(now, Ordering::Relaxed);
        self.catch_up(event_id, &ev).await?;
        self.evict(event_id);
        let hits = tokio::task::spawn_blocking(move || {
            let index = ev.index.read().unwrap_or_else(|p| p.into_inner());
            let queries = queries
                .iter()
                .map(|(q, cut)| Ok((q, cut.thresholds(&index, q)?)))
                .collect::<raceshot_vision::Result<Vec<_>>>()?;
            index.search_each(&queries, k)
        })
        .await??;
        Ok(hits)
    }
}

/// Whether `every` faces (0: never) have arrived since the event's last snapshot.
fn snapshot_due(ev: &EventIndex, every: usize) -> bool {
    let faces = ev.index.read().map_or(0, |i| i.len());
    every > 0 && faces >= ev.snapshot_faces.load(Ordering::Relaxed) + every
}
