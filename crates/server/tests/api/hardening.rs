//! What an outside probe of the running shop found, each pinned by a test: order bodies
//! that stalled a worker, find-order handing out other people's orders, repeats handing
//! back another client's order, sequential receipts, unmasked personal data.

use std::time::Duration;

use serde_json::{Value, json};

use crate::helpers::{TOKEN, TestApp, assert_error, event, json, photo as photo_bytes};
use crate::orders::image_list;
use crate::smtp_sink::{SmtpSink, parse};

crate::both_backends!(a_found_order_opens_only_with_the_code_sent_to_its_buyer);

/// An order body whose `imageList` holds `ids` as the web app sends them (ids only).
fn ids_body(ids: impl IntoIterator<Item = i64>) -> Value {
    let list: Vec<Value> = ids.into_iter().map(|id| json!({ "id": id })).collect();
    json!({
        "mobile": "0812345678", "event_key": "probe", "amount": 60, "paid_amount": 63,
        "image_length": list.len(), "imageList": list, "is_mhao": "N",
    })
}

#[tokio::test]
async fn order_bodies_are_small_and_the_photo_cap_comes_first() {
    let app = TestApp::with_one_event("probe").await;

    // A body past the shop's JSON limit is refused before it is parsed.
    let big = ids_body(1..=7_000);
    assert!(big.to_string().len() > 64 * 1024);
    for path in ["/v1/order/create", "/v3/order/create", "/api/cart/quote"] {
        assert_error(app.post(path, &big).await, 413, "payload_too_large").await;
    }

    // Within the limit, too many photos are refused by count, before any other check.
    let body = assert_error(
        app.post("/v1/order/create", &ids_body(1..=2_001)).await,
        422,
        "invalid_field",
    )
    .await;
    assert_eq!(body["field"], "imageList", "{body}");
    let same = ids_body(std::iter::repeat_n(1, 5_000));
    assert!(same.to_string().len() < 64 * 1024);
    let body = assert_error(
        app.post("/v1/order/create", &same).await,
        422,
        "invalid_field",
    )
    .await;
    assert_eq!(body["field"], "imageList", "{body}");

    // Repeats within the cap are found (in one pass) and named.
    let body = assert_error(
        app.post("/v1/order/create", &ids_body([5, 6, 5])).await,
        422,
        "invalid_field",
    )
    .await;
    assert_eq!(body["field"], "imageList[2].id", "{body}");

    // The server still accepts the web app's full cart objects for an ordinary cart.
    let ids = app.ready_photos("probe", 2).await;
    let mut full = app.order_body("probe", &ids, "PP").await;
    full["imageList"] = image_list(&ids);
    app.create_order("/v1/order/create", &full).await;
}

/// The app with an SMTP server, so that found orders need a code.
async fn app_with_mail(backend: raceshot_store::Backend, sink: &SmtpSink) -> TestApp {
    TestApp::builder(backend)
        .with_event(event("finder"))
        .with_env("RACESHOT__NOTIFY__SMTP__HOST", "127.0.0.1")
        .with_env("RACESHOT__NOTIFY__SMTP__PORT", &sink.port().to_string())
        .with_env("RACESHOT__NOTIFY__SMTP__FROM", "shop@raceshot.test")
        .with_env("RACESHOT__NOTIFY__SMTP__TLS", "none")
        .with_env("RACESHOT__ORDERS__FIND_PER_CLIENT_PER_MINUTE", "100")
        .spawn()
        .await
}

/// An app with mail, one order of `0812345678`, and that order's lookup reference.
async fn app_with_a_found_order(sink: &SmtpSink) -> (TestApp, String) {
    let app = app_with_mail(raceshot_store::Backend::Sqlite, sink).await;
    let ids = app.ready_photos("finder", 1).await;
    app.create_order(
        "/v1/order/create",
        &app.order_body("finder", &ids, "PP").await,
    )
    .await;
    let found = find_order(&app, "mobile", "0812345678").await;
    let lookup = found["body"][0]["lookup"].as_str().unwrap().to_owned();
    (app, lookup)
}

fn find(filter: &str, text: &str) -> Value {
    json!({ "tk": TOKEN, "filter_type": filter, "txt_search": text })
}

async fn find_order(app: &TestApp, filter: &str, text: &str) -> Value {
    json(app.post("/v1/order/find-order", &find(filter, text)).await).await
}

