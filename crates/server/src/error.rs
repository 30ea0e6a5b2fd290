//! The shop's errors: one table maps every error code to its HTTP status. Services
//! (`commerce`, `search`, `photos`, …) return a `ShopError` naming its code; the HTTP edge
//! answers it by the table (`IntoResponse` below), the CLI prints it (`code: message`, then
//! its causes: a `ShopError` is a `std::error::Error` whose `source()` is its cause). The
//! code is the stable contract (the web app translates by it); the message is English for
//! developers. Server faults log their cause chain and answer a generic message. Where a
//! service has refusals of its own (`commerce::orders::OrderRefused`), they are a typed
//! enum that converts into a `ShopError` at the service's boundary.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

macro_rules! error_codes {
    ($($variant:ident => $status:ident, $code:literal;)*) => {
        /// Every error the API can answer.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum ErrorCode { $($variant,)* }

        impl ErrorCode {
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant,)*];

            pub fn status(self) -> StatusCode {
                match self { $(ErrorCode::$variant => StatusCode::$status,)* }
            }

            pub fn as_str(self) -> &'static str {
                match self { $(ErrorCode::$variant => $code,)* }
            }
        }
    };
}

error_codes! {
    MalformedJson        => BAD_REQUEST,            "malformed_json";
    InvalidField         => UNPROCESSABLE_ENTITY,   "invalid_field";
    InvalidClientToken   => UNAUTHORIZED,           "invalid_client_token";
    EventNotFound        => NOT_FOUND,              "event_not_found";
    EventNotOnSale       => CONFLICT,               "event_not_on_sale";
    UploadNotFound       => NOT_FOUND,              "upload_not_found";
    InvalidSignature     => FORBIDDEN,              "invalid_signature";
    FileTooLarge         => PAYLOAD_TOO_LARGE,      "file_too_large";
    UnsupportedImageType => UNSUPPORTED_MEDIA_TYPE, "unsupported_image_type";
    UnreadableImage      => UNPROCESSABLE_ENTITY,   "unreadable_image";
    ImageTooManyPixels   => UNPROCESSABLE_ENTITY,   "image_too_many_pixels";
    MalformedMultipart   => BAD_REQUEST,            "malformed_multipart";
    ImageNotFound        => NOT_FOUND,              "image_not_found";
    InvalidBib           => UNPROCESSABLE_ENTITY,   "invalid_bib";
    TooManySelfies       => UNPROCESSABLE_ENTITY,   "too_many_selfies";
    NoFace               => UNPROCESSABLE_ENTITY,   "no_face";
    SelfieManyFaces      => UNPROCESSABLE_ENTITY,   "selfie_many_faces";
    PrivacyRequestExists => CONFLICT,               "privacy_request_exists";
    PrivacyRequestDecided => CONFLICT,              "privacy_request_decided";
    PrivacyHold          => CONFLICT,               "privacy_hold";
    MixedEvents          => UNPROCESSABLE_ENTITY,   "mixed_events";
    DealNotAvailable     => CONFLICT,               "deal_not_available";
    DealNeedsSearch      => CONFLICT,               "deal_needs_search";
    WholesaleNotAvailable => CONFLICT,              "wholesale_not_available";
    OrderNotFound        => NOT_FOUND,              "order_not_found";
    AccessCodeInvalid    => UNPROCESSABLE_ENTITY,   "access_code_invalid";
    AccessCodeExpired    => UNPROCESSABLE_ENTITY,   "access_code_expired";
    AccessCodeUndeliverable => UNPROCESSABLE_ENTITY, "access_code_undeliverable";
    AmountMismatch       => CONFLICT,               "amount_mismatch";
    PaymentGatewayChanged => CONFLICT,              "payment_gateway_changed";
    PaymentChannelNotAvailable => CONFLICT,         "payment_channel_not_available";
    ApprovalNotAvailable => CONFLICT,               "approval_not_available";
    OrderNotPayable      => CONFLICT,               "order_not_payable";
    PaymentDeclined      => PAYMENT_REQUIRED,       "payment_declined";
    PaymentGatewayError  => BAD_GATEWAY,            "payment_gateway_error";
    PaymentGatewayTimeout => GATEWAY_TIMEOUT,       "payment_gateway_timeout";
    OrderNotPaid         => FORBIDDEN,              "order_not_paid";
    DownloadLinkExpired  => FORBIDDEN,              "download_link_expired";
    StorageExpired       => GONE,                   "storage_expired";
    LogoImagesNotReady   => CONFLICT,               "logo_images_not_ready";
    NotSignedIn          => UNAUTHORIZED,           "not_signed_in";
    InvalidCredentials   => UNAUTHORIZED,           "invalid_credentials";
    AccountLocked        => TOO_MANY_REQUESTS,      "account_locked";
    Forbidden            => FORBIDDEN,              "forbidden";
    PhotoSold            => CONFLICT,               "photo_sold";
    NotFound             => NOT_FOUND,              "not_found";
    MethodNotAllowed     => METHOD_NOT_ALLOWED,     "method_not_allowed";
    PayloadTooLarge      => PAYLOAD_TOO_LARGE,      "payload_too_large";
    UnsupportedMediaType => UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type";
    Timeout              => REQUEST_TIMEOUT,        "timeout";
    Unavailable          => SERVICE_UNAVAILABLE,    "unavailable";
    Busy                 => SERVICE_UNAVAILABLE,    "busy";
    RateLimited          => TOO_MANY_REQUESTS,      "rate_limited";
    Internal             => INTERNAL_SERVER_ERROR,  "internal";
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An error: the body names its stable `code` (the error-code table) and, where one is to
/// blame, the field. Declared once, every operation's error answers refer to it.
#[derive(utoipa::ToResponse)]
pub struct ErrorAnswer(#[allow(dead_code)] ErrorBody);

/// The body of every error answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// Always `"error"`.
    pub status: &'static str,
    /// Stable snake_case error code.
    #[schema(example = "invalid_field")]
    pub code: &'static str,
    /// English explanation for developers; the web app shows its own text for `code`.
    pub message: String,
    /// The offending field, when one is to blame (`package[1].price`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// Every offending field, when several are (a form checked whole).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<FieldProblem>,
}

/// One field's problem.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FieldProblem {
    pub field: String,
    pub message: String,
}

