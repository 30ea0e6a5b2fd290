//! The console's API: every `/api/admin/` route refuses a visitor without a session (401)
//! and a photographer where only admins may act (403), walked from the API contract
//! itself; sign-in with its cookie, lockout and expiry; events written and closed; AM
//! orders approved; the audit log of it all; and `raceshot admin create-user`.

use std::io::Write;
use std::process::{Command, Stdio};

use chrono::Duration;
use raceshot_store::Backend;
use raceshot_store::operators::Role;
use raceshot_store::testing::TestDatabase;
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{PASSWORD, TestApp, assert_error, event, json, now};

/// Every console route of the contract, with its path parameters filled in.
fn console_routes(order_uuid: &str, photo_id: i64) -> Vec<(Method, String)> {
    let doc = serde_json::to_value(raceshot_server::api::openapi()).unwrap();
    let mut routes = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        if !path.starts_with("/api/admin/") {
            continue;
        }
        for method in item.as_object().unwrap().keys() {
            let filled = path
                .replace("{event_key}", "demo-run")
                .replace("{order_uuid}", order_uuid)
                .replace("{photo_id}", &photo_id.to_string())
                .replace("{id}", "1");
            routes.push((
                Method::from_bytes(method.to_uppercase().as_bytes()).unwrap(),
                filled,
            ));
        }
    }
    assert!(routes.len() >= 8, "{routes:?}");
    routes
}

#[tokio::test]
async fn every_console_route_needs_a_session_and_admins_only_routes_refuse_photographers() {
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(event("demo-run"))
        .with_event(event("other-run"))
        .spawn()
        .await;
    app.account("photo@example.com", Role::Photographer, &["other-run"])
        .await;
    let (ids, uuid) = app.promptpay_order("demo-run", 1).await;
    let photographer = app.sign_in("photo@example.com").await;

    // Sign-in, and what a photographer may do on their own events, are the only exceptions.
    let open_to_photographers = [
        "/api/admin/me",
        "/api/admin/logout",
        "/api/admin/events",
        "/api/admin/race-day",
        "/api/admin/upload-tokens",
        "/api/admin/upload-tokens/1",
    ];
    for (method, path) in console_routes(&uuid, ids[0]) {
        if path == "/api/admin/login" {
            continue;
        }
        let body = (method != Method::GET).then(|| json!({}));
        let anonymous = app.call(method.clone(), &path, None, body.clone()).await;
        assert_error(anonymous, 401, "not_signed_in").await;
        let forged = app
            .call(
                method.clone(),
                &path,
                Some(&format!("raceshot_admin={}", "ab".repeat(32))),
                body.clone(),
            )
            .await;
        assert_error(forged, 401, "not_signed_in").await;
        if !open_to_photographers.contains(&path.as_str()) {
            let refused = app
                .call(method.clone(), &path, Some(&photographer), body)
                .await;
            assert_error(refused, 403, "forbidden").await;
        }
    }

    // A photographer's list holds only the events assigned to them.
    let list = json(
        app.call(Method::GET, "/api/admin/events", Some(&photographer), None)
            .await,
    )
    .await;
    let keys: Vec<&str> = list["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["event_key"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["other-run"]);
}

#[tokio::test]
async fn sign_in_sets_a_strict_cookie_locks_after_failures_and_sessions_end_and_go() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let app = TestApp::builder(backend).spawn().await;
        app.account("Admin@Example.com", Role::Admin, &[]).await;

        let resp = app.login(" admin@example.COM ", PASSWORD).await;
        assert_eq!(resp.status(), 200);
        let set_cookie = resp.headers()["set-cookie"].to_str().unwrap().to_owned();
        for part in [
            "raceshot_admin=",
            "HttpOnly",
            "SameSite=Strict",
            "Path=/",
            "Max-Age=43200",
        ] {
            assert!(set_cookie.contains(part), "{set_cookie}");
        }
        assert!(
            !set_cookie.contains("Secure"),
            "plain http gets no Secure flag: {set_cookie}"
        );
        let me = json(resp).await;
        assert_eq!(me["email"], "admin@example.com");
        assert_eq!(me["role"], "admin");

        let cookie = set_cookie.split(';').next().unwrap().to_owned();
        let me = app
            .call(Method::GET, "/api/admin/me", Some(&cookie), None)
            .await;
        assert_eq!(me.status(), 200);
        let out = app
            .call(Method::POST, "/api/admin/logout", Some(&cookie), None)
            .await;
        assert_eq!(out.status(), 204);
        assert!(
            out.headers()["set-cookie"]
                .to_str()
                .unwrap()
                .contains("Max-Age=0")
        );
        assert_error(
            app.call(Method::GET, "/api/admin/me", Some(&cookie), None)
                .await,
            401,
            "not_signed_in",
        )
        .await;

        // Unknown accounts and wrong passwords read the same.
        assert_error(
            app.login("nobody@example.com", PASSWORD).await,
            401,
            "invalid_credentials",
        )
        .await;
        for _ in 0..4 {
            assert_error(
                app.login("admin@example.com", "wrong password!").await,
                401,
                "invalid_credentials",
            )
            .await;
        }
        // The fifth failure locks the account; then even the right password waits.
        let locked = app.login("admin@example.com", "wrong password!").await;
        assert_eq!(locked.headers()["retry-after"], "60");
        assert_error(locked, 429, "account_locked").await;
        let still = app.login("admin@example.com", PASSWORD).await;
        assert_error(still, 429, "account_locked").await;

        // A session past its end opens nothing.
        let operator = app
            .store
            .operator_by_email("admin@example.com")
            .await
            .unwrap()
            .unwrap();
        let token = "cd".repeat(32);
        let hash = {
            use sha2::Digest;
            hex::encode(sha2::Sha256::digest(token.as_bytes()))
        };
        app.store
            .create_session(
                &hash,
                operator.id,
                now() - Duration::seconds(1),
                now() - Duration::hours(13),
            )
            .await
            .unwrap();
        let expired = app
            .call(
                Method::GET,
                "/api/admin/me",
                Some(&format!("raceshot_admin={token}")),
                None,
            )
            .await;
        assert_error(expired, 401, "not_signed_in").await;
        // The retention run deletes it, and no other.
        app.run_retention().await.unwrap();
        assert_eq!(app.store.purge_sessions(now()).await.unwrap(), 0);
    }
}

