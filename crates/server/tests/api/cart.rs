//! The server's cart quote: prices from the event only, and the cart's refusals.

use raceshot_domain::Flag;
use raceshot_domain::event::PackageInput;
use raceshot_store::Backend;
use serde_json::json;

use crate::helpers::{TestApp, assert_error, event, json};

crate::both_backends!(quotes_follow_the_tiers_and_the_deal);

async fn quotes_follow_the_tiers_and_the_deal(backend: Backend) {
    let mut wholesale = event("hybrid");
    wholesale.is_hybrid = Flag::YES;
    wholesale.is_mhao_hybrid = Flag::YES;
    wholesale.hybrid_mhao_price = Some(500.0);
    wholesale.package_hb = vec![PackageInput {
        name: "1".into(),
        name_en: "1".into(),
        number_of_photo: 1,
        price: 80.0,
    }];
    let app = TestApp::builder(backend)
        .with_event(event("race"))
        .with_event(wholesale)
        .spawn()
        .await;
    let photos = app.ready_photos("race", 37).await;

    // 7 photos: 5-photo tier + 2 singles = 250 + 120 = 370; full price 7 × 60 = 420.
    let mut seven = photos[..7].to_vec();
    seven.push(photos[0]); // a duplicate counts once
    let resp = app
        .post(
            "/api/cart/quote",
            &json!({"event_key": "race", "image_ids": seven, "is_mhao": "N"}),
        )
        .await;
    assert_eq!(resp.status(), 200);
    let text = resp.text().await.unwrap_or_default();
    assert!(
        text.contains("\"cart_payment_fee\":18.50"),
        "two decimals on the wire: {text}"
    );
    let body: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    assert_eq!(
        body,
        json!({"status": "success", "total": 7, "cart_full_amt": 420.0, "cart_full_amt_no_pomo": 370.0,
            "cart_discount": 50.0, "cart_amt": 370.0, "cart_payment_fee": 18.5, "cart_final_payment": 388.5,
            "amount": 370.0, "paid_amount": 388.5})
    );

    // All 37 with the deal, all found by the visitor's search: the tiers say 1,620, the
    // deal caps it at 990.
    let searched = app.found_ref("race", &photos).await;
    let all = json(
        app.post(
            "/api/cart/quote",
            &json!({"event_key": "race", "image_ids": photos, "is_mhao": "Y", "found_refs": [searched]}),
        )
        .await,
    )
    .await;
    assert_eq!(
        (
            all["cart_full_amt_no_pomo"].clone(),
            all["cart_amt"].clone()
        ),
        (json!(1620.0), json!(990.0))
    );
    assert_eq!(
        (
            all["cart_discount"].clone(),
            all["cart_final_payment"].clone()
        ),
        (json!(1230.0), json!(1039.5))
    );

    // Refusals.
    let other = app.ready_photos("hybrid", 2).await;
    let mixed = vec![photos[0], other[0]];
    assert_error(
        app.post(
            "/api/cart/quote",
            &json!({"event_key": "race", "image_ids": mixed}),
        )
        .await,
        422,
        "mixed_events",
    )
    .await;
    let unknown = app
        .post(
            "/api/cart/quote",
            &json!({"event_key": "race", "image_ids": [photos[0], 999_999]}),
        )
        .await;
    assert_error(unknown, 404, "image_not_found").await;
    let empty = app
        .post(
            "/api/cart/quote",
            &json!({"event_key": "race", "image_ids": []}),
        )
        .await;
    assert_eq!(
        assert_error(empty, 422, "invalid_field").await["field"],
        "image_ids"
    );
    let wholesale = app
        .post(
            "/api/cart/quote",
            &json!({"event_key": "race", "image_ids": [photos[0]], "wholesale": true}),
        )
        .await;
    assert_error(wholesale, 409, "wholesale_not_available").await;

    // The wholesale cart uses the wholesale packages and the wholesale deal cap.
    let searched = app.found_ref("hybrid", &other).await;
    let hb = json(
        app.post(
            "/api/cart/quote",
            &json!({"event_key": "hybrid", "image_ids": other, "wholesale": true, "is_mhao": "Y", "found_refs": [searched]}),
        )
        .await,
    )
    .await;
    assert_eq!(
        (hb["cart_full_amt"].clone(), hb["cart_amt"].clone()),
        (json!(160.0), json!(160.0))
    );
}

#[tokio::test]
async fn deals_and_free_events() {
    let mut no_deal = event("plain");
    no_deal.is_mhao = Flag::NO;
    no_deal.mhao_price = None;
    let mut free = event("free");
    free.is_free_download_keep_contract = Flag::YES;
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(no_deal)
        .with_event(free)
        .spawn()
        .await;
    let plain = app.ready_photos("plain", 2).await;
    let resp = app
        .post(
            "/api/cart/quote",
            &json!({"event_key": "plain", "image_ids": plain, "is_mhao": "Y"}),
        )
        .await;
    assert_error(resp, 409, "deal_not_available").await;
    let free_photos = app.ready_photos("free", 3).await;
    let body = json(
        app.post(
            "/api/cart/quote",
            &json!({"event_key": "free", "image_ids": free_photos}),
        )
        .await,
    )
    .await;
    assert_eq!(
        (body["total"].clone(), body["cart_final_payment"].clone()),
        (json!(3), json!(0.0))
    );
}

#[tokio::test]
async fn cart_analytics_are_kept() {
    let app = TestApp::with_one_event("race").await;
    let entry = json!({"service": "cart", "cart_count": 2, "image_id": 17, "list": "17,18", "event_key": "race"});
    assert_eq!(
        json(app.post("/v1/logs/", &entry).await).await,
        json!({"status": "success"})
    );
    let wholesale = json!({"service": "cart-wholesale", "cart_count": 1, "image_id": "9", "list": "9", "event_key": "race"});
    assert_eq!(app.post("/v1/logs/", &wholesale).await.status(), 200);
    let kept = app.store.cart_logs("race", 10).await.unwrap_or_default();
    let got: Vec<(&str, i64, &str, &str)> = kept
        .iter()
        .map(|l| {
            (
                l.service.as_str(),
                l.cart_count,
                l.image_id.as_str(),
                l.list.as_str(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![("cart-wholesale", 1, "9", "9"), ("cart", 2, "17", "17,18")]
    );

    for (field, bad) in [
        (
            "service",
            json!({"service": "basket", "cart_count": 1, "event_key": "race"}),
        ),
        (
            "list",
            json!({"service": "cart", "cart_count": 1, "list": "1;DROP", "event_key": "race"}),
        ),
        (
            "event_key",
            json!({"service": "cart", "cart_count": 1, "event_key": "../x"}),
        ),
        (
            "cart_count",
            json!({"service": "cart", "cart_count": -1, "event_key": "race"}),
        ),
    ] {
        let body = assert_error(app.post("/v1/logs/", &bad).await, 422, "invalid_field").await;
        assert_eq!(body["field"], field, "{bad}");
    }
}