/// An error of the shop, shown as `code: message (field)`; `source()` is its cause.
#[derive(Debug, thiserror::Error)]
#[error("{code}: {message}{}", FieldNote(.field.as_deref()))]
pub struct ShopError {
    code: ErrorCode,
    message: String,
    field: Option<String>,
    errors: Vec<FieldProblem>,
    /// What caused it: a fault's underlying error.
    source: Option<anyhow::Error>,
    /// Seconds after which the client may try again (`Retry-After`).
    retry_after: Option<u64>,
}

/// ` (field)` after the message, when a field is to blame.
struct FieldNote<'a>(Option<&'a str>);

impl std::fmt::Display for FieldNote<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(field) => write!(f, " ({field})"),
            None => Ok(()),
        }
    }
}

impl ShopError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            field: None,
            errors: Vec::new(),
            source: None,
            retry_after: None,
        }
    }

    pub fn field(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: Some(field.into()),
            ..Self::new(ErrorCode::InvalidField, message)
        }
    }

    /// Several fields at once; the first is also `field`.
    pub fn fields(problems: Vec<FieldProblem>) -> Self {
        let first = problems.first().cloned();
        Self {
            field: first.as_ref().map(|p| p.field.clone()),
            errors: problems,
            ..Self::new(
                ErrorCode::InvalidField,
                first.map_or_else(|| "invalid input".to_owned(), |p| p.message),
            )
        }
    }

    /// A fault of the server: logged with its causes, answered without them.
    pub fn internal(source: impl Into<anyhow::Error>) -> Self {
        Self::new(ErrorCode::Internal, "internal error").caused_by(source)
    }

    /// A service the request needs (a mail server, say) failed: logged with its causes.
    pub fn unavailable(source: impl Into<anyhow::Error>) -> Self {
        Self::new(
            ErrorCode::Unavailable,
            "a service the shop needs failed; try again",
        )
        .caused_by(source)
    }

    /// Keeps what caused this error as its `source()`; the answer never shows it.
    pub fn caused_by(mut self, source: impl Into<anyhow::Error>) -> Self {
        self.source = Some(source.into());
        self
    }

    /// Names the field to blame.
    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    /// The server is at capacity: try again after `seconds`.
    pub fn busy(seconds: u64) -> Self {
        Self::new(
            ErrorCode::Busy,
            "too many requests of this kind at once; try again",
        )
        .retry_after(seconds)
    }

    /// Tells the client when to try again (`Retry-After`).
    pub fn retry_after(mut self, seconds: u64) -> Self {
        self.retry_after = Some(seconds);
        self
    }

    pub fn code(&self) -> ErrorCode {
        self.code
    }
}

impl From<raceshot_store::StoreError> for ShopError {
    fn from(e: raceshot_store::StoreError) -> Self {
        if e.is_not_found() {
            ShopError::new(ErrorCode::NotFound, "not found")
        } else {
            ShopError::internal(e)
        }
    }
}

impl IntoResponse for ShopError {
    fn into_response(self) -> Response {
        let status = self.code.status();
        if status.is_server_error() {
            match &self.source {
                Some(source) => {
                    tracing::error!(code = self.code.as_str(), error = ?source, "request failed")
                }
                None => {
                    tracing::error!(code = self.code.as_str(), message = %self.message, "request failed")
                }
            }
        }
        let body = ErrorBody {
            status: "error",
            code: self.code.as_str(),
            message: self.message,
            field: self.field,
            errors: self.errors,
        };
        let mut response = (status, Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

pub type ShopResult<T> = Result<T, ShopError>;

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use super::*;

    #[test]
    fn codes_are_unique_snake_case() {
        let mut seen = std::collections::HashSet::new();
        for code in ErrorCode::ALL {
            let s = code.as_str();
            assert!(s.chars().all(|c| c.is_ascii_lowercase() || c == '_'), "{s}");
            assert!(seen.insert(s), "{s} twice");
        }
    }

    #[test]
    fn a_refusal_shows_its_code_message_and_field() {
        let e = ShopError::field("mobile", "ten digits");
        assert_eq!(e.to_string(), "invalid_field: ten digits (mobile)");
        assert!(e.source().is_none());
        let e = ShopError::new(ErrorCode::OrderNotFound, "no such order");
        assert_eq!(
            format!("{:#}", anyhow::Error::new(e)),
            "order_not_found: no such order"
        );
    }

    #[test]
    fn a_fault_keeps_its_cause_chain() {
        let refused =
            std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "connection refused");
        let e = ShopError::internal(anyhow::Error::new(refused).context("database"));
        assert_eq!(e.code(), ErrorCode::Internal);
        let source = e.source().map(ToString::to_string);
        assert_eq!(source.as_deref(), Some("database"));
        // What `main` prints: `error: {e:#}`.
        assert_eq!(
            format!("{:#}", anyhow::Error::new(e)),
            "internal: internal error: database: connection refused"
        );
    }
}
