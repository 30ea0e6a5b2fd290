//! The audit log: who did what to what, and when. Rows are only ever added.

use chrono::{DateTime, Utc};

use crate::macros::on_pool;
use crate::{Result, Store, from_millis, millis};

#[derive(Debug, Clone, PartialEq)]
pub struct AuditEntry {
    pub id: i64,
    pub at: DateTime<Utc>,
    pub actor: String,
    pub action: String,
    pub target: String,
    pub detail: serde_json::Value,
}

#[derive(sqlx::FromRow)]
struct AuditRow {
    id: i64,
    at: i64,
    actor: String,
    action: String,
    target: String,
    detail: String,
}

impl Store {
    pub async fn audit(
        &self,
        actor: &str,
        action: &str,
        target: &str,
        detail: &serde_json::Value,
        at: DateTime<Utc>,
    ) -> Result<()> {
        on_pool!(self, pool => sqlx::query(
            "INSERT INTO audit_log (at, actor, action, target, detail) VALUES ($1, $2, $3, $4, $5)")
            .bind(millis(at)).bind(actor).bind(action).bind(target).bind(detail.to_string())
            .execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// The newest entries first; `before` (an entry id) pages further back.
    pub async fn audit_entries(&self, before: Option<i64>, limit: i64) -> Result<Vec<AuditEntry>> {
        let rows: Vec<AuditRow> = on_pool!(self, pool => sqlx::query_as(
            "SELECT id, at, actor, action, target, detail FROM audit_log \
             WHERE id < $1 ORDER BY id DESC LIMIT $2")
            .bind(before.unwrap_or(i64::MAX)).bind(limit).fetch_all(pool).await)?;
        rows.into_iter()
            .map(|r| {
                Ok(AuditEntry {
                    id: r.id,
                    at: from_millis(r.at)?,
                    actor: r.actor,
                    action: r.action,
                    target: r.target,
                    detail: serde_json::from_str(&r.detail).unwrap_or(serde_json::Value::Null),
                })
            })
            .collect()
    }
}
