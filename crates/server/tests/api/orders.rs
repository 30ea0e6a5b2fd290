//! Orders through the SANDBOX gateway, end to end: quote, create, inquiry, pay, delivery
//! (originals, logo copies, signed downloads, Range, ZIP), the refusals around them, FREE
//! and AM orders, find-order and retention.

use raceshot_server::services::links::Variant;
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::{TOKEN, TestApp, assert_error, event, json, now, oid};

both_backends!(a_sandbox_purchase_goes_from_cart_to_zip);

/// The cart objects (photos as the shop lists them) for `ids`, as the web app sends them.
pub fn image_list(ids: &[i64]) -> Value {
    Value::Array(
        ids.iter()
            .map(|id| {
                json!({
                    "id": id, "original_file_name": "x.jpg", "thumbnail_file_name": "x.jpg",
                    "preview_file_name": "x.jpg", "photographer_id": 7, "event_id": 1, "atc": "Y"
                })
            })
            .collect(),
    )
}

/// The order's files are made (its notifications may still be on their way).
pub fn delivered(body: &Value) -> bool {
    body["is_original_image_created"] == "Y" && body["is_logo_image_created"] == "Y"
}

/// Every entry of a ZIP: name and data (CRC-checked); every entry stored uncompressed.
#[allow(deprecated)]
pub async fn zip_entries(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    use async_zip::base::read::seek::ZipFileReader;
    let mut reader = ZipFileReader::new(futures::io::Cursor::new(bytes.to_vec()))
        .await
        .unwrap();
    let mut out = Vec::new();
    for i in 0..reader.file().entries().len() {
        let mut entry = reader.reader_with_entry(i).await.unwrap();
        assert_eq!(entry.entry().compression(), async_zip::Compression::Stored);
        let name = entry.entry().filename().as_str().unwrap().to_owned();
        let mut data = Vec::new();
        entry.read_to_end_checked(&mut data).await.unwrap();
        out.push((name, data));
    }
    out
}

