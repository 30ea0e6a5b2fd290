//! Finisher certificates end to end, on both backends: an admin offers them; a runner's
//! results search names the certificate and the photo it shows (the largest clear face
//! above their bib); the picture is 1080 × 1350 with that face in its photo box, the same
//! bytes again from the cache; the runner picks another of their photos, never someone
//! else's; the A4 PDF's text holds their time; an admin saves, refuses and resets
//! templates and previews a sample; a price keeps it out of free downloads; deleting the
//! runner's result deletes their cached files, and the retention run an event's.
//! A priced certificate is a line of the cart, priced by the server, with photos or alone,
//! and given to the order that bought it once paid. Certificates are rate-limited per
//! client.

use raceshot_store::Backend;
use raceshot_store::photos::NewFace;
use raceshot_vision::RgbImage;
use raceshot_vision::image_io::{DecodeOptions, decode};
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_error, event, json};
use crate::results::put_results;

crate::both_backends!(
    certificates_are_offered_drawn_cached_and_forgotten,
    a_priced_certificate_is_bought_in_the_cart,
);

const RESULTS: &str = "Bib,Name,Distance,Chip Time,Gun Time,Rank\n\
    42,น้ำทิพย์ ปิ่นแก้ว,21K,1:02:03,1:03:10,2\n\
    7,Anan Jaidee,10K,0:50:00,,\n";

/// A 600 × 400 grey photo with a square of `colour` where a face is.
fn photo_with_face(face: [u32; 4], colour: [u8; 3]) -> Vec<u8> {
    let (w, h) = (600u32, 400u32);
    let mut data = Vec::with_capacity((w * h * 3) as usize);
    for y in 0..h {
        for x in 0..w {
            let inside = x >= face[0] && x < face[2] && y >= face[1] && y < face[3];
            data.extend_from_slice(&if inside { colour } else { [128, 128, 128] });
        }
    }
    let image = RgbImage::new(w, h, data).unwrap();
    raceshot_server::infra::imaging::encode_jpeg(&image, 95).unwrap()
}

/// A face of the configured pair at `bbox`, its embedding the same for every call (one
/// runner).
fn face(app: &TestApp, bbox: [u32; 4], score: f64) -> NewFace {
    let dim = app.state.faces.configured().embedding_dim();
    let mut values = vec![0f32; dim];
    values[0] = 1.0;
    NewFace {
        embedding: values.iter().flat_map(|v| v.to_le_bytes()).collect(),
        bbox: bbox.map(f64::from),
        landmarks: vec![0; 40],
        score,
    }
}

async fn certificate(app: &TestApp, bib: &str, format: &str, query: &str) -> reqwest::Response {
    app.client
        .get(app.url(&format!(
            "/api/events/race/certificates/{bib}/{format}{query}"
        )))
        .send()
        .await
        .unwrap()
}

async fn bytes_of(resp: reqwest::Response, content_type: &str) -> Vec<u8> {
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["content-type"], content_type);
    resp.bytes().await.unwrap().to_vec()
}

async fn result_answer(app: &TestApp, q: &str) -> Value {
    let resp = app
        .post(
            "/v1/results/search",
            &json!({ "event_key": "race", "q": q }),
        )
        .await;
    assert_eq!(resp.status(), 200);
    json(resp).await
}

/// The colour at the middle of the photo box of the shop's picture template, 40% down
/// it: where the crop puts the runner's face.
fn face_spot(jpeg: &[u8]) -> [u8; 3] {
    let img = decode(jpeg, &DecodeOptions::default()).unwrap();
    assert_eq!((img.width(), img.height()), (1080, 1350));
    img.pixel(540, 210 + 264).unwrap()
}

/// The text of a PDF's first page, as a PDF reader extracts it (each piece of text the page
/// shows is a line of its own there: the lines are joined).
fn pdf_text(pdf: &[u8]) -> String {
    let doc = lopdf::Document::load_mem(pdf).unwrap();
    doc.extract_text(&[1]).unwrap().replace('\n', "")
}

async fn cached(app: &TestApp, prefix: &str) -> Vec<String> {
    app.state
        .objects
        .list("race/certificate")
        .await
        .unwrap()
        .into_iter()
        .filter(|k| k.starts_with(prefix))
        .collect()
}

