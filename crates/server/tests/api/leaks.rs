//! The small leaks an outside probe found, each pinned by a test, one section per leak.

use base64::Engine as _;
use raceshot_payments::testing::FakeOpn;
use raceshot_store::Backend;

use crate::helpers::{TestApp, assert_error, event, now};

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
