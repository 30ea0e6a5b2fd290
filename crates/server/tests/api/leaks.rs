//! The small leaks an outside probe found, each pinned by a test, one section per leak.

use std::io::Write;
use std::sync::{Arc, Mutex};

use base64::Engine as _;
use raceshot_domain::{GatewayKind, Money, OrderUuid, PaymentChannel, PaymentStatus};
use raceshot_payments::testing::{FakeGbp, FakeOpn};
use raceshot_server::infra::channels::ChannelKind;
use raceshot_server::jobs::kinds::SendMessage;
use raceshot_server::jobs::{BackgroundJob, JobContext, JobError};
use raceshot_server::services::commerce::payment;
use raceshot_server::services::messages::MessageKind;
use raceshot_store::Backend;
use raceshot_store::operators::Role;
use raceshot_store::orders::{NewOrder, Order};
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_error, event, json, now, oid};
use crate::orders::delivered;
use crate::smtp_sink::SmtpSink;

// ---------------------------------------------------------------------------------------
// 1. OPN webhooks: a fresh signature only
// ---------------------------------------------------------------------------------------

const OPN_SECRET: &str = "skey_test_5leaks";

fn webhook_secret() -> String {
    base64::engine::general_purpose::STANDARD.encode(b"raceshot leaks webhook key")
}