async fn a_sandbox_purchase_goes_from_cart_to_zip(backend: raceshot_store::Backend) {
    let app = TestApp::builder(backend)
        .with_event(event("city-run"))
        .spawn()
        .await;
    let ids = app.ready_photos("city-run", 2).await;

    // Create through the v1 call with the quote's numbers: 2 × 60 = 120, fee 6.
    let body = app.order_body("city-run", &ids, "PP").await;
    assert_eq!(
        (body["amount"].as_f64(), body["paid_amount"].as_f64()),
        (Some(120.0), Some(126.0))
    );
    let uuid = app.create_order("/v1/order/create", &body).await;

    let unpaid = app.inquiry(&uuid).await;
    assert_eq!(unpaid["payment_status"], "INITIAL");
    assert_eq!(unpaid["payment_channel"], "PP");
    assert_eq!(unpaid["payment_gateway"], "SANDBOX");
    assert_eq!(unpaid["amount"].as_f64(), Some(126.0));
    assert_eq!(unpaid["event_key"], "city-run");
    assert_eq!(unpaid["sandbox"], true);
    let qr = unpaid["qrcode_url"].as_str().unwrap();
    assert!(qr.ends_with(&format!("/sandbox/pay/{uuid}")), "{qr}");
    let images: Value = serde_json::from_str(unpaid["images_order"].as_str().unwrap()).unwrap();
    assert_eq!(images.as_array().unwrap().len(), 2);
    assert_eq!(images[0]["original_file_name"], "IMG_0000.jpg");
    assert_eq!(unpaid["images_paid"], "[]");
    // The v1 inquiry adds api_response, holding the QR.
    let v1 = json(
        app.post(
            "/v1/order/inquiry",
            &json!({ "tk": TOKEN, "order_uuid": uuid }),
        )
        .await,
    )
    .await;
    let api_response: Value = serde_json::from_str(v1["api_response"].as_str().unwrap()).unwrap();
    assert_eq!(api_response["qrcode"], qr);

    // Nothing is delivered before payment.
    assert_error(
        app.get(&format!("/api/orders/{uuid}/download.zip")).await,
        403,
        "order_not_paid",
    )
    .await;

    // The sandbox page, then the payment.
    let page = app.get(&format!("/sandbox/pay/{uuid}")).await;
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("SANDBOX"));
    let paid = app.sandbox_pay(&uuid, "paid").await;
    assert_eq!(paid.status(), 200);
    assert_eq!(json(paid).await["payment_status"], "PAID");
    // Paying again changes nothing.
    assert_error(
        app.sandbox_pay(&uuid, "paid").await,
        409,
        "order_not_payable",
    )
    .await;

    let done = app.inquiry_until(&uuid, delivered).await;
    assert_eq!(done["payment_status"], "PAID");
    assert_eq!(done["images_order"], "[]");
    assert_eq!(done["receipt_ref"].as_str().unwrap().len(), 4);
    let paid_images: Value = serde_json::from_str(done["images_paid"].as_str().unwrap()).unwrap();
    let paid_images = paid_images.as_array().unwrap();
    assert_eq!(paid_images.len(), 2);
    for (item, id) in paid_images.iter().zip(&ids) {
        assert_eq!(item["id"], *id);
        assert_eq!(item["photographer_id"], 7);
        for field in [
            "image",
            "image_logo",
            "image_thumbnail",
            "original_file_name",
        ] {
            assert!(!item[field].as_str().unwrap().is_empty(), "{field}: {item}");
        }
    }

    // One original through its signed address, whole and by range.
    let image_url = paid_images[0]["image"].as_str().unwrap();
    let whole = app.client.get(image_url).send().await.unwrap();
    assert_eq!(whole.status(), 200);
    assert_eq!(whole.headers()["content-type"], "image/jpeg");
    let original = whole.bytes().await.unwrap();
    assert_eq!(&original[..2], &[0xFF, 0xD8]);
    let part = app
        .client
        .get(image_url)
        .header("range", "bytes=2-9")
        .send()
        .await
        .unwrap();
    assert_eq!(part.status(), 206);
    assert_eq!(
        part.headers()["content-range"],
        format!("bytes 2-9/{}", original.len()).as_str()
    );
    assert_eq!(part.bytes().await.unwrap(), original[2..10]);
    // The logo copy differs from the original.
    let logo = app
        .client
        .get(paid_images[0]["image_logo"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(logo.status(), 200);
    assert_ne!(logo.bytes().await.unwrap(), original);

    // The whole order as ZIPs, with the shop's names (`photographerId_originalName`).
    let zip = app.get(&format!("/api/orders/{uuid}/download.zip")).await;
    assert_eq!(zip.status(), 200);
    assert_eq!(
        zip.headers()["content-disposition"],
        format!("attachment; filename=\"{uuid}.zip\"").as_str()
    );
    let entries = zip_entries(&zip.bytes().await.unwrap()).await;
    let names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["7_IMG_0000.jpg", "7_IMG_0001.jpg"]);
    assert_eq!(entries[0].1, original);
    let zip = app
        .get(&format!("/api/orders/{uuid}/download.zip?variant=logo"))
        .await;
    assert_eq!(zip.status(), 200);
    assert_eq!(
        zip.headers()["content-disposition"],
        format!("attachment; filename=\"{uuid}-logo.zip\"").as_str()
    );
    let entries = zip_entries(&zip.bytes().await.unwrap()).await;
    let names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["logo_7_IMG_0000.jpg", "logo_7_IMG_0001.jpg"]);

    // The trail holds the one payment.
    let order = app.store.order_by_uuid(oid(&uuid)).await.unwrap().unwrap();
    let trail = app.store.payment_trail(order.id).await.unwrap();
    assert_eq!(trail.iter().filter(|t| t.kind == "sandbox:paid").count(), 1);
}

#[tokio::test]
async fn a_double_submit_returns_the_same_order() {
    let app = TestApp::with_one_event("twice").await;
    let ids = app.ready_photos("twice", 3).await;
    let body = app.order_body("twice", &ids, "PP").await;
    let first = app.create_order("/v3/order/create", &body).await;
    let second = app.create_order("/v3/order/create", &body).await;
    assert_eq!(first, second);
    let mut other = body.clone();
    other["mobile"] = json!("0899999999");
    assert_ne!(app.create_order("/v3/order/create", &other).await, first);
}

