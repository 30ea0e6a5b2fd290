//! Operator sign-in: argon2id passwords, a session cookie (HttpOnly, SameSite=Strict,
//! Secure under https) whose token only the browser holds (the store keeps its SHA-256),
//! a lock that grows with repeated failures, and the `Session` extractor every console
//! route starts from.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use axum::Json;
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts, State};
use axum::http::header::{COOKIE, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Duration, Utc};
use raceshot_store::operators::{Operator, Role};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use super::super::extract::ApiJson;
use crate::error::{ApiError, ApiResult, ErrorBody, ErrorCode};
use crate::rate_limit::client_address;
use crate::state::AppState;

pub const SESSION_COOKIE: &str = "raceshot_admin";
/// Locks never last longer than this, however many failures came before.
const MAX_LOCK: Duration = Duration::hours(1);

/// An argon2id PHC string of `password` (the crate's default, OWASP-recommended cost).
pub fn hash_password(password: &str) -> anyhow::Result<String> {
    let salt = SaltString::encode_b64(&rand::random::<[u8; 16]>())
        .map_err(|e| anyhow::anyhow!("salt: {e}"))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| anyhow::anyhow!("hashing: {e}"))
}

fn password_matches(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

/// Checks off the async runtime: argon2 takes tens of milliseconds on purpose.
async fn verify(password: String, hash: String) -> ApiResult<bool> {
    tokio::task::spawn_blocking(move || password_matches(&password, &hash))
        .await
        .map_err(ApiError::internal)
}

/// E-mail addresses are compared as typed, without case or surrounding spaces.
pub fn normalise_email(email: &str) -> String {
    email.trim().to_lowercase()
}

/// When a failed sign-in locks the account: from the `max`-th failure on, for `base`
/// doubled per further failure, at most an hour.
pub fn lock_after(
    failures: i64,
    max: u32,
    base: std::time::Duration,
    now: DateTime<Utc>,
) -> Option<DateTime<Utc>> {
    let over = failures - i64::from(max);
    if over < 0 {
        return None;
    }
    let base = Duration::from_std(base).unwrap_or(Duration::minutes(1));
    let factor = 1i32 << over.min(16);
    let length = base.checked_mul(factor).unwrap_or(MAX_LOCK).min(MAX_LOCK);
    Some(now + length)
}

fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

fn cookie_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == SESSION_COOKIE)
        .map(|(_, value)| value.to_owned())
        .filter(|v| v.len() == 64 && v.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn session_cookie(state: &AppState, value: &str, max_age: i64) -> ApiResult<HeaderValue> {
    let secure = if state.public_url.starts_with("https://") {
        "; Secure"
    } else {
        ""
    };
    HeaderValue::from_str(&format!(
        "{SESSION_COOKIE}={value}; Path=/; HttpOnly; SameSite=Strict; Max-Age={max_age}{secure}"
    ))
    .map_err(ApiError::internal)
}

/// A signed-in operator, for every console route.
#[derive(Debug, Clone)]
pub struct Session {
    pub operator: Operator,
    token_hash: String,
}

impl Session {
    /// How the audit log names this operator.
    pub fn actor(&self) -> String {
        format!("operator:{}", self.operator.email)
    }

    pub fn require_admin(&self) -> ApiResult<()> {
        if self.operator.role == Role::Admin {
            Ok(())
        } else {
            Err(forbidden())
        }
    }

    /// Admins may work on every event; photographers on the events assigned to them.
    pub async fn require_event(&self, state: &AppState, event_id: i64) -> ApiResult<()> {
        if self.operator.role == Role::Admin
            || state
                .store
                .operator_event_ids(self.operator.id)
                .await?
                .contains(&event_id)
        {
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
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> ApiResult<Admin> {
        let session = Session::from_request_parts(parts, state).await?;
        session.require_admin()?;
        Ok(Admin(session))
    }
}

pub fn forbidden() -> ApiError {
    ApiError::new(ErrorCode::Forbidden, "this account may not do that")
}

impl FromRequestParts<AppState> for Session {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> ApiResult<Session> {
        let not_signed_in = || ApiError::new(ErrorCode::NotSignedIn, "sign in first");
        let token = cookie_token(&parts.headers).ok_or_else(not_signed_in)?;
        let hash = token_hash(&token);
        let operator = state
            .store
            .session_operator(&hash, state.now())
            .await?
            .ok_or_else(not_signed_in)?;
        Ok(Session {
            operator,
            token_hash: hash,
        })
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

async fn me_of(state: &AppState, operator: &Operator) -> ApiResult<Me> {
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

/// Signs an operator in and sets the session cookie.
#[utoipa::path(operation_id = "admin_login", post, path = "/api/admin/login", tag = "console", request_body = LoginRequest,
    responses((status = 200, body = Me), (status = 401, body = ErrorBody),
        (status = 429, description = "Locked after repeated failures, or too many attempts from one address", body = ErrorBody)))]
pub async fn login(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<LoginRequest>,
) -> ApiResult<Response> {
    // Guessing across many accounts from one place is slowed here; one account's own
    // lock (below) stops guessing it from many places.
    state.login_limiter.check(client_address(
        peer,
        &headers,
        &state.config.server.trusted_proxies,
    ))?;
    let now = state.now();
    let invalid = || ApiError::new(ErrorCode::InvalidCredentials, "wrong e-mail or password");
    let email = normalise_email(&req.email);
    let Some(operator) = state.store.operator_by_email(&email).await? else {
        // The same work as for a real account, so timing does not tell which exist.
        let _ = verify(req.password, dummy_hash().to_owned()).await;
        return Err(invalid());
    };
    let locked = |until: DateTime<Utc>| {
        ApiError::new(
            ErrorCode::AccountLocked,
            "too many failed sign-ins; try again later",
        )
        .retry_after(u64::try_from((until - now).num_seconds().max(1)).unwrap_or(1))
    };
    if let Some(until) = operator.locked_until.filter(|u| *u > now) {
        return Err(locked(until));
    }
    if operator.disabled || !verify(req.password, operator.password_hash.clone()).await? {
        let failures = operator.failed_logins + 1;
        let cfg = &state.config.admin;
        let until = lock_after(failures, cfg.max_failed_logins, cfg.lockout, now);
        state
            .store
            .record_login_failure(operator.id, failures, until, now)
            .await?;
        let detail = serde_json::json!({ "failures": failures, "locked": until.is_some() });
        state
            .store
            .audit(
                &format!("operator:{email}"),
                "operator.login_failed",
                "",
                &detail,
                now,
            )
            .await?;
        return Err(until.map_or_else(invalid, locked));
    }
    state.store.record_login(operator.id, now).await?;
    let token = hex::encode(rand::random::<[u8; 32]>());
    let ttl = Duration::from_std(state.config.admin.session_ttl).unwrap_or(Duration::hours(12));
    state
        .store
        .create_session(&token_hash(&token), operator.id, now + ttl, now)
        .await?;
    state
        .store
        .audit(
            &format!("operator:{email}"),
            "operator.login",
            "",
            &serde_json::json!({}),
            now,
        )
        .await?;
    let cookie = session_cookie(&state, &token, ttl.num_seconds())?;
    Ok((
        [(SET_COOKIE, cookie)],
        Json(me_of(&state, &operator).await?),
    )
        .into_response())
}

/// Ends the session and clears the cookie.
#[utoipa::path(operation_id = "admin_logout", post, path = "/api/admin/logout", tag = "console",
    responses((status = 204, description = "Signed out"), (status = 401, body = ErrorBody)))]
pub async fn logout(State(state): State<AppState>, session: Session) -> ApiResult<Response> {
    state.store.delete_session(&session.token_hash).await?;
    let cookie = session_cookie(&state, "", 0)?;
    Ok((axum::http::StatusCode::NO_CONTENT, [(SET_COOKIE, cookie)]).into_response())
}

/// The signed-in operator.
#[utoipa::path(operation_id = "admin_me", get, path = "/api/admin/me", tag = "console",
    responses((status = 200, body = Me), (status = 401, body = ErrorBody)))]
