//! Photo passes in the console, on both backends: an admin makes a batch of codes, answered
//! once as a CSV file (codes as printed, each different, found again by their hash only),
//! the event's batches are listed with their counts, a bad batch is refused field by field,
//! and only admins may make them; each batch is audited without its codes. At checkout a
//! pass pays for one cart it covers (a FREE order, delivered), is used up with it, and
//! wrong codes are counted per client, refused past the limit and audited.

use raceshot_domain::pass::{PassCode, PassCover};
use raceshot_server::services::passes::code_hash;
use raceshot_store::Backend;
use reqwest::Method;
use serde_json::json;

use crate::helpers::{TestApp, assert_error, json};

crate::both_backends!(
    an_admin_makes_a_batch_of_pass_codes_as_a_file,
    a_pass_pays_for_one_cart_it_covers,
    wrong_pass_codes_are_limited_and_audited,
    a_pass_pays_neither_a_wholesale_cart_nor_free_photos,
);

async fn an_admin_makes_a_batch_of_pass_codes_as_a_file(backend: Backend) {
    let (app, admin) = TestApp::race_with_console(backend).await;
    let make = |cookie: &str, body: serde_json::Value| {
        let cookie = cookie.to_owned();
        let app = &app;
        async move {
            app.call(
                Method::POST,
                "/api/admin/events/race/passes",
                Some(&cookie),
                Some(body),
            )
            .await
        }
    };

    let resp = make(
        &admin,
        json!({ "batch": "Entry 2026", "count": 3, "photos": 5 }),
    )
    .await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["content-type"], "text/csv; charset=utf-8");
    assert_eq!(
        resp.headers()["content-disposition"],
        "attachment; filename=\"passes-race-Entry_2026.csv\""
    );
    let csv = resp.text().await.unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("code,photos"));
    let codes: Vec<PassCode> = lines
        .map(|line| {
            let (code, photos) = line.split_once(',').unwrap();
            assert_eq!(photos, "5");
            assert_eq!(code.len(), 14, "{code}");
            PassCode::parse(code).unwrap()
        })
        .collect();
    assert_eq!(codes.len(), 3);
    assert!(codes[0] != codes[1] && codes[1] != codes[2] && codes[0] != codes[2]);
    // Kept as hashes only: each found by the hash of its code, however it is typed.
    let (_, stored) = app.stored_event("race").await;
    let typed = PassCode::parse(&codes[2].to_string().to_lowercase().replace('-', " ")).unwrap();
    let pass = app
        .state
        .store
        .pass_by_hash(&code_hash(&typed))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (pass.event_id, pass.cover, pass.redeemed),
        (stored.id, PassCover::Photos(5), false)
    );

    // A batch covering the all-photos deal; the batches listed.
    let deal = make(&admin, json!({ "batch": "VIP", "count": 1 })).await;
    assert!(deal.text().await.unwrap().ends_with(",all\n"));
    let list = batches(&app, &admin).await;
    assert_eq!(list[0]["batch"], "Entry 2026");
    assert_eq!(
        (
            list[0]["count"].clone(),
            list[0]["redeemed"].clone(),
            list[0]["photos"].clone()
        ),
        (json!(3), json!(0), json!(5))
    );
    assert_eq!(
        (list[1]["batch"].clone(), list[1]["photos"].clone()),
        (json!("VIP"), json!(null))
    );

    // Refused field by field: a name again, no codes, too many photos, a bad name.
    for (body, field) in [
        (json!({ "batch": "VIP", "count": 1 }), "batch"),
        (json!({ "batch": "More", "count": 0 }), "count"),
        (json!({ "batch": "More", "count": 10001 }), "count"),
        (
            json!({ "batch": "More", "count": 1, "photos": 0 }),
            "photos",
        ),
        (json!({ "batch": "a,b", "count": 1 }), "batch"),
    ] {
        let err = assert_error(make(&admin, body.clone()).await, 422, "invalid_field").await;
        assert_eq!(err["field"], field, "{body}");
    }
    assert_eq!(
        app.state.store.pass_batches(stored.id).await.unwrap().len(),
        2
    );

    // Admins only; each batch audited, without its codes.
    let cam = app.sign_in("cam@example.com").await;
    assert_error(
        make(&cam, json!({ "batch": "Mine", "count": 1 })).await,
        403,
        "forbidden",
    )
    .await;
    let actions = app.audit_actions(&admin).await;
    assert_eq!(actions.iter().filter(|a| *a == "passes.create").count(), 2);
    let audit = json(
        app.call(Method::GET, "/api/admin/audit", Some(&admin), None)
            .await,
    )
    .await
    .to_string();
    for code in &codes {
        assert!(!audit.contains(code.as_str()) && !audit.contains(&code.to_string()));
    }
}

