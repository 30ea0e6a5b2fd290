//! "Send to my LINE" against a local fake that speaks LINE's contract: LINE Login's
//! authorize page (which approves at once, or declines), the token endpoint (the code once,
//! the client secret, the PKCE verifier against its S256 challenge; an ID token signed
//! HS256 with the channel secret, or forged), the verify endpoint, and the Messaging API's
//! push (the channel access token, `X-Line-Retry-Key` with 409 for a retry of a message it
//! took; or failing: a bad token, the monthly quota, a server error, an answer too slow).
//! An order is linked, its link pushed as a Flex message at once and its news when paid;
//! forged, replayed and foreign callbacks link nothing; a failed push is retried with the
//! same retry key and counted once; the daily cap holds; the link goes with retention.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Form, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use raceshot_server::infra::channels::ChannelKind;
use raceshot_server::jobs::kinds::SendMessage;
use raceshot_server::jobs::{BackgroundJob, JobContext, JobError};
use raceshot_server::services::messages::MessageKind;
use raceshot_store::Backend;
use raceshot_store::messages::MessageState;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::helpers::{TOKEN, TestApp, event, json};

pub(crate) const CHANNEL_ID: &str = "1650000001";
pub(crate) const CHANNEL_SECRET: &str = "login-channel-secret";
pub(crate) const ACCESS_TOKEN: &str = "messaging-access-token";
pub(crate) const USER: &str = "U4af4980629a0b0c0d0e0f0a0b0c0d0e0";

/// How the fake behaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Normal,
    /// The authorize page: the runner says no.
    Decline,
    /// The token endpoint answers an ID token signed with another secret.
    Forge,
    /// Push: 401, the token is wrong.
    BadToken,
    /// Push: 429, the monthly limit is reached.
    Quota,
    /// Push: 500.
    Broken,
    /// Push: takes the message, then answers 500 (the answer is lost).
    TakesThenFails,
    /// Push: answers after 3 s.
    Slow,
}

/// A push LINE took.
#[derive(Debug, Clone)]
pub(crate) struct Pushed {
    pub(crate) retry_key: String,
    pub(crate) body: Value,
}

#[derive(Default)]
struct Line {
    mode: Option<Mode>,
    /// Codes handed out: their nonce, S256 challenge and redirect address.
    codes: HashMap<String, (String, String, String)>,
    pushed: Vec<Pushed>,
    /// Every retry key LINE took, and every push asked (taken or not).
    taken_keys: Vec<String>,
    asked: usize,
}

type Shared = Arc<Mutex<Line>>;

pub(crate) struct FakeLine {
    addr: SocketAddr,
    line: Shared,
}

impl FakeLine {
    pub(crate) async fn start() -> Self {
        let line: Shared = Arc::default();
        let app = axum::Router::new()
            .route("/oauth2/v2.1/authorize", get(authorize))
            .route("/oauth2/v2.1/token", post(token))
            .route("/oauth2/v2.1/verify", post(verify))
            .route("/v2/bot/message/push", post(push))
            .with_state(line.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        Self { addr, line }
    }

    pub(crate) fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub(crate) fn set(&self, mode: Mode) {
        self.line.lock().unwrap().mode = Some(mode);
    }

    pub(crate) fn pushed(&self) -> Vec<Pushed> {
        self.line.lock().unwrap().pushed.clone()
    }

    fn asked(&self) -> usize {
        self.line.lock().unwrap().asked
    }
}

fn mode(line: &Shared) -> Mode {
    line.lock().unwrap().mode.unwrap_or(Mode::Normal)
}

fn sign(secret: &str, claims: &Value) -> String {
    let header = json!({"typ": "JWT", "alg": "HS256"});
    let signed = format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(header.to_string()),
        URL_SAFE_NO_PAD.encode(claims.to_string())
    );
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(signed.as_bytes());
    format!(
        "{signed}.{}",
        URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
    )
}

fn oauth_error(status: StatusCode, description: &str) -> Response {
    (
        status,
        axum::Json(json!({"error": "invalid_request", "error_description": description})),
    )
        .into_response()
}

