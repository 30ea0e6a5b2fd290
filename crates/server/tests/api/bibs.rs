//! Bib numbers end to end, on both backends: the shipped `players.jpg` goes through the
//! real ingestion (faces and bib reading), a bib finds the photos it was read on and, by
//! the runner's face, the photos where it cannot be seen; operators' corrections win and
//! outlive reading again; the manual page lists an event's photos in the order taken.

use raceshot_store::Backend;
use raceshot_store::operators::Role;
use raceshot_vision::RgbImage;
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TOKEN, TestApp, assert_error, event, json, photo};

crate::both_backends!(
    a_bib_finds_its_runner_by_number_and_by_face,
    the_manual_page_lists_photos_in_the_order_taken,
);

async fn bib_search(app: &TestApp, bib: &str) -> reqwest::Response {
    app.post("/v1/bibsearch", &json!({ "event_key": "race", "bib": bib }))
        .await
}

/// File name and `matched_by` of each photo a bib search found, in order.
async fn found(app: &TestApp, bib: &str) -> Vec<(String, String)> {
    let resp = bib_search(app, bib).await;
    assert_eq!(resp.status(), 200, "{bib}");
    let body = json(resp).await;
    assert_eq!(body["status"], "success");
    let images = body["images"].as_array().unwrap();
    assert_eq!(body["image_length"], images.len());
    images
        .iter()
        .map(|i| {
            (
                i["original_file_name"].as_str().unwrap().to_owned(),
                i["matched_by"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect()
}

async fn photo_id(app: &TestApp, name: &str) -> i64 {
    let body = json(
        app.post(
            "/v1/manual",
            &json!({ "event_key": "race", "page_size": 100 }),
        )
        .await,
    )
    .await;
    body["body"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["original_file_name"] == name)
        .and_then(|p| p["id"].as_i64())
        .unwrap_or_else(|| panic!("{name} not listed: {body}"))
}

/// The bibs the console lists on photo `id`: (bib, source) in its order.
async fn console_bibs(app: &TestApp, admin: &str, id: i64) -> Vec<(String, String)> {
    let listed = json(
        app.call(
            Method::GET,
            "/api/admin/events/race/photos",
            Some(admin),
            None,
        )
        .await,
    )
    .await;
    listed["photos"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == id)
        .unwrap_or_else(|| panic!("photo {id} not listed: {listed}"))["bibs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["bib"].as_str().unwrap().to_owned(),
                b["source"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

async fn a_bib_finds_its_runner_by_number_and_by_face(backend: Backend) {
    let app = TestApp::builder(backend)
        .with_event(event("race"))
        .with_models()
        .spawn()
        .await;
    // Player 13's jersey reads "13" in players.jpg; yaoming.jpg is his portrait, no
    // number in sight; gdp.jpg is someone else.
    app.ingest_shipped_photos().await;

    let expected = pairs(&[("players.jpg", "bib"), ("yaoming.jpg", "face")]);
    assert_eq!(found(&app, "13").await, expected);
    // Typed however, one bib; the price is the server's for what was found.
    assert_eq!(found(&app, " 0013 ").await, expected);
    let body = json(bib_search(&app, "13").await).await;
    assert_eq!(body["avg_price"], json!(60.0));
    // Several numbers were read on players.jpg, each a bib of its own.
    assert_eq!(
        found(&app, "15").await[0],
        ("players.jpg".into(), "bib".into())
    );
    // A bib nobody wore: an empty answer.
    assert!(found(&app, "999").await.is_empty());

    // Malformed bibs are refused with a code naming the field; unknown events and missing
    // tokens as every shop call.
    for bad in ["", "12a", "1234567", "A13", "๑๓", &"9".repeat(40)] {
        let err = assert_error(bib_search(&app, bad).await, 422, "invalid_bib").await;
        assert_eq!(err["field"], "bib", "{bad}");
    }
    let resp = app
        .post(
            "/v1/bibsearch",
            &json!({ "event_key": "nope", "bib": "13" }),
        )
        .await;
    assert_error(resp, 404, "event_not_found").await;
    let resp = app
        .client
        .post(app.url("/v1/bibsearch"))
        .json(&json!({ "event_key": "race", "bib": "13" }))
        .send()
        .await
        .unwrap();
    assert_error(resp, 401, "invalid_client_token").await;
    let resp = app
        .client
        .post(app.url("/v1/bibsearch"))
        .bearer_auth(TOKEN)
        .json(&json!({ "event_key": "race", "bib": "1".repeat(5000) }))
        .send()
        .await
        .unwrap();
    assert_error(resp, 413, "payload_too_large").await;

    // The console shows what was read; an operator takes 13 off players.jpg and puts 77
    // on yaoming.jpg.
    app.account("ops@example.com", Role::Admin, &[]).await;
    let admin = app.sign_in("ops@example.com").await;
    let players = photo_id(&app, "players.jpg").await;
    let yao = photo_id(&app, "yaoming.jpg").await;
    let read = console_bibs(&app, &admin, players).await;
    assert!(read.contains(&("13".into(), "read".into())), "{read:?}");
    assert!(console_bibs(&app, &admin, yao).await.is_empty());

    let correct = |id: i64, bib: &str, present: bool| {
        let admin = admin.clone();
        let app = &app;
        let bib = bib.to_owned();
        async move {
            app.call(
                Method::POST,
                &format!("/api/admin/photos/{id}/bibs"),
                Some(&admin),
                Some(json!({ "bib": bib, "present": present })),
            )
            .await
        }
    };
    assert_eq!(correct(players, "13", false).await.status(), 204);
    assert_eq!(correct(yao, "077", true).await.status(), 204);
    let err = assert_error(correct(yao, "7x", true).await, 422, "invalid_bib").await;
    assert_eq!(err["field"], "bib");
    // 13 is nowhere now: no photo, so no face to expand with.
    assert!(found(&app, "13").await.is_empty());
    // 77 was put on a photo with one face: that face is the runner's, found on players.jpg.
    assert_eq!(
        found(&app, "77").await,
        pairs(&[("yaoming.jpg", "bib"), ("players.jpg", "face")])
    );
    let actions = app.audit_actions(&admin).await;
    let bib_actions = actions.iter().filter(|a| *a == "photo.bib").count();
    assert_eq!(bib_actions, 2, "{actions:?}");

    // Reading the event again finds 13 on players.jpg again; the corrections still win.
    let report = raceshot_server::commands::bibs::reread(&app.state, "race", true)
        .await
        .unwrap();
    assert_eq!(report.queued, 3);
    assert!(report.bibs >= 3, "{report:?}");
    assert!(found(&app, "13").await.is_empty());
    assert_eq!(found(&app, "77").await.len(), 2);
    let read = console_bibs(&app, &admin, players).await;
    assert!(read.contains(&("13".into(), "removed".into())), "{read:?}");
    assert_eq!(
        console_bibs(&app, &admin, yao).await,
        vec![("77".into(), "added".into())]
    );

    // A hidden photo is found by neither way.
    let hide = app
        .call(
            Method::POST,
            &format!("/api/admin/photos/{players}"),
            Some(&admin),
            Some(json!({ "hidden": true })),
        )
        .await;
    assert_eq!(hide.status(), 204);
    assert_eq!(found(&app, "77").await, pairs(&[("yaoming.jpg", "bib")]));
}

/// A JPEG whose EXIF says it was taken at `local` (camera clock, no offset).
fn dated_jpeg(shade: u8, local: &str) -> Vec<u8> {
    let image = RgbImage::filled(96, 64, [shade, 90, 160]);
    let jpeg = raceshot_server::infra::imaging::encode_jpeg(&image, 85).unwrap();
    // IFD0 with one entry pointing to the EXIF sub-directory, which holds
    // DateTimeOriginal (ASCII, 20 bytes, stored after the directories).
    let mut tiff = b"II*\0\x08\0\0\0".to_vec();
    let entry = |tag: u16, kind: u16, count: u32, value: u32| {
        [
            &tag.to_le_bytes()[..],
            &kind.to_le_bytes(),
            &count.to_le_bytes(),
            &value.to_le_bytes(),
        ]
        .concat()
    };
    let sub = 8 + 2 + 12 + 4;
    let data = sub + 2 + 12 + 4;
    tiff.extend_from_slice(&1u16.to_le_bytes());
    tiff.extend(entry(0x8769, 4, 1, sub as u32));
    tiff.extend_from_slice(&0u32.to_le_bytes());
    tiff.extend_from_slice(&1u16.to_le_bytes());
    tiff.extend(entry(0x9003, 2, local.len() as u32 + 1, data as u32));
    tiff.extend_from_slice(&0u32.to_le_bytes());
    tiff.extend_from_slice(local.as_bytes());
    tiff.push(0);
    let payload = [&b"Exif\0\0"[..], &tiff].concat();
    let len = u16::try_from(payload.len() + 2).unwrap().to_be_bytes();
    [&jpeg[..2], &[0xFF, 0xE1], &len, &payload, &jpeg[2..]].concat()
}

async fn the_manual_page_lists_photos_in_the_order_taken(backend: Backend) {
    let app = TestApp::builder(backend)
        .with_event(event("race"))
        .spawn()
        .await;
    let report = app
        .ingest_files(&[
            ("c.jpg", dated_jpeg(10, "2026:11:30 07:45:00")),
            ("a.jpg", dated_jpeg(20, "2026:11:30 06:05:10")),
            ("undated.jpg", photo("gdp.jpg")),
            ("b.jpg", dated_jpeg(30, "2026:11:30 06:30:00")),
        ])
        .await;
    assert_eq!(report.ready, 4, "{:?}", report.failed);

    let manual = |body: Value| {
        let app = &app;
        async move { app.post("/v1/manual", &body).await }
    };
    let names = |body: &Value| -> Vec<String> {
        body["body"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["original_file_name"].as_str().unwrap().to_owned())
            .collect()
    };
    let all = json(manual(json!({ "event_key": "race" })).await).await;
    assert_eq!(names(&all), ["a.jpg", "b.jpg", "c.jpg", "undated.jpg"]);
    assert_eq!(all["total"], 4);
    assert_eq!(all["body"][0]["taken_at"], "2026-11-30 06:05:10");
    assert!(all["body"][3].get("taken_at").is_none());
    assert_eq!(all["body"][0]["bibs"], json!([]));
    assert_eq!(
        all["photographers"],
        json!([{ "photographer_id": 0, "photos": 4 }])
    );
    assert!(
        all["body"][0]["preview_url"]
            .as_str()
            .unwrap()
            .contains("/preview/")
    );

    let page = json(manual(json!({ "event_key": "race", "page": 2, "page_size": 3 })).await).await;
    assert_eq!(
        (names(&page), page["total"].clone()),
        (vec!["undated.jpg".to_owned()], json!(4))
    );
    let window = json(
        manual(
            json!({ "event_key": "race", "from": "2026-11-30T06:10", "to": "2026-11-30T07:45" }),
        )
        .await,
    )
    .await;
    assert_eq!(names(&window), ["b.jpg"]);
    let nobody = json(manual(json!({ "event_key": "race", "photographer_id": 9 })).await).await;
    assert_eq!(nobody["total"], 0);

    for (body, field) in [
        (json!({ "event_key": "race", "from": "yesterday" }), "from"),
        (
            json!({ "event_key": "race", "to": "2026-13-01T00:00" }),
            "to",
        ),
        (
            json!({ "event_key": "race", "page_size": 101 }),
            "page_size",
        ),
    ] {
        let err = assert_error(manual(body).await, 422, "invalid_field").await;
        assert_eq!(err["field"], field);
    }
    assert_error(
        manual(json!({ "event_key": "nope" })).await,
        404,
        "event_not_found",
    )
    .await;
}
