//! Request extractors that turn bad input into the API's own errors: malformed JSON, a
//! field of the wrong type (named by its path), a body that does not say it is JSON, a
//! body over the limit, a malformed query string; and the client's address, as far as the
//! shop can trust it, for the rate limits; and the shop's cookies, read and set.

use std::net::{IpAddr, SocketAddr};

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Request};
use axum::http::header::{CONTENT_TYPE, COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue};
use serde::de::DeserializeOwned;

use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError};
use crate::infra::rate_limit::client_address;

/// The address a request comes from: the connection's peer, or behind a configured
/// trusted proxy the address it forwarded ([`client_address`]).
pub struct ClientIp(pub IpAddr);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = ShopError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ShopError> {
        let ConnectInfo(peer) = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .copied()
            .ok_or_else(|| ShopError::internal(anyhow::anyhow!("no peer address")))?;
        let trusted = &state.config.server.trusted_proxies;
        Ok(ClientIp(client_address(peer, &parts.headers, trusted)))
    }
}

/// A JSON body parsed into `T`. An empty body reads as `{}`, so calls whose fields are all
/// optional may send nothing.
pub struct ApiJson<T>(pub T);

impl<T, S> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ShopError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ShopError> {
        let declared = req.headers().get(CONTENT_TYPE).map(is_json);
        let bytes = Bytes::from_request(req, state).await.map_err(body_error)?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            // Nothing sent: every field takes its default, whatever the headers say.
            return parse_json(b"{}").map(ApiJson);
        }
        // A body must say exactly what it is: a form or `text/plain` (what a page of
        // another site can send without asking) never passes for JSON.
        if declared != Some(true) {
            return Err(ShopError::new(
                ErrorCode::UnsupportedMediaType,
                "send the body as application/json",
            ));
        }
        parse_json(&bytes).map(ApiJson)
    }
}

/// Whether a `Content-Type` is `application/json`, parameters (`charset`) aside.
pub fn is_json(value: &axum::http::HeaderValue) -> bool {
    value.to_str().is_ok_and(|ct| {
        ct.split(';')
            .next()
            .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"))
    })
}

/// Parses JSON, telling a syntax error (`malformed_json`) from a field of the wrong shape
/// (`invalid_field`, with the field's path).
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ShopError> {
    let de = &mut serde_json::Deserializer::from_slice(bytes);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        match inner.classify() {
            serde_json::error::Category::Data => {
                let field = if path == "." { String::new() } else { path };
                ShopError::field(field, inner.to_string())
            }
            _ => ShopError::new(ErrorCode::MalformedJson, inner.to_string()),
        }
    })
}

pub fn body_error(e: BytesRejection) -> ShopError {
    if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
        ShopError::new(ErrorCode::PayloadTooLarge, "request body is too large")
    } else {
        ShopError::new(ErrorCode::MalformedJson, e.body_text())
    }
}

/// In the API contract: a JSON number or a string holding one, as older pages send ids
/// and amounts. Handlers read such fields as `serde_json::Value` and parse them.
pub struct NumberOrText;

impl utoipa::PartialSchema for NumberOrText {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Type};
        OneOfBuilder::new()
            .item(ObjectBuilder::new().schema_type(Type::Number))
            .item(ObjectBuilder::new().schema_type(Type::String))
            .description(Some("A number, or a string holding one."))
            .into()
    }
}

impl utoipa::ToSchema for NumberOrText {}

/// A query string parsed into `T`; a malformed one is the API's `invalid_field` (naming
/// the parameter where it can), never axum's plain-text rejection.
pub struct ApiQuery<T>(pub T);

impl<T, S> axum::extract::FromRequestParts<S> for ApiQuery<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ShopError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _state: &S,
    ) -> Result<Self, ShopError> {
        let query = parts.uri.query().unwrap_or_default();
        let de = serde_urlencoded::Deserializer::new(form_urlencoded_parse(query));
        serde_path_to_error::deserialize(de)
            .map(ApiQuery)
            .map_err(|e| {
                let path = e.path().to_string();
                let field = if path == "." { String::new() } else { path };
                ShopError::field(field, e.into_inner().to_string())
            })
    }
}

fn form_urlencoded_parse(query: &str) -> form_urlencoded::Parse<'_> {
    form_urlencoded::parse(query.as_bytes())
}

/// Path parameters parsed into `T`; an address whose parameters do not parse names
/// nothing, so it is the API's `not_found`, never axum's plain-text rejection.
pub struct ApiPath<T>(pub T);

impl<T, S> axum::extract::FromRequestParts<S> for ApiPath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ShopError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, ShopError> {
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Path(t)| ApiPath(t))
            .map_err(|_| ShopError::new(ErrorCode::NotFound, "no such address"))
    }
}

/// Whether the request's `Content-Type` (its parameters aside) is one of `types`.
pub fn content_type_is(headers: &HeaderMap, types: &[&str]) -> bool {
    headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| {
            let t = t.split(';').next().unwrap_or_default().trim();
            types.iter().any(|want| t.eq_ignore_ascii_case(want))
        })
}

/// A raw request body of at most `limit` bytes; a longer one is `payload_too_large` with
/// `too_large` as its message (the body stops being read at the limit).
pub async fn capped_body(
    body: axum::body::Body,
    limit: usize,
    too_large: &str,
) -> Result<Bytes, ShopError> {
    axum::body::to_bytes(body, limit)
        .await
        .map_err(|_| ShopError::new(ErrorCode::PayloadTooLarge, too_large))
}

/// The value of the cookie `name` among those a request carries.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(n, _)| *n == name)
        .map(|(_, value)| value.to_owned())
}

/// A `Set-Cookie` value of the shop: `HttpOnly`, for `path`, with `same_site` (`Strict`
/// or `Lax`), and `Secure` when the shop is served over https. `max_age` 0 deletes it.
pub fn set_cookie(
    state: &AppState,
    name: &str,
    value: &str,
    path: &str,
    same_site: &str,
    max_age: i64,
) -> Result<HeaderValue, ShopError> {
    let secure = if state.public_url.starts_with("https://") {
        "; Secure"
    } else {
        ""
    };
    HeaderValue::from_str(&format!(
        "{name}={value}; Path={path}; HttpOnly; SameSite={same_site}; Max-Age={max_age}{secure}"
    ))
    .map_err(ShopError::internal)
}
