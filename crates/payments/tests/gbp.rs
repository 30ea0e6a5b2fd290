//! The GB Prime Pay adapter against the fake GB Prime Pay: what it sends, what it reads
//! back, and how each kind of failure comes out.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use raceshot_domain::Money;
use raceshot_payments::PaymentError;
use raceshot_payments::gbp::{GbpCallback, GbpClient, GbpQrRequest, GbpSettings};
use raceshot_payments::testing::{FAKE_QR_PNG, FakeGbp};

const TOKEN: &str = "gbp-token-Zx9";
const SECRET: &str = "gbp-secret-Qy7";
const TIMEOUT: Duration = Duration::from_millis(300);

fn client(base_url: &str, token: &str, secret_key: &str) -> GbpClient {
    GbpClient::new(GbpSettings {
        base_url: base_url.to_owned(),
        token: token.to_owned(),
        secret_key: secret_key.to_owned(),
        timeout: TIMEOUT,
    })
    .unwrap()
}

fn qr_request(reference_no: &str) -> GbpQrRequest {
    GbpQrRequest {
        amount: Money::from_satang(21_000).unwrap(),
        reference_no: reference_no.to_owned(),
        background_url: "https://shop.example/api/payments/gbp/callback/tok_abc".to_owned(),
        detail: "Raceshot order 42".to_owned(),
        customer_telephone: Some("0801234567".to_owned()),
        customer_email: Some("runner@example.com".to_owned()),
    }
}

#[tokio::test]
async fn create_qr_sends_every_field_and_returns_the_png() {
    let fake = FakeGbp::start(TOKEN, SECRET).await;
    let gbp = client(&format!("{}/", fake.base_url()), TOKEN, SECRET);

    let png = gbp.create_qr(&qr_request("RS000000000042")).await.unwrap();
    assert_eq!(&png[..], FAKE_QR_PNG);

    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, "/v3/qrcode");
    assert!(
        request
            .header("content-type")
            .unwrap()
            .starts_with("application/x-www-form-urlencoded")
    );
    assert_eq!(request.header("authorization"), None);
    let expected: BTreeMap<String, String> = [
        ("token", TOKEN),
        ("amount", "210.00"),
        ("referenceNo", "RS000000000042"),
        (
            "backgroundUrl",
            "https://shop.example/api/payments/gbp/callback/tok_abc",
        ),
        ("detail", "Raceshot order 42"),
        ("customerTelephone", "0801234567"),
        ("customerEmail", "runner@example.com"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect();
    assert_eq!(request.form, expected);
}

#[tokio::test]
async fn errors_and_debug_output_never_carry_the_callback_token() {
    let fake = FakeGbp::start(TOKEN, SECRET).await;
    let gbp = client(&fake.base_url(), TOKEN, SECRET);
    let token = "5b0f3a7d4e2c8b6a0f1e2d3c4b5a9c1e";
    // An address the gateway refuses, quoting it back.
    let request = GbpQrRequest {
        background_url: format!("ftp://shop.example/api/payments/gbp/order/{token}"),
        ..qr_request("RS000000000043")
    };
    let error = gbp.create_qr(&request).await.unwrap_err();
    assert!(
        matches!(&error, PaymentError::Rejected { status: 400, .. }),
        "{error:?}"
    );
    for shown in [
        error.to_string(),
        format!("{error:?}"),
        format!("{request:?}"),
    ] {
        assert!(!shown.contains(token), "{shown}");
    }
    assert!(error.to_string().contains("[redacted]"), "{error}");
}

#[tokio::test]
async fn create_qr_leaves_out_absent_customer_fields() {
    let fake = FakeGbp::start(TOKEN, SECRET).await;
    let gbp = client(&fake.base_url(), TOKEN, SECRET);
    let mut req = qr_request("RS1");
    req.customer_telephone = None;
    req.customer_email = None;
    req.amount = Money::from_satang(5).unwrap();

    gbp.create_qr(&req).await.unwrap();

    let form = &fake.requests()[0].form;
    assert_eq!(form.get("amount").map(String::as_str), Some("0.05"));
    assert!(!form.contains_key("customerTelephone"));
    assert!(!form.contains_key("customerEmail"));
}

#[tokio::test]
async fn wrong_token_is_rejected_and_not_retryable() {
    let fake = FakeGbp::start(TOKEN, SECRET).await;
    let gbp = client(&fake.base_url(), "someone-else", SECRET);

    let err = gbp.create_qr(&qr_request("RS2")).await.unwrap_err();

    assert!(
        matches!(err, PaymentError::Rejected { status: 401, .. }),
        "{err:?}"
    );
    assert!(!err.is_retryable());
}

#[tokio::test]
async fn reference_longer_than_gbp_allows_is_rejected() {
    let fake = FakeGbp::start(TOKEN, SECRET).await;
    let gbp = client(&fake.base_url(), TOKEN, SECRET);

    let err = gbp
        .create_qr(&qr_request("RS0123456789ABCD"))
        .await
        .unwrap_err();

    assert!(
        matches!(err, PaymentError::Rejected { status: 400, .. }),
        "{err:?}"
    );
}

#[tokio::test]
async fn check_status_is_unpaid_until_the_runner_pays() {
    let fake = FakeGbp::start(TOKEN, SECRET).await;
    let gbp = client(&fake.base_url(), TOKEN, SECRET);
    gbp.create_qr(&qr_request("RS3")).await.unwrap();

    let before = gbp.check_status("RS3").await.unwrap();
    assert!(!before.paid);
    assert_eq!(before.reference_no, "RS3");

    fake.pay("RS3");
    let after = gbp.check_status("RS3").await.unwrap();
    assert!(after.paid);
    assert_eq!(after.amount.map(Money::satang), Some(21_000));
    assert_eq!(after.status.as_deref(), Some("S"));
    assert!(
        after
            .gbp_reference_no
            .as_deref()
            .is_some_and(|r| r.starts_with("gbp"))
    );

    let request = fake.requests().pop().unwrap();
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, "/v1/check_status_txn");
    assert_eq!(
        request.basic_auth(),
        Some((SECRET.to_owned(), String::new()))
    );
    assert!(
        request
            .header("content-type")
            .unwrap()
            .starts_with("application/json")
    );
    assert_eq!(
        request.json,
        Some(serde_json::json!({"referenceNo": "RS3"}))
    );
    assert!(request.form.is_empty());
}