/// The batches of event `race`, as the console lists them.
async fn batches(app: &TestApp, admin: &str) -> serde_json::Value {
    json(
        app.call(
            Method::GET,
            "/api/admin/events/race/passes",
            Some(admin),
            None,
        )
        .await,
    )
    .await
}

/// Makes a batch of `count` passes of `event_key` covering `photos` photos (`None`: the
/// all-photos deal) and answers their codes as printed.
pub async fn make_passes(
    app: &TestApp,
    admin: &str,
    event_key: &str,
    batch: &str,
    count: usize,
    photos: Option<u32>,
) -> Vec<String> {
    let resp = app
        .call(
            Method::POST,
            &format!("/api/admin/events/{event_key}/passes"),
            Some(admin),
            Some(json!({ "batch": batch, "count": count, "photos": photos })),
        )
        .await;
    assert_eq!(resp.status(), 200);
    let csv = resp.text().await.unwrap();
    csv.lines()
        .skip(1)
        .map(|line| line.split_once(',').unwrap().0.to_owned())
        .collect()
}

fn pass_quote(ids: &[i64], code: &str, found_refs: &[String]) -> serde_json::Value {
    json!({ "event_key": "race", "image_ids": ids, "is_mhao": "N", "pass_code": code,
        "found_refs": found_refs })
}

fn pass_order(ids: &[i64], code: &str, found_refs: &[String]) -> serde_json::Value {
    json!({
        "mobile": "0812345678", "email": "runner@example.com", "event_key": "race",
        "amount": 0, "paid_amount": 0, "imageList": crate::orders::image_list(ids),
        "image_length": ids.len(), "is_mhao": "N", "payment_channel": "FREE",
        "pass_code": code, "found_refs": found_refs,
    })
}

