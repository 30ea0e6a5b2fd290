//! The catalogue calls (docs/shop-contract.md, Calls): field names, derived sale fields,
//! paging, errors.

use raceshot_domain::Flag;
use raceshot_store::Backend;
use serde_json::json;

use crate::helpers::{TOKEN, TestApp, assert_error, event, json};

crate::both_backends!(
    lists_events_on_sale_with_derived_fields,
    pages_hold_eighteen_events_pinned_first,
    counts_events_by_status,
    one_event_by_key,
    unknown_events_are_404,
    banners_and_upcoming_events,
    photo_event_key_is_dash_when_unknown,
    highlight_is_empty_before_photos,
);

async fn lists_events_on_sale_with_derived_fields(backend: Backend) {
    let mut soon = event("later");
    soon.on_sale_start = "2026-12-20T09:00:00".into();
    soon.on_sale_end = "2026-12-31".into();
    let app = TestApp::builder(backend)
        .with_event(event("chiangmai"))
        .with_event(soon)
        .spawn()
        .await;

    let resp = app
        .post(
            "/v1/events/pagination",
            &json!({"page": 1, "page_size": 18}),
        )
        .await;
    assert_eq!(resp.status(), 200);
    let body = json(resp).await;
    assert_eq!(body["status"], "success");
    let events = body["body"].as_array().cloned().unwrap_or_default();
    assert_eq!(events.len(), 1, "only events on sale are listed: {body}");
    let e = &events[0];
    for (field, want) in [
        ("event_key", json!("chiangmai")),
        ("title", json!("งานวิ่ง chiangmai")),
        ("eventdate", json!("2026-11-30")),
        ("event_date_text", json!("30 พ.ย. 2569")),
        ("province", json!("เชียงใหม่")),
        ("on_sale_start", json!("2026-12-01T00:00:00+07:00")),
        ("on_sale_end", json!("2026-12-10T23:59:59+07:00")),
        ("on_sale_start_txt", json!("2026-12-01 00:00")),
        // Now is 2026-12-05 in Bangkok: five days to the last day of sale.
        ("day_diff", json!(5)),
        ("can_sale", json!("Y")),
        ("close_sale", json!("N")),
        ("event_status", json!("ON_SALE")),
        ("is_mhao", json!("Y")),
        ("mhao_price", json!(990.0)),
        ("is_hybrid", json!("N")),
        ("face_threshold", json!(0.35)),
        ("max_face_search", json!(200)),
        ("pin", json!(0)),
    ] {
        assert_eq!(e[field], want, "{field} in {e}");
    }
    assert_eq!(
        e["package"][1],
        json!({"name": "5 รูป", "name_en": "5 photos", "number_of_photo": 5, "price": 250.0})
    );
    assert!(e["event_id"].as_i64().is_some_and(|id| id > 0));
    for field in [
        "coverurl",
        "is_mhao_hybrid",
        "hybrid_mhao_price",
        "is_event_stage",
        "is_free_download",
        "is_free_download_keep_contract",
        "caption_button_buy_all",
        "package_hb",
    ] {
        assert!(e.get(field).is_some(), "{field} missing from {e}");
    }
}

async fn pages_hold_eighteen_events_pinned_first(backend: Backend) {
    let mut builder = TestApp::builder(backend);
    for i in 0..20 {
        let mut e = event(&format!("race-{i:02}"));
        e.eventdate = format!("2026-11-{:02}", i + 1);
        e.pin = Flag(i == 3);
        builder = builder.with_event(e);
    }
    let app = builder.spawn().await;
    let keys = |body: serde_json::Value| -> Vec<String> {
        body["body"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|e| e["event_key"].as_str().map(str::to_owned))
            .collect()
    };
    let first = keys(json(app.post("/v1/events/pagination", &json!({"page": 1})).await).await);
    assert_eq!(first.len(), 18);
    assert_eq!(first[0], "race-03", "pinned first");
    assert_eq!(first[1], "race-19", "then the newest race");
    let second = keys(json(app.post("/v1/events/pagination", &json!({"page": 2})).await).await);
    assert_eq!(second, vec!["race-01".to_owned(), "race-00".into()]);
    // Empty body: page 1 of 18.
    let resp = app
        .client
        .post(app.url("/v1/events/pagination"))
        .bearer_auth(TOKEN)
        .send()
        .await;
    let default = keys(json(resp.unwrap_or_else(|e| panic!("{e}"))).await);
    assert_eq!(default, first);
    // Older clients' extra fields are accepted.
    let resp = app
        .post(
            "/v1/events/pagination",
            &json!({"page": 2, "page_size": 18, "total_event_onsale": 20, "page_tab": "all"}),
        )
        .await;
    assert_eq!(resp.status(), 200);
}

