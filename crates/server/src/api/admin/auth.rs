//! Operator sign-in over HTTP: the attempt (checked, locked and audited by
//! `services::operators::sign_in`), a session cookie (HttpOnly, SameSite=Strict, Secure
//! under https) whose token only the browser holds (the store keeps its SHA-256), and the
//! `Session` extractor every console route starts from.

use axum::Json;

use axum::extract::{FromRequestParts, State};
use axum::http::header::SET_COOKIE;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use raceshot_store::operators::{Operator, Role};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::super::extract::ApiJson;
use crate::api::error::{ErrorAnswer, ErrorBody};
use crate::api::extract::{ClientIp, cookie, set_cookie};
use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError, ShopResult};
use crate::services::operators::{
    SignInContext, SignInRefused, SignedIn, actor_of, may_work_on, secret_hash as token_hash,
    sign_in,
};

pub const SESSION_COOKIE: &str = "raceshot_admin";

fn cookie_token(headers: &HeaderMap) -> Option<String> {
    cookie(headers, SESSION_COOKIE)
        .filter(|v| v.len() == 64 && v.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn session_cookie(state: &AppState, value: &str, max_age: i64) -> ShopResult<HeaderValue> {
    set_cookie(state, SESSION_COOKIE, value, "/", "Strict", max_age)
}

/// A signed-in operator, for every console route.
#[derive(Debug, Clone)]
pub struct Session {
    pub operator: Operator,
    token_hash: String,
}

impl Session {
    /// How the audit log names this operator: the account's id.
    pub fn actor(&self) -> String {
        actor_of(self.operator.id)
    }

    pub fn require_admin(&self) -> ShopResult<()> {
        if self.operator.role == Role::Admin {
            Ok(())
        } else {
            Err(forbidden())
        }
    }

    /// Admins may work on every event; photographers on the events assigned to them.
    /// `missing` for an admin; for a photographer the same 403 as for another's event,
    /// so that refusals do not tell which events and photos exist.
    pub fn or_forbidden(&self, missing: ShopError) -> ShopError {
        if self.operator.role == Role::Admin {
            missing
        } else {
            forbidden()
        }
    }

    pub async fn require_event(&self, state: &AppState, event_id: i64) -> ShopResult<()> {
        if may_work_on(&state.store, &self.operator, event_id).await? {
            Ok(())
        } else {
            Err(forbidden())
        }
    }
}

/// A signed-in admin: photographers are refused before the request's body is read.
#[derive(Debug, Clone)]
pub struct Admin(pub Session);

impl FromRequestParts<AppState> for Admin {
    type Rejection = ShopError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> ShopResult<Admin> {
        let session = Session::from_request_parts(parts, state).await?;
        session.require_admin()?;
        Ok(Admin(session))
    }
}

pub fn forbidden() -> ShopError {
    ShopError::new(ErrorCode::Forbidden, "this account may not do that")
}

impl FromRequestParts<AppState> for Session {
    type Rejection = ShopError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> ShopResult<Session> {
        Session::of(state, &parts.headers)
            .await?
            .ok_or_else(|| ShopError::new(ErrorCode::NotSignedIn, "sign in first"))
    }
}

impl Session {
    /// The operator's session a request carries, if any (for routes open to everyone
    /// that show operators more).
    pub async fn of(state: &AppState, headers: &HeaderMap) -> ShopResult<Option<Session>> {
        let Some(token) = cookie_token(headers) else {
            return Ok(None);
        };
        let hash = token_hash(&token);
        Ok(state
            .store
            .session_operator(&hash, state.now())
            .await?
            .map(|operator| Session {
                operator,
                token_hash: hash,
            }))
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LoginRequest {
    pub email: String,
    pub password: String,
}

/// Who is signed in.
#[derive(Debug, Serialize, ToSchema)]
pub struct Me {
    pub email: String,
    /// `admin` or `photographer`.
    pub role: String,
    /// Events a photographer may work on (admins: every event, listed empty).
    pub event_ids: Vec<i64>,
}

async fn me_of(state: &AppState, operator: &Operator) -> ShopResult<Me> {
    let event_ids = match operator.role {
        Role::Admin => Vec::new(),
        Role::Photographer => state.store.operator_event_ids(operator.id).await?,
    };
    Ok(Me {
        email: operator.email.clone(),
        role: operator.role.as_str().to_owned(),
        event_ids,
    })
}

/// The answer to a refused sign-in.
fn refusal(refused: SignInRefused, now: DateTime<Utc>) -> ShopError {
    match refused {
        SignInRefused::InvalidCredentials => {
            ShopError::new(ErrorCode::InvalidCredentials, refused.to_string())
        }
        SignInRefused::Locked { until } => {
            let wait = u64::try_from((until - now).num_seconds().max(1)).unwrap_or(1);
            ShopError::new(ErrorCode::AccountLocked, refused.to_string()).retry_after(wait)
        }
        SignInRefused::Hashing(e) => ShopError::internal(e),
        SignInRefused::Store(e) => e.into(),
    }
}

/// Signs an operator in and sets the session cookie.
#[utoipa::path(operation_id = "admin_login", post, path = "/api/admin/login", tag = "console", request_body = LoginRequest,
    responses((status = 200, body = Me), (status = 401, response = ErrorAnswer),
        (status = 429, description = "Locked after repeated failures, or too many attempts from one address", body = ErrorBody)))]
pub async fn login(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    ApiJson(req): ApiJson<LoginRequest>,
) -> ShopResult<Response> {
    // Guessing across many accounts from one place is slowed here; one account's own
    // lock (below) stops guessing it from many places.
    state.rate_limits.login.check(client)?;
    let cx = SignInContext {
        store: &state.store,
        cpu: &state.cpu,
        config: &state.config.admin,
        signing_key: &state.signing_key,
        now: state.now(),
    };
    let SignedIn {
        operator,
        token,
        ttl,
    } = sign_in(&cx, &req.email, req.password)
        .await
        .map_err(|refused| refusal(refused, cx.now))?;
    let cookie = session_cookie(&state, &token, ttl.num_seconds())?;
    Ok((
        [(SET_COOKIE, cookie)],
        Json(me_of(&state, &operator).await?),
    )
        .into_response())
}

/// Ends the session and clears the cookie.
#[utoipa::path(operation_id = "admin_logout", post, path = "/api/admin/logout", tag = "console",
    responses((status = 204, description = "Signed out"), (status = 401, response = ErrorAnswer)))]
