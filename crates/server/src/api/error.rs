//! What an error answers over HTTP. The one table of statuses ([`status`]) lists every
//! error code; a `ShopError` answers its code's status, the body below (the code, the
//! public message and the fields to blame, never the cause) and `Retry-After` when it says
//! when to try again. A server fault (5xx) logs its code and cause chain here, once.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

use raceshot_payments::{GatewayKind, PaymentError};

use crate::error::{ErrorCode, FieldProblem, ShopError};
use crate::infra::gateways::GatewayMissing;
use crate::infra::rate_limit::Limited;
use crate::services::certificates::CertificateError;
use crate::services::commerce::CommerceError;
use crate::services::commerce::orders::OrderRefused;
use crate::services::passes::PassError;

/// The HTTP status each error code answers.
pub fn status(code: ErrorCode) -> StatusCode {
    match code {
        ErrorCode::MalformedJson => StatusCode::BAD_REQUEST,
        ErrorCode::InvalidField => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorCode::InvalidClientToken => StatusCode::UNAUTHORIZED,
        ErrorCode::EventNotFound => StatusCode::NOT_FOUND,
        ErrorCode::EventNotOnSale => StatusCode::CONFLICT,
        ErrorCode::UploadNotFound => StatusCode::NOT_FOUND,
        ErrorCode::InvalidSignature => StatusCode::FORBIDDEN,
        ErrorCode::FileTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        ErrorCode::UnsupportedImageType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ErrorCode::UnreadableImage => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorCode::ImageTooManyPixels => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorCode::MalformedMultipart => StatusCode::BAD_REQUEST,
        ErrorCode::ImageNotFound => StatusCode::NOT_FOUND,
        ErrorCode::InvalidBib => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorCode::TooManySelfies => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorCode::NoFace => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorCode::SelfieManyFaces => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorCode::PrivacyRequestExists => StatusCode::CONFLICT,
        ErrorCode::PrivacyRequestDecided => StatusCode::CONFLICT,
        ErrorCode::PrivacyHold => StatusCode::CONFLICT,
        ErrorCode::MixedEvents => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorCode::DealNotAvailable => StatusCode::CONFLICT,
        ErrorCode::DealNeedsSearch => StatusCode::CONFLICT,
        ErrorCode::WholesaleNotAvailable => StatusCode::CONFLICT,
        ErrorCode::OrderNotFound => StatusCode::NOT_FOUND,
        ErrorCode::AccessCodeInvalid => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorCode::AccessCodeExpired => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorCode::AccessCodeUndeliverable => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorCode::LineUnavailable => StatusCode::NOT_FOUND,
        ErrorCode::AlertConsentRequired => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorCode::AlertsUnavailable => StatusCode::NOT_FOUND,
        ErrorCode::AlertNotFound => StatusCode::NOT_FOUND,
        ErrorCode::ResultNotFound => StatusCode::NOT_FOUND,
        ErrorCode::CertificateNotOffered => StatusCode::NOT_FOUND,
        ErrorCode::CertificateNotFree => StatusCode::CONFLICT,
        ErrorCode::CertificateNotSold => StatusCode::CONFLICT,
        ErrorCode::PassNotFound => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorCode::PassUsed => StatusCode::CONFLICT,
        ErrorCode::PassDoesNotCover => StatusCode::CONFLICT,
        ErrorCode::AmountMismatch => StatusCode::CONFLICT,
        ErrorCode::PaymentGatewayChanged => StatusCode::CONFLICT,
        ErrorCode::PaymentChannelNotAvailable => StatusCode::CONFLICT,
        ErrorCode::ApprovalNotAvailable => StatusCode::CONFLICT,
        ErrorCode::OrderNotPayable => StatusCode::CONFLICT,
        ErrorCode::PaymentDeclined => StatusCode::PAYMENT_REQUIRED,
        ErrorCode::PaymentGatewayError => StatusCode::BAD_GATEWAY,
        ErrorCode::PaymentGatewayTimeout => StatusCode::GATEWAY_TIMEOUT,
        ErrorCode::OrderNotPaid => StatusCode::FORBIDDEN,
        ErrorCode::DownloadLinkExpired => StatusCode::FORBIDDEN,
        ErrorCode::StorageExpired => StatusCode::GONE,
        ErrorCode::LogoImagesNotReady => StatusCode::CONFLICT,
        ErrorCode::FrameImagesNotReady => StatusCode::CONFLICT,
        ErrorCode::VariantNotOffered => StatusCode::FORBIDDEN,
        ErrorCode::FrameNotTransparent => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorCode::NotSignedIn => StatusCode::UNAUTHORIZED,
        ErrorCode::InvalidCredentials => StatusCode::UNAUTHORIZED,
        ErrorCode::AccountLocked => StatusCode::TOO_MANY_REQUESTS,
        ErrorCode::Forbidden => StatusCode::FORBIDDEN,
        ErrorCode::PhotoSold => StatusCode::CONFLICT,
        ErrorCode::NotFound => StatusCode::NOT_FOUND,
        ErrorCode::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
        ErrorCode::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        ErrorCode::UploadOffsetConflict => StatusCode::CONFLICT,
        ErrorCode::UploadExpired => StatusCode::GONE,
        ErrorCode::TusVersionUnsupported => StatusCode::PRECONDITION_FAILED,
        ErrorCode::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ErrorCode::Timeout => StatusCode::REQUEST_TIMEOUT,
        ErrorCode::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        ErrorCode::Busy => StatusCode::SERVICE_UNAVAILABLE,
        ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
        ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
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

impl IntoResponse for ShopError {
    fn into_response(self) -> Response {
        let code = self.code();
        let status = status(code);
        if status.is_server_error() {
            match self.cause() {
                Some(source) => {
                    tracing::error!(code = code.as_str(), error = ?source, "request failed")
                }
                None => {
                    tracing::error!(code = code.as_str(), message = %self.message(), "request failed")
                }
            }
        }
        let body = ErrorBody {
            status: "error",
            code: code.as_str(),
            message: self.message().to_owned(),
            field: self.blamed_field().map(str::to_owned),
            errors: self.problems().to_vec(),
        };
        let mut response = (status, Json(body)).into_response();
        if let Some(seconds) = self.retry_after_seconds() {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

/// A client that asked too often.
impl From<Limited> for ShopError {
    fn from(e: Limited) -> Self {
        ShopError::new(ErrorCode::RateLimited, e.to_string()).retry_after(e.retry_after)
    }
}

/// A gateway this process has no client for: the sandbox once it is off is gone; a
/// PROMPTPAY gateway without its id is the server's fault (the configuration refuses it).
impl From<GatewayMissing> for ShopError {
    fn from(e: GatewayMissing) -> Self {
        match e.0 {
            GatewayKind::Sandbox => {
                ShopError::new(ErrorCode::NotFound, "the sandbox gateway is off")
            }
            GatewayKind::PromptPay => {
                ShopError::internal(anyhow::anyhow!("payments.promptpay_id is not set"))
            }
            _ => ShopError::new(ErrorCode::PaymentGatewayError, e.to_string()),
        }
    }
}

/// A failed gateway call: timeouts and outages are the gateway's, a refusal is the
/// payment's.
impl From<PaymentError> for ShopError {
    fn from(e: PaymentError) -> Self {
        match e {
            PaymentError::Timeout => ShopError::new(
                ErrorCode::PaymentGatewayTimeout,
                "the payment gateway did not answer in time; try again",
            ),
            PaymentError::Unavailable { status } => ShopError::new(
                ErrorCode::PaymentGatewayError,
                format!("the payment gateway is unavailable (HTTP {status}); try again"),
            )
            .retry_after(5),
            PaymentError::Rejected { code, message, .. } => ShopError::new(
                ErrorCode::PaymentDeclined,
                format!("the payment gateway refused the payment: {code}: {message}"),
            ),
            PaymentError::Protocol(message) => ShopError::new(
                ErrorCode::PaymentGatewayError,
                format!("the payment gateway's answer was not understood: {message}"),
            ),
            PaymentError::Trail(message) => {
                ShopError::internal(anyhow::anyhow!("payment trail: {message}"))
            }
        }
    }
}

impl From<OrderRefused> for ShopError {
    fn from(refused: OrderRefused) -> Self {
        let code = match refused {
            OrderRefused::GatewayChanged { .. } => ErrorCode::PaymentGatewayChanged,
            OrderRefused::FreeNotAllowed
            | OrderRefused::NothingToPay
            | OrderRefused::NoCards { .. } => ErrorCode::PaymentChannelNotAvailable,
            OrderRefused::AmountMismatch { .. } => ErrorCode::AmountMismatch,
            OrderRefused::NoEarlierDealOrder => ErrorCode::ApprovalNotAvailable,
        };
        ShopError::new(code, refused.to_string())
    }
}

/// Commerce's refusals by code (and the field to blame); its faults answer `internal` or
/// `unavailable`, their causes kept.
impl From<CertificateError> for ShopError {
    fn from(e: CertificateError) -> Self {
        match e {
            CertificateError::NotOffered => {
                ShopError::new(ErrorCode::CertificateNotOffered, e.to_string())
            }
            CertificateError::NotFree => {
                ShopError::new(ErrorCode::CertificateNotFree, e.to_string())
            }
            CertificateError::NotSold => {
                ShopError::new(ErrorCode::CertificateNotSold, e.to_string())
            }
            CertificateError::NoResult => ShopError::new(ErrorCode::ResultNotFound, e.to_string()),
            CertificateError::NotTheirPhoto => {
                ShopError::new(ErrorCode::ImageNotFound, e.to_string())
            }
            CertificateError::NoFonts => ShopError::unavailable(e),
            CertificateError::BibSearch(e) => e.into(),
            CertificateError::Store(e) => e.into(),
            CertificateError::Fault(e) => ShopError::internal(e),
        }
    }
}

impl From<PassError> for ShopError {
    fn from(e: PassError) -> Self {
        match e {
            PassError::Count => ShopError::field("count", e.to_string()),
            PassError::Cover => ShopError::field("photos", e.to_string()),
            PassError::Name | PassError::BatchExists => ShopError::field("batch", e.to_string()),
            PassError::Store(e) => e.into(),
        }
    }
}

impl From<CommerceError> for ShopError {
    fn from(e: CommerceError) -> Self {
        use CommerceError as E;
        let message = e.to_string();
        let refuse = |code| ShopError::new(code, &message);
        match e {
            E::EventNotFound => refuse(ErrorCode::EventNotFound),
            E::EventNotOnSale => refuse(ErrorCode::EventNotOnSale),
            E::OrderNotFound => refuse(ErrorCode::OrderNotFound),
            E::CartSize => ShopError::field("image_ids", &message),
            E::TooManyFoundRefs => ShopError::field("found_refs", &message),
            E::MalformedFoundRef { index } => {
                ShopError::field(format!("found_refs[{index}]"), &message)
            }
            E::CertificateInWholesale => ShopError::field("certificate_bib", &message),
            E::Certificate(refused) => ShopError::from(refused).with_field("certificate_bib"),
            E::MixedEvents => refuse(ErrorCode::MixedEvents),
            E::PhotoNotOnSale => refuse(ErrorCode::ImageNotFound),
            E::WholesaleNotAvailable => refuse(ErrorCode::WholesaleNotAvailable),
            E::DealNotAvailable => refuse(ErrorCode::DealNotAvailable),
            E::DealNeedsSearch => refuse(ErrorCode::DealNeedsSearch),
            E::PassNotFound => refuse(ErrorCode::PassNotFound).with_field("pass_code"),
            E::TooManyPassCodes { retry_after } => {
                refuse(ErrorCode::RateLimited).retry_after(retry_after)
            }
            E::PassUsed => refuse(ErrorCode::PassUsed).with_field("pass_code"),
            E::PassDoesNotCover(_) => refuse(ErrorCode::PassDoesNotCover).with_field("pass_code"),
            E::Refused(refused) => refused.into(),
            E::NoContact | E::MessageCap | E::CodeNotDelivered => {
                refuse(ErrorCode::AccessCodeUndeliverable)
            }
            E::CodeSentRecently { retry_after } => {
                refuse(ErrorCode::RateLimited).retry_after(retry_after)
            }
            E::CodeSendFailed(cause) => {
                ShopError::unavailable(cause.context("sending an order code"))
            }
            E::MalformedCode | E::WrongCode => {
                refuse(ErrorCode::AccessCodeInvalid).with_field("code")
            }
            E::NoCodeWaiting => refuse(ErrorCode::AccessCodeExpired),
            E::NotPayable(_) => refuse(ErrorCode::OrderNotPayable),
            E::NoCards(_) => refuse(ErrorCode::PaymentChannelNotAvailable),
            E::Declined { .. } => refuse(ErrorCode::PaymentDeclined),
            E::MalformedSlipRef => ShopError::field("slip_ref", &message),
            E::GatewayMissing(missing) => missing.into(),
            E::Gateway(failed) => failed.into(),
            fault @ (E::Store(_) | E::Internal(_)) => ShopError::internal(fault),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn answer(e: ShopError) -> (StatusCode, Option<String>, serde_json::Value) {
        let response = e.into_response();
        let status = response.status();
        let retry = response
            .headers()
            .get(axum::http::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let bytes = axum::body::to_bytes(response.into_body(), 64 * 1024)
            .await
            .unwrap_or_default();
        let body = serde_json::from_slice(&bytes).unwrap_or_default();
        (status, retry, body)
    }

    #[tokio::test]
    async fn a_fault_answers_its_code_never_its_cause() {
        let cause = anyhow::anyhow!("connection refused").context("database");
        let (status, retry, body) = answer(ShopError::internal(cause)).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(retry, None);
        assert_eq!(
            body,
            serde_json::json!({"status": "error", "code": "internal", "message": "internal error"})
        );
    }

    #[tokio::test]
    async fn a_refusal_answers_its_status_field_and_retry_after() {
        let (status, _, body) = answer(ShopError::field("mobile", "ten digits")).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(body["field"], "mobile");
        assert_eq!(body["code"], "invalid_field");
        let (status, retry, body) = answer(ShopError::busy(3)).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(retry.as_deref(), Some("3"));
        assert_eq!(body["code"], "busy");
    }

    #[test]
    fn a_refused_order_answers_the_refusals_code() {
        let refused: ShopError = OrderRefused::NothingToPay.into();
        assert_eq!(refused.code(), ErrorCode::PaymentChannelNotAvailable);
    }

    #[test]
    fn a_limited_client_answers_rate_limited_and_when_to_come_back() {
        let limited: ShopError = Limited { retry_after: 20 }.into();
        assert_eq!(limited.code(), ErrorCode::RateLimited);
        assert_eq!(limited.retry_after_seconds(), Some(20));
    }

    #[test]
    fn every_code_answers_an_error_status() {
        for &code in ErrorCode::ALL {
            let s = status(code);
            assert!(s.is_client_error() || s.is_server_error(), "{code}: {s}");
        }
    }
}
