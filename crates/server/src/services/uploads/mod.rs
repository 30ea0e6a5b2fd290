//! Photos from the field: the upload tokens that cameras (FTP), the photographer's uploader
//! and resumable-upload clients sign in with, beside the account's e-mail address. A token
//! is a random secret shown once, when it is made; the store keeps its SHA-256 only
//! ([`secret_hash`]). Each belongs to one account and uploads only where that account may:
//! an admin to every event, a photographer to the events assigned to them. Making and
//! revoking one is audited; a use is recorded (at most once a minute) so the console can
//! show which tokens are alive. Where a token may upload is where its account may work
//! ([`crate::services::operators::may_work_on`]).

use chrono::{DateTime, Utc};
use raceshot_store::operators::{Operator, Role};
use raceshot_store::upload_tokens::{NewUploadToken, TokenScope, UploadToken};
use raceshot_store::{Store, StoreError};

pub mod resumable;

use crate::services::operators::{actor_of, secret_hash};

/// What every upload token starts with, so a leaked one is recognised (by secret scanners
/// too).
pub const TOKEN_PREFIX: &str = "rsu_";
/// A label is at most this many characters.
pub const MAX_LABEL_CHARS: usize = 60;
/// How many characters of the secret the console shows, to tell tokens apart.
const HINT_CHARS: usize = 4;

/// A token just made: its secret, shown this once, and the token as listed.
#[derive(Debug, Clone)]
pub struct IssuedToken {
    pub secret: String,
    pub token: UploadToken,
}

/// Why a token was not made or revoked.
#[derive(Debug, thiserror::Error)]
pub enum UploadTokenError {
    /// The label is empty, too long, or holds control characters.
    #[error("a label of 1 to {MAX_LABEL_CHARS} characters, without control characters")]
    BadLabel,
    /// No live token with this id in the caller's reach.
    #[error("no such upload token")]
    NotFound,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A label as typed, trimmed and checked.
fn parse_label(raw: &str) -> Result<String, UploadTokenError> {
    let label = raw.trim();
    let chars = label.chars().count();
    if chars == 0 || chars > MAX_LABEL_CHARS || label.chars().any(char::is_control) {
        return Err(UploadTokenError::BadLabel);
    }
    Ok(label.to_owned())
}

/// Makes a token for `operator_id`, audited as `actor`'s act.
pub async fn issue(
    store: &Store,
    operator_id: i64,
    label: &str,
    actor: &str,
    now: DateTime<Utc>,
) -> Result<IssuedToken, UploadTokenError> {
    let label = parse_label(label)?;
    let secret = format!("{TOKEN_PREFIX}{}", hex::encode(rand::random::<[u8; 24]>()));
    let hint = &secret[secret.len() - HINT_CHARS..];
    let token = store
        .create_upload_token(
            &NewUploadToken {
                operator_id,
                token_hash: &secret_hash(&secret),
                label: &label,
                hint,
            },
            now,
        )
        .await?;
    let detail = serde_json::json!({ "account": actor_of(operator_id), "label": label });
    store
        .audit(
            actor,
            "upload_token.create",
            &target(token.id),
            &detail,
            now,
        )
        .await?;
    Ok(IssuedToken { secret, token })
}

/// Revokes a live token in `scope`, audited as `actor`'s act.
pub async fn revoke(
    store: &Store,
    id: i64,
    scope: TokenScope,
    actor: &str,
    now: DateTime<Utc>,
) -> Result<(), UploadTokenError> {
    if !store.revoke_upload_token(id, scope, now).await? {
        return Err(UploadTokenError::NotFound);
    }
    store
        .audit(
            actor,
            "upload_token.revoke",
            &target(id),
            &serde_json::json!({}),
            now,
        )
        .await?;
    Ok(())
}

/// How the audit log names a token.
fn target(id: i64) -> String {
    format!("upload_token:{id}")
}

/// Whose tokens an operator may list and revoke: an admin everyone's, a photographer
/// their own.
pub fn scope_of(operator: &Operator) -> TokenScope {
    match operator.role {
        Role::Admin => TokenScope::All,
        Role::Photographer => TokenScope::Operator(operator.id),
    }
}

/// The account a presented secret signs in, if it is a live token of an enabled account.
/// Anything that cannot be a token is not looked up.
pub async fn authenticate(
    store: &Store,
    secret: &str,
    now: DateTime<Utc>,
) -> Result<Option<Operator>, StoreError> {
    if !secret.starts_with(TOKEN_PREFIX) || secret.len() > 128 {
        return Ok(None);
    }
    Ok(store
        .upload_token_operator(&secret_hash(secret), now)
        .await?
        .map(|(_, operator)| operator))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_trimmed_and_bounded() {
        assert_eq!(parse_label("  Nikon Z6 ").unwrap(), "Nikon Z6");
        assert_eq!(
            parse_label(&"ก".repeat(MAX_LABEL_CHARS))
                .unwrap()
                .chars()
                .count(),
            60
        );
        for bad in [
            "",
            "   ",
            "a\nb",
            "\u{1b}[2J",
            &"x".repeat(MAX_LABEL_CHARS + 1),
        ] {
            assert!(
                matches!(parse_label(bad), Err(UploadTokenError::BadLabel)),
                "{bad:?}"
            );
        }
    }
}