async fn post_webhook_signed_at(app: &TestApp, body: &[u8], at: i64) -> reqwest::Response {
    let at = at.to_string();
    let signature = FakeOpn::sign_webhook(&webhook_secret(), &at, body);
    app.client
        .post(app.url("/api/payments/opn/webhook"))
        .header("content-type", "application/json")
        .header("Omise-Signature", signature)
        .header("Omise-Signature-Timestamp", at)
        .body(body.to_vec())
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn opn_webhooks_signed_long_ago_or_in_the_future_are_refused() {
    let fake = FakeOpn::start(OPN_SECRET).await;
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(event("opn-fresh"))
        .with_env("RACESHOT__PAYMENTS__GATEWAY", "OPN")
        .with_env("RACESHOT__PAYMENTS__OPN__BASE_URL", &fake.base_url())
        .with_env("RACESHOT__PAYMENTS__OPN__PUBLIC_KEY", "pkey_test_5leaks")
        .with_env("RACESHOT__PAYMENTS__OPN__SECRET_KEY", OPN_SECRET)
        .with_env("RACESHOT__PAYMENTS__OPN__WEBHOOK_SECRET", &webhook_secret())
        .spawn()
        .await;
    // An event about no charge: a fresh one is acknowledged without asking OPN anything,
    // so freshness is all that differs between the deliveries below.
    let body = br#"{"object":"event","id":"evnt_test_1","key":"customer.create","data":{"object":"customer","id":"cust_test_1"}}"#;
    let at = now().timestamp();
    for age in [-6 * 60, 6 * 60, 24 * 3600, -30 * 24 * 3600] {
        let resp = post_webhook_signed_at(&app, body, at - age).await;
        assert_error(resp, 403, "invalid_signature").await;
    }
    for age in [0, 4 * 60, -4 * 60] {
        let resp = post_webhook_signed_at(&app, body, at - age).await;
        assert_eq!(
            resp.status(),
            200,
            "signed {age} s before the server's clock"
        );
    }
    assert!(fake.requests().is_empty(), "{:?}", fake.requests());
}

// ---------------------------------------------------------------------------------------
// 2. The GB Prime Pay callback token never reaches the logs
// ---------------------------------------------------------------------------------------

/// Log lines written on this thread while the guard lives.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

/// Captures every log line at every level, of every crate, written by tasks run on this
/// thread (the test's runtime has one thread, which the server's tasks share): the shop's
/// own code, the HTTP layer's request spans, the gateway client, the database driver.
fn capture_logs() -> (Captured, tracing::subscriber::DefaultGuard) {
    use tracing_subscriber::layer::SubscriberExt as _;
    let captured = Captured::default();
    let writer = captured.clone();
    let layer = tracing_subscriber::fmt::layer()
        .with_ansi(false)
        .with_writer(move || writer.clone());
    let subscriber = tracing_subscriber::registry()
        .with(layer)
        .with(tracing_subscriber::filter::LevelFilter::TRACE);
    let guard = tracing::subscriber::set_default(subscriber);
    tracing::callsite::rebuild_interest_cache();
    (captured, guard)
}

#[tokio::test]
async fn gbp_callback_tokens_never_reach_the_logs() {
    let (logs, _guard) = capture_logs();
    let fake = FakeGbp::start("gbp-leaks-token", "gbp-leaks-secret").await;
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(event("gbp-logs"))
        .with_env("RACESHOT__PAYMENTS__GATEWAY", "GBP")
        .with_env("RACESHOT__PAYMENTS__GBP__BASE_URL", &fake.base_url())
        .with_env("RACESHOT__PAYMENTS__GBP__TOKEN", "gbp-leaks-token")
        .with_env("RACESHOT__PAYMENTS__GBP__SECRET_KEY", "gbp-leaks-secret")
        .spawn()
        .await;
    let (_, uuid) = app.promptpay_order("gbp-logs", 1).await;
    let reference = app
        .store
        .order_by_uuid(oid(&uuid))
        .await
        .unwrap()
        .unwrap()
        .gateway_ref
        .unwrap();
    let token = app.state.links.gbp_callback_token(&oid(&uuid));
    let path = format!("/api/payments/gbp/{uuid}/{token}");

    // The path as logs show it.
    let logged = raceshot_server::infra::telemetry::loggable_path(&path.parse().unwrap());
    assert!(!logged.contains(&token), "{logged}");
    assert!(!logged.contains(&uuid), "{logged}");

    // A callback (the status check says unpaid), then one with a wrong token. Tests on
    // other threads, with no subscriber, may have had the HTTP layer's interest cached as
    // "never" while this one was starting: asked again now, it includes this thread's.
    tracing::callsite::rebuild_interest_cache();
    let resp = app
        .client
        .post(app.url(&path))
        .json(&fake.callback_body(&reference))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let flipped = if token.ends_with('0') { "1" } else { "0" };
    let wrong = format!("{}{flipped}", &token[..token.len() - 1]);
    let resp = app
        .client
        .post(app.url(&format!("/api/payments/gbp/{uuid}/{wrong}")))
        .json(&fake.callback_body(&reference))
        .send()
        .await
        .unwrap();
    assert_error(resp, 403, "invalid_signature").await;

    let text = logs.text();
    assert!(
        text.contains("/api/payments/gbp/"),
        "the request logs were captured: {text}"
    );
    for secret in [token.as_str(), wrong.as_str(), uuid.as_str()] {
        assert!(!text.contains(secret), "{secret} in the logs:\n{text}");
    }
}

// ---------------------------------------------------------------------------------------
// 3. No sandbox once it is not allowed
// ---------------------------------------------------------------------------------------

/// An order written straight to the store, as one made before a setting changed.
async fn stored_order(
    app: &TestApp,
    event_key: &str,
    gateway: GatewayKind,
    channel: PaymentChannel,
    status: PaymentStatus,
    email: Option<&str>,
) -> Order {
    let ids = app.ready_photos(event_key, 1).await;
    let event = app
        .store
        .event_by_key(&raceshot_domain::EventKey::parse(event_key).unwrap())
        .await
        .unwrap()
        .unwrap();
    let amount = if status == PaymentStatus::Paid {
        Money::ZERO
    } else {
        Money::from_satang(6_300).unwrap()
    };
    let order = NewOrder {
        uuid: OrderUuid::new_random(),
        event_id: event.id,
        mobile: "0812345678".into(),
        email: email.map(str::to_owned),
        deal: false,
        wholesale: false,
        photo_ids: ids,
        full_amount: amount,
        discount: Money::ZERO,
        amount,
        payment_fee: Money::ZERO,
        paid_amount: amount,
        payment_gateway: gateway,
        payment_channel: channel,
        payment_status: status,
        fingerprint: uuid::Uuid::new_v4().to_string(),
        am_order_ref: None,
        expires_at: None,
        pass_id: None,
        frame: None,
        certificate: None,
    };
    let created = app
        .store
        .create_order(&order, now(), |_| Vec::new(), now())
        .await
        .unwrap();
    created.order().unwrap().clone()
}

#[tokio::test]
async fn without_the_sandbox_no_page_or_answer_leads_to_it() {
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(event("no-sandbox"))
        .with_own_promptpay()
        .with_env("RACESHOT__PAYMENTS__ALLOW_SANDBOX", "false")
        .spawn()
        .await;
    // Sandbox orders from the days the sandbox was on, one with its QR leading to the page.
    let qr = stored_order(
        &app,
        "no-sandbox",
        GatewayKind::Sandbox,
        PaymentChannel::PromptPay,
        PaymentStatus::Initial,
        None,
    )
    .await;
    let page = format!("{}/sandbox/pay/{}", app.state.public_url, qr.uuid);
    let api_response = json!({ "qrcode": page }).to_string();
    app.store
        .set_order_payment(
            qr.id,
            Some("SBX000000000001"),
            Some(&page),
            Some(&api_response),
            None,
            now(),
        )
        .await
        .unwrap();
    let card = stored_order(
        &app,
        "no-sandbox",
        GatewayKind::Sandbox,
        PaymentChannel::Card,
        PaymentStatus::Initial,
        None,
    )
    .await;

    // The page and its buttons answer 404, as JSON, for any order.
    let unknown = OrderUuid::new_random();
    for uuid in [&qr.uuid, &card.uuid, &unknown] {
        for query in ["", "?card=1"] {
            let resp = app
                .client
                .get(app.url(&format!("/sandbox/pay/{uuid}{query}")))
                .send()
                .await
                .unwrap();
            assert_eq!(resp.headers()["content-type"], "application/json");
            assert_error(resp, 404, "not_found").await;
        }
        let resp = app
            .client
            .post(app.url(&format!("/sandbox/pay/{uuid}")))
            .form(&[("result", "paid")])
            .send()
            .await
            .unwrap();
        assert_error(resp, 404, "not_found").await;
        assert_error(
            app.sandbox_pay(&uuid.to_string(), "paid").await,
            404,
            "not_found",
        )
        .await;
    }

    // No answer carries a sandbox link: the inquiries, the card payment.
    for path in ["/v3/order/inquiry", "/v1/order/inquiry"] {
        for uuid in [&qr.uuid, &card.uuid] {
            let resp = app.post(path, &json!({ "order_uuid": uuid })).await;
            assert_eq!(resp.status(), 200);
            let text = resp.text().await.unwrap();
            assert!(!text.contains("/sandbox/"), "{path}: {text}");
        }
    }
    let resp = app
        .post(
            "/v3/order/opn-cc-payment",
            &json!({ "token_key": "tokn_test_1", "uuid": card.uuid, "mobile": "0812345678",
                     "paid_amount": 6_300 }),
        )
        .await;
    let status = resp.status();
    let text = resp.text().await.unwrap();
    assert!(!status.is_success(), "{status} {text}");
    assert!(!text.contains("/sandbox/"), "{text}");
    assert_eq!(
        app.store
            .order_by_id(qr.id)
            .await
            .unwrap()
            .unwrap()
            .payment_status,
        PaymentStatus::Initial
    );

    // What gateways are told of an order holds no sandbox page either.
    for order in [&qr, &card] {
        let request = payment::payment_request(&app.state.commerce(), order);
        assert_eq!(request.sandbox_page_url, "", "{request:?}");
    }

    // A new order goes through PROMPTPAY; its answers have no sandbox link.
    let ids = app.ready_photos("no-sandbox", 1).await;
    let body = app.order_body("no-sandbox", &ids, "PP").await;
    let resp = app.post("/v3/order/create", &body).await;
    let text = resp.text().await.unwrap();
    assert!(!text.contains("/sandbox/"), "{text}");
    let created: Value = serde_json::from_str(&text).unwrap();
    let uuid = created["uuid"].as_str().unwrap();
    let answer = app.inquiry(uuid).await;
    assert_eq!(answer["payment_gateway"], "PROMPTPAY");
    assert!(!answer.to_string().contains("/sandbox/"), "{answer}");
    let mut sandbox_body = body.clone();
    sandbox_body["payment_gateway"] = json!("SANDBOX");
    assert_error(
        app.post("/v3/order/create", &sandbox_body).await,
        409,
        "payment_gateway_changed",
    )
    .await;
}

// ---------------------------------------------------------------------------------------
// 4. The audit log names accounts by id and stores no control characters
// ---------------------------------------------------------------------------------------

fn has_hidden_characters(text: &str) -> bool {
    text.chars()
        .any(|c| c.is_control() || ('\u{202A}'..='\u{202E}').contains(&c))
}

#[tokio::test]
async fn the_audit_log_names_actors_by_id_never_by_typed_text() {
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(event("audit-run"))
        .with_own_promptpay()
        .with_env("RACESHOT__ADMIN__LOGIN_PER_CLIENT_PER_MINUTE", "100")
        .spawn()
        .await;
    app.account("boss@example.com", Role::Admin, &[]).await;
    let boss = app
        .store
        .operator_by_email("boss@example.com")
        .await
        .unwrap()
        .unwrap();

    // Typed into the sign-in form: an address with terminal escapes and a line break.
    let typed = "ghost\u{1b}[2J\n\u{202e}moc.elpmaxe@x";
    for email in [typed, typed, "other-ghost@example.com"] {
        let resp = app.login(email, "wrong password!").await;
        assert_error(resp, 401, "invalid_credentials").await;
    }
    let resp = app.login("boss@example.com", "wrong password!").await;
    assert_error(resp, 401, "invalid_credentials").await;
    let admin = app.sign_in("boss@example.com").await;

    // A slip reference with control characters, confirmed by the admin.
    let (_, uuid) = app.promptpay_order("audit-run", 1).await;
    let confirmed = app
        .call(
            Method::POST,
            &format!("/api/admin/orders/{uuid}/confirm"),
            Some(&admin),
            Some(json!({ "slip_ref": "SLIP\u{1b}[31m\r\n0042\u{202e}AB12" })),
        )
        .await;
    assert!(confirmed.status().is_success(), "{}", confirmed.status());

    let entries = app.store.audit_entries(None, 100).await.unwrap();
    let account_actor = format!("operator:{}", boss.id);
    for entry in &entries {
        let text = format!("{} {} {}", entry.actor, entry.target, entry.detail);
        assert!(!has_hidden_characters(&text), "{text:?}");
        assert!(!text.contains("ghost"), "{text:?}");
        assert!(!text.contains("boss@example.com"), "{text:?}");
    }
    let failed: Vec<&str> = entries
        .iter()
        .filter(|e| e.action == "operator.login_failed")
        .map(|e| e.actor.as_str())
        .collect();
    assert_eq!(failed.len(), 4, "{entries:#?}");
    // Newest first: the account's own failure, the other address, then the typed one twice.
    assert_eq!(failed[0], account_actor);
    let unknown = |actor: &str| {
        actor
            .strip_prefix("unknown:")
            .is_some_and(|h| h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit()))
    };
    assert!(failed[1..].iter().all(|a| unknown(a)), "{failed:?}");
    assert_eq!(failed[2], failed[3], "the same address, the same actor");
    assert_ne!(failed[1], failed[2], "another address, another actor");
    for action in ["operator.login", "order.confirm"] {
        assert!(
            entries
                .iter()
                .any(|e| e.action == action && e.actor == account_actor),
            "{action}: {entries:#?}"
        );
    }

    // The console shows who: the account's e-mail beside its id.
    let page = json(
        app.call(Method::GET, "/api/admin/audit", Some(&admin), None)
            .await,
    )
    .await;
    let shown = page["entries"].as_array().unwrap();
    assert!(
        shown
            .iter()
            .filter(|e| e["actor"] == account_actor.as_str())
            .all(|e| e["actor_email"] == "boss@example.com"),
        "{page}"
    );
    assert!(
        shown
            .iter()
            .filter(|e| e["actor"].as_str().is_some_and(unknown))
            .all(|e| e["actor_email"].is_null()),
        "{page}"
    );
}

