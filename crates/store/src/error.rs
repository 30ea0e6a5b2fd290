//! What can go wrong in storage.

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("object storage: {0}")]
    Object(#[from] object_store::Error),
    #[error("storage configuration: {0}")]
    Config(String),
    /// A stored value that cannot be what the code wrote: a bug or a hand edit.
    #[error("stored data is invalid: {0}")]
    Corrupt(String),
    #[error("not found")]
    NotFound,
}

/// Keys reach the store parsed, so one that fails to parse was read from a row.
impl From<raceshot_domain::event_key::EventKeyError> for StoreError {
    fn from(e: raceshot_domain::event_key::EventKeyError) -> Self {
        StoreError::Corrupt(e.to_string())
    }
}

impl StoreError {
    pub fn is_not_found(&self) -> bool {
        matches!(self, StoreError::NotFound)
            || matches!(
                self,
                StoreError::Object(object_store::Error::NotFound { .. })
            )
    }
}
