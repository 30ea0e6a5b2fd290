//! The OPN adapter against the fake OPN: PromptPay and card charges field by field,
//! 3-D Secure, declines, re-reading charges, webhooks and their signatures, and how each
//! kind of failure comes out.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use raceshot_domain::Money;
use raceshot_payments::PaymentError;
use raceshot_payments::opn::{
    self, ChargeStatus, OpnClient, OpnSettings, WebhookEvent, verify_webhook_signature,
};
use raceshot_payments::testing::{FakeOpn, RecordedRequest};

const SECRET_KEY: &str = "skey_test_5fake";
const TIMEOUT: Duration = Duration::from_millis(300);
const ORDER: &str = "0b6f8a52-4c1e-4d7a-9a0e-3f2a1c9d8e7b";
/// base64 of `raceshot-webhook-secret-0123456789`.
const WEBHOOK_SECRET: &str = "cmFjZXNob3Qtd2ViaG9vay1zZWNyZXQtMDEyMzQ1Njc4OQ==";

fn client_with(base_url: &str, secret_key: &str, webhook_secret: Option<&str>) -> OpnClient {
    OpnClient::new(OpnSettings {
        base_url: base_url.to_owned(),
        secret_key: secret_key.to_owned(),
        webhook_secret: webhook_secret.map(str::to_owned),
        timeout: TIMEOUT,
    })
    .unwrap()
}

fn client(fake: &FakeOpn) -> OpnClient {
    client_with(&fake.base_url(), SECRET_KEY, None)
}

fn baht(satang: i64) -> Money {
    Money::from_satang(satang).unwrap()
}

fn form(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

fn assert_authenticated_form_post(request: &RecordedRequest, path: &str) {
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, path);
    assert_eq!(
        request.basic_auth(),
        Some((SECRET_KEY.to_owned(), String::new()))
    );
    assert_eq!(request.header("omise-version"), Some(opn::API_VERSION));
    assert!(
        request
            .header("content-type")
            .unwrap()
            .starts_with("application/x-www-form-urlencoded")
    );
}

#[tokio::test]
async fn promptpay_charge_makes_a_source_then_a_charge() {
    let fake = FakeOpn::start(SECRET_KEY).await;
    let opn = client(&fake);

    let charge = opn
        .create_promptpay_charge(baht(21_000), "Raceshot order 42", ORDER)
        .await
        .unwrap();

    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    assert_authenticated_form_post(&requests[0], "/sources");
    assert_eq!(
        requests[0].form,
        form(&[
            ("type", "promptpay"),
            ("amount", "21000"),
            ("currency", "thb")
        ])
    );
    assert_authenticated_form_post(&requests[1], "/charges");
    let source_id = requests[1].form.get("source").cloned().unwrap();
    assert!(source_id.starts_with("src_"));
    assert_eq!(
        requests[1].form,
        form(&[
            ("amount", "21000"),
            ("currency", "thb"),
            ("source", &source_id),
            ("description", "Raceshot order 42"),
            ("metadata[order_uuid]", ORDER),
        ])
    );

    assert!(charge.id.starts_with("chrg_"));
    assert_eq!(fake.charge_ids(), vec![charge.id.clone()]);
    assert_eq!(charge.status, ChargeStatus::Pending);
    assert!(!charge.paid);
    assert_eq!(charge.amount.satang(), 21_000);
    assert!(charge.currency.eq_ignore_ascii_case("thb"));
    assert_eq!(charge.order_uuid.as_deref(), Some(ORDER));
    assert!(charge.expires_at.is_some());
    assert_eq!(charge.authorize_uri, None);
    let qr = charge.qr_image_uri.clone().unwrap();
    assert_eq!(qr, format!("{}/qr/{source_id}.svg", fake.base_url()));

    let image = reqwest::get(&qr).await.unwrap();
    assert_eq!(image.status(), 200);
    assert_eq!(image.headers()["content-type"], "image/svg+xml");
}

