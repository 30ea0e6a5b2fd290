//! Logging: human-readable text or one JSON object per line, filtered by `log.filter`.

use tracing_subscriber::EnvFilter;

use crate::config::{LogConfig, LogFormat};

/// Installs the process-wide subscriber; `RUST_LOG` overrides the configured filter.
pub fn init(config: &LogConfig) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(&config.filter));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = match config.format {
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .try_init(),
        LogFormat::Text => builder.try_init(),
    };
}

/// How logs name an order: a short hash of its uuid. The uuid opens the order's photos
/// (docs/shop-contract.md, Visitors and roles), so it never goes into a log line.
pub fn order_tag(uuid: impl std::fmt::Display) -> String {
    use sha2::{Digest, Sha256};
    let uuid = uuid.to_string();
    format!("o-{}", &hex::encode(Sha256::digest(uuid.as_bytes()))[..12])
}

/// What stands in logs for a secret path segment.
pub const REDACTED: &str = "[redacted]";

/// Addresses whose segments after the prefix (other than an order's uuid, tagged anyway)
/// are secrets: GB Prime Pay's callback address carries the order's callback token, which
/// is all that lets a callback set a status check going.
const SECRET_TAILS: &[&str] = &["/api/payments/gbp/"];

/// A request's path as logs show it: without its query string (download signatures),
/// with every uuid (an order's key) replaced by its [`order_tag`], and with the secret
/// segments of [`SECRET_TAILS`] addresses (callback tokens) replaced by [`REDACTED`].
pub fn loggable_path(uri: &axum::http::Uri) -> String {
    let path = uri.path();
    // Routes are matched as written, but a log is read by people: any spelling of the
    // prefix is treated as the callback's.
    let secret_from = SECRET_TAILS.iter().find_map(|prefix| {
        let head = path.get(..prefix.len())?;
        head.eq_ignore_ascii_case(prefix)
            .then(|| prefix.split('/').count() - 1)
    });
    path.split('/')
        .enumerate()
        .map(|(i, segment)| {
            let is_uuid = segment.len() == 36 && uuid::Uuid::parse_str(segment).is_ok();
            if is_uuid {
                order_tag(segment)
            } else if secret_from.is_some_and(|from| i >= from) && !segment.is_empty() {
                REDACTED.to_owned()
            } else {
                segment.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logged_paths_carry_no_order_key_nor_signature() {
        let uuid = "5f0c1a2e-8d4b-4c1e-9a6f-0123456789ab";
        let uri: axum::http::Uri =
            format!("/api/orders/{uuid}/photos/7/original?expires=1&sig=abc")
                .parse()
                .unwrap_or_default();
        let logged = loggable_path(&uri);
        assert_eq!(
            logged,
            format!("/api/orders/{}/photos/7/original", order_tag(uuid))
        );
        assert!(!logged.contains(uuid) && !logged.contains("sig"));
        assert_eq!(order_tag(uuid).len(), 14);
        assert_eq!(
            loggable_path(&"/v1/events/demo".parse().unwrap_or_default()),
            "/v1/events/demo"
        );
    }

    #[test]
    fn logged_gbp_callback_paths_carry_no_token() {
        let uuid = "5f0c1a2e-8d4b-4c1e-9a6f-0123456789ab";
        let token = "9c1e5b0f3a7d4e2c8b6a0f1e2d3c4b5a9c1e5b0f3a7d4e2c8b6a0f1e2d3c4b5a";
        for path in [
            format!("/api/payments/gbp/{uuid}/{token}"),
            format!("/api/payments/gbp/{uuid}/{token}/"),
            format!("/API/Payments/GBP/{uuid}/{token}"),
            format!("/api/payments/gbp/{token}"),
            format!("/api/payments/gbp/{uuid}/{token}/{token}?x={token}"),
        ] {
            let uri: axum::http::Uri = path.parse().unwrap_or_default();
            let logged = loggable_path(&uri);
            assert!(!logged.contains(token), "{logged}");
            assert!(!logged.contains(uuid), "{logged}");
        }
        let uri: axum::http::Uri = format!("/api/payments/gbp/{uuid}/{token}")
            .parse()
            .unwrap_or_default();
        assert_eq!(
            loggable_path(&uri),
            format!("/api/payments/gbp/{}/{REDACTED}", order_tag(uuid))
        );
        // Other addresses keep their segments: they hold no secrets.
        assert_eq!(
            loggable_path(&"/api/payments/opn/webhook".parse().unwrap_or_default()),
            "/api/payments/opn/webhook"
        );
    }
}
