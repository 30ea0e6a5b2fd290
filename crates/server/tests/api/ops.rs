//! Operations endpoints, request ids, metrics and graceful shutdown.

use raceshot_store::Backend;
use serde_json::json;

use crate::helpers::{TestApp, event, json};

#[tokio::test]
async fn health_and_readiness() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let app = TestApp::builder(backend).spawn().await;
        let health = json(
            app.client
                .get(app.url("/healthz"))
                .send()
                .await
                .unwrap_or_else(|e| panic!("{e}")),
        )
        .await;
        assert_eq!(health, json!({"status": "ok"}));
        let ready = app
            .client
            .get(app.url("/readyz"))
            .send()
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ready.status(), 200);
        assert_eq!(
            json(ready).await,
            json!({"status": "ok", "database": "ok", "storage": "ok"})
        );

        // With the database gone the server is alive but not ready.
        app.store.close().await;
        let ready = app
            .client
            .get(app.url("/readyz"))
            .send()
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ready.status(), 503);
        assert_eq!(
            json(ready).await,
            json!({"status": "unavailable", "database": "unavailable", "storage": "ok"})
        );
    }
}

#[tokio::test]
async fn requests_carry_ids_and_are_counted() {
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(event("demo"))
        .with_env("RACESHOT__SERVER__METRICS_ADDR", "127.0.0.1:0")
        .spawn()
        .await;
    let resp = app.get("/v1/events/demo").await;
    let id = resp
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    assert!(
        id.is_some_and(|id| id.len() >= 32),
        "a generated request id"
    );
    let resp = app
        .client
        .get(app.url("/healthz"))
        .header("x-request-id", "abc-123")
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        resp.headers()
            .get("x-request-id")
            .and_then(|v| v.to_str().ok()),
        Some("abc-123")
    );

    // A method of the client's own invention counts as `OTHER`: labels stay few.
    let invented = reqwest::Method::from_bytes(b"X-GARBLE-1234").unwrap_or_else(|e| panic!("{e}"));
    let resp = app
        .client
        .request(invented, app.url("/healthz"))
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(resp.status(), 405);

    // Metrics are served on the internal address only.
    let public = app.client.get(app.url("/metrics")).send().await.unwrap();
    assert!(!public.text().await.unwrap().contains("http_requests_total"));
    let internal = app.metrics_addr.expect("a metrics address");
    assert_ne!(internal, app.addr);
    let metrics = app
        .client
        .get(format!("http://{internal}/metrics"))
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let text = metrics.text().await.unwrap_or_default();
    assert!(
        text.contains(
            r#"http_requests_total{method="GET",route="/v1/events/{event_key}",status="200"}"#
        ),
        "{text}"
    );
    assert!(
        text.contains("http_request_duration_seconds_bucket"),
        "{text}"
    );
    assert!(
        text.contains(r#"http_requests_total{method="OTHER",route="/healthz",status="405"}"#),
        "{text}"
    );
    assert!(!text.contains("X-GARBLE"), "{text}");
}

#[tokio::test]
async fn shutdown_lets_the_server_stop() {
    let mut app = TestApp::builder(Backend::Sqlite).spawn().await;
    assert_eq!(
        app.client
            .get(app.url("/healthz"))
            .send()
            .await
            .map(|r| r.status().as_u16())
            .ok(),
        Some(200)
    );
    tokio::time::timeout(std::time::Duration::from_secs(10), app.stop())
        .await
        .unwrap_or_else(|_| panic!("the server did not stop"));
    assert!(
        app.client.get(app.url("/healthz")).send().await.is_err(),
        "nothing listens any more"
    );
}

#[tokio::test]
async fn answers_carry_security_headers() {
    let app = TestApp::with_one_event("demo").await;
    for resp in [
        app.get("/v1/events/demo").await,
        app.get("/v1/events/nope").await,
    ] {
        let h = resp.headers();
        let get = |name: &str| h.get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
        assert_eq!(get("x-content-type-options").as_deref(), Some("nosniff"));
        assert_eq!(get("x-frame-options").as_deref(), Some("DENY"));
        assert!(
            get("content-security-policy").is_some_and(|c| c.contains("frame-ancestors 'none'"))
        );
        assert_eq!(
            get("referrer-policy").as_deref(),
            Some("strict-origin-when-cross-origin")
        );
        // Served over plain http here: no HSTS.
        assert_eq!(get("strict-transport-security"), None);
    }
    let https = TestApp::builder(Backend::Sqlite)
        .with_env("RACESHOT__SERVER__PUBLIC_URL", "https://shop.example")
        .spawn()
        .await;
    let resp = https
        .client
        .get(https.url("/healthz"))
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let hsts = resp
        .headers()
        .get("strict-transport-security")
        .and_then(|v| v.to_str().ok());
    assert_eq!(hsts, Some("max-age=31536000; includeSubDomains"));
}