#[tokio::test]
async fn admins_write_and_close_events_approve_orders_and_read_the_audit_log() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let mut wholesale = event("team-run");
        wholesale.is_hybrid = raceshot_domain::Flag::YES;
        wholesale.package_hb = wholesale.package.clone();
        let app = TestApp::builder(backend)
            .with_event(wholesale)
            .spawn()
            .await;
        app.account("admin@example.com", Role::Admin, &[]).await;
        let admin = app.sign_in("admin@example.com").await;

        // Every bad field is named at once.
        let bad = json!({"event_key": "new-run", "title": "", "eventdate": "2026-13-01",
            "on_sale_start": "2026-12-01", "on_sale_end": "2026-11-01", "package": []});
        let refused = app
            .call(
                Method::PUT,
                "/api/admin/events/new-run",
                Some(&admin),
                Some(bad),
            )
            .await;
        let body = assert_error(refused, 422, "invalid_field").await;
        let fields: Vec<&str> = body["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["field"].as_str().unwrap())
            .collect();
        for field in ["title", "eventdate", "package"] {
            assert!(fields.contains(&field), "{fields:?}");
        }

        let good = json!({"event_key": "new-run", "title": "New Run", "eventdate": "2026-11-30",
            "on_sale_start": "2026-12-01", "on_sale_end": "2026-12-31",
            "package": [{"name": "1 รูป", "name_en": "1 photo", "number_of_photo": 1, "price": 60}]});
        let created = json(
            app.call(
                Method::PUT,
                "/api/admin/events/new-run",
                Some(&admin),
                Some(good.clone()),
            )
            .await,
        )
        .await;
        assert_eq!(created["result"], "created");
        let updated = json(
            app.call(
                Method::PUT,
                "/api/admin/events/new-run",
                Some(&admin),
                Some(good),
            )
            .await,
        )
        .await;
        assert_eq!(updated["result"], "updated");
        assert_eq!(
            json(app.get("/v1/events/new-run").await).await["close_sale"],
            "N"
        );
        let closed = app
            .call(
                Method::POST,
                "/api/admin/events/new-run/close",
                Some(&admin),
                Some(json!({"closed": true})),
            )
            .await;
        assert_eq!(closed.status(), 204);
        assert_eq!(
            json(app.get("/v1/events/new-run").await).await["close_sale"],
            "Y"
        );

        // An AM order (extra photos after an all-photos purchase) waits for an operator,
        // then is paid once.
        let bought = app.ready_photos("team-run", 3).await;
        let (_, deal_paid) = app.paid_deal_order("team-run", &bought).await;
        let ids = app.ready_photos("team-run", 2).await;
        let mut body = app.order_body("team-run", &ids, "AM").await;
        body["wholesale"] = json!(true);
        let q = app.post("/api/cart/quote", &json!({"event_key": "team-run", "image_ids": ids, "is_mhao": "N", "wholesale": true})).await;
        let q = json(q).await;
        body["amount"] = q["amount"].clone();
        body["paid_amount"] = q["paid_amount"].clone();
        let uuid = app.create_order("/v1/order/create", &body).await;
        assert_eq!(app.inquiry(&uuid).await["payment_status"], "INITIAL");
        let path = format!("/api/admin/orders/{uuid}/approve");
        let first = json(app.call(Method::POST, &path, Some(&admin), None).await).await;
        assert_eq!(first["outcome"], "paid");
        let again = json(app.call(Method::POST, &path, Some(&admin), None).await).await;
        assert_eq!(again["outcome"], "already_paid");
        assert_eq!(app.inquiry(&uuid).await["payment_status"], "PAID");
        let detail = json(
            app.call(
                Method::GET,
                &format!("/api/admin/orders/{uuid}"),
                Some(&admin),
                None,
            )
            .await,
        )
        .await;
        assert_eq!(detail["payment_channel"], "AM");
        assert!(
            detail["trail"]
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t["kind"] == "operator_approve"),
            "{detail}"
        );
        let events = json(
            app.call(Method::GET, "/api/admin/events", Some(&admin), None)
                .await,
        )
        .await;
        let team = events["events"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["event_key"] == "team-run")
            .unwrap()
            .clone();
        assert_eq!(team["orders_paid"], 2, "{team}");
        let revenue = deal_paid.as_f64().unwrap() + body["paid_amount"].as_f64().unwrap();
        let satang = |baht: f64| (baht * 100.0).round();
        assert_eq!(
            team["revenue"].as_f64().map(satang),
            Some(satang(revenue)),
            "{team}"
        );
        // Confirming against a slip is for PROMPTPAY orders only.
        let slip = app
            .call(
                Method::POST,
                &format!("/api/admin/orders/{uuid}/confirm"),
                Some(&admin),
                Some(json!({"slip_ref": "012345ABCD"})),
            )
            .await;
        assert_error(slip, 409, "order_not_payable").await;

        let audit = json(
            app.call(Method::GET, "/api/admin/audit", Some(&admin), None)
                .await,
        )
        .await;
        // The log names the account by its id; the console is given its e-mail.
        let admin_id = app
            .store
            .operator_by_email("admin@example.com")
            .await
            .unwrap()
            .unwrap()
            .id;
        let actor = format!("operator:{admin_id}");
        let actions: Vec<(&str, &str, &str)> = audit["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["actor"].as_str().unwrap(),
                    e["actor_email"].as_str().unwrap_or(""),
                    e["action"].as_str().unwrap(),
                )
            })
            .collect();
        for action in [
            "operator.login",
            "event.write",
            "event.close_sale",
            "order.approve",
        ] {
            assert!(
                actions.contains(&(actor.as_str(), "admin@example.com", action)),
                "{actions:?}"
            );
        }
    }
}

