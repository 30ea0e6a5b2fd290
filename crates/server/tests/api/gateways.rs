//! Orders through the real gateway adapters, against the local fake GB Prime Pay and OPN
//! servers (and the shop's own PromptPay QR): what each gateway is sent, field by field;
//! that callbacks and webhooks are only hints, confirmed with the gateway before an order
//! is paid, and that replays pay it once; the operator's CLI for slips and AM orders; and
//! the order-ready e-mail.

use std::collections::BTreeMap;
use std::process::Output;
use std::time::{Duration, Instant};

use base64::Engine as _;
use raceshot_domain::event::PackageInput;
use raceshot_domain::{Flag, PaymentStatus};
use raceshot_payments::promptpay::{parse_fields, verify_crc};
use raceshot_payments::testing::{FAKE_QR_PNG, FakeGbp, FakeOpn, RecordedRequest};
use raceshot_server::jobs::kinds::DeliverOrder;
use raceshot_server::jobs::kinds::Retention;
use raceshot_server::jobs::kinds::SendMessage;
use raceshot_server::jobs::{self, Job, JobContext};
use raceshot_store::Backend;
use raceshot_store::orders::{Order, OrderLookup, PaymentRecord};
use serde_json::json;

use crate::helpers::{
    TOKEN, TestApp, TestAppBuilder, assert_error, event, json, models_dir, now, oid,
};
use crate::orders::{delivered, image_list};
use crate::smtp_sink::{SmtpSink, parse};

crate::both_backends!(gbp_promptpay_is_paid_on_the_gateways_word_once);

const GBP_TOKEN: &str = "gbp-merchant-token-1";
const GBP_SECRET: &str = "gbp-secret-key-1";
const OPN_SECRET: &str = "skey_test_5raceshot";
const OPN_PUBLIC: &str = "pkey_test_5raceshot";
/// A gateway message is replayed this many times, the first [`AT_ONCE`] concurrently.
const REPLAYS: usize = 100;
const AT_ONCE: usize = 25;
const MOBILE: &str = "0812345678";
const BUYER: &str = "runner@example.com";

/// The settings of a shop taking PromptPay by its own QR; the CLI runs with them too.
const PROMPTPAY_ENV: [(&str, &str); 2] = [
    ("RACESHOT__PAYMENTS__GATEWAY", "PROMPTPAY"),
    ("RACESHOT__PAYMENTS__PROMPTPAY_ID", "0801234567"),
];

fn with_envs(mut builder: TestAppBuilder, env: &[(&str, &str)]) -> TestAppBuilder {
    for (key, value) in env {
        builder = builder.with_env(key, value);
    }
    builder
}

fn gbp_env(base_url: &str) -> Vec<(&'static str, String)> {
    vec![
        ("RACESHOT__PAYMENTS__GATEWAY", "GBP".to_owned()),
        ("RACESHOT__PAYMENTS__GBP__BASE_URL", base_url.to_owned()),
        ("RACESHOT__PAYMENTS__GBP__TOKEN", GBP_TOKEN.to_owned()),
        ("RACESHOT__PAYMENTS__GBP__SECRET_KEY", GBP_SECRET.to_owned()),
        ("RACESHOT__PAYMENTS__GATEWAY_TIMEOUT_SECS", "1".to_owned()),
    ]
}

async fn gbp_app(backend: Backend, base_url: &str, event_key: &str) -> TestApp {
    let env = gbp_env(base_url);
    let pairs: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    with_envs(
        TestApp::builder(backend).with_event(event(event_key)),
        &pairs,
    )
    .spawn()
    .await
}

/// The webhook secret of OPN apps that do not choose their own (base64, as OPN gives it).
fn default_webhook_secret() -> String {
    base64::engine::general_purpose::STANDARD.encode(b"raceshot test webhook key")
}

async fn opn_app(fake: &FakeOpn, event_key: &str, webhook_secret: Option<&str>) -> TestApp {
    let secret = webhook_secret.map_or_else(default_webhook_secret, str::to_owned);
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(event(event_key))
        .with_env("RACESHOT__PAYMENTS__GATEWAY", "OPN")
        .with_env("RACESHOT__PAYMENTS__OPN__BASE_URL", &fake.base_url())
        .with_env("RACESHOT__PAYMENTS__OPN__PUBLIC_KEY", OPN_PUBLIC)
        .with_env("RACESHOT__PAYMENTS__OPN__SECRET_KEY", OPN_SECRET)
        .with_env("RACESHOT__PAYMENTS__OPN__WEBHOOK_SECRET", &secret)
        .spawn()
        .await;
    housekeeping_done(&app).await;
    app
}

