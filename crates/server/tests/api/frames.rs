//! Sponsor frames, on both backends: an admin gives an event a frame (a PNG with
//! transparency; pictures that are not frames refused with their reason), which the event
//! answer names for the previews; free downloads carry it and give nothing else; sold
//! photos get a framed copy as a third file once the admin chooses so; a new or removed
//! frame leaves what earlier orders received as it was. Every change is audited.

use raceshot_store::Backend;
use raceshot_vision::image_io::{DecodeOptions, decode};
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_error, json};

crate::both_backends!(
    free_downloads_carry_the_events_frame_and_nothing_else,
    sold_photos_get_a_framed_copy_when_the_admin_chooses,
);

/// A `width` × `height` frame: a red border an eighth of each side wide, `clear` inside
/// (see-through when `clear` is 0).
fn frame_png(width: u32, height: u32, clear: u8) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let (bx, by) = (width / 8, height / 8);
    let pixels: Vec<u8> = (0..height)
        .flat_map(|y| (0..width).map(move |x| (x, y)))
        .flat_map(|(x, y)| {
            let border = x < bx || x >= width - bx || y < by || y >= height - by;
            if border {
                [255, 0, 0, 255]
            } else {
                [255, 255, 255, clear]
            }
        })
        .collect();
    let mut writer = encoder.write_header().unwrap();
    writer.write_image_data(&pixels).unwrap();
    writer.finish().unwrap();
    out
}

async fn put_frame(
    app: &TestApp,
    cookie: &str,
    event: &str,
    content_type: &str,
    body: Vec<u8>,
) -> reqwest::Response {
    app.client
        .put(app.url(&format!("/api/admin/events/{event}/frame")))
        .header("cookie", cookie)
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .unwrap()
}

/// The JPEG at a signed address (or any public one) of the app, decoded.
async fn picture(app: &TestApp, address: &str) -> raceshot_vision::RgbImage {
    let path = address.split_once("://").map_or(address, |(_, rest)| {
        rest.split_once('/').map_or("/", |(_, p)| p)
    });
    let resp = app.get(&format!("/{}", path.trim_start_matches('/'))).await;
    assert_eq!(resp.status(), 200, "{address}");
    decode(&resp.bytes().await.unwrap(), &DecodeOptions::default()).unwrap()
}

fn is_red(px: Option<[u8; 3]>) -> bool {
    px.is_some_and(|[r, g, b]| r > 200 && g < 60 && b < 60)
}

/// The colour of `ready_photos`' first photo, as JPEG gives it back.
fn is_photo(px: Option<[u8; 3]>) -> bool {
    px.is_some_and(|[r, g, b]| r < 30 && (100..140).contains(&g) && b > 180)
}

fn paid_images(inquiry: &Value) -> Vec<Value> {
    serde_json::from_str(inquiry["images_paid"].as_str().unwrap()).unwrap()
}

async fn frame_of(app: &TestApp, admin: &str, event: &str) -> Value {
    json(
        app.call(
            Method::GET,
            &format!("/api/admin/events/{event}/frame"),
            Some(admin),
            None,
        )
        .await,
    )
    .await
}

