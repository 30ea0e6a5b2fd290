//! What an outside probe of the running shop tried, each refused: an all-photos request
//! (AM) handing out another buyer's order, the all-photos price on photos nobody searched
//! for, find-order opening orders by a mobile number or receipt alone, a photo withdrawn
//! at its subject's request reaching (or being charged to) an unpaid order, AM orders for
//! anyone and forever, a selfie's search id used by another client or for another event,
//! and the sequential order number in a public answer.

use std::time::Duration;

use raceshot_domain::Flag;
use raceshot_domain::event::PackageInput;
use raceshot_store::Backend;
use raceshot_store::privacy::NewPrivacyRequest;
use serde_json::{Value, json};

use crate::helpers::{TOKEN, TestApp, assert_error, event, json, now, oid, photo};

crate::both_backends!(
    an_all_photos_request_names_the_earlier_order_and_opens_nothing,
    the_deal_covers_only_photos_a_search_found,
    a_withdrawn_photo_is_never_paid_for
);

/// An event with wholesale packages (where AM requests come from) and the deal at `cap`.
fn deal_event(key: &str, cap: f64) -> raceshot_domain::EventInput {
    let mut e = event(key);
    e.mhao_price = Some(cap);
    e.is_hybrid = Flag::YES;
    e.package_hb = vec![PackageInput {
        name: "1 รูป".into(),
        name_en: "1 photo".into(),
        number_of_photo: 1,
        price: 40.0,
    }];
    e
}

/// An AM order of `ids` (wholesale photos) for `mobile`: the request and its answer.
async fn am_order(app: &TestApp, key: &str, ids: &[i64], mobile: &str) -> reqwest::Response {
    let q = json(
        app.post(
            "/api/cart/quote",
            &json!({ "event_key": key, "image_ids": ids, "wholesale": true }),
        )
        .await,
    )
    .await;
    let mut body = app.order_body(key, ids, "AM").await;
    body["mobile"] = json!(mobile);
    body["wholesale"] = json!(true);
    body["amount"] = q["amount"].clone();
    body["paid_amount"] = q["paid_amount"].clone();
    app.post("/v1/order/create", &body).await
}

/// 1 and 7: the inquiry of an AM order names the earlier all-photos order masked, so that
/// knowing a victim's mobile number buys nothing; AM needs such an order, something to
/// pay, and lapses.
async fn an_all_photos_request_names_the_earlier_order_and_opens_nothing(backend: Backend) {
    let app = TestApp::builder(backend)
        .with_event(deal_event("am", 300.0))
        .spawn()
        .await;
    let bought = app.ready_photos("am", 4).await;
    // The victim bought all their photos with mobile 0812345678 (order_body's).
    let (victim, _) = app.paid_deal_order("am", &bought).await;

    // Someone knowing only that number asks for extra photos under it.
    let extra = app.ready_photos("am", 2).await;
    let resp = am_order(&app, "am", &extra, "0812345678").await;
    let text = resp.text().await.unwrap();
    let uuid = serde_json::from_str::<Value>(&text).unwrap()["uuid"]
        .as_str()
        .unwrap_or_else(|| panic!("{text}"))
        .to_owned();
    for path in ["/v1/order/inquiry", "/v3/order/inquiry"] {
        let body = json!({ "tk": TOKEN, "order_uuid": uuid });
        let answer = app.post(path, &body).await.text().await.unwrap();
        assert!(!answer.contains(&victim), "{answer}");
        let tail = &victim[victim.len() - 12..];
        assert!(!answer.contains(tail), "{answer}");
    }
    let page = app.inquiry(&uuid).await;
    assert_eq!(page["am_order_ref"], format!("{}…", &victim[..8]));
    // The request lapses like any unpaid order: in 72 hours by default.
    assert_eq!(
        page["expire_date"],
        raceshot_domain::time::format_bangkok(now() + chrono::Duration::hours(72))
    );

    // The operator sees the earlier order whole.
    app.account(
        "boss@example.com",
        raceshot_store::operators::Role::Admin,
        &[],
    )
    .await;
    let admin = app.sign_in("boss@example.com").await;
    let detail = json(
        app.call(
            reqwest::Method::GET,
            &format!("/api/admin/orders/{uuid}"),
            Some(&admin),
            None,
        )
        .await,
    )
    .await;
    assert_eq!(detail["am_order_ref"], victim.as_str(), "{detail}");

    // Without an earlier paid all-photos order of that number, there is nothing to ask.
    assert_error(
        am_order(&app, "am", &extra, "0899999999").await,
        409,
        "approval_not_available",
    )
    .await;
}

