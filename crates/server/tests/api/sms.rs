//! SMS through ThaiBulkSMS's HTTP API, against a local fake that speaks its contract
//! (`POST /sms`, HTTP Basic with the API key and secret, a form of `msisdn`, `message`
//! and `sender`; success lists the numbers taken, errors are `{"error": {…}}`): with a
//! provider set, a found order's code goes by SMS to the order's mobile number and opens
//! the order; a provider that refuses leaves no code behind.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::post;
use base64::Engine as _;
use raceshot_store::Backend;
use serde_json::{Value, json};

use raceshot_store::operators::Role;
use reqwest::Method;

use crate::helpers::{TOKEN, TestApp, assert_error, event, json};

/// Numbers the fake provider lists as bad.
pub(crate) const BAD_PREFIX: &str = "0899";
pub(crate) const KEY: &str = "tbs-key";
pub(crate) const SECRET: &str = "tbs-secret";

/// What the fake provider received: the Basic credentials and the form.
#[derive(Debug, Clone)]
pub(crate) struct Received {
    auth: String,
    content_type: String,
    form: Vec<(String, String)>,
}

impl Received {
    pub(crate) fn field(&self, name: &str) -> Option<&str> {
        self.form
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

type Inbox = Arc<Mutex<Vec<Received>>>;

/// How the fake provider fails, when it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Failure {
    /// 500, with the provider's error body.
    Broken,
    /// Answers after 3 s (past the shop's timeout).
    Slow,
}

type Failing = Arc<Mutex<Option<Failure>>>;

/// A ThaiBulkSMS account on 127.0.0.1 that takes messages only with `KEY:SECRET`.
pub(crate) struct FakeThaiBulkSms {
    addr: SocketAddr,
    inbox: Inbox,
    failing: Failing,
}

async fn send(
    State((inbox, failing)): State<(Inbox, Failing)>,
    headers: HeaderMap,
    body: String,
) -> impl IntoResponse {
    let failure = *failing.lock().unwrap();
    match failure {
        Some(Failure::Broken) => {
            let error = json!({"error": {"code": 500, "name": "INTERNAL_SERVER_ERROR", "description": "Internal server error"}});
            return (StatusCode::INTERNAL_SERVER_ERROR, axum::Json(error));
        }
        Some(Failure::Slow) => tokio::time::sleep(std::time::Duration::from_secs(3)).await,
        None => {}
    }
    let auth = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let expected = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{KEY}:{SECRET}"))
    );
    if auth != expected {
        let error = json!({"error": {"code": 401, "name": "UNAUTHORIZED", "description": "Invalid API key or secret"}});
        return (StatusCode::UNAUTHORIZED, axum::Json(error));
    }
    let form: Vec<(String, String)> = serde_urlencoded::from_str(&body).unwrap();
    let received = Received {
        auth,
        content_type: headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned(),
        form,
    };
    let number = received.field("msisdn").unwrap_or_default().to_owned();
    inbox.lock().unwrap().push(received);
    // Numbers of 0899 are ones the provider cannot deliver to: it says so per number.
    let answer = if number.starts_with(BAD_PREFIX) {
        json!({
            "remaining_credit": 99,
            "total_use_credit": 0,
            "credit_type": "standard",
            "phone_number_list": [],
            "bad_phone_number_list": [{"number": number, "message": "Invalid phone number"}],
        })
    } else {
        json!({
            "remaining_credit": 99,
            "total_use_credit": 1,
            "credit_type": "standard",
            "phone_number_list": [{"number": number, "message_id": "m-1", "used_credit": 1}],
            "bad_phone_number_list": [],
        })
    };
    (StatusCode::CREATED, axum::Json(answer))
}

impl FakeThaiBulkSms {
    pub(crate) async fn start() -> Self {
        let inbox: Inbox = Arc::default();
        let failing: Failing = Arc::default();
        let app = axum::Router::new()
            .route("/sms", post(send))
            .with_state((inbox.clone(), failing.clone()));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        Self {
            addr,
            inbox,
            failing,
        }
    }

