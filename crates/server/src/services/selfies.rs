//! The lifetime of a visitor's selfie (Thai PDPA treats a face as sensitive data). An
//! upload address is reserved per search, at most `search.max_pending_uploads` live per
//! client and `search.sign_per_client_per_minute` new ones a minute; it takes one upload
//! and serves one search. A search deletes its selfie at once; a selfie never searched is
//! deleted by the sweep, which runs every `SWEEP_EVERY` in every `serve` and `worker`
//! process, within `search.selfie_ttl_secs` of its upload (of the address's signing on
//! S3, where the browser uploads directly) plus at most `SWEEP_EVERY`. Lifetimes follow
//! the wall clock.

use std::net::IpAddr;
use std::time::Duration;

use chrono::{DateTime, Utc};
use raceshot_store::selfies::Taken;
use raceshot_store::{ObjectKey, Objects, Store, StoreError, StoredName};
use sha2::{Digest, Sha256};
use tokio::sync::watch;

use crate::config::SearchConfig;
use crate::infra::rate_limit::{Limited, RateLimiter};

/// How often the sweep looks for selfies past their lifetime.
pub const SWEEP_EVERY: Duration = Duration::from_secs(5);

/// Where a search's selfie is uploaded.
pub fn upload_key(search_id: &uuid::Uuid) -> Option<ObjectKey> {
    StoredName::parse(&search_id.simple().to_string()).map(|n| ObjectKey::shared("selfies", &n))
}

/// A client as the upload table knows it: a hash, not its address.
fn client_key(client: IpAddr) -> String {
    hex::encode(&Sha256::digest(client.to_string().as_bytes())[..16])
}

fn after(now: DateTime<Utc>, d: Duration) -> DateTime<Utc> {
    now + chrono::Duration::from_std(d).unwrap_or_default()
}

/// Why no upload address is reserved.
#[derive(Debug, thiserror::Error)]
pub enum ReserveError {
    /// The client asked for addresses too often.
    #[error(transparent)]
    Limited(#[from] Limited),
    /// The client holds as many unused addresses as it may: one lapses within `retry_after`
    /// seconds.
    #[error("too many selfie uploads waiting; search with one first")]
    TooManyWaiting { retry_after: u64 },
    #[error("the store failed")]
    Store(#[from] StoreError),
}

/// Reserves an upload address for `client` to search `event_id`: its search id and when it
/// lapses. Only that client's search of that event may use it; `limiter` counts the
/// client's requests for addresses.
pub async fn reserve(
    store: &Store,
    limiter: &RateLimiter,
    config: &SearchConfig,
    client: IpAddr,
    event_id: i64,
) -> Result<(uuid::Uuid, DateTime<Utc>), ReserveError> {
    limiter.check(client)?;
    let now = Utc::now();
    let search_id = uuid::Uuid::new_v4();
    let expires = after(now, config.selfie_ttl);
    let reserved = store
        .reserve_selfie_upload(
            &search_id.to_string(),
            &client_key(client),
            event_id,
            i64::from(config.max_pending_uploads),
            expires,
            now,
        )
        .await?;
    if !reserved {
        return Err(ReserveError::TooManyWaiting {
            retry_after: config.selfie_ttl.as_secs().max(1),
        });
    }
    Ok((search_id, expires))
}

/// Takes the address's one upload; the selfie then lives `ttl` (`search.selfie_ttl_secs`)
/// at most.
pub async fn mark_uploaded(
    store: &Store,
    ttl: Duration,
    search_id: &uuid::Uuid,
) -> Result<bool, StoreError> {
    let expires = after(Utc::now(), ttl);
    store
        .mark_selfie_uploaded(&search_id.to_string(), expires)
        .await
}

/// Takes the address for its one search by `client` of `event_id`.
pub async fn take(
    store: &Store,
    search_id: &uuid::Uuid,
    client: IpAddr,
    event_id: i64,
) -> Result<Taken, StoreError> {
    store
        .take_selfie_upload(
            &search_id.to_string(),
            &client_key(client),
            event_id,
            Utc::now(),
        )
        .await
}

/// Spends the address of a refused upload: it serves nothing any more.
pub async fn spend(store: &Store, search_id: &uuid::Uuid) -> Result<bool, StoreError> {
    store
        .spend_selfie_upload(&search_id.to_string(), Utc::now())
        .await
}

/// Deletes every selfie past its lifetime; answers how many addresses were swept. An
/// upload still arriving is swept once more `ttl` later.
pub async fn sweep_once(store: &Store, objects: &Objects, ttl: Duration) -> anyhow::Result<usize> {
    let now = Utc::now();
    let due = store.due_selfie_uploads(now, 500).await?;
    for upload in &due {
        let Some(key) = uuid::Uuid::parse_str(&upload.search_id)
            .ok()
            .and_then(|id| upload_key(&id))
        else {
            store.forget_selfie_upload(&upload.search_id).await?;
            continue;
        };
        objects.delete(&key).await?;
        if upload.swept {
            store.forget_selfie_upload(&upload.search_id).await?;
        } else {
            // Once more later, for an upload that was still arriving.
            let again = after(now, ttl);
            store.selfie_upload_swept(&upload.search_id, again).await?;
        }
    }
    Ok(due.len())
}

/// Sweeps every `SWEEP_EVERY` until `stop` turns true; also deletes what searches found
/// once it has lapsed (`commerce::deal`).
pub async fn sweep_until(
    store: Store,
    objects: Objects,
    ttl: Duration,
    mut stop: watch::Receiver<bool>,
) {
    loop {
        match sweep_once(&store, &objects, ttl).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(uploads = n, "selfie uploads swept"),
            Err(e) => tracing::warn!(error = %e, "cannot sweep selfie uploads"),
        }
        if let Err(e) = crate::services::commerce::deal::forget_lapsed(&store).await {
            tracing::warn!(error = %e, "cannot delete lapsed search finds");
        }
        if tokio::time::timeout(SWEEP_EVERY, stop.changed())
            .await
            .is_ok()
        {
            return;
        }
    }
}
