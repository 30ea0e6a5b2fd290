//! The audit log in the console: every operator action, newest first. Admins only. The
//! log names accounts by id; each entry carries the account's e-mail, looked up now.

use axum::Json;
use axum::extract::State;
use raceshot_domain::time::format_bangkok;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::auth::Admin;
use crate::api::error::ErrorAnswer;
use crate::api::extract::ApiQuery;
use crate::app::state::AppState;
use crate::error::ShopResult;

const PAGE: i64 = 50;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AuditQuery {
    /// Entries older than this entry id (the previous page's last `id`).
    pub before: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AuditEntryBody {
    pub id: i64,
    /// RFC 3339, Bangkok time.
    pub at: String,
    /// Who acted, as the log stores it: `operator:{account id}`, `unknown:{hash}` (a sign-in
    /// on an address without an account; the same address, the same hash; `unknown` alone
    /// for such entries written before), `cli:{user}` or `visitor`.
    #[schema(example = "operator:17")]
    pub actor: String,
    /// The operator account's e-mail when `actor` names an account.
    pub actor_email: Option<String>,
    pub action: String,
    pub target: String,
    #[schema(value_type = Object)]
    pub detail: serde_json::Value,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AuditPage {
    pub entries: Vec<AuditEntryBody>,
}

/// Who did what, and when: 50 entries per page.
#[utoipa::path(operation_id = "admin_audit_list", get, path = "/api/admin/audit", tag = "console", params(AuditQuery),
    responses((status = 200, body = AuditPage), (status = 401, response = ErrorAnswer), (status = 403, response = ErrorAnswer)))]
pub async fn list(
    State(state): State<AppState>,
    _admin: Admin,
    ApiQuery(query): ApiQuery<AuditQuery>,
) -> ShopResult<Json<AuditPage>> {
    let entries = state
        .store
        .audit_entries(query.before, PAGE)
        .await?
        .into_iter()
        .map(|e| AuditEntryBody {
            id: e.id,
            at: format_bangkok(e.at),
            actor: e.actor,
            actor_email: e.actor_email,
            action: e.action,
            target: e.target,
            detail: e.detail,
        })
        .collect();
    Ok(Json(AuditPage { entries }))
}