async fn send_code(app: &TestApp, lookup: &str) -> reqwest::Response {
    app.post(
        "/v1/order/find-order/send-code",
        &json!({ "lookup": lookup }),
    )
    .await
}

async fn open_with(app: &TestApp, lookup: &str, code: &str) -> reqwest::Response {
    app.post(
        "/v1/order/find-order/open",
        &json!({ "lookup": lookup, "code": code }),
    )
    .await
}

/// The 6-digit code in the latest mail to the buyer.
fn code_in(mail: &str) -> String {
    let body = parse(mail).body;
    let digits: Vec<&str> = body
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| w.len() == 6)
        .collect();
    assert!(!digits.is_empty(), "no code in {body}");
    digits[0].to_owned()
}

async fn a_found_order_opens_only_with_the_code_sent_to_its_buyer(
    backend: raceshot_store::Backend,
) {
    let sink = SmtpSink::start().await;
    let app = app_with_mail(backend, &sink).await;
    let (ids, uuid) = app.promptpay_order("finder", 1).await;

    // The search tells where a code goes (masked), and no uuid.
    let found = find_order(&app, "mobile", "0812345678").await;
    let row = &found["body"][0];
    assert_eq!(row["order_id"], "", "{found}");
    assert_eq!(row["contact"], "r***@example.com");
    assert!(!found.to_string().contains(&uuid), "{found}");
    let lookup = row["lookup"].as_str().unwrap().to_owned();
    assert!(!lookup.contains(&uuid));

    // A forged or altered lookup names no order.
    for bad in [
        "",
        "1.99999999999.00",
        &format!("{lookup}0"),
        &lookup.replacen('.', ".1", 1),
    ] {
        assert_error(send_code(&app, bad).await, 404, "order_not_found").await;
    }

    // The code goes to the order's own address; a second one must wait a minute.
    let sent = json(send_code(&app, &lookup).await).await;
    assert_eq!(sent["contact"], "r***@example.com", "{sent}");
    assert_eq!(sent["expires_in_secs"], 600);
    let mails = sink.wait_for(1, Duration::from_secs(10)).await;
    assert!(
        parse(&mails[0].data)
            .header("To")
            .contains("runner@example.com")
    );
    let code = code_in(&mails[0].data);
    assert!(
        !mails[0].data.contains(&uuid),
        "the mail does not carry the uuid"
    );
    let again = app
        .post(
            "/v1/order/find-order/send-code",
            &json!({ "lookup": lookup }),
        )
        .await;
    assert!(again.headers().contains_key("retry-after"));
    assert_error(again, 429, "rate_limited").await;

    // A wrong code is refused and names the field; the right one opens the order once.
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let body = assert_error(
        open_with(&app, &lookup, wrong).await,
        422,
        "access_code_invalid",
    )
    .await;
    assert_eq!(body["field"], "code");
    assert_error(
        open_with(&app, &lookup, "12ab").await,
        422,
        "access_code_invalid",
    )
    .await;
    let opened = json(open_with(&app, &lookup, &code).await).await;
    assert_eq!(opened["order_id"], uuid.as_str(), "{opened}");
    assert_error(
        open_with(&app, &lookup, &code).await,
        422,
        "access_code_expired",
    )
    .await;

    // An order without an e-mail address cannot be reached without an SMS gateway.
    let mut no_mail = app.order_body("finder", &ids, "PP").await;
    no_mail["email"] = Value::Null;
    no_mail["mobile"] = json!("0822222222");
    app.create_order("/v1/order/create", &no_mail).await;
    let found = find_order(&app, "mobile", "0822222222").await;
    assert_eq!(found["body"][0]["contact"], "");
    let lookup = found["body"][0]["lookup"].as_str().unwrap().to_owned();
    assert_error(
        send_code(&app, &lookup).await,
        422,
        "access_code_undeliverable",
    )
    .await;
}

#[tokio::test]
async fn a_code_the_mail_server_refused_may_be_asked_for_again_at_once() {
    let sink = SmtpSink::start().await;
    let (app, lookup) = app_with_a_found_order(&sink).await;
    sink.fail_next(554);
    assert_error(send_code(&app, &lookup).await, 503, "unavailable").await;
    assert_eq!(send_code(&app, &lookup).await.status(), 200);
    let code = code_in(&sink.wait_for(1, Duration::from_secs(10)).await[0].data);
    let opened = json(open_with(&app, &lookup, &code).await).await;
    assert!(
        opened["order_id"].as_str().is_some_and(|id| id.len() == 36),
        "{opened}"
    );
}

