//! Operator accounts' rules, shared by the console and the command line: argon2id
//! password hashes, how e-mail addresses are compared, signing in (a lock that grows with
//! repeated failures, every attempt audited), and how the audit log names who acted.

use argon2::password_hash::SaltString;
use argon2::{Argon2, PasswordHash, PasswordHasher, PasswordVerifier};
use chrono::{DateTime, Duration, Utc};
use raceshot_store::operators::{Operator, Role};
use raceshot_store::{Store, StoreError};
use sha2::{Digest, Sha256};

use crate::config::AdminConfig;
use crate::infra::cpu::CpuPool;

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

/// How the audit log names an operator account: by its id, never by its e-mail (the
/// console looks the address up when it shows the log).
pub fn actor_of(operator_id: i64) -> String {
    format!("operator:{operator_id}")
}

/// How the audit log names a sign-in attempt on an address that has no account: a keyed
/// hash of the normalised address, so that repeated tries on one address can be told
/// apart from tries on many, while nothing typed into the form is stored or shown.
pub fn unknown_actor(signing_key: &[u8], normalised_email: &str) -> String {
    let hash =
        crate::infra::signing::sign(signing_key, "audit-unknown-sign-in", &[normalised_email]);
    format!("unknown:{}", hash.get(..16).unwrap_or(&hash))
}

/// How the audit log names the command line: `cli:{user}` with the system account that
/// ran it (`$USER`), when that is a plain name; `cli:operator` otherwise.
pub fn cli_actor() -> String {
    cli_actor_of(std::env::var("USER").ok().as_deref())
}

fn cli_actor_of(user: Option<&str>) -> String {
    match user {
        Some(user)
            if !user.is_empty()
                && user.len() <= 32
                && user
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b)) =>
        {
            format!("cli:{user}")
        }
        _ => "cli:operator".to_owned(),
    }
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

/// What signing in needs besides the attempt itself.
pub struct SignInContext<'a> {
    pub store: &'a Store,
    pub cpu: &'a CpuPool,
    pub config: &'a AdminConfig,
    /// Keys the hash by which the audit log names an address without an account.
    pub signing_key: &'a [u8],
    pub now: DateTime<Utc>,
}

/// A sign-in that succeeded: the operator and the session token, which only the browser
/// keeps (the store holds its SHA-256, [`secret_hash`]).
pub struct SignedIn {
    pub operator: Operator,
    pub token: String,
    pub ttl: Duration,
}

/// Why a sign-in was refused.
#[derive(Debug, thiserror::Error)]
pub enum SignInRefused {
    /// A wrong password, an unknown or disabled account: all read the same.
    #[error("wrong e-mail or password")]
    InvalidCredentials,
    /// Too many failures; no attempt is checked before `until`.
    #[error("too many failed sign-ins; try again later")]
    Locked { until: DateTime<Utc> },
    #[error("checking the password")]
    Hashing(#[source] anyhow::Error),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Whether `operator` may work on (upload to, moderate) the event `event_id`: an admin on
/// every event, a photographer on the events assigned to them.
pub async fn may_work_on(
    store: &Store,
    operator: &Operator,
    event_id: i64,
) -> Result<bool, StoreError> {
    Ok(match operator.role {
        Role::Admin => true,
        Role::Photographer => store
            .operator_event_ids(operator.id)
            .await?
            .contains(&event_id),
    })
}

/// The stored form of a secret the shop hands out (a console session's token, an upload
/// token): its SHA-256, so a copy of the database opens nothing.
pub fn secret_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Checks `password` for the account of `email` and opens a session. An address without
/// an account is counted and locked like an account, and costs the same argon2 work, so
/// no answer (nor its timing) tells which addresses are accounts. Every failure is
/// audited, naming an account by its id and any other address by a keyed hash of it.
pub async fn sign_in(
    cx: &SignInContext<'_>,
    email: &str,
    password: String,
) -> Result<SignedIn, SignInRefused> {
    let (store, now) = (cx.store, cx.now);
    let email = normalise_email(email);
    if email.len() > raceshot_domain::Email::MAX_LENGTH {
        // No account can have it; nothing is learnt, nothing is stored.
        return Err(SignInRefused::InvalidCredentials);
    }
    let operator = store.operator_by_email(&email).await?;
    let (failures, locked_until) = match &operator {
        Some(o) => (o.failed_logins, o.locked_until),
        None => store.unknown_login_failures(&email).await?,
    };
    if let Some(until) = locked_until.filter(|u| *u > now) {
        return Err(SignInRefused::Locked { until });
    }
    let hash = operator
        .as_ref()
        .map_or_else(|| dummy_hash().to_owned(), |o| o.password_hash.clone());
    // In the CPU pool: argon2 takes tens of milliseconds on purpose.
    let matches = cx
        .cpu
        .run(move || password_matches(&password, &hash))
        .await
        .map_err(SignInRefused::Hashing)?;
    let operator = match operator {
        Some(o) if matches && !o.disabled => o,
        known => {
            let failures = failures + 1;
            let until = lock_after(
                failures,
                cx.config.max_failed_logins,
                cx.config.lockout,
                now,
            );
            match &known {
                Some(o) => {
                    store
                        .record_login_failure(o.id, failures, until, now)
                        .await?
                }
                None => {
                    store
                        .record_unknown_login_failure(&email, failures, until, now)
                        .await?
                }
            }
            let detail = serde_json::json!({
                "failures": failures,
                "locked": until.is_some(),
                "account": known.is_some(),
            });
            let actor = match &known {
                Some(o) => actor_of(o.id),
                None => unknown_actor(cx.signing_key, &email),
            };
            store
                .audit(&actor, "operator.login_failed", "", &detail, now)
                .await?;
            return Err(until.map_or(SignInRefused::InvalidCredentials, |until| {
                SignInRefused::Locked { until }
            }));
        }
    };
    store.record_login(operator.id, now).await?;
    let token = hex::encode(rand::random::<[u8; 32]>());
    let ttl = Duration::from_std(cx.config.session_ttl).unwrap_or(Duration::hours(12));
    store
        .create_session(&secret_hash(&token), operator.id, now + ttl, now)
        .await?;
    store
        .audit(
            &actor_of(operator.id),
            "operator.login",
            "",
            &serde_json::json!({}),
            now,
        )
        .await?;
    Ok(SignedIn {
        operator,
        token,
        ttl,
    })
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

    #[test]
    fn audit_actors_are_ids_never_typed_text() {
        assert_eq!(actor_of(17), "operator:17");
        let typed = "ghost\u{1b}[2J@example.com";
        let unknown = unknown_actor(b"key", typed);
        assert!(unknown.starts_with("unknown:") && unknown.len() == "unknown:".len() + 16);
        assert!(!unknown.contains("ghost"), "{unknown}");
        assert!(
            unknown
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == ':')
        );
        // The same address is the same actor, another is another; another key, another.
        assert_eq!(unknown, unknown_actor(b"key", typed));
        assert_ne!(unknown, unknown_actor(b"key", "ghost@example.com"));
        assert_ne!(unknown, unknown_actor(b"other key", typed));
        assert_eq!(cli_actor_of(Some("deploy")), "cli:deploy");
        assert_eq!(cli_actor_of(Some("x\ny")), "cli:operator");
        assert_eq!(cli_actor_of(None), "cli:operator");
    }
}