#[tokio::test]
async fn tampered_amounts_and_bad_carts_are_refused() {
    let mut closed = event("closed");
    closed.on_sale_end = "2026-12-02".into();
    let app = TestApp::builder(raceshot_store::Backend::Sqlite)
        .with_event(event("race-a"))
        .with_event(event("race-b"))
        .with_event(closed)
        .spawn()
        .await;
    let a = app.ready_photos("race-a", 2).await;
    let b = app.ready_photos("race-b", 1).await;
    let c = app.ready_photos("closed", 1).await;
    let good = app.order_body("race-a", &a, "PP").await;

    for (field, value) in [
        ("amount", json!(100.00)),
        ("paid_amount", json!(120.00)),
        ("amount", json!("119.99")),
    ] {
        let mut body = good.clone();
        body[field] = value;
        assert_error(
            app.post("/v1/order/create", &body).await,
            409,
            "amount_mismatch",
        )
        .await;
    }
    let mut body = good.clone();
    body["amount"] = json!("12.345");
    assert_error(
        app.post("/v1/order/create", &body).await,
        422,
        "invalid_field",
    )
    .await;

    // Photos of two events: the shop's message.
    let mut body = good.clone();
    let mixed = [a[0], b[0]];
    body["imageList"] = image_list(&mixed);
    let refused = assert_error(
        app.post("/v1/order/create", &body).await,
        422,
        "mixed_events",
    )
    .await;
    assert_eq!(refused["message"], "Pls choose image from only once event");

    for (field, value, code) in [
        ("mobile", json!("08123456789012345"), "invalid_field"),
        ("mobile", json!("081-234-5678"), "invalid_field"),
        ("mobile", json!("1234"), "invalid_field"),
        ("email", json!("not-an-email"), "invalid_field"),
        ("image_length", json!(3), "invalid_field"),
        ("payment_channel", json!("BITCOIN"), "invalid_field"),
        (
            "payment_channel",
            json!("FREE"),
            "payment_channel_not_available",
        ),
        ("payment_gateway", json!("GBP"), "payment_gateway_changed"),
    ] {
        let mut body = good.clone();
        body[field] = value;
        let resp = app.post("/v1/order/create", &body).await;
        let status = resp.status().as_u16();
        let answer = json(resp).await;
        assert_eq!(answer["code"], code, "{field}: {answer}");
        assert!(status == 422 || status == 409, "{field}: {status}");
    }
    let mut body = good.clone();
    body["imageList"] = image_list(&[a[0], a[0]]);
    assert_error(
        app.post("/v1/order/create", &body).await,
        422,
        "invalid_field",
    )
    .await;
    let mut body = good.clone();
    body["imageList"] = image_list(&[a[0], 999_999]);
    assert_error(
        app.post("/v1/order/create", &body).await,
        404,
        "image_not_found",
    )
    .await;
    let mut body = good.clone();
    body["event_key"] = json!("closed");
    body["imageList"] = image_list(&c);
    body["image_length"] = json!(1);
    assert_error(
        app.post("/v1/order/create", &body).await,
        409,
        "event_not_on_sale",
    )
    .await;
    // No order was written by any of these.
    assert!(
        app.store
            .find_orders(
                raceshot_store::orders::OrderLookup::Mobile("0812345678"),
                10
            )
            .await
            .unwrap()
            .is_empty()
    );
    // Without the client token nothing happens either.
    let resp = app
        .client
        .post(app.url("/v1/order/create"))
        .json(&good)
        .send()
        .await
        .unwrap();
    assert_error(resp, 401, "invalid_client_token").await;
}