    /// Fails every message from now on as `failure` says; `None` takes them again.
    pub(crate) fn fail(&self, failure: Option<Failure>) {
        *self.failing.lock().unwrap() = failure;
    }

    pub(crate) fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub(crate) fn messages(&self) -> Vec<Received> {
        self.inbox.lock().unwrap().clone()
    }

    /// Waits until `n` messages came (jobs send them in the background).
    pub(crate) async fn wait_for(&self, n: usize) {
        for _ in 0..200 {
            if self.messages().len() >= n {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!(
            "the provider got {} messages, not {n}",
            self.messages().len()
        );
    }
}

/// An app texting through `fake` with the API key `key`, with the event `finder`.
pub(crate) fn sms_builder(
    backend: Backend,
    fake: &FakeThaiBulkSms,
    key: &str,
) -> crate::helpers::TestAppBuilder {
    TestApp::builder(backend)
        .with_event(event("finder"))
        .with_env("RACESHOT__SMS__PROVIDER", "thaibulksms")
        .with_env("RACESHOT__SMS__API_BASE", &fake.url())
        .with_env("RACESHOT__SMS__KEY", key)
        .with_env("RACESHOT__SMS__SECRET", SECRET)
        .with_env("RACESHOT__SMS__SENDER", "RaceShot")
        .with_env("RACESHOT__ORDERS__FIND_PER_CLIENT_PER_MINUTE", "100")
}

async fn app_with_sms(backend: Backend, fake: &FakeThaiBulkSms, key: &str) -> TestApp {
    sms_builder(backend, fake, key).spawn().await
}

/// Places an order of 0812345678 (its e-mail is not delivered: no SMTP server) and finds
/// it: the lookup reference and the masked contact a code goes to.
async fn found_order(app: &TestApp) -> (String, Value) {
    let (_, uuid) = app.promptpay_order("finder", 1).await;
    let found = json(
        app.post(
            "/v1/order/find-order",
            &json!({ "tk": TOKEN, "filter_type": "mobile", "txt_search": "0812345678" }),
        )
        .await,
    )
    .await;
    let row = found["body"][0].clone();
    assert!(!found.to_string().contains(&uuid), "{found}");
    (uuid, row)
}

#[tokio::test]
async fn a_found_orders_code_goes_by_sms_through_thaibulksms_and_opens_the_order() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let fake = FakeThaiBulkSms::start().await;
        let app = app_with_sms(backend, &fake, KEY).await;
        let (uuid, row) = found_order(&app).await;
        assert_eq!(row["contact"], "******5678", "{row}");
        // The order's link is texted when it is placed.
        fake.wait_for(1).await;
        let lookup = row["lookup"].as_str().unwrap();

        let sent = app
            .post(
                "/v1/order/find-order/send-code",
                &json!({ "lookup": lookup }),
            )
            .await;
        assert_eq!(sent.status(), 200);
        assert_eq!(json(sent).await["contact"], "******5678");
        // The order's link went out when it was placed; the code is the one after it.
        let messages = fake.messages();
        assert_eq!(messages.len(), 2, "{messages:?}");
        let sms = &messages[1];
        assert!(sms.auth.starts_with("Basic "));
        assert_eq!(sms.content_type, "application/x-www-form-urlencoded");
        assert_eq!(sms.field("msisdn"), Some("0812345678"));
        assert_eq!(sms.field("sender"), Some("RaceShot"));
        let text = sms.field("message").unwrap();
        assert!(
            !text.contains(&uuid),
            "the text does not carry the order's id"
        );
        let code: String = text
            .split(|c: char| !c.is_ascii_digit())
            .find(|w| w.len() == 6)
            .unwrap_or_else(|| panic!("no code in {text}"))
            .to_owned();

        let opened = json(
            app.post(
                "/v1/order/find-order/open",
                &json!({ "lookup": lookup, "code": code }),
            )
            .await,
        )
        .await;
        assert_eq!(opened["order_id"], uuid.as_str(), "{opened}");
    }
}

