//! Every JSON call of the shop under hostile bodies: objects carrying the calls' field
//! names with values of any type and size, plus arbitrary JSON. Each answer must be a
//! success or one of the API's own 4xx errors with a stable code — never a 5xx, never a
//! panic — and no call may hold more than `REQUEST_PEAK_LIMIT` while answering (the test
//! binary counts allocations). The router is driven in-process so that thousands of cases
//! stay cheap.

use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, header};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Value, json};
use tower::ServiceExt;

use raceshot_domain::testing::peak_of;

use crate::helpers::{TOKEN, TestApp, event};

/// Cases per call.
const CASES: u32 = 10_000;

/// What answering one of these bodies (a few kilobytes at most) may hold at once.
const REQUEST_PEAK_LIMIT: usize = 4 * 1024 * 1024;

/// The calls and the fields their payloads carry (the shop's and the server's own).
const CALLS: &[(&str, &[&str])] = &[
    (
        "/v1/events/pagination",
        &["page", "page_size", "total_event_onsale", "page_tab"],
    ),
    ("/v1/events/pagination-count", &["event_status"]),
    ("/v1/facesearch/highlight", &["event_key"]),
    (
        "/v2/facesearch/sign",
        &["event_key", "file_name", "file_type"],
    ),
    (
        "/v2/facesearch",
        &[
            "search_id",
            "file_location",
            "event_id",
            "event_key",
            "face_threshold",
            "mhao_price",
            "max_face_search",
        ],
    ),
    (
        "/v1/logs/",
        &["service", "cart_count", "image_id", "list", "event_key"],
    ),
    (
        "/api/cart/quote",
        &["event_key", "image_ids", "is_mhao", "wholesale"],
    ),
    (
        "/v1/order/create",
        &[
            "mobile",
            "email",
            "event_key",
            "amount",
            "paid_amount",
            "imageList",
            "image_length",
            "is_mhao",
            "payment_gateway",
            "payment_channel",
            "wholesale",
        ],
    ),
    ("/v3/order/inquiry", &["order_uuid"]),
    ("/v1/order/inquiry", &["order_uuid"]),
    (
        "/v3/order/opn-cc-payment",
        &["token_key", "uuid", "email", "mobile", "paid_amount", "sk"],
    ),
    ("/v1/order/find-order", &["filter_type", "txt_search"]),
    ("/v1/utils/conf", &["conf_name"]),
];

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        ".{0,40}".prop_map(Value::String),
        Just(json!("demo")),
        Just(json!("0812345678")),
        Just(json!("Y")),
        Just(json!(120.0)),
        Just(json!("00000000-0000-4000-8000-000000000000")),
    ];
    leaf.prop_recursive(3, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(".{0,10}", inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A body for a call: its own field names with any values, some left out; or any JSON.
fn body_for(fields: &'static [&'static str]) -> impl Strategy<Value = Value> {
    let shaped =
        prop::collection::vec(prop::option::of(any_json()), fields.len()).prop_map(move |values| {
            let mut object = serde_json::Map::new();
            for (name, value) in fields.iter().zip(values) {
                if let Some(v) = value {
                    object.insert((*name).to_owned(), v);
                }
            }
            object.insert("tk".to_owned(), json!(TOKEN));
            Value::Object(object)
        });
    prop_oneof![4 => shaped, 1 => any_json()]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_json_body_makes_a_call_fail_on_the_server() {
    let app = TestApp::builder(raceshot_store::Backend::Sqlite)
        .with_event(event("demo"))
        .with_env("RACESHOT__ORDERS__FIND_PER_CLIENT_PER_MINUTE", "0")
        .with_env("RACESHOT__ORDERS__CREATE_PER_CLIENT_PER_MINUTE", "0")
        .spawn()
        .await;
    app.ready_photos("demo", 3).await;
    let router = raceshot_server::api::router(app.state.clone());
    let handle = tokio::runtime::Handle::current();
    for (path, fields) in CALLS {
        let router = router.clone();
        let handle = handle.clone();
        let answered = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
        let seen = answered.clone();
        let failures = tokio::task::spawn_blocking(move || {
            let mut runner = TestRunner::new(Config {
                cases: CASES,
                failure_persistence: None,
                ..Config::default()
            });
            runner
                .run(&body_for(fields), |body| {
                    let mut request = Request::post(*path)
                        .header(header::CONTENT_TYPE, "application/json")
                        .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
                        .body(Body::from(body.to_string()))
                        .unwrap();
                    request
                        .extensions_mut()
                        .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 9))));
                    let (response, peak) =
                        peak_of(|| handle.block_on(router.clone().oneshot(request)).unwrap());
                    prop_assert!(
                        peak <= REQUEST_PEAK_LIMIT,
                        "{path} held {peak} bytes for {body}"
                    );
                    let status = response.status();
                    if status.as_u16() != 401 {
                        seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                    prop_assert!(
                        !status.is_server_error() || status.as_u16() == 503,
                        "{path} answered {status} to {body}"
                    );
                    if !status.is_success() {
                        let bytes = handle
                            .block_on(axum::body::to_bytes(response.into_body(), 1 << 20))
                            .unwrap();
                        let answer: Value = serde_json::from_slice(&bytes).unwrap();
                        prop_assert_eq!(&answer["status"], "error");
                        prop_assert!(answer["code"].is_string(), "{}", answer);
                    }
                    Ok(())
                })
                .err()
                .map(|e| e.to_string())
        })
        .await
        .unwrap();
        assert!(
            failures.is_none(),
            "{path}: {}",
            failures.unwrap_or_default()
        );
    }
}