async fn authorize(
    State(line): State<Shared>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let get = |k: &str| q.get(k).cloned().unwrap_or_default();
    if get("client_id") != CHANNEL_ID
        || get("response_type") != "code"
        || !get("scope").split(' ').any(|s| s == "openid")
        || get("code_challenge_method") != "S256"
        || get("code_challenge").is_empty()
        || get("nonce").is_empty()
        || get("state").is_empty()
    {
        return oauth_error(StatusCode::BAD_REQUEST, "bad authorize request");
    }
    let redirect = get("redirect_uri");
    let state = get("state");
    if mode(&line) == Mode::Decline {
        return Redirect::to(&format!(
            "{redirect}?error=access_denied&error_description=denied&state={state}"
        ))
        .into_response();
    }
    let code = format!("code-{}", rand::random::<u64>());
    line.lock().unwrap().codes.insert(
        code.clone(),
        (get("nonce"), get("code_challenge"), redirect.clone()),
    );
    Redirect::to(&format!("{redirect}?code={code}&state={state}")).into_response()
}

async fn token(State(line): State<Shared>, Form(f): Form<HashMap<String, String>>) -> Response {
    let get = |k: &str| f.get(k).cloned().unwrap_or_default();
    if get("grant_type") != "authorization_code"
        || get("client_id") != CHANNEL_ID
        || get("client_secret") != CHANNEL_SECRET
    {
        return oauth_error(StatusCode::BAD_REQUEST, "bad client");
    }
    // A code works once.
    let Some((nonce, challenge, redirect)) = line.lock().unwrap().codes.remove(&get("code")) else {
        return oauth_error(StatusCode::BAD_REQUEST, "invalid authorization code");
    };
    let verified = URL_SAFE_NO_PAD.encode(Sha256::digest(get("code_verifier").as_bytes()));
    if verified != challenge || redirect != get("redirect_uri") {
        return oauth_error(StatusCode::BAD_REQUEST, "code_verifier or redirect_uri");
    }
    // LINE's clock is the test shop's.
    let now = crate::helpers::now().timestamp();
    let claims = json!({
        "iss": "https://access.line.me", "sub": USER, "aud": CHANNEL_ID,
        "exp": now + 3600, "iat": now, "nonce": nonce, "amr": ["linesso"], "name": "Somchai"
    });
    let secret = if mode(&line) == Mode::Forge {
        "not-the-secret"
    } else {
        CHANNEL_SECRET
    };
    axum::Json(json!({
        "access_token": "at", "expires_in": 2_592_000, "id_token": sign(secret, &claims),
        "refresh_token": "rt", "scope": "openid profile", "token_type": "Bearer"
    }))
    .into_response()
}

async fn verify(Form(f): Form<HashMap<String, String>>) -> Response {
    let get = |k: &str| f.get(k).cloned().unwrap_or_default();
    let id_token = get("id_token");
    let parts: Vec<&str> = id_token.split('.').collect();
    let [header, payload, signature] = parts[..] else {
        return oauth_error(StatusCode::BAD_REQUEST, "Invalid IdToken.");
    };
    let mut mac = Hmac::<Sha256>::new_from_slice(CHANNEL_SECRET.as_bytes()).unwrap();
    mac.update(format!("{header}.{payload}").as_bytes());
    let good = URL_SAFE_NO_PAD
        .decode(signature)
        .is_ok_and(|s| mac.verify_slice(&s).is_ok());
    let claims: Value =
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap_or_default())
            .unwrap_or(Value::Null);
    if !good || get("client_id") != CHANNEL_ID || claims["nonce"] != get("nonce").as_str() {
        return oauth_error(StatusCode::BAD_REQUEST, "Invalid IdToken.");
    }
    axum::Json(claims).into_response()
}