#[tokio::test]
async fn wrong_codes_give_out_after_five_tries() {
    let sink = SmtpSink::start().await;
    let (app, lookup) = app_with_a_found_order(&sink).await;
    send_code(&app, &lookup).await;
    let code = code_in(&sink.wait_for(1, Duration::from_secs(10)).await[0].data);
    let wrong = if code == "999999" { "999998" } else { "999999" };
    for _ in 0..5 {
        assert_error(
            open_with(&app, &lookup, wrong).await,
            422,
            "access_code_invalid",
        )
        .await;
    }
    assert_error(
        open_with(&app, &lookup, &code).await,
        422,
        "access_code_expired",
    )
    .await;
}

#[tokio::test]
async fn answers_mask_the_buyers_contact_and_receipts_are_not_sequential() {
    let app = TestApp::with_one_event("masked").await;
    let ids = app.ready_photos("masked", 2).await;
    let mut receipts = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let mut body = app.order_body("masked", &[*id], "PP").await;
        body["mobile"] = json!(format!("081234567{i}"));
        let uuid = app.create_order("/v1/order/create", &body).await;
        let page = app.inquiry(&uuid).await;
        assert_eq!(page["mobile"], format!("******567{i}"));
        assert_eq!(page["email"], "r***@example.com");
        assert!(!page.to_string().contains("runner@"), "{page}");
        app.sandbox_pay(&uuid, "paid").await;
        receipts.push(
            app.inquiry(&uuid).await["receipt_ref"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
    }
    // The shop's own receipts: letters and digits that cannot be confused, drawn at random
    // (the sandbox's used to be the order number's last digits).
    for r in &receipts {
        assert!(
            r.len() == 4
                && r.chars()
                    .all(|c| "ABCDEFGHJKLMNPQRSTUVWXYZ23456789".contains(c)),
            "{r}"
        );
    }

    // Without a mail or SMS provider no code can be sent: the find-order rows, with no
    // contact and no uuid, and only for the exact number.
    let found = find_order(&app, "mobile", "0812345670").await;
    assert_eq!(found["body"].as_array().unwrap().len(), 1);
    assert_eq!(found["body"][0]["order_id"], "");
    assert_eq!(found["body"][0]["contact"], "");
    let none = find_order(&app, "mobile", "08123456701").await;
    assert!(none["body"].as_array().is_none_or(Vec::is_empty), "{none}");
}

#[tokio::test]
async fn a_repeat_never_hands_back_another_clients_or_a_paid_order() {
    let app = TestApp::builder(raceshot_store::Backend::Sqlite)
        .with_event(event("repeat"))
        .with_env("RACESHOT__SERVER__TRUSTED_PROXIES", "127.0.0.1")
        .spawn()
        .await;
    let ids = app.ready_photos("repeat", 1).await;
    let body = app.order_body("repeat", &ids, "PP").await;
    let from = |client: &'static str| {
        let app = &app;
        let body = body.clone();
        async move {
            let resp = app
                .client
                .post(app.url("/v1/order/create"))
                .bearer_auth(TOKEN)
                .header("x-forwarded-for", client)
                .json(&body)
                .send()
                .await
                .unwrap();
            assert_eq!(resp.status(), 200);
            json(resp).await["uuid"].as_str().unwrap().to_owned()
        }
    };
    let first = from("192.0.2.1").await;
    assert_eq!(
        from("192.0.2.1").await,
        first,
        "the same client's double submit"
    );
    let stranger = from("192.0.2.2").await;
    assert_ne!(stranger, first, "another client gets an order of its own");

    app.sandbox_pay(&first, "paid").await;
    let after = from("192.0.2.1").await;
    assert_ne!(after, first, "a paid order is never handed back");
}

