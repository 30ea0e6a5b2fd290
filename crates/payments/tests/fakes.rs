//! The fake gateways themselves: they refuse requests that leave out what the real
//! gateways require, so a test that passes against them proves the adapters send it.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use raceshot_payments::testing::{FakeGbp, FakeOpn};
use serde_json::Value;

const TOKEN: &str = "gbp-token";
const SECRET: &str = "gbp-secret";
const OPN_KEY: &str = "skey_test_fakes";

fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_millis(500))
        .build()
        .unwrap()
}

async fn gbp_qr_status(fake: &FakeGbp, leave_out: &str) -> u16 {
    let fields = [
        ("token", TOKEN),
        ("amount", "100.00"),
        ("referenceNo", "R1"),
        ("backgroundUrl", "https://shop.example/cb"),
        ("detail", "order"),
    ];
    let form: Vec<(&str, &str)> = fields
        .into_iter()
        .filter(|(k, _)| *k != leave_out)
        .collect();
    http()
        .post(format!("{}/v3/qrcode", fake.base_url()))
        .form(&form)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[tokio::test]
async fn fake_gbp_requires_every_qr_field() {
    let fake = FakeGbp::start(TOKEN, SECRET).await;
    assert_eq!(gbp_qr_status(&fake, "none").await, 200);
    assert_eq!(gbp_qr_status(&fake, "token").await, 401);
    for field in ["amount", "referenceNo", "backgroundUrl", "detail"] {
        assert_eq!(gbp_qr_status(&fake, field).await, 400, "without {field}");
    }
    assert_eq!(fake.requests().len(), 6, "every request is recorded");
}

#[tokio::test]
async fn fake_gbp_wants_two_decimal_amounts() {
    let fake = FakeGbp::start(TOKEN, SECRET).await;
    for amount in ["100", "100.0", "100.000", "-1.00", "0.00", "abc"] {
        let status = http()
            .post(format!("{}/v3/qrcode", fake.base_url()))
            .form(&[
                ("token", TOKEN),
                ("amount", amount),
                ("referenceNo", "R1"),
                ("backgroundUrl", "https://shop.example/cb"),
                ("detail", "order"),
            ])
            .send()
            .await
            .unwrap()
            .status();
        assert_eq!(status, 400, "{amount}");
    }
}

#[tokio::test]
async fn fake_gbp_check_status_wants_json_reference() {
    let fake = FakeGbp::start(TOKEN, SECRET).await;
    let url = format!("{}/v1/check_status_txn", fake.base_url());
    let no_body = http()
        .post(&url)
        .basic_auth(SECRET, Some(""))
        .send()
        .await
        .unwrap();
    assert_eq!(no_body.status(), 400);
    let as_form = http()
        .post(&url)
        .basic_auth(SECRET, Some(""))
        .form(&[("referenceNo", "R1")])
        .send()
        .await
        .unwrap();
    assert_eq!(as_form.status(), 400);
    let no_auth = http()
        .post(&url)
        .json(&serde_json::json!({"referenceNo": "R1"}))
        .send()
        .await
        .unwrap();
    assert_eq!(no_auth.status(), 401);
}

async fn opn_post(fake: &FakeOpn, path: &str, form: &[(&str, &str)]) -> (u16, Value) {
    let response = http()
        .post(format!("{}{path}", fake.base_url()))
        .basic_auth(OPN_KEY, Some(""))
        .form(form)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

#[tokio::test]
async fn fake_opn_requires_amount_currency_and_a_payment_method() {
    let fake = FakeOpn::start(OPN_KEY).await;
    let cases: [(&str, &[(&str, &str)]); 7] = [
        ("/sources", &[("amount", "1000"), ("currency", "thb")]),
        ("/sources", &[("type", "promptpay"), ("currency", "thb")]),
        ("/sources", &[("type", "promptpay"), ("amount", "1000")]),
        ("/charges", &[("currency", "thb"), ("card", "tokn_test_1")]),
        (
            "/charges",
            &[
                ("amount", "10.50"),
                ("currency", "thb"),
                ("card", "tokn_test_1"),
            ],
        ),
        ("/charges", &[("amount", "1000"), ("card", "tokn_test_1")]),
        ("/charges", &[("amount", "1000"), ("currency", "thb")]),
    ];
    for (path, form) in cases {
        let (status, body) = opn_post(&fake, path, form).await;
        assert_eq!(status, 400, "{path} {form:?}");
        assert_eq!(body["object"], "error");
        assert_eq!(body["code"], "bad_request");
    }
    assert!(fake.charge_ids().is_empty());
}

#[tokio::test]
async fn fake_opn_charge_must_match_its_source() {
    let fake = FakeOpn::start(OPN_KEY).await;
    let (_, source) = opn_post(
        &fake,
        "/sources",
        &[
            ("type", "promptpay"),
            ("amount", "1000"),
            ("currency", "thb"),
        ],
    )
    .await;
    let source_id = source["id"].as_str().unwrap();
    let (status, body) = opn_post(
        &fake,
        "/charges",
        &[
            ("amount", "2000"),
            ("currency", "thb"),
            ("source", source_id),
        ],
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("invalid_charge"))
    );
    let (status, _) = opn_post(
        &fake,
        "/charges",
        &[
            ("amount", "1000"),
            ("currency", "thb"),
            ("source", "src_test_nope"),
        ],
    )
    .await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn fake_opn_checks_the_key_on_every_api_call() {
    let fake = FakeOpn::start(OPN_KEY).await;
    let response = http()
        .get(format!("{}/charges/chrg_test_1", fake.base_url()))
        .basic_auth("skey_test_other", Some(""))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 401);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["object"], "error");
    assert_eq!(body["code"], "authentication_failure");
}

#[tokio::test]
async fn fake_opn_3ds_needs_a_return_uri() {
    let fake = FakeOpn::start(OPN_KEY).await;
    fake.require_3ds(true);
    let (status, body) = opn_post(
        &fake,
        "/charges",
        &[
            ("amount", "1000"),
            ("currency", "thb"),
            ("card", "tokn_test_1"),
        ],
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("invalid_charge"))
    );
}

#[tokio::test]
async fn fake_opn_webhook_event_is_shaped_like_opn() {
    let fake = FakeOpn::start(OPN_KEY).await;
    let (_, charge) = opn_post(
        &fake,
        "/charges",
        &[
            ("amount", "1000"),
            ("currency", "thb"),
            ("card", "tokn_test_1"),
        ],
    )
    .await;
    let id = charge["id"].as_str().unwrap();
    let event = fake.webhook_body(id);
    assert_eq!(event["object"], "event");
    assert_eq!(event["key"], "charge.complete");
    assert_eq!(event["data"], fake.charge(id).unwrap());
    assert_eq!(event["data"]["status"], "successful");
}
