//! The small leaks an outside probe found, each pinned by a test, one section per leak.

use std::io::Write;
use std::sync::{Arc, Mutex};

use base64::Engine as _;
use raceshot_payments::testing::{FakeGbp, FakeOpn};
use raceshot_server::commerce::links;
use raceshot_store::Backend;

use crate::helpers::{TestApp, assert_error, event, now};
use crate::orders::promptpay_order;

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
    let (_, uuid) = promptpay_order(&app, "gbp-logs", 1).await;
    let reference = app
        .store
        .order_by_uuid(&uuid)
        .await
        .unwrap()
        .unwrap()
        .gateway_ref
        .unwrap();
    let token = links::gbp_callback_token(&app.state, &uuid);
    let path = format!("/api/payments/gbp/{uuid}/{token}");

    // The path as logs show it.
    let logged = raceshot_server::telemetry::loggable_path(&path.parse().unwrap());
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
