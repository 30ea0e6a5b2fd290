//! Test support (feature `testing`): local fake GB Prime Pay and OPN servers that speak
//! the same HTTP contracts as the real gateways, so the adapters — and the server's API
//! tests — run against a real socket without the internet.
//!
//! Each fake binds `127.0.0.1:0`, serves until it is dropped, records every request, and
//! can be told to fail ([`FakeGbp::fail_next`]) or to answer late ([`FakeGbp::delay_next`])
//! for the next few requests. A late request is carried out at once and only its answer
//! waits, as with a real gateway whose answer is lost: the charge exists even though the
//! caller timed out. A failed one is not carried out.
//!
//! What the fakes check, so tests prove the adapters send it:
//! - GB Prime Pay `POST /v3/qrcode`: form `token` (else 401), `amount` with exactly two
//!   decimals and above zero, `referenceNo` of 1 to 15 characters, an http(s)
//!   `backgroundUrl`, a `detail` field (else 400). `POST /v1/check_status_txn`: Basic auth
//!   with the secret key (else 401) and a JSON `referenceNo` (else 400).
//! - OPN: Basic auth with the secret key on every API call (else 401
//!   `authentication_failure`); `amount` a positive whole number of satang, `currency`
//!   `thb`, a source `type` of `promptpay`; a charge takes exactly one of `card` (a
//!   `tokn_…` token, each usable once) and `source` (one this fake made, of the same
//!   amount, charged once); a 3-D Secure card charge needs `return_uri`. Errors are OPN
//!   error objects (`bad_request`, `not_found`, `invalid_charge`, `used_token`).
//!
//! Behaviour chosen by the fakes where the gateways' documents leave it open: GB Prime
//! Pay's unpaid reference answers `resultCode "00"` with transaction status `P`, an
//! unknown one `resultCode "02"`; error bodies are `{"resultCode": "99", "resultMessage":
//! ...}`. OPN PromptPay charges expire 24 hours after creation; a failed 3-D Secure
//! attempt gets `failure_code` `failed_3ds`.

// Test support: a misused fake must fail the test on the spot.
#![allow(clippy::panic)]

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use bytes::Bytes;
use raceshot_domain::Money;
use serde_json::{Value, json};
use tokio::task::JoinHandle;

use crate::opn;

/// The largest request body the fakes read.
const MAX_REQUEST_BYTES: usize = 1024 * 1024;

/// A 1×1 grey PNG: what the fake GB Prime Pay answers for every QR.
pub const FAKE_QR_PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x00, 0x00, 0x00, 0x3a, 0x7e, 0x9b,
    0x55, 0x00, 0x00, 0x00, 0x0a, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x60, 0x00, 0x00, 0x00,
    0x02, 0x00, 0x01, 0x48, 0xaf, 0xa4, 0x71, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae,
    0x42, 0x60, 0x82,
];

/// Ids unique across every fake in the process.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

fn next_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

/// One request as a fake received it.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedRequest {
    pub method: String,
    pub path: String,
    /// The query string without `?`; empty when there is none.
    pub query: String,
    /// Header names in lowercase, in the order received.
    pub headers: Vec<(String, String)>,
    /// The form fields of a form-urlencoded body (the last value of a repeated key).
    pub form: BTreeMap<String, String>,
    /// The body, when it is JSON.
    pub json: Option<Value>,
    pub body: Bytes,
}

impl RecordedRequest {
    /// The first value of a header, by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// User and password of a Basic `Authorization` header.
    pub fn basic_auth(&self) -> Option<(String, String)> {
        basic_auth(self.header("authorization")?)
    }
}

fn basic_auth(value: &str) -> Option<(String, String)> {
    let encoded = value.strip_prefix("Basic ")?.trim();
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let (user, password) = text.split_once(':')?;
    Some((user.to_owned(), password.to_owned()))
}