#[tokio::test]
async fn promptpay_charge_completes_or_expires() {
    let fake = FakeOpn::start(SECRET_KEY).await;
    let opn = client(&fake);
    let paid = opn
        .create_promptpay_charge(baht(10_000), "a", ORDER)
        .await
        .unwrap();
    let unpaid = opn
        .create_promptpay_charge(baht(10_000), "b", ORDER)
        .await
        .unwrap();

    fake.complete_charge(&paid.id, "successful");
    fake.complete_charge(&unpaid.id, "expired");

    let paid = opn.get_charge(&paid.id).await.unwrap();
    assert_eq!(paid.status, ChargeStatus::Successful);
    assert!(paid.paid);
    let unpaid = opn.get_charge(&unpaid.id).await.unwrap();
    assert_eq!(unpaid.status, ChargeStatus::Expired);
    assert!(!unpaid.paid);

    let get = fake.requests().pop().unwrap();
    assert_eq!(get.method, "GET");
    assert_eq!(get.path, format!("/charges/{}", unpaid.id));
    assert_eq!(
        get.basic_auth(),
        Some((SECRET_KEY.to_owned(), String::new()))
    );
}

#[tokio::test]
async fn card_charge_without_3ds_succeeds_at_once() {
    let fake = FakeOpn::start(SECRET_KEY).await;
    let opn = client(&fake);

    let charge = opn
        .create_card_charge(
            "tokn_test_abc",
            baht(35_050),
            "https://shop.example/orders/42/return",
            "Raceshot order 42",
            ORDER,
        )
        .await
        .unwrap();

    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    assert_authenticated_form_post(&requests[0], "/charges");
    assert_eq!(
        requests[0].form,
        form(&[
            ("amount", "35050"),
            ("currency", "thb"),
            ("card", "tokn_test_abc"),
            ("return_uri", "https://shop.example/orders/42/return"),
            ("description", "Raceshot order 42"),
            ("metadata[order_uuid]", ORDER),
        ])
    );
    assert_eq!(charge.status, ChargeStatus::Successful);
    assert!(charge.paid);
    assert_eq!(charge.amount.satang(), 35_050);
    assert_eq!(charge.failure_code, None);
    assert_eq!(charge.authorize_uri, None);
    assert_eq!(charge.order_uuid.as_deref(), Some(ORDER));
}

#[tokio::test]
async fn declined_card_is_a_failed_charge_not_an_error() {
    let fake = FakeOpn::start(SECRET_KEY).await;
    let opn = client(&fake);
    fake.decline_next_card("insufficient_fund", "insufficient funds in the account");

    let charge = opn
        .create_card_charge(
            "tokn_test_poor",
            baht(10_000),
            "https://s.example/r",
            "x",
            ORDER,
        )
        .await
        .unwrap();

    assert_eq!(charge.status, ChargeStatus::Failed);
    assert!(!charge.paid);
    assert_eq!(charge.failure_code.as_deref(), Some("insufficient_fund"));
    assert_eq!(
        charge.failure_message.as_deref(),
        Some("insufficient funds in the account")
    );

    let next = opn
        .create_card_charge(
            "tokn_test_rich",
            baht(10_000),
            "https://s.example/r",
            "x",
            ORDER,
        )
        .await
        .unwrap();
    assert_eq!(
        next.status,
        ChargeStatus::Successful,
        "only the next card is declined"
    );
}

#[tokio::test]
async fn card_needing_3ds_is_pending_until_the_buyer_authorises() {
    let fake = FakeOpn::start(SECRET_KEY).await;
    let opn = client(&fake);
    fake.require_3ds(true);
    let return_uri = "https://shop.example/orders/42/return";

    let charge = opn
        .create_card_charge("tokn_test_3ds", baht(20_000), return_uri, "x", ORDER)
        .await
        .unwrap();

    assert_eq!(charge.status, ChargeStatus::Pending);
    assert!(!charge.paid);
    let authorize_uri = charge.authorize_uri.clone().unwrap();
    assert_eq!(
        authorize_uri,
        format!("{}/authorize/{}", fake.base_url(), charge.id)
    );

    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let page = browser.get(&authorize_uri).send().await.unwrap();
    assert_eq!(page.status(), 302);
    assert_eq!(page.headers()["location"], return_uri);

    let charge = opn.get_charge(&charge.id).await.unwrap();
    assert_eq!(charge.status, ChargeStatus::Successful);
    assert!(charge.paid);
}

