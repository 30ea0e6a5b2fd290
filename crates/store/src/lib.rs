//! All persistent state: SQL (SQLite or PostgreSQL, chosen by the database URL) and object
//! storage (a local directory or S3). Knows nothing of HTTP.
//!
//! Both SQL backends run the very same query text: every query is written once with `$n`
//! placeholders (which SQLite also understands) and the [`on_pool!`]/[`in_tx!`] macros
//! compile it once per backend, so each backend keeps its native types and there is no
//! second copy of any query to drift. Only the schema (`migrations/{sqlite,postgres}`) and
//! the odd statement that needs a backend's own feature (job claiming) differ. sqlx's
//! `Any` driver would have given one pool type too, but with fewer column types and a
//! conversion of every row at run time.
//!
//! Stored formats, alike on both backends: money as integer satang, instants as Unix
//! milliseconds, calendar dates as `YYYY-MM-DD` text (the shop's dates are Bangkok's,
//! UTC+7 without daylight saving). Migrations are numbered files and never edited once
//! they have landed (sqlx checks their checksums); a change is a new migration.

mod macros;
use macros::on_pool;

pub mod access_codes;
pub mod activity;
pub mod alerts;
pub mod audit;
pub mod bibs;
pub mod cart_logs;
pub mod certificates;
pub mod error;
pub mod events;
pub mod face_pairs;
pub mod face_snapshots;
pub mod finds;
pub mod frames;
pub mod jobs;
pub mod messages;
pub mod objects;
pub mod operators;
pub mod orders;
pub mod passes;
pub mod photos;
pub mod privacy;
pub mod results;
pub mod selfies;
pub mod settings;
#[cfg(feature = "testing")]
pub mod testing;
pub mod upload_tokens;
pub mod uploads;

use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

pub use error::StoreError;
pub use objects::{ObjectKey, ObjectKind, Objects, StorageSettings, StoredName};

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

/// Which SQL engine a store talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn of_url(url: &str) -> Result<Self> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Backend::Postgres)
        } else if url.starts_with("sqlite:") {
            Ok(Backend::Sqlite)
        } else {
            Err(StoreError::Config(
                "database url must start with sqlite: or postgres://".to_owned(),
            ))
        }
    }
}

#[derive(Debug, Clone)]
pub struct DatabaseSettings {
    pub url: String,
    pub max_connections: u32,
    /// How long a query waits for a connection (and SQLite for a lock) before failing.
    pub acquire_timeout: Duration,
}

#[derive(Clone)]
pub(crate) enum Pool {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// The store: one handle, cheap to clone, shared by every request and job.
#[derive(Clone)]
pub struct Store {
    pub(crate) pool: Pool,
}

impl Store {
    pub async fn connect(settings: &DatabaseSettings) -> Result<Self> {
        let pool = match Backend::of_url(&settings.url)? {
            Backend::Sqlite => {
                let options = SqliteConnectOptions::from_str(&settings.url)?;
                // A fresh data directory holds nothing yet; the database file needs its folder.
                if let Some(dir) = options.get_filename().parent()
                    && !dir.as_os_str().is_empty()
                {
                    std::fs::create_dir_all(dir).map_err(|e| {
                        StoreError::Config(format!("cannot create {}: {e}", dir.display()))
                    })?;
                }
                let options = options
                    .create_if_missing(true)
                    .journal_mode(SqliteJournalMode::Wal)
                    .synchronous(SqliteSynchronous::Normal)
                    .busy_timeout(settings.acquire_timeout)
                    .foreign_keys(true);
                Pool::Sqlite(
                    SqlitePoolOptions::new()
                        .max_connections(settings.max_connections)
                        .acquire_timeout(settings.acquire_timeout)
                        .connect_with(options)
                        .await?,
                )
            }
            Backend::Postgres => Pool::Postgres(
                PgPoolOptions::new()
                    .max_connections(settings.max_connections)
                    .acquire_timeout(settings.acquire_timeout)
                    .connect(&settings.url)
                    .await?,
            ),
        };
        Ok(Self { pool })
    }

    pub fn backend(&self) -> Backend {
        match self.pool {
            Pool::Sqlite(_) => Backend::Sqlite,
            Pool::Postgres(_) => Backend::Postgres,
        }
    }

    /// Applies every migration not yet applied; safe to run from several processes.
    pub async fn migrate(&self) -> Result<()> {
        match &self.pool {
            Pool::Sqlite(pool) => SQLITE_MIGRATIONS.run(pool).await?,
            Pool::Postgres(pool) => POSTGRES_MIGRATIONS.run(pool).await?,
        }
        Ok(())
    }

    /// A round trip to the database, for readiness checks.
    pub async fn ping(&self) -> Result<()> {
        on_pool!(self, pool => sqlx::query("SELECT 1").execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    pub async fn close(&self) {
        on_pool!(self, pool => pool.close().await);
    }
}

/// Milliseconds since the Unix epoch: how instants are stored.
pub(crate) fn millis(t: chrono::DateTime<chrono::Utc>) -> i64 {
    t.timestamp_millis()
}

pub(crate) fn from_millis(ms: i64) -> Result<chrono::DateTime<chrono::Utc>> {
    chrono::DateTime::from_timestamp_millis(ms)
        .ok_or_else(|| StoreError::Corrupt(format!("timestamp {ms} out of range")))
}

/// `$from, $from+1, …`: the placeholders of an `IN (…)` list of `count` values.
pub(crate) fn placeholders(from: usize, count: usize) -> String {
    (from..from + count)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}
