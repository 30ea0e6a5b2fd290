//! `TestApp`: builds and starts the application for one test, on a database of its own,
//! with a fixed clock, and stops it when the test ends.

use std::net::SocketAddr;

use chrono::{DateTime, Utc};
use raceshot_domain::event::{EventInput, PackageInput};
use raceshot_server::app::startup::Application;
use raceshot_server::app::state::{AppState, Clock};
use raceshot_server::config::Config;
use raceshot_server::jobs::retention::Retention;
use raceshot_server::jobs::{BackgroundJob, JobContext, JobError};
use raceshot_store::testing::TestDatabase;
use raceshot_store::{Backend, Store};
use serde_json::Value;
use tokio::sync::oneshot;

pub const TOKEN: &str = "test-client-token";

/// Runs each listed `async fn(Backend)` test once on SQLite and once on PostgreSQL.
#[macro_export]
macro_rules! both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[tokio::test]
            async fn $name() { super::$name(raceshot_store::Backend::Sqlite).await })*
        }
        mod postgres {
            $(#[tokio::test]
            async fn $name() { super::$name(raceshot_store::Backend::Postgres).await }
            )*
        }
    };
}

/// The instant every test app lives at: 2026-12-05 10:00 in Bangkok.
pub fn now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-12-05T03:00:00Z")
        .map(|t| t.with_timezone(&Utc))
        .unwrap_or_default()
}

pub struct TestApp {
    pub addr: SocketAddr,
    /// The internal `/metrics` address, when the test configured one.
    pub metrics_addr: Option<SocketAddr>,
    pub client: reqwest::Client,
    pub store: Store,
    pub state: AppState,
    pub data_dir: std::path::PathBuf,
    shutdown: Option<oneshot::Sender<()>>,
    server: Option<tokio::task::JoinHandle<()>>,
    _db: TestDatabase,
    _dir: tempfile::TempDir,
}

pub struct TestAppBuilder {
    backend: Backend,
    events: Vec<EventInput>,
    env: Vec<(String, String)>,
}

impl TestApp {
    /// The shop on SQLite with one event on sale.
    pub async fn with_one_event(key: &str) -> TestApp {
        TestApp::builder(Backend::Sqlite)
            .with_event(event(key))
            .spawn()
            .await
    }

    pub fn builder(backend: Backend) -> TestAppBuilder {
        TestAppBuilder {
            backend,
            events: Vec::new(),
            env: Vec::new(),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(self.url(path))
            .bearer_auth(TOKEN)
            .send()
            .await
            .unwrap_or_else(|e| panic!("GET {path}: {e}"))
    }

    pub async fn post(&self, path: &str, body: &Value) -> reqwest::Response {
        self.client
            .post(self.url(path))
            .bearer_auth(TOKEN)
            .json(body)
            .send()
            .await
            .unwrap_or_else(|e| panic!("POST {path}: {e}"))
    }

    /// Stops the server and waits until it has stopped.
    pub async fn stop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(server) = self.server.take() {
            let _ = server.await;
        }
    }

