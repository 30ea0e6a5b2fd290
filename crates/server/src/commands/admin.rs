//! `raceshot admin …`: operator accounts from the command line, for the first admin and
//! for photographers with the events they may work on, and their upload tokens.

use anyhow::Context;
use chrono::{DateTime, Utc};
use raceshot_domain::EventKey;
use raceshot_store::Store;
use raceshot_store::operators::Role;

use crate::services::operators::{actor_of, cli_actor, hash_password, normalise_email};
use crate::services::uploads::{self, IssuedToken};

/// Passwords shorter than this are refused.
pub const MIN_PASSWORD_CHARS: usize = 10;

/// Creates an account; a photographer is given the named events. Answers its id.
pub async fn create_user(
    store: &Store,
    email: &str,
    role: Role,
    password: &str,
    events: &[String],
    now: DateTime<Utc>,
) -> anyhow::Result<i64> {
    let email = normalise_email(email);
    if !email.contains('@') || email.len() > 254 {
        anyhow::bail!("'{email}' is not an e-mail address");
    }
    if password.chars().count() < MIN_PASSWORD_CHARS {
        anyhow::bail!("the password needs at least {MIN_PASSWORD_CHARS} characters");
    }
    let mut event_ids = Vec::with_capacity(events.len());
    for key in events {
        let parsed = EventKey::parse(key).with_context(|| format!("event '{key}'"))?;
        let event = store
            .event_by_key(&parsed)
            .await?
            .with_context(|| format!("no event '{key}'"))?;
        event_ids.push(event.id);
    }
    let hash = tokio::task::spawn_blocking({
        let password = password.to_owned();
        move || hash_password(&password)
    })
    .await??;
    let id = store
        .create_operator(&email, &hash, role, now)
        .await?
        .with_context(|| format!("{email} has an account already"))?;
    for event_id in event_ids {
        store.assign_event(id, event_id).await?;
    }
    let detail = serde_json::json!({ "role": role.as_str(), "events": events });
    store
        .audit(&cli_actor(), "operator.create", &actor_of(id), &detail, now)
        .await?;
    Ok(id)
}

/// Makes an upload token for the account of `email`.
pub async fn upload_token(
    store: &Store,
    email: &str,
    label: &str,
    now: DateTime<Utc>,
) -> anyhow::Result<IssuedToken> {
    let email = normalise_email(email);
    let operator = store
        .operator_by_email(&email)
        .await?
        .with_context(|| format!("{email} has no account"))?;
    anyhow::ensure!(!operator.disabled, "the account of {email} is disabled");
    Ok(uploads::issue(store, operator.id, label, &cli_actor(), now).await?)
}