async fn free_downloads_carry_the_events_frame_and_nothing_else(backend: Backend) {
    let mut free = crate::helpers::event("free");
    free.is_free_download_keep_contract = raceshot_domain::Flag::YES;
    let mut gift = crate::helpers::event("gift");
    gift.is_free_download = raceshot_domain::Flag::YES;
    let (app, admin) = TestApp::with_console(backend, vec![free, gift]).await;
    let gift_photo = app.ready_photos("gift", 1).await[0];
    let plain = app
        .get(&format!("/api/events/gift/photos/{gift_photo}/download"))
        .await;
    assert_eq!(plain.status(), 200);
    let plain = plain.bytes().await.unwrap();

    // Pictures that are not frames are refused, each with its reason; only admins upload.
    let jpeg = crate::helpers::noisy_jpeg(3);
    for (content_type, body, status, code) in [
        ("image/png", jpeg.clone(), 415, "unsupported_image_type"),
        (
            "text/plain",
            frame_png(60, 40, 0),
            415,
            "unsupported_media_type",
        ),
        (
            "image/png",
            frame_png(60, 40, 255),
            422,
            "frame_not_transparent",
        ),
        (
            "image/png",
            b"\x89PNG\r\n\x1a\nbroken".to_vec(),
            422,
            "unreadable_image",
        ),
    ] {
        assert_error(
            put_frame(&app, &admin, "free", content_type, body).await,
            status,
            code,
        )
        .await;
    }
    let cam = app.sign_in("cam@example.com").await;
    assert_error(
        put_frame(&app, &cam, "free", "image/png", frame_png(60, 40, 0)).await,
        403,
        "forbidden",
    )
    .await;
    assert_error(
        put_frame(&app, &admin, "nope", "image/png", frame_png(60, 40, 0)).await,
        404,
        "event_not_found",
    )
    .await;
    assert_eq!(
        frame_of(&app, &admin, "free").await,
        json!({ "on_sold": false })
    );

    // Given a frame, the event answer names it for the previews.
    for event in ["free", "gift"] {
        let saved =
            json(put_frame(&app, &admin, event, "image/png", frame_png(60, 40, 0)).await).await;
        let url = saved["frame_url"].as_str().unwrap().to_owned();
        assert_eq!(saved["on_sold"], false);
        let answer = json(app.get(&format!("/v1/events/{event}")).await).await;
        assert_eq!(answer["frame_url"], url.as_str());
        let png = app
            .get(
                url.split_once("/media/")
                    .map(|(_, p)| format!("/media/{p}"))
                    .as_deref()
                    .unwrap(),
            )
            .await;
        assert_eq!(png.headers()["content-type"], "image/png");
    }

    // A free order gives the framed copy only, once it is made.
    let ids = app.ready_photos("free", 2).await;
    let body = app.order_body("free", &ids, "FREE").await;
    let uuid = app.create_order("/v1/order/create", &body).await;
    let done = app
        .inquiry_until(&uuid, |b| b["is_original_image_created"] == "Y")
        .await;
    assert_eq!(done["variants"], json!(["frame"]));
    assert_eq!(done["is_frame_image_created"], "Y");
    let images = paid_images(&done);
    assert_eq!(images.len(), 2);
    for image in &images {
        assert_eq!(
            (image["image"].as_str(), image["image_logo"].as_str()),
            (Some(""), Some(""))
        );
    }
    let framed = picture(&app, images[0]["image_frame"].as_str().unwrap()).await;
    assert_eq!((framed.width(), framed.height()), (64, 48));
    assert!(
        is_red(framed.pixel(2, 24)) && is_red(framed.pixel(32, 46)),
        "the border"
    );
    assert!(is_photo(framed.pixel(32, 24)), "the photo inside");
    let zip = app
        .get(&format!("/api/orders/{uuid}/download.zip?variant=frame"))
        .await;
    assert_eq!(
        zip.headers()["content-disposition"],
        format!("attachment; filename=\"{uuid}-frame.zip\"").as_str()
    );
    let entries = crate::orders::zip_entries(&zip.bytes().await.unwrap()).await;
    let names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["frame_7_IMG_0000.jpg", "frame_7_IMG_0001.jpg"]);
    for variant in ["original", "logo"] {
        assert_error(
            app.get(&format!(
                "/api/orders/{uuid}/download.zip?variant={variant}"
            ))
            .await,
            403,
            "variant_not_offered",
        )
        .await;
    }

    // A free-download event's photo comes framed, under the copy's name.
    let resp = app
        .get(&format!("/api/events/gift/photos/{gift_photo}/download"))
        .await;
    assert_eq!(resp.status(), 200);
    assert!(
        resp.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains("frame_7_IMG_0000.jpg"),
        "{:?}",
        resp.headers()
    );
    let bytes = resp.bytes().await.unwrap();
    assert_ne!(bytes, plain);
    let framed = decode(&bytes, &DecodeOptions::default()).unwrap();
    assert!(is_red(framed.pixel(2, 2)) && is_photo(framed.pixel(32, 24)));

    // Taken off: new free orders give originals; the earlier one keeps its frame.
    let resp = app
        .call(
            Method::DELETE,
            "/api/admin/events/free/frame",
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(resp.status(), 204);
    assert!(
        json(app.get("/v1/events/free").await)
            .await
            .get("frame_url")
            .is_none()
    );
    let later = app.ready_photos("free", 1).await;
    let body = app.order_body("free", &later, "FREE").await;
    let unframed = app.create_order("/v1/order/create", &body).await;
    let done = app.inquiry_until(&unframed, crate::orders::delivered).await;
    assert_eq!(done["variants"], json!(["original", "logo"]));
    assert_ne!(paid_images(&done)[0]["image"], "");
    let earlier = paid_images(&app.inquiry(&uuid).await);
    assert!(is_red(
        picture(&app, earlier[1]["image_frame"].as_str().unwrap())
            .await
            .pixel(2, 24)
    ));

    let actions = app.audit_actions(&admin).await;
    for action in ["frame.upload", "frame.remove"] {
        assert!(actions.iter().any(|a| a == action), "{action}: {actions:?}");
    }
}

