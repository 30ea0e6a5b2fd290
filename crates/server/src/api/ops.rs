//! Operations endpoints: liveness, readiness (database and storage answer) and Prometheus
//! metrics, plus the middleware that records a count and a latency for every request.

use std::time::Instant;

use axum::Json;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use metrics::Label;
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::state::AppState;

#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`, or `unavailable` when a dependency does not answer.
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub database: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub storage: Option<&'static str>,
}

/// The process is up.
#[utoipa::path(get, path = "/healthz", tag = "operations", responses((status = 200, body = Health)))]
pub async fn healthz() -> Json<Health> {
    Json(Health {
        status: "ok",
        database: None,
        storage: None,
    })
}

/// The database and object storage answer.
#[utoipa::path(get, path = "/readyz", tag = "operations",
    responses((status = 200, body = Health), (status = 503, body = Health)))]
pub async fn readyz(State(state): State<AppState>) -> Response {
    let (db, storage) = tokio::join!(state.store.ping(), state.objects.ping());
    let word = |ok: bool| if ok { "ok" } else { "unavailable" };
    if let Err(e) = &db {
        tracing::warn!(error = %e, "readiness: database");
    }
    if let Err(e) = &storage {
        tracing::warn!(error = %e, "readiness: storage");
    }
    let ready = db.is_ok() && storage.is_ok();
    let body = Health {
        status: word(ready),
        database: Some(word(db.is_ok())),
        storage: Some(word(storage.is_ok())),
    };
    let code = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (code, Json(body)).into_response()
}

/// Prometheus text exposition, on the internal `server.metrics_addr` only.
#[utoipa::path(get, path = "/metrics", tag = "operations",
    responses((status = 200, content_type = "text/plain", body = String)))]
pub async fn metrics(State(state): State<AppState>) -> Response {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; version=0.0.4",
        )],
        state.metrics.render(),
    )
        .into_response()
}

/// Counts every request and times it, labelled by route pattern (never the raw path) and
/// method (any other than HTTP's own as `OTHER`), so that the label set stays small
/// whatever clients send.
pub async fn track(req: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = method_label(req.method());
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_owned(), |p| p.as_str().to_owned());
    let response = next.run(req).await;
    let status = response.status().as_u16().to_string();
    let labels = [
        Label::new("method", method),
        Label::new("route", route),
        Label::new("status", status),
    ];
    metrics::counter!("http_requests_total", labels.to_vec()).increment(1);
    metrics::histogram!("http_request_duration_seconds", labels[..2].to_vec())
        .record(start.elapsed().as_secs_f64());
    response
}

/// A request method as metrics name it: HTTP's own methods as they are, any other token
/// (a client may send any) as `OTHER`.
fn method_label(method: &Method) -> &'static str {
    const KNOWN: [(Method, &str); 9] = [
        (Method::GET, "GET"),
        (Method::HEAD, "HEAD"),
        (Method::POST, "POST"),
        (Method::PUT, "PUT"),
        (Method::PATCH, "PATCH"),
        (Method::DELETE, "DELETE"),
        (Method::OPTIONS, "OPTIONS"),
        (Method::CONNECT, "CONNECT"),
        (Method::TRACE, "TRACE"),
    ];
    KNOWN
        .iter()
        .find(|(known, _)| known == method)
        .map_or("OTHER", |(_, label)| label)
}