#[tokio::test]
async fn all_photos_requests_are_refused_where_nothing_is_owed_and_lapse() {
    let mut free = event("free-am");
    free.is_free_download_keep_contract = Flag::YES;
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(deal_event("lapse", 300.0))
        .with_event(free)
        .with_env("RACESHOT__PAYMENTS__APPROVAL_TTL_HOURS", "0")
        .spawn()
        .await;
    // A free event's cart costs nothing: no approval of anything.
    let ids = app.ready_photos("free-am", 1).await;
    let mut body = app.order_body("free-am", &ids, "AM").await;
    body["amount"] = json!(0);
    body["paid_amount"] = json!(0);
    assert_error(
        app.post("/v1/order/create", &body).await,
        409,
        "payment_channel_not_available",
    )
    .await;

    // A request past its lifetime is not approved, by the console or the command line.
    let bought = app.ready_photos("lapse", 2).await;
    app.paid_deal_order("lapse", &bought).await;
    let extra = app.ready_photos("lapse", 1).await;
    let resp = am_order(&app, "lapse", &extra, "0812345678").await;
    let uuid = json(resp).await["uuid"].as_str().unwrap().to_owned();
    app.account(
        "boss@example.com",
        raceshot_store::operators::Role::Admin,
        &[],
    )
    .await;
    let admin = app.sign_in("boss@example.com").await;
    let approve = app
        .call(
            reqwest::Method::POST,
            &format!("/api/admin/orders/{uuid}/approve"),
            Some(&admin),
            None,
        )
        .await;
    assert_error(approve, 409, "order_not_payable").await;
    assert_eq!(app.inquiry(&uuid).await["payment_status"], "INITIAL");
    // The housekeeping sweep marks it expired.
    app.store
        .expire_orders(now() + chrono::Duration::seconds(1))
        .await
        .unwrap();
    assert_eq!(app.inquiry(&uuid).await["payment_status"], "EXPIRED");
}

