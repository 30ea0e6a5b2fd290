//! The shop's web app (`web/dist`, built by `make build`): its hashed assets, the files at
//! its root, and `index.html` for every other address outside the API, so that deep links
//! open the app (which shows its own 404). The page is given the client token and a content
//! policy that allows what the app loads and nothing else.

use std::path::Path;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use raceshot_payments::GatewayKind;
use raceshot_store::StorageSettings;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

use crate::error::{ApiError, ErrorCode};
use crate::state::AppState;

/// Where the built page expects the client token.
const TOKEN_PLACEHOLDER: &str = "__RACESHOT_CLIENT_TOKEN__";

/// Address prefixes that belong to the API: unknown ones there answer JSON, not the app.
const API_PREFIXES: &[&str] = &["/api/", "/v1/", "/v2/", "/v3/", "/media/", "/sandbox/"];

/// OPN's card form: its script, the frame it opens, and the vault it sends card data to.
const OPN_SCRIPT: &str = "https://cdn.omise.co";
const OPN_FRAMES: &str = "https://cdn.omise.co https://api.omise.co";
const OPN_CONNECT: &str = "https://vault.omise.co https://api.omise.co";

pub fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// The scheme, host and port of an absolute address, if it is one.
fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let host = rest
        .split(['/', '?', '#'])
        .next()
        .filter(|h| !h.is_empty())?;
    Some(format!("{scheme}://{host}"))
}

/// The page's content policy: its own origin, plus the media host and the upload host when
/// they are elsewhere, plus OPN's card form when OPN takes payments.
pub fn content_policy(state: &AppState) -> String {
    let own = origin_of(&state.public_url);
    let elsewhere = |url: Option<String>| url.filter(|o| Some(o) != own.as_ref());
    let media = elsewhere(origin_of(&state.media_url));
    let upload = match &state.config.storage.settings {
        StorageSettings::S3 { endpoint, .. } => elsewhere(endpoint.as_deref().and_then(origin_of)),
        StorageSettings::Local { .. } => None,
    };
    let opn = state.config.payments.gateway == GatewayKind::Opn;
    let join = |parts: &[Option<&str>]| {
        parts
            .iter()
            .flatten()
            .copied()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let script = join(&[Some("'self'"), opn.then_some(OPN_SCRIPT)]);
    let img = join(&[Some("'self' data: blob:"), media.as_deref()]);
    let connect = join(&[
        Some("'self'"),
        media.as_deref(),
        upload.as_deref(),
        opn.then_some(OPN_CONNECT),
    ]);
    let frame = join(&[Some("'self'"), opn.then_some(OPN_FRAMES)]);
    format!(
        "default-src 'self'; script-src {script}; style-src 'self' 'unsafe-inline'; \
         img-src {img}; font-src 'self'; connect-src {connect}; frame-src {frame}; \
         object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
    )
}

/// `index.html` with the client token in place, and its content policy.
struct IndexPage {
    html: String,
    csp: HeaderValue,
}

impl IndexPage {
    fn response(&self, method: &Method) -> Response {
        let body = if method == Method::HEAD {
            Body::empty()
        } else {
            Body::from(self.html.clone())
        };
        (
            [
                (
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("text/html; charset=utf-8"),
                ),
                // The page names the current assets: always ask whether it changed.
                (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
                (header::CONTENT_SECURITY_POLICY, self.csp.clone()),
            ],
            body,
        )
            .into_response()
    }
}

fn not_found() -> Response {
    ApiError::new(ErrorCode::NotFound, "no such route").into_response()
}

/// Adds the web app to `router`: assets, root files, and the page as the fallback. Without
/// a built app (`web/dist/index.html` missing) unknown addresses answer `not_found`.
pub fn mount<S: Clone + Send + Sync + 'static>(router: Router<S>, state: &AppState) -> Router<S> {
    let dir = &state.config.server.web_dir;
    let index = match std::fs::read_to_string(dir.join("index.html")) {
        Ok(html) => html,
        Err(e) => {
            tracing::warn!(dir = %dir.display(), error = %e, "web app not built: run `make build`");
            return router.fallback(|| async { not_found() });
        }
    };
    let token = html_escape(state.config.api.client_token.expose());
    let csp = HeaderValue::from_str(&content_policy(state))
        .unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'"));
    let page = Arc::new(IndexPage {
        html: index.replace(TOKEN_PLACEHOLDER, &token),
        csp,
    });

    // Asset names carry a content hash: cache them for good.
    let assets = Router::<()>::new()
        .fallback_service(ServeDir::new(dir.join("assets")))
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=31536000, immutable"),
        ));
    let mut router = router.nest_service("/assets", assets);
    for name in root_files(dir) {
        router = router.route_service(&format!("/{name}"), ServeFile::new(dir.join(&name)));
    }
    router.fallback(move |req: Request| {
        let page = page.clone();
        async move {
            let path = req.uri().path();
            if API_PREFIXES.iter().any(|p| path.starts_with(p)) {
                return not_found();
            }
            if req.method() != Method::GET && req.method() != Method::HEAD {
                return ApiError::new(
                    ErrorCode::MethodNotAllowed,
                    "method not allowed on this route",
                )
                .into_response();
            }
            let mut response = page.response(req.method());
            *response.status_mut() = StatusCode::OK;
            response
        }
    })
}

/// Plain files at the app's root (icons, robots.txt), never `index.html` itself.
fn root_files(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n != "index.html" && !n.starts_with('.'))
        .filter(|n| {
            n.chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_scheme_and_host() {
        assert_eq!(
            origin_of("https://cdn.shop.example/media/x").as_deref(),
            Some("https://cdn.shop.example")
        );
        assert_eq!(
            origin_of("http://127.0.0.1:9000").as_deref(),
            Some("http://127.0.0.1:9000")
        );
        assert_eq!(origin_of("/media"), None);
    }

    #[test]
    fn escaping_keeps_the_token_inside_its_attribute() {
        assert_eq!(html_escape("a\"><script>"), "a&quot;&gt;&lt;script&gt;");
    }
}