async fn record(request: Request) -> RecordedRequest {
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, MAX_REQUEST_BYTES)
        .await
        .unwrap_or_default();
    let headers = header_list(&parts.headers);
    let content_type = parts
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase();
    let form = if content_type.starts_with("application/x-www-form-urlencoded") {
        serde_urlencoded::from_bytes::<Vec<(String, String)>>(&body)
            .map(|pairs| pairs.into_iter().collect())
            .unwrap_or_default()
    } else {
        BTreeMap::new()
    };
    let json = if body.is_empty() {
        None
    } else {
        serde_json::from_slice(&body).ok()
    };
    RecordedRequest {
        method: parts.method.as_str().to_owned(),
        path: parts.uri.path().to_owned(),
        query: parts.uri.query().unwrap_or_default().to_owned(),
        headers,
        form,
        json,
        body,
    }
}

fn header_list(headers: &HeaderMap) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(name, value)| {
            (
                name.as_str().to_owned(),
                String::from_utf8_lossy(value.as_bytes()).into_owned(),
            )
        })
        .collect()
}

/// Failures and delays asked for by a test.
#[derive(Debug, Default)]
struct Faults {
    fail: Option<(u16, usize)>,
    delay: Option<(Duration, usize)>,
}

impl Faults {
    /// Consumes one request's worth of each.
    fn take(&mut self) -> (Option<u16>, Option<Duration>) {
        let fail = take_one(&mut self.fail);
        let delay = take_one(&mut self.delay);
        (fail, delay)
    }
}

fn take_one<T: Copy>(slot: &mut Option<(T, usize)>) -> Option<T> {
    let (value, left) = (*slot)?;
    *slot = if left > 1 {
        Some((value, left - 1))
    } else {
        None
    };
    Some(value)
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A test that panicked while holding the lock has already failed; carry on.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Binds 127.0.0.1 on a free port and serves the router until the handle is aborted.
async fn serve(router: Router) -> (String, JoinHandle<()>) {
    let listener = match tokio::net::TcpListener::bind("127.0.0.1:0").await {
        Ok(listener) => listener,
        Err(e) => panic!("fake gateway cannot bind 127.0.0.1: {e}"),
    };
    let address = match listener.local_addr() {
        Ok(address) => address,
        Err(e) => panic!("fake gateway has no local address: {e}"),
    };
    let task = tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, router).await {
            tracing::warn!(%e, "fake gateway stopped");
        }
    });
    (format!("http://{address}"), task)
}

fn json_response(status: u16, body: Value) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (status, axum::Json(body)).into_response()
}