    /// Runs the retention job once, here and now, as a worker would.
    pub async fn run_retention(&self) -> Result<(), JobError> {
        let ctx = JobContext {
            state: &self.state,
            job_id: 0,
            worker: "test",
        };
        Retention {}.run(&ctx).await
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

impl TestAppBuilder {
    pub fn with_event(mut self, event: EventInput) -> Self {
        self.events.push(event);
        self
    }

    /// Object storage on `s3` instead of a local directory.
    pub fn with_s3(self, s3: &raceshot_store::testing::S3TestServer) -> Self {
        self.with_env("RACESHOT__STORAGE__BUCKET", &s3.bucket)
            .with_env("RACESHOT__STORAGE__ENDPOINT", &s3.endpoint)
            .with_env("RACESHOT__STORAGE__PATH_STYLE", "true")
            .with_env("RACESHOT__STORAGE__ACCESS_KEY_ID", "test-key")
            .with_env("RACESHOT__STORAGE__SECRET_ACCESS_KEY", "test-secret")
    }

    /// A configuration setting of this app, as its `RACESHOT__…` variable.
    pub fn with_env(mut self, key: &str, value: &str) -> Self {
        self.env.push((key.to_owned(), value.to_owned()));
        self
    }

    pub async fn spawn(self) -> TestApp {
        let db = TestDatabase::new(self.backend).await;
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let env = [
            ("RACESHOT__SERVER__ADDR", "127.0.0.1:0".to_owned()),
            ("RACESHOT__DATA_DIR", dir.path().display().to_string()),
            ("RACESHOT__DATABASE__URL", db.settings.url.clone()),
            ("RACESHOT__DATABASE__MAX_CONNECTIONS", "5".to_owned()),
            ("RACESHOT__API__CLIENT_TOKEN", TOKEN.to_owned()),
            (
                "RACESHOT__FACES__MODELS_DIR",
                models_dir().display().to_string(),
            ),
            ("RACESHOT__JOBS__POLL_INTERVAL_MS", "50".to_owned()),
            ("RACESHOT__PAYMENTS__GATEWAY", "SANDBOX".to_owned()),
            ("RACESHOT__PAYMENTS__ALLOW_SANDBOX", "true".to_owned()),
        ];
        let env = env
            .map(|(k, v)| (k.to_owned(), v))
            .into_iter()
            .chain(self.env);
        let config = Config::from_sources(None, env).unwrap_or_else(|e| panic!("{e}"));
        let app = Application::build(config, Clock::Fixed(now()), true)
            .await
            .unwrap_or_else(|e| panic!("build: {e:#}"));
        let addr = app.local_addr().unwrap_or_else(|e| panic!("{e}"));
        let metrics_addr = app.metrics_addr();
        let store = app.state().store.clone();
        let state = app.state().clone();
        let specs: Vec<_> = self
            .events
            .iter()
            .map(|e| e.validate().unwrap_or_else(|errs| panic!("{errs:?}")))
            .collect();
        store
            .write_events(&specs, now())
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let (tx, rx) = oneshot::channel::<()>();
        let server = tokio::spawn(async move {
            let _ = app
                .run_until(async {
                    let _ = rx.await;
                })
                .await;
        });
        TestApp {
            addr,
            metrics_addr,
            client: reqwest::Client::new(),
            store,
            state,
            data_dir: dir.path().to_owned(),
            shutdown: Some(tx),
            server: Some(server),
            _db: db,
            _dir: dir,
        }
    }
}

/// An event on sale at [`now`], with four tiers and the all-photos deal.
pub fn event(key: &str) -> EventInput {
    let tier = |n: u32, price: f64| PackageInput {
        name: format!("{n} รูป"),
        name_en: format!("{n} photos"),
        number_of_photo: n,
        price,
    };
    EventInput {
        event_key: key.into(),
        title: format!("งานวิ่ง {key}"),
        event_date_text: "30 พ.ย. 2569".into(),
        eventdate: "2026-11-30".into(),
        province: "เชียงใหม่".into(),
        on_sale_start: "2026-12-01".into(),
        on_sale_end: "2026-12-10".into(),
        is_mhao: raceshot_domain::Flag::YES,
        mhao_price: Some(990.0),
        package: vec![
            tier(1, 60.0),
            tier(5, 250.0),
            tier(10, 450.0),
            tier(20, 800.0),
        ],
        ..EventInput::default()
    }
}

pub async fn json(resp: reqwest::Response) -> Value {
    resp.json()
        .await
        .unwrap_or_else(|e| panic!("not JSON: {e}"))
}

/// Asserts an error answer: its HTTP status, `status: "error"` and the stable code.
pub async fn assert_error(resp: reqwest::Response, status: u16, code: &str) -> Value {
    assert_eq!(resp.status().as_u16(), status, "HTTP status");
    let body = json(resp).await;
    assert_eq!(body["status"], "error", "{body}");
    assert_eq!(body["code"], code, "{body}");
    body
}

/// The models and test photos fetched by `make models`.
pub fn models_dir() -> std::path::PathBuf {
    std::env::var_os("RACESHOT__FACES__MODELS_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models"))
}

pub fn photo(name: &str) -> Vec<u8> {
    let path = models_dir().join("photos").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e} (run make models)", path.display()))
}

