//! The HTTP plumbing the gateway adapters share: building a client with the configured
//! timeout, normalising base URLs, sending a request and sorting transport failures into
//! [`PaymentError`]s.

use std::time::{Duration, Instant};

use bytes::{Bytes, BytesMut};
use reqwest::{Client, RequestBuilder, Url};

use crate::PaymentError;

/// No gateway answer we read is anywhere near this big; a larger one is refused.
const MAX_BODY_BYTES: usize = 8 * 1024 * 1024;

/// At most this much of an unreadable answer is kept in an error message.
const MAX_ERROR_TEXT: usize = 300;

pub(crate) fn build_client(timeout: Duration) -> Result<Client, PaymentError> {
    Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout)
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("raceshot-payments/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| PaymentError::Protocol(format!("cannot build HTTP client: {e}")))
}

/// `https://host/` and `https://host` both become `https://host`; anything that is not an
/// absolute http(s) URL is refused.
pub(crate) fn normalise_base_url(gateway: &str, base_url: &str) -> Result<String, PaymentError> {
    let trimmed = base_url.trim().trim_end_matches('/');
    let parsed = Url::parse(trimmed)
        .map_err(|e| PaymentError::Protocol(format!("invalid {gateway} base URL: {e}")))?;
    if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
        return Err(PaymentError::Protocol(format!(
            "invalid {gateway} base URL: expected an http(s) address"
        )));
    }
    Ok(trimmed.to_owned())
}

/// What came back, whatever its status.
pub(crate) struct RawResponse {
    pub status: u16,
    pub content_type: Option<String>,
    pub body: Bytes,
}

impl RawResponse {
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }

    pub fn is_server_error(&self) -> bool {
        self.status >= 500
    }

    /// The start of the body as text, for error messages.
    pub fn text_excerpt(&self) -> String {
        excerpt(&String::from_utf8_lossy(&self.body))
    }
}

pub(crate) fn excerpt(text: &str) -> String {
    let text = text.trim();
    match text.char_indices().nth(MAX_ERROR_TEXT) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// Sends the request and reads the whole answer. `what` names the call in logs; it never
/// holds a secret.
pub(crate) async fn send(what: &str, request: RequestBuilder) -> Result<RawResponse, PaymentError> {
    let started = Instant::now();
    let result = read(request).await;
    let elapsed_ms = started.elapsed().as_millis();
    match &result {
        Ok(response) if response.is_server_error() => {
            tracing::warn!(
                call = what,
                status = response.status,
                elapsed_ms,
                "gateway error"
            );
        }
        Ok(response) => {
            tracing::debug!(
                call = what,
                status = response.status,
                elapsed_ms,
                "gateway answered"
            );
        }
        Err(error) => {
            tracing::warn!(call = what, %error, elapsed_ms, "gateway call failed");
        }
    }
    result
}

async fn read(request: RequestBuilder) -> Result<RawResponse, PaymentError> {
    let mut response = request.send().await.map_err(transport_error)?;
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    let mut body = BytesMut::new();
    while let Some(chunk) = response.chunk().await.map_err(transport_error)? {
        if body.len() + chunk.len() > MAX_BODY_BYTES {
            return Err(PaymentError::Protocol(format!(
                "answer larger than {MAX_BODY_BYTES} bytes"
            )));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(RawResponse {
        status,
        content_type,
        body: body.freeze(),
    })
}

fn transport_error(error: reqwest::Error) -> PaymentError {
    if error.is_timeout() {
        PaymentError::Timeout
    } else if error.is_builder() || error.is_redirect() {
        // The error text may hold the URL but never credentials: those travel in headers.
        PaymentError::Protocol(format!("cannot send request: {}", error.without_url()))
    } else {
        // Refused, reset or dropped connections: the gateway is not there right now.
        PaymentError::Unavailable { status: 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_urls_lose_their_trailing_slash() {
        assert_eq!(
            normalise_base_url("OPN", "https://api.omise.co/")
                .ok()
                .as_deref(),
            Some("https://api.omise.co")
        );
        assert_eq!(
            normalise_base_url("OPN", "http://127.0.0.1:8080")
                .ok()
                .as_deref(),
            Some("http://127.0.0.1:8080")
        );
        assert!(normalise_base_url("OPN", "api.omise.co").is_err());
        assert!(normalise_base_url("OPN", "ftp://api.omise.co").is_err());
        assert!(normalise_base_url("OPN", "").is_err());
    }

    #[test]
    fn excerpts_are_cut_on_character_boundaries() {
        let long = "ก".repeat(MAX_ERROR_TEXT + 10);
        let cut = excerpt(&long);
        assert_eq!(cut.chars().count(), MAX_ERROR_TEXT + 1);
        assert_eq!(excerpt("  short  "), "short");
    }
}