/// An instant as `2024-05-01T09:30:00Z`.
fn iso8601(at: SystemTime) -> String {
    chrono::DateTime::<chrono::Utc>::from(at)
        .format("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

// ----------------------------------------------------------------------------------------
// One fake server for every gateway
// ----------------------------------------------------------------------------------------

/// What makes a fake gateway: its own state, its routes, and its error answer.
trait FakeGateway: Send + 'static {
    fn route(&mut self, request: &RecordedRequest) -> Response;
    /// The answer of a request a test asked to fail.
    fn failure(status: u16) -> Response;
}

/// A fake's state, as every handler sees it.
struct Shared<G> {
    requests: Vec<RecordedRequest>,
    faults: Faults,
    gateway: G,
}

/// A fake gateway on `127.0.0.1:0`: records every request, applies the faults a test
/// asked for, routes the rest to the gateway's own rules, and stops when dropped.
struct FakeServer<G> {
    shared: Arc<Mutex<Shared<G>>>,
    base_url: String,
    task: JoinHandle<()>,
}

impl<G: FakeGateway> FakeServer<G> {
    async fn start(gateway: G) -> Self {
        let shared = Arc::new(Mutex::new(Shared {
            requests: Vec::new(),
            faults: Faults::default(),
            gateway,
        }));
        let router = Router::new()
            .fallback(handle::<G>)
            .with_state(Arc::clone(&shared));
        let (base_url, task) = serve(router).await;
        FakeServer {
            shared,
            base_url,
            task,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Shared<G>> {
        lock(&self.shared)
    }

    fn requests(&self) -> Vec<RecordedRequest> {
        self.lock().requests.clone()
    }

    fn fail_next(&self, status: u16, times: usize) {
        self.lock().faults.fail = (times > 0).then_some((status, times));
    }

    fn delay_next(&self, delay: Duration, times: usize) {
        self.lock().faults.delay = (times > 0).then_some((delay, times));
    }
}

impl<G> Drop for FakeServer<G> {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn handle<G: FakeGateway>(
    State(shared): State<Arc<Mutex<Shared<G>>>>,
    request: Request,
) -> Response {
    let recorded = record(request).await;
    let (response, delay) = {
        let mut shared = lock(&shared);
        shared.requests.push(recorded.clone());
        let (fail, delay) = shared.faults.take();
        let response = match fail {
            Some(status) => G::failure(status),
            None => shared.gateway.route(&recorded),
        };
        (response, delay)
    };
    if let Some(delay) = delay {
        tokio::time::sleep(delay).await;
    }
    response
}

// ----------------------------------------------------------------------------------------
// GB Prime Pay
// ----------------------------------------------------------------------------------------

#[derive(Debug, Clone)]
struct FakeQr {
    amount: Money,
    gbp_reference_no: String,
    detail: String,
    paid_at: Option<SystemTime>,
}

#[derive(Debug)]
struct GbpState {
    token: String,
    secret_key: String,
    qrs: HashMap<String, FakeQr>,
}

impl FakeGateway for GbpState {
    fn route(&mut self, request: &RecordedRequest) -> Response {
        match (request.method.as_str(), request.path.as_str()) {
            ("POST", "/v3/qrcode") => gbp_create_qr(self, request),
            ("POST", "/v1/check_status_txn") => gbp_check_status(self, request),
            _ => gbp_error(404, "Not found"),
        }
    }

    fn failure(status: u16) -> Response {
        gbp_error(status, "fake failure")
    }
}

/// A fake GB Prime Pay: QR Cash and `check_status_txn`.
pub struct FakeGbp {
    server: FakeServer<GbpState>,
}

impl std::fmt::Debug for FakeGbp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FakeGbp")
            .field("base_url", &self.server.base_url)
            .finish_non_exhaustive()
    }
}

impl FakeGbp {
    /// Starts a fake that accepts this merchant token and secret key.
    pub async fn start(token: &str, secret_key: &str) -> FakeGbp {
        let server = FakeServer::start(GbpState {
            token: token.to_owned(),
            secret_key: secret_key.to_owned(),
            qrs: HashMap::new(),
        })
        .await;
        FakeGbp { server }
    }

    /// `http://127.0.0.1:PORT`, to use as the adapter's base URL.
    pub fn base_url(&self) -> String {
        self.server.base_url.clone()
    }

    /// Every request so far, oldest first.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.server.requests()
    }

    /// The runner paid: `check_status_txn` now says settled, with the QR's amount.
    /// Panics when no QR was made for this reference.
    pub fn pay(&self, reference_no: &str) {
        let mut shared = self.server.lock();
        let state = &mut shared.gateway;
        match state.qrs.get_mut(reference_no) {
            Some(qr) => {
                qr.paid_at.get_or_insert_with(SystemTime::now);
            }
            None => panic!("FakeGbp::pay: no QR was made for reference {reference_no:?}"),
        }
    }

    /// What GB Prime Pay would post to `backgroundUrl` once this QR is paid. It says paid
    /// whether or not [`FakeGbp::pay`] was called, as a forged callback would; the amount
    /// is the QR's (a number, as GB Prime Pay sends it), or 0 for an unknown reference.
    pub fn callback_body(&self, reference_no: &str) -> Value {
        let shared = self.server.lock();
        let state = &shared.gateway;
        let qr = state.qrs.get(reference_no);
        let amount = qr.map_or(Money::ZERO, |qr| qr.amount);
        let gbp_reference_no = qr.map_or_else(
            || format!("gbp{:012}", next_id()),
            |qr| qr.gbp_reference_no.clone(),
        );
        let at = qr.and_then(|qr| qr.paid_at).unwrap_or_else(SystemTime::now);
        let stamp = iso8601(at);
        // `2024-05-01T09:30:00Z` → date `01052024`, time `093000`.
        let date = format!("{}{}{}", &stamp[8..10], &stamp[5..7], &stamp[0..4]);
        let time = format!("{}{}{}", &stamp[11..13], &stamp[14..16], &stamp[17..19]);
        let baht = amount.satang() as f64 / 100.0;
        json!({
            "resultCode": "00",
            "amount": baht,
            "referenceNo": reference_no,
            "gbpReferenceNo": gbp_reference_no,
            "currencyCode": "764",
            "totalAmount": baht,
            "thbAmount": baht,
            "fee": 0,
            "vat": 0,
            "customerName": "",
            "detail": qr.map(|qr| qr.detail.clone()).unwrap_or_default(),
            "paymentType": "Q",
            "retryFlag": "N",
            "date": date,
            "time": time,
        })
    }

    /// The next `times` requests answer this HTTP status (and are not carried out).
    pub fn fail_next(&self, status: u16, times: usize) {
        self.server.fail_next(status, times);
    }

    /// The next `times` requests answer only after `delay`.
    pub fn delay_next(&self, delay: Duration, times: usize) {
        self.server.delay_next(delay, times);
    }
}

fn gbp_error(status: u16, message: &str) -> Response {
    json_response(
        status,
        json!({"resultCode": "99", "resultMessage": message}),
    )
}

fn gbp_create_qr(state: &mut GbpState, request: &RecordedRequest) -> Response {
    let form = &request.form;
    if form.get("token") != Some(&state.token) {
        return gbp_error(401, "Invalid token");
    }
    let Some(amount) = form.get("amount").and_then(|a| two_decimal_baht(a)) else {
        return gbp_error(400, "amount is required, in baht with two decimals");
    };
    if amount.satang() == 0 {
        return gbp_error(400, "amount must be above zero");
    }
    let reference_no = form
        .get("referenceNo")
        .map(String::as_str)
        .unwrap_or_default();
    if reference_no.is_empty() || reference_no.chars().count() > crate::gbp::MAX_REFERENCE_NO_LEN {
        return gbp_error(400, "referenceNo is required, at most 15 characters");
    }
    let background_url = form
        .get("backgroundUrl")
        .map(String::as_str)
        .unwrap_or_default();
    if !(background_url.starts_with("http://") || background_url.starts_with("https://")) {
        // Quoting what was sent, as real gateways' refusals sometimes do.
        return gbp_error(
            400,
            &format!("backgroundUrl must be an http(s) address, not {background_url:?}"),
        );
    }
    let Some(detail) = form.get("detail") else {
        return gbp_error(400, "detail is required");
    };
    if state
        .qrs
        .get(reference_no)
        .is_some_and(|qr| qr.paid_at.is_some())
    {
        return gbp_error(400, "referenceNo was already paid");
    }
    state.qrs.insert(
        reference_no.to_owned(),
        FakeQr {
            amount,
            gbp_reference_no: format!("gbp{:012}", next_id()),
            detail: detail.clone(),
            paid_at: None,
        },
    );
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "image/png")],
        Body::from(FAKE_QR_PNG),
    )
        .into_response()
}