async fn a_pass_pays_for_one_cart_it_covers(backend: Backend) {
    let (app, admin) = TestApp::race_with_console(backend).await;
    let codes = make_passes(&app, &admin, "race", "Entry", 2, Some(3)).await;
    let ids = app.ready_photos("race", 4).await;

    // Priced by the server: three photos are paid by the pass, typed any way; four are not,
    // and the quote says why, with the cart's own price.
    let typed = codes[0].to_lowercase().replace('-', " ");
    let q = json(
        app.post("/api/cart/quote", &pass_quote(&ids[..3], &typed, &[]))
            .await,
    )
    .await;
    assert_eq!(
        q["pass"],
        json!({ "photos": 3, "pays": true, "reason": null })
    );
    for field in [
        "cart_amt",
        "cart_payment_fee",
        "cart_final_payment",
        "amount",
        "paid_amount",
    ] {
        assert_eq!(q[field], json!(0.0), "{field}: {q}");
    }
    assert_eq!(q["cart_discount"], q["cart_full_amt"]);
    assert_ne!(q["cart_full_amt"], json!(0.0));
    let q4 = json(
        app.post("/api/cart/quote", &pass_quote(&ids, &codes[0], &[]))
            .await,
    )
    .await;
    assert_eq!(
        q4["pass"],
        json!({ "photos": 3, "pays": false, "reason": "too_many_photos" })
    );
    assert_eq!(
        q4["paid_amount"],
        app.quote("race", &ids, false).await["paid_amount"]
    );

    // An order never half-uses a pass, nor pays beside one.
    let err = assert_error(
        app.post("/v1/order/create", &pass_order(&ids, &codes[0], &[]))
            .await,
        409,
        "pass_does_not_cover",
    )
    .await;
    assert_eq!(err["field"], "pass_code");
    let mut by_qr = pass_order(&ids[..3], &codes[0], &[]);
    by_qr["payment_channel"] = json!("PP");
    assert_error(
        app.post("/v1/order/create", &by_qr).await,
        409,
        "payment_channel_not_available",
    )
    .await;
    let mut shown = pass_order(&ids[..3], &codes[0], &[]);
    shown["paid_amount"] = json!(63.0);
    assert_error(
        app.post("/v1/order/create", &shown).await,
        409,
        "amount_mismatch",
    )
    .await;

    // A FREE order, paid as it is placed and delivered; sent twice, still one order.
    let body = pass_order(&ids[..3], &typed, &[]);
    let uuid = app.create_order("/v1/order/create", &body).await;
    assert_eq!(app.create_order("/v1/order/create", &body).await, uuid);
    let done = app.inquiry_until(&uuid, crate::orders::delivered).await;
    assert_eq!(
        (
            done["payment_status"].clone(),
            done["payment_channel"].clone()
        ),
        (json!("PAID"), json!("FREE"))
    );
    assert_eq!(done["amount"], json!(0.0), "{done}");
    let zip = app.get(&format!("/api/orders/{uuid}/download.zip")).await;
    assert_eq!(zip.status(), 200);
    let entries = crate::orders::zip_entries(&zip.bytes().await.unwrap()).await;
    assert_eq!(entries.len(), 3);

    // Used once: another cart with it, and its quote, are refused.
    for resp in [
        app.post("/v1/order/create", &pass_order(&ids[3..], &codes[0], &[]))
            .await,
        app.post("/api/cart/quote", &pass_quote(&ids[3..], &codes[0], &[]))
            .await,
    ] {
        assert_error(resp, 409, "pass_used").await;
    }
    let listed = batches(&app, &admin).await;
    assert_eq!(
        (listed[0]["count"].clone(), listed[0]["redeemed"].clone()),
        (json!(2), json!(1))
    );
    let (_, stored) = app.stored_event("race").await;
    let pass = app
        .state
        .store
        .pass_by_hash(&code_hash(&PassCode::parse(&codes[0]).unwrap()))
        .await
        .unwrap()
        .unwrap();
    let order = app
        .state
        .store
        .order_by_uuid(crate::helpers::oid(&uuid))
        .await
        .unwrap()
        .unwrap();
    assert_eq!((pass.event_id, pass.order_id), (stored.id, Some(order.id)));

    // The all-photos pass pays for the photos the runner's searches found, however many,
    // and for no other.
    let deal = make_passes(&app, &admin, "race", "VIP", 1, None).await;
    let found = vec![app.found_ref("race", &ids[1..]).await];
    let q = json(
        app.post("/api/cart/quote", &pass_quote(&ids, &deal[0], &found))
            .await,
    )
    .await;
    assert_eq!(
        q["pass"],
        json!({ "photos": null, "pays": false, "reason": "not_found_by_search" })
    );
    assert_error(
        app.post("/v1/order/create", &pass_order(&ids, &deal[0], &found))
            .await,
        409,
        "pass_does_not_cover",
    )
    .await;
    let q = json(
        app.post("/api/cart/quote", &pass_quote(&ids[1..], &deal[0], &found))
            .await,
    )
    .await;
    assert_eq!(
        (q["pass"]["pays"].clone(), q["paid_amount"].clone()),
        (json!(true), json!(0.0))
    );
    let vip = app
        .create_order("/v1/order/create", &pass_order(&ids[1..], &deal[0], &found))
        .await;
    let done = app.inquiry_until(&vip, crate::orders::delivered).await;
    assert_eq!(done["payment_channel"], "FREE");
}

