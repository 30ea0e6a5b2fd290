//! Upload tokens in the console (`services::uploads`): a photographer lists, makes and
//! revokes their own; an admin everyone's, and makes them for any account by its e-mail.
//! A new token's secret is in the answer that makes it, and never again.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use raceshot_domain::time::format_bangkok;
use raceshot_store::operators::Role;
use raceshot_store::upload_tokens::UploadToken;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::auth::{Session, forbidden};
use crate::api::error::ErrorAnswer;
use crate::api::extract::{ApiJson, ApiPath};
use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError, ShopResult};
use crate::services::operators::normalise_email;
use crate::services::uploads::{self, UploadTokenError};

impl From<UploadTokenError> for ShopError {
    fn from(e: UploadTokenError) -> Self {
        let message = e.to_string();
        match e {
            UploadTokenError::BadLabel => ShopError::field("label", message),
            UploadTokenError::NotFound => ShopError::new(ErrorCode::NotFound, message),
            UploadTokenError::Store(e) => ShopError::internal(e),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct UploadTokenBody {
    pub id: i64,
    pub account_email: String,
    pub label: String,
    /// The secret's last characters, to tell tokens apart.
    pub hint: String,
    /// RFC 3339, Bangkok time.
    pub created_at: String,
    /// Its last use, to the minute; `null` if never used.
    pub last_used_at: Option<String>,
    /// When it was revoked; `null` while it is live.
    pub revoked_at: Option<String>,
}

impl From<UploadToken> for UploadTokenBody {
    fn from(t: UploadToken) -> Self {
        UploadTokenBody {
            id: t.id,
            account_email: t.operator_email,
            label: t.label,
            hint: t.hint,
            created_at: format_bangkok(t.created_at),
            last_used_at: t.last_used_at.map(format_bangkok),
            revoked_at: t.revoked_at.map(format_bangkok),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct UploadTokenList {
    pub tokens: Vec<UploadTokenBody>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct NewUploadTokenRequest {
    /// What the token is for (a camera, a laptop): 1 to 60 characters.
    pub label: String,
    /// The account to make it for, by e-mail (admins only); the caller's own when absent.
    pub account_email: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NewUploadTokenResponse {
    /// The token itself: shown this once, never stored or shown again.
    pub secret: String,
    pub token: UploadTokenBody,
}

/// The upload tokens the caller may see, newest first, revoked ones included.
#[utoipa::path(operation_id = "admin_upload_tokens_list", get, path = "/api/admin/upload-tokens", tag = "console",
    responses((status = 200, body = UploadTokenList), (status = 401, response = ErrorAnswer)))]
pub async fn list(
    State(state): State<AppState>,
    session: Session,
) -> ShopResult<Json<UploadTokenList>> {
    let tokens = state
        .store
        .upload_tokens(uploads::scope_of(&session.operator))
        .await?;
    Ok(Json(UploadTokenList {
        tokens: tokens.into_iter().map(UploadTokenBody::from).collect(),
    }))
}

/// Makes an upload token; its secret is in this answer only.
#[utoipa::path(operation_id = "admin_upload_tokens_create", post, path = "/api/admin/upload-tokens", tag = "console",
    request_body = NewUploadTokenRequest,
    responses((status = 201, body = NewUploadTokenResponse), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer),
        (status = 422, response = ErrorAnswer)))]
pub async fn create(
    State(state): State<AppState>,
    session: Session,
    ApiJson(req): ApiJson<NewUploadTokenRequest>,
) -> ShopResult<(StatusCode, Json<NewUploadTokenResponse>)> {
    let account = match req.account_email.as_deref().map(normalise_email) {
        Some(email) if email != session.operator.email => {
            if session.operator.role != Role::Admin {
                return Err(forbidden());
            }
            state
                .store
                .operator_by_email(&email)
                .await?
                .filter(|o| !o.disabled)
                .ok_or_else(|| ShopError::new(ErrorCode::NotFound, "no such account"))?
                .id
        }
        _ => session.operator.id,
    };
    let issued = uploads::issue(
        &state.store,
        account,
        &req.label,
        &session.actor(),
        state.now(),
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(NewUploadTokenResponse {
            secret: issued.secret,
            token: issued.token.into(),
        }),
    ))
}

/// Revokes an upload token: it signs in nobody from now on.
#[utoipa::path(operation_id = "admin_upload_tokens_revoke", delete, path = "/api/admin/upload-tokens/{id}", tag = "console",
    params(("id" = i64, Path)),
    responses((status = 204, description = "Revoked"), (status = 401, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer)))]
pub async fn revoke(
    State(state): State<AppState>,
    session: Session,
    ApiPath(id): ApiPath<i64>,
) -> ShopResult<StatusCode> {
    let scope = uploads::scope_of(&session.operator);
    uploads::revoke(&state.store, id, scope, &session.actor(), state.now()).await?;
    Ok(StatusCode::NO_CONTENT)
}