/// `100.00` exactly: digits, a point, two digits.
fn two_decimal_baht(text: &str) -> Option<Money> {
    let (_, fraction) = text.split_once('.')?;
    if fraction.len() != 2 || text.trim() != text {
        return None;
    }
    crate::parse_baht(text)
}

fn gbp_check_status(state: &mut GbpState, request: &RecordedRequest) -> Response {
    match request.basic_auth() {
        Some((user, _)) if user == state.secret_key => {}
        _ => return gbp_error(401, "Unauthorized"),
    }
    let Some(reference_no) = request
        .json
        .as_ref()
        .and_then(|j| j.get("referenceNo"))
        .and_then(Value::as_str)
    else {
        return gbp_error(400, "referenceNo is required");
    };
    let Some(qr) = state.qrs.get(reference_no) else {
        return json_response(
            200,
            json!({"resultCode": "02", "resultMessage": "Transaction not found"}),
        );
    };
    let status = if qr.paid_at.is_some() { "S" } else { "P" };
    json_response(
        200,
        json!({
            "resultCode": "00",
            "txn": {
                "amount": qr.amount.baht_text(),
                "referenceNo": reference_no,
                "gbpReferenceNo": qr.gbp_reference_no,
                "detail": qr.detail,
                "customerName": null,
                "customerEmail": null,
                "merchantDefined1": null,
                "status": status,
                "paymentType": "Q",
                "resultCode": "00",
            }
        }),
    )
}