async fn certificates_are_offered_drawn_cached_and_forgotten(backend: Backend) {
    let (app, admin) = TestApp::race_with_console(backend).await;
    let resp = put_results(&app, &admin, "", RESULTS).await;
    assert_eq!(resp.status(), 200);

    // Bib 42 under a small face on one photo and a large one on another; a third photo is
    // somebody else's.
    let small = app
        .ready_photo(
            "race",
            "IMG_0001.jpg",
            photo_with_face([100, 100, 130, 130], [0, 0, 255]),
            (600, 400),
            vec![face(&app, [100, 100, 130, 130], 0.9)],
        )
        .await;
    app.put_bib("race", small, "42", [95.0, 150.0, 135.0, 190.0])
        .await;
    let large = app
        .ready_photo(
            "race",
            "IMG_0002.jpg",
            photo_with_face([400, 100, 460, 160], [255, 0, 0]),
            (600, 400),
            vec![face(&app, [400, 100, 460, 160], 0.9)],
        )
        .await;
    app.put_bib("race", large, "42", [395.0, 200.0, 465.0, 240.0])
        .await;
    let other = app.ready_photos("race", 1).await[0];

    // Not offered yet.
    assert_error(
        certificate(&app, "42", "image", "").await,
        404,
        "certificate_not_offered",
    )
    .await;
    assert!(result_answer(&app, "42").await["certificate"].is_null());

    let settings = |body: Value| {
        let admin = admin.clone();
        let app = &app;
        async move {
            app.call(
                Method::PUT,
                "/api/admin/events/race/certificates",
                Some(&admin),
                Some(body),
            )
            .await
        }
    };
    let saved = json(settings(json!({ "offered": true, "price": 0 })).await).await;
    assert_eq!(saved["offered"], true);
    assert_eq!(saved["image"]["custom"], false);
    assert!(
        saved["fields"]
            .as_array()
            .unwrap()
            .contains(&json!("chip_time"))
    );

    // The results answer names the certificate and the photo it shows: the large face.
    let answer = result_answer(&app, "42").await;
    let offer = &answer["certificate"];
    assert_eq!(offer["photo_id"], large, "{answer}");
    assert_eq!(offer["image_url"], "/api/events/race/certificates/42/image");
    assert_eq!(offer["print_url"], "/api/events/race/certificates/42/print");
    assert_eq!(offer["price"], 0.0);

    // The picture: its photo box shows the runner's face; the same bytes again, cached.
    let resp = certificate(&app, "42", "image", "").await;
    let disposition = resp.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        disposition,
        "attachment; filename=\"certificate-race-42.jpg\""
    );
    let picture = bytes_of(resp, "image/jpeg").await;
    let [r, g, b] = face_spot(&picture);
    assert!(r > 180 && g < 80 && b < 80, "{:?}", [r, g, b]);
    let again = bytes_of(certificate(&app, "42", "image", "").await, "image/jpeg").await;
    assert_eq!(picture, again);
    assert_eq!(cached(&app, "race/certificate/42-").await.len(), 1);

    // Another of their photos, on request; never someone else's.
    let picked = bytes_of(
        certificate(&app, "42", "image", &format!("?photo={small}")).await,
        "image/jpeg",
    )
    .await;
    let [r, g, b] = face_spot(&picked);
    assert!(b > 180 && r < 80 && g < 80, "{:?}", [r, g, b]);
    assert_error(
        certificate(&app, "42", "image", &format!("?photo={other}")).await,
        404,
        "image_not_found",
    )
    .await;

    // The A4 page is a PDF whose text holds the time and the bib.
    let pdf = bytes_of(
        certificate(&app, "42", "print", "").await,
        "application/pdf",
    )
    .await;
    let text = pdf_text(&pdf);
    assert!(text.contains("1:02:03"), "{text}");
    assert!(text.contains("BIB 42"), "{text}");
    // A runner with no photos gets a certificate all the same.
    let plain = bytes_of(certificate(&app, "7", "image", "").await, "image/jpeg").await;
    let plain = decode(&plain, &DecodeOptions::default()).unwrap();
    assert_eq!((plain.width(), plain.height()), (1080, 1350));

    assert_error(
        certificate(&app, "99", "image", "").await,
        404,
        "result_not_found",
    )
    .await;
    assert_error(certificate(&app, "42", "gif", "").await, 404, "not_found").await;

    // Templates: saved when whole, refused with the reason, reset; the cache follows.
    let put_template = |format: &str, content_type: &str, svg: String| {
        let request = app
            .client
            .put(app.url(&format!("/api/admin/events/race/certificates/{format}")))
            .header("cookie", &admin)
            .header("content-type", content_type.to_owned())
            .body(svg);
        async move { request.send().await.unwrap() }
    };
    let own = r##"<svg xmlns="http://www.w3.org/2000/svg" width="1080" height="1350">
        <rect width="1080" height="1350" fill="#ffffff"/>
        <image href="raceshot:photo" x="140" y="100" width="800" height="800" preserveAspectRatio="xMidYMid slice"/>
        <text x="540" y="1100" text-anchor="middle" font-size="60">{{name}} {{chip_time}}</text></svg>"##;
    let saved = json(put_template("image", "image/svg+xml", own.to_owned()).await).await;
    assert_eq!(saved["image"]["custom"], true);
    assert_eq!(saved["image"]["svg"], own);
    let redrawn = bytes_of(certificate(&app, "42", "image", "").await, "image/jpeg").await;
    assert_ne!(redrawn, picture);
    let err = assert_error(
        put_template(
            "image",
            "image/svg+xml",
            own.replace("{{name}}", "{{password}}"),
        )
        .await,
        422,
        "invalid_field",
    )
    .await;
    assert_eq!(err["field"], "svg");
    assert!(
        err["message"].as_str().unwrap().contains("password"),
        "{err}"
    );
    let err = assert_error(
        put_template("print", "image/svg+xml", own.to_owned()).await,
        422,
        "invalid_field",
    )
    .await;
    assert!(err["message"].as_str().unwrap().contains("595"), "{err}");
    assert_error(
        put_template("image", "text/plain", own.to_owned()).await,
        415,
        "unsupported_media_type",
    )
    .await;
    let huge = format!("{own}<!--{}-->", "x".repeat(600 * 1024));
    assert_error(
        put_template("image", "image/svg+xml", huge).await,
        413,
        "payload_too_large",
    )
    .await;
    let reset = app
        .call(
            Method::DELETE,
            "/api/admin/events/race/certificates/image",
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(json(reset).await["image"]["custom"], false);
    assert_eq!(
        bytes_of(certificate(&app, "42", "image", "").await, "image/jpeg").await,
        picture
    );

    // The console's sample of each template.
    let sample = app
        .call(
            Method::GET,
            "/api/admin/events/race/certificates/print/sample",
            Some(&admin),
            None,
        )
        .await;
    assert!(
        bytes_of(sample, "application/pdf")
            .await
            .starts_with(b"%PDF-")
    );

    // The shop's logo, once set, is drawn in the logo's box and makes a new file.
    let red_logo = {
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, 20, 20);
        encoder.set_color(png::ColorType::Rgb);
        let mut writer = encoder.write_header().unwrap();
        writer
            .write_image_data(&[230u8, 20, 20].repeat(20 * 20))
            .unwrap();
        writer.finish().unwrap();
        out
    };
    let set = app
        .client
        .put(app.url("/api/admin/settings/logo"))
        .header("cookie", &admin)
        .body(red_logo)
        .send()
        .await
        .unwrap();
    assert_eq!(set.status(), 204);
    let with_logo = bytes_of(certificate(&app, "42", "image", "").await, "image/jpeg").await;
    assert_ne!(with_logo, picture);
    let drawn = decode(&with_logo, &DecodeOptions::default()).unwrap();
    let [r, g, b] = drawn.pixel(120, 100).unwrap();
    assert!(r > 180 && g < 80 && b < 80, "{:?}", [r, g, b]);

    // At a price, certificates are not downloaded free.
    settings(json!({ "offered": true, "price": 49 })).await;
    let offer = result_answer(&app, "42").await["certificate"].clone();
    assert_eq!(
        (offer["price"].clone(), offer["image_url"].clone()),
        (json!(49.0), Value::Null)
    );
    assert_error(
        certificate(&app, "42", "image", "").await,
        409,
        "certificate_not_free",
    )
    .await;
    settings(json!({ "offered": true, "price": 0 })).await;

    // Deleting the runner's result deletes their cached certificates, and theirs only.
    assert!(!cached(&app, "race/certificate/42-").await.is_empty());
    assert!(!cached(&app, "race/certificate/7-").await.is_empty());
    let gone = app
        .call(
            Method::DELETE,
            "/api/admin/events/race/results/42",
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(gone.status(), 204);
    assert!(cached(&app, "race/certificate/42-").await.is_empty());
    assert!(!cached(&app, "race/certificate/7-").await.is_empty());
    assert_error(
        certificate(&app, "42", "image", "").await,
        404,
        "result_not_found",
    )
    .await;

    // Every change is audited; the settings are admins' only.
    let actions = app.audit_actions(&admin).await;
    for action in ["certificates.settings", "certificates.template"] {
        assert!(actions.iter().any(|a| a == action), "{actions:?}");
    }
    let cam = app.sign_in("cam@example.com").await;
    let resp = app
        .call(
            Method::GET,
            "/api/admin/events/race/certificates",
            Some(&cam),
            None,
        )
        .await;
    assert_error(resp, 403, "forbidden").await;
}