/// 2: the deal caps only the photos this buyer's searches found; other photos in the cart
/// pay the tiers; a cart of strangers cannot take the deal at all.
async fn the_deal_covers_only_photos_a_search_found(backend: Backend) {
    let app = TestApp::builder(backend)
        .with_event(deal_event("deal", 300.0))
        .with_event(deal_event("other", 300.0))
        .spawn()
        .await;
    let mine = app.ready_photos("deal", 10).await;
    let stranger = app.ready_photos("deal", 11).await;
    let quote_with = |ids: Vec<i64>, refs: Value| json!({ "event_key": "deal", "image_ids": ids, "is_mhao": "Y", "found_refs": refs });

    // 11 photos nobody searched for: no deal (the probe paid 300 instead of 450 + 60).
    for refs in [json!([]), json!(null)] {
        let mut body = quote_with(stranger.clone(), refs);
        if body["found_refs"].is_null() {
            body.as_object_mut().unwrap().remove("found_refs");
        }
        assert_error(
            app.post("/api/cart/quote", &body).await,
            409,
            "deal_needs_search",
        )
        .await;
    }
    let mut order = app.order_body("deal", &stranger, "PP").await;
    order["is_mhao"] = json!("Y");
    order["amount"] = json!(300.0);
    order["paid_amount"] = json!(315.0);
    assert_error(
        app.post("/v1/order/create", &order).await,
        409,
        "deal_needs_search",
    )
    .await;

    // A search found 10: those at the deal's 300, one stranger by the tiers (60).
    let searched = app.found_ref("deal", &mine).await;
    assert_eq!(searched.len(), 32);
    let mut cart = mine.clone();
    cart.push(stranger[0]);
    let q = json(
        app.post(
            "/api/cart/quote",
            &quote_with(cart.clone(), json!([searched])),
        )
        .await,
    )
    .await;
    assert_eq!(q["cart_amt"], json!(360.0), "{q}");
    assert_eq!(q["cart_full_amt_no_pomo"], json!(510.0), "{q}");
    let mut order = app.order_body("deal", &cart, "PP").await;
    order["is_mhao"] = json!("Y");
    order["found_refs"] = json!([searched]);
    order["amount"] = q["amount"].clone();
    order["paid_amount"] = q["paid_amount"].clone();
    let uuid = app.create_order("/v1/order/create", &order).await;
    assert_eq!(app.inquiry(&uuid).await["photos_amount"], json!(360.0));

    // A reference is not a wildcard: another event's, a made-up one and a malformed one.
    let elsewhere = app
        .found_ref("other", &app.ready_photos("other", 1).await)
        .await;
    for refs in [
        json!([elsewhere]),
        json!(["0123456789abcdef0123456789abcdef"]),
    ] {
        assert_error(
            app.post("/api/cart/quote", &quote_with(mine.clone(), refs))
                .await,
            409,
            "deal_needs_search",
        )
        .await;
    }
    let bad = assert_error(
        app.post(
            "/api/cart/quote",
            &quote_with(mine.clone(), json!([searched, "../x"])),
        )
        .await,
        422,
        "invalid_field",
    )
    .await;
    assert_eq!(bad["field"], "found_refs[1]");
    let many: Vec<String> = (0..9).map(|_| searched.clone()).collect();
    let bad = assert_error(
        app.post("/api/cart/quote", &quote_with(mine.clone(), json!(many)))
            .await,
        422,
        "invalid_field",
    )
    .await;
    assert_eq!(bad["field"], "found_refs");

    // Only a hash of the reference is kept, with photo ids and nothing else.
    let kept: Vec<(String, String)> = app
        .store
        .fetch_raw_pairs("SELECT id, photo_ids FROM search_finds")
        .await
        .unwrap();
    assert!(kept.iter().all(|(id, _)| id.len() == 64 && *id != searched));
}

#[tokio::test]
async fn what_a_search_found_lapses() {
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(deal_event("brief", 300.0))
        .with_env("RACESHOT__SEARCH__FOUND_TTL_SECS", "1")
        .spawn()
        .await;
    let ids = app.ready_photos("brief", 3).await;
    let searched = app.found_ref("brief", &ids).await;
    let body =
        json!({ "event_key": "brief", "image_ids": ids, "is_mhao": "Y", "found_refs": [searched] });
    assert_eq!(app.post("/api/cart/quote", &body).await.status(), 200);
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    assert_error(
        app.post("/api/cart/quote", &body).await,
        409,
        "deal_needs_search",
    )
    .await;
    // The sweep deletes the lapsed record.
    raceshot_server::services::commerce::deal::forget_lapsed(&app.state.store)
        .await
        .unwrap();
    let kept: Vec<(String, String)> = app
        .store
        .fetch_raw_pairs("SELECT id, photo_ids FROM search_finds")
        .await
        .unwrap();
    assert!(kept.is_empty(), "{kept:?}");
}