#[tokio::test]
async fn failed_3ds_fails_the_charge() {
    let fake = FakeOpn::start(SECRET_KEY).await;
    let opn = client(&fake);
    fake.require_3ds(true);

    let charge = opn
        .create_card_charge(
            "tokn_test_3dsno",
            baht(20_000),
            "https://s.example/r",
            "x",
            ORDER,
        )
        .await
        .unwrap();
    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let uri = format!("{}?result=failed", charge.authorize_uri.unwrap());
    assert_eq!(browser.get(uri).send().await.unwrap().status(), 302);

    let charge = opn.get_charge(&charge.id).await.unwrap();
    assert_eq!(charge.status, ChargeStatus::Failed);
    assert!(!charge.paid);
    assert!(charge.failure_code.is_some());
}

#[tokio::test]
async fn a_card_token_is_good_for_one_charge() {
    let fake = FakeOpn::start(SECRET_KEY).await;
    let opn = client(&fake);
    let uri = "https://s.example/r";
    opn.create_card_charge("tokn_test_once", baht(10_000), uri, "x", ORDER)
        .await
        .unwrap();

    let err = opn
        .create_card_charge("tokn_test_once", baht(10_000), uri, "x", ORDER)
        .await
        .unwrap_err();

    assert!(
        matches!(&err, PaymentError::Rejected { status: 400, code, .. } if code == "used_token"),
        "{err:?}"
    );
}

#[tokio::test]
async fn get_charge_of_unknown_id_is_rejected_with_opn_error() {
    let fake = FakeOpn::start(SECRET_KEY).await;
    let opn = client(&fake);

    let err = opn.get_charge("chrg_test_missing").await.unwrap_err();

    match err {
        PaymentError::Rejected {
            status,
            code,
            message,
        } => {
            assert_eq!(status, 404);
            assert_eq!(code, "not_found");
            assert!(message.contains("chrg_test_missing"));
        }
        other => panic!("expected Rejected, got {other:?}"),
    }
}

#[tokio::test]
async fn get_charge_refuses_ids_that_are_not_ids() {
    let fake = FakeOpn::start(SECRET_KEY).await;
    let opn = client(&fake);

    let err = opn.get_charge("../account").await.unwrap_err();

    assert!(matches!(err, PaymentError::Protocol(_)));
    assert!(fake.requests().is_empty(), "nothing was sent");
}

#[tokio::test]
async fn wrong_key_is_rejected_with_authentication_failure() {
    let fake = FakeOpn::start(SECRET_KEY).await;
    let opn = client_with(&fake.base_url(), "skey_test_wrong", None);

    let err = opn
        .create_promptpay_charge(baht(10_000), "x", ORDER)
        .await
        .unwrap_err();

    assert!(
        matches!(&err, PaymentError::Rejected { status: 401, code, .. } if code == "authentication_failure"),
        "{err:?}"
    );
    assert!(!err.is_retryable());
    assert_eq!(fake.requests().len(), 1, "no charge after a failed source");
}

#[tokio::test]
async fn server_error_is_unavailable_and_retryable() {
    let fake = FakeOpn::start(SECRET_KEY).await;
    let opn = client(&fake);
    fake.fail_next(500, 1);

    let err = opn
        .create_card_charge(
            "tokn_test_5xx",
            baht(10_000),
            "https://s.example/r",
            "x",
            ORDER,
        )
        .await
        .unwrap_err();

    assert_eq!(err, PaymentError::Unavailable { status: 500 });
    assert!(err.is_retryable());
    assert!(
        fake.charge_ids().is_empty(),
        "a failed request is not carried out"
    );
    let retried = opn
        .create_card_charge(
            "tokn_test_5xx",
            baht(10_000),
            "https://s.example/r",
            "x",
            ORDER,
        )
        .await
        .unwrap();
    assert_eq!(retried.status, ChargeStatus::Successful);
}

#[tokio::test]
async fn late_answer_is_a_timeout() {
    let fake = FakeOpn::start(SECRET_KEY).await;
    let opn = client(&fake);
    let charge = opn
        .create_card_charge(
            "tokn_test_slow",
            baht(10_000),
            "https://s.example/r",
            "x",
            ORDER,
        )
        .await
        .unwrap();
    fake.delay_next(Duration::from_millis(800), 1);

    let started = Instant::now();
    let err = opn.get_charge(&charge.id).await.unwrap_err();

    assert_eq!(err, PaymentError::Timeout);
    assert!(err.is_retryable());
    assert!(started.elapsed() < Duration::from_millis(700));
}