async fn push(State(line): State<Shared>, headers: HeaderMap, body: String) -> Response {
    let auth = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let retry_key = headers
        .get("x-line-retry-key")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let mode = {
        let mut l = line.lock().unwrap();
        l.asked += 1;
        l.mode.unwrap_or(Mode::Normal)
    };
    let refuse = |status: StatusCode, message: &str| {
        (status, axum::Json(json!({"message": message}))).into_response()
    };
    if auth != format!("Bearer {ACCESS_TOKEN}") || mode == Mode::BadToken {
        return refuse(
            StatusCode::UNAUTHORIZED,
            "Authentication failed. Confirm that the access token in the authorization header is valid.",
        );
    }
    match mode {
        Mode::Quota => {
            return refuse(
                StatusCode::TOO_MANY_REQUESTS,
                "You have reached your monthly limit.",
            );
        }
        Mode::Broken => return refuse(StatusCode::INTERNAL_SERVER_ERROR, "Internal error"),
        Mode::Slow => tokio::time::sleep(Duration::from_secs(3)).await,
        _ => {}
    }
    let body: Value = serde_json::from_str(&body).unwrap();
    if body["to"] != USER || body["messages"][0]["type"] != "flex" {
        return refuse(
            StatusCode::BAD_REQUEST,
            "The property, 'to', in the request body is invalid",
        );
    }
    {
        let mut l = line.lock().unwrap();
        if l.taken_keys.contains(&retry_key) {
            return (
                StatusCode::CONFLICT,
                [("x-line-accepted-request-id", "req-1")],
                axum::Json(json!({"message": "The retry key is already accepted"})),
            )
                .into_response();
        }
        l.taken_keys.push(retry_key.clone());
        l.pushed.push(Pushed { retry_key, body });
    }
    if mode == Mode::TakesThenFails {
        return refuse(StatusCode::INTERNAL_SERVER_ERROR, "Internal error");
    }
    axum::Json(json!({"sentMessages": [{"id": "1", "quoteToken": "q"}]})).into_response()
}

async fn app_with_line(backend: Backend, fake: &FakeLine, extra: &[(&str, &str)]) -> TestApp {
    let mut builder = TestApp::builder(backend)
        .with_event(event("line-run"))
        .with_env("RACESHOT__LINE__LOGIN_CHANNEL_ID", CHANNEL_ID)
        .with_env("RACESHOT__LINE__LOGIN_CHANNEL_SECRET", CHANNEL_SECRET)
        .with_env("RACESHOT__LINE__CHANNEL_ACCESS_TOKEN", ACCESS_TOKEN)
        .with_env("RACESHOT__LINE__ACCESS_BASE", &fake.url())
        .with_env("RACESHOT__LINE__API_BASE", &fake.url())
        .with_env("RACESHOT__LINE__TIMEOUT_SECS", "1");
    for (k, v) in extra {
        builder = builder.with_env(k, v);
    }
    builder.spawn().await
}

pub(crate) fn browser() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

pub(crate) fn location(resp: &reqwest::Response) -> String {
    resp.headers()[header::LOCATION]
        .to_str()
        .unwrap()
        .to_owned()
}

/// What the browser keeps of a LINE login between the two navigations.
pub(crate) fn cookie_of(resp: &reqwest::Response) -> String {
    let set = resp.headers()[header::SET_COOKIE]
        .to_str()
        .unwrap()
        .to_owned();
    for part in ["HttpOnly", "SameSite=Lax", "Path=/api/line", "Max-Age=600"] {
        assert!(set.contains(part), "{set}");
    }
    set.split(';').next().unwrap().to_owned()
}

/// Starts "Send to my LINE" for an order and goes through LINE's page: the callback
/// address LINE sends the browser back to, and the cookie the browser holds.
async fn through_line(app: &TestApp, uuid: &str) -> (String, String) {
    let b = browser();
    let start = b
        .get(app.url(&format!("/api/line/link/order/{uuid}")))
        .send()
        .await
        .unwrap();
    assert_eq!(start.status(), 303);
    let cookie = cookie_of(&start);
    let to_line = location(&start);
    let at_line = b.get(&to_line).send().await.unwrap();
    assert!(at_line.status().is_redirection(), "{}", at_line.status());
    let back = location(&at_line);
    assert!(back.starts_with(&app.url("/api/line/callback?")), "{back}");
    (back, cookie)
}

pub(crate) async fn callback(back: &str, cookie: Option<&str>) -> String {
    let mut req = browser().get(back);
    if let Some(cookie) = cookie {
        req = req.header(header::COOKIE, cookie);
    }
    let resp = req.send().await.unwrap();
    assert_eq!(resp.status(), 303);
    location(&resp)
}

