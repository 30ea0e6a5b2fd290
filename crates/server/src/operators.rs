//! Operator accounts' rules, shared by the console and the command line: argon2id
//! password hashes, how e-mail addresses are compared, and how failed sign-ins lock.

use argon2::password_hash::SaltString;
use argon2::{Argon2, PasswordHash, PasswordHasher, PasswordVerifier};
use chrono::{DateTime, Duration, Utc};

/// Locks never last longer than this, however many failures came before.
const MAX_LOCK: Duration = Duration::hours(1);

/// An argon2id PHC string of `password` (the crate's default, OWASP-recommended cost).
pub fn hash_password(password: &str) -> anyhow::Result<String> {
    let salt = SaltString::encode_b64(&rand::random::<[u8; 16]>())
        .map_err(|e| anyhow::anyhow!("salt: {e}"))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| anyhow::anyhow!("hashing: {e}"))
}

pub fn password_matches(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

/// E-mail addresses are compared as typed, without case or surrounding spaces.
pub fn normalise_email(email: &str) -> String {
    email.trim().to_lowercase()
}

/// When a failed sign-in locks the account: from the `max`-th failure on, for `base`
/// doubled per further failure, at most an hour.
pub fn lock_after(
    failures: i64,
    max: u32,
    base: std::time::Duration,
    now: DateTime<Utc>,
) -> Option<DateTime<Utc>> {
    let over = failures - i64::from(max);
    if over < 0 {
        return None;
    }
    let base = Duration::from_std(base).unwrap_or(Duration::minutes(1));
    let factor = 1i32 << over.min(16);
    let length = base.checked_mul(factor).unwrap_or(MAX_LOCK).min(MAX_LOCK);
    Some(now + length)
}

/// A hash of a random password nobody knows: what an unknown e-mail is checked against.
pub fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY
        .get_or_init(|| hash_password(&hex::encode(rand::random::<[u8; 16]>())).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_verify_only_themselves() {
        let hash = hash_password("correct horse battery staple").unwrap_or_default();
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(password_matches("correct horse battery staple", &hash));
        assert!(!password_matches("correct horse battery stapler", &hash));
        assert!(!password_matches("anything", "not a hash"));
    }

    #[test]
    fn locks_grow_from_the_allowance_on_and_stop_at_an_hour() {
        let now = Utc::now();
        let base = std::time::Duration::from_secs(60);
        assert_eq!(lock_after(4, 5, base, now), None);
        assert_eq!(
            lock_after(5, 5, base, now),
            Some(now + Duration::minutes(1))
        );
        assert_eq!(
            lock_after(6, 5, base, now),
            Some(now + Duration::minutes(2))
        );
        assert_eq!(
            lock_after(8, 5, base, now),
            Some(now + Duration::minutes(8))
        );
        assert_eq!(lock_after(60, 5, base, now), Some(now + Duration::hours(1)));
    }
}
