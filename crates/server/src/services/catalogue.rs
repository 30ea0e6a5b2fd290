//! The catalogue in memory: every visible event with its tiers, and the carousel slides,
//! reloaded from the store at most every `server.catalogue_ttl_ms` (and at once after a
//! write through this process). The home page and event pages are read far more than
//! events change, so they are served from here; changes made through another process or
//! replica show within the TTL. Sale fields are still derived from the clock per request.
//! Rendered answers are kept with the snapshot they came from.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use bytes::Bytes;
use chrono::{DateTime, Utc};
use raceshot_domain::event::{Banner, SaleState, SaleStatus};
use raceshot_store::events::Event;
use raceshot_store::{Store, StoreError};

pub struct Catalogue {
    store: Store,
    ttl: Duration,
    current: RwLock<Option<Arc<Snapshot>>>,
    reload: tokio::sync::Mutex<()>,
}

pub struct Snapshot {
    loaded: Instant,
    /// Pinned first, then the newest race.
    events: Vec<Event>,
    banners: Vec<(Option<i64>, Banner)>,
    rendered: Mutex<HashMap<String, Bytes>>,
}

impl Catalogue {
    pub fn new(store: Store, ttl: Duration) -> Self {
        Self {
            store,
            ttl,
            current: RwLock::new(None),
            reload: tokio::sync::Mutex::new(()),
        }
    }

    fn fresh(&self) -> Option<Arc<Snapshot>> {
        let current = self.current.read().unwrap_or_else(|p| p.into_inner());
        current
            .as_ref()
            .filter(|s| s.loaded.elapsed() < self.ttl)
            .cloned()
    }

    /// The current snapshot, reloaded first when it is older than the TTL.
    pub async fn snapshot(&self) -> Result<Arc<Snapshot>, StoreError> {
        if let Some(s) = self.fresh() {
            return Ok(s);
        }
        // One reload at a time; the others wait for it and take its result.
        let _guard = self.reload.lock().await;
        if let Some(s) = self.fresh() {
            return Ok(s);
        }
        let (events, banners) =
            tokio::try_join!(self.store.visible_events(), self.store.banners())?;
        let snapshot = Arc::new(Snapshot {
            loaded: Instant::now(),
            events,
            banners,
            rendered: Mutex::new(HashMap::new()),
        });
        *self.current.write().unwrap_or_else(|p| p.into_inner()) = Some(snapshot.clone());
        Ok(snapshot)
    }

    /// Forgets the snapshot after a write, so this process shows the change at once.
    pub fn invalidate(&self) {
        *self.current.write().unwrap_or_else(|p| p.into_inner()) = None;
    }
}

fn status_of(e: &Event, now: DateTime<Utc>) -> SaleStatus {
    SaleState::at(e.spec.on_sale_start, e.spec.on_sale_end, e.sale_closed, now).status
}

impl Snapshot {
    /// Events in a sale status at `now`: on sale and closed ones pinned first then newest;
    /// upcoming ones by the opening of their sale.
    pub fn in_status(&self, status: SaleStatus, now: DateTime<Utc>) -> Vec<&Event> {
        let mut events: Vec<&Event> = self
            .events
            .iter()
            .filter(|e| status_of(e, now) == status)
            .collect();
        if status == SaleStatus::Soon {
            events.sort_by_key(|e| (e.spec.on_sale_start, e.id));
        }
        events
    }

    pub fn by_key(&self, key: &str) -> Option<&Event> {
        self.events.iter().find(|e| e.spec.key.as_str() == key)
    }

    /// Shop-wide slides, then those of events on sale, in the events' order.
    pub fn banners_on_sale(&self, now: DateTime<Utc>) -> Vec<&Banner> {
        let shop = self
            .banners
            .iter()
            .filter(|(event, _)| event.is_none())
            .map(|(_, b)| b);
        let of_events = self
            .in_status(SaleStatus::OnSale, now)
            .into_iter()
            .flat_map(|e| {
                self.banners
                    .iter()
                    .filter(move |(event, _)| *event == Some(e.id))
                    .map(|(_, b)| b)
            });
        shop.chain(of_events).collect()
    }

    /// An answer rendered from this snapshot, kept under `key` until the snapshot is
    /// replaced (so derived fields are at most one TTL old).
    pub fn rendered<E>(
        &self,
        key: String,
        render: impl FnOnce() -> Result<Bytes, E>,
    ) -> Result<Bytes, E> {
        if let Some(b) = self
            .rendered
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&key)
        {
            return Ok(b.clone());
        }
        let bytes = render()?;
        self.rendered
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(key, bytes.clone());
        Ok(bytes)
    }
}