/// Waits for the app's first housekeeping pass, which expires unpaid orders past their
/// window and then enqueues the retention run (the first job of a fresh database). The
/// fake OPN dates a PromptPay charge's `expires_at` by the real clock, which may be before
/// the app's fixed `now()`: an order made before that pass could be expired by it.
async fn housekeeping_done(app: &TestApp) {
    for _ in 0..200 {
        if app.store.job_state(1).await.unwrap().is_some() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("housekeeping never ran");
}

/// Runs the jobs of an order the CLI paid. The CLI dates them by the real clock, and the
/// test app's workers, living at the fixed `now()`, reach them only while the real date is
/// before it; so the test claims due jobs too, at whichever time is later (jobs are leased
/// and idempotent, so it does not matter who runs them).
async fn run_cli_enqueued_jobs(app: &TestApp) {
    let at = chrono::Utc::now().max(now());
    let lease = app.state.config.jobs.lease;
    let worker = "gateways-test";
    while let Some(job) = app
        .store
        .claim_job(jobs::HEAVY, worker, lease, at)
        .await
        .unwrap()
    {
        let expected = [DeliverOrder::KIND, SendMessage::KIND, Retention::KIND];
        assert!(
            expected.contains(&job.kind.as_str()),
            "unexpected job {}",
            job.kind
        );
        let ctx = JobContext {
            state: &app.state,
            job_id: job.id,
            worker,
        };
        let done = jobs::registry::job_of(&job).unwrap().run(&ctx).await;
        done.unwrap();
        app.store.complete_job(job.id, worker, at).await.unwrap();
    }
}

async fn stored(app: &TestApp, uuid: &str) -> Order {
    app.store.order_by_uuid(oid(uuid)).await.unwrap().unwrap()
}

async fn trail(app: &TestApp, order: &Order) -> Vec<PaymentRecord> {
    app.store.payment_trail(order.id).await.unwrap()
}

fn count(trail: &[PaymentRecord], kind: &str) -> usize {
    trail.iter().filter(|t| t.kind == kind).count()
}

/// A receipt the shop made itself (gateways' own references can be sequential): four
/// characters that cannot be mistaken for each other.
fn is_shop_receipt(receipt: &str) -> bool {
    receipt.len() == 4
        && receipt
            .chars()
            .all(|c| "ABCDEFGHJKLMNPQRSTUVWXYZ23456789".contains(c))
}

fn form(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

fn assert_gbp_status_check(request: &RecordedRequest, reference: &str) {
    assert_eq!(
        (request.method.as_str(), request.path.as_str()),
        ("POST", "/v1/check_status_txn")
    );
    assert_eq!(
        request.basic_auth(),
        Some((GBP_SECRET.to_owned(), String::new())),
        "Basic auth with the secret key"
    );
    assert!(
        request
            .header("content-type")
            .is_some_and(|c| c.starts_with("application/json")),
        "{request:?}"
    );
    assert_eq!(request.json, Some(json!({ "referenceNo": reference })));
}

/// Every OPN API call: Basic auth with the secret key and the pinned API version.
fn assert_opn_api_call(request: &RecordedRequest, method: &str, path: &str) {
    assert_eq!(
        (request.method.as_str(), request.path.as_str()),
        (method, path),
        "{request:?}"
    );
    assert_eq!(
        request.basic_auth(),
        Some((OPN_SECRET.to_owned(), String::new()))
    );
    assert_eq!(request.header("omise-version"), Some("2019-05-29"));
    if method == "POST" {
        assert!(
            request
                .header("content-type")
                .is_some_and(|c| c.starts_with("application/x-www-form-urlencoded")),
            "{request:?}"
        );
    }
}

async fn post_webhook(app: &TestApp, body: &[u8], headers: &[(&str, &str)]) -> reqwest::Response {
    let mut request = app
        .client
        .post(app.url("/api/payments/opn/webhook"))
        .header("content-type", "application/json")
        .body(body.to_vec());
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().await.unwrap()
}

/// Posts a webhook signed with the default secret, as OPN sends it: its status.
async fn post_signed_webhook(app: &TestApp, body: &[u8]) -> u16 {
    let resp = signed_webhook(app, body).send().await.unwrap();
    resp.status().as_u16()
}

/// A webhook signed with the default secret, as OPN sends it: at the app's `now()`.
fn signed_webhook(app: &TestApp, body: &[u8]) -> reqwest::RequestBuilder {
    let at = now().timestamp().to_string();
    let signature = FakeOpn::sign_webhook(&default_webhook_secret(), &at, body);
    app.client
        .post(app.url("/api/payments/opn/webhook"))
        .header("content-type", "application/json")
        .header("Omise-Signature", signature)
        .header("Omise-Signature-Timestamp", at)
        .body(body.to_vec())
}

async fn card_payment(app: &TestApp, uuid: &str, token: &str, satang: i64) -> reqwest::Response {
    app.post(
        "/v3/order/opn-cc-payment",
        &json!({ "token_key": token, "uuid": uuid, "email": BUYER, "mobile": MOBILE, "paid_amount": satang }),
    )
    .await
}

/// Sends the same request `times` times, the first `concurrent` of them at once; every
/// answer must be 200.
async fn replay<F, Fut>(times: usize, concurrent: usize, send: F)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = reqwest::Result<reqwest::Response>>,
{
    let burst = futures::future::join_all((0..concurrent).map(|_| send())).await;
    for answer in burst {
        assert_eq!(answer.unwrap().status(), 200);
    }
    for _ in concurrent..times {
        assert_eq!(send().await.unwrap().status(), 200);
    }
}

/// Runs the `raceshot` binary against the app's database and storage.
async fn raceshot(app: &TestApp, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_raceshot"));
    command
        .args(args)
        .env("RACESHOT__DATA_DIR", &app.data_dir)
        .env("RACESHOT__DATABASE__URL", &app.state.config.database.url)
        .env("RACESHOT__FACES__MODELS_DIR", models_dir())
        .env("RACESHOT__API__CLIENT_TOKEN", TOKEN)
        .env("RACESHOT__PAYMENTS__ALLOW_SANDBOX", "true");
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().await.unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

async fn orders_of_buyer(app: &TestApp) -> Vec<String> {
    app.store
        .find_orders(OrderLookup::Mobile(MOBILE), 50)
        .await
        .unwrap()
        .into_iter()
        .map(|o| o.uuid.to_string())
        .collect()
}

/// 1. GB Prime Pay QR Cash.
async fn gbp_promptpay_is_paid_on_the_gateways_word_once(backend: Backend) {
    let fake = FakeGbp::start(GBP_TOKEN, GBP_SECRET).await;
    let app = gbp_app(backend, &fake.base_url(), "gbp-run").await;
    let ids = app.ready_photos("gbp-run", 5).await;

    // The QR request, field by field: 2 × 60 + 5% = 126.00.
    let body = app.order_body("gbp-run", &ids[..2], "PP").await;
    let uuid = app.create_order("/v1/order/create", &body).await;
    let order = stored(&app, &uuid).await;
    let reference = order.gateway_ref.clone().unwrap();
    let sent = fake.requests();
    assert_eq!(sent.len(), 1, "{sent:#?}");
    let qr = &sent[0];
    assert_eq!(
        (qr.method.as_str(), qr.path.as_str()),
        ("POST", "/v3/qrcode")
    );
    assert!(
        qr.header("content-type")
            .is_some_and(|c| c.starts_with("application/x-www-form-urlencoded"))
    );
    assert_eq!(
        qr.header("authorization"),
        None,
        "the token travels in the form"
    );
    let token = app.state.links.gbp_callback_token(&oid(&uuid));
    let callback_url = app.url(&format!("/api/payments/gbp/{uuid}/{token}"));
    let paid_text = format!("{:.2}", body["paid_amount"].as_f64().unwrap());
    assert_eq!(paid_text, "126.00");
    assert_eq!(order.paid_amount.baht_text(), paid_text);
    assert!((1..=15).contains(&reference.chars().count()), "{reference}");
    assert_eq!(
        qr.form,
        form(&[
            ("token", GBP_TOKEN),
            ("amount", &paid_text),
            ("referenceNo", &reference),
            ("backgroundUrl", &callback_url),
            ("detail", "Raceshot gbp-run"),
            ("customerTelephone", MOBILE),
            ("customerEmail", BUYER),
        ])
    );

    // The order page shows the shop's copy of the QR; its first look asks GB Prime Pay.
    let page = app.inquiry(&uuid).await;
    assert_eq!(page["payment_status"], "INITIAL");
    assert_eq!(page["payment_gateway"], "GBP");
    assert_eq!(page["payment_channel"], "PP");
    assert_eq!(page["sandbox"], false);
    let qr_url = app.url(&format!("/api/orders/{uuid}/qr.png"));
    assert_eq!(page["qrcode_url"], qr_url.as_str());
    let png = app.client.get(&qr_url).send().await.unwrap();
    assert_eq!(png.status(), 200);
    assert_eq!(png.headers()["content-type"], "image/png");
    assert_eq!(png.bytes().await.unwrap().as_ref(), FAKE_QR_PNG);
    let sent = fake.requests();
    assert_eq!(sent.len(), 2);
    assert_gbp_status_check(&sent[1], &reference);

    // A callback before the runner paid: the status check says unpaid, nothing changes.
    let early = fake.callback_body(&reference);
    let resp = app
        .client
        .post(&callback_url)
        .json(&early)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(json(resp).await["status"], "success");
    let sent = fake.requests();
    assert_eq!(sent.len(), 3);
    assert_gbp_status_check(&sent[2], &reference);
    assert_eq!(
        stored(&app, &uuid).await.payment_status,
        PaymentStatus::Initial
    );

    // A callback address with another token is refused before anything is asked.
    let mut flipped = token.clone();
    let last = if flipped.ends_with('0') { "1" } else { "0" };
    flipped.replace_range(flipped.len() - 1.., last);
    let foreign = app
        .state
        .links
        .gbp_callback_token(&oid("00000000-0000-4000-8000-000000000000"));
    for bad in [flipped.as_str(), foreign.as_str(), "x"] {
        let resp = app
            .client
            .post(app.url(&format!("/api/payments/gbp/{uuid}/{bad}")))
            .json(&early)
            .send()
            .await
            .unwrap();
        assert_error(resp, 403, "invalid_signature").await;
    }
    assert_eq!(
        fake.requests().len(),
        3,
        "a refused callback asks the gateway nothing"
    );

    // Paid: the same callback replayed 100 times, 25 of them at once, pays the order once.
    fake.pay(&reference);
    replay(REPLAYS, AT_ONCE, || {
        app.client.post(&callback_url).json(&early).send()
    })
    .await;
    let order = stored(&app, &uuid).await;
    assert_eq!(order.payment_status, PaymentStatus::Paid);
    let gbp_reference = early["gbpReferenceNo"].as_str().unwrap();
    assert_eq!(
        fake.callback_body(&reference)["gbpReferenceNo"],
        gbp_reference
    );
    assert!(
        order.receipt_ref.as_deref().is_some_and(is_shop_receipt),
        "{:?}",
        order.receipt_ref
    );
    let checks_after_pay = fake.requests()[3..]
        .iter()
        .filter(|r| r.path == "/v1/check_status_txn")
        .inspect(|r| assert_gbp_status_check(r, &reference))
        .count();
    assert!(
        (1..=AT_ONCE).contains(&checks_after_pay),
        "only callbacks that found the order unpaid ask: {checks_after_pay}"
    );
    let entries = trail(&app, &order).await;
    assert_eq!(count(&entries, "status_check:paid"), 1, "{entries:#?}");
    assert_eq!(count(&entries, "status_check:unpaid"), 1, "{entries:#?}");
    assert_eq!(
        count(&entries, "callback"),
        1,
        "replays are kept once: {entries:#?}"
    );
    let done = app
        .inquiry_until(&uuid, |b| b["is_original_image_created"] == "Y")
        .await;
    assert_eq!(done["payment_status"], "PAID");
    assert!(
        done["receipt_ref"].as_str().is_some_and(is_shop_receipt),
        "{}",
        done["receipt_ref"]
    );

    // The gateway fails (5xx) at create: 502; the same request again is the same order,
    // whose QR is made now under the same reference.
    let before = orders_of_buyer(&app).await;
    let body = app.order_body("gbp-run", &ids[2..3], "PP").await;
    fake.fail_next(500, 1);
    let resp = app.post("/v1/order/create", &body).await;
    assert_eq!(
        resp.headers().get("retry-after").map(|v| v.as_bytes()),
        Some(&b"5"[..])
    );
    assert_error(resp, 502, "payment_gateway_error").await;
    let failed_at = fake.requests().len();
    let uuid = app.create_order("/v1/order/create", &body).await;
    let after = orders_of_buyer(&app).await;
    assert_eq!(after.len(), before.len() + 1, "one order for both requests");
    assert_eq!(after[0], uuid);
    let order = stored(&app, &uuid).await;
    let sent = fake.requests();
    let (failed, made) = (&sent[failed_at - 1], &sent[failed_at]);
    assert_eq!(
        (failed.path.as_str(), made.path.as_str()),
        ("/v3/qrcode", "/v3/qrcode")
    );
    assert_eq!(failed.form["referenceNo"], made.form["referenceNo"]);
    assert_eq!(
        order.gateway_ref.as_deref(),
        Some(made.form["referenceNo"].as_str())
    );
    let page = app.inquiry(&uuid).await;
    let qr_url = app.url(&format!("/api/orders/{uuid}/qr.png"));
    assert_eq!(page["qrcode_url"], qr_url.as_str());
    assert_eq!(app.client.get(&qr_url).send().await.unwrap().status(), 200);

    // The gateway answers too late (timeout 1 s): 504, and a retry is the same order and
    // gets the QR.
    let before = orders_of_buyer(&app).await;
    let body = app.order_body("gbp-run", &ids[3..4], "PP").await;
    fake.delay_next(Duration::from_secs(3), 1);
    let started = Instant::now();
    assert_error(
        app.post("/v1/order/create", &body).await,
        504,
        "payment_gateway_timeout",
    )
    .await;
    assert!(
        started.elapsed() < Duration::from_millis(2500),
        "{:?}",
        started.elapsed()
    );
    let uuid = app.create_order("/v1/order/create", &body).await;
    assert_eq!(orders_of_buyer(&app).await.len(), before.len() + 1);
    assert!(stored(&app, &uuid).await.qrcode_url.is_some());

    // Paid with no callback at all: the order page's look asks and finds it paid.
    let body = app.order_body("gbp-run", &ids[4..5], "PP").await;
    let uuid = app.create_order("/v1/order/create", &body).await;
    let order = stored(&app, &uuid).await;
    let reference = order.gateway_ref.clone().unwrap();
    fake.pay(&reference);
    let page = app.inquiry(&uuid).await;
    assert_eq!(page["payment_status"], "PAID");
    assert_gbp_status_check(fake.requests().last().unwrap(), &reference);
    let entries = trail(&app, &order).await;
    assert_eq!(count(&entries, "callback"), 0);
    assert_eq!(count(&entries, "status_check:paid"), 1);
}

/// 2. OPN PromptPay: a source, then a charge; webhooks only prompt a re-read.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn opn_promptpay_is_paid_from_the_charge_as_opn_tells_it() {
    let fake = FakeOpn::start(OPN_SECRET).await;
    let app = opn_app(&fake, "opn-run", None).await;
    let ids = app.ready_photos("opn-run", 1).await;
    let body = app.order_body("opn-run", &ids, "PP").await;
    let uuid = app.create_order("/v3/order/create", &body).await;
    let order = stored(&app, &uuid).await;
    let satang = order.paid_amount.satang().to_string();
    assert_eq!(satang, "6300");

    let sent = fake.requests();
    assert_eq!(sent.len(), 2, "{sent:#?}");
    assert_opn_api_call(&sent[0], "POST", "/sources");
    assert_eq!(
        sent[0].form,
        form(&[
            ("type", "promptpay"),
            ("amount", &satang),
            ("currency", "thb")
        ])
    );
    let charge_id = fake.charge_ids()[0].clone();
    let charge = fake.charge(&charge_id).unwrap();
    let source_id = charge["source"]["id"].as_str().unwrap().to_owned();
    assert_opn_api_call(&sent[1], "POST", "/charges");
    assert_eq!(
        sent[1].form,
        form(&[
            ("amount", &satang),
            ("currency", "thb"),
            ("source", &source_id),
            ("description", &format!("Raceshot order {uuid} (opn-run)")),
            ("metadata[order_uuid]", &uuid),
        ])
    );
    assert_eq!(order.gateway_ref.as_deref(), Some(charge_id.as_str()));

    // The QR is OPN's image; the page's first look re-reads the charge.
    let page = app.inquiry(&uuid).await;
    assert_eq!(page["payment_status"], "INITIAL");
    assert_eq!(page["payment_gateway"], "OPN");
    let qr_url = format!("{}/qr/{source_id}.svg", fake.base_url());
    assert_eq!(page["qrcode_url"], qr_url.as_str());
    assert_opn_api_call(&fake.requests()[2], "GET", &format!("/charges/{charge_id}"));
    let image = reqwest::get(&qr_url).await.unwrap();
    assert_eq!(image.status(), 200);
    assert_eq!(image.headers()["content-type"], "image/svg+xml");
    let shown = fake.requests();
    assert_eq!(shown.len(), 4);
    assert_eq!(shown[3].path, format!("/qr/{source_id}.svg"));
    assert_eq!(
        shown[3].header("authorization"),
        None,
        "the buyer's phone has no key"
    );

    // A webhook while the charge is pending: re-read, still unpaid.
    let early = serde_json::to_vec(&fake.webhook_body(&charge_id)).unwrap();
    let resp = signed_webhook(&app, &early).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(json(resp).await["status"], "success");
    let sent = fake.requests();
    assert_eq!(sent.len(), 5);
    assert_opn_api_call(&sent[4], "GET", &format!("/charges/{charge_id}"));
    assert_eq!(
        stored(&app, &uuid).await.payment_status,
        PaymentStatus::Initial
    );

    // Paid: the same webhook (whose body still says pending) replayed 100 times, 25 at
    // once, pays the order once: the charge as OPN tells it now is what counts.
    fake.complete_charge(&charge_id, "successful");
    replay(REPLAYS, AT_ONCE, || signed_webhook(&app, &early).send()).await;
    let order = stored(&app, &uuid).await;
    assert_eq!(order.payment_status, PaymentStatus::Paid);
    assert!(
        order.receipt_ref.as_deref().is_some_and(is_shop_receipt),
        "{:?}",
        order.receipt_ref
    );
    let entries = trail(&app, &order).await;
    assert_eq!(count(&entries, "webhook"), 2, "one per event: {entries:#?}");
    assert_eq!(count(&entries, "charge:pending"), 1, "{entries:#?}");
    assert!(
        fake.requests()[5..]
            .iter()
            .all(|r| r.method == "GET" && r.path == format!("/charges/{charge_id}")),
        "webhooks only re-read the charge"
    );
    let page = app
        .inquiry_until(&uuid, |b| b["is_original_image_created"] == "Y")
        .await;
    assert_eq!(page["payment_status"], "PAID");
    assert!(
        page["receipt_ref"].as_str().is_some_and(is_shop_receipt),
        "{}",
        page["receipt_ref"]
    );
}

/// 2. OPN webhooks with a signing secret, and a PromptPay charge that expires.
#[tokio::test]
async fn opn_webhooks_must_be_signed_when_a_secret_is_set() {
    let fake = FakeOpn::start(OPN_SECRET).await;
    let secret = base64::engine::general_purpose::STANDARD.encode(b"raceshot webhook signing key");
    let other = base64::engine::general_purpose::STANDARD.encode(b"somebody else's signing key");
    let app = opn_app(&fake, "opn-signed", Some(&secret)).await;
    let ids = app.ready_photos("opn-signed", 1).await;
    let uuid = app
        .create_order(
            "/v3/order/create",
            &app.order_body("opn-signed", &ids, "PP").await,
        )
        .await;
    let charge_id = fake.charge_ids()[0].clone();
    fake.complete_charge(&charge_id, "expired");

    let body = serde_json::to_vec(&fake.webhook_body(&charge_id)).unwrap();
    let signed_at = now().timestamp().to_string();
    let at = signed_at.as_str();
    let later = (now().timestamp() + 1).to_string();
    let good = FakeOpn::sign_webhook(&secret, at, &body);
    let forged = FakeOpn::sign_webhook(&other, at, &body);
    let of_other_body = FakeOpn::sign_webhook(&secret, at, b"{}");
    let asked = fake.requests().len();
    for headers in [
        vec![],
        vec![("Omise-Signature-Timestamp", at)],
        vec![("Omise-Signature", good.as_str())],
        vec![
            ("Omise-Signature", forged.as_str()),
            ("Omise-Signature-Timestamp", at),
        ],
        vec![
            ("Omise-Signature", of_other_body.as_str()),
            ("Omise-Signature-Timestamp", at),
        ],
        vec![
            ("Omise-Signature", good.as_str()),
            ("Omise-Signature-Timestamp", later.as_str()),
        ],
    ] {
        assert_error(
            post_webhook(&app, &body, &headers).await,
            403,
            "invalid_signature",
        )
        .await;
    }
    assert_eq!(
        fake.requests().len(),
        asked,
        "a refused webhook asks OPN nothing"
    );
    assert_eq!(
        stored(&app, &uuid).await.payment_status,
        PaymentStatus::Initial
    );

    // Correctly signed (during a rotation the header holds several signatures): the
    // charge is re-read, and the expired charge ends the order.
    let rotating = format!("{forged},{good}");
    let resp = post_webhook(
        &app,
        &body,
        &[
            ("Omise-Signature", rotating.as_str()),
            ("Omise-Signature-Timestamp", at),
        ],
    )
    .await;
    assert_eq!(resp.status(), 200);
    assert_opn_api_call(
        fake.requests().last().unwrap(),
        "GET",
        &format!("/charges/{charge_id}"),
    );
    assert_eq!(
        stored(&app, &uuid).await.payment_status,
        PaymentStatus::Expired
    );
    assert_eq!(app.inquiry(&uuid).await["payment_status"], "EXPIRED");
}

/// 3. OPN cards: 3-D Secure, a failed authentication, a declined card.
#[tokio::test]
async fn opn_card_charges_go_through_3d_secure() {
    let fake = FakeOpn::start(OPN_SECRET).await;
    fake.require_3ds(true);
    let app = opn_app(&fake, "opn-card", None).await;
    let ids = app.ready_photos("opn-card", 3).await;
    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();

    // The card order asks OPN nothing until the card comes.
    let uuid = app
        .create_order(
            "/v3/order/create",
            &app.order_body("opn-card", &ids[..1], "CC").await,
        )
        .await;
    assert!(fake.requests().is_empty());
    let order = stored(&app, &uuid).await;
    assert_eq!(app.inquiry(&uuid).await["payment_channel"], "CC");
    let satang = order.paid_amount.satang();
    assert_eq!(satang, 6300);

    let resp = card_payment(&app, &uuid, "tokn_test_5card0001", satang).await;
    assert_eq!(resp.status(), 200);
    let answer = json(resp).await;
    assert_eq!(answer["status"], "success");
    let charge_id = fake.charge_ids()[0].clone();
    let authorize = format!("{}/authorize/{charge_id}", fake.base_url());
    assert_eq!(answer["data"]["authorize_uri"], authorize.as_str());
    let sent = fake.requests();
    assert_eq!(sent.len(), 1);
    assert_opn_api_call(&sent[0], "POST", "/charges");
    let return_uri = app.url(&format!("/download/{uuid}"));
    assert_eq!(
        sent[0].form,
        form(&[
            ("amount", &satang.to_string()),
            ("currency", "thb"),
            ("card", "tokn_test_5card0001"),
            ("return_uri", &return_uri),
            ("description", &format!("Raceshot order {uuid} (opn-card)")),
            ("metadata[order_uuid]", &uuid),
        ])
    );
    assert_eq!(
        stored(&app, &uuid).await.payment_status,
        PaymentStatus::Initial
    );

    // The bank's page sends the buyer back to the order page, whose look finds it paid.
    let back = browser.get(&authorize).send().await.unwrap();
    assert_eq!(back.status(), 302);
    assert_eq!(back.headers()["location"], return_uri.as_str());
    let page = app.inquiry(&uuid).await;
    assert_eq!(page["payment_status"], "PAID");
    assert!(
        page["receipt_ref"].as_str().is_some_and(is_shop_receipt),
        "{}",
        page["receipt_ref"]
    );
    assert_opn_api_call(
        fake.requests().last().unwrap(),
        "GET",
        &format!("/charges/{charge_id}"),
    );
    app.inquiry_until(&uuid, |b| b["is_original_image_created"] == "Y")
        .await;

    // 3-D Secure fails: the order stays unpaid, by the page's look and by the webhook.
    let uuid = app
        .create_order(
            "/v3/order/create",
            &app.order_body("opn-card", &ids[1..2], "CC").await,
        )
        .await;
    let answer = json(card_payment(&app, &uuid, "tokn_test_5card0002", satang).await).await;
    let failed_id = fake.charge_ids()[1].clone();
    let authorize = answer["data"]["authorize_uri"].as_str().unwrap().to_owned();
    assert_eq!(
        authorize,
        format!("{}/authorize/{failed_id}", fake.base_url())
    );
    let back = browser
        .get(format!("{authorize}?result=failed"))
        .send()
        .await
        .unwrap();
    assert_eq!(back.status(), 302);
    assert_eq!(app.inquiry(&uuid).await["payment_status"], "INITIAL");
    assert_opn_api_call(
        fake.requests().last().unwrap(),
        "GET",
        &format!("/charges/{failed_id}"),
    );
    let webhook = serde_json::to_vec(&fake.webhook_body(&failed_id)).unwrap();
    assert_eq!(post_signed_webhook(&app, &webhook).await, 200);
    assert_eq!(
        stored(&app, &uuid).await.payment_status,
        PaymentStatus::Initial
    );
    // Another card then pays it; the webhook says so.
    let answer = json(card_payment(&app, &uuid, "tokn_test_5card0003", satang).await).await;
    let second_id = fake.charge_ids()[2].clone();
    assert_eq!(
        answer["data"]["authorize_uri"],
        format!("{}/authorize/{second_id}", fake.base_url()).as_str()
    );
    assert_eq!(
        fake.requests().last().unwrap().form["card"],
        "tokn_test_5card0003"
    );
    let authorize = answer["data"]["authorize_uri"].as_str().unwrap();
    assert_eq!(browser.get(authorize).send().await.unwrap().status(), 302);
    let webhook = serde_json::to_vec(&fake.webhook_body(&second_id)).unwrap();
    assert_eq!(post_signed_webhook(&app, &webhook).await, 200);
    let order = stored(&app, &uuid).await;
    assert_eq!(order.payment_status, PaymentStatus::Paid);
    assert!(
        order.receipt_ref.as_deref().is_some_and(is_shop_receipt),
        "{:?}",
        order.receipt_ref
    );

    // A declined card: 402, the order stays payable.
    let uuid = app
        .create_order(
            "/v3/order/create",
            &app.order_body("opn-card", &ids[2..3], "CC").await,
        )
        .await;
    fake.decline_next_card("insufficient_fund", "insufficient funds in the account");
    let refused = assert_error(
        card_payment(&app, &uuid, "tokn_test_5card0004", satang).await,
        402,
        "payment_declined",
    )
    .await;
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("insufficient_fund"),
        "{refused}"
    );
    let charge = fake.requests().last().unwrap().clone();
    assert_opn_api_call(&charge, "POST", "/charges");
    assert_eq!(charge.form["card"], "tokn_test_5card0004");
    assert_eq!(charge.form["metadata[order_uuid]"], uuid);
    assert_eq!(
        stored(&app, &uuid).await.payment_status,
        PaymentStatus::Initial
    );

    // A GB Prime Pay shop takes no cards.
    let gbp = gbp_app(Backend::Sqlite, "http://127.0.0.1:9", "gbp-card").await;
    let ids = gbp.ready_photos("gbp-card", 1).await;
    let body = gbp.order_body("gbp-card", &ids, "CC").await;
    assert_error(
        gbp.post("/v3/order/create", &body).await,
        409,
        "payment_channel_not_available",
    )
    .await;
    assert!(orders_of_buyer(&gbp).await.is_empty());
}

/// 4. PROMPTPAY: the shop's own EMVCo QR, confirmed by an operator against the slip.
#[tokio::test]
async fn promptpay_orders_are_confirmed_against_the_slip() {
    let app = with_envs(
        TestApp::builder(Backend::Sqlite).with_event(event("pp-run")),
        &PROMPTPAY_ENV,
    )
    .spawn()
    .await;
    let ids = app.ready_photos("pp-run", 2).await;
    let body = app.order_body("pp-run", &ids, "PP").await;
    let uuid = app.create_order("/v1/order/create", &body).await;

    let page = app.inquiry(&uuid).await;
    assert_eq!(page["payment_status"], "INITIAL");
    assert_eq!(page["payment_gateway"], "PROMPTPAY");
    let payload = page["qrcode_url"].as_str().unwrap();
    assert!(verify_crc(payload), "{payload}");
    let fields = parse_fields(payload).unwrap();
    let field = |tag: &str| {
        fields
            .iter()
            .find(|(t, _)| t == tag)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    assert_eq!(field("00"), "01");
    assert_eq!(field("01"), "12", "a QR with its amount");
    assert_eq!(field("53"), "764");
    assert_eq!(field("58"), "TH");
    assert_eq!(
        field("54"),
        format!("{:.2}", body["paid_amount"].as_f64().unwrap())
    );
    assert_eq!(field("54"), "126.00");
    assert_eq!(page["amount"].as_f64(), Some(126.0));
    let merchant = parse_fields(&field("29")).unwrap();
    assert_eq!(
        merchant,
        [
            ("00".to_owned(), "A000000677010111".to_owned()),
            ("01".to_owned(), "0066801234567".to_owned()),
        ]
    );

    let confirm = [
        "order",
        "confirm",
        uuid.as_str(),
        "--slip-ref",
        "0123456789AB12",
    ];
    let out = raceshot(&app, &PROMPTPAY_ENV, &confirm).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("order marked paid"),
        "{}",
        text(&out.stdout)
    );
    run_cli_enqueued_jobs(&app).await;
    let page = app.inquiry_until(&uuid, delivered).await;
    assert_eq!(page["payment_status"], "PAID");
    assert_eq!(page["receipt_ref"], "AB12");
    let found = json(
        app.post(
            "/v1/order/find-order",
            &json!({ "tk": TOKEN, "filter_type": "payment_ref", "txt_search": "ab12" }),
        )
        .await,
    )
    .await;
    assert_eq!(found["body"][0]["status"], "PAID", "{found}");
    assert!(!found.to_string().contains(&uuid), "{found}");

    // Again: nothing changes, and it says so.
    let out = raceshot(&app, &PROMPTPAY_ENV, &confirm).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("nothing changed"),
        "{}",
        text(&out.stdout)
    );
    let order = stored(&app, &uuid).await;
    assert_eq!(count(&trail(&app, &order).await, "operator_confirm"), 1);
    let audit = app.store.audit_entries(None, 10).await.unwrap();
    assert!(
        audit.iter().any(|e| e.action == "order.confirm"
            && e.target == uuid
            && e.actor.starts_with("cli:")),
        "{audit:?}"
    );

    // A SANDBOX order is never confirmed by a slip.
    let sandbox = TestApp::with_one_event("sbx-run").await;
    let ids = sandbox.ready_photos("sbx-run", 1).await;
    let uuid = sandbox
        .create_order(
            "/v1/order/create",
            &sandbox.order_body("sbx-run", &ids, "PP").await,
        )
        .await;
    let env = [("RACESHOT__PAYMENTS__GATEWAY", "SANDBOX")];
    let out = raceshot(
        &sandbox,
        &env,
        &["order", "confirm", &uuid, "--slip-ref", "0123456789AB12"],
    )
    .await;
    assert!(!out.status.success(), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("PROMPTPAY"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        stored(&sandbox, &uuid).await.payment_status,
        PaymentStatus::Initial
    );
}

/// 5. AM: more photos for a buyer of the all-photos deal, approved by an operator.
#[tokio::test]
async fn am_orders_refer_to_the_deal_and_are_approved_by_an_operator() {
    let mut wholesale = event("am-run");
    wholesale.is_hybrid = Flag::YES;
    wholesale.package_hb = vec![
        PackageInput {
            name: "1 รูป".into(),
            name_en: "1 photo".into(),
            number_of_photo: 1,
            price: 40.0,
        },
        PackageInput {
            name: "5 รูป".into(),
            name_en: "5 photos".into(),
            number_of_photo: 5,
            price: 150.0,
        },
    ];
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(wholesale)
        .spawn()
        .await;
    let ids = app.ready_photos("am-run", 3).await;

    // The all-photos deal, paid through the sandbox.
    let deal = app.quote("am-run", &ids, true).await;
    let first = app
        .create_order(
            "/v1/order/create",
            &json!({
                "mobile": MOBILE, "email": BUYER, "event_key": "am-run",
                "amount": deal["amount"], "paid_amount": deal["paid_amount"],
                "imageList": image_list(&ids), "image_length": ids.len(), "is_mhao": "Y",
                "payment_channel": "PP", "found_refs": [app.found_ref("am-run", &ids).await],
            }),
        )
        .await;
    assert_eq!(
        json(app.sandbox_pay(&first, "paid").await).await["payment_status"],
        "PAID"
    );

    // An AM order of wholesale photos by the same buyer refers to it.
    let wholesale = json(
        app.post(
            "/api/cart/quote",
            &json!({ "event_key": "am-run", "image_ids": &ids[..2], "wholesale": true }),
        )
        .await,
    )
    .await;
    assert_eq!(wholesale["amount"].as_f64(), Some(80.0), "{wholesale}");
    let am = app
        .create_order(
            "/v1/order/create",
            &json!({
                "mobile": MOBILE, "email": BUYER, "event_key": "am-run",
                "amount": wholesale["amount"], "paid_amount": wholesale["paid_amount"],
                "imageList": image_list(&ids[..2]), "image_length": 2, "is_mhao": "N",
                "payment_channel": "AM", "wholesale": true,
            }),
        )
        .await;
    let page = app.inquiry(&am).await;
    assert_eq!(page["payment_status"], "INITIAL");
    assert_eq!(page["payment_channel"], "AM");
    assert_eq!(
        page["am_order_ref"],
        format!("{}…", &first[..8]),
        "the earlier order is named, masked, never handed out"
    );
    assert_eq!(page["qrcode_url"], "");

    let out = raceshot(&app, &[], &["order", "approve", &am]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("order marked paid"),
        "{}",
        text(&out.stdout)
    );
    run_cli_enqueued_jobs(&app).await;
    let page = app.inquiry_until(&am, delivered).await;
    assert_eq!(page["payment_status"], "PAID");
    let audit = app.store.audit_entries(None, 10).await.unwrap();
    assert!(
        audit
            .iter()
            .any(|e| e.action == "order.approve" && e.target == am && e.actor.starts_with("cli:")),
        "{audit:?}"
    );
    let order = stored(&app, &am).await;
    assert_eq!(count(&trail(&app, &order).await, "operator_approve"), 1);

    let out = raceshot(&app, &[], &["order", "approve", &am]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("nothing changed"),
        "{}",
        text(&out.stdout)
    );
    // Only AM orders are approved.
    let out = raceshot(&app, &[], &["order", "approve", &first]).await;
    assert!(!out.status.success(), "{}", text(&out.stdout));
}

/// 6. The order-ready e-mail, through an SMTP server when one is configured.
#[tokio::test]
async fn a_paid_order_mails_its_buyer_when_smtp_is_configured() {
    let sink = SmtpSink::start().await;
    let port = sink.port().to_string();
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(event("mail-run"))
        .with_env("RACESHOT__NOTIFY__SMTP__HOST", "127.0.0.1")
        .with_env("RACESHOT__NOTIFY__SMTP__PORT", &port)
        .with_env(
            "RACESHOT__NOTIFY__SMTP__FROM",
            "Raceshot <shop@raceshot.test>",
        )
        .with_env("RACESHOT__NOTIFY__SMTP__TLS", "none")
        .spawn()
        .await;
    let (_, uuid) = app.promptpay_order("mail-run", 2).await;
    assert!(sink.messages().is_empty());
    assert_eq!(
        json(app.sandbox_pay(&uuid, "paid").await).await["payment_status"],
        "PAID"
    );
    let page = app
        .inquiry_until(&uuid, |b| delivered(b) && b["is_send_email"] == "Y")
        .await;
    assert_eq!(
        page["email"], "r***@example.com",
        "the order page shows the address masked"
    );
    let mails = sink.messages();
    assert_eq!(mails.len(), 1);
    let mail = &mails[0];
    assert_eq!(mail.from, "shop@raceshot.test");
    assert_eq!(mail.to, [BUYER]);
    let parsed = parse(&mail.data);
    assert!(parsed.header("To").contains(BUYER));
    let text = parsed.body;
    let link = app.url(&format!("/download/{uuid}"));
    assert_eq!(text.matches(&link).count(), 2, "{text}");
    assert!(text.contains(&format!("Order number: {uuid}")), "{text}");

    // Without a mail server or an SMS gateway, messages are only logged: neither counts.
    let quiet = TestApp::with_one_event("quiet-run").await;
    let ids = quiet.ready_photos("quiet-run", 1).await;
    let uuid = quiet
        .create_order(
            "/v1/order/create",
            &quiet.order_body("quiet-run", &ids, "PP").await,
        )
        .await;
    quiet.sandbox_pay(&uuid, "paid").await;
    quiet.inquiry_until(&uuid, delivered).await;
    quiet.jobs_done().await;
    let page = quiet.inquiry(&uuid).await;
    assert_eq!(page["is_send_sms"], "N");
    assert_eq!(page["is_send_email"], "N");
    assert_eq!(sink.messages().len(), 1);
}
