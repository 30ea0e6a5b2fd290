//! Searching for several people at once, and a runner's request to hide the photos that
//! show them, on both backends with the real models: any/all and `people`, from the
//! upload to the answer; a hide request from submission through the console's approval to
//! photos hidden everywhere (later ones too) while their buyer keeps them; every bad input
//! (a group photo among them) refused with its code and nothing left behind; one open
//! request per face, whoever sends it; the requester's face crop kept only until the
//! decision, or the event's retention for a request never decided.

use std::time::Duration;

use raceshot_store::operators::Role;
use raceshot_store::{Backend, ObjectKey, StoredName};
use raceshot_vision::{DecodeOptions, RgbImage, decode, resize_exact, resize_to_long_edge};
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TOKEN, TestApp, assert_error, event, json, photo};
use crate::smtp_sink::SmtpSink;

crate::both_backends!(
    several_people_are_searched_at_once,
    a_hide_request_goes_from_submission_to_photos_hidden_everywhere,
);

/// Two people side by side in one photo: the portrait of player 13 and the other one.
fn together() -> Vec<u8> {
    let open = |name: &str| {
        let img = decode(&photo(name), &DecodeOptions::default()).unwrap();
        resize_to_long_edge(&img, 480)
    };
    let (a, b) = (open("yaoming.jpg"), open("gdp.jpg"));
    let (w, h) = (a.width() + b.width(), a.height().max(b.height()));
    let mut data = vec![255u8; (w * h * 3) as usize];
    for (img, x0) in [(&a, 0), (&b, a.width())] {
        for y in 0..img.height() {
            let src = (y * img.width() * 3) as usize;
            let dst = ((y * w + x0) * 3) as usize;
            let n = (img.width() * 3) as usize;
            data[dst..dst + n].copy_from_slice(&img.data()[src..src + n]);
        }
    }
    let img = RgbImage::new(w, h, data).unwrap();
    raceshot_server::infra::imaging::encode_jpeg(&img, 90).unwrap()
}

/// The pixels of `img` in the rectangle at (`x`, `y`), `w` x `h` inside it.
fn cut(img: &RgbImage, x: u32, y: u32, w: u32, h: u32) -> RgbImage {
    let mut data = Vec::with_capacity((w * h * 3) as usize);
    for row in y..y + h {
        let start = ((row * img.width() + x) * 3) as usize;
        data.extend_from_slice(&img.data()[start..start + (w * 3) as usize]);
    }
    RgbImage::new(w, h, data).unwrap()
}

/// `top` laid over `base` with its top-left corner at (`x`, `y`).
fn overlay(base: &RgbImage, top: &RgbImage, x: u32, y: u32) -> RgbImage {
    let mut data = base.data().to_vec();
    for row in 0..top.height() {
        let src = (row * top.width() * 3) as usize;
        let dst = (((y + row) * base.width() + x) * 3) as usize;
        let n = (top.width() * 3) as usize;
        data[dst..dst + n].copy_from_slice(&top.data()[src..src + n]);
    }
    RgbImage::new(base.width(), base.height(), data).unwrap()
}

/// A portrait of the player on the left of gdp.jpg (a photo of three players), cut from it
/// and enlarged twice: one face, ~128 px.
fn left_player() -> RgbImage {
    let img = decode(&photo("gdp.jpg"), &DecodeOptions::default()).unwrap();
    resize_exact(&cut(&img, 0, 0, 240, 330), 480, 660)
}

fn jpeg(img: &RgbImage) -> Vec<u8> {
    raceshot_server::infra::imaging::encode_jpeg(img, 90).unwrap()
}

/// The left player's portrait with player 13 small in a corner behind him, his face under
/// a third of the size of the left player's: a passer-by in an otherwise clear selfie.
fn left_player_with_someone_behind() -> RgbImage {
    let small = {
        let img = decode(&photo("yaoming.jpg"), &DecodeOptions::default()).unwrap();
        resize_to_long_edge(&img, 110)
    };
    let base = left_player();
    let (x, y) = (
        base.width() - small.width() - 10,
        base.height() - small.height() - 10,
    );
    overlay(&base, &small, x, y)
}

