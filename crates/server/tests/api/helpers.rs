//! `TestApp`: builds and starts the application for one test, on a database of its own,
//! with a fixed clock, and stops it when the test ends. It reads photos with stand-ins for
//! the models (`raceshot_vision::testing`: one face per photo, no bibs) and needs no model
//! files; tests about finding people ask for the real models (`with_models`).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use chrono::{DateTime, Utc};
use raceshot_domain::OrderUuid;
use raceshot_domain::event::{EventInput, PackageInput};
use raceshot_server::app::startup::{Application, Models};
use raceshot_server::app::state::{AppState, Clock};
use raceshot_server::commands::ingest;
use raceshot_server::config::Config;
use raceshot_server::jobs::kinds::Retention;
use raceshot_server::jobs::{BackgroundJob, JobContext, JobError};
use raceshot_store::operators::Role;
use raceshot_store::testing::TestDatabase;
use raceshot_store::{Backend, Store};
use reqwest::Method;
use serde_json::{Value, json};
use tokio::sync::oneshot;

pub const TOKEN: &str = "test-client-token";

/// The password of every console account tests make.
pub const PASSWORD: &str = "a long enough password";

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
    models: Models,
    jobs: bool,
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
            models: Models::StandIns,
            jobs: true,
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

    pub async fn delete(&self, path: &str) -> reqwest::Response {
        self.client
            .delete(self.url(path))
            .bearer_auth(TOKEN)
            .send()
            .await
            .unwrap_or_else(|e| panic!("DELETE {path}: {e}"))
    }

    /// Asks for an alert of new photos at `event_key` with `selfie` and the form's `fields`
    /// (`channel`, `mobile`, `consent`).
    pub async fn ask_alert(
        &self,
        event_key: &str,
        fields: &[(&str, &str)],
        selfie: Vec<u8>,
    ) -> reqwest::Response {
        let mut form = reqwest::multipart::Form::new().text("event_key", event_key.to_owned());
        for (name, value) in fields {
            form = form.text(name.to_string(), value.to_string());
        }
        form = form.part(
            "file",
            reqwest::multipart::Part::bytes(selfie).file_name("me.png"),
        );
        self.client
            .post(self.url("/api/alerts"))
            .bearer_auth(TOKEN)
            .multipart(form)
            .send()
            .await
            .unwrap()
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

    /// The real face and bib models (`make models`), for tests about finding people.
    pub fn with_models(mut self) -> Self {
        self.models = Models::Real;
        self
    }

    /// Payments by the shop's own PromptPay QR (slips checked by an operator) instead of
    /// the sandbox.
    pub fn with_own_promptpay(self) -> Self {
        self.with_env("RACESHOT__PAYMENTS__GATEWAY", "PROMPTPAY")
            .with_env("RACESHOT__PAYMENTS__PROMPTPAY_ID", "0801234567")
    }

    /// No job runner: what is queued stays queued (as with `serve --no-jobs` and no worker).
    pub fn without_jobs(mut self) -> Self {
        self.jobs = false;
        self
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
        let app = Application::build_with(config, Clock::Fixed(now()), self.jobs, self.models)
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
        let mut warmed = app.warmed();
        let server = tokio::spawn(async move {
            let _ = app
                .run_until(async {
                    let _ = rx.await;
                })
                .await;
        });
        // A test's own faces arrive after the warm-up, so that what the warm-up loads
        // (and the snapshots it may write) never depends on the machine's speed.
        let _ = warmed.wait_for(|done| *done).await;
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

/// The original file names of a search answer's photos, sorted.
pub fn found_names(body: &Value) -> Vec<String> {
    let mut names: Vec<String> = body["images"]
        .as_array()
        .map(|images| {
            images
                .iter()
                .filter_map(|i| i["original_file_name"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
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

/// Signs `email` in with [`PASSWORD`] on the server at `base` and answers the session
/// cookie's `name=value`.
pub async fn sign_in_at(client: &reqwest::Client, base: &str, email: &str) -> String {
    let resp = login_at(client, base, email, PASSWORD).await;
    assert_eq!(resp.status(), 200);
    let cookie = resp
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    cookie.split(';').next().unwrap_or_default().to_owned()
}

pub async fn login_at(
    client: &reqwest::Client,
    base: &str,
    email: &str,
    password: &str,
) -> reqwest::Response {
    client
        .post(format!("{base}/api/admin/login"))
        .json(&json!({ "email": email, "password": password }))
        .send()
        .await
        .unwrap_or_else(|e| panic!("sign-in: {e}"))
}

/// The requests tests make, and what they wait for.
impl TestApp {
    /// An app with event `race`, an admin `ops@example.com` signed in (its cookie is
    /// answered) and a photographer `cam@example.com` of the event.
    pub async fn race_with_console(backend: Backend) -> (TestApp, String) {
        TestApp::with_console(backend, vec![event("race")]).await
    }

    /// An app with `events`, an admin `ops@example.com` signed in (its cookie is answered)
    /// and a photographer `cam@example.com` of the first event.
    pub async fn with_console(backend: Backend, events: Vec<EventInput>) -> (TestApp, String) {
        let first = events
            .first()
            .map(|e| e.event_key.clone())
            .unwrap_or_default();
        let app = events
            .into_iter()
            .fold(TestApp::builder(backend), TestAppBuilder::with_event)
            .spawn()
            .await;
        app.account("ops@example.com", Role::Admin, &[]).await;
        app.account("cam@example.com", Role::Photographer, &[first.as_str()])
            .await;
        let admin = app.sign_in("ops@example.com").await;
        (app, admin)
    }

    pub async fn account(&self, email: &str, role: Role, events: &[&str]) {
        let events: Vec<String> = events.iter().map(|e| (*e).to_owned()).collect();
        raceshot_server::commands::admin::create_user(
            &self.store,
            email,
            role,
            PASSWORD,
            &events,
            now(),
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    }

    /// Signs in and answers the session cookie's `name=value`.
    pub async fn sign_in(&self, email: &str) -> String {
        sign_in_at(&self.client, &self.url(""), email).await
    }

    pub async fn login(&self, email: &str, password: &str) -> reqwest::Response {
        login_at(&self.client, &self.url(""), email, password).await
    }

    pub async fn call(
        &self,
        method: Method,
        path: &str,
        cookie: Option<&str>,
        body: Option<Value>,
    ) -> reqwest::Response {
        let mut req = self.client.request(method, self.url(path));
        if let Some(cookie) = cookie {
            req = req.header("cookie", cookie);
        }
        if let Some(body) = body {
            req = req.json(&body);
        }
        req.send().await.unwrap()
    }

    /// The actions of the audit log as `cookie`'s account reads it, newest first.
    pub async fn audit_actions(&self, cookie: &str) -> Vec<String> {
        let audit = json(
            self.call(Method::GET, "/api/admin/audit", Some(cookie), None)
                .await,
        )
        .await;
        audit["entries"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|e| e["action"].as_str().map(str::to_owned))
            .collect()
    }

    /// The server's quote for a cart; with the deal, as for photos the visitor's search found.
    pub async fn quote(&self, event_key: &str, ids: &[i64], deal: bool) -> Value {
        let found_refs = if deal {
            vec![self.found_ref(event_key, ids).await]
        } else {
            Vec::new()
        };
        let resp = self
            .post(
                "/api/cart/quote",
                &json!({ "event_key": event_key, "image_ids": ids, "is_mhao": if deal { "Y" } else { "N" },
                    "found_refs": found_refs }),
            )
            .await;
        assert_eq!(resp.status(), 200);
        json(resp).await
    }

    /// An order body priced by the server's own quote.
    pub async fn order_body(&self, event_key: &str, ids: &[i64], channel: &str) -> Value {
        let q = self.quote(event_key, ids, false).await;
        json!({
            "mobile": "0812345678", "email": "runner@example.com", "event_key": event_key,
            "amount": q["amount"], "paid_amount": q["paid_amount"], "imageList": crate::orders::image_list(ids),
            "image_length": ids.len(), "is_mhao": "N", "payment_channel": channel,
        })
    }

    /// Creates an order and answers its uuid.
    pub async fn create_order(&self, path: &str, body: &Value) -> String {
        let resp = self.post(path, body).await;
        let status = resp.status();
        let created = json(resp).await;
        assert_eq!(status, 200, "{created}");
        assert_eq!(created["status"], "success");
        created["uuid"].as_str().unwrap().to_owned()
    }

    /// `n` ready photos of the event, ordered through `/v1/order/create` to be paid by
    /// PromptPay: the photo ids and the order's uuid.
    pub async fn promptpay_order(&self, event_key: &str, n: usize) -> (Vec<i64>, String) {
        let ids = self.ready_photos(event_key, n).await;
        let body = self.order_body(event_key, &ids, "PP").await;
        let uuid = self.create_order("/v1/order/create", &body).await;
        (ids, uuid)
    }

    /// An all-photos order of `ids` (as found by the buyer's search) by the mobile number of
    /// [`order_body`], paid through the sandbox: what an AM request refers to. Its uuid and
    /// paid amount.
    pub async fn paid_deal_order(&self, event_key: &str, ids: &[i64]) -> (String, Value) {
        let q = self.quote(event_key, ids, true).await;
        let mut body = self.order_body(event_key, ids, "PP").await;
        body["is_mhao"] = json!("Y");
        body["amount"] = q["amount"].clone();
        body["paid_amount"] = q["paid_amount"].clone();
        body["found_refs"] = json!([self.found_ref(event_key, ids).await]);
        let uuid = self.create_order("/v1/order/create", &body).await;
        let paid = json(self.sandbox_pay(&uuid, "paid").await).await;
        assert_eq!(paid["payment_status"], "PAID", "{paid}");
        (uuid, q["paid_amount"].clone())
    }

    pub async fn inquiry(&self, uuid: &str) -> Value {
        let resp = self
            .post(
                "/v3/order/inquiry",
                &json!({ "tk": TOKEN, "order_uuid": uuid }),
            )
            .await;
        assert_eq!(resp.status(), 200);
        json(resp).await
    }

    /// Polls the inquiry until `done` holds (jobs run in the background).
    pub async fn inquiry_until(&self, uuid: &str, done: impl Fn(&Value) -> bool) -> Value {
        for _ in 0..300 {
            let body = self.inquiry(uuid).await;
            if done(&body) {
                return body;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("order {uuid} never got there: {}", self.inquiry(uuid).await);
    }

    /// Waits until the app has no job left: deliveries and notifications are done.
    /// Waits until the jobs due now are done: photo work, and the messages due (an
    /// alert's next message may be due later, and waits).
    pub async fn jobs_done(&self) {
        for _ in 0..300 {
            let heavy = self
                .store
                .pending_jobs(raceshot_server::jobs::HEAVY)
                .await
                .unwrap();
            let light = self
                .store
                .jobs_due(raceshot_server::jobs::LIGHT, now())
                .await
                .unwrap();
            if heavy == 0 && light == 0 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("jobs never finished");
    }

    pub async fn sandbox_pay(&self, uuid: &str, result: &str) -> reqwest::Response {
        self.post(
            &format!("/api/sandbox/orders/{uuid}/pay"),
            &json!({ "result": result }),
        )
        .await
    }

    pub async fn ingest_files(&self, files: &[(&str, Vec<u8>)]) -> ingest::Report {
        let dir = tempfile::tempdir().unwrap();
        let paths: Vec<PathBuf> = files
            .iter()
            .map(|(name, bytes)| {
                let p = dir.path().join(name);
                std::fs::write(&p, bytes).unwrap();
                p
            })
            .collect();
        let mut report = ingest::ingest(&self.state, "race", 0, &paths, false, false)
            .await
            .unwrap();
        // The app's own workers process the queue.
        for _ in 0..600 {
            let p = self.store.photo_progress(&report.queued).await.unwrap();
            if p.pending() == 0 {
                report.ready = p.ready;
                report.failed = p.failed.into_iter().map(|(_, n, r)| (n, r)).collect();
                return report;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("photos were not processed in time");
    }

    /// Ingests the photos shipped with the models into event `race`, all three ready:
    /// players.jpg (the team, Yao Ming's jersey reads 13), yaoming.jpg (his portrait) and
    /// gdp.jpg (other people).
    pub async fn ingest_shipped_photos(&self) {
        let report = self
            .ingest_files(&[
                ("players.jpg", photo("players.jpg")),
                ("yaoming.jpg", photo("yaoming.jpg")),
                ("gdp.jpg", photo("gdp.jpg")),
            ])
            .await;
        assert_eq!(report.ready, 3, "{:?}", report.failed);
    }

    /// Seeds the demo event and its photos from the shipped ones (`make run`'s first run).
    pub async fn seed_demo(&self) -> raceshot_server::commands::demo::Seeded {
        raceshot_server::commands::demo::seed(&self.state, &models_dir().join("photos"))
            .await
            .unwrap_or_else(|e| panic!("{e:#}"))
    }

    /// The older one-step call: multipart with the file and the event's key.
    /// sign → PUT → search of event `race`, as the shop's web app does it; `extra` adds
    /// or replaces fields of the search request.
    pub async fn face_search(&self, selfie: Vec<u8>, extra: Value) -> reqwest::Response {
        self.face_search_in("race", selfie, extra).await
    }

    /// [`TestApp::face_search`] of the event `event_key`.
    pub async fn face_search_in(
        &self,
        event_key: &str,
        selfie: Vec<u8>,
        extra: Value,
    ) -> reqwest::Response {
        let signed = json(
            self.post(
                "/v2/facesearch/sign",
                &json!({"event_key": event_key, "file_name": "me.jpg", "file_type": "image/jpeg"}),
            )
            .await,
        )
        .await;
        assert_eq!(signed["status"], "success", "{signed}");
        let url = signed["url"].as_str().unwrap();
        let put = self.client.put(url).body(selfie).send().await.unwrap();
        if put.status() != 200 {
            return put;
        }
        let mut body = json!({
            "search_id": signed["search_id"], "file_location": signed["file_location"],
            "event_id": 1, "event_key": event_key, "face_threshold": 0.1, "mhao_price": 1, "max_face_search": 500
        });
        if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
            b.extend(e.clone());
        }
        self.post("/v2/facesearch", &body).await
    }

    /// A console upload of one photo to an event, signed in by `cookie`.
    pub async fn upload_photo(
        &self,
        cookie: &str,
        event_key: &str,
        name: &str,
        bytes: Vec<u8>,
    ) -> reqwest::Response {
        self.client
            .put(self.url(&format!("/api/admin/events/{event_key}/photos")))
            .query(&[("file_name", name)])
            .header("cookie", cookie)
            .header("content-type", "image/jpeg")
            .body(bytes)
            .send()
            .await
            .unwrap()
    }

    pub async fn search_v1(&self, event_key: &str, selfie: Vec<u8>) -> reqwest::Response {
        let form = reqwest::multipart::Form::new()
            .text("event_key", event_key.to_owned())
            .part(
                "file",
                reqwest::multipart::Part::bytes(selfie).file_name("me.jpg"),
            );
        let url = self.url("/v1/facesearch");
        self.client
            .post(url)
            .bearer_auth(TOKEN)
            .multipart(form)
            .send()
            .await
            .unwrap()
    }

    /// No uploaded selfie remains in object storage.
    pub async fn assert_no_selfie_left(&self) {
        let leftovers = self.state.objects.list("_shop/selfies").await.unwrap();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }

    /// An event of the app by its key, as stored.
    pub async fn stored_event(
        &self,
        event_key: &str,
    ) -> (raceshot_domain::EventKey, raceshot_store::events::Event) {
        let key = raceshot_domain::EventKey::parse(event_key).unwrap_or_else(|e| panic!("{e}"));
        let event = self
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
    pub async fn ready_photos(&self, event_key: &str, n: usize) -> Vec<i64> {
        let mut ids = Vec::with_capacity(n);
        for i in 0..n {
            let shade = u8::try_from(i % 200).unwrap_or(0);
            let image = raceshot_vision::RgbImage::filled(64, 48, [shade, 120, 200]);
            let jpeg = raceshot_server::infra::imaging::encode_jpeg(&image, 90)
                .unwrap_or_else(|e| panic!("{e}"));
            let name = format!("IMG_{i:04}.jpg");
            let id = self
                .ready_photo(event_key, &name, jpeg, (6000, 4000), Vec::new())
                .await;
            ids.push(id);
        }
        ids
    }

    /// One ready photo of the event, ingested as `file_name`, with the original `jpeg`
    /// (whose displayed size is `size`) and `faces` found on it by the configured pair.
    pub async fn ready_photo(
        &self,
        event_key: &str,
        file_name: &str,
        jpeg: Vec<u8>,
        size: (u32, u32),
        faces: Vec<raceshot_store::photos::NewFace>,
    ) -> i64 {
        self.ready_photo_taken(event_key, file_name, jpeg, size, faces, (7, None))
            .await
    }

    /// A ready photo of the event, 6000 × 4000, whose one face is `face` ([`face_at`]
    /// 1000 px across).
    pub async fn photo_of_face(
        &self,
        event_key: &str,
        file_name: &str,
        face: &raceshot_vision::Embedding,
    ) -> i64 {
        let faces = vec![face_at(face, 1000.0)];
        self.ready_photo(event_key, file_name, noisy_jpeg(9), (6000, 4000), faces)
            .await
    }

    /// Reading found `bib` on the photo, at `under` (a box in the original's pixels).
    pub async fn put_bib(&self, event_key: &str, photo_id: i64, bib: &str, under: [f64; 4]) {
        let (_, stored) = self.stored_event(event_key).await;
        let bib = raceshot_store::bibs::NewBib {
            bib: raceshot_domain::BibRule::default().parse(bib).unwrap(),
            confidence: 0.9,
            bbox: under,
        };
        self.state
            .store
            .replace_photo_bibs(photo_id, stored.id, &[bib])
            .await
            .unwrap();
    }

    /// [`TestApp::ready_photo`] by photographer `taken.0` at the moment `taken.1`.
    pub async fn ready_photo_taken(
        &self,
        event_key: &str,
        file_name: &str,
        jpeg: Vec<u8>,
        size: (u32, u32),
        faces: Vec<raceshot_store::photos::NewFace>,
        taken: (i64, Option<DateTime<Utc>>),
    ) -> i64 {
        let (key, event) = self.stored_event(event_key).await;
        let photo = raceshot_store::photos::NewPhoto {
            event_id: event.id,
            content_hash: format!("{event_key}-{}", uuid::Uuid::new_v4()),
            original_file_name: file_name.to_owned(),
            storage_name: format!("test{}.jpg", uuid::Uuid::new_v4().simple()),
            photographer_id: taken.0,
        };
        // The file first, then the row, as ingestion does.
        let name = raceshot_store::StoredName::parse(&photo.storage_name)
            .unwrap_or_else(|| panic!("name"));
        self.state
            .objects
            .put(
                &raceshot_store::ObjectKey::new(&key, raceshot_store::ObjectKind::Original, &name),
                jpeg.into(),
            )
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        // Nobody works this queue: the photo is made ready right here.
        let job = |id: i64| raceshot_store::jobs::NewJob {
            queue: "test-unworked".into(),
            kind: "none".into(),
            payload: serde_json::json!({ "photo_id": id }),
            dedupe_key: None,
            max_attempts: 1,
            run_at: now(),
        };
        let added = self
            .store
            .add_photo(&photo, job, now())
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let raceshot_store::photos::Added::New(id) = added else {
            panic!("photo existed")
        };
        self.store
            .save_processed_photo(
                id,
                event.id,
                &raceshot_store::photos::ProcessedPhoto {
                    size,
                    faces: raceshot_store::photos::FaceSet {
                        pair: self.state.faces.configured().name().to_owned(),
                        faces,
                    },
                    taken_at: taken.1,
                    ..Default::default()
                },
                now(),
            )
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        id
    }

    /// The event `event_key` as stored, its model pair, and the face the shop's search
    /// sees in `selfie` (sharp and seen from afar), embedded by the app's own engine.
    pub async fn selfie_face(
        &self,
        event_key: &str,
        selfie: &[u8],
    ) -> (
        raceshot_store::events::Event,
        raceshot_vision::ModelPair,
        raceshot_server::services::search::SelfieFace,
    ) {
        let (_, stored) = self.stored_event(event_key).await;
        let (pair, engine) = self
            .state
            .faces
            .of_event(&stored)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let face = raceshot_server::services::search::embed_selfie(engine, selfie.to_vec().into())
            .await
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|| panic!("no face in the selfie"));
        (stored, pair, face)
    }

    /// An app with the event "race" and a selfie to search it with: the selfie's face as
    /// the search sees it, and each view's threshold on the event.
    pub async fn with_runner(backend: raceshot_store::Backend) -> (Self, Runner) {
        let app = Self::builder(backend)
            .with_event(event("race"))
            .spawn()
            .await;
        let selfie = noisy_jpeg(3);
        let (stored, pair, me) = app.selfie_face("race", &selfie).await;
        let threshold = stored.spec.face_threshold;
        let runner = Runner {
            sharp_at: raceshot_server::app::faces::threshold(threshold, pair),
            distant_at: raceshot_server::app::faces::distant_threshold(threshold, pair),
            selfie,
            pair,
            me,
        };
        (app, runner)
    }

    /// The `found_ref` a search answering `ids` of the event hands out (made by the shop's
    /// own code, as a face or bib search does): the all-photos deal covers those photos.
    pub async fn found_ref(&self, event_key: &str, ids: &[i64]) -> String {
        let (_, event) = self.stored_event(event_key).await;
        raceshot_server::services::commerce::deal::remember(
            &self.state.store,
            self.state.config.search.found_ttl,
            event.id,
            ids,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"))
    }
}

/// An order id from an answer of the API (or a test's own literal).
pub fn oid(raw: &str) -> OrderUuid {
    OrderUuid::parse(raw).unwrap_or_else(|_| panic!("not an order id: {raw}"))
}

/// A real JPEG of a few hundred kilobytes, different for each seed: noise does not
/// compress away.
pub fn noisy_jpeg(seed: u8) -> Vec<u8> {
    let (w, h) = (900u32, 600u32);
    let mut x: u32 = 0x9e37_79b9 ^ u32::from(seed);
    let data = (0..w * h * 3)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x.to_le_bytes()[0]
        })
        .collect();
    let image = raceshot_vision::RgbImage::new(w, h, data).unwrap();
    raceshot_server::infra::imaging::encode_jpeg(&image, 90).unwrap()
}

/// The SHA-256 of a file, hex, as the shop keeps it.
pub fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    hex::encode(sha2::Sha256::digest(bytes))
}

/// A unit vector whose cosine with `q` is `c`.
pub fn at_cosine(q: &raceshot_vision::Embedding, c: f32, seed: u64) -> raceshot_vision::Embedding {
    let s = raceshot_vision::testing::stranger(seed, q.dim()).unwrap();
    let along = raceshot_vision::cosine(q, &s);
    let q = q.as_slice();
    let u: Vec<f32> = s
        .as_slice()
        .iter()
        .zip(q)
        .map(|(s, q)| s - along * q)
        .collect();
    let u = raceshot_vision::Embedding::from_raw(u, q.len()).unwrap();
    let v = q
        .iter()
        .zip(u.as_slice())
        .map(|(q, u)| c * q + (1.0 - c * c).sqrt() * u)
        .collect();
    raceshot_vision::Embedding::from_raw(v, q.len()).unwrap()
}

/// A unit vector made of `parts` (each a vector and how much of it), topped up with a
/// stranger's direction (`seed`) orthogonal to all of them: its cosine with each part is
/// about that part's weight when the parts are about orthogonal.
pub fn blend(
    parts: &[(&raceshot_vision::Embedding, f32)],
    seed: u64,
) -> raceshot_vision::Embedding {
    let dim = parts[0].0.dim();
    let mut rest: Vec<f32> = raceshot_vision::testing::stranger(seed, dim)
        .unwrap()
        .as_slice()
        .to_vec();
    let mut basis: Vec<Vec<f32>> = Vec::new();
    for (part, _) in parts {
        let mut b = part.as_slice().to_vec();
        for done in &basis {
            let along: f32 = b.iter().zip(done).map(|(x, y)| x * y).sum();
            b.iter_mut().zip(done).for_each(|(x, y)| *x -= along * y);
        }
        let norm = b.iter().map(|x| x * x).sum::<f32>().sqrt();
        b.iter_mut().for_each(|x| *x /= norm);
        let along: f32 = rest.iter().zip(&b).map(|(x, y)| x * y).sum();
        rest.iter_mut().zip(&b).for_each(|(x, y)| *x -= along * y);
        basis.push(b);
    }
    let norm = rest.iter().map(|x| x * x).sum::<f32>().sqrt();
    let mut v = vec![0f32; dim];
    for (part, w) in parts {
        v.iter_mut()
            .zip(part.as_slice())
            .for_each(|(x, y)| *x += w * y);
    }
    let filled = v.iter().map(|x| x * x).sum::<f32>();
    let top = (1.0 - filled).max(0.0).sqrt() / norm;
    v.iter_mut().zip(&rest).for_each(|(x, y)| *x += top * y);
    raceshot_vision::Embedding::from_raw(v, dim).unwrap()
}

/// The part of `v` orthogonal to `q`, as a unit vector: what `v` has that `q` has not.
pub fn apart_from(
    v: &raceshot_vision::Embedding,
    q: &raceshot_vision::Embedding,
) -> raceshot_vision::Embedding {
    let along = raceshot_vision::cosine(v, q);
    let u = v
        .as_slice()
        .iter()
        .zip(q.as_slice())
        .map(|(v, q)| v - along * q)
        .collect();
    raceshot_vision::Embedding::from_raw(u, q.dim()).unwrap()
}

/// A runner searching the event "race" ([`TestApp::with_runner`]).
pub struct Runner {
    pub selfie: Vec<u8>,
    pub pair: raceshot_vision::ModelPair,
    /// The selfie's face: sharp and its distant view.
    pub me: raceshot_server::services::search::SelfieFace,
    /// The sharp selfie's threshold on the event.
    pub sharp_at: f32,
    /// The distant view's.
    pub distant_at: f32,
}

/// A face 60 × 80 px at `x`, 1000 px down.
pub fn face_at(e: &raceshot_vision::Embedding, x: f64) -> raceshot_store::photos::NewFace {
    face_of_width(e, x, 60.0)
}

/// A face `width` px wide and a third taller at `x`, 1000 px down.
pub fn face_of_width(
    e: &raceshot_vision::Embedding,
    x: f64,
    width: f64,
) -> raceshot_store::photos::NewFace {
    raceshot_store::photos::NewFace {
        embedding: e.to_bytes(),
        bbox: [x, 1000.0, x + width, 1000.0 + width * 4.0 / 3.0],
        landmarks: vec![0; 40],
        score: 0.9,
    }
}

/// The photos a search answered, in order, with their `matched_by`.
pub fn found_matched_by(body: &Value) -> Vec<(i64, Option<String>)> {
    body["images"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["id"].as_i64().unwrap(),
                p["matched_by"].as_str().map(str::to_owned),
            )
        })
        .collect()
}