// ---------------------------------------------------------------------------------------
// 5. E-mail addresses as the mail transport takes them
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn order_emails_are_refused_or_stored_as_the_mail_transport_takes_them() {
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(event("mail-run"))
        .spawn()
        .await;
    let ids = app.ready_photos("mail-run", 1).await;
    let body = app.order_body("mail-run", &ids, "PP").await;

    // A domain in Thai script: kept in its ASCII (punycode) form.
    let mut thai = body.clone();
    thai["email"] = json!("runner@ตัวอย่าง.ไทย");
    let uuid = app.create_order("/v3/order/create", &thai).await;
    let stored = app.store.order_by_uuid(oid(&uuid)).await.unwrap().unwrap();
    let email = stored.email.unwrap();
    assert_eq!(email, "runner@xn--72c1a1bt4awk9o.xn--o3cw4h");
    assert!(email.parse::<lettre::Address>().is_ok());

    // A control character; a domain lettre refuses (a label opening with a combining
    // mark); a mailbox name outside ASCII, which needs SMTPUTF8.
    for bad in [
        "run\u{7}ner@example.com",
        "runner@\u{0E31}abc.com",
        "นักวิ่ง@example.com",
    ] {
        let mut refused = body.clone();
        refused["email"] = json!(bad);
        let resp = app.post("/v3/order/create", &refused).await;
        let answer = assert_error(resp, 422, "invalid_field").await;
        assert_eq!(answer["field"], "email", "{bad:?}: {answer}");
    }
}