async fn counts_events_by_status(backend: Backend) {
    let mut soon = event("soon-race");
    soon.on_sale_start = "2026-12-24".into();
    soon.on_sale_end = "2027-01-24".into();
    let mut ended = event("ended");
    ended.on_sale_start = "2026-11-01".into();
    ended.on_sale_end = "2026-11-30".into();
    let app = TestApp::builder(backend)
        .with_event(event("a"))
        .with_event(event("b"))
        .with_event(soon)
        .with_event(ended)
        .spawn()
        .await;
    for (status, n) in [
        (json!("ON_SALE"), 2),
        (json!("SOON"), 1),
        (json!("CLOSED"), 1),
        (json!(null), 2),
    ] {
        let body = json(
            app.post(
                "/v1/events/pagination-count",
                &json!({"event_status": status}),
            )
            .await,
        )
        .await;
        assert_eq!(
            body,
            json!({"status": "success", "body": [{"event_count": n}]}),
            "{status}"
        );
    }
    let bad = app
        .post(
            "/v1/events/pagination-count",
            &json!({"event_status": "SOMETIME"}),
        )
        .await;
    let body = assert_error(bad, 422, "invalid_field").await;
    assert_eq!(body["field"], "event_status");
}

async fn one_event_by_key(backend: Backend) {
    let mut e = event("hybrid-run");
    e.is_hybrid = Flag::YES;
    e.is_mhao_hybrid = Flag::YES;
    e.hybrid_mhao_price = Some(1490.5);
    e.package_hb = vec![raceshot_domain::event::PackageInput {
        name: "1".into(),
        name_en: "1".into(),
        number_of_photo: 1,
        price: 80.0,
    }];
    e.pin = Flag::YES;
    let app = TestApp::builder(backend).with_event(e).spawn().await;
    let resp = app.get("/v1/events/hybrid-run").await;
    assert_eq!(resp.status(), 200);
    let body = json(resp).await;
    assert_eq!(body["status"], "success");
    assert_eq!(body["event_key"], "hybrid-run");
    assert_eq!(body["is_hybrid"], "Y");
    assert_eq!(body["hybrid_mhao_price"], json!(1490.5));
    assert_eq!(body["package_hb"][0]["price"], json!(80.0));
    assert_eq!(body["pin"], 1);
    // Prices keep two decimals on the wire.
    let text = app
        .get("/v1/events/hybrid-run")
        .await
        .text()
        .await
        .unwrap_or_default();
    assert!(text.contains("\"hybrid_mhao_price\":1490.50"), "{text}");
}

async fn unknown_events_are_404(backend: Backend) {
    let app = TestApp::builder(backend).spawn().await;
    assert_error(
        app.get("/v1/events/no-such-race").await,
        404,
        "event_not_found",
    )
    .await;
    assert_error(
        app.get("/v1/events/Not%20A%20Key").await,
        404,
        "event_not_found",
    )
    .await;
    let resp = app
        .post(
            "/v1/facesearch/highlight",
            &json!({"event_key": "no-such-race"}),
        )
        .await;
    assert_error(resp, 404, "event_not_found").await;
}

async fn banners_and_upcoming_events(backend: Backend) {
    let mut live = event("live");
    live.banners = vec![raceshot_domain::event::BannerInput {
        image_url: "https://img.example/live.jpg".into(),
        link_url: "/live".into(),
    }];
    let mut later = event("later");
    later.on_sale_start = "2026-12-24".into();
    later.on_sale_end = "2027-01-24".into();
    later.banners = vec![raceshot_domain::event::BannerInput {
        image_url: "https://img.example/later.jpg".into(),
        link_url: "/later".into(),
    }];
    let app = TestApp::builder(backend)
        .with_event(live)
        .with_event(later)
        .spawn()
        .await;

    let banners = json(app.get("/v1/events/slider-banner").await).await;
    assert_eq!(
        banners,
        json!({"status": "success", "body": [{"image_url": "https://img.example/live.jpg", "link_url": "/live"}]})
    );
    let soon = json(app.get("/v1/events/soon").await).await;
    assert_eq!(soon["body"][0]["event_key"], "later");
    assert_eq!(soon["body"][0]["can_sale"], "N");
    assert_eq!(soon["body"][0]["event_status"], "SOON");
    assert_eq!(soon["body"][0]["on_sale_start_txt"], "2026-12-24 00:00");
}

async fn photo_event_key_is_dash_when_unknown(backend: Backend) {
    let app = TestApp::builder(backend).spawn().await;
    for id in ["999", "abc", "-1"] {
        let body = json(app.get(&format!("/v1/events/event-key/{id}")).await).await;
        assert_eq!(body, json!({"status": "success", "event_key": "-"}), "{id}");
    }
}

