//! `EventKey`: the public, URL-safe name of an event (`/{event_key}` in the shop).
//!
//! It is also the first segment of every object-storage key of the event, so only a
//! parsed key may reach storage or SQL.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Paths the shop itself owns (pages, and `/v1/events/...` calls); an event with one of
/// these keys would shadow one of them or be shadowed.
const RESERVED: &[&str] = &[
    "404",
    "about",
    "admin",
    "api",
    "assets",
    "cart",
    "cart-wholesale",
    "cartopn",
    "d",
    "dd",
    "download",
    "dp",
    "event",
    "event-key",
    "eventqr",
    "find-order",
    "healthz",
    "how-to-order",
    "how-to-use",
    "media",
    "metrics",
    "pagination",
    "pagination-count",
    "readyz",
    "refund-policy",
    "slider-banner",
    "soon",
    "terms-of-use",
    "v1",
    "v2",
    "v3",
];

pub const MAX_LEN: usize = 64;

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct EventKey(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EventKeyError {
    #[error("event key must be 1 to {MAX_LEN} characters")]
    Length,
    #[error("event key may hold only a-z, 0-9, '-' and '_', and must start with a letter or digit")]
    Characters,
    #[error("event key '{0}' is reserved for a page of the shop")]
    Reserved(String),
}

impl EventKey {
    pub fn parse(raw: &str) -> Result<Self, EventKeyError> {
        if raw.is_empty() || raw.len() > MAX_LEN {
            return Err(EventKeyError::Length);
        }
        let mut chars = raw.chars();
        let first_ok = chars
            .next()
            .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
        let rest_ok =
            chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
        if !first_ok || !rest_ok {
            return Err(EventKeyError::Characters);
        }
        if RESERVED.contains(&raw) {
            return Err(EventKeyError::Reserved(raw.to_owned()));
        }
        Ok(Self(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for EventKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for EventKey {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for EventKey {
    type Error = EventKeyError;
    fn try_from(raw: String) -> Result<Self, Self::Error> {
        Self::parse(&raw)
    }
}

impl<'de> Deserialize<'de> for EventKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(d)?;
        EventKey::parse(&raw).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_ordinary_keys() {
        for k in ["demo", "bangkok-marathon-2026", "run_10k", "2026chiangmai"] {
            assert_eq!(EventKey::parse(k).map(|k| k.to_string()), Ok(k.to_owned()));
        }
    }

    #[test]
    fn refuses_what_could_escape_a_path_or_shadow_a_page() {
        assert_eq!(EventKey::parse(""), Err(EventKeyError::Length));
        assert_eq!(EventKey::parse(&"a".repeat(65)), Err(EventKeyError::Length));
        for k in [
            "../etc", "a/b", "Demo", "-x", "_x", "a b", "ก", "a.b", "a%2f",
        ] {
            assert_eq!(EventKey::parse(k), Err(EventKeyError::Characters), "{k}");
        }
        assert!(matches!(
            EventKey::parse("cart"),
            Err(EventKeyError::Reserved(_))
        ));
        assert!(matches!(
            EventKey::parse("admin"),
            Err(EventKeyError::Reserved(_))
        ));
    }
}
