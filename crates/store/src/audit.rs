//! The audit log: who did what to what, and when. Rows are only ever added. Actors are
//! ids (`operator:17`, `unknown:…`, `cli:…`), never text someone typed, and no stored text
//! holds a control character: whatever a caller passes, they are replaced on the way in,
//! so neither the console nor a terminal reading the table can be steered by them.

use chrono::{DateTime, Utc};

use crate::macros::on_pool;
use crate::{Result, Store, from_millis, millis};

#[derive(Debug, Clone, PartialEq)]
pub struct AuditEntry {
    pub id: i64,
    pub at: DateTime<Utc>,
    pub actor: String,
    /// The operator account's e-mail when `actor` names one (`operator:{id}`), as the
    /// account has it now.
    pub actor_email: Option<String>,
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
    actor_email: Option<String>,
}

/// What stands for a control character in stored audit text.
const REPLACEMENT: char = '\u{FFFD}';

/// Whether `c` may not be stored: C0 and C1 controls, DEL, and the invisible marks that
/// reorder or hide text on screen (bidirectional overrides and isolates, zero-width
/// characters), with which typed text could pass for something else in the console.
fn unfit(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

/// `text` with every [`unfit`] character replaced by U+FFFD, so that the entry still
/// shows that something was there.
fn clean(text: &str) -> String {
    text.chars()
        .map(|c| if unfit(c) { REPLACEMENT } else { c })
        .collect()
}

/// A detail value with every string in it (keys included) [`clean`]ed.
fn clean_json(value: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::String(s) => Value::String(clean(s)),
        Value::Array(items) => Value::Array(items.iter().map(clean_json).collect()),
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (clean(k), clean_json(v))).collect())
        }
        other => other.clone(),
    }
}

/// The target of an entry about an event: `event:{key}`.
pub fn event_target(key: impl std::fmt::Display) -> String {
    format!("event:{key}")
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
        let (actor, action, target) = (clean(actor), clean(action), clean(target));
        let detail = clean_json(detail).to_string();
        on_pool!(self, pool => sqlx::query(
            "INSERT INTO audit_log (at, actor, action, target, detail) VALUES ($1, $2, $3, $4, $5)")
            .bind(millis(at)).bind(&actor).bind(&action).bind(&target).bind(&detail)
            .execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// The newest entries first; `before` (an entry id) pages further back. Entries by an
    /// operator account carry the account's e-mail, looked up now.
    pub async fn audit_entries(&self, before: Option<i64>, limit: i64) -> Result<Vec<AuditEntry>> {
        let rows: Vec<AuditRow> = on_pool!(self, pool => sqlx::query_as(
            "SELECT a.id, a.at, a.actor, a.action, a.target, a.detail, o.email AS actor_email \
             FROM audit_log a LEFT JOIN operators o ON a.actor = 'operator:' || CAST(o.id AS TEXT) \
             WHERE a.id < $1 ORDER BY a.id DESC LIMIT $2")
            .bind(before.unwrap_or(i64::MAX)).bind(limit).fetch_all(pool).await)?;
        rows.into_iter()
            .map(|r| {
                Ok(AuditEntry {
                    id: r.id,
                    at: from_millis(r.at)?,
                    actor: r.actor,
                    actor_email: r.actor_email,
                    action: r.action,
                    target: r.target,
                    detail: serde_json::from_str(&r.detail).unwrap_or(serde_json::Value::Null),
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_text_holds_no_control_characters() {
        assert_eq!(clean("operator:17"), "operator:17");
        assert_eq!(clean("นักวิ่ง@ตัวอย่าง.ไทย"), "นักวิ่ง@ตัวอย่าง.ไทย");
        assert_eq!(
            clean("a\nb\r\x1b[31mc\u{7f}"),
            "a\u{FFFD}b\u{FFFD}\u{FFFD}[31mc\u{FFFD}"
        );
        assert_eq!(clean("gpj.\u{202E}exe"), "gpj.\u{FFFD}exe");
        let detail = serde_json::json!({
            "file_name": "IMG\n0001.jpg",
            "n": 3,
            "list": ["\u{0}", "ok"],
            "k\t": {"deep": "\u{85}"},
        });
        let cleaned = clean_json(&detail).to_string();
        assert!(!cleaned.chars().any(unfit), "{cleaned}");
        assert!(
            !cleaned.contains("\\n") && !cleaned.contains("\\u0000"),
            "{cleaned}"
        );
        assert_eq!(clean_json(&detail)["n"], 3);
        assert_eq!(clean_json(&detail)["list"][1], "ok");
    }
}