/// Each client address gets `certificates.per_client_per_minute` certificates.
#[tokio::test]
async fn certificates_are_limited_per_client() {
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(event("race"))
        .with_env("RACESHOT__CERTIFICATES__PER_CLIENT_PER_MINUTE", "2")
        .spawn()
        .await;
    for _ in 0..2 {
        assert_error(
            certificate(&app, "42", "image", "").await,
            404,
            "certificate_not_offered",
        )
        .await;
    }
    assert_error(
        certificate(&app, "42", "image", "").await,
        429,
        "rate_limited",
    )
    .await;
}

/// A quote naming a certificate's bib looks the bib up in the results: it counts as a
/// results search (`search.per_client_per_minute`), so it cannot list the bibs that have
/// one; quotes of photos alone are not limited.
#[tokio::test]
async fn quotes_naming_a_bib_are_limited_as_results_searches() {
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(event("race"))
        .with_env("RACESHOT__SEARCH__PER_CLIENT_PER_MINUTE", "2")
        .spawn()
        .await;
    let ids = app.ready_photos("race", 1).await;
    for bib in ["41", "42"] {
        let resp = app
            .post("/api/cart/quote", &certificate_quote(&ids, bib))
            .await;
        assert_ne!(resp.status(), 429);
    }
    assert_error(
        app.post("/api/cart/quote", &certificate_quote(&ids, "43"))
            .await,
        429,
        "rate_limited",
    )
    .await;
    let photos_only = json!({ "event_key": "race", "image_ids": ids, "is_mhao": "N" });
    for _ in 0..5 {
        assert_eq!(
            app.post("/api/cart/quote", &photos_only).await.status(),
            200
        );
    }
}