/// An event of the app by its key, as stored.
pub async fn stored_event(
    app: &TestApp,
    event_key: &str,
) -> (raceshot_domain::EventKey, raceshot_store::events::Event) {
    let key = raceshot_domain::EventKey::parse(event_key).unwrap_or_else(|e| panic!("{e}"));
    let event = app
        .store
        .event_by_key(&key)
        .await
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("no event {event_key}"));
    (key, event)
}

/// `n` photos of an event, ready at once (a small generated original each, no faces):
/// for tests of carts and orders, which need photos to exist and originals to deliver.
pub async fn ready_photos(app: &TestApp, event_key: &str, n: usize) -> Vec<i64> {
    let (key, event) = stored_event(app, event_key).await;
    let mut ids = Vec::with_capacity(n);
    for i in 0..n {
        let photo = raceshot_store::photos::NewPhoto {
            event_id: event.id,
            content_hash: format!("{event_key}-{i}-{}", uuid::Uuid::new_v4()),
            original_file_name: format!("IMG_{i:04}.jpg"),
            storage_name: format!("test{}.jpg", uuid::Uuid::new_v4().simple()),
            photographer_id: 7,
        };
        // The file first, then the row, as ingestion does.
        let shade = u8::try_from(i % 200).unwrap_or(0);
        let image = raceshot_vision::RgbImage::filled(64, 48, [shade, 120, 200]);
        let jpeg = raceshot_server::infra::imaging::encode_jpeg(&image, 90)
            .unwrap_or_else(|e| panic!("{e}"));
        let name = raceshot_store::StoredName::parse(&photo.storage_name)
            .unwrap_or_else(|| panic!("name"));
        app.state
            .objects
            .put(
                &raceshot_store::ObjectKey::new(&key, raceshot_store::ObjectKind::Original, &name),
                jpeg.into(),
            )
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        // Nobody works this queue: the photos are made ready right here.
        let job = |id: i64| raceshot_store::jobs::NewJob {
            queue: "test-unworked".into(),
            kind: "none".into(),
            payload: serde_json::json!({ "photo_id": id }),
            dedupe_key: None,
            max_attempts: 1,
            run_at: now(),
        };
        let added = app
            .store
            .add_photo(&photo, job, now())
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let raceshot_store::photos::Added::New(id) = added else {
            panic!("photo existed")
        };
        app.store
            .save_processed_photo(
                id,
                event.id,
                &raceshot_store::photos::ProcessedPhoto {
                    size: (6000, 4000),
                    ..Default::default()
                },
                now(),
            )
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        ids.push(id);
    }
    ids
}

/// The `found_ref` a search answering `ids` of the event hands out (made by the shop's
/// own code, as a face or bib search does): the all-photos deal covers those photos.
pub async fn found_ref(app: &TestApp, event_key: &str, ids: &[i64]) -> String {
    let (_, event) = stored_event(app, event_key).await;
    raceshot_server::services::commerce::deal::remember(&app.state, event.id, ids)
        .await
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The body of a GET as text (a page, a listing, the metrics).
pub async fn get_text(client: &reqwest::Client, url: impl reqwest::IntoUrl) -> String {
    client
        .get(url)
        .send()
        .await
        .unwrap_or_else(|e| panic!("GET: {e}"))
        .text()
        .await
        .unwrap_or_else(|e| panic!("GET body: {e}"))
}