#[tokio::test]
async fn the_first_admin_is_made_on_the_command_line_with_the_password_on_stdin() {
    let db = TestDatabase::new(Backend::Sqlite).await;
    let dir = tempfile::tempdir().unwrap();
    let run = |password: &str, email: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_raceshot"))
            .args(["admin", "create-user", "--email", email, "--role", "admin"])
            .env("RACESHOT__DATA_DIR", dir.path())
            .env("RACESHOT__DATABASE__URL", &db.settings.url)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(format!("{password}\n").as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let out = run(PASSWORD, "Owner@Example.com");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("created admin account owner@example.com")
    );
    let again = run(PASSWORD, "owner@example.com");
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("has an account already"));
    let short = run("short", "other@example.com");
    assert!(String::from_utf8_lossy(&short.stderr).contains("at least 10 characters"));

    let store = raceshot_store::Store::connect(&db.settings).await.unwrap();
    let operator = store
        .operator_by_email("owner@example.com")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(operator.role, Role::Admin);
    assert!(operator.password_hash.starts_with("$argon2id$"));
    assert!(!operator.password_hash.contains(PASSWORD));
}

/// A real JPEG of `w`×`h` pixels in one shade.
fn jpeg(w: u32, h: u32, shade: u8) -> Vec<u8> {
    let image = raceshot_vision::RgbImage::filled(w, h, [shade, 90, 160]);
    raceshot_server::infra::imaging::encode_jpeg(&image, 90).unwrap()
}