// ----------------------------------------------------------------------------------------
// OPN
// ----------------------------------------------------------------------------------------

#[derive(Debug, Clone)]
struct FakeSource {
    json: Value,
    amount: i64,
    charged: bool,
}

#[derive(Debug)]
struct OpnState {
    secret_key: String,
    base_url: String,
    sources: HashMap<String, FakeSource>,
    charge_order: Vec<String>,
    charges: HashMap<String, Value>,
    used_tokens: HashSet<String>,
    decline_next: Option<(String, String)>,
    require_3ds: bool,
}

impl FakeGateway for OpnState {
    fn route(&mut self, request: &RecordedRequest) -> Response {
        opn_route(self, request)
    }

    fn failure(status: u16) -> Response {
        opn_error(status, "internal_error", "fake failure")
    }
}

/// A fake OPN: sources, charges, 3-D Secure pages and PromptPay QR images.
pub struct FakeOpn {
    server: FakeServer<OpnState>,
}

impl std::fmt::Debug for FakeOpn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FakeOpn")
            .field("base_url", &self.server.base_url)
            .finish_non_exhaustive()
    }
}

impl FakeOpn {
    /// Starts a fake that accepts this secret key.
    pub async fn start(secret_key: &str) -> FakeOpn {
        let server = FakeServer::start(OpnState {
            secret_key: secret_key.to_owned(),
            base_url: String::new(),
            sources: HashMap::new(),
            charge_order: Vec::new(),
            charges: HashMap::new(),
            used_tokens: HashSet::new(),
            decline_next: None,
            require_3ds: false,
        })
        .await;
        server.lock().gateway.base_url = server.base_url.clone();
        FakeOpn { server }
    }

    /// `http://127.0.0.1:PORT`, to use as the adapter's base URL.
    pub fn base_url(&self) -> String {
        self.server.base_url.clone()
    }

    /// Every request so far, oldest first.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.server.requests()
    }

    /// The next `times` requests answer this HTTP status (and are not carried out).
    pub fn fail_next(&self, status: u16, times: usize) {
        self.server.fail_next(status, times);
    }

    /// The next `times` requests answer only after `delay`.
    pub fn delay_next(&self, delay: Duration, times: usize) {
        self.server.delay_next(delay, times);
    }

    /// The next card charge is declined: status `failed` with this code and message.
    pub fn decline_next_card(&self, failure_code: &str, failure_message: &str) {
        self.server.lock().gateway.decline_next =
            Some((failure_code.to_owned(), failure_message.to_owned()));
    }

    /// Card charges come back `pending` with `authorize_uri` = `{base}/authorize/{id}`.
    /// A GET of that address marks the charge successful (or, with `?result=failed`,
    /// failed) and redirects (302) to the charge's `return_uri`.
    pub fn require_3ds(&self, on: bool) {
        self.server.lock().gateway.require_3ds = on;
    }

    /// Moves a charge to `successful` (paid), `failed`, `expired`, `reversed` or back to
    /// `pending`. Panics on an unknown charge or status.
    pub fn complete_charge(&self, id: &str, status: &str) {
        let mut shared = self.server.lock();
        let state = &mut shared.gateway;
        let Some(charge) = state.charges.get_mut(id) else {
            panic!("FakeOpn::complete_charge: no charge {id:?}");
        };
        set_charge_status(charge, status);
    }

    /// Charge ids, oldest first.
    pub fn charge_ids(&self) -> Vec<String> {
        self.server.lock().gateway.charge_order.clone()
    }

    /// The charge as `GET /charges/{id}` would answer it.
    pub fn charge(&self, id: &str) -> Option<Value> {
        self.server.lock().gateway.charges.get(id).cloned()
    }

    /// The `charge.complete` event OPN would post for this charge, with the charge as it
    /// stands now.
    pub fn webhook_body(&self, charge_id: &str) -> Value {
        let shared = self.server.lock();
        let state = &shared.gateway;
        let data = state
            .charges
            .get(charge_id)
            .cloned()
            .unwrap_or_else(|| json!({"object": "charge", "id": charge_id}));
        let id = format!("evnt_test_{:08x}", 0x5c00_0000 + next_id());
        json!({
            "object": "event",
            "id": id,
            "livemode": false,
            "location": format!("/events/{id}"),
            "webhook_deliveries": [],
            "data": data,
            "key": opn::CHARGE_COMPLETE,
            "created_at": iso8601(SystemTime::now()),
        })
    }

    /// The `Omise-Signature` header value for this body. Panics when the secret is not
    /// base64, which OPN's secrets always are.
    pub fn sign_webhook(secret: &str, timestamp: &str, body: &[u8]) -> String {
        match opn::sign_webhook(secret, timestamp, body) {
            Some(signature) => signature,
            None => panic!("FakeOpn::sign_webhook: the webhook secret must be base64"),
        }
    }
}

