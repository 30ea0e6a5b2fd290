//! The shop's web app (`web/dist`, built by `make build`): its hashed assets, the files at
//! its root, and `index.html` for every other address outside the API, so that deep links
//! open the app (which shows its own 404). The page is given the client token, the base
//! address of pictures (`storage.public_url`, a CDN), the catalogue answers its first page
//! asks for (so a phone on a slow network paints without another round trip), and a
//! content policy that allows what the app loads and nothing else. Assets are served from
//! the brotli or gzip copies the build makes.

use std::path::Path;
use std::sync::Arc;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use raceshot_domain::{PageRequest, SaleStatus};
use raceshot_payments::GatewayKind;
use raceshot_store::StorageSettings;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

use super::catalogue;
use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError};

/// Where the built page expects the client token.
const TOKEN_PLACEHOLDER: &str = "__RACESHOT_CLIENT_TOKEN__";
/// Where the built page expects the base address of previews and thumbnails.
const MEDIA_PLACEHOLDER: &str = "__RACESHOT_MEDIA_BASE__";
/// Where the built page expects the answers its first page asks for.
const PRELOAD_PLACEHOLDER: &str = "__RACESHOT_PRELOAD__";
/// The home page's first page of events (the web app's `HOME_PAGE_SIZE`).
const HOME_PAGE_SIZE: u32 = 18;

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
    /// The page, with `preload` (a JSON object) as its embedded data.
    fn response(&self, method: &Method, preload: &str) -> Response {
        let body = if method == Method::HEAD {
            Body::empty()
        } else {
            Body::from(self.html.replace(PRELOAD_PLACEHOLDER, preload))
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

/// The answers the page at `path` asks for first, so that it paints without a round trip:
/// the home page's catalogue, or the event an address names. `{}` when there are none.
async fn preload(state: &AppState, path: &str) -> String {
    let now = state.now();
    let media_url = state.media_url.as_str();
    let Ok(snapshot) = state.catalogue.snapshot().await else {
        return "{}".to_owned();
    };
    let mut parts: Vec<(&str, Bytes)> = Vec::new();
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    match segments.as_slice() {
        [""] => {
            let first = PageRequest::new(Some(1), Some(HOME_PAGE_SIZE));
            let answers = (
                catalogue::banners_answer(&snapshot, now),
                catalogue::soon_answer(&snapshot, media_url, now),
                first
                    .map_err(|e| ShopError::internal(anyhow::anyhow!(e)))
                    .and_then(|page| catalogue::pagination_answer(&snapshot, page, media_url, now)),
                catalogue::count_answer(&snapshot, SaleStatus::OnSale, now),
            );
            if let (Ok(banners), Ok(soon), Ok(events), Ok(count)) = answers {
                parts = vec![
                    ("banners", banners),
                    ("soon", soon),
                    ("events", events),
                    ("count", count),
                ];
            }
        }
        [key] | [key, "wholesale" | "manual"] => {
            let answer = raceshot_domain::EventKey::parse(key)
                .ok()
                .and_then(|key| catalogue::event_answer(&snapshot, &key, media_url, now).ok());
            if let Some(event) = answer {
                parts.push(("event", event));
            }
        }
        _ => {}
    }
    let mut out = String::from("{");
    for (i, (name, answer)) in parts.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format!("\"{name}\":"));
        out.push_str(&String::from_utf8_lossy(answer));
    }
    out.push('}');
    // Inside <script>, only `<` could end the element early; in JSON it only appears in
    // strings, where \u003c reads the same.
    out.replace('<', "\\u003c")
}

fn not_found() -> Response {
    ShopError::new(ErrorCode::NotFound, "no such route").into_response()
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
        html: index
            .replace(TOKEN_PLACEHOLDER, &token)
            .replace(MEDIA_PLACEHOLDER, &html_escape(&state.media_url)),
        csp,
    });

    // Asset names carry a content hash: cache them for good. The build writes brotli and
    // gzip copies beside each file; the browser gets the smallest it accepts.
    let assets = Router::<()>::new()
        .fallback_service(
            ServeDir::new(dir.join("assets"))
                .precompressed_br()
                .precompressed_gzip(),
        )
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=31536000, immutable"),
        ));
    let mut router = router.nest_service("/assets", assets);
    for name in root_files(dir) {
        // Not hashed: kept a day, then asked again.
        let file = Router::<()>::new()
            .fallback_service(
                ServeFile::new(dir.join(&name))
                    .precompressed_br()
                    .precompressed_gzip(),
            )
            .layer(SetResponseHeaderLayer::overriding(
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=86400"),
            ));
        router = router.route_service(&format!("/{name}"), file);
    }
    let state = state.clone();
    router.fallback(move |req: Request| {
        let page = page.clone();
        let state = state.clone();
        async move {
            let path = req.uri().path();
            if API_PREFIXES.iter().any(|p| path.starts_with(p)) {
                return not_found();
            }
            if req.method() != Method::GET && req.method() != Method::HEAD {
                return ShopError::new(
                    ErrorCode::MethodNotAllowed,
                    "method not allowed on this route",
                )
                .into_response();
            }
            let data = preload(&state, path).await;
            let mut response = page.response(req.method(), &data);
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
        // Compressed copies are served in place of their file, never at their own name.
        .filter(|n| !n.ends_with(".br") && !n.ends_with(".gz"))
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
