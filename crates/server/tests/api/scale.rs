//! Scale-out, end to end: `scripts/scale-out.sh` starts two `serve --no-jobs` replicas and
//! one `worker` over one PostgreSQL database and an S3 server. An operator uploads an
//! event's photos through replica A; the worker processes them; a runner then searches,
//! orders, pays and downloads through replica B, whose face index was loaded before the
//! photos existed and picks them up without a restart.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use raceshot_domain::EventKey;
use raceshot_store::operators::Role;
use raceshot_store::testing::TestDatabase;
use raceshot_store::{Backend, Store};
use serde_json::{Value, json};

use crate::helpers::{TOKEN, event, photo, sign_in_at};

/// The processes the script started (and any restarted since), ended by their pids when
/// the test ends.
pub struct ScaleOut {
    dir: tempfile::TempDir,
    /// Settings every process of this test gets beside the script's own.
    extra: Vec<(String, String)>,
    /// Processes started again by the test itself, reaped when it ends.
    restarted: std::sync::Mutex<Vec<std::process::Child>>,
}

impl ScaleOut {
    pub fn start(db: &TestDatabase, extra: &[(&str, &str)]) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let mut extra: Vec<(String, String)> = extra
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        extra.push(("RACESHOT__API__CLIENT_TOKEN".to_owned(), TOKEN.to_owned()));
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let out = std::process::Command::new(root.join("scripts/scale-out.sh"))
            .arg(dir.path())
            .env("RACESHOT_BIN", env!("CARGO_BIN_EXE_raceshot"))
            .env("RACESHOT__DATABASE__URL", &db.settings.url)
            .envs(extra.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .output()
            .unwrap();
        let scale = ScaleOut {
            dir,
            extra,
            restarted: std::sync::Mutex::new(Vec::new()),
        };
        assert!(
            out.status.success(),
            "scale-out.sh failed: {}\n{}",
            String::from_utf8_lossy(&out.stderr),
            scale.logs()
        );
        scale
    }

    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    pub fn url(&self, replica: &str) -> String {
        self.file(&format!("replica-{replica}.url"))
    }