/// 5. A page of another site (or a sibling one) cannot drive the console, and no JSON call
/// takes a body that does not say it is JSON.
#[tokio::test]
async fn bodies_must_be_json_and_console_changes_come_from_its_own_pages() {
    use raceshot_store::operators::Role;
    let app = TestApp::with_one_event("csrf").await;
    let body = r#"{"event_key":"csrf","image_ids":[1]}"#;
    for content_type in [
        None,
        Some("application/jsonx"),
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
    ] {
        let mut req = app
            .client
            .post(app.url("/api/cart/quote"))
            .bearer_auth(TOKEN)
            .body(body);
        if let Some(ct) = content_type {
            req = req.header("content-type", ct);
        }
        assert_error(req.send().await.unwrap(), 415, "unsupported_media_type").await;
    }
    let ok = app
        .client
        .post(app.url("/v1/utils/conf"))
        .bearer_auth(TOKEN)
        .header("content-type", "application/json; charset=utf-8")
        .body(r#"{"conf_name":"PAYMENT_GATEWAY"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), 200);

    app.account("boss@example.com", Role::Admin, &[]).await;
    let cookie = app.sign_in("boss@example.com").await;
    let close = |headers: &'static [(&'static str, &'static str)]| {
        let mut req = app
            .client
            .post(app.url("/api/admin/events/csrf/close"))
            .header("cookie", &cookie)
            .json(&json!({"closed": true}));
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        req.send()
    };
    for headers in [
        &[("sec-fetch-site", "same-site")][..],
        &[("sec-fetch-site", "cross-site")],
        &[("origin", "https://shop.example.evil")],
        &[("origin", "null")],
    ] {
        assert_error(close(headers).await.unwrap(), 403, "forbidden").await;
    }
    let host = app.addr.to_string();
    let origin: &'static str = Box::leak(format!("http://{host}").into_boxed_str());
    let resp = close(&[("sec-fetch-site", "same-origin")]).await.unwrap();
    assert!(resp.status().is_success(), "{}", resp.status());
    let resp = app
        .client
        .post(app.url("/api/admin/events/csrf/close"))
        .header("cookie", &cookie)
        .header("origin", origin)
        .json(&json!({"closed": false}))
        .send()
        .await
        .unwrap();
    assert!(resp.status().is_success(), "{}", resp.status());
}

/// 6. An address without an account answers like an account: same refusals, same lock.
#[tokio::test]
async fn sign_in_does_not_tell_which_addresses_are_accounts() {
    use raceshot_store::operators::Role;
    let app = TestApp::builder(raceshot_store::Backend::Sqlite)
        .with_env("RACESHOT__ADMIN__LOGIN_PER_CLIENT_PER_MINUTE", "100")
        .spawn()
        .await;
    app.account("real@example.com", Role::Admin, &[]).await;
    let mut answers = Vec::new();
    for email in ["real@example.com", "ghost@example.com"] {
        let mut codes = Vec::new();
        for _ in 0..7 {
            let resp = app.login(email, "wrong password!").await;
            let status = resp.status().as_u16();
            let retry = resp.headers().contains_key("retry-after");
            codes.push((status, json(resp).await["code"].clone(), retry));
        }
        answers.push(codes);
    }
    assert_eq!(
        answers[0], answers[1],
        "the same answers for both addresses"
    );
    assert_eq!(answers[1][0].0, 401);
    assert_eq!(answers[1][6].1, "account_locked", "{:?}", answers[1]);
    let audit = app.store.audit_entries(None, 100).await.unwrap();
    // Named by a keyed hash of the address, never by what was typed.
    let ghost = raceshot_server::services::operators::unknown_actor(
        &app.state.signing_key,
        "ghost@example.com",
    );
    let failures = audit
        .iter()
        .filter(|e| e.action == "operator.login_failed" && e.actor == ghost)
        .count();
    assert!(
        failures >= 5,
        "failures on unknown addresses are audited: {failures}"
    );
}

