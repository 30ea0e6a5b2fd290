//! The API contract: the OpenAPI document served at `/api/openapi.json` is generated from
//! the handlers, and the committed `openapi.json` must be exactly it.

use raceshot_store::Backend;

use crate::helpers::{TestApp, json};

fn committed() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../openapi.json");
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn committed_openapi_json_matches_the_code() {
    let generated = raceshot_server::api::openapi_json();
    assert!(
        committed().trim_end() == generated.trim_end(),
        "openapi.json is out of date: run `make openapi` and commit the result"
    );
}

#[tokio::test]
async fn the_document_is_served_and_names_every_call() {
    let app = TestApp::builder(Backend::Sqlite).spawn().await;
    let resp = app
        .client
        .get(app.url("/api/openapi.json"))
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(resp.status(), 200);
    let doc = json(resp).await;
    for (path, method) in [
        ("/v1/events/pagination", "post"),
        ("/v1/events/pagination-count", "post"),
        ("/v1/events/slider-banner", "get"),
        ("/v1/events/soon", "get"),
        ("/v1/events/{event_key}", "get"),
        ("/v1/events/event-key/{image_id}", "get"),
        ("/v1/facesearch/highlight", "post"),
        ("/healthz", "get"),
        ("/readyz", "get"),
        ("/metrics", "get"),
    ] {
        assert!(
            doc["paths"][path][method].is_object(),
            "{method} {path} missing"
        );
    }
    assert_eq!(
        doc["components"]["securitySchemes"]["client_token"]["scheme"],
        "bearer"
    );
}

/// Generated clients key operations by their id: two operations sharing one would get
/// each other's types.
#[test]
fn every_operation_has_its_own_id() {
    let doc = serde_json::to_value(raceshot_server::api::openapi()).unwrap_or_default();
    let mut seen = std::collections::HashSet::new();
    for (path, item) in doc["paths"].as_object().into_iter().flatten() {
        for (method, op) in item.as_object().into_iter().flatten() {
            let id = op["operationId"].as_str().unwrap_or_default().to_owned();
            assert!(
                seen.insert(id.clone()),
                "{method} {path} repeats operationId {id}"
            );
        }
    }
}