pub async fn me(State(state): State<AppState>, session: Session) -> ApiResult<Json<Me>> {
    Ok(Json(me_of(&state, &session.operator).await?))
}

/// A hash of a random password nobody knows: what an unknown e-mail is checked against.
fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY
        .get_or_init(|| hash_password(&hex::encode(rand::random::<[u8; 16]>())).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_verify_only_themselves() {
        let hash = hash_password("correct horse battery staple").unwrap_or_default();
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(password_matches("correct horse battery staple", &hash));
        assert!(!password_matches("correct horse battery stapler", &hash));
        assert!(!password_matches("anything", "not a hash"));
    }

    #[test]
    fn locks_grow_from_the_allowance_on_and_stop_at_an_hour() {
        let now = Utc::now();
        let base = std::time::Duration::from_secs(60);
        assert_eq!(lock_after(4, 5, base, now), None);
        assert_eq!(
            lock_after(5, 5, base, now),
            Some(now + Duration::minutes(1))
        );
        assert_eq!(
            lock_after(6, 5, base, now),
            Some(now + Duration::minutes(2))
        );
        assert_eq!(
            lock_after(8, 5, base, now),
            Some(now + Duration::minutes(8))
        );
        assert_eq!(lock_after(60, 5, base, now), Some(now + Duration::hours(1)));
    }

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
