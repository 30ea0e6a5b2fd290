//! What a conformance and privacy audit of the shop found, each pinned by a test: the
//! carts learn which channels the gateway takes; every picture address follows the
//! configured media base; the demo looks like a shop.

use raceshot_store::Backend;
use serde_json::json;

use crate::helpers::{TOKEN, TestApp, get_text, json};

async fn conf(app: &TestApp, name: &str) -> String {
    let body = json(
        app.post("/v1/utils/conf", &json!({ "tk": TOKEN, "conf_name": name }))
            .await,
    )
    .await;
    body["body"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn the_carts_learn_which_channels_the_gateway_takes() {
    let sandbox = TestApp::builder(Backend::Sqlite).spawn().await;
    assert_eq!(conf(&sandbox, "PAYMENT_CHANNELS").await, "PP,CC");
    let promptpay = TestApp::builder(Backend::Sqlite)
        .with_own_promptpay()
        .spawn()
        .await;
    assert_eq!(conf(&promptpay, "PAYMENT_GATEWAY").await, "PROMPTPAY");
    assert_eq!(conf(&promptpay, "PAYMENT_CHANNELS").await, "PP");
    let gbp = TestApp::builder(Backend::Sqlite)
        .with_env("RACESHOT__PAYMENTS__GATEWAY", "GBP")
        .with_env("RACESHOT__PAYMENTS__GBP__TOKEN", "gbp-token")
        .with_env("RACESHOT__PAYMENTS__GBP__SECRET_KEY", "gbp-secret")
        .spawn()
        .await;
    assert_eq!(conf(&gbp, "PAYMENT_CHANNELS").await, "PP");
}

#[tokio::test]
async fn the_page_is_told_the_configured_media_base() {
    let web = tempfile::tempdir().unwrap();
    std::fs::write(
        web.path().join("index.html"),
        r#"<html><head><meta name="raceshot-media-base" content="__RACESHOT_MEDIA_BASE__"></head></html>"#,
    )
    .unwrap();
    let app = TestApp::builder(Backend::Sqlite)
        .with_env(
            "RACESHOT__SERVER__WEB_DIR",
            &web.path().display().to_string(),
        )
        .with_env(
            "RACESHOT__STORAGE__PUBLIC_URL",
            "https://cdn.example.com/photos/",
        )
        .spawn()
        .await;
    let html = get_text(&app.client, app.url("/demo")).await;
    assert!(
        html.contains(r#"content="https://cdn.example.com/photos""#),
        "{html}"
    );
    assert!(!html.contains("__RACESHOT_MEDIA_BASE__"));
}

#[tokio::test]
async fn the_demo_has_a_real_cover_and_a_home_banner() {
    let app = TestApp::builder(Backend::Sqlite).spawn().await;
    app.seed_demo().await;
    let event = json(app.get("/v1/events/demo").await).await;
    let cover = event["coverurl"].as_str().unwrap_or_default().to_owned();
    let banners = json(app.get("/v1/events/slider-banner").await).await;
    let banner = banners["body"][0]["image_url"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert_eq!(banners["body"][0]["link_url"], "/demo", "{banners}");
    for (url, width, height) in [(cover, 800, 420), (banner, 960, 300)] {
        assert!(
            url.starts_with(&app.url("/media/demo/logo/")),
            "{url} in {event} {banners}"
        );
        let resp = app.client.get(&url).send().await.unwrap();
        assert_eq!(resp.status(), 200, "{url}");
        let bytes = resp.bytes().await.unwrap();
        let info = raceshot_vision::image_io::probe(&bytes).unwrap();
        assert_eq!(info.width, width, "{url}");
        assert!(info.height.abs_diff(height) <= 1, "{url}: {}", info.height);
    }
}
