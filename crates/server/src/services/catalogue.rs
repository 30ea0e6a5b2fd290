//! The catalogue in memory: every visible event with its tiers, and the carousel slides,
//! reloaded from the store at most every `server.catalogue_ttl_ms` (and at once after a
//! write through this process), by one request while the others are answered from the
//! snapshot it replaces. The home page and event pages are read far more than
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

    fn current(&self) -> Option<Arc<Snapshot>> {
        self.current
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    fn fresh(&self) -> Option<Arc<Snapshot>> {
        self.current().filter(|s| s.loaded.elapsed() < self.ttl)
    }

    /// The current snapshot, reloaded first when it is older than the TTL. One request
    /// reloads; while it does, the others are answered from the snapshot it replaces
    /// rather than queue behind it (a reload every TTL would otherwise hold every request
    /// of that moment). After [`Catalogue::invalidate`] there is none to answer from:
    /// everyone waits for the reload, so a write shows at once.
    pub async fn snapshot(&self) -> Result<Arc<Snapshot>, StoreError> {
        let current = self.current();
        if let Some(s) = current.as_ref().filter(|s| s.loaded.elapsed() < self.ttl) {
            return Ok(s.clone());
        }
        let _guard = match (self.reload.try_lock(), current) {
            (Ok(guard), _) => guard,
            (Err(_), Some(stale)) => return Ok(stale),
            (Err(_), None) => self.reload.lock().await,
        };
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

#[cfg(test)]
mod tests {
    use raceshot_store::testing::TestDatabase;

    use super::*;

    #[tokio::test]
    async fn a_stale_snapshot_answers_while_one_request_reloads_but_not_after_a_write() {
        let db = TestDatabase::sqlite();
        let catalogue = Catalogue::new(db.store().await, Duration::from_millis(1));
        let first = catalogue.snapshot().await.unwrap();
        tokio::time::sleep(Duration::from_millis(5)).await;

        // Stale, and another request is reloading: answered at once from the old one.
        let reloading = catalogue.reload.lock().await;
        let during = catalogue.snapshot().await.unwrap();
        assert!(Arc::ptr_eq(&first, &during));
        drop(reloading);
        let after = catalogue.snapshot().await.unwrap();
        assert!(!Arc::ptr_eq(&first, &after));

        // After a write there is nothing to answer from: requests wait for the reload.
        catalogue.invalidate();
        let reloading = catalogue.reload.lock().await;
        let waited = tokio::time::timeout(Duration::from_millis(50), catalogue.snapshot()).await;
        assert!(waited.is_err(), "answered before the reload");
        drop(reloading);
        let reloaded = catalogue.snapshot().await.unwrap();
        assert!(!Arc::ptr_eq(&after, &reloaded));
    }
}
