//! The logo the shop puts on what it gives out: stamped on the copies of sold photos and
//! drawn on certificates. It is the event's logo, else the shop's (the `SHOP_LOGO`
//! setting); with neither, copies carry the shop's name and certificates no logo.

use bytes::Bytes;
use raceshot_domain::EventKey;
use raceshot_store::{ObjectKey, ObjectKind, Objects, Store, StoreError, StoredName};

/// The settings row naming the shop's logo (`_shop/logo/{name}` in storage).
pub const SHOP_LOGO_SETTING: &str = "SHOP_LOGO";

/// A logo's file as stored.
#[derive(Debug, Clone)]
pub struct Logo {
    /// Its storage key: a new upload is a new key.
    pub key: String,
    pub bytes: Bytes,
}

/// The key of the logo in force for `event_id`: the event's, else the shop's.
pub async fn logo_key(store: &Store, event_id: i64) -> Result<Option<String>, StoreError> {
    Ok(match store.event_logo_key(event_id).await? {
        Some(key) => Some(key),
        None => store.setting(SHOP_LOGO_SETTING).await?,
    })
}

/// The logo in force for `event_id`, read from storage; `None` when there is none, its
/// key is not one the shop writes, or its file is gone (each logged).
pub async fn logo(
    store: &Store,
    objects: &Objects,
    event_id: i64,
) -> Result<Option<Logo>, StoreError> {
    match logo_key(store, event_id).await? {
        Some(key) => read(objects, key).await,
        None => Ok(None),
    }
}

/// The logo stored under `key` (a [`logo_key`]); `None` when the key is not one the shop
/// writes or its file is gone (each logged).
pub async fn read(objects: &Objects, key: String) -> Result<Option<Logo>, StoreError> {
    let Some(object) = logo_object(&key) else {
        tracing::warn!(%key, "logo key is not a storage key; no logo is used");
        return Ok(None);
    };
    match objects.get(&object).await {
        Ok(bytes) => Ok(Some(Logo { key, bytes })),
        Err(e) if e.is_not_found() => {
            tracing::warn!(%key, "the logo's file is gone; no logo is used");
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// A logo's storage key from its setting: `{event_key}/logo/{name}` or `_shop/logo/{name}`.
fn logo_object(key: &str) -> Option<ObjectKey> {
    let (folder, name) = key.rsplit_once("/logo/")?;
    let name = StoredName::parse(name)?;
    if folder == "_shop" {
        return Some(ObjectKey::shared("logo", &name));
    }
    let event = EventKey::parse(folder).ok()?;
    Some(ObjectKey::new(&event, ObjectKind::Logo, &name))
}
