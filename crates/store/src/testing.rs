//! Test support: each test gets a database of its own — a SQLite file in a temporary
//! directory, or a fresh PostgreSQL database on the server named by
//! `RACESHOT_TEST_POSTGRES_URL` (default `postgres://postgres@127.0.0.1:5432/test`) that is
//! dropped when the test ends, even when it fails.

// Test support: a broken fixture must fail the test on the spot.
#![allow(clippy::panic)]

use std::time::Duration;

use sqlx::Connection;
use sqlx::postgres::PgConnection;

use crate::{Backend, DatabaseSettings, Store};

pub const DEFAULT_POSTGRES_URL: &str = "postgres://postgres@127.0.0.1:5432/test";

pub fn postgres_admin_url() -> String {
    std::env::var("RACESHOT_TEST_POSTGRES_URL").unwrap_or_else(|_| DEFAULT_POSTGRES_URL.to_owned())
}

/// A database that exists for as long as this value does.
pub struct TestDatabase {
    pub settings: DatabaseSettings,
    pg_name: Option<String>,
    _dir: Option<tempfile::TempDir>,
}

impl TestDatabase {
    pub async fn new(backend: Backend) -> Self {
        match backend {
            Backend::Sqlite => Self::sqlite(),
            Backend::Postgres => Self::postgres().await,
        }
    }

    pub fn sqlite() -> Self {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
        let url = format!("sqlite://{}", dir.path().join("raceshot.db").display());
        Self {
            settings: settings(url),
            pg_name: None,
            _dir: Some(dir),
        }
    }

    pub async fn postgres() -> Self {
        let admin = postgres_admin_url();
        let name = format!("raceshot_test_{}", uuid::Uuid::new_v4().simple());
        let mut conn = PgConnection::connect(&admin)
            .await
            .unwrap_or_else(|e| panic!("PostgreSQL is needed for these tests ({admin}): {e}"));
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&mut conn)
            .await
            .unwrap_or_else(|e| panic!("create database {name}: {e}"));
        let _ = conn.close().await;
        let base = admin
            .rsplit_once('/')
            .map_or(admin.as_str(), |(base, _)| base);
        Self {
            settings: settings(format!("{base}/{name}")),
            pg_name: Some(name),
            _dir: None,
        }
    }

    /// A migrated store on this database.
    pub async fn store(&self) -> Store {
        let store = Store::connect(&self.settings)
            .await
            .unwrap_or_else(|e| panic!("connect: {e}"));
        store
            .migrate()
            .await
            .unwrap_or_else(|e| panic!("migrate: {e}"));
        store
    }
}

fn settings(url: String) -> DatabaseSettings {
    DatabaseSettings {
        url,
        max_connections: 5,
        acquire_timeout: Duration::from_secs(10),
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        let Some(name) = self.pg_name.take() else {
            return;
        };
        // Drop runs inside the test's runtime, which cannot be blocked on; a thread with a
        // runtime of its own removes the database.
        let admin = postgres_admin_url();
        let handle = std::thread::spawn(move || {
            let Ok(rt) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                return;
            };
            rt.block_on(async {
                if let Ok(mut conn) = PgConnection::connect(&admin).await {
                    let sql = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
                    let _ = sqlx::query(sqlx::AssertSqlSafe(sql))
                        .execute(&mut conn)
                        .await;
                }
            });
        });
        let _ = handle.join();
    }
}

impl Store {
    /// Runs one statement as written, for tests that need a database to misbehave.
    pub async fn execute_raw(&self, sql: &str) -> crate::Result<()> {
        let sql = sqlx::AssertSqlSafe(sql.to_owned());
        crate::macros::on_pool!(self, pool => sqlx::raw_sql(sql).execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// The rows of a query of two text columns, for tests that look at what is stored.
    pub async fn fetch_raw_pairs(&self, sql: &str) -> crate::Result<Vec<(String, String)>> {
        let sql = sqlx::AssertSqlSafe(sql.to_owned());
        Ok(
            crate::macros::on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.0.clone())).fetch_all(pool).await)?,
        )
    }
}

/// An S3-compatible server (moto) of this test's own, on a free loopback port, with one
/// empty bucket; stopped when dropped. `RACESHOT_TEST_S3_SERVER` names the `moto_server`
/// program (`scripts/test-tools.sh` installs it and prints its path; `make test` sets it).
pub struct S3TestServer {
    child: std::process::Child,
    pub endpoint: String,
    pub bucket: String,
}

impl S3TestServer {
    pub async fn start() -> Self {
        let program = std::env::var("RACESHOT_TEST_S3_SERVER").unwrap_or_else(|_| {
            let home = std::env::var("HOME").unwrap_or_default();
            format!("{home}/.cache/raceshot/test-venv/bin/moto_server")
        });
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .unwrap_or_else(|e| panic!("free port: {e}"));
        let child = std::process::Command::new(&program)
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program} ({e}); run scripts/test-tools.sh"));
        let server = Self {
            child,
            endpoint: format!("http://127.0.0.1:{port}"),
            bucket: "photos".to_owned(),
        };
        // Creating the bucket doubles as the readiness probe: moto answers once it is up.
        let request = format!(
            "PUT /{} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            server.bucket
        );
        for _ in 0..150 {
            if let Ok(mut stream) = tokio::net::TcpStream::connect(("127.0.0.1", port)).await {
                use tokio::io::{AsyncReadExt, AsyncWriteExt};
                let mut answer = Vec::new();
                if stream.write_all(request.as_bytes()).await.is_ok()
                    && stream.read_to_end(&mut answer).await.is_ok()
                    && answer.starts_with(b"HTTP/1.1 200")
                {
                    return server;
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("the S3 test server did not come up on port {port}");
    }

    pub fn settings(&self) -> crate::StorageSettings {
        crate::StorageSettings::S3 {
            endpoint: Some(self.endpoint.clone()),
            bucket: self.bucket.clone(),
            region: "us-east-1".to_owned(),
            access_key_id: Some("test-key".to_owned()),
            secret_access_key: Some("test-secret".to_owned()),
            path_style: true,
        }
    }
}

impl Drop for S3TestServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
