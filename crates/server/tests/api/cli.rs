//! The `raceshot` binary itself: configuration errors, event import, migrations, the demo
//! seed and SIGTERM.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use raceshot_domain::EventKey;
use raceshot_store::Backend;
use raceshot_store::testing::TestDatabase;

const BIN: &str = env!("CARGO_BIN_EXE_raceshot");

fn raceshot(db: &TestDatabase, dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env("RACESHOT__DATA_DIR", dir)
        .env("RACESHOT__DATABASE__URL", &db.settings.url)
        .env("RACESHOT__FACES__MODELS_DIR", crate::helpers::models_dir())
        .output()
        .unwrap_or_else(|e| panic!("run raceshot: {e}"))
}

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

const GOOD: &str = r#"{
  "event_key": "bkk-10k", "title": "Bangkok 10K", "eventdate": "2026-11-15",
  "on_sale_start": "2026-11-15", "on_sale_end": "2026-12-15T18:00:00+07:00",
  "is_mhao": "Y", "mhao_price": 990, "pin": 1,
  "package": [{"name": "1 รูป", "name_en": "1 photo", "number_of_photo": 1, "price": 60}],
  "banners": [{"image_url": "https://img.example/bkk.jpg", "link_url": "/bkk-10k"}]
}"#;

#[tokio::test]
async fn import_creates_then_updates_and_refuses_bad_files_whole() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let db = TestDatabase::new(backend).await;
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = dir.path().join("event.json");
        std::fs::write(&file, GOOD).unwrap_or_else(|e| panic!("{e}"));
        let path = file.display().to_string();

        let out = raceshot(&db, dir.path(), &["event", "import", &path]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(
            text(&out.stdout).starts_with("created event bkk-10k"),
            "{}",
            text(&out.stdout)
        );
        let out = raceshot(&db, dir.path(), &["event", "import", &path]);
        assert!(
            text(&out.stdout).starts_with("updated event bkk-10k"),
            "{}",
            text(&out.stdout)
        );

        // A batch with one bad event writes nothing, and every problem is named.
        let changed = GOOD.replace("Bangkok 10K", "Changed title");
        let bad = GOOD
            .replace("bkk-10k", "second")
            .replace("\"price\": 60", "\"price\": \"sixty\"");
        let typo = GOOD
            .replace("bkk-10k", "third")
            .replace("\"pin\"", "\"pinned\"");
        let dates = GOOD
            .replace("bkk-10k", "fourth")
            .replace("2026-11-15\"", "2026-11-31\"");
        std::fs::write(&file, format!("[{changed}, {bad}, {typo}, {dates}]"))
            .unwrap_or_else(|e| panic!("{e}"));
        let out = raceshot(&db, dir.path(), &["event", "import", &path]);
        assert_eq!(out.status.code(), Some(2));
        let err = text(&out.stderr);
        for needle in [
            "[1].package[0].price: invalid type",
            "[2].pinned: unknown field `pinned`",
            "[3].eventdate",
            "[3].on_sale_start",
        ] {
            assert!(err.contains(needle), "{needle:?} not in {err}");
        }
        let store = db.store().await;
        let kept = store
            .event_by_key(&EventKey::parse("bkk-10k").unwrap_or_else(|e| panic!("{e}")))
            .await;
        assert_eq!(
            kept.ok().flatten().map(|e| e.spec.title),
            Some("Bangkok 10K".to_owned()),
            "nothing half-written"
        );
        for missing in ["second", "third", "fourth"] {
            let e = store
                .event_by_key(&EventKey::parse(missing).unwrap_or_else(|e| panic!("{e}")))
                .await;
            assert_eq!(e.ok().flatten().map(|e| e.id), None);
        }

        std::fs::write(&file, "{ not json").unwrap_or_else(|e| panic!("{e}"));
        let out = raceshot(&db, dir.path(), &["event", "import", &path]);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains("not valid JSON"),
            "{}",
            text(&out.stderr)
        );
    }
}

#[tokio::test]
async fn configuration_problems_are_listed_together() {
    let db = TestDatabase::sqlite();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = Command::new(BIN)
        .arg("migrate")
        .env("RACESHOT__DATA_DIR", dir.path())
        .env("RACESHOT__DATABASE__URL", "mysql://nope")
        .env("RACESHOT__SERVER__ADDR", "nowhere")
        .env("RACESHOT__API__CLIENT_TOKEN", "tiny")
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    for needle in [
        "RACESHOT__DATABASE__URL",
        "RACESHOT__SERVER__ADDR",
        "RACESHOT__API__CLIENT_TOKEN",
    ] {
        assert!(err.contains(needle), "{needle} not in {err}");
    }
    assert!(!err.contains("tiny"), "secrets never print: {err}");
    drop(db);
}

#[tokio::test]
async fn migrate_and_seed_demo_are_repeatable() {
    // (The demo's photos and what a search finds in them: facesearch.rs.)
    let db = TestDatabase::new(Backend::Sqlite).await;
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    for _ in 0..2 {
        assert!(raceshot(&db, dir.path(), &["migrate"]).status.success());
    }
    assert_eq!(
        text(&raceshot(&db, dir.path(), &["seed-demo"]).stdout).trim(),
        "demo event created; 6 photos added"
    );
    assert_eq!(
        text(&raceshot(&db, dir.path(), &["seed-demo"]).stdout).trim(),
        "demo event exists; 0 photos added"
    );
}

#[tokio::test]
async fn serve_stops_on_sigterm() {
    let db = TestDatabase::new(Backend::Sqlite).await;
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut child = Command::new(BIN)
        .arg("serve")
        .env("RACESHOT__DATA_DIR", dir.path())
        .env("RACESHOT__DATABASE__URL", &db.settings.url)
        .env("RACESHOT__SERVER__ADDR", format!("127.0.0.1:{port}"))
        .env("RACESHOT__PAYMENTS__ALLOW_SANDBOX", "true")
        .env("RACESHOT__FACES__MODELS_DIR", crate::helpers::models_dir())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let url = format!("http://127.0.0.1:{port}/healthz");
    let mut up = false;
    for _ in 0..100 {
        if reqwest::get(&url).await.is_ok_and(|r| r.status() == 200) {
            up = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(up, "serve did not come up");
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    assert!(killed.is_ok_and(|s| s.success()));
    let mut status = None;
    for _ in 0..100 {
        if let Ok(Some(s)) = child.try_wait() {
            status = Some(s);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    if status.is_none() {
        let _ = child.kill();
    }
    assert!(
        status.is_some_and(|s| s.success()),
        "serve exits cleanly on SIGTERM: {status:?}"
    );
}

#[tokio::test]
async fn serve_refuses_the_sandbox_gateway_unless_allowed() {
    let db = TestDatabase::new(Backend::Sqlite).await;
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = Command::new(BIN)
        .arg("serve")
        .env("RACESHOT__DATA_DIR", dir.path())
        .env("RACESHOT__DATABASE__URL", &db.settings.url)
        .env("RACESHOT__SERVER__ADDR", "127.0.0.1:0")
        .env("RACESHOT__FACES__MODELS_DIR", crate::helpers::models_dir())
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("SANDBOX"), "{stderr}");
    assert!(
        stderr.contains("RACESHOT__PAYMENTS__ALLOW_SANDBOX"),
        "{stderr}"
    );
}