/// A picture with no face at all.
fn blank() -> Vec<u8> {
    raceshot_server::infra::imaging::encode_jpeg(&RgbImage::filled(320, 240, [200, 180, 160]), 85)
        .unwrap()
}

/// Signs an upload and PUTs the selfie: the search id.
async fn upload(app: &TestApp, selfie: Vec<u8>) -> String {
    let signed = json(
        app.post(
            "/v2/facesearch/sign",
            &json!({"event_key": "race", "file_type": "image/jpeg"}),
        )
        .await,
    )
    .await;
    let put = app
        .client
        .put(signed["url"].as_str().unwrap())
        .body(selfie)
        .send()
        .await
        .unwrap();
    assert_eq!(put.status(), 200);
    signed["search_id"].as_str().unwrap().to_owned()
}

/// File name → people of each photo found, sorted by name.
fn people(body: &Value) -> Vec<(String, Vec<u64>)> {
    let mut out: Vec<(String, Vec<u64>)> = body["images"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let mut people: Vec<u64> = i["people"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_u64().unwrap())
                .collect();
            people.sort_unstable();
            (i["original_file_name"].as_str().unwrap().to_owned(), people)
        })
        .collect();
    out.sort();
    out
}

fn named(list: &[(&str, &[u64])]) -> Vec<(String, Vec<u64>)> {
    list.iter()
        .map(|(n, p)| ((*n).to_owned(), p.to_vec()))
        .collect()
}

async fn group_search(app: &TestApp, selfies: Vec<Vec<u8>>, matching: &str) -> reqwest::Response {
    let mut ids = Vec::new();
    for s in selfies {
        ids.push(upload(app, s).await);
    }
    let body = json!({
        "search_id": ids[0], "search_ids": ids[1..], "event_key": "race", "match": matching,
    });
    app.post("/v2/facesearch", &body).await
}