#[tokio::test]
async fn download_addresses_are_signed_expire_and_need_a_paid_order() {
    let app = TestApp::with_one_event("signed").await;
    let (ids, uuid) = app.promptpay_order("signed", 1).await;
    let later = now() + chrono::Duration::hours(1);
    // Unpaid: even a correctly signed address is refused.
    let url = app
        .state
        .links
        .download_url(&oid(&uuid), ids[0], Variant::Original, later);
    let resp = app.client.get(&url).send().await.unwrap();
    assert_error(resp, 403, "order_not_paid").await;

    assert_eq!(app.sandbox_pay(&uuid, "paid").await.status(), 200);
    app.inquiry_until(&uuid, delivered).await;
    assert_eq!(app.client.get(&url).send().await.unwrap().status(), 200);
    let tampered = url.replace(
        &format!("/photos/{}/", ids[0]),
        &format!("/photos/{}/", ids[0] + 1000),
    );
    assert_error(
        app.client.get(&tampered).send().await.unwrap(),
        403,
        "invalid_signature",
    )
    .await;
    let last = if url.ends_with('0') { '1' } else { '0' };
    let forged = format!("{}{last}", &url[..url.len() - 1]);
    assert_error(
        app.client.get(&forged).send().await.unwrap(),
        403,
        "invalid_signature",
    )
    .await;
    let past = app.state.links.download_url(
        &oid(&uuid),
        ids[0],
        Variant::Original,
        now() - chrono::Duration::seconds(1),
    );
    assert_error(
        app.client.get(&past).send().await.unwrap(),
        403,
        "download_link_expired",
    )
    .await;
    // Another order's uuid with this photo's signature: refused.
    let other = url.replace(&uuid, "00000000-0000-4000-8000-000000000000");
    assert_error(
        app.client.get(&other).send().await.unwrap(),
        403,
        "invalid_signature",
    )
    .await;
}

#[tokio::test]
async fn a_failed_sandbox_payment_cancels_a_promptpay_order() {
    let app = TestApp::with_one_event("fails").await;
    let (_, uuid) = app.promptpay_order("fails", 1).await;
    let resp = app.sandbox_pay(&uuid, "failed").await;
    assert_eq!(json(resp).await["payment_status"], "CANCELLED");
    assert_error(
        app.sandbox_pay(&uuid, "paid").await,
        409,
        "order_not_payable",
    )
    .await;
}

#[tokio::test]
async fn a_sandbox_card_goes_through_3d_secure() {
    let app = TestApp::with_one_event("card").await;
    let ids = app.ready_photos("card", 1).await;
    let uuid = app
        .create_order(
            "/v3/order/create",
            &app.order_body("card", &ids, "CC").await,
        )
        .await;
    let pay = |paid_amount: Value| json!({ "token_key": "tokn_test_5xyz", "uuid": uuid, "email": "", "mobile": "0812345678", "paid_amount": paid_amount });
    // The amount comes without its decimal point (satang): 63.00 → 6300.
    assert_error(
        app.post("/v3/order/opn-cc-payment", &pay(json!(6000)))
            .await,
        409,
        "amount_mismatch",
    )
    .await;
    let resp = app
        .post("/v3/order/opn-cc-payment", &pay(json!(6300)))
        .await;
    assert_eq!(resp.status(), 200);
    let body = json(resp).await;
    let authorize = body["data"]["authorize_uri"].as_str().unwrap();
    assert!(
        authorize.contains(&format!("/sandbox/pay/{uuid}")),
        "{authorize}"
    );
    // A declined authentication leaves the order payable; then it succeeds.
    assert_eq!(
        json(app.sandbox_pay(&uuid, "failed").await).await["payment_status"],
        "INITIAL"
    );
    assert_eq!(
        json(app.sandbox_pay(&uuid, "paid").await).await["payment_status"],
        "PAID"
    );
}

#[tokio::test]
async fn free_orders_are_paid_at_once_and_delivered() {
    let mut free = event("free-run");
    free.is_free_download_keep_contract = raceshot_domain::Flag::YES;
    let app = TestApp::builder(raceshot_store::Backend::Sqlite)
        .with_event(free)
        .spawn()
        .await;
    let ids = app.ready_photos("free-run", 2).await;
    let body = app.order_body("free-run", &ids, "FREE").await;
    assert_eq!(body["paid_amount"].as_f64(), Some(0.0));
    let uuid = app.create_order("/v1/order/create", &body).await;
    let done = app
        .inquiry_until(&uuid, |b| b["is_original_image_created"] == "Y")
        .await;
    assert_eq!(done["payment_status"], "PAID");
    assert_eq!(done["payment_channel"], "FREE");
    assert_eq!(done["amount"].as_f64(), Some(0.0));
    let mut pp = body.clone();
    pp["payment_channel"] = json!("PP");
    assert_error(
        app.post("/v1/order/create", &pp).await,
        409,
        "payment_channel_not_available",
    )
    .await;
}

