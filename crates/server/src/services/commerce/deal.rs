//! The all-photos deal is "all photos found of me": it covers the photos that a face, bib
//! or group search answered this buyer, not any photos. Each search that finds photos
//! hands out a `found_ref` (128 random bits) and the store keeps the photo ids under its
//! hash for `search.found_ttl_secs` (wall clock), on every replica alike; a cart taking
//! the deal names the references of its searches, and photos no named search found are
//! priced by the tiers. Nothing biometric is kept: photo ids only.

use std::collections::HashSet;

use chrono::Utc;
use sha2::{Digest, Sha256};

use super::{CommerceError, CommerceResult};
use raceshot_store::Store;

/// The most search references one cart may name.
pub const MAX_FOUND_REFS: usize = 8;

/// A reference is 32 lowercase hex digits.
const REF_LEN: usize = 32;

fn stored_id(reference: &str) -> String {
    hex::encode(Sha256::digest(reference.as_bytes()))
}

/// Records the photos a search answered for an event and hands out the reference that
/// lets its searcher take them at the deal's price; no record (and an empty reference)
/// when it found none. The record lasts `ttl` (`search.found_ttl_secs`).
pub async fn remember(
    store: &Store,
    ttl: std::time::Duration,
    event_id: i64,
    photo_ids: &[i64],
) -> CommerceResult<String> {
    if photo_ids.is_empty() {
        return Ok(String::new());
    }
    let reference = hex::encode(rand::random::<[u8; 16]>());
    let now = Utc::now();
    let expires = now + chrono::Duration::from_std(ttl).unwrap_or_default();
    store
        .remember_found(&stored_id(&reference), event_id, photo_ids, expires, now)
        .await?;
    Ok(reference)
}

/// The photos of the event that the searches named by `refs` found, while they last.
/// Malformed references are refused by name; unknown and lapsed ones cover nothing.
pub async fn covered(
    store: &Store,
    event_id: i64,
    refs: &[String],
) -> CommerceResult<HashSet<i64>> {
    if refs.len() > MAX_FOUND_REFS {
        return Err(CommerceError::TooManyFoundRefs);
    }
    let mut ids = Vec::with_capacity(refs.len());
    for (i, reference) in refs.iter().enumerate() {
        let reference = reference.trim();
        let well_formed = reference.len() == REF_LEN
            && reference
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        if !well_formed {
            return Err(CommerceError::MalformedFoundRef { index: i });
        }
        ids.push(stored_id(reference));
    }
    if ids.is_empty() {
        return Ok(HashSet::new());
    }
    let found = store.found_photos(event_id, &ids, Utc::now()).await?;
    Ok(found.into_iter().collect())
}

/// Deletes what searches found once it has lapsed (run by the selfie sweep).
pub async fn forget_lapsed(store: &Store) -> anyhow::Result<u64> {
    Ok(store.forget_finds_before(Utc::now()).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_hash_of_a_reference_is_stored() {
        let reference = "0123456789abcdef0123456789abcdef";
        let id = stored_id(reference);
        assert_eq!(id.len(), 64);
        assert!(!id.contains(reference));
        assert_eq!(id, stored_id(reference));
    }
}