/// The retention run deletes an event's cached certificates with its results.
#[tokio::test]
async fn retention_deletes_certificates_with_the_results() {
    // No job runner: the retention run is this test's own.
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(event("race"))
        .with_env("RACESHOT__ORDERS__RETENTION_DAYS", "3")
        .without_jobs()
        .spawn()
        .await;
    let (_, stored) = app.stored_event("race").await;
    raceshot_server::services::results::import(
        &app.state.store,
        &stored,
        RESULTS.as_bytes(),
        None,
        "test",
        app.state.now(),
    )
    .await
    .unwrap();
    app.state
        .store
        .save_certificate_settings(
            stored.id,
            &raceshot_store::certificates::CertificateSettings {
                offered: true,
                price: raceshot_domain::Money::ZERO,
                image_svg: None,
                print_svg: None,
                updated_at: app.state.now(),
            },
        )
        .await
        .unwrap();
    bytes_of(certificate(&app, "7", "image", "").await, "image/jpeg").await;
    assert_eq!(cached(&app, "race/certificate/").await.len(), 1);
    // The event was on 30 Nov; today (5 Dec) is past 3 days after it.
    app.run_retention().await.unwrap();
    assert!(cached(&app, "race/certificate/").await.is_empty());
    assert_error(
        certificate(&app, "7", "image", "").await,
        404,
        "result_not_found",
    )
    .await;
}