#[tokio::test]
async fn photographers_upload_to_their_events_and_moderate_what_they_uploaded() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let app = TestApp::builder(backend)
            .with_event(event("trail-run"))
            .spawn()
            .await;
        app.account("cam@example.com", Role::Photographer, &["trail-run"])
            .await;
        let cam = app.sign_in("cam@example.com").await;

        let first = json(
            app.upload_photo(
                &cam,
                "trail-run",
                "C:\\cards\\IMG_0001.JPG",
                jpeg(640, 480, 10),
            )
            .await,
        )
        .await;
        assert_eq!(first["result"], "queued", "{first}");
        let again = json(
            app.upload_photo(&cam, "trail-run", "IMG_0001-copy.JPG", jpeg(640, 480, 10))
                .await,
        )
        .await;
        assert_eq!(again["result"], "exists");
        assert_eq!(again["photo_id"], first["photo_id"]);
        let text = app
            .upload_photo(&cam, "trail-run", "notes.txt", b"not a photo".to_vec())
            .await;
        assert_error(text, 415, "unsupported_image_type").await;
        let second = json(
            app.upload_photo(&cam, "trail-run", "IMG_0002.JPG", jpeg(800, 600, 200))
                .await,
        )
        .await;

        // The in-process jobs make both ready; the list follows their progress.
        let mut listed = Value::Null;
        for _ in 0..200 {
            listed = json(
                app.call(
                    Method::GET,
                    "/api/admin/events/trail-run/photos",
                    Some(&cam),
                    None,
                )
                .await,
            )
            .await;
            if listed["counts"]["ready"] == 2 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(
            listed["counts"],
            json!({"queued": 0, "processing": 0, "ready": 2, "failed": 0}),
            "{listed}"
        );
        assert_eq!(listed["total"], 2);
        assert_eq!(listed["photos"][0]["original_file_name"], "IMG_0001.JPG");
        let thumb = listed["photos"][0]["thumbnail_url"]
            .as_str()
            .unwrap()
            .to_owned();
        assert_eq!(app.client.get(&thumb).send().await.unwrap().status(), 200);
        let ready = json(
            app.call(
                Method::GET,
                "/api/admin/events/trail-run/photos?state=ready&page=1",
                Some(&cam),
                None,
            )
            .await,
        )
        .await;
        assert_eq!(ready["photos"].as_array().unwrap().len(), 2);

        // Every selfie the shop reads counts on the dashboard, a face found or not.
        let form = reqwest::multipart::Form::new()
            .text("event_key", "trail-run")
            .part(
                "file",
                reqwest::multipart::Part::bytes(jpeg(320, 240, 50))
                    .file_name("me.jpg")
                    .mime_str("image/jpeg")
                    .unwrap(),
            );
        let searched = app
            .client
            .post(app.url("/v1/facesearch"))
            .bearer_auth(crate::helpers::TOKEN)
            .multipart(form)
            .send()
            .await
            .unwrap();
        assert_eq!(json(searched).await["reason"], "no_face");
        let events = json(
            app.call(Method::GET, "/api/admin/events", Some(&cam), None)
                .await,
        )
        .await;
        assert_eq!(events["events"][0]["searches"], 1, "{events}");
        assert_eq!(events["events"][0]["photos_pending"], 0);
        assert_eq!(events["events"][0]["photos_ready"], 2);
        assert_eq!(events["events"][0]["photos_failed"], 0);
        assert_eq!(
            events["events"][0]["faces"], 0,
            "plain pictures show no faces"
        );
        assert_eq!(events["queue_depth"], 0);

        // Hidden photos leave the shop; highlights lead its gallery.
        let id = second["photo_id"].as_i64().unwrap();
        let path = format!("/api/admin/photos/{id}");
        let hide = app
            .call(
                Method::POST,
                &path,
                Some(&cam),
                Some(json!({"hidden": true})),
            )
            .await;
        assert_eq!(hide.status(), 204);
        let shown = json(
            app.post(
                "/v1/facesearch/highlight",
                &json!({"event_key": "trail-run"}),
            )
            .await,
        )
        .await;
        let shown: Vec<i64> = shown["body"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["id"].as_i64().unwrap())
            .collect();
        assert_eq!(shown, [first["photo_id"].as_i64().unwrap()]);

        // A sold photo stays; an unsold one goes, files and all.
        let sold = first["photo_id"].as_i64().unwrap();
        app.create_order(
            "/v1/order/create",
            &app.order_body("trail-run", &[sold], "PP").await,
        )
        .await;
        let refused = app
            .call(
                Method::DELETE,
                &format!("/api/admin/photos/{sold}"),
                Some(&cam),
                None,
            )
            .await;
        assert_error(refused, 409, "photo_sold").await;
        let gone = app.call(Method::DELETE, &path, Some(&cam), None).await;
        assert_eq!(gone.status(), 204);
        let after = json(
            app.call(
                Method::GET,
                "/api/admin/events/trail-run/photos",
                Some(&cam),
                None,
            )
            .await,
        )
        .await;
        assert_eq!(after["total"], 1);
    }
}

