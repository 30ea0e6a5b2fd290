//! Photo passes: an organiser includes photos in the entry fee. An operator makes a batch
//! of codes for an event, each covering some photos or the all-photos deal, and hands the
//! file of codes to the registration system; a code is kept only as its SHA-256 and
//! leaves the shop once, in that file. A code at checkout is commerce's business
//! (`commerce::pass`, `commerce::price_cart`, and the order that uses it up).

use chrono::{DateTime, Utc};
use raceshot_domain::pass::{PassCode, PassCover};
use raceshot_store::audit::event_target;
use raceshot_store::events::Event;
use raceshot_store::{Store, StoreError};
use sha2::{Digest, Sha256};

/// The most codes one batch makes.
pub const MAX_BATCH: usize = 10_000;

/// The longest name of a batch.
pub const MAX_BATCH_NAME: usize = 40;

#[derive(Debug, thiserror::Error)]
pub enum PassError {
    #[error("a batch makes 1 to {MAX_BATCH} codes")]
    Count,
    #[error(
        "a pass covers 1 to {} photos, or every photo (none given)",
        PassCover::MAX_PHOTOS
    )]
    Cover,
    #[error("a batch's name is 1 to {MAX_BATCH_NAME} letters, digits, spaces, '-' or '_'")]
    Name,
    #[error("this event already has a batch of that name")]
    BatchExists,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What is stored of a code: the SHA-256 of its normal form, in hex.
pub fn code_hash(code: &PassCode) -> String {
    hex::encode(Sha256::digest(code.as_str().as_bytes()))
}

/// A batch's name as an operator typed it, trimmed.
pub fn batch_name(raw: &str) -> Result<String, PassError> {
    let name = raw.trim();
    let ok = !name.is_empty()
        && name.chars().count() <= MAX_BATCH_NAME
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'));
    if ok {
        Ok(name.to_owned())
    } else {
        Err(PassError::Name)
    }
}

/// Makes a batch of `count` codes of `event` covering `photos` photos each (`None`: the
/// all-photos deal), as `actor` (audited, without the codes), and answers the codes.
pub async fn make_batch(
    store: &Store,
    event: &Event,
    name: &str,
    count: usize,
    photos: Option<u32>,
    actor: &str,
    now: DateTime<Utc>,
) -> Result<(Vec<PassCode>, PassCover), PassError> {
    let name = batch_name(name)?;
    if !(1..=MAX_BATCH).contains(&count) {
        return Err(PassError::Count);
    }
    let cover = PassCover::from_photos(photos).ok_or(PassError::Cover)?;
    if store
        .pass_batches(event.id)
        .await?
        .iter()
        .any(|b| b.batch == name)
    {
        return Err(PassError::BatchExists);
    }
    let codes: Vec<PassCode> = (0..count)
        .map(|_| PassCode::from_random(rand::random()))
        .collect();
    let hashes: Vec<String> = codes.iter().map(code_hash).collect();
    store
        .add_passes(event.id, &name, &hashes, cover, now)
        .await?;
    let detail = serde_json::json!({ "batch": name, "count": count, "photos": photos });
    store
        .audit(
            actor,
            "passes.create",
            &event_target(&event.spec.key),
            &detail,
            now,
        )
        .await?;
    Ok((codes, cover))
}

/// The file of a batch's codes for the registration system: CSV, one code a line as
/// printed for runners, with what it covers.
pub fn codes_csv(codes: &[PassCode], cover: PassCover) -> String {
    let covers = match cover {
        PassCover::Photos(n) => n.to_string(),
        PassCover::AllPhotos => "all".to_owned(),
    };
    let mut out = String::with_capacity(codes.len() * 24 + 16);
    out.push_str("code,photos\n");
    for code in codes {
        out.push_str(&format!("{code},{covers}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_names_and_the_codes_file() {
        assert_eq!(
            batch_name("  Entry 2026-A ").ok().as_deref(),
            Some("Entry 2026-A")
        );
        assert!(matches!(batch_name(""), Err(PassError::Name)));
        assert!(matches!(batch_name("a,b"), Err(PassError::Name)));
        assert!(matches!(batch_name(&"x".repeat(41)), Err(PassError::Name)));
        let code = PassCode::from_random([0; 12]);
        assert_eq!(
            codes_csv(std::slice::from_ref(&code), PassCover::Photos(5)),
            "code,photos\nAAAA-AAAA-AAAA,5\n"
        );
        assert_eq!(
            codes_csv(std::slice::from_ref(&code), PassCover::AllPhotos),
            "code,photos\nAAAA-AAAA-AAAA,all\n"
        );
        // The stored hash is of the normal form: however it is typed, the same.
        let typed = PassCode::parse("aaaa aaaa-aaaa").unwrap_or_else(|| panic!("parse"));
        assert_eq!(code_hash(&typed), code_hash(&code));
        assert_eq!(code_hash(&code).len(), 64);
    }
}