#[tokio::test]
async fn refused_connection_is_unavailable_with_status_zero() {
    let fake = FakeOpn::start(SECRET_KEY).await;
    let base_url = fake.base_url();
    drop(fake);
    tokio::time::sleep(Duration::from_millis(50)).await;
    let opn = client_with(&base_url, SECRET_KEY, None);

    let err = opn.get_charge("chrg_test_1").await.unwrap_err();

    assert_eq!(err, PaymentError::Unavailable { status: 0 });
}

#[tokio::test]
async fn webhook_from_the_fake_names_the_charge() {
    let fake = FakeOpn::start(SECRET_KEY).await;
    let opn = client(&fake);
    let charge = opn
        .create_promptpay_charge(baht(10_000), "x", ORDER)
        .await
        .unwrap();
    fake.complete_charge(&charge.id, "successful");

    let body = serde_json::to_vec(&fake.webhook_body(&charge.id)).unwrap();
    let event = WebhookEvent::parse(&body).unwrap();

    assert_eq!(event.key, "charge.complete");
    assert_eq!(event.charge_id.as_deref(), Some(charge.id.as_str()));
    assert!(
        event
            .id
            .as_deref()
            .is_some_and(|id| id.starts_with("evnt_"))
    );
}

#[test]
fn webhook_about_something_else_has_no_charge() {
    let body =
        br#"{"object":"event","key":"customer.create","data":{"object":"customer","id":"cust_1"}}"#;
    let event = WebhookEvent::parse(body).unwrap();
    assert_eq!(event.key, "customer.create");
    assert_eq!(event.charge_id, None);
}

#[test]
fn malformed_webhooks_are_protocol_errors() {
    let bodies: [&[u8]; 6] = [
        b"",
        b"not json",
        br#"["event"]"#,
        br#"{"object":"event","data":{"object":"charge","id":"chrg_1"}}"#,
        br#"{"object":"charge","key":"charge.complete","data":{}}"#,
        br#"{"object":"event","key":""}"#,
    ];
    for body in bodies {
        assert!(
            matches!(WebhookEvent::parse(body), Err(PaymentError::Protocol(_))),
            "{}",
            String::from_utf8_lossy(body)
        );
    }
    let sneaky =
        br#"{"object":"event","key":"charge.complete","data":{"object":"charge","id":"../x"}}"#;
    assert_eq!(WebhookEvent::parse(sneaky).unwrap().charge_id, None);
}

const SIGNED_TIMESTAMP: &str = "1714555800";
const SIGNED_BODY: &[u8] =
    br#"{"object":"event","key":"charge.complete","data":{"object":"charge","id":"chrg_test_1"}}"#;
/// HMAC-SHA256 over `{timestamp}.{body}` keyed with the base64-decoded secret, computed
/// independently of this crate.
const SIGNED_HEX: &str = "338aa9ba19731226adc07b6cee8f1b66c2c160ec694af90e9b4bd872949785bc";

#[test]
fn signature_matches_the_documented_scheme() {
    assert_eq!(
        FakeOpn::sign_webhook(WEBHOOK_SECRET, SIGNED_TIMESTAMP, SIGNED_BODY),
        SIGNED_HEX
    );
    assert!(verify_webhook_signature(
        WEBHOOK_SECRET,
        SIGNED_TIMESTAMP,
        SIGNED_BODY,
        SIGNED_HEX
    ));
}

#[test]
fn signature_fails_for_a_tampered_body_timestamp_or_secret() {
    let tampered = br#"{"object":"event","key":"charge.complete","data":{"object":"charge","id":"chrg_test_2"}}"#;
    assert!(!verify_webhook_signature(
        WEBHOOK_SECRET,
        SIGNED_TIMESTAMP,
        tampered,
        SIGNED_HEX
    ));
    assert!(!verify_webhook_signature(
        WEBHOOK_SECRET,
        "1714555801",
        SIGNED_BODY,
        SIGNED_HEX
    ));
    assert!(!verify_webhook_signature(
        "b3RoZXItc2VjcmV0",
        SIGNED_TIMESTAMP,
        SIGNED_BODY,
        SIGNED_HEX
    ));
    assert!(!verify_webhook_signature(
        WEBHOOK_SECRET,
        "",
        SIGNED_BODY,
        SIGNED_HEX
    ));
    for bad in [
        "",
        "zz",
        "00",
        &SIGNED_HEX[..62],
        &format!("{SIGNED_HEX}00"),
    ] {
        assert!(
            !verify_webhook_signature(WEBHOOK_SECRET, SIGNED_TIMESTAMP, SIGNED_BODY, bad),
            "{bad}"
        );
    }
}