#[tokio::test]
async fn the_order_list_narrows_by_event_status_channel_mobile_and_day() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let app = TestApp::builder(backend)
            .with_event(event("city-run"))
            .with_event(event("hill-run"))
            .spawn()
            .await;
        app.account("admin@example.com", Role::Admin, &[]).await;
        let admin = app.sign_in("admin@example.com").await;
        let city = app.ready_photos("city-run", 2).await;
        let hill = app.ready_photos("hill-run", 1).await;
        let pp = app
            .create_order(
                "/v1/order/create",
                &app.order_body("city-run", &city[..1], "PP").await,
            )
            .await;
        let cc = app
            .create_order(
                "/v1/order/create",
                &app.order_body("city-run", &city[1..], "CC").await,
            )
            .await;
        let mut other = app.order_body("hill-run", &hill, "PP").await;
        other["mobile"] = json!("0899999999");
        let hill_order = app.create_order("/v1/order/create", &other).await;

        let uuids = |v: &Value| -> Vec<String> {
            v["orders"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| o["uuid"].as_str().unwrap().to_owned())
                .collect()
        };
        let all = json(
            app.call(Method::GET, "/api/admin/orders", Some(&admin), None)
                .await,
        )
        .await;
        assert_eq!(all["total"], 3);
        assert_eq!(
            uuids(&all),
            [hill_order.clone(), cc.clone(), pp.clone()],
            "newest first"
        );
        let city_only = json(
            app.call(
                Method::GET,
                "/api/admin/orders?event_key=city-run&channel=CC",
                Some(&admin),
                None,
            )
            .await,
        )
        .await;
        assert_eq!(uuids(&city_only), [cc]);
        let by_mobile = json(
            app.call(
                Method::GET,
                "/api/admin/orders?mobile=0899999999&status=INITIAL",
                Some(&admin),
                None,
            )
            .await,
        )
        .await;
        assert_eq!(uuids(&by_mobile), [hill_order]);
        let today = raceshot_domain::time::bangkok_date(now()).to_string();
        let on_day = json(
            app.call(
                Method::GET,
                &format!("/api/admin/orders?from={today}&to={today}"),
                Some(&admin),
                None,
            )
            .await,
        )
        .await;
        assert_eq!(on_day["total"], 3);
        let before = json(
            app.call(
                Method::GET,
                "/api/admin/orders?to=2020-01-01",
                Some(&admin),
                None,
            )
            .await,
        )
        .await;
        assert_eq!(before["total"], 0);
        let bad = app
            .call(
                Method::GET,
                "/api/admin/orders?status=LOST",
                Some(&admin),
                None,
            )
            .await;
        assert_error(bad, 422, "invalid_field").await;
        // E-mail again only for paid orders.
        let unpaid = app
            .call(
                Method::POST,
                &format!("/api/admin/orders/{pp}/resend-email"),
                Some(&admin),
                None,
            )
            .await;
        assert_error(unpaid, 403, "order_not_paid").await;
    }
}

