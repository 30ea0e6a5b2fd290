//! The lifetime of what a face search takes in: an upload address works once and a
//! client holds few; a selfie is stored without its metadata and, never searched, is
//! deleted within `search.selfie_ttl_secs` (plus one sweep) on local storage and on S3;
//! face indexes stay within their memory budget.

use std::time::{Duration, Instant};

use raceshot_server::services::selfies::SWEEP_EVERY;
use raceshot_store::Backend;
use serde_json::{Value, json};

use crate::helpers::{TestApp, TestAppBuilder, assert_error, event, get_text, json, photo};

async fn sign(app: &TestApp, event_key: &str) -> reqwest::Response {
    app.post(
        "/v2/facesearch/sign",
        &json!({"event_key": event_key, "file_type": "image/jpeg"}),
    )
    .await
}

async fn signed(app: &TestApp) -> Value {
    let resp = sign(app, "race").await;
    assert_eq!(resp.status(), 200);
    json(resp).await
}

/// The selfie with a comment naming a place, as phones write EXIF and GPS.
fn selfie_with_secret() -> Vec<u8> {
    let jpeg = photo("yaoming.jpg");
    let text = b"GPS 13.7563N 100.5018E home";
    let mut out = jpeg[..2].to_vec();
    out.extend_from_slice(&[0xFF, 0xFE]);
    out.extend_from_slice(&u16::try_from(text.len() + 2).unwrap().to_be_bytes());
    out.extend_from_slice(text);
    out.extend_from_slice(&jpeg[2..]);
    out
}

fn selfie_key(signed: &Value) -> raceshot_store::ObjectKey {
    let id = uuid::Uuid::parse_str(signed["search_id"].as_str().unwrap()).unwrap();
    raceshot_server::services::selfies::upload_key(&id).unwrap()
}

#[tokio::test]
async fn an_upload_address_works_once_and_keeps_no_metadata() {
    let app = TestApp::with_one_event("race").await;
    let s = signed(&app).await;
    let url = s["url"].as_str().unwrap();
    let put = app
        .client
        .put(url)
        .body(selfie_with_secret())
        .send()
        .await
        .unwrap();
    assert_eq!(put.status(), 200);
    let stored = app.state.objects.get(&selfie_key(&s)).await.unwrap();
    assert!(
        !String::from_utf8_lossy(&stored).contains("GPS"),
        "metadata kept"
    );
    assert!(stored.starts_with(&[0xFF, 0xD8]));

    let upload_again = |file: &str| app.client.put(url).body(photo(file)).send();
    // A second PUT to the same address is refused, and the first selfie stays as it was.
    let again = upload_again("gdp.jpg").await.unwrap();
    assert_error(again, 403, "invalid_signature").await;
    assert_eq!(
        app.state.objects.get(&selfie_key(&s)).await.unwrap(),
        stored
    );

    // The search takes it; after that neither a PUT nor another search finds anything.
    let body = json!({"search_id": s["search_id"], "event_key": "race"});
    assert_eq!(app.post("/v2/facesearch", &body).await.status(), 200);
    let late = upload_again("yaoming.jpg").await.unwrap();
    assert_error(late, 403, "invalid_signature").await;
    assert_error(
        app.post("/v2/facesearch", &body).await,
        404,
        "upload_not_found",
    )
    .await;
    app.assert_no_selfie_left().await;
}

#[tokio::test]
async fn a_client_holds_few_upload_addresses() {
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(event("race"))
        .with_env("RACESHOT__SEARCH__MAX_PENDING_UPLOADS", "2")
        .with_env("RACESHOT__SEARCH__SIGN_PER_CLIENT_PER_MINUTE", "4")
        .spawn()
        .await;
    let first = signed(&app).await;
    signed(&app).await;
    let full = sign(&app, "race").await;
    assert!(full.headers().contains_key("retry-after"));
    assert_error(full, 429, "rate_limited").await;

    // Searching with one frees its place; the per-minute limit still holds.
    let put = app
        .client
        .put(first["url"].as_str().unwrap())
        .body(photo("yaoming.jpg"));
    assert_eq!(put.send().await.unwrap().status(), 200);
    let body = json!({"search_id": first["search_id"], "event_key": "race"});
    assert_eq!(app.post("/v2/facesearch", &body).await.status(), 200);
    signed(&app).await;
    assert_error(sign(&app, "race").await, 429, "rate_limited").await;
}