#[test]
fn any_of_several_signatures_may_match() {
    let old = FakeOpn::sign_webhook("b2xkLXNlY3JldA==", SIGNED_TIMESTAMP, SIGNED_BODY);
    let both = format!("{old}, {SIGNED_HEX}");
    assert!(verify_webhook_signature(
        WEBHOOK_SECRET,
        SIGNED_TIMESTAMP,
        SIGNED_BODY,
        &both
    ));
    let upper = SIGNED_HEX.to_ascii_uppercase();
    assert!(verify_webhook_signature(
        WEBHOOK_SECRET,
        SIGNED_TIMESTAMP,
        SIGNED_BODY,
        &upper
    ));
    assert!(!verify_webhook_signature(
        WEBHOOK_SECRET,
        SIGNED_TIMESTAMP,
        SIGNED_BODY,
        &old
    ));
}

/// The instant [`SIGNED_TIMESTAMP`] names.
fn signed_at() -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::from_timestamp(SIGNED_TIMESTAMP.parse().unwrap(), 0).unwrap()
}

#[tokio::test]
async fn client_accepts_webhooks_only_signed_with_its_secret() {
    let fake = FakeOpn::start(SECRET_KEY).await;
    let now = signed_at();
    let open = client(&fake);
    assert!(!open.checks_webhook_signatures());
    assert!(
        !open.webhook_signature_ok(None, None, SIGNED_BODY, now),
        "no secret, no webhook"
    );
    assert!(!open.webhook_signature_ok(Some(SIGNED_TIMESTAMP), Some(SIGNED_HEX), SIGNED_BODY, now));

    let strict = client_with(&fake.base_url(), SECRET_KEY, Some(WEBHOOK_SECRET));
    assert!(strict.checks_webhook_signatures());
    assert!(strict.webhook_signature_ok(
        Some(SIGNED_TIMESTAMP),
        Some(SIGNED_HEX),
        SIGNED_BODY,
        now
    ));
    assert!(!strict.webhook_signature_ok(None, Some(SIGNED_HEX), SIGNED_BODY, now));
    assert!(!strict.webhook_signature_ok(Some(SIGNED_TIMESTAMP), None, SIGNED_BODY, now));
    assert!(!strict.webhook_signature_ok(Some(SIGNED_TIMESTAMP), Some(SIGNED_HEX), b"{}", now));
}

#[tokio::test]
async fn client_refuses_well_signed_webhooks_sent_too_long_ago_or_ahead() {
    let fake = FakeOpn::start(SECRET_KEY).await;
    let strict = client_with(&fake.base_url(), SECRET_KEY, Some(WEBHOOK_SECRET));
    let ok = |now| {
        strict.webhook_signature_ok(Some(SIGNED_TIMESTAMP), Some(SIGNED_HEX), SIGNED_BODY, now)
    };
    let tolerance = chrono::Duration::from_std(opn::WEBHOOK_TOLERANCE).unwrap();
    let second = chrono::Duration::seconds(1);
    // Within five minutes either way of the server's clock: accepted.
    assert!(ok(signed_at() + tolerance));
    assert!(ok(signed_at() - tolerance));
    // A replay six minutes later, or a timestamp from the future: refused.
    assert!(!ok(signed_at() + tolerance + second));
    assert!(!ok(signed_at() - tolerance - second));
    assert!(!ok(signed_at() + chrono::Duration::days(30)));
}

#[test]
fn settings_debug_hides_secrets() {
    let settings = OpnSettings {
        base_url: opn::BASE_URL.to_owned(),
        secret_key: SECRET_KEY.to_owned(),
        webhook_secret: Some(WEBHOOK_SECRET.to_owned()),
        timeout: TIMEOUT,
    };
    let text = format!("{settings:?}");
    assert!(!text.contains(SECRET_KEY));
    assert!(!text.contains(WEBHOOK_SECRET));
    let client = OpnClient::new(settings).unwrap();
    let text = format!("{client:?}");
    assert!(!text.contains(SECRET_KEY));
    assert!(!text.contains(WEBHOOK_SECRET));
}