async fn several_people_are_searched_at_once(backend: Backend) {
    let app = TestApp::builder(backend)
        .with_event(event("race"))
        .with_models()
        .spawn()
        .await;
    let report = app
        .ingest_files(&[
            ("players.jpg", photo("players.jpg")),
            ("gdp.jpg", photo("gdp.jpg")),
            ("together.jpg", together()),
        ])
        .await;
    assert_eq!(report.ready, 3, "{:?}", report.failed);

    // Player 13 (0) and the other one (1): any photo of either, each saying who is on it.
    let selfies = || vec![photo("yaoming.jpg"), photo("gdp.jpg")];
    let any = json(group_search(&app, selfies(), "any").await).await;
    assert_eq!(
        people(&any),
        named(&[
            ("gdp.jpg", &[1]),
            ("players.jpg", &[0]),
            ("together.jpg", &[0, 1]),
        ]),
        "{any}"
    );
    // Together: only the photo showing both; the price is the server's for that count.
    let all = json(group_search(&app, selfies(), "all").await).await;
    assert_eq!(people(&all), named(&[("together.jpg", &[0, 1])]));
    assert_eq!(all["avg_price"], json!(60.0));
    // One person answers as before, with `people` [0].
    let one = json(group_search(&app, vec![photo("gdp.jpg")], "all").await).await;
    assert_eq!(
        people(&one),
        named(&[("gdp.jpg", &[0]), ("together.jpg", &[0])])
    );
    // The one-step form takes several files.
    let mut form = reqwest::multipart::Form::new()
        .text("event_key", "race")
        .text("match", "all");
    for s in selfies() {
        form = form.part(
            "file",
            reqwest::multipart::Part::bytes(s).file_name("me.jpg"),
        );
    }
    let resp = app
        .client
        .post(app.url("/v1/facesearch"))
        .bearer_auth(TOKEN)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(
        people(&json(resp).await),
        named(&[("together.jpg", &[0, 1])])
    );
    app.assert_no_selfie_left().await;

    // Four people: refused, and all four selfies deleted. (A client holds three upload
    // addresses at most; the fourth comes from another address.)
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(upload(&app, photo("gdp.jpg")).await);
    }
    let body = json!({
        "search_id": ids[0], "search_ids": [ids[1], ids[2], uuid::Uuid::new_v4().to_string()],
        "event_key": "race",
    });
    let err = assert_error(
        app.post("/v2/facesearch", &body).await,
        422,
        "too_many_selfies",
    )
    .await;
    assert_eq!(err["field"], "search_ids");
    app.assert_no_selfie_left().await;
    // A selfie without a face among several: refused, naming it; nothing left.
    let resp = group_search(&app, vec![photo("gdp.jpg"), blank()], "any").await;
    let err = assert_error(resp, 422, "no_face").await;
    assert_eq!(err["field"], "search_ids[0]");
    app.assert_no_selfie_left().await;
    // A search id that is none, and a bad `match`.
    let first = upload(&app, photo("gdp.jpg")).await;
    let body = json!({ "search_id": first, "search_ids": ["nope"], "event_key": "race" });
    let err = assert_error(
        app.post("/v2/facesearch", &body).await,
        422,
        "invalid_field",
    )
    .await;
    assert_eq!(err["field"], "search_ids[0]");
    let resp = group_search(&app, vec![photo("gdp.jpg")], "some").await;
    let err = assert_error(resp, 422, "invalid_field").await;
    assert_eq!(err["field"], "match");
    app.assert_no_selfie_left().await;
}

async fn hide_request(
    app: &TestApp,
    event_key: &str,
    contact: &str,
    selfie: Vec<u8>,
) -> reqwest::Response {
    let form = reqwest::multipart::Form::new()
        .text("event_key", event_key.to_owned())
        .text("contact", contact.to_owned())
        .part(
            "file",
            reqwest::multipart::Part::bytes(selfie).file_name("me.jpg"),
        );
    app.client
        .post(app.url("/api/privacy/requests"))
        .bearer_auth(TOKEN)
        .multipart(form)
        .send()
        .await
        .unwrap()
}

/// File names a face search with `selfie` finds on the event.
async fn found_by_face(app: &TestApp, selfie: Vec<u8>) -> Vec<String> {
    let body = json(group_search(app, vec![selfie], "any").await).await;
    let mut names: Vec<String> = people(&body).into_iter().map(|(n, _)| n).collect();
    names.sort();
    names
}

async fn listed(app: &TestApp) -> Vec<String> {
    let body = json(
        app.post("/v1/manual", &json!({ "event_key": "race" }))
            .await,
    )
    .await;
    let mut names: Vec<String> = body["body"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["original_file_name"].as_str().unwrap().to_owned())
        .collect();
    names.sort();
    names
}