/// Runs the job that mails the order's news once, as a worker would.
async fn notify(app: &TestApp, order_id: i64) -> Result<(), JobError> {
    let ctx = JobContext {
        state: &app.state,
        job_id: 0,
        worker: "test",
    };
    let job = SendMessage {
        kind: MessageKind::OrderReady,
        subject: order_id.to_string(),
        channel: ChannelKind::Email,
    };
    job.run(&ctx).await
}

#[tokio::test]
async fn an_undeliverable_address_ends_the_notify_job_at_once() {
    let sink = SmtpSink::start().await;
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(event("mail-job"))
        .with_env("RACESHOT__NOTIFY__SMTP__HOST", "127.0.0.1")
        .with_env("RACESHOT__NOTIFY__SMTP__PORT", &sink.port().to_string())
        .with_env(
            "RACESHOT__NOTIFY__SMTP__FROM",
            "Raceshot <shop@raceshot.test>",
        )
        .with_env("RACESHOT__NOTIFY__SMTP__TLS", "none")
        .spawn()
        .await;
    // Orders stored before addresses were checked as the transport takes them.
    for undeliverable in ["นักวิ่ง@example.com", "runner@\u{0E31}abc.com"] {
        let order = stored_order(
            &app,
            "mail-job",
            GatewayKind::Sandbox,
            PaymentChannel::Free,
            PaymentStatus::Paid,
            Some(undeliverable),
        )
        .await;
        let result = notify(&app, order.id).await;
        assert!(
            matches!(&result, Err(JobError::Permanent(_))),
            "{undeliverable:?}: {result:?}"
        );
        let order = app.store.order_by_id(order.id).await.unwrap().unwrap();
        assert!(!order.is_send_email);
    }
    // A domain in Thai script stored as typed is mailed to its ASCII form.
    let order = stored_order(
        &app,
        "mail-job",
        GatewayKind::Sandbox,
        PaymentChannel::Free,
        PaymentStatus::Paid,
        Some("runner@ตัวอย่าง.ไทย"),
    )
    .await;
    let result = notify(&app, order.id).await;
    assert!(result.is_ok(), "{result:?}");
    let received = sink.wait_for(1, std::time::Duration::from_secs(10)).await;
    assert_eq!(received[0].to, ["runner@xn--72c1a1bt4awk9o.xn--o3cw4h"]);
}