/// 8. Hiding a photo withdraws its pictures at once; misses are never cached.
#[tokio::test]
async fn hidden_photos_and_misses_are_not_served_from_caches() {
    let app = TestApp::with_one_event("hide").await;
    let ids = app.ready_photos("hide", 1).await;
    let photo = app.store.photo_owner(ids[0]).await.unwrap().unwrap();
    let name = raceshot_server::services::photos::derived_name(photo.storage_name.as_str());
    let key = raceshot_domain::EventKey::parse("hide").unwrap();
    let stored = raceshot_store::StoredName::parse(&name).unwrap();
    let thumbnail =
        raceshot_store::ObjectKey::new(&key, raceshot_store::ObjectKind::Thumbnail, &stored);
    app.state
        .objects
        .put(&thumbnail, photo_bytes("gdp.jpg").into())
        .await
        .unwrap();
    let thumb = format!("/media/hide/thumbnail/{name}");
    let shown = app.client.get(app.url(&thumb)).send().await.unwrap();
    assert_eq!(shown.status(), 200);
    let cache = shown.headers()["cache-control"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        !cache.contains("immutable") && cache.contains("no-cache"),
        "{cache}"
    );
    let etag = shown.headers()["etag"].to_str().unwrap().to_owned();
    let again = app
        .client
        .get(app.url(&thumb))
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);

    app.store
        .set_photo_flags(ids[0], Some(true), None, crate::helpers::now())
        .await
        .unwrap();
    for resp in [
        app.client.get(app.url(&thumb)).send().await.unwrap(),
        app.client
            .get(app.url(&thumb))
            .header("if-none-match", &etag)
            .send()
            .await
            .unwrap(),
    ] {
        assert_eq!(resp.status(), 404);
        assert_eq!(resp.headers()["cache-control"], "no-store");
    }
    let missing = app
        .client
        .get(app.url("/assets/missing-abc.js"))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), 404);
    assert_eq!(missing.headers()["cache-control"], "no-store");
}

/// 9. Small leaks: query rejections in the API's own body, personal data not cached,
/// photographers told 403 alike for what exists and what does not.
#[tokio::test]
async fn small_leaks_are_closed() {
    use raceshot_store::operators::Role;
    let app = TestApp::builder(raceshot_store::Backend::Sqlite)
        .with_event(event("mine"))
        .with_event(event("theirs"))
        .spawn()
        .await;
    let (ids, uuid) = app.promptpay_order("theirs", 1).await;

    let bad_query = app
        .client
        .get(app.url(&format!(
            "/api/orders/{uuid}/photos/{}/original?expires=soon&signature=x",
            ids[0]
        )))
        .send()
        .await
        .unwrap();
    let body = assert_error(bad_query, 422, "invalid_field").await;
    assert_eq!(body["field"], "expires", "{body}");
    let bad_path = app
        .client
        .get(app.url(&format!("/api/orders/{uuid}/photos/abc/original")))
        .send()
        .await
        .unwrap();
    assert_error(bad_path, 404, "not_found").await;

    let page = app
        .post("/v3/order/inquiry", &json!({"order_uuid": uuid}))
        .await;
    assert_eq!(page.headers()["cache-control"], "no-store");

    app.account("cam@example.com", Role::Photographer, &["mine"])
        .await;
    let cam = app.sign_in("cam@example.com").await;
    use reqwest::Method;
    for (method, path) in [
        (Method::GET, "/api/admin/events/theirs/photos".to_owned()),
        (
            Method::GET,
            "/api/admin/events/no-such-event/photos".to_owned(),
        ),
        (Method::POST, format!("/api/admin/photos/{}", ids[0])),
        (Method::POST, "/api/admin/photos/999999".to_owned()),
        (Method::DELETE, "/api/admin/photos/999999".to_owned()),
    ] {
        let body = (method == Method::POST).then(|| json!({"hidden": true}));
        let resp = app.call(method.clone(), &path, Some(&cam), body).await;
        assert_error(resp, 403, "forbidden").await;
    }
}

/// 9. OPN takes payments only with a webhook secret; order keys never reach the logs.
#[test]
fn opn_needs_its_webhook_secret_and_logs_hide_order_keys() {
    let problems = raceshot_server::config::Config::from_sources(
        None,
        [
            ("RACESHOT__PAYMENTS__GATEWAY", "OPN"),
            ("RACESHOT__PAYMENTS__OPN__PUBLIC_KEY", "pkey_test_1"),
            ("RACESHOT__PAYMENTS__OPN__SECRET_KEY", "skey_test_1"),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned())),
    )
    .err()
    .map(|e| e.problems.join("\n"))
    .unwrap_or_default();
    assert!(
        problems.contains("payments.opn.webhook_secret"),
        "{problems}"
    );

    let uuid = "5f0c1a2e-8d4b-4c1e-9a6f-0123456789ab";
    let uri: axum::http::Uri = format!("/sandbox/pay/{uuid}").parse().unwrap();
    assert!(!raceshot_server::infra::telemetry::loggable_path(&uri).contains(uuid));
}
