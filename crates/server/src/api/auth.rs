//! The client token (docs/shop-contract.md, Visitors and roles): every call of the shop's
//! API carries the fixed token as `Authorization: Bearer <token>`, or as the `tk` field of
//! its JSON body (the inquiry and find-order payloads of older pages carry it that way).

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::header::AUTHORIZATION;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use subtle::ConstantTimeEq;

use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError};

/// How much of a body is read to look for `tk`; the shop's payloads are far smaller.
const TK_BODY_LIMIT: usize = 1024 * 1024;

pub async fn require_client_token(
    State(state): State<AppState>,
    req: Request,
    next: Next,
) -> Response {
    let expected = state.config.api.client_token.expose().as_bytes();
    let matches = |given: &str| bool::from(given.as_bytes().ct_eq(expected));

    let bearer = req
        .headers()
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    if bearer.is_some_and(matches) {
        return next.run(req).await;
    }

    let (parts, body) = req.into_parts();
    let is_json = parts
        .headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if is_json {
        let bytes: Bytes = match axum::body::to_bytes(body, TK_BODY_LIMIT).await {
            Ok(b) => b,
            Err(_) => {
                return ShopError::new(ErrorCode::PayloadTooLarge, "request body is too large")
                    .into_response();
            }
        };
        let tk = serde_json::from_slice::<serde_json::Value>(&bytes)
            .ok()
            .and_then(|v| v.get("tk").and_then(|t| t.as_str()).map(matches));
        if tk == Some(true) {
            return next
                .run(Request::from_parts(parts, Body::from(bytes)))
                .await;
        }
    }
    ShopError::new(
        ErrorCode::InvalidClientToken,
        "send the client token as Authorization: Bearer <token>",
    )
    .into_response()
}