// ---------------------------------------------------------------------------------------
// 6. The shop logo has a pixel limit
// ---------------------------------------------------------------------------------------

/// A PNG of `width` × `height` black pixels at one bit each: small however large it says
/// it is.
fn blank_png(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Grayscale);
        encoder.set_depth(png::BitDepth::One);
        let mut writer = encoder.write_header().unwrap();
        let row = vec![0u8; width.div_ceil(8) as usize];
        writer
            .write_image_data(&row.repeat(height as usize))
            .unwrap();
    }
    out
}

#[tokio::test]
async fn logos_declaring_too_many_pixels_are_refused() {
    let app = TestApp::builder(Backend::Sqlite).spawn().await;
    app.account("boss@example.com", Role::Admin, &[]).await;
    let admin = app.sign_in("boss@example.com").await;
    let put = |png: Vec<u8>| {
        app.client
            .put(app.url("/api/admin/settings/logo"))
            .header("cookie", &admin)
            .header("content-type", "image/png")
            .body(png)
            .send()
    };
    let mut bombs: Vec<Vec<u8>> = [(5000, 5000), (4200, 1001), (2049, 2048)]
        .into_iter()
        .map(|(width, height)| blank_png(width, height))
        .collect();
    // Only a header, declaring 100,000 × 100,000 pixels: a few dozen bytes.
    let mut header = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    header.extend_from_slice(&100_000u32.to_be_bytes());
    header.extend_from_slice(&100_000u32.to_be_bytes());
    header.extend_from_slice(&[8, 2, 0, 0, 0]);
    let crc = raceshot_vision::image_io::crc32(&header[12..]);
    header.extend_from_slice(&crc.to_be_bytes());
    bombs.push(header);
    for bomb in bombs {
        assert!(bomb.len() < 2 * 1024 * 1024, "{}", bomb.len());
        assert_error(put(bomb).await.unwrap(), 422, "image_too_many_pixels").await;
    }
    let none = app
        .call(Method::GET, "/api/admin/settings/logo", Some(&admin), None)
        .await;
    assert_error(none, 404, "not_found").await;
    assert_eq!(put(blank_png(2048, 2048)).await.unwrap().status(), 204);
}