async fn a_hide_request_goes_from_submission_to_photos_hidden_everywhere(backend: Backend) {
    let sink = SmtpSink::start().await;
    let app = TestApp::builder(backend)
        .with_event(event("race"))
        .with_env("RACESHOT__NOTIFY__SMTP__HOST", "127.0.0.1")
        .with_env("RACESHOT__NOTIFY__SMTP__PORT", &sink.port().to_string())
        .with_env(
            "RACESHOT__NOTIFY__SMTP__FROM",
            "Raceshot <shop@raceshot.test>",
        )
        .with_env("RACESHOT__NOTIFY__SMTP__TLS", "none")
        .with_env("RACESHOT__PRIVACY__PER_CLIENT_PER_MINUTE", "0")
        .with_models()
        .spawn()
        .await;
    app.ingest_shipped_photos().await;
    assert_eq!(
        found_by_face(&app, photo("yaoming.jpg")).await,
        ["players.jpg", "yaoming.jpg"]
    );

    // Someone bought players.jpg before the request.
    let players = json(
        app.post("/v1/manual", &json!({ "event_key": "race" }))
            .await,
    )
    .await["body"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["original_file_name"] == "players.jpg")
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    let uuid = app
        .create_order(
            "/v1/order/create",
            &app.order_body("race", &[players], "PP").await,
        )
        .await;
    assert_eq!(
        json(app.sandbox_pay(&uuid, "paid").await).await["payment_status"],
        "PAID"
    );

    // Bad requests are refused with their codes and leave nothing.
    let err = assert_error(
        hide_request(&app, "nope", "0812345678", photo("yaoming.jpg")).await,
        404,
        "event_not_found",
    )
    .await;
    assert!(err.get("field").is_none());
    let err = assert_error(
        hide_request(&app, "race", "call me", photo("yaoming.jpg")).await,
        422,
        "invalid_field",
    )
    .await;
    assert_eq!(err["field"], "contact");
    let err = assert_error(
        hide_request(&app, "race", "0812345678", blank()).await,
        422,
        "no_face",
    )
    .await;
    assert_eq!(err["field"], "file");
    assert_error(
        hide_request(&app, "race", "0812345678", b"not a picture".to_vec()).await,
        415,
        "unsupported_image_type",
    )
    .await;
    // A group photo cannot say whose request it is: the team photo and the three players
    // of gdp.jpg (faces of comparable size) are refused.
    for group in ["players.jpg", "gdp.jpg"] {
        let err = assert_error(
            hide_request(&app, "race", "0812345678", photo(group)).await,
            422,
            "selfie_many_faces",
        )
        .await;
        assert_eq!(err["field"], "file", "{group}");
    }
    assert!(
        app.store
            .privacy_requests(None, 10)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(face_crops(&app).await.is_empty());

    // Filed: the face template and a small crop of the face are kept, never the selfie.
    let resp = hide_request(&app, "race", "Hider@Example.com", photo("yaoming.jpg")).await;
    assert_eq!(resp.status(), 201);
    let id = json(resp).await["request_id"].as_str().unwrap().to_owned();
    let stored = app.store.privacy_request(&id).await.unwrap().unwrap();
    assert_eq!(stored.contact, "hider@example.com");
    assert_eq!(stored.embedding.as_ref().map(Vec::len), Some(512 * 4));
    app.assert_no_selfie_left().await;
    let crop_key = format!("_shop/privacy/{id}.jpg");
    assert_eq!(face_crops(&app).await, std::slice::from_ref(&crop_key));
    let crop = app
        .state
        .objects
        .get(&ObjectKey::shared(
            "privacy",
            &StoredName::parse(&format!("{id}.jpg")).unwrap(),
        ))
        .await
        .unwrap();
    let shown = decode(&crop, &DecodeOptions::default()).unwrap();
    assert!(shown.width().max(shown.height()) <= 256);
    assert!(shown.width() >= 100, "the face and a margin around it");
    assert!(
        !crop.windows(4).any(|w| w == b"Exif") && !crop.windows(2).any(|w| w == [0xFF, 0xE1]),
        "no metadata"
    );
    // The same face again, from the same contact or another, in another file: refused
    // while the first is open.
    let again = {
        let img = decode(&photo("yaoming.jpg"), &DecodeOptions::default()).unwrap();
        raceshot_server::infra::imaging::encode_jpeg(&img, 75).unwrap()
    };
    for contact in ["hider@example.com", "0898765432"] {
        assert_error(
            hide_request(&app, "race", contact, again.clone()).await,
            409,
            "privacy_request_exists",
        )
        .await;
    }
    assert_eq!(app.store.privacy_requests(None, 10).await.unwrap().len(), 1);
    // Another face from the same contact (a parent for a second child): filed.
    let resp = hide_request(&app, "race", "hider@example.com", jpeg(&left_player())).await;
    assert_eq!(resp.status(), 201);
    let other = json(resp).await["request_id"].as_str().unwrap().to_owned();
    assert_eq!(face_crops(&app).await.len(), 2);

    // The console lists it with the photos it would hide; an admin approves.
    app.account("ops@example.com", Role::Admin, &[]).await;
    let admin = app.sign_in("ops@example.com").await;
    let list = json(
        app.call(
            Method::GET,
            "/api/admin/privacy/requests?state=pending",
            Some(&admin),
            None,
        )
        .await,
    )
    .await;
    let request = list["requests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["request_id"] == id.as_str())
        .unwrap();
    assert_ne!(request["contact"], "hider@example.com", "masked");
    assert_eq!(request["photos"].as_array().unwrap().len(), 2, "{list}");
    // Beside them, the requester's face, to signed-in admins only, never cached.
    let face = format!("/api/admin/privacy/requests/{id}/face");
    assert_eq!(request["face_url"], face.as_str());
    let resp = app.call(Method::GET, &face, Some(&admin), None).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["content-type"], "image/jpeg");
    assert_eq!(resp.headers()["cache-control"], "no-store");
    assert_eq!(resp.bytes().await.unwrap(), crop);
    assert_error(
        app.call(Method::GET, &face, None, None).await,
        401,
        "not_signed_in",
    )
    .await;
    app.account("photo@example.com", Role::Photographer, &["race"])
        .await;
    let photographer = app.sign_in("photo@example.com").await;
    assert_error(
        app.call(Method::GET, &face, Some(&photographer), None)
            .await,
        403,
        "forbidden",
    )
    .await;
    let approve = format!("/api/admin/privacy/requests/{id}/approve");
    let resp = app.call(Method::POST, &approve, Some(&admin), None).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(json(resp).await["photos_hidden"], 2);
    // The decision deletes the face crop at once; the template stays for later photos.
    assert!(!face_crops(&app).await.contains(&crop_key));
    assert_error(
        app.call(Method::GET, &face, Some(&admin), None).await,
        404,
        "not_found",
    )
    .await;
    let approved = app.store.privacy_request(&id).await.unwrap().unwrap();
    assert!(approved.embedding.is_some());
    assert_error(
        app.call(Method::POST, &approve, Some(&admin), None).await,
        409,
        "privacy_request_decided",
    )
    .await;

    // Hidden from face search, bib search, the manual page and highlights.
    assert!(found_by_face(&app, photo("yaoming.jpg")).await.is_empty());
    let bib = json(
        app.post(
            "/v1/bibsearch",
            &json!({ "event_key": "race", "bib": "13" }),
        )
        .await,
    )
    .await;
    assert_eq!(bib["image_length"], 0, "{bib}");
    assert_eq!(listed(&app).await, ["gdp.jpg"]);
    let highlight = json(
        app.post("/v1/facesearch/highlight", &json!({ "event_key": "race" }))
            .await,
    )
    .await;
    assert_eq!(highlight["body"].as_array().unwrap().len(), 1);
    // An operator cannot show a held photo again.
    let show = app
        .call(
            Method::POST,
            &format!("/api/admin/photos/{players}"),
            Some(&admin),
            Some(json!({ "hidden": false })),
        )
        .await;
    assert_error(show, 409, "privacy_hold").await;
    // A photo of him ingested later is hidden at once.
    let later = {
        let img = decode(&photo("yaoming.jpg"), &DecodeOptions::default()).unwrap();
        raceshot_server::infra::imaging::encode_jpeg(&resize_to_long_edge(&img, 300), 88).unwrap()
    };
    let report = app.ingest_files(&[("later.jpg", later)]).await;
    assert_eq!(report.ready, 1);
    assert_eq!(listed(&app).await, ["gdp.jpg"]);
    // The buyer keeps the photo: its original and the order's ZIP still download.
    let order = app
        .inquiry_until(&uuid, |b| b["is_original_image_created"] == "Y")
        .await;
    let paid: Value = serde_json::from_str(order["images_paid"].as_str().unwrap()).unwrap();
    let original = paid[0]["image"].as_str().unwrap().to_owned();
    assert_eq!(
        app.client.get(&original).send().await.unwrap().status(),
        200,
        "{order}"
    );
    let zip = app
        .client
        .get(app.url(&format!("/api/orders/{uuid}/download.zip")))
        .send()
        .await
        .unwrap();
    assert_eq!(zip.status(), 200);

    // The requester is told by e-mail; the audit log has each step.
    let mails = sink.wait_for(2, Duration::from_secs(20)).await;
    let told = mails
        .iter()
        .find(|m| m.to == ["hider@example.com"])
        .expect("a mail to the requester");
    let told = crate::smtp_sink::parse(&told.data);
    assert!(
        told.body.contains("We have hidden the photos of") && told.body.contains("(2 photos)"),
        "{}",
        told.body
    );
    let actions = app.audit_actions(&admin).await;
    assert!(
        actions.iter().any(|a| a == "privacy.request")
            && actions.iter().any(|a| a == "privacy.approve"),
        "{actions:?}"
    );

    // A rejected request keeps no template and no face crop.
    assert_eq!(
        face_crops(&app).await,
        [format!("_shop/privacy/{other}.jpg")]
    );
    let reject = format!("/api/admin/privacy/requests/{other}/reject");
    assert_eq!(
        app.call(Method::POST, &reject, Some(&admin), None)
            .await
            .status(),
        204
    );
    let rejected = app.store.privacy_request(&other).await.unwrap().unwrap();
    assert!(rejected.embedding.is_none());
    assert!(face_crops(&app).await.is_empty());
    assert_eq!(listed(&app).await, ["gdp.jpg"]);

    // A passer-by far smaller than the requester does not refuse a selfie: the engine sees
    // both faces, the request is for the larger. (The rejected request no longer holds
    // this face.)
    let behind = left_player_with_someone_behind();
    let engine = raceshot_vision::FaceEngine::load(app.state.config.faces.clone()).unwrap();
    let seen: Vec<_> = engine
        .detect_at(&behind, engine.config().detector.selfie_long_edge)
        .unwrap()
        .into_iter()
        .filter(|d| engine.passes_quality(d))
        .collect();
    let (corner_x, corner_y) = (
        behind.width() as f32 - 130.0,
        behind.height() as f32 - 130.0,
    );
    assert!(
        seen.iter()
            .any(|d| d.bbox.x1 >= corner_x && d.bbox.y1 >= corner_y),
        "{seen:?}"
    );
    let resp = hide_request(&app, "race", "0898765432", jpeg(&behind)).await;
    assert_eq!(resp.status(), 201);
    let undecided = json(resp).await["request_id"].as_str().unwrap().to_owned();
    // Never decided: its crop goes with the event's originals (35 days after the event by
    // default; 3 days is already past on 5 December).
    let retention = || app.run_retention();
    retention().await.unwrap();
    assert_eq!(face_crops(&app).await.len(), 1);
    let set = app
        .call(
            Method::PUT,
            "/api/admin/settings",
            Some(&admin),
            Some(json!({ "changes": { "orders.retention_days": "3" } })),
        )
        .await;
    assert_eq!(set.status(), 200);
    retention().await.unwrap();
    assert!(face_crops(&app).await.is_empty());
    let kept = app
        .store
        .privacy_request(&undecided)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(kept.state, raceshot_store::privacy::PrivacyState::Pending);
}

/// The face crops in storage.
async fn face_crops(app: &TestApp) -> Vec<String> {
    app.state.objects.list("_shop/privacy").await.unwrap()
}