#[tokio::test]
async fn settings_change_the_running_shop_and_never_show_secrets() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let app = TestApp::builder(backend)
            .with_event(event("city-run"))
            .spawn()
            .await;
        app.account("admin@example.com", Role::Admin, &[]).await;
        let admin = app.sign_in("admin@example.com").await;
        let put = |changes: Value| {
            app.call(
                Method::PUT,
                "/api/admin/settings",
                Some(&admin),
                Some(json!({ "changes": changes })),
            )
        };
        let setting = |body: &Value, key: &str| -> Value {
            body["settings"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["key"] == key)
                .cloned()
                .unwrap_or(Value::Null)
        };

        let current = json(
            app.call(Method::GET, "/api/admin/settings", Some(&admin), None)
                .await,
        )
        .await;
        assert_eq!(setting(&current, "payments.gateway")["value"], "SANDBOX");
        assert_eq!(setting(&current, "payments.gateway")["from_console"], false);
        assert_eq!(setting(&current, "payments.gbp.token")["set"], false);
        // The face models in use and their licence (the console warns on this pair).
        assert_eq!(
            current["face_models"],
            json!({
                "pair": "insightface",
                "licence": "InsightFace SCRFD-500M + w600k_mbf: non-commercial research use only",
                "commercial": false
            })
        );
        assert!(
            current["gateways"]
                .as_array()
                .unwrap()
                .contains(&json!("SANDBOX"))
        );

        // A gateway without its keys is refused, every missing key named; nothing changes.
        let refused = put(json!({"payments.gateway": "GBP"})).await;
        let body = assert_error(refused, 422, "invalid_field").await;
        assert!(
            body["errors"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["field"] == "payments.gbp.token"),
            "{body}"
        );
        assert_error(
            put(json!({"server.addr": "0.0.0.0:80"})).await,
            422,
            "invalid_field",
        )
        .await;
        let conf = json(
            app.post("/v1/utils/conf", &json!({"conf_name": "PAYMENT_GATEWAY"}))
                .await,
        )
        .await;
        assert_eq!(conf["body"]["value"], "SANDBOX");

        // PromptPay from now on: the shop is told, and new orders carry its QR payload.
        let changed =
            put(json!({"payments.gateway": "PROMPTPAY", "payments.promptpay_id": "0812345678"}))
                .await;
        assert_eq!(changed.status(), 200);
        let conf = json(
            app.post("/v1/utils/conf", &json!({"conf_name": "PAYMENT_GATEWAY"}))
                .await,
        )
        .await;
        assert_eq!(conf["body"]["value"], "PROMPTPAY");
        let ids = app.ready_photos("city-run", 1).await;
        let mut order = app.order_body("city-run", &ids, "PP").await;
        order["payment_gateway"] = json!("PROMPTPAY");
        let uuid = app.create_order("/v1/order/create", &order).await;
        let paying = app.inquiry(&uuid).await;
        assert_eq!(paying["payment_gateway"], "PROMPTPAY");
        assert!(
            paying["qrcode_url"].as_str().unwrap().starts_with("000201"),
            "{paying}"
        );

        // Secrets are stored, used and never shown again, not even in the audit log.
        let secret = "smtp-password-never-shown";
        let smtp = put(json!({"notify.smtp.host": "127.0.0.1", "notify.smtp.from": "shop@example.com",
            "notify.smtp.username": "shop", "notify.smtp.password": secret, "orders.retention_days": "7"})).await;
        assert_eq!(smtp.status(), 200);
        let text = smtp.text().await.unwrap();
        assert!(!text.contains(secret), "{text}");
        let now_set = serde_json::from_str::<Value>(&text).unwrap();
        assert_eq!(setting(&now_set, "notify.smtp.password")["set"], true);
        assert_eq!(
            setting(&now_set, "notify.smtp.password")["value"],
            Value::Null
        );
        assert_eq!(setting(&now_set, "orders.retention_days")["value"], "7");
        assert_eq!(app.state.live().retention_days, 7);
        let audit = app
            .call(Method::GET, "/api/admin/audit", Some(&admin), None)
            .await
            .text()
            .await
            .unwrap();
        assert!(
            audit.contains("settings.change") && !audit.contains(secret),
            "{audit}"
        );

        // Back to the configuration's values.
        let reset = put(json!({"payments.gateway": null, "payments.promptpay_id": null})).await;
        assert_eq!(
            setting(&json(reset).await, "payments.gateway")["value"],
            "SANDBOX"
        );

        // The shop's logo for logo copies: PNG or JPEG only.
        let png = {
            let mut out = Vec::new();
            let mut encoder = png::Encoder::new(&mut out, 40, 20);
            encoder.set_color(png::ColorType::Rgb);
            let mut writer = encoder.write_header().unwrap();
            writer
                .write_image_data(&[200u8, 30, 30].repeat(40 * 20))
                .unwrap();
            writer.finish().unwrap();
            out
        };
        let logo = app
            .client
            .put(app.url("/api/admin/settings/logo"))
            .header("cookie", &admin)
            .body(png.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(logo.status(), 204);
        let back = app
            .call(Method::GET, "/api/admin/settings/logo", Some(&admin), None)
            .await;
        assert_eq!(back.headers()["content-type"], "image/png");
        assert_eq!(back.bytes().await.unwrap().to_vec(), png);
        let text = app
            .client
            .put(app.url("/api/admin/settings/logo"))
            .header("cookie", &admin)
            .body("no")
            .send()
            .await
            .unwrap();
        assert_error(text, 415, "unsupported_image_type").await;
    }
}