pub async fn logout(State(state): State<AppState>, session: Session) -> ShopResult<Response> {
    state.store.delete_session(&session.token_hash).await?;
    let cookie = session_cookie(&state, "", 0)?;
    Ok((axum::http::StatusCode::NO_CONTENT, [(SET_COOKIE, cookie)]).into_response())
}

/// The signed-in operator.
#[utoipa::path(operation_id = "admin_me", get, path = "/api/admin/me", tag = "console",
    responses((status = 200, body = Me), (status = 401, response = ErrorAnswer)))]
pub async fn me(State(state): State<AppState>, session: Session) -> ShopResult<Json<Me>> {
    Ok(Json(me_of(&state, &session.operator).await?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::header::COOKIE;

    #[test]
    fn the_cookie_token_is_read_among_others() {
        let mut headers = HeaderMap::new();
        let token = "ab".repeat(32);
        headers.insert(
            COOKIE,
            HeaderValue::from_str(&format!("theme=dark; {SESSION_COOKIE}={token}; x=1"))
                .unwrap_or(HeaderValue::from_static("")),
        );
        assert_eq!(cookie_token(&headers), Some(token));
        headers.insert(COOKIE, HeaderValue::from_static("raceshot_admin=../../etc"));
        assert_eq!(cookie_token(&headers), None);
    }
}
