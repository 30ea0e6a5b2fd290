//! The web app as the server serves it: the page for every address outside the API (with
//! the client token and its content policy), hashed assets cached for good, root files,
//! JSON errors kept for the API's own prefixes; and direct downloads of free events.

use raceshot_domain::Flag;
use raceshot_store::Backend;

use crate::helpers::{TOKEN, TestApp, assert_error, event, json};

const INDEX: &str = r#"<!doctype html><html><head><meta name="raceshot-client-token" content="__RACESHOT_CLIENT_TOKEN__"><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>"#;

fn built_app() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("assets")).unwrap();
    std::fs::write(dir.path().join("index.html"), INDEX).unwrap();
    std::fs::write(dir.path().join("assets/index-abc123.js"), "console.log(1)").unwrap();
    std::fs::write(dir.path().join("logo.svg"), "<svg/>").unwrap();
    dir
}

async fn get(app: &TestApp, path: &str) -> reqwest::Response {
    app.client.get(app.url(path)).send().await.unwrap()
}

fn header<'a>(resp: &'a reqwest::Response, name: &str) -> &'a str {
    resp.headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

#[tokio::test]
async fn every_page_address_gets_the_app_with_its_token_and_policy() {
    let web = built_app();
    let app = TestApp::builder(Backend::Sqlite)
        .with_env(
            "RACESHOT__SERVER__WEB_DIR",
            &web.path().display().to_string(),
        )
        .spawn()
        .await;

    for path in [
        "/",
        "/demo",
        "/download/0b7f-unknown",
        "/no/such/page",
        "/cart?x=1",
    ] {
        let resp = get(&app, path).await;
        assert_eq!(resp.status(), 200, "{path}");
        assert!(
            header(&resp, "content-type").starts_with("text/html"),
            "{path}"
        );
        assert_eq!(header(&resp, "cache-control"), "no-cache");
        let csp = header(&resp, "content-security-policy").to_owned();
        for part in [
            "default-src 'self'",
            "script-src 'self'",
            "frame-ancestors 'none'",
            "object-src 'none'",
        ] {
            assert!(csp.contains(part), "{csp}");
        }
        assert!(
            !csp.contains("omise"),
            "OPN's form is allowed only when OPN takes payments: {csp}"
        );
        let html = resp.text().await.unwrap();
        assert!(html.contains(&format!("content=\"{TOKEN}\"")), "{html}");
        assert!(!html.contains("__RACESHOT_CLIENT_TOKEN__"));
    }

    let asset = get(&app, "/assets/index-abc123.js").await;
    assert_eq!(asset.status(), 200);
    assert!(header(&asset, "cache-control").contains("immutable"));
    assert!(header(&asset, "content-type").contains("javascript"));
    let logo = get(&app, "/logo.svg").await;
    assert_eq!(logo.status(), 200);
    assert!(header(&logo, "content-type").contains("svg"));

    // The API's own prefixes keep answering JSON errors, never the page.
    for path in [
        "/v1/nope",
        "/api/nope",
        "/media/demo/original/x.jpg",
        "/assets/missing.js",
    ] {
        let resp = get(&app, path).await;
        assert_eq!(resp.status(), 404, "{path}");
        assert!(
            !header(&resp, "content-type").starts_with("text/html"),
            "{path}"
        );
    }
    let traversal = get(&app, "/assets/..%2findex.html").await;
    assert_eq!(traversal.status(), 404);
    let post = app.client.post(app.url("/somewhere")).send().await.unwrap();
    assert_error(post, 405, "method_not_allowed").await;
}

#[tokio::test]
async fn without_a_built_app_unknown_addresses_answer_not_found() {
    let app = TestApp::builder(Backend::Sqlite)
        .with_env("RACESHOT__SERVER__WEB_DIR", "/nonexistent/web/dist")
        .spawn()
        .await;
    assert_error(get(&app, "/").await, 404, "not_found").await;
}

#[tokio::test]
async fn free_events_give_originals_away_and_paid_events_do_not() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let mut free = event("free-run");
        free.is_free_download = Flag::YES;
        free.is_mhao = Flag::NO;
        free.mhao_price = None;
        free.package.clear();
        let app = TestApp::builder(backend)
            .with_event(free)
            .with_event(event("paid-run"))
            .spawn()
            .await;
        let given = app.ready_photos("free-run", 2).await;
        let sold = app.ready_photos("paid-run", 1).await;

        let resp = get(
            &app,
            &format!(
                "/api/events/free-run/photos/{}/download?openExternalBrowser=1",
                given[1]
            ),
        )
        .await;
        assert_eq!(resp.status(), 200);
        assert_eq!(header(&resp, "content-type"), "image/jpeg");
        assert!(
            header(&resp, "content-disposition").contains("7_IMG_0001.jpg"),
            "{}",
            header(&resp, "content-disposition")
        );
        let bytes = resp.bytes().await.unwrap();
        assert_eq!(&bytes[..2], &[0xff, 0xd8]);

        let paid = get(
            &app,
            &format!("/api/events/paid-run/photos/{}/download", sold[0]),
        )
        .await;
        assert_error(paid, 403, "order_not_paid").await;
        // A photo of another event is not reachable through a free event's address.
        let elsewhere = get(
            &app,
            &format!("/api/events/free-run/photos/{}/download", sold[0]),
        )
        .await;
        assert_error(elsewhere, 404, "image_not_found").await;
        assert_error(
            get(&app, "/api/events/no-such/photos/1/download").await,
            404,
            "event_not_found",
        )
        .await;
    }
}