#[tokio::test]
async fn a_provider_that_refuses_leaves_no_code_and_says_so() {
    let fake = FakeThaiBulkSms::start().await;
    let app = app_with_sms(Backend::Sqlite, &fake, "a-revoked-key").await;
    let (_, row) = found_order(&app).await;
    let lookup = row["lookup"].as_str().unwrap();
    let refused = app
        .post(
            "/v1/order/find-order/send-code",
            &json!({ "lookup": lookup }),
        )
        .await;
    assert_error(refused, 503, "unavailable").await;
    assert!(fake.messages().is_empty());
    // Nothing was kept of the code that did not go out: asking again is not "too soon".
    let again = app
        .post(
            "/v1/order/find-order/send-code",
            &json!({ "lookup": lookup }),
        )
        .await;
    assert_error(again, 503, "unavailable").await;
}

#[tokio::test]
async fn an_admin_sets_the_sms_provider_in_the_console_and_its_secrets_are_never_shown() {
    let fake = FakeThaiBulkSms::start().await;
    // The provider's address is the server's configuration; the rest is the console's.
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(event("finder"))
        .with_env("RACESHOT__SMS__API_BASE", &fake.url())
        .spawn()
        .await;
    app.account("boss@example.com", Role::Admin, &[]).await;
    let boss = app.sign_in("boss@example.com").await;
    let (_, row) = found_order(&app).await;
    // No channel: nothing opens a found order.
    assert_eq!(row["contact"], "", "{row}");

    // A provider without its keys is refused, naming the key.
    let half = app
        .call(
            Method::PUT,
            "/api/admin/settings",
            Some(&boss),
            Some(json!({"changes": {"sms.provider": "thaibulksms"}})),
        )
        .await;
    let body = assert_error(half, 422, "invalid_field").await;
    assert!(body.to_string().contains("sms.key"), "{body}");

    let saved = app
        .call(
            Method::PUT,
            "/api/admin/settings",
            Some(&boss),
            Some(json!({"changes": {
                "sms.provider": "thaibulksms",
                "sms.key": KEY,
                "sms.secret": SECRET,
                "sms.sender": "RaceShot",
            }})),
        )
        .await;
    let saved = json(saved).await;
    assert_eq!(saved["sms_provider"], "thaibulksms", "{saved}");
    let settings = saved["settings"].as_array().unwrap();
    for key in ["sms.key", "sms.secret"] {
        let s = settings.iter().find(|s| s["key"] == key).unwrap();
        assert_eq!(s["value"], Value::Null, "{s}");
        assert_eq!(s["set"], true);
    }
    assert!(!saved.to_string().contains(SECRET));

    // At once, a found order's code goes by SMS.
    let (_, row) = found_order(&app).await;
    assert_eq!(row["contact"], "******5678", "{row}");
    let sent = app
        .post(
            "/v1/order/find-order/send-code",
            &json!({ "lookup": row["lookup"] }),
        )
        .await;
    assert_eq!(sent.status(), 200);
    let messages = fake.messages();
    let code = messages
        .iter()
        .find(|m| m.field("message").is_some_and(|t| t.contains("Your code")))
        .unwrap();
    assert_eq!(code.field("sender"), Some("RaceShot"));
}