fn set_charge_status(charge: &mut Value, status: &str) {
    let now = iso8601(SystemTime::now());
    let Some(object) = charge.as_object_mut() else {
        return;
    };
    let (paid, failure): (bool, Option<(&str, &str)>) = match status {
        "successful" => (true, None),
        "pending" => (false, None),
        "failed" => (false, Some(("payment_rejected", "payment was rejected"))),
        "expired" | "reversed" => (false, None),
        other => panic!("FakeOpn: unknown charge status {other:?}"),
    };
    object.insert("status".into(), json!(status));
    object.insert("paid".into(), json!(paid));
    object.insert("authorized".into(), json!(paid));
    object.insert("captured".into(), json!(paid));
    object.insert(
        "paid_at".into(),
        if paid { json!(now) } else { Value::Null },
    );
    object.insert("expired".into(), json!(status == "expired"));
    object.insert("reversed".into(), json!(status == "reversed"));
    if status == "expired" {
        object.insert("expired_at".into(), json!(now));
    }
    if status == "reversed" {
        object.insert("reversed_at".into(), json!(now));
    }
    match failure {
        Some((code, message)) => {
            // A test may have set its own failure already (a declined card).
            if object.get("failure_code").is_none_or(Value::is_null) {
                object.insert("failure_code".into(), json!(code));
                object.insert("failure_message".into(), json!(message));
            }
        }
        None => {
            object.insert("failure_code".into(), Value::Null);
            object.insert("failure_message".into(), Value::Null);
        }
    }
}

fn opn_error(status: u16, code: &str, message: &str) -> Response {
    json_response(
        status,
        json!({
            "object": "error",
            "location": format!("https://www.omise.co/api-errors#{}", code.replace('_', "-")),
            "code": code,
            "message": message,
        }),
    )
}

fn opn_route(state: &mut OpnState, request: &RecordedRequest) -> Response {
    let segments: Vec<&str> = request.path.trim_matches('/').split('/').collect();
    // Pages the buyer's browser opens: no API key.
    match (request.method.as_str(), segments.as_slice()) {
        ("GET", ["authorize", id]) => return opn_authorize(state, id, &request.query),
        ("GET", ["qr", file]) if file.ends_with(".svg") => return qr_svg(file),
        _ => {}
    }
    match request.basic_auth() {
        Some((user, _)) if user == state.secret_key => {}
        _ => return opn_error(401, "authentication_failure", "authentication failed"),
    }
    match (request.method.as_str(), segments.as_slice()) {
        ("POST", ["sources"]) => opn_create_source(state, &request.form),
        ("POST", ["charges"]) => opn_create_charge(state, &request.form),
        ("GET", ["charges", id]) => match state.charges.get(*id) {
            Some(charge) => json_response(200, charge.clone()),
            None => opn_error(404, "not_found", &format!("charge {id} was not found")),
        },
        _ => opn_error(404, "not_found", "the requested resource was not found"),
    }
}