/// 2, end to end with the real models: a face search hands out the reference of what it
/// found, and the deal covers exactly those photos.
#[tokio::test]
async fn a_face_search_hands_out_what_the_deal_may_cover() {
    let mut race = event("race");
    race.mhao_price = Some(100.0);
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(race)
        .with_models()
        .spawn()
        .await;
    app.ingest_shipped_photos().await;
    let found = json(app.search_v1("race", photo("yaoming.jpg")).await).await;
    let ids: Vec<i64> = found["images"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect();
    assert!(ids.len() >= 2, "{found}");
    let searched = found["found_ref"].as_str().unwrap().to_owned();
    assert_eq!(searched.len(), 32, "{found}");
    let deal = json(
        app.post(
            "/api/cart/quote",
            &json!({ "event_key": "race", "image_ids": ids, "is_mhao": "Y", "found_refs": [searched] }),
        )
        .await,
    )
    .await;
    assert_eq!(deal["cart_amt"], json!(100.0), "{deal}");
    // A photo the search did not find pays the tiers beside them.
    let stranger = app.ready_photos("race", 1).await[0];
    let mut more = ids.clone();
    more.push(stranger);
    let deal = json(
        app.post(
            "/api/cart/quote",
            &json!({ "event_key": "race", "image_ids": more, "is_mhao": "Y", "found_refs": [searched] }),
        )
        .await,
    )
    .await;
    assert_eq!(deal["cart_amt"], json!(160.0), "{deal}");
    // A search that finds nothing hands out nothing.
    let blank = raceshot_server::infra::imaging::encode_jpeg(
        &raceshot_vision::RgbImage::filled(320, 240, [90, 90, 90]),
        90,
    )
    .unwrap();
    let none = json(app.search_v1("race", blank).await).await;
    assert_eq!(none["found_ref"], "", "{none}");
    app.assert_no_selfie_left().await;
}

/// 3: with default settings (no mail, no SMS) a mobile number or a receipt lists orders
/// and opens none; the lookup reference hides the order's number.
#[tokio::test]
async fn find_order_opens_nothing_with_default_settings() {
    let app = TestApp::with_one_event("plain").await;
    let (_, uuid) = app.promptpay_order("plain", 1).await;
    app.sandbox_pay(&uuid, "paid").await;
    let receipt = app.inquiry(&uuid).await["receipt_ref"]
        .as_str()
        .unwrap()
        .to_owned();
    let id = app
        .store
        .order_by_uuid(oid(&uuid))
        .await
        .unwrap()
        .unwrap()
        .id;
    let find = |filter: &str, text: &str| json!({ "tk": TOKEN, "filter_type": filter, "txt_search": text });
    let mut lookups = Vec::new();
    for (filter, text) in [("mobile", "0812345678"), ("payment_ref", receipt.as_str())] {
        let resp = app.post("/v1/order/find-order", &find(filter, text)).await;
        let text = resp.text().await.unwrap();
        assert!(!text.contains(&uuid), "{text}");
        let found: Value = serde_json::from_str(&text).unwrap();
        let row = &found["body"][0];
        assert_eq!(
            (row["order_id"].as_str(), row["status"].as_str()),
            (Some(""), Some("PAID"))
        );
        assert_eq!(row["contact"], "", "no channel can deliver a code");
        lookups.push(row["lookup"].as_str().unwrap().to_owned());
    }
    // The reference names the order without its sequential number, afresh each time.
    assert_ne!(lookups[0], lookups[1]);
    for lookup in &lookups {
        let first = lookup.split('.').next().unwrap();
        assert_ne!(first, id.to_string());
        assert_ne!(u64::from_str_radix(first, 16).ok(), u64::try_from(id).ok());
        // No code can be sent, so nothing opens it.
        assert_error(
            app.post(
                "/v1/order/find-order/send-code",
                &json!({ "lookup": lookup }),
            )
            .await,
            422,
            "access_code_undeliverable",
        )
        .await;
        assert_error(
            app.post(
                "/v1/order/find-order/open",
                &json!({ "lookup": lookup, "code": "000000" }),
            )
            .await,
            422,
            "access_code_expired",
        )
        .await;
    }
}

/// Hides `photo` of the event as an approved privacy request does.
async fn hold(app: &TestApp, event_key: &str, photo: i64) {
    let (_, event) = app.stored_event(event_key).await;
    let id = uuid::Uuid::new_v4().to_string();
    let request = NewPrivacyRequest {
        id: id.clone(),
        event_id: event.id,
        contact: format!("08{}", &id[..8].replace(|c: char| !c.is_ascii_digit(), "1")),
        embedding: vec![0; 16],
        model_pair: app.state.faces.configured().name().to_owned(),
        face_crop: None,
        client: "test".into(),
    };
    app.store
        .file_privacy_request(&request, |_| false, now())
        .await
        .unwrap();
    app.store
        .approve_privacy_request(&id, &[photo], "operator:1", now())
        .await
        .unwrap();
}

/// 6: an order placed before a hold and unpaid at it is cancelled, says why, and cannot be
/// paid; money that reaches such an order anyway is a refund due, never a delivery.
async fn a_withdrawn_photo_is_never_paid_for(backend: Backend) {
    let app = TestApp::builder(backend)
        .with_event(event("held"))
        .spawn()
        .await;
    let (ids, uuid) = app.promptpay_order("held", 2).await;
    hold(&app, "held", ids[0]).await;
    let page = app.inquiry(&uuid).await;
    assert_eq!(page["payment_status"], "CANCELLED", "{page}");
    assert_eq!(page["end_reason"], "photo_withdrawn");
    assert_eq!(page["photos_withdrawn"], 1);
    let shown: Vec<Value> = serde_json::from_str(page["images_order"].as_str().unwrap()).unwrap();
    assert_eq!(shown.len(), 1, "the withdrawn photo is not shown: {page}");
    assert_error(
        app.sandbox_pay(&uuid, "paid").await,
        409,
        "order_not_payable",
    )
    .await;

    // An order that raced the hold (placed as it was decided) is cancelled when its money
    // arrives, and the money is owed back.
    let (ids, raced) = app.promptpay_order("held", 2).await;
    hold(&app, "held", ids[1]).await;
    let order = app.store.order_by_uuid(oid(&raced)).await.unwrap().unwrap();
    app.store
        .execute_raw(&format!(
            "UPDATE orders SET payment_status = 'INITIAL', end_reason = NULL WHERE id = {}",
            order.id
        ))
        .await
        .unwrap();
    assert_eq!(app.sandbox_pay(&raced, "paid").await.status(), 200);
    let page = app.inquiry(&raced).await;
    assert_eq!(
        (page["payment_status"].as_str(), page["end_reason"].as_str()),
        (Some("CANCELLED"), Some("photo_withdrawn")),
        "{page}"
    );
    assert_eq!(page["refund_due"], page["amount"], "{page}");
    assert_eq!(page["images_paid"], "[]");
    assert_error(
        app.get(&format!("/api/orders/{raced}/download.zip")).await,
        403,
        "order_not_paid",
    )
    .await;

    // Paid before the hold: the buyer keeps the photo.
    let (ids, paid) = app.promptpay_order("held", 1).await;
    app.sandbox_pay(&paid, "paid").await;
    hold(&app, "held", ids[0]).await;
    let page = app.inquiry(&paid).await;
    assert_eq!(page["payment_status"], "PAID");
    assert_eq!(page["end_reason"], "");
    let bought: Vec<Value> = serde_json::from_str(page["images_paid"].as_str().unwrap()).unwrap();
    assert_eq!(bought.len(), 1);
}

/// A selfie's search id serves the client and the event it was signed for, nobody else;
/// another client's try neither uses nor destroys it.
#[tokio::test]
async fn a_search_id_serves_only_its_own_client_and_event() {
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(event("race"))
        .with_event(event("other"))
        .with_env("RACESHOT__SERVER__TRUSTED_PROXIES", "127.0.0.1")
        .spawn()
        .await;
    let from = |ip: &'static str, path: &str, body: Value| {
        app.client
            .post(app.url(path))
            .bearer_auth(TOKEN)
            .header("x-forwarded-for", ip)
            .json(&body)
            .send()
    };
    let signed = json(
        from(
            "203.0.113.7",
            "/v2/facesearch/sign",
            json!({"event_key": "race", "file_name": "me.jpg", "file_type": "image/jpeg"}),
        )
        .await
        .unwrap(),
    )
    .await;
    let put = app
        .client
        .put(signed["url"].as_str().unwrap())
        .body(photo("yaoming.jpg"))
        .send()
        .await
        .unwrap();
    assert_eq!(put.status(), 200);
    let search = |event_key: &str| json!({ "search_id": signed["search_id"], "file_location": signed["file_location"], "event_key": event_key });
    // Another client, then the right client for another event: nothing, and the selfie
    // stays for its own search.
    for (ip, event_key) in [("198.51.100.9", "race"), ("203.0.113.7", "other")] {
        assert_error(
            from(ip, "/v2/facesearch", search(event_key)).await.unwrap(),
            404,
            "upload_not_found",
        )
        .await;
    }
    let waiting = app.state.objects.list("_shop/selfies").await.unwrap();
    assert_eq!(waiting.len(), 1, "{waiting:?}");
    let mine = from("203.0.113.7", "/v2/facesearch", search("race"))
        .await
        .unwrap();
    assert_eq!(mine.status(), 200);
    app.assert_no_selfie_left().await;
}