async fn wrong_pass_codes_are_limited_and_audited(backend: Backend) {
    let (app, admin) = TestApp::with_console(
        backend,
        vec![
            crate::helpers::event("race"),
            crate::helpers::event("other"),
        ],
    )
    .await;
    let ours = make_passes(&app, &admin, "race", "Entry", 1, Some(5)).await;
    let theirs = make_passes(&app, &admin, "other", "Entry", 1, Some(5)).await;
    let ids = app.ready_photos("race", 1).await;

    // Another event's code, a made-up one and a malformed one are all "no pass of this
    // event", each counted and audited.
    for code in [
        theirs[0].as_str(),
        "AAAA-AAAA-AAAA",
        "not a code",
        "ABCD-EFGH-IJKL",
    ] {
        let err = assert_error(
            app.post("/api/cart/quote", &pass_quote(&ids, code, &[]))
                .await,
            422,
            "pass_not_found",
        )
        .await;
        assert_eq!(err["field"], "pass_code");
    }
    assert_error(
        app.post("/v1/order/create", &pass_order(&ids, "AAAA-AAAA-AAAB", &[]))
            .await,
        422,
        "pass_not_found",
    )
    .await;

    // Past five wrong codes a minute, every code from that address waits, the right one
    // too: guessing learns nothing more.
    let resp = app
        .post("/api/cart/quote", &pass_quote(&ids, &ours[0], &[]))
        .await;
    assert!(resp.headers().contains_key("retry-after"));
    assert_error(resp, 429, "rate_limited").await;
    let resp = app
        .post("/v1/order/create", &pass_order(&ids, &ours[0], &[]))
        .await;
    assert_error(resp, 429, "rate_limited").await;
    // A cart without a code is priced as ever.
    app.quote("race", &ids, false).await;

    let audit = json(
        app.call(Method::GET, "/api/admin/audit", Some(&admin), None)
            .await,
    )
    .await;
    let wrong: Vec<&serde_json::Value> = audit["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"] == "passes.wrong_code")
        .collect();
    assert_eq!(wrong.len(), 5);
    for entry in wrong {
        assert_eq!(entry["target"], "event:race");
        let actor = entry["actor"].as_str().unwrap();
        assert!(
            actor.starts_with("client:") && !actor.contains("127.0.0.1"),
            "{actor}"
        );
    }
    assert!(!audit.to_string().contains(&theirs[0]));
}

async fn a_pass_pays_neither_a_wholesale_cart_nor_free_photos(backend: Backend) {
    let mut race = crate::helpers::event("race");
    race.is_hybrid = raceshot_domain::Flag::YES;
    race.package_hb = race.package.clone();
    let mut free = crate::helpers::event("free");
    free.is_free_download_keep_contract = raceshot_domain::Flag::YES;
    let (app, admin) = TestApp::with_console(backend, vec![race, free]).await;
    let ours = make_passes(&app, &admin, "race", "Entry", 1, Some(5)).await;
    let theirs = make_passes(&app, &admin, "free", "Entry", 1, Some(5)).await;

    // The wholesale cart is priced as ever, the pass left unused.
    let ids = app.ready_photos("race", 2).await;
    let mut body = pass_quote(&ids, &ours[0], &[]);
    body["wholesale"] = json!(true);
    let q = json(app.post("/api/cart/quote", &body).await).await;
    assert_eq!(
        q["pass"],
        json!({ "photos": 5, "pays": false, "reason": "wholesale" })
    );
    assert_ne!(q["paid_amount"], json!(0.0));
    let mut order = pass_order(&ids, &ours[0], &[]);
    order["wholesale"] = json!(true);
    assert_error(
        app.post("/v1/order/create", &order).await,
        409,
        "pass_does_not_cover",
    )
    .await;

    // On an event whose photos are free, a pass has nothing to pay and is not used up.
    let ids = app.ready_photos("free", 1).await;
    let mut body = pass_quote(&ids, &theirs[0], &[]);
    body["event_key"] = json!("free");
    let q = json(app.post("/api/cart/quote", &body).await).await;
    assert_eq!(q["pass"]["reason"], "free_event");
    let mut order = pass_order(&ids, &theirs[0], &[]);
    order["event_key"] = json!("free");
    assert_error(
        app.post("/v1/order/create", &order).await,
        409,
        "pass_does_not_cover",
    )
    .await;
    let listed = json(
        app.call(
            Method::GET,
            "/api/admin/events/free/passes",
            Some(&admin),
            None,
        )
        .await,
    )
    .await;
    assert_eq!(listed[0]["redeemed"], json!(0));
}
