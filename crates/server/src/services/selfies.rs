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
use raceshot_store::{ObjectKey, StoreError, StoredName};
use sha2::{Digest, Sha256};
use tokio::sync::watch;

use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError, ShopResult};

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

/// Reserves an upload address for `client` to search `event_id`: its search id and when it
/// lapses. Only that client's search of that event may use it.
pub async fn reserve(
    state: &AppState,
    client: IpAddr,
    event_id: i64,
) -> ShopResult<(uuid::Uuid, DateTime<Utc>)> {
    state.rate_limits.sign.check(client)?;
    let now = Utc::now();
    let search_id = uuid::Uuid::new_v4();
    let expires = after(now, state.config.search.selfie_ttl);
    let reserved = state
        .store
        .reserve_selfie_upload(
            &search_id.to_string(),
            &client_key(client),
            event_id,
            i64::from(state.config.search.max_pending_uploads),
            expires,
            now,
        )
        .await?;
    if !reserved {
        return Err(ShopError::new(
            ErrorCode::RateLimited,
            "too many selfie uploads waiting; search with one first",
        )
        .retry_after(state.config.search.selfie_ttl.as_secs().max(1)));
    }
    Ok((search_id, expires))
}

/// Takes the address's one upload; the selfie then lives `search.selfie_ttl_secs` at most.
pub async fn mark_uploaded(state: &AppState, search_id: &uuid::Uuid) -> Result<bool, StoreError> {
    let expires = after(Utc::now(), state.config.search.selfie_ttl);
    state
        .store
        .mark_selfie_uploaded(&search_id.to_string(), expires)
        .await
}

/// Takes the address for its one search by `client` of `event_id`.
pub async fn take(
    state: &AppState,
    search_id: &uuid::Uuid,
    client: IpAddr,
    event_id: i64,
) -> Result<Taken, StoreError> {
    state
        .store
        .take_selfie_upload(
            &search_id.to_string(),
            &client_key(client),
            event_id,
            Utc::now(),
        )
        .await
}

/// Spends the address of a refused upload: it serves nothing any more.
pub async fn spend(state: &AppState, search_id: &uuid::Uuid) -> Result<bool, StoreError> {
    state
        .store
        .spend_selfie_upload(&search_id.to_string(), Utc::now())
        .await
}

/// Deletes every selfie past its lifetime; answers how many addresses were swept.
pub async fn sweep_once(state: &AppState) -> anyhow::Result<usize> {
    let now = Utc::now();
    let due = state.store.due_selfie_uploads(now, 500).await?;
    for upload in &due {
        let Some(key) = uuid::Uuid::parse_str(&upload.search_id)
            .ok()
            .and_then(|id| upload_key(&id))
        else {
            state.store.forget_selfie_upload(&upload.search_id).await?;
            continue;
        };
        state.objects.delete(&key).await?;
        if upload.swept {
            state.store.forget_selfie_upload(&upload.search_id).await?;
        } else {
            // Once more later, for an upload that was still arriving.
            let again = after(now, state.config.search.selfie_ttl);
            state
                .store
                .selfie_upload_swept(&upload.search_id, again)
                .await?;
        }
    }
    Ok(due.len())
}

/// Sweeps every `SWEEP_EVERY` until `stop` turns true; also deletes what searches found
/// once it has lapsed (`commerce::deal`).
pub async fn sweep_until(state: AppState, mut stop: watch::Receiver<bool>) {
    loop {
        match sweep_once(&state).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(uploads = n, "selfie uploads swept"),
            Err(e) => tracing::warn!(error = %e, "cannot sweep selfie uploads"),
        }
        if let Err(e) = crate::services::commerce::deal::forget_lapsed(&state).await {
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