fn qr_svg(file: &str) -> Response {
    let label: String = file
        .trim_end_matches(".svg")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"200\" height=\"200\">\
         <rect width=\"200\" height=\"200\" fill=\"#fff\"/>\
         <text x=\"10\" y=\"100\" font-size=\"12\">{label}</text></svg>"
    );
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "image/svg+xml")],
        svg,
    )
        .into_response()
}

/// The `amount` (a positive whole number of satang within the shop's limits) of a form
/// whose `currency` is `thb`, or what is wrong with them.
fn thb_amount(form: &BTreeMap<String, String>) -> Result<i64, &'static str> {
    let amount = form
        .get("amount")
        .filter(|a| !a.is_empty() && a.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|a| a.parse::<i64>().ok())
        .filter(|a| *a > 0 && Money::from_satang(*a).is_ok())
        .ok_or("amount must be a positive integer")?;
    match form.get("currency") {
        Some(currency) if currency.eq_ignore_ascii_case("thb") => Ok(amount),
        Some(_) => Err("currency is not supported"),
        None => Err("currency is required"),
    }
}

fn opn_create_source(state: &mut OpnState, form: &BTreeMap<String, String>) -> Response {
    match form.get("type").map(String::as_str) {
        Some("promptpay") => {}
        Some(_) => return opn_error(400, "bad_request", "type is not supported by this fake"),
        None => return opn_error(400, "bad_request", "type is required"),
    }
    let amount = match thb_amount(form) {
        Ok(amount) => amount,
        Err(message) => return opn_error(400, "bad_request", message),
    };
    let n = next_id();
    let id = format!("src_test_{:08x}", 0x5a00_0000 + n);
    let now = iso8601(SystemTime::now());
    let json = json!({
        "object": "source",
        "id": id,
        "livemode": false,
        "location": format!("/sources/{id}"),
        "amount": amount,
        "currency": "THB",
        "type": "promptpay",
        "flow": "offline",
        "charge_status": "unknown",
        "created_at": now,
        "scannable_code": {
            "object": "barcode",
            "type": "qr",
            "image": {
                "object": "document",
                "livemode": false,
                "id": format!("docu_test_{:08x}", 0x5d00_0000 + n),
                "filename": "qrcode.svg",
                "location": format!("/charges/{id}/documents/qrcode"),
                "kind": "qr",
                "download_uri": format!("{}/qr/{id}.svg", state.base_url),
                "created_at": now,
            }
        }
    });
    state.sources.insert(
        id,
        FakeSource {
            json: json.clone(),
            amount,
            charged: false,
        },
    );
    json_response(200, json)
}

