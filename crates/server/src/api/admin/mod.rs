//! The operator console's API under `/api/admin/`: every route but sign-in needs a
//! session, and says itself which role (or which assigned event) it needs. Every call that
//! changes something must come from the console's own pages: the session cookie is
//! `SameSite=Strict`, and a browser's `Sec-Fetch-Site` and `Origin` must name this site.

pub mod audit;
pub mod auth;
pub mod certificates;
pub mod events;
pub mod frames;
pub mod messages;
pub mod orders;
pub mod passes;
pub mod photos;
pub mod privacy;
pub mod raceday;
pub mod results;
pub mod settings;
pub mod upload_tokens;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(auth::login))
        .routes(routes!(auth::logout))
        .routes(routes!(auth::me))
        .routes(routes!(events::list))
        .routes(routes!(raceday::race_day))
        .routes(routes!(messages::list))
        .routes(routes!(messages::trial))
        .routes(routes!(events::get, events::put))
        .routes(routes!(events::close))
        .routes(routes!(orders::list))
        .routes(routes!(orders::detail))
        .routes(routes!(orders::resend_email))
        .routes(routes!(photos::upload, photos::list))
        .routes(routes!(photos::moderate, photos::delete))
        .routes(routes!(photos::correct_bib))
        .routes(routes!(privacy::list))
        .routes(routes!(privacy::approve))
        .routes(routes!(privacy::reject))
        .routes(routes!(privacy::face))
        .routes(routes!(orders::approve))
        .routes(routes!(orders::confirm))
        .routes(routes!(audit::list))
        .routes(routes!(settings::get, settings::put))
        .routes(routes!(settings::get_logo, settings::put_logo))
        .routes(routes!(upload_tokens::list, upload_tokens::create))
        .routes(routes!(upload_tokens::revoke))
        .routes(routes!(results::import, results::get))
        .routes(routes!(results::delete))
        .routes(routes!(certificates::get, certificates::put))
        .routes(routes!(
            certificates::put_template,
            certificates::delete_template
        ))
        .routes(routes!(certificates::sample))
        .routes(routes!(passes::create, passes::list))
        .routes(routes!(frames::get, frames::put, frames::delete))
        .routes(routes!(frames::settings))
}

/// Refuses a state-changing console call that a browser says comes from another site (or
/// a sibling site, which `SameSite` cookies do not keep out). Clients that are not
/// browsers send neither header and are judged by their session alone.
pub async fn same_origin_writes(
    State(state): State<AppState>,
    req: Request,
    next: Next,
) -> Response {
    let safe = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if !safe && !from_this_site(req.headers(), &state.public_url) {
        return ShopError::new(
            ErrorCode::Forbidden,
            "console changes must come from the console's own pages",
        )
        .into_response();
    }
    next.run(req).await
}

/// Whether a browser's headers say the call comes from this site's own pages: the
/// address it went to (`Host`), or the shop's public address when a proxy in front
/// rewrites `Host`.
fn from_this_site(headers: &HeaderMap, public_url: &str) -> bool {
    let text = |name| headers.get(name).and_then(|v| v.to_str().ok());
    if let Some(site) = text("sec-fetch-site")
        && !matches!(site, "same-origin" | "none")
    {
        return false;
    }
    match text(header::ORIGIN.as_str()) {
        None => true,
        Some(origin) => {
            let authority = origin
                .strip_prefix("https://")
                .or_else(|| origin.strip_prefix("http://"));
            let public = public_url.trim_end_matches('/');
            origin == public || (authority.is_some() && authority == text(header::HOST.as_str()))
        }
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn only_this_sites_pages_may_change_things() {
        let from_this_site = |h: &HeaderMap| from_this_site(h, "https://shop.example");
        let host = ("host", "shop.example:8080");
        assert!(from_this_site(&headers(&[host])), "not a browser");
        assert!(from_this_site(&headers(&[
            host,
            ("sec-fetch-site", "same-origin")
        ])));
        assert!(from_this_site(&headers(&[
            host,
            ("origin", "https://shop.example:8080")
        ])));
        assert!(!from_this_site(&headers(&[
            host,
            ("sec-fetch-site", "same-site")
        ])));
        assert!(!from_this_site(&headers(&[
            host,
            ("sec-fetch-site", "cross-site")
        ])));
        assert!(!from_this_site(&headers(&[
            host,
            ("origin", "https://evil.example")
        ])));
        assert!(!from_this_site(&headers(&[
            host,
            ("origin", "https://sub.shop.example:8080")
        ])));
        assert!(!from_this_site(&headers(&[host, ("origin", "null")])));
        assert!(!from_this_site(&headers(&[(
            "origin",
            "https://shop.example:8080"
        )])));
    }
}
