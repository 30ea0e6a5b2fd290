//! Request extractors that turn bad input into the API's own errors: malformed JSON, a
//! field of the wrong type (named by its path), an unsupported media type, a body over the
//! limit.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequest, Request};
use axum::http::header::CONTENT_TYPE;
use serde::de::DeserializeOwned;

use crate::error::{ApiError, ErrorCode};

/// A JSON body parsed into `T`. An empty body reads as `{}`, so calls whose fields are all
/// optional may send nothing.
pub struct ApiJson<T>(pub T);

impl<T, S> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        if let Some(ct) = req.headers().get(CONTENT_TYPE) {
            let json = ct
                .to_str()
                .map(|ct| {
                    ct.trim_start()
                        .to_ascii_lowercase()
                        .starts_with("application/json")
                })
                .unwrap_or(false);
            if !json {
                return Err(ApiError::new(
                    ErrorCode::UnsupportedMediaType,
                    "send the body as application/json",
                ));
            }
        }
        let bytes = Bytes::from_request(req, state).await.map_err(body_error)?;
        parse_json(if bytes.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else {
            &bytes
        })
        .map(ApiJson)
    }
}

/// Parses JSON, telling a syntax error (`malformed_json`) from a field of the wrong shape
/// (`invalid_field`, with the field's path).
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let de = &mut serde_json::Deserializer::from_slice(bytes);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        match inner.classify() {
            serde_json::error::Category::Data => {
                let field = if path == "." { String::new() } else { path };
                ApiError::field(field, inner.to_string())
            }
            _ => ApiError::new(ErrorCode::MalformedJson, inner.to_string()),
        }
    })
}

pub fn body_error(e: BytesRejection) -> ApiError {
    if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::new(ErrorCode::PayloadTooLarge, "request body is too large")
    } else {
        ApiError::new(ErrorCode::MalformedJson, e.body_text())
    }
}

/// In the API contract: a JSON number or a string holding one, as the spec's clients send
/// ids and amounts. Handlers read such fields as `serde_json::Value` and parse them.
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