// ---------------------------------------------------------------------------------------
// 7. ETags of originals say nothing of the file on disk
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn etags_of_originals_show_no_inode_nor_modification_time() {
    use std::os::unix::fs::MetadataExt as _;

    let app = TestApp::builder(Backend::Sqlite)
        .with_event(event("etag-run"))
        .spawn()
        .await;
    let (_, uuid) = app.promptpay_order("etag-run", 1).await;
    assert_eq!(app.sandbox_pay(&uuid, "paid").await.status(), 200);
    let paid = app.inquiry_until(&uuid, delivered).await;
    let images: Value = serde_json::from_str(paid["images_paid"].as_str().unwrap()).unwrap();
    let url = images[0]["image"].as_str().unwrap().to_owned();

    let order = app.store.order_by_uuid(oid(&uuid)).await.unwrap().unwrap();
    let photo = app.store.order_photos(order.id).await.unwrap().remove(0);
    let file = app
        .data_dir
        .join("objects")
        .join("etag-run")
        .join("original")
        .join(&photo.storage_name);
    let meta = std::fs::metadata(&file).unwrap();
    let inode = format!("{:x}", meta.ino());
    let mtime_micros = meta.mtime() * 1_000_000 + meta.mtime_nsec() / 1_000;
    let mtime = format!("{mtime_micros:x}");

    let download = app.client.get(&url).send().await.unwrap();
    assert_eq!(download.status(), 200);
    let etag = download.headers()["etag"].to_str().unwrap().to_owned();
    let bytes = download.bytes().await.unwrap();
    assert_eq!(bytes.len() as u64, meta.len());
    assert!(!etag.contains(&mtime), "{etag} holds the mtime {mtime}");
    assert!(
        !etag.contains(&format!("{inode}-")),
        "{etag} holds the inode {inode}"
    );
    if inode.len() >= 5 {
        assert!(!etag.contains(&inode), "{etag} holds the inode {inode}");
    }
    assert!(!etag.contains(&format!("-{:x}", meta.len())), "{etag}");

    // The same file, the same tag; ranges with `If-Range` still work with it.
    let again = app.client.get(&url).send().await.unwrap();
    assert_eq!(again.headers()["etag"].to_str().unwrap(), etag);
    let partial = app
        .client
        .get(&url)
        .header("range", "bytes=0-9")
        .header("if-range", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(partial.status(), 206);
    assert_eq!(partial.bytes().await.unwrap().len(), 10);
    let stale = app
        .client
        .get(&url)
        .header("range", "bytes=0-9")
        .header("if-range", "\"0-0-0\"")
        .send()
        .await
        .unwrap();
    assert_eq!(stale.status(), 200);
}