async fn highlight_is_empty_before_photos(backend: Backend) {
    let app = TestApp::builder(backend)
        .with_event(event("fresh"))
        .spawn()
        .await;
    let body = json(
        app.post("/v1/facesearch/highlight", &json!({"event_key": "fresh"}))
            .await,
    )
    .await;
    assert_eq!(body, json!({"status": "success", "body": []}));
}

/// Every catalogue call needs the client token.
#[tokio::test]
async fn the_client_token_is_required() {
    let app = TestApp::with_one_event("demo").await;
    let calls: [(&str, &str, Option<serde_json::Value>); 7] = [
        ("POST", "/v1/events/pagination", Some(json!({"page": 1}))),
        ("POST", "/v1/events/pagination-count", Some(json!({}))),
        ("GET", "/v1/events/slider-banner", None),
        ("GET", "/v1/events/soon", None),
        ("GET", "/v1/events/demo", None),
        ("GET", "/v1/events/event-key/1", None),
        (
            "POST",
            "/v1/facesearch/highlight",
            Some(json!({"event_key": "demo"})),
        ),
    ];
    for (method, path, body) in calls {
        for token in [None, Some("wrong-token"), Some("")] {
            let mut req = app
                .client
                .request(method.parse().unwrap_or_default(), app.url(path));
            if let Some(t) = token {
                req = req.bearer_auth(t);
            }
            if let Some(b) = &body {
                req = req.json(b);
            }
            let resp = req.send().await.unwrap_or_else(|e| panic!("{e}"));
            assert_error(resp, 401, "invalid_client_token").await;
        }
        // The token in the body's `tk` field is accepted too.
        if let Some(mut b) = body.clone() {
            b["tk"] = json!(TOKEN);
            let resp = app
                .client
                .post(app.url(path))
                .json(&b)
                .send()
                .await
                .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(resp.status(), 200, "{path} with tk");
            b["tk"] = json!("wrong");
            let resp = app
                .client
                .post(app.url(path))
                .json(&b)
                .send()
                .await
                .unwrap_or_else(|e| panic!("{e}"));
            assert_error(resp, 401, "invalid_client_token").await;
        }
    }
}

#[tokio::test]
async fn bad_payloads_get_stable_codes() {
    let app = TestApp::builder(Backend::Sqlite).spawn().await;
    let raw = |body: &'static str, content_type: &'static str| {
        app.client
            .post(app.url("/v1/events/pagination"))
            .bearer_auth(TOKEN)
            .header("content-type", content_type)
            .body(body)
            .send()
    };
    let resp = raw("{\"page\": ", "application/json")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_error(resp, 400, "malformed_json").await;
    let resp = raw("{\"page\": \"one\"}", "application/json")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let body = assert_error(resp, 422, "invalid_field").await;
    assert_eq!(body["field"], "page");
    let resp = raw("[1, 2]", "application/json")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_error(resp, 422, "invalid_field").await;
    let resp = raw("page=1", "application/x-www-form-urlencoded")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_error(resp, 415, "unsupported_media_type").await;
    let resp = app.post("/v1/events/pagination", &json!({"page": 0})).await;
    assert_eq!(
        assert_error(resp, 422, "invalid_field").await["field"],
        "page"
    );
    let resp = app
        .post("/v1/events/pagination", &json!({"page_size": 101}))
        .await;
    assert_eq!(
        assert_error(resp, 422, "invalid_field").await["field"],
        "page_size"
    );
    let resp = app
        .post("/v1/facesearch/highlight", &json!({"event_key": 7}))
        .await;
    assert_eq!(
        assert_error(resp, 422, "invalid_field").await["field"],
        "event_key"
    );
    assert_error(app.get("/v1/no-such-call").await, 404, "not_found").await;
    let resp = app
        .client
        .delete(app.url("/v1/events/pagination"))
        .bearer_auth(TOKEN)
        .send()
        .await;
    assert_error(
        resp.unwrap_or_else(|e| panic!("{e}")),
        405,
        "method_not_allowed",
    )
    .await;
}

/// Events written by another process (an import, another replica) show once the
/// catalogue's snapshot is older than its TTL.
#[tokio::test]
async fn the_catalogue_picks_up_other_writers_within_its_ttl() {
    let app = TestApp::builder(Backend::Sqlite)
        .with_env("RACESHOT__SERVER__CATALOGUE_TTL_MS", "200")
        .spawn()
        .await;
    assert_error(app.get("/v1/events/late").await, 404, "event_not_found").await;
    let spec = event("late").validate().unwrap();
    app.store
        .write_events(&[spec], crate::helpers::now())
        .await
        .unwrap();
    let mut seen = false;
    for _ in 0..30 {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        if app.get("/v1/events/late").await.status() == 200 {
            seen = true;
            break;
        }
    }
    assert!(seen, "the new event never showed");
    let count = json(app.post("/v1/events/pagination-count", &json!({})).await).await;
    assert_eq!(count["body"][0]["event_count"], 1);
}