/// With SMS set up, an order's link is texted when it is placed, and its news when it is
/// paid, each once.
#[tokio::test]
async fn orders_are_texted_their_link_when_placed_and_when_ready() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let fake = FakeThaiBulkSms::start().await;
        let app = app_with_sms(backend, &fake, KEY).await;
        let (_, uuid) = app.promptpay_order("finder", 2).await;
        app.jobs_done().await;
        let messages = fake.messages();
        assert_eq!(messages.len(), 1, "{messages:?}");
        let link = format!("{}/download/{uuid}", app.url(""));
        let placed = messages[0].field("message").unwrap();
        assert!(
            placed.contains(&link) && placed.contains("Your order"),
            "{placed}"
        );

        let paid = json(app.sandbox_pay(&uuid, "paid").await).await;
        assert_eq!(paid["payment_status"], "PAID", "{paid}");
        app.jobs_done().await;
        let messages = fake.messages();
        assert_eq!(messages.len(), 2, "{messages:?}");
        let ready = messages[1].field("message").unwrap();
        assert!(
            ready.contains(&link) && ready.contains("Your photos are ready"),
            "{ready}"
        );
        let order = app
            .store
            .order_by_uuid(crate::helpers::oid(&uuid))
            .await
            .unwrap()
            .unwrap();
        assert!(order.is_send_sms);
        // The news again (a replayed job): nothing more is sent.
        let ctx = raceshot_server::jobs::JobContext {
            state: &app.state,
            job_id: 0,
            worker: "test",
        };
        let again = raceshot_server::jobs::kinds::SendMessage {
            kind: raceshot_server::services::messages::MessageKind::OrderReady,
            subject: order.id.to_string(),
            channel: raceshot_server::infra::channels::ChannelKind::Sms,
        };
        raceshot_server::jobs::BackgroundJob::run(&again, &ctx)
            .await
            .unwrap();
        assert_eq!(fake.messages().len(), 2);
    }
}

/// A provider that fails (a server error, an answer past the timeout) leaves the message to
/// be tried again, with nothing counted as sent; once it takes messages again, the retry
/// sends it, once. A number it lists as bad ends the message at once.
#[tokio::test]
async fn a_failing_provider_is_tried_again_and_a_bad_number_is_given_up() {
    use raceshot_server::infra::channels::ChannelKind;
    use raceshot_server::jobs::kinds::SendMessage;
    use raceshot_server::jobs::{BackgroundJob, JobContext, JobError};
    use raceshot_server::services::messages::MessageKind;
    let fake = FakeThaiBulkSms::start().await;
    let app = sms_builder(Backend::Sqlite, &fake, KEY)
        .with_env("RACESHOT__SMS__TIMEOUT_SECS", "1")
        .without_jobs()
        .spawn()
        .await;
    let (_, uuid) = app.promptpay_order("finder", 1).await;
    let order = app
        .store
        .order_by_uuid(crate::helpers::oid(&uuid))
        .await
        .unwrap()
        .unwrap();
    let ctx = JobContext {
        state: &app.state,
        job_id: 0,
        worker: "test",
    };
    let link = SendMessage {
        kind: MessageKind::OrderLink,
        subject: order.id.to_string(),
        channel: ChannelKind::Sms,
    };
    for failure in [Failure::Broken, Failure::Slow] {
        fake.fail(Some(failure));
        let tried = link.run(&ctx).await;
        assert!(
            matches!(tried, Err(JobError::Retry(_))),
            "{failure:?}: {tried:?}"
        );
    }
    assert_eq!(
        app.store
            .messages_sent_since("sms", crate::helpers::now() - chrono::Duration::days(1))
            .await
            .unwrap(),
        0
    );
    fake.fail(None);
    link.run(&ctx).await.unwrap();
    link.run(&ctx).await.unwrap();
    let texted: Vec<_> = fake
        .messages()
        .into_iter()
        .filter(|m| m.field("message").is_some_and(|t| t.contains("Your order")))
        .collect();
    assert_eq!(texted.len(), 1);

    // An order of a number the provider cannot reach: its message is given up at once.
    let mut body = app
        .order_body("finder", &app.ready_photos("finder", 1).await, "PP")
        .await;
    body["mobile"] = json!(format!("{BAD_PREFIX}123456"));
    let bad_uuid = app.create_order("/v3/order/create", &body).await;
    let bad = app
        .store
        .order_by_uuid(crate::helpers::oid(&bad_uuid))
        .await
        .unwrap()
        .unwrap();
    let to_bad = SendMessage {
        subject: bad.id.to_string(),
        ..link
    };
    let given_up = to_bad.run(&ctx).await;
    assert!(
        matches!(given_up, Err(JobError::Permanent(_))),
        "{given_up:?}"
    );
}