/// Signs and uploads a selfie that is never searched, then waits for it to be deleted;
/// answers how long it stayed after its upload.
async fn unsearched_selfie_lifetime(app: &TestApp) -> Duration {
    let s = signed(app).await;
    let put = app
        .client
        .put(s["url"].as_str().unwrap())
        .body(photo("yaoming.jpg"))
        .send()
        .await
        .unwrap();
    assert_eq!(put.status(), 200);
    let uploaded = Instant::now();
    let key = selfie_key(&s);
    assert!(
        app.state.objects.get(&key).await.is_ok(),
        "the selfie is stored"
    );
    let deadline = uploaded + Duration::from_secs(1) + SWEEP_EVERY + Duration::from_secs(10);
    while Instant::now() < deadline {
        if app.state.objects.get(&key).await.is_err() {
            return uploaded.elapsed();
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("the selfie outlived its lifetime");
}

fn short_lived(builder: TestAppBuilder) -> TestAppBuilder {
    builder
        .with_event(event("race"))
        .with_env("RACESHOT__SEARCH__SELFIE_TTL_SECS", "1")
}

#[tokio::test]
async fn a_selfie_never_searched_is_deleted_on_local_storage() {
    let app = short_lived(TestApp::builder(Backend::Postgres))
        .spawn()
        .await;
    let lived = unsearched_selfie_lifetime(&app).await;
    assert!(
        lived <= Duration::from_secs(1) + SWEEP_EVERY + Duration::from_secs(2),
        "{lived:?}"
    );
    // Its address is spent: a search finds nothing.
    app.assert_no_selfie_left().await;
}

#[tokio::test]
async fn a_selfie_never_searched_is_deleted_on_s3() {
    let s3 = raceshot_store::testing::S3TestServer::start().await;
    let app = short_lived(TestApp::builder(Backend::Sqlite))
        .with_s3(&s3)
        .spawn()
        .await;
    let lived = unsearched_selfie_lifetime(&app).await;
    assert!(
        lived <= Duration::from_secs(1) + SWEEP_EVERY + Duration::from_secs(2),
        "{lived:?}"
    );
}

#[tokio::test]
async fn face_indexes_stay_within_their_memory_budget() {
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(event("race-a"))
        .with_event(event("race-b"))
        .with_env("RACESHOT__SEARCH__INDEX_MEMORY_MB", "0")
        .with_env("RACESHOT__SERVER__METRICS_ADDR", "127.0.0.1:0")
        .spawn()
        .await;
    app.ready_photos("race-a", 1).await;
    app.ready_photos("race-b", 1).await;
    let app = &app;
    let search = |key: &'static str| async move {
        assert_eq!(app.search_v1(key, photo("yaoming.jpg")).await.status(), 200);
    };
    let id_of = |key: &str| {
        let store = app.store.clone();
        let key = raceshot_domain::EventKey::parse(key).unwrap();
        async move { store.event_by_key(&key).await.unwrap().unwrap().id }
    };
    let (a, b) = (id_of("race-a").await, id_of("race-b").await);
    search("race-a").await;
    search("race-b").await;
    // With no room, only the index searched last stays; the other reloads when searched.
    assert_eq!(app.state.indexes.resident_events(), vec![b]);
    search("race-a").await;
    assert_eq!(app.state.indexes.resident_events(), vec![a]);
    let resident = app.state.indexes.resident_bytes();
    assert!(resident > 0);
    let metrics = get_text(
        &app.client,
        format!("http://{}/metrics", app.metrics_addr.unwrap()),
    )
    .await;
    assert!(
        metrics.contains(&format!("face_index_resident_bytes {resident}")),
        "{metrics}"
    );
}