fn opn_create_charge(state: &mut OpnState, form: &BTreeMap<String, String>) -> Response {
    let amount = match thb_amount(form) {
        Ok(amount) => amount,
        Err(message) => return opn_error(400, "bad_request", message),
    };
    let card = form.get("card").filter(|c| !c.is_empty());
    let source = form.get("source").filter(|s| !s.is_empty());
    let return_uri = form.get("return_uri").filter(|r| !r.is_empty()).cloned();
    let metadata: serde_json::Map<String, Value> = form
        .iter()
        .filter_map(|(key, value)| {
            let name = key.strip_prefix("metadata[")?.strip_suffix(']')?;
            Some((name.to_owned(), json!(value)))
        })
        .collect();
    let n = next_id();
    let id = format!("chrg_test_{:08x}", 0x5b00_0000 + n);
    let now = SystemTime::now();
    let mut charge = json!({
        "object": "charge",
        "id": id,
        "livemode": false,
        "location": format!("/charges/{id}"),
        "amount": amount,
        "net": amount,
        "currency": "THB",
        "description": form.get("description"),
        "metadata": metadata,
        "status": "pending",
        "paid": false,
        "authorized": false,
        "captured": false,
        "capture": true,
        "expired": false,
        "reversed": false,
        "voided": false,
        "refunded_amount": 0,
        "return_uri": return_uri,
        "authorize_uri": null,
        "failure_code": null,
        "failure_message": null,
        "card": null,
        "source": null,
        "created_at": iso8601(now),
        "paid_at": null,
        "expires_at": null,
    });
    match (card, source) {
        (Some(token), None) => {
            if !token.starts_with("tokn_") || !opn::is_object_id(token) {
                return opn_error(404, "not_found", &format!("token {token} was not found"));
            }
            if state.require_3ds && return_uri.is_none() && state.decline_next.is_none() {
                return opn_error(
                    400,
                    "invalid_charge",
                    "return uri is required for 3-D Secure",
                );
            }
            if !state.used_tokens.insert(token.clone()) {
                return opn_error(400, "used_token", "token was already used");
            }
            charge["card"] = json!({
                "object": "card",
                "id": format!("card_test_{:08x}", 0x5e00_0000 + n),
                "livemode": false,
                "brand": "Visa",
                "last_digits": "4242",
                "expiration_month": 12,
                "expiration_year": 2030,
            });
            charge["source_of_fund"] = json!("card");
            if let Some((code, message)) = state.decline_next.take() {
                charge["failure_code"] = json!(code);
                charge["failure_message"] = json!(message);
                set_charge_status(&mut charge, "failed");
            } else if state.require_3ds {
                charge["authorize_uri"] = json!(format!("{}/authorize/{id}", state.base_url));
            } else {
                set_charge_status(&mut charge, "successful");
            }
        }
        (None, Some(source_id)) => {
            let Some(fake_source) = state.sources.get_mut(source_id) else {
                return opn_error(
                    404,
                    "not_found",
                    &format!("source {source_id} was not found"),
                );
            };
            if fake_source.amount != amount {
                return opn_error(
                    400,
                    "invalid_charge",
                    "amount must be equal to the source amount",
                );
            }
            if fake_source.charged {
                return opn_error(400, "invalid_charge", "source was already used");
            }
            fake_source.charged = true;
            charge["source"] = fake_source.json.clone();
            charge["source_of_fund"] = json!("offline");
            charge["expires_at"] = json!(iso8601(now + Duration::from_secs(24 * 3600)));
        }
        (Some(_), Some(_)) => {
            return opn_error(400, "bad_request", "card and source cannot both be given");
        }
        (None, None) => return opn_error(400, "bad_request", "card or source is required"),
    }
    state.charge_order.push(id.clone());
    state.charges.insert(id, charge.clone());
    json_response(200, charge)
}

fn opn_authorize(state: &mut OpnState, id: &str, query: &str) -> Response {
    let Some(charge) = state.charges.get_mut(id) else {
        return (StatusCode::NOT_FOUND, "no such charge").into_response();
    };
    let failed = query.split('&').any(|pair| pair == "result=failed");
    if charge.get("status").and_then(Value::as_str) == Some("pending") {
        if failed {
            charge["failure_code"] = json!("failed_3ds");
            charge["failure_message"] = json!("3-D Secure authentication failed");
            set_charge_status(charge, "failed");
        } else {
            set_charge_status(charge, "successful");
        }
    }
    match charge.get("return_uri").and_then(Value::as_str) {
        Some(return_uri) => (
            StatusCode::FOUND,
            [(header::LOCATION, return_uri.to_owned())],
        )
            .into_response(),
        None => (StatusCode::OK, "authorized").into_response(),
    }
}

#[cfg(test)]
mod tests {
    use std::time::UNIX_EPOCH;

    use super::*;

    #[test]
    fn dates_are_gregorian() {
        let at = UNIX_EPOCH + Duration::from_secs(1_714_555_800);
        assert_eq!(iso8601(at), "2024-05-01T09:30:00Z");
    }

    #[test]
    fn faults_count_down() {
        let mut faults = Faults {
            fail: Some((503, 2)),
            delay: None,
        };
        assert_eq!(faults.take(), (Some(503), None));
        assert_eq!(faults.take(), (Some(503), None));
        assert_eq!(faults.take(), (None, None));
    }

    #[test]
    fn two_decimal_amounts_only() {
        assert_eq!(two_decimal_baht("100.00").map(Money::satang), Some(10_000));
        assert_eq!(two_decimal_baht("100.0"), None);
        assert_eq!(two_decimal_baht("100"), None);
        assert_eq!(two_decimal_baht(" 100.00"), None);
    }
}