#[tokio::test]
async fn check_status_of_an_unknown_reference_is_unpaid() {
    let fake = FakeGbp::start(TOKEN, SECRET).await;
    let gbp = client(&fake.base_url(), TOKEN, SECRET);

    let txn = gbp.check_status("NOPE").await.unwrap();

    assert!(!txn.paid);
    assert_eq!(txn.amount, None);
    assert_ne!(txn.result_code, "00");
}

#[tokio::test]
async fn check_status_with_wrong_secret_is_rejected() {
    let fake = FakeGbp::start(TOKEN, SECRET).await;
    let gbp = client(&fake.base_url(), TOKEN, "wrong-secret");

    let err = gbp.check_status("RS4").await.unwrap_err();

    assert!(
        matches!(err, PaymentError::Rejected { status: 401, .. }),
        "{err:?}"
    );
}

#[tokio::test]
async fn forged_callback_is_not_confirmed_by_check_status() {
    let fake = FakeGbp::start(TOKEN, SECRET).await;
    let gbp = client(&fake.base_url(), TOKEN, SECRET);
    gbp.create_qr(&qr_request("RS5")).await.unwrap();

    let body = serde_json::to_vec(&fake.callback_body("RS5")).unwrap();
    let callback = GbpCallback::parse(&body).unwrap();
    assert!(callback.is_paid());

    let txn = gbp.check_status(&callback.reference_no).await.unwrap();
    assert!(!txn.paid, "a callback alone must not count as payment");
}

#[tokio::test]
async fn server_error_is_unavailable_and_retryable() {
    let fake = FakeGbp::start(TOKEN, SECRET).await;
    let gbp = client(&fake.base_url(), TOKEN, SECRET);
    fake.fail_next(503, 2);

    for _ in 0..2 {
        let err = gbp.create_qr(&qr_request("RS6")).await.unwrap_err();
        assert_eq!(err, PaymentError::Unavailable { status: 503 });
        assert!(err.is_retryable());
    }
    let err = gbp.check_status("RS6").await;
    assert!(err.is_ok(), "third request is served normally: {err:?}");
}

#[tokio::test]
async fn late_answer_is_a_timeout() {
    let fake = FakeGbp::start(TOKEN, SECRET).await;
    let gbp = client(&fake.base_url(), TOKEN, SECRET);
    fake.delay_next(Duration::from_millis(800), 1);

    let started = Instant::now();
    let err = gbp.check_status("RS7").await.unwrap_err();

    assert_eq!(err, PaymentError::Timeout);
    assert!(err.is_retryable());
    assert!(started.elapsed() < Duration::from_millis(700));
}