#[tokio::test]
async fn find_order_by_mobile_and_receipt_is_rate_limited() {
    let app = TestApp::builder(raceshot_store::Backend::Sqlite)
        .with_event(event("finder"))
        .with_env("RACESHOT__ORDERS__FIND_PER_CLIENT_PER_MINUTE", "3")
        .spawn()
        .await;
    let (_, uuid) = app.promptpay_order("finder", 1).await;
    app.sandbox_pay(&uuid, "paid").await;
    let receipt = app.inquiry(&uuid).await["receipt_ref"]
        .as_str()
        .unwrap()
        .to_owned();
    let find = |filter: &str, text: &str| json!({ "tk": TOKEN, "filter_type": filter, "txt_search": text });
    let found = json(
        app.post("/v1/order/find-order", &find("mobile", "0812345678"))
            .await,
    )
    .await;
    let rows = found["body"].as_array().unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(
        rows[0]["order_id"], "",
        "a mobile number alone opens nothing"
    );
    assert!(!found.to_string().contains(&uuid), "{found}");
    assert_eq!(rows[0]["status"], "PAID");
    assert_eq!(rows[0]["title"], "งานวิ่ง finder");
    assert_eq!(
        rows[0].as_object().unwrap().len(),
        6,
        "the contract's four fields, the lookup reference and the (here empty) contact"
    );
    let by_receipt = json(
        app.post(
            "/v1/order/find-order",
            &find("payment_ref", &receipt.to_lowercase()),
        )
        .await,
    )
    .await;
    assert_eq!(by_receipt["body"][0]["title"], "งานวิ่ง finder");
    assert!(!by_receipt.to_string().contains(&uuid), "{by_receipt}");
    assert_error(
        app.post("/v1/order/find-order", &find("mobile", "081234567"))
            .await,
        422,
        "invalid_field",
    )
    .await;
    assert_error(
        app.post("/v1/order/find-order", &find("mobile", "0812345678"))
            .await,
        429,
        "rate_limited",
    )
    .await;
}

#[tokio::test]
async fn the_gateway_setting_is_public() {
    let app = TestApp::builder(raceshot_store::Backend::Sqlite)
        .spawn()
        .await;
    let body = json(
        app.post(
            "/v1/utils/conf",
            &json!({ "tk": TOKEN, "conf_name": "PAYMENT_GATEWAY" }),
        )
        .await,
    )
    .await;
    assert_eq!(body["body"]["value"], "SANDBOX");
}

#[tokio::test]
async fn retention_deletes_originals_and_the_order_page_says_so() {
    let app = TestApp::builder(raceshot_store::Backend::Sqlite)
        .with_event(event("kept"))
        .with_env("RACESHOT__ORDERS__RETENTION_DAYS", "3")
        .spawn()
        .await;
    let (_, uuid) = app.promptpay_order("kept", 1).await;
    app.sandbox_pay(&uuid, "paid").await;
    // The event was on 30 Nov; today (5 Dec) is past 3 days after it.
    app.run_retention().await.unwrap();
    let expired = app
        .inquiry_until(&uuid, |b| b["storage_expired"] == "Y")
        .await;
    assert_eq!(expired["images_paid"], "[]");
    assert_error(
        app.get(&format!("/api/orders/{uuid}/download.zip")).await,
        410,
        "storage_expired",
    )
    .await;
    let key = raceshot_domain::EventKey::parse("kept").unwrap();
    let originals = app
        .state
        .objects
        .list(&format!("{}/original", key.as_str()))
        .await
        .unwrap();
    assert!(originals.is_empty(), "{originals:?}");
}

#[tokio::test]
async fn the_sandbox_cannot_pay_once_it_is_switched_off() {
    let app = TestApp::builder(raceshot_store::Backend::Sqlite)
        .with_event(event("real-money"))
        .with_own_promptpay()
        .with_env("RACESHOT__PAYMENTS__ALLOW_SANDBOX", "false")
        .spawn()
        .await;
    let (_, uuid) = app.promptpay_order("real-money", 1).await;
    // Even an order written while the sandbox ran stays unpaid.
    let order = app.store.order_by_uuid(oid(&uuid)).await.unwrap().unwrap();
    app.store
        .execute_raw(&format!(
            "UPDATE orders SET payment_gateway = 'SANDBOX' WHERE id = {}",
            order.id
        ))
        .await
        .unwrap();
    assert_error(app.sandbox_pay(&uuid, "paid").await, 404, "not_found").await;
    assert_eq!(app.inquiry(&uuid).await["payment_status"], "INITIAL");
}