    /// Ends a process (`worker`, `replica-a`, …) at once, as a power cut would.
    pub fn kill9(&self, name: &str) {
        let pid = self.file(&format!("{name}.pid"));
        let status = std::process::Command::new("kill")
            .args(["-9", &pid])
            .status()
            .unwrap();
        assert!(status.success(), "kill -9 {name} ({pid})");
        // Reaped by the script's shell long gone: wait until the pid is really free.
        for _ in 0..100 {
            if !Path::new(&format!("/proc/{pid}")).exists() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Returns once the replica answers `/readyz`.
    pub async fn wait_ready(&self, replica: &str) {
        let url = format!("{}/readyz", self.url(replica));
        let client = reqwest::Client::new();
        wait_until(&format!("replica {replica} ready"), self, async || {
            client
                .get(&url)
                .send()
                .await
                .is_ok_and(|r| r.status() == 200)
        })
        .await;
    }

    /// Starts `name` again as the script did (a replica on its address), logging to
    /// `name-again.log`.
    pub fn restart(&self, name: &str) {
        let dir = self.dir.path();
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_raceshot"));
        cmd.current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."));
        for line in self.file("env").lines() {
            if let Some((k, v)) = line.split_once('=') {
                cmd.env(k, v);
            }
        }
        cmd.envs(self.extra.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        cmd.env("RACESHOT__DATA_DIR", dir.join(name));
        match name.strip_prefix("replica-") {
            Some(replica) => {
                let addr = self.url(replica).trim_start_matches("http://").to_owned();
                cmd.env("RACESHOT__SERVER__ADDR", addr)
                    .args(["serve", "--no-jobs"]);
            }
            None => {
                cmd.arg(name);
            }
        }
        let log = std::fs::File::create(dir.join(format!("{name}-again.log"))).unwrap();
        let child = cmd
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap();
        let pids = dir.join("pids");
        let mut all = std::fs::read_to_string(&pids).unwrap_or_default();
        all.push_str(&format!("{}\n", child.id()));
        std::fs::write(&pids, all).unwrap();
        std::fs::write(dir.join(format!("{name}.pid")), child.id().to_string()).unwrap();
        self.restarted
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(child);
    }

    fn file(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(name))
            .unwrap_or_default()
            .trim()
            .to_owned()
    }

    pub fn logs(&self) -> String {
        let mut all = String::new();
        for name in [
            "replica-a.log",
            "replica-b.log",
            "worker.log",
            "worker-again.log",
            "replica-a-again.log",
        ] {
            let mut text = String::new();
            let path: PathBuf = self.dir.path().join(name);
            if let Ok(mut f) = std::fs::File::open(&path) {
                let _ = f.read_to_string(&mut text);
            }
            let tail: String = text.lines().rev().take(20).collect::<Vec<_>>().join("\n");
            all.push_str(&format!("--- {name} (last lines, newest first)\n{tail}\n"));
        }
        all
    }
}

impl Drop for ScaleOut {
    fn drop(&mut self) {
        for pid in self
            .file("pids")
            .lines()
            .filter_map(|p| p.trim().parse::<i32>().ok())
        {
            // Processes killed by the test are gone already: nothing to say about them.
            let _ = std::process::Command::new("kill")
                .arg(pid.to_string())
                .stderr(std::process::Stdio::null())
                .status();
        }
        let restarted = self
            .restarted
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for child in restarted.iter_mut() {
            let _ = child.wait();
        }
    }
}

/// `jpeg` with a comment segment after its start marker: the same picture, other bytes,
/// so the shop takes it as another photo.
pub fn variant(jpeg: &[u8], n: usize) -> Vec<u8> {
    let text = format!("crash test photo {n}");
    let len = u16::try_from(text.len() + 2).unwrap();
    let mut out = Vec::with_capacity(jpeg.len() + text.len() + 4);
    out.extend_from_slice(&jpeg[..2]);
    out.extend_from_slice(&[0xff, 0xfe]);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(text.as_bytes());
    out.extend_from_slice(&jpeg[2..]);
    out
}

/// A fresh PostgreSQL database with an event on sale and an admin account.
pub async fn shop(key: &str) -> (TestDatabase, Store, i64) {
    let db = TestDatabase::new(Backend::Postgres).await;
    let store = Store::connect(&db.settings).await.unwrap();
    store.migrate().await.unwrap();
    let mut race = event(key);
    let today = chrono::Utc::now().date_naive();
    race.eventdate = today.to_string();
    race.on_sale_start = (today - chrono::Days::new(1)).to_string();
    race.on_sale_end = (today + chrono::Days::new(30)).to_string();
    store
        .write_events(&[race.validate().unwrap()], chrono::Utc::now())
        .await
        .unwrap();
    raceshot_server::commands::admin::create_user(
        &store,
        "ops@example.com",
        Role::Admin,
        crate::helpers::PASSWORD,
        &[],
        chrono::Utc::now(),
    )
    .await
    .unwrap();
    let id = store
        .any_event_by_key(&EventKey::parse(key).unwrap())
        .await
        .unwrap()
        .unwrap()
        .id;
    (db, store, id)
}

pub async fn upload(
    client: &reqwest::Client,
    base: &str,
    cookie: &str,
    key: &str,
    name: &str,
    bytes: Vec<u8>,
) {
    let resp = client
        .put(format!("{base}/api/admin/events/{key}/photos"))
        .query(&[("file_name", name)])
        .header("cookie", cookie)
        .body(bytes)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
}

pub async fn counts(client: &reqwest::Client, base: &str, cookie: &str, key: &str) -> Value {
    let list: Value = client
        .get(format!("{base}/api/admin/events/{key}/photos"))
        .header("cookie", cookie)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    list["counts"].clone()
}

pub async fn wait_until(what: &str, scale: &ScaleOut, mut done: impl AsyncFnMut() -> bool) {
    for _ in 0..3000 {
        if done().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{what} did not happen\n{}", scale.logs());
}

#[tokio::test]
async fn photos_ingested_through_one_replica_are_found_bought_and_downloaded_through_another() {
    let (db, store, _) = shop("scale-run").await;
    let scale = ScaleOut::start(&db, &[]);
    let (a, b) = (scale.url("a"), scale.url("b"));
    assert_ne!(a, b);
    let client = reqwest::Client::new();

    // Replicas see other processes' writes within their catalogue's refresh (1 s).
    for base in [&a, &b] {
        wait_until("the event in a replica's catalogue", &scale, async || {
            let url = format!("{base}/v1/events/scale-run");
            client
                .get(url)
                .bearer_auth(TOKEN)
                .send()
                .await
                .is_ok_and(|r| r.status() == 200)
        })
        .await;
    }

    // Replica B answers a search before any photo exists: its index for the event is loaded empty.
    let search = |base: String| {
        let client = client.clone();
        async move {
            let form = reqwest::multipart::Form::new()
                .text("event_key", "scale-run")
                .part(
                    "file",
                    reqwest::multipart::Part::bytes(photo("yaoming.jpg")).file_name("me.jpg"),
                );
            let resp = client
                .post(format!("{base}/v1/facesearch"))
                .bearer_auth(TOKEN)
                .multipart(form)
                .send()
                .await
                .unwrap();
            assert_eq!(resp.status(), 200);
            resp.json::<Value>().await.unwrap()
        }
    };
    assert_eq!(search(b.clone()).await["image_length"], 0);

    // Uploads through replica A; the worker processes them.
    let cookie = sign_in_at(&client, &a, "ops@example.com").await;
    for name in ["players.jpg", "gdp.jpg"] {
        upload(&client, &a, &cookie, "scale-run", name, photo(name)).await;
    }
    wait_until("processing by the worker", &scale, async || {
        counts(&client, &a, &cookie, "scale-run").await["ready"] == 2
    })
    .await;

    // Replica B now finds him, without a restart.
    let found = search(b.clone()).await;
    assert_eq!(found["image_length"], 1, "{found}");
    let id = found["images"][0]["id"].as_i64().unwrap();

    // Ordered, paid and downloaded through replica B.
    let post = |path: String, body: Value| {
        let client = client.clone();
        async move {
            let resp = client
                .post(path)
                .bearer_auth(TOKEN)
                .json(&body)
                .send()
                .await
                .unwrap();
            let status = resp.status();
            let body: Value = resp.json().await.unwrap();
            assert_eq!(status, 200, "{body}");
            body
        }
    };
    let quote = post(
        format!("{b}/api/cart/quote"),
        json!({"event_key": "scale-run", "image_ids": [id], "is_mhao": "N"}),
    )
    .await;
    let created = post(
        format!("{b}/v1/order/create"),
        json!({"mobile": "0811111111", "event_key": "scale-run", "amount": quote["amount"], "paid_amount": quote["paid_amount"],
            "imageList": [{"id": id}], "image_length": 1, "is_mhao": "N", "payment_gateway": "SANDBOX", "payment_channel": "PP"}),
    )
    .await;
    let uuid = created["uuid"].as_str().unwrap().to_owned();
    let paid = client
        .post(format!("{b}/api/sandbox/orders/{uuid}/pay"))
        .json(&json!({"result": "paid"}))
        .send()
        .await
        .unwrap();
    assert_eq!(paid.status(), 200);
    wait_until("delivery by the worker", &scale, async || {
        let inquiry = post(format!("{b}/v3/order/inquiry"), json!({"order_uuid": uuid})).await;
        inquiry["payment_status"] == "PAID" && inquiry["is_original_image_created"] == "Y"
    })
    .await;
    let zip = client
        .get(format!("{b}/api/orders/{uuid}/download.zip"))
        .send()
        .await
        .unwrap();
    assert_eq!(zip.status(), 200);
    let bytes = zip.bytes().await.unwrap();
    let needle = b"players.jpg";
    assert!(
        bytes.windows(needle.len()).any(|w| w == needle),
        "the archive names the bought photo"
    );
    assert!(
        bytes.len() > photo("players.jpg").len(),
        "the archive holds the original"
    );
    store.close().await;
}