async fn sold_photos_get_a_framed_copy_when_the_admin_chooses(backend: Backend) {
    let (app, admin) = TestApp::race_with_console(backend).await;
    // Sold photos carry no frame until the admin chooses; there is nothing to choose
    // without a frame.
    assert_error(
        app.call(
            Method::PUT,
            "/api/admin/events/race/frame/settings",
            Some(&admin),
            Some(json!({ "on_sold": true })),
        )
        .await,
        404,
        "not_found",
    )
    .await;
    json(put_frame(&app, &admin, "race", "image/png", frame_png(80, 60, 0)).await).await;
    let (_, before) = app.promptpay_order("race", 1).await;
    let resp = app
        .call(
            Method::PUT,
            "/api/admin/events/race/frame/settings",
            Some(&admin),
            Some(json!({ "on_sold": true })),
        )
        .await;
    assert_eq!(json(resp).await["on_sold"], true);
    let (_, after) = app.promptpay_order("race", 1).await;
    for uuid in [&before, &after] {
        let paid = json(app.sandbox_pay(uuid, "paid").await).await;
        assert_eq!(paid["payment_status"], "PAID", "{paid}");
    }

    // The order made before the choice gives what it was sold with.
    let done = app.inquiry_until(&before, crate::orders::delivered).await;
    assert_eq!(done["variants"], json!(["original", "logo"]));
    assert_eq!(paid_images(&done)[0]["image_frame"], "");
    assert_error(
        app.get(&format!("/api/orders/{before}/download.zip?variant=frame"))
            .await,
        404,
        "not_found",
    )
    .await;

    // The one after gives the original, the logo copy and the framed copy.
    let done = app
        .inquiry_until(&after, |b| {
            crate::orders::delivered(b) && b["is_frame_image_created"] == "Y"
        })
        .await;
    assert_eq!(done["variants"], json!(["original", "logo", "frame"]));
    let image = &paid_images(&done)[0];
    let original = picture(&app, image["image"].as_str().unwrap()).await;
    assert!(is_photo(original.pixel(2, 24)), "the original is untouched");
    let framed = picture(&app, image["image_frame"].as_str().unwrap()).await;
    assert!(is_red(framed.pixel(2, 24)) && is_photo(framed.pixel(32, 24)));
    let zip = app
        .get(&format!("/api/orders/{after}/download.zip?variant=frame"))
        .await;
    assert_eq!(zip.status(), 200);
    // A signed address names its file: another variant's signature opens nothing.
    let forged = image["image_frame"]
        .as_str()
        .unwrap()
        .replace("/frame?", "/original?");
    let path = forged
        .split_once("/api/")
        .map(|(_, p)| format!("/api/{p}"))
        .unwrap();
    assert_error(app.get(&path).await, 403, "invalid_signature").await;

    assert!(
        app.audit_actions(&admin)
            .await
            .iter()
            .any(|a| a == "frame.settings")
    );
}
