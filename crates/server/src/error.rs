//! The shop's errors, as services and commands see them: a `ShopError` names its stable
//! [`ErrorCode`] (the web app translates by it), an English message for developers, the
//! field to blame, and, for a fault, its cause. It is a `std::error::Error` whose
//! `source()` is that cause, so the command line prints the whole chain (`{:#}`). What a
//! code answers over HTTP (its status, `Retry-After`, the body) is the edge's business:
//! the one table of statuses and the `IntoResponse` impl are in `api/error.rs`, which logs
//! a server fault's cause once and answers only the code and the public message.
//!
//! A store error reached through `?` is a fault (`internal`), its cause kept. Where a
//! missing object is an answer rather than a fault, the caller says which
//! ([`OrMissing::or_missing`]); rows the store may not have come back as `Option`, and the
//! service decides what their absence means (`order_not_found`, `event_not_found`, …).
//!
//! Services name no code: each answers an error enum of its own (refusals, and faults with
//! their `source()`): `commerce` a `CommerceError`, `search` a `SearchError`, `privacy` a
//! `PrivacyError`, `selfies::reserve` a `ReserveError`, `operators::sign_in` a
//! `SignInRefused`, the rate limiter `Limited`, and so on. The HTTP edge alone maps them
//! to codes (`api/error.rs` for commerce, the limiter and the gateways; the capability's
//! own `api/` file for the rest). Services that only read and write rows answer the
//! store's own `StoreError`.

use raceshot_store::StoreError;
use serde::Serialize;
use utoipa::ToSchema;

macro_rules! error_codes {
    ($($variant:ident => $code:literal;)*) => {
        /// Every error the shop can answer, by its stable code. What each answers over
        /// HTTP is listed in `api/error.rs`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum ErrorCode { $($variant,)* }

        impl ErrorCode {
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant,)*];

            pub fn as_str(self) -> &'static str {
                match self { $(ErrorCode::$variant => $code,)* }
            }
        }
    };
}

error_codes! {
    MalformedJson              => "malformed_json";
    InvalidField               => "invalid_field";
    InvalidClientToken         => "invalid_client_token";
    EventNotFound              => "event_not_found";
    EventNotOnSale             => "event_not_on_sale";
    UploadNotFound             => "upload_not_found";
    InvalidSignature           => "invalid_signature";
    FileTooLarge               => "file_too_large";
    UnsupportedImageType       => "unsupported_image_type";
    UnreadableImage            => "unreadable_image";
    ImageTooManyPixels         => "image_too_many_pixels";
    MalformedMultipart         => "malformed_multipart";
    ImageNotFound              => "image_not_found";
    InvalidBib                 => "invalid_bib";
    TooManySelfies             => "too_many_selfies";
    NoFace                     => "no_face";
    SelfieManyFaces            => "selfie_many_faces";
    PrivacyRequestExists       => "privacy_request_exists";
    PrivacyRequestDecided      => "privacy_request_decided";
    PrivacyHold                => "privacy_hold";
    MixedEvents                => "mixed_events";
    DealNotAvailable           => "deal_not_available";
    DealNeedsSearch            => "deal_needs_search";
    WholesaleNotAvailable      => "wholesale_not_available";
    OrderNotFound              => "order_not_found";
    AccessCodeInvalid          => "access_code_invalid";
    AccessCodeExpired          => "access_code_expired";
    AccessCodeUndeliverable    => "access_code_undeliverable";
    LineUnavailable            => "line_unavailable";
    AlertConsentRequired       => "alert_consent_required";
    AlertsUnavailable          => "alerts_unavailable";
    AlertNotFound              => "alert_not_found";
    ResultNotFound             => "result_not_found";
    CertificateNotOffered      => "certificate_not_offered";
    CertificateNotFree         => "certificate_not_free";
    CertificateNotSold         => "certificate_not_sold";
    PassNotFound               => "pass_not_found";
    PassUsed                   => "pass_used";
    PassDoesNotCover           => "pass_does_not_cover";
    AmountMismatch             => "amount_mismatch";
    PaymentGatewayChanged      => "payment_gateway_changed";
    PaymentChannelNotAvailable => "payment_channel_not_available";
    ApprovalNotAvailable       => "approval_not_available";
    OrderNotPayable            => "order_not_payable";
    PaymentDeclined            => "payment_declined";
    PaymentGatewayError        => "payment_gateway_error";
    PaymentGatewayTimeout      => "payment_gateway_timeout";
    OrderNotPaid               => "order_not_paid";
    DownloadLinkExpired        => "download_link_expired";
    StorageExpired             => "storage_expired";
    LogoImagesNotReady         => "logo_images_not_ready";
    FrameImagesNotReady        => "frame_images_not_ready";
    VariantNotOffered          => "variant_not_offered";
    FrameNotTransparent        => "frame_not_transparent";
    NotSignedIn                => "not_signed_in";
    InvalidCredentials         => "invalid_credentials";
    AccountLocked              => "account_locked";
    Forbidden                  => "forbidden";
    PhotoSold                  => "photo_sold";
    NotFound                   => "not_found";
    MethodNotAllowed           => "method_not_allowed";
    PayloadTooLarge            => "payload_too_large";
    UploadOffsetConflict       => "upload_offset_conflict";
    UploadExpired              => "upload_expired";
    TusVersionUnsupported      => "tus_version_unsupported";
    UnsupportedMediaType       => "unsupported_media_type";
    Timeout                    => "timeout";
    Unavailable                => "unavailable";
    Busy                       => "busy";
    RateLimited                => "rate_limited";
    Internal                   => "internal";
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
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
    /// What caused it: a fault's underlying error, or the store's miss behind a refusal.
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

    /// The message the answer shows: never the cause.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The field to blame, if one is.
    pub fn blamed_field(&self) -> Option<&str> {
        self.field.as_deref()
    }

    /// Every field to blame, when a form was checked whole.
    pub fn problems(&self) -> &[FieldProblem] {
        &self.errors
    }

    /// Seconds after which the client may try again, if it may.
    pub fn retry_after_seconds(&self) -> Option<u64> {
        self.retry_after
    }

    /// The cause, with its own chain (`{:?}` shows every layer).
    pub fn cause(&self) -> Option<&anyhow::Error> {
        self.source.as_ref()
    }
}