fn certificate_quote(ids: &[i64], bib: &str) -> Value {
    json!({ "event_key": "race", "image_ids": ids, "is_mhao": "N", "certificate_bib": bib })
}

/// An order of `ids` and the certificate of `bib`, at the amounts of `quote`, by PromptPay.
fn certificate_order(ids: &[i64], bib: &str, quote: &Value) -> Value {
    json!({
        "mobile": "0812345678", "email": "runner@example.com", "event_key": "race",
        "amount": quote["amount"], "paid_amount": quote["paid_amount"],
        "imageList": crate::orders::image_list(ids), "image_length": ids.len(), "is_mhao": "N",
        "payment_channel": "PP", "certificate_bib": bib,
    })
}

async fn a_priced_certificate_is_bought_in_the_cart(backend: Backend) {
    let (app, admin) = TestApp::race_with_console(backend).await;
    assert_eq!(put_results(&app, &admin, "", RESULTS).await.status(), 200);
    let ids = app.ready_photos("race", 2).await;
    let offer = |body: Value| {
        let admin = admin.clone();
        let app = &app;
        async move {
            let resp = app
                .call(
                    Method::PUT,
                    "/api/admin/events/race/certificates",
                    Some(&admin),
                    Some(body),
                )
                .await;
            assert_eq!(resp.status(), 200);
        }
    };

    // Free certificates are downloaded, not bought.
    offer(json!({ "offered": true, "price": 0 })).await;
    let err = assert_error(
        app.post("/api/cart/quote", &certificate_quote(&ids, "42"))
            .await,
        409,
        "certificate_not_sold",
    )
    .await;
    assert_eq!(err["field"], "certificate_bib");

    // At a price: the result's offer has no free addresses, and the cart prices it.
    offer(json!({ "offered": true, "price": 49 })).await;
    let answer = result_answer(&app, "42").await;
    assert_eq!(answer["certificate"]["price"], json!(49.0));
    assert!(answer["certificate"]["image_url"].is_null());
    let photos = app.quote("race", &ids, false).await;
    let both = json(
        app.post("/api/cart/quote", &certificate_quote(&ids, "42"))
            .await,
    )
    .await;
    assert_eq!(both["cart_certificate_amt"], json!(49.0), "{both}");
    assert_eq!(both["total"], json!(2));
    let baht = |v: &Value| (v.as_f64().unwrap() * 100.0).round() as i64;
    assert_eq!(baht(&both["cart_amt"]), baht(&photos["cart_amt"]) + 4_900);
    assert_eq!(
        baht(&both["cart_full_amt"]),
        baht(&photos["cart_full_amt"]) + 4_900
    );
    assert_eq!(both["cart_discount"], photos["cart_discount"]);
    // 5% of the whole: (120 + 49) × 5% = 8.45.
    assert_eq!(baht(&both["cart_payment_fee"]), 845);
    assert_eq!(baht(&both["paid_amount"]), 16_900 + 845);
    assert!(photos.get("cart_certificate_amt").is_none(), "{photos}");

    // Alone: the certificate is the whole cart.
    let alone = json(
        app.post("/api/cart/quote", &certificate_quote(&[], "42"))
            .await,
    )
    .await;
    assert_eq!(
        (
            alone["total"].clone(),
            alone["amount"].clone(),
            alone["cart_payment_fee"].clone(),
            alone["paid_amount"].clone()
        ),
        (json!(0), json!(49.0), json!(2.45), json!(51.45))
    );

    // Refused: a bib without a result, the wholesale cart, an empty cart without it, and
    // a photo pass (it pays for photos only).
    let err = assert_error(
        app.post("/api/cart/quote", &certificate_quote(&ids, "999"))
            .await,
        404,
        "result_not_found",
    )
    .await;
    assert_eq!(err["field"], "certificate_bib");
    let mut wholesale = certificate_quote(&ids, "42");
    wholesale["wholesale"] = json!(true);
    let err = assert_error(
        app.post("/api/cart/quote", &wholesale).await,
        422,
        "invalid_field",
    )
    .await;
    assert_eq!(err["field"], "certificate_bib");
    assert_error(
        app.post(
            "/api/cart/quote",
            &json!({ "event_key": "race", "image_ids": [], "is_mhao": "N" }),
        )
        .await,
        422,
        "invalid_field",
    )
    .await;
    let codes = crate::passes::make_passes(&app, &admin, "race", "Entry", 1, Some(5)).await;
    let mut with_pass = certificate_quote(&ids, "42");
    with_pass["pass_code"] = json!(codes[0]);
    let q = json(app.post("/api/cart/quote", &with_pass).await).await;
    assert_eq!(
        q["pass"],
        json!({ "photos": 5, "pays": false, "reason": "certificate" })
    );
    assert_eq!(q["paid_amount"], both["paid_amount"]);

    // The amounts shown must be the server's: a cart priced without the certificate is
    // refused.
    assert_error(
        app.post("/v1/order/create", &certificate_order(&ids, "42", &photos))
            .await,
        409,
        "amount_mismatch",
    )
    .await;

    // An order of the certificate alone: nothing to download before it is paid.
    let uuid = app
        .create_order("/v1/order/create", &certificate_order(&[], "42", &alone))
        .await;
    let unpaid = app.inquiry(&uuid).await;
    assert_eq!(
        unpaid["certificate"],
        json!({ "bib": "42", "price": 49.0, "image_url": null, "print_url": null })
    );
    assert_eq!(unpaid["image_length"], json!(0));
    assert_eq!(unpaid["amount"], json!(51.45));
    let bought = |format: &str| {
        let app = &app;
        let path = format!("/api/orders/{uuid}/certificate/{format}");
        async move { app.get(&path).await }
    };
    assert_error(bought("image").await, 403, "order_not_paid").await;

    // Paid: the picture and the page, with the runner's time; no ZIP of no photos.
    let paid = json(app.sandbox_pay(&uuid, "paid").await).await;
    assert_eq!(paid["payment_status"], "PAID", "{paid}");
    let done = app.inquiry(&uuid).await;
    assert_eq!(
        done["certificate"]["image_url"],
        format!("/api/orders/{uuid}/certificate/image")
    );
    let picture = bytes_of(bought("image").await, "image/jpeg").await;
    let img = decode(&picture, &DecodeOptions::default()).unwrap();
    assert_eq!((img.width(), img.height()), (1080, 1350));
    let page = bytes_of(bought("print").await, "application/pdf").await;
    let text = pdf_text(&page);
    assert!(text.contains("1:02:03"), "{text}");
    assert_error(
        app.get(&format!("/api/orders/{uuid}/download.zip")).await,
        404,
        "not_found",
    )
    .await;

    // What was bought stays bought when the offer ends; the free address stays closed.
    offer(json!({ "offered": false, "price": 49 })).await;
    assert_eq!(bytes_of(bought("image").await, "image/jpeg").await, picture);
    assert_error(
        certificate(&app, "42", "image", "").await,
        404,
        "certificate_not_offered",
    )
    .await;
    offer(json!({ "offered": true, "price": 49 })).await;

    // With photos: one order, its ZIP holds the photos; an order without a certificate
    // has none to give.
    let with_photos = app
        .create_order("/v1/order/create", &certificate_order(&ids, "42", &both))
        .await;
    assert_eq!(
        json(app.sandbox_pay(&with_photos, "paid").await).await["payment_status"],
        "PAID"
    );
    let done = app
        .inquiry_until(&with_photos, crate::orders::delivered)
        .await;
    assert_eq!(done["amount"], both["paid_amount"]);
    assert_eq!(done["photos_amount"], both["amount"]);
    let zip = app
        .get(&format!("/api/orders/{with_photos}/download.zip"))
        .await;
    assert_eq!(zip.status(), 200);
    assert_eq!(
        crate::orders::zip_entries(&zip.bytes().await.unwrap())
            .await
            .len(),
        2
    );
    let (_, plain) = app.promptpay_order("race", 1).await;
    assert!(app.inquiry(&plain).await["certificate"].is_null());
    assert_error(
        app.get(&format!("/api/orders/{plain}/certificate/image"))
            .await,
        404,
        "not_found",
    )
    .await;
}