async fn order_id(app: &TestApp, uuid: &str) -> i64 {
    app.store
        .order_by_uuid(crate::helpers::oid(uuid))
        .await
        .unwrap()
        .unwrap()
        .id
}

pub(crate) async fn wait_pushed(fake: &FakeLine, n: usize) -> Vec<Pushed> {
    for _ in 0..100 {
        let pushed = fake.pushed();
        if pushed.len() >= n {
            return pushed;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("LINE got {} messages, not {n}", fake.pushed().len());
}

async fn an_order_sent_to_line_gets_its_link_and_its_news_there(backend: Backend) {
    let fake = FakeLine::start().await;
    let app = app_with_line(backend, &fake, &[]).await;
    let conf = json(
        app.post(
            "/v1/utils/conf",
            &json!({ "tk": TOKEN, "conf_name": "LINE_LOGIN" }),
        )
        .await,
    )
    .await;
    assert_eq!(conf["body"]["value"], "on", "{conf}");
    let (_, uuid) = app.promptpay_order("line-run", 2).await;

    let (back, cookie) = through_line(&app, &uuid).await;
    // The address LINE was sent to asks for PKCE and the Official Account's friendship.
    let landed = callback(&back, Some(&cookie)).await;
    assert_eq!(
        landed,
        app.url(&format!("/download/{uuid}?line=linked")),
        "{landed}"
    );
    let id = order_id(&app, &uuid).await;
    assert_eq!(
        app.store.line_user_of_order(id).await.unwrap().as_deref(),
        Some(USER)
    );

    // The order's link, at once, as a Flex message with a button to the order.
    let pushed = wait_pushed(&fake, 1).await;
    let flex = &pushed[0].body["messages"][0];
    assert_eq!(flex["contents"]["type"], "bubble");
    let button = flex["contents"]["footer"]["contents"][0]["action"]["uri"]
        .as_str()
        .unwrap();
    assert_eq!(button, app.url(&format!("/download/{uuid}")));
    assert!(!pushed[0].retry_key.is_empty());

    // Paid: the news follows on LINE (and nowhere else is it sent twice).
    let paid = json(app.sandbox_pay(&uuid, "paid").await).await;
    assert_eq!(paid["payment_status"], "PAID", "{paid}");
    let pushed = wait_pushed(&fake, 2).await;
    let alt = pushed[1].body["messages"][0]["altText"].as_str().unwrap();
    assert!(alt.contains("Your photos are ready"), "{alt}");
    app.jobs_done().await;
    assert_eq!(fake.pushed().len(), 2);

    // The callback again (a replay): nothing is linked or sent, the page says it expired.
    let again = callback(&back, Some(&cookie)).await;
    assert_eq!(again, app.url("/?line=expired"));
    app.jobs_done().await;
    assert_eq!(fake.pushed().len(), 2);

    // With the event's files goes the LINE account.
    app.store
        .forget_line_links_before("2099-01-01")
        .await
        .unwrap();
    assert_eq!(app.store.line_user_of_order(id).await.unwrap(), None);
}

async fn forged_foreign_and_declined_logins_link_nothing(backend: Backend) {
    let fake = FakeLine::start().await;
    let app = app_with_line(backend, &fake, &[]).await;
    let (_, uuid) = app.promptpay_order("line-run", 1).await;
    let id = order_id(&app, &uuid).await;
    let failed = app.url(&format!("/download/{uuid}?line=failed"));

    // An ID token signed with another secret.
    fake.set(Mode::Forge);
    let (back, cookie) = through_line(&app, &uuid).await;
    assert_eq!(callback(&back, Some(&cookie)).await, failed);
    // The callback in a browser that did not start the login (no cookie, or another's).
    fake.set(Mode::Normal);
    let (back, _) = through_line(&app, &uuid).await;
    assert_eq!(callback(&back, None).await, failed);
    let (back, _) = through_line(&app, &uuid).await;
    let (_, other) = through_line(&app, &uuid).await;
    assert_eq!(callback(&back, Some(&other)).await, failed);
    // The runner says no.
    fake.set(Mode::Decline);
    let (back, cookie) = through_line(&app, &uuid).await;
    assert_eq!(
        callback(&back, Some(&cookie)).await,
        app.url(&format!("/download/{uuid}?line=declined"))
    );
    // A made-up state.
    let made_up = app.url("/api/line/callback?code=x&state=not-a-login");
    assert_eq!(
        callback(&made_up, Some("raceshot_line=not-a-login")).await,
        app.url("/?line=expired")
    );

    assert_eq!(app.store.line_user_of_order(id).await.unwrap(), None);
    app.jobs_done().await;
    assert_eq!(fake.asked(), 0, "nothing was pushed");
}

crate::both_backends!(
    an_order_sent_to_line_gets_its_link_and_its_news_there,
    forged_foreign_and_declined_logins_link_nothing,
);

#[tokio::test]
async fn without_line_set_up_there_is_no_send_to_line() {
    let app = TestApp::with_one_event("line-run").await;
    let (_, uuid) = app.promptpay_order("line-run", 1).await;
    let conf = json(
        app.post(
            "/v1/utils/conf",
            &json!({ "tk": TOKEN, "conf_name": "LINE_LOGIN" }),
        )
        .await,
    )
    .await;
    assert_eq!(conf["body"]["value"], "off");
    let resp = browser()
        .get(app.url(&format!("/api/line/link/order/{uuid}")))
        .send()
        .await
        .unwrap();
    crate::helpers::assert_error(resp, 404, "line_unavailable").await;
}

async fn run(app: &TestApp, job: &SendMessage) -> Result<(), JobError> {
    let ctx = JobContext {
        state: &app.state,
        job_id: 0,
        worker: "test",
    };
    job.run(&ctx).await
}

async fn outbox_state(app: &TestApp, key: &str) -> MessageState {
    app.store
        .outbox_entry(
            &raceshot_store::messages::NewMessage {
                dedupe_key: key,
                channel: "line",
                kind: "order_link",
                retry_key: "unused",
            },
            crate::helpers::now(),
        )
        .await
        .unwrap()
        .state
}

/// A push LINE did not take is tried again with the same retry key, and counts once.
#[tokio::test]
async fn failed_pushes_are_retried_with_the_same_key_and_sent_once() {
    let fake = FakeLine::start().await;
    let app = app_with_line(Backend::Sqlite, &fake, &[]).await;
    let (_, uuid) = app.promptpay_order("line-run", 1).await;
    let id = order_id(&app, &uuid).await;
    app.store
        .link_line(id, USER, crate::helpers::now())
        .await
        .unwrap();
    let job = SendMessage {
        kind: MessageKind::OrderLink,
        subject: id.to_string(),
        channel: ChannelKind::Line,
    };
    for failure in [Mode::BadToken, Mode::Quota, Mode::Broken, Mode::Slow] {
        fake.set(failure);
        let result = run(&app, &job).await;
        assert!(
            matches!(result, Err(JobError::Retry(_))),
            "{failure:?}: {result:?}"
        );
        assert_eq!(outbox_state(&app, &job.key()).await, MessageState::Sending);
    }
    assert!(fake.pushed().is_empty());
    // LINE takes it but the answer is lost; the retry carries the same key: 409, sent once.
    fake.set(Mode::TakesThenFails);
    assert!(matches!(run(&app, &job).await, Err(JobError::Retry(_))));
    fake.set(Mode::Normal);
    run(&app, &job).await.unwrap();
    assert_eq!(fake.pushed().len(), 1);
    assert_eq!(outbox_state(&app, &job.key()).await, MessageState::Sent);
    // Done with: a replay sends nothing.
    let asked = fake.asked();
    run(&app, &job).await.unwrap();
    assert_eq!(fake.asked(), asked);
    assert_eq!(fake.pushed().len(), 1);
}

/// Past the day's cap a message is not sent, and says so.
#[tokio::test]
async fn the_daily_cap_stops_messages() {
    let fake = FakeLine::start().await;
    let app = app_with_line(
        Backend::Sqlite,
        &fake,
        &[("RACESHOT__MESSAGES__DAILY_CAP__LINE", "1")],
    )
    .await;
    let mut jobs = Vec::new();
    for _ in 0..2 {
        let (_, uuid) = app.promptpay_order("line-run", 1).await;
        let id = order_id(&app, &uuid).await;
        app.store
            .link_line(id, USER, crate::helpers::now())
            .await
            .unwrap();
        jobs.push(SendMessage {
            kind: MessageKind::OrderLink,
            subject: id.to_string(),
            channel: ChannelKind::Line,
        });
    }
    run(&app, &jobs[0]).await.unwrap();
    run(&app, &jobs[1]).await.unwrap();
    assert_eq!(fake.pushed().len(), 1);
    assert_eq!(
        outbox_state(&app, &jobs[1].key()).await,
        MessageState::Capped
    );
    let counts = app
        .store
        .message_counts(crate::helpers::now() - chrono::Duration::days(1))
        .await
        .unwrap();
    let of = |state| {
        counts
            .iter()
            .find(|c| c.channel == "line" && c.state == state)
            .map(|c| c.count)
    };
    assert_eq!(
        (of(MessageState::Sent), of(MessageState::Capped)),
        (Some(1), Some(1))
    );
}

/// An admin sends a test message through LINE from the console; a refusal is shown with
/// the provider's reason; the dashboard counts what each channel did.
#[tokio::test]
async fn the_console_tries_a_channel_and_counts_messages() {
    use raceshot_store::operators::Role;
    use reqwest::Method;
    let fake = FakeLine::start().await;
    let app = app_with_line(Backend::Sqlite, &fake, &[]).await;
    app.account("boss@example.com", Role::Admin, &[]).await;
    let boss = app.sign_in("boss@example.com").await;
    let trial = |channel: &str, to: &str| {
        app.call(
            Method::POST,
            "/api/admin/messages/trial",
            Some(&boss),
            Some(json!({ "channel": channel, "to": to })),
        )
    };
    let sent = json(trial("line", USER).await).await;
    assert_eq!(sent["outcome"], "sent", "{sent}");
    let pushed = fake.pushed();
    assert_eq!(pushed.len(), 1);
    assert!(
        pushed[0].body["messages"][0]["altText"]
            .as_str()
            .unwrap()
            .contains("A test message")
    );
    // No SMTP server: the mail is only logged, and says so.
    let logged = json(trial("email", "boss@example.com").await).await;
    assert_eq!(logged["outcome"], "logged");
    // Refusals: a malformed recipient, an unknown channel, LINE's refusal of the token.
    crate::helpers::assert_error(trial("line", "not-a-user").await, 422, "invalid_field").await;
    crate::helpers::assert_error(trial("fax", "1").await, 422, "invalid_field").await;
    fake.set(Mode::BadToken);
    let refused = crate::helpers::assert_error(trial("line", USER).await, 503, "unavailable").await;
    assert!(
        refused["message"].as_str().unwrap().contains("401"),
        "{refused}"
    );

    let counts = json(
        app.call(Method::GET, "/api/admin/messages?days=1", Some(&boss), None)
            .await,
    )
    .await;
    let line = counts["channels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["channel"] == "line")
        .unwrap();
    assert_eq!(
        (
            line["delivers"].clone(),
            line["sent_today"].clone(),
            line["daily_cap"].clone()
        ),
        (json!(true), json!(1), json!(1000))
    );
    let of = |outcome: &str| {
        counts["counts"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["channel"] == "line" && c["outcome"] == outcome)
            .map(|c| c["count"].as_i64().unwrap())
            .sum::<i64>()
    };
    // A trial is not retried: refused, it is done with.
    assert_eq!((of("sent"), of("failed"), of("sending")), (1, 1, 0));
    crate::helpers::assert_error(
        app.call(
            Method::GET,
            "/api/admin/messages?days=31",
            Some(&boss),
            None,
        )
        .await,
        422,
        "invalid_field",
    )
    .await;
    let audit = app.store.audit_entries(None, 10).await;
    assert!(format!("{audit:?}").contains("messages.trial"));
}