/// A store error reached through `?` is a fault of the server, kept as the cause. A missing
/// object the caller expected may be an answer instead: see [`OrMissing`].
impl From<StoreError> for ShopError {
    fn from(e: StoreError) -> Self {
        ShopError::internal(e)
    }
}

/// Every slot of a bounded kind of request is taken: try again in a second.
impl From<crate::infra::search_slots::Busy> for ShopError {
    fn from(_: crate::infra::search_slots::Busy) -> Self {
        ShopError::busy(1)
    }
}

/// For a store call whose object may be missing: the caller names what that means.
pub trait OrMissing<T> {
    /// A missing object answers `missing()` (with the store's error as its cause); any
    /// other store error is a fault of the server.
    fn or_missing(self, missing: impl FnOnce() -> ShopError) -> ShopResult<T>;
}

impl<T> OrMissing<T> for Result<T, StoreError> {
    fn or_missing(self, missing: impl FnOnce() -> ShopError) -> ShopResult<T> {
        self.map_err(|e| {
            if e.is_not_found() {
                missing().caused_by(e)
            } else {
                ShopError::internal(e)
            }
        })
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
        assert_eq!(e.message(), "internal error", "the answer shows no cause");
        let source = e.source().map(ToString::to_string);
        assert_eq!(source.as_deref(), Some("database"));
        // What `main` prints: `error: {e:#}`.
        assert_eq!(
            format!("{:#}", anyhow::Error::new(e)),
            "internal: internal error: database: connection refused"
        );
    }

    #[test]
    fn a_store_error_is_a_fault_with_the_store_error_as_its_cause() {
        let e = ShopError::from(StoreError::Corrupt("timestamp 1e99 out of range".into()));
        assert_eq!(e.code(), ErrorCode::Internal);
        let cause = e.source().and_then(|s| s.downcast_ref::<StoreError>());
        assert!(matches!(cause, Some(StoreError::Corrupt(_))), "{cause:?}");
        assert_eq!(
            format!("{:#}", anyhow::Error::new(e)),
            "internal: internal error: stored data is invalid: timestamp 1e99 out of range"
        );
    }

    #[test]
    fn a_missing_object_is_what_the_caller_says() {
        let no_logo = || ShopError::new(ErrorCode::NotFound, "no shop logo");
        let missing: Result<(), StoreError> = Err(StoreError::NotFound);
        let e = missing.or_missing(no_logo).err();
        assert_eq!(e.as_ref().map(ShopError::code), Some(ErrorCode::NotFound));
        assert!(
            e.and_then(|e| e.source().map(|s| s.is::<StoreError>()))
                .unwrap_or(false)
        );
        let broken: Result<(), StoreError> = Err(StoreError::Config("no bucket".into()));
        let e = broken.or_missing(no_logo).err();
        assert_eq!(e.map(|e| e.code()), Some(ErrorCode::Internal));
    }
}