/// Fast on a slow phone: assets from their precompressed copies, JSON compressed on the
/// fly (never a ZIP), and the first page's catalogue answers inside the page.
#[tokio::test]
async fn the_page_carries_its_first_data_and_everything_travels_compressed() {
    let web = tempfile::tempdir().unwrap();
    std::fs::create_dir(web.path().join("assets")).unwrap();
    std::fs::write(
        web.path().join("index.html"),
        r#"<html><head><script id="raceshot-preload" type="application/json">__RACESHOT_PRELOAD__</script></head></html>"#,
    )
    .unwrap();
    std::fs::write(web.path().join("assets/app-1.js"), "console.log('plain')").unwrap();
    std::fs::write(web.path().join("assets/app-1.js.br"), "brotli bytes").unwrap();
    std::fs::write(web.path().join("assets/app-1.js.gz"), "gzip bytes").unwrap();
    let mut night = event("night-run");
    night.title = "Night </script><b>run".into();
    let app = TestApp::builder(Backend::Sqlite)
        .with_env(
            "RACESHOT__SERVER__WEB_DIR",
            &web.path().display().to_string(),
        )
        .with_event(night)
        .spawn()
        .await;

    let page = |path: &str| {
        let url = app.url(path);
        let client = app.client.clone();
        async move { client.get(url).send().await.unwrap().text().await.unwrap() }
    };
    let home = page("/").await;
    let data = home
        .split("type=\"application/json\">")
        .nth(1)
        .and_then(|rest| rest.split("</script>").next())
        .unwrap()
        .to_owned();
    assert!(
        !data.contains('<'),
        "nothing ends the element early: {data}"
    );
    let data: serde_json::Value = serde_json::from_str(&data).unwrap();
    let events = json(
        app.post(
            "/v1/events/pagination",
            &serde_json::json!({"page": 1, "page_size": 18}),
        )
        .await,
    )
    .await;
    assert_eq!(data["events"], events, "the pagination answer itself");
    assert_eq!(
        data["banners"],
        json(app.get("/v1/events/slider-banner").await).await
    );
    assert_eq!(data["soon"], json(app.get("/v1/events/soon").await).await);
    assert_eq!(data["count"]["body"][0]["event_count"], 1);
    for path in ["/night-run", "/night-run/wholesale"] {
        let html = page(path).await;
        assert!(
            html.contains(r#"{"event":{"status":"success""#),
            "{path}: {html}"
        );
        assert!(html.contains("Night \\u003c/script>\\u003cb>run"), "{html}");
    }
    for path in ["/no-such-run", "/download/x", "/cart"] {
        assert!(page(path).await.contains(">{}</script>"), "{path}");
    }

    let asset = |encoding: Option<&'static str>| {
        let mut req = app.client.get(app.url("/assets/app-1.js"));
        if let Some(e) = encoding {
            req = req.header("accept-encoding", e);
        }
        req.send()
    };
    let br = asset(Some("gzip, deflate, br")).await.unwrap();
    assert_eq!(header(&br, "content-encoding"), "br");
    assert!(
        header(&br, "vary")
            .to_ascii_lowercase()
            .contains("accept-encoding")
    );
    assert!(header(&br, "cache-control").contains("immutable"));
    assert_eq!(br.text().await.unwrap(), "brotli bytes");
    let gz = asset(Some("gzip")).await.unwrap();
    assert_eq!(header(&gz, "content-encoding"), "gzip");
    let plain = asset(None).await.unwrap();
    assert_eq!(header(&plain, "content-encoding"), "");
    assert_eq!(plain.text().await.unwrap(), "console.log('plain')");

    let compressed = app
        .client
        .post(app.url("/v1/events/pagination"))
        .bearer_auth(TOKEN)
        .header("accept-encoding", "gzip")
        .json(&serde_json::json!({"page": 1}))
        .send()
        .await
        .unwrap();
    assert_eq!(header(&compressed, "content-encoding"), "gzip");
}