#[tokio::test]
async fn refused_connection_is_unavailable_with_status_zero() {
    let fake = FakeGbp::start(TOKEN, SECRET).await;
    let base_url = fake.base_url();
    drop(fake);
    tokio::time::sleep(Duration::from_millis(50)).await;
    let gbp = client(&base_url, TOKEN, SECRET);

    let err = gbp.check_status("RS8").await.unwrap_err();

    assert_eq!(err, PaymentError::Unavailable { status: 0 });
}

#[test]
fn bad_base_url_is_refused() {
    let err = GbpClient::new(GbpSettings {
        base_url: "not a url".to_owned(),
        token: TOKEN.to_owned(),
        secret_key: SECRET.to_owned(),
        timeout: TIMEOUT,
    })
    .unwrap_err();
    assert!(matches!(err, PaymentError::Protocol(_)));
}

#[tokio::test]
async fn callback_from_the_fake_parses_field_by_field() {
    let fake = FakeGbp::start(TOKEN, SECRET).await;
    let gbp = client(&fake.base_url(), TOKEN, SECRET);
    gbp.create_qr(&qr_request("RS9")).await.unwrap();
    fake.pay("RS9");

    let body = fake.callback_body("RS9");
    let callback = GbpCallback::parse(&serde_json::to_vec(&body).unwrap()).unwrap();

    assert!(callback.is_paid());
    assert_eq!(callback.result_code, "00");
    assert_eq!(callback.amount.satang(), 21_000);
    assert_eq!(callback.reference_no, "RS9");
    assert_eq!(callback.currency_code.as_deref(), Some("764"));
    assert_eq!(callback.payment_type.as_deref(), Some("Q"));
    let txn = gbp.check_status("RS9").await.unwrap();
    assert_eq!(callback.gbp_reference_no, txn.gbp_reference_no);
    assert_eq!(callback.raw, body);
}

#[test]
fn callback_amount_may_be_a_string_or_a_number() {
    let string =
        br#"{"resultCode":"00","amount":"100.00","referenceNo":"R1","gbpReferenceNo":"gbp1"}"#;
    let number = br#"{"resultCode":"00","amount":100.5,"referenceNo":"R1"}"#;
    let integer = br#"{"resultCode":"00","amount":100,"referenceNo":"R1"}"#;
    assert_eq!(GbpCallback::parse(string).unwrap().amount.satang(), 10_000);
    assert_eq!(GbpCallback::parse(number).unwrap().amount.satang(), 10_050);
    assert_eq!(GbpCallback::parse(integer).unwrap().amount.satang(), 10_000);
    assert_eq!(
        GbpCallback::parse(string)
            .unwrap()
            .gbp_reference_no
            .as_deref(),
        Some("gbp1")
    );
}

#[test]
fn callback_as_a_form_is_read_too() {
    let body = b"resultCode=00&amount=250.00&referenceNo=R2&gbpReferenceNo=gbp2&currencyCode=764";
    let callback = GbpCallback::parse(body).unwrap();
    assert!(callback.is_paid());
    assert_eq!(callback.amount.satang(), 25_000);
    assert_eq!(callback.reference_no, "R2");
}

#[test]
fn unpaid_callback_is_not_paid() {
    let body = br#"{"resultCode":"54","amount":"100.00","referenceNo":"R3"}"#;
    assert!(!GbpCallback::parse(body).unwrap().is_paid());
}

#[test]
fn malformed_callbacks_are_protocol_errors() {
    let bodies: [&[u8]; 10] = [
        br#"{"resultCode":"00","amount":"100.005","referenceNo":"R"}"#,
        br#"{"resultCode":"00","amount":"-100.00","referenceNo":"R"}"#,
        br#"{"resultCode":"00","amount":-1,"referenceNo":"R"}"#,
        br#"{"resultCode":"00","amount":"1e3","referenceNo":"R"}"#,
        br#"{"resultCode":"00","referenceNo":"R"}"#,
        br#"{"resultCode":"00","amount":"1.00"}"#,
        br#"{"amount":"1.00","referenceNo":"R"}"#,
        br#"["resultCode","00"]"#,
        b"",
        b"\xff\xfe\x00garbage",
    ];
    for body in bodies {
        let result = GbpCallback::parse(body);
        assert!(
            matches!(result, Err(PaymentError::Protocol(_))),
            "{:?} -> {result:?}",
            String::from_utf8_lossy(body)
        );
    }
}
