//! LINE Login, as browser navigations, not JSON calls (no client token; LINE's own in-app
//! browser follows them as any other). `GET /api/line/link/order/{uuid}` ("Send to my
//! LINE") and `GET /api/line/link/alert/{alert_id}` (a LINE alert of new photos) redirect
//! to LINE Login and keep the login's `state` in a cookie for this path;
//! `GET /api/line/callback` is where LINE returns, and redirects to the order's page with
//! `?line=linked`, or `declined`, `failed`, `expired` for the page to explain (an alert's:
//! the event's page with `?alert=`). All are rate-limited per client address
//! (`line.per_client_per_minute`).

use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, LOCATION, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::api::extract::{ApiPath, ApiQuery, ClientIp, cookie, set_cookie};
use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError, ShopResult};
use crate::services::commerce::{find_order, parse_order_uuid};
use crate::services::messages::line_link::{self, Back, Callback, LOGIN_TTL, LinkError};

/// The cookie that holds a LINE login's `state` between the two navigations.
const STATE_COOKIE: &str = "raceshot_line";
/// Only these paths ever see it.
const COOKIE_PATH: &str = "/api/line";

fn state_cookie(state: &AppState, value: &str, max_age: u64) -> ShopResult<HeaderValue> {
    // Lax: LINE's redirect back is a top-level navigation from another site.
    let max_age = i64::try_from(max_age).unwrap_or(0);
    set_cookie(state, STATE_COOKIE, value, COOKIE_PATH, "Lax", max_age)
}

fn kept_state(headers: &HeaderMap) -> Option<String> {
    cookie(headers, STATE_COOKIE)
}

fn redirect(to: &str, cookie: Option<HeaderValue>) -> ShopResult<Response> {
    let mut resp = StatusCode::SEE_OTHER.into_response();
    let headers = resp.headers_mut();
    headers.insert(
        LOCATION,
        HeaderValue::from_str(to).map_err(ShopError::internal)?,
    );
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Some(cookie) = cookie {
        headers.insert(SET_COOKIE, cookie);
    }
    Ok(resp)
}

/// Sends the browser to LINE Login to link the order to the runner's LINE account.
pub async fn link_order(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    ApiPath(order_uuid): ApiPath<String>,
) -> ShopResult<Response> {
    state.rate_limits.line.check(client)?;
    let order = find_order(&state.store, parse_order_uuid(&order_uuid)?).await?;
    let started = line_link::start(&state.alerting(), &order)
        .await
        .map_err(link_error)?;
    let cookie = state_cookie(&state, &started.state, LOGIN_TTL.as_secs())?;
    redirect(&started.authorize_url, Some(cookie))
}

/// Sends the browser to LINE Login to confirm a LINE alert of new photos it just asked for.
pub async fn link_alert(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    ApiPath(public_id): ApiPath<String>,
) -> ShopResult<Response> {
    state.rate_limits.line.check(client)?;
    let alert = state
        .store
        .alert(public_id.trim(), state.now())
        .await?
        .ok_or_else(|| ShopError::new(ErrorCode::AlertNotFound, "no such alert"))?;
    let started = line_link::start_alert(&state.alerting(), &alert)
        .await
        .map_err(link_error)?;
    let cookie = state_cookie(&state, &started.state, LOGIN_TTL.as_secs())?;
    redirect(&started.authorize_url, Some(cookie))
}

#[derive(Debug, Deserialize)]
pub struct CallbackQuery {
    #[serde(default)]
    state: String,
    code: Option<String>,
    error: Option<String>,
}

/// Where LINE Login returns: links the order and goes back to its page.
pub async fn callback(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    headers: HeaderMap,
    ApiQuery(query): ApiQuery<CallbackQuery>,
) -> ShopResult<Response> {
    state.rate_limits.line.check(client)?;
    let kept = kept_state(&headers);
    let done = line_link::finish(
        &state.alerting(),
        &Callback {
            state: &query.state,
            code: query.code.as_deref(),
            error: query.error.as_deref(),
            cookie: kept.as_deref(),
        },
    )
    .await;
    let clear = state_cookie(&state, "", 0)?;
    let page = |back: Back, outcome: &str| match back {
        Back::Order(uuid) => format!("{}?line={outcome}", state.links.order_page_url(&uuid)),
        Back::Alert(key) => format!("{}/{key}?alert={outcome}", state.public_url),
    };
    let to = match done {
        Ok(back) => page(back, "linked"),
        Err(LinkError::Declined(back)) => page(back, "declined"),
        Err(LinkError::UnknownLogin) => format!("{}/?line=expired", state.public_url),
        Err(LinkError::OtherBrowser(back)) => {
            tracing::warn!("a LINE login came back without its cookie");
            page(back, "failed")
        }
        Err(LinkError::Refused(back, e)) => {
            tracing::warn!(error = %format!("{e:#}"), "LINE login refused");
            page(back, "failed")
        }
        Err(e @ (LinkError::Unavailable | LinkError::Store(_))) => return Err(link_error(e)),
    };
    redirect(&to, Some(clear))
}

fn link_error(e: LinkError) -> ShopError {
    match e {
        LinkError::Unavailable => ShopError::new(ErrorCode::LineUnavailable, "LINE is not set up"),
        LinkError::Store(e) => e.into(),
        LinkError::UnknownLogin => {
            ShopError::new(ErrorCode::AlertNotFound, "no alert waits for LINE")
        }
        other => ShopError::internal(other),
    }
}