/// A logo whose stored file is gone is missing (404 `not_found`), not a fault of the server.
#[tokio::test]
async fn a_logo_whose_file_is_gone_is_not_found() {
    let app = TestApp::builder(Backend::Sqlite).spawn().await;
    app.account("admin@example.com", Role::Admin, &[]).await;
    let admin = app.sign_in("admin@example.com").await;
    let mut png = Vec::new();
    let mut encoder = png::Encoder::new(&mut png, 8, 8);
    encoder.set_color(png::ColorType::Rgb);
    let mut writer = encoder.write_header().unwrap();
    writer.write_image_data(&[10u8, 20, 30].repeat(64)).unwrap();
    writer.finish().unwrap();
    let stored = app
        .client
        .put(app.url("/api/admin/settings/logo"))
        .header("cookie", &admin)
        .body(png)
        .send()
        .await
        .unwrap();
    assert_eq!(stored.status(), 204);
    fn remove_logos(dir: &std::path::Path) -> usize {
        let mut removed = 0;
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                removed += remove_logos(&path);
            } else if path.parent().is_some_and(|p| p.ends_with("_shop/logo")) {
                std::fs::remove_file(&path).unwrap();
                removed += 1;
            }
        }
        removed
    }
    assert_eq!(remove_logos(&app.data_dir), 1);
    let gone = app
        .call(Method::GET, "/api/admin/settings/logo", Some(&admin), None)
        .await;
    let body = assert_error(gone, 404, "not_found").await;
    assert_eq!(body["message"], "not found");
}

#[tokio::test]
async fn sign_in_attempts_from_one_address_are_limited_across_accounts() {
    let app = TestApp::builder(Backend::Sqlite)
        .with_env("RACESHOT__ADMIN__LOGIN_PER_CLIENT_PER_MINUTE", "3")
        .spawn()
        .await;
    for n in 0..3 {
        let resp = app
            .login(&format!("guess{n}@example.com"), "some password")
            .await;
        assert_error(resp, 401, "invalid_credentials").await;
    }
    let limited = app.login("guess3@example.com", "some password").await;
    assert!(limited.headers().contains_key("retry-after"));
    assert_error(limited, 429, "rate_limited").await;
}
