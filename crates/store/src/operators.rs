//! Operators of the console, their failed sign-ins (and those with unknown addresses,
//! counted alike), their sessions (kept by the hash of
//! the cookie's token only) and the events assigned to photographers.

use chrono::{DateTime, Utc};

use crate::macros::{on_pool, rows_with_ids};
use crate::{Result, Store, StoreError, from_millis, millis};

/// What an operator may do: admins everything, photographers their assigned events only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Admin,
    Photographer,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Photographer => "photographer",
        }
    }

    pub fn parse(raw: &str) -> Option<Role> {
        match raw {
            "admin" => Some(Role::Admin),
            "photographer" => Some(Role::Photographer),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operator {
    pub id: i64,
    pub email: String,
    pub password_hash: String,
    pub role: Role,
    pub disabled: bool,
    pub failed_logins: i64,
    pub locked_until: Option<DateTime<Utc>>,
}

#[derive(sqlx::FromRow)]
pub(crate) struct OperatorRow {
    id: i64,
    email: String,
    password_hash: String,
    role: String,
    disabled: bool,
    failed_logins: i64,
    locked_until: Option<i64>,
}

impl TryFrom<OperatorRow> for Operator {
    type Error = StoreError;

    fn try_from(r: OperatorRow) -> Result<Operator> {
        Ok(Operator {
            id: r.id,
            email: r.email,
            password_hash: r.password_hash,
            role: Role::parse(&r.role)
                .ok_or_else(|| StoreError::Corrupt(format!("operator role {}", r.role)))?,
            disabled: r.disabled,
            failed_logins: r.failed_logins,
            locked_until: r.locked_until.map(from_millis).transpose()?,
        })
    }
}

pub(crate) const COLUMNS: &str =
    "o.id, o.email, o.password_hash, o.role, o.disabled, o.failed_logins, o.locked_until";

impl Store {
    /// Adds an operator; `None` when the e-mail address already has an account.
    pub async fn create_operator(
        &self,
        email: &str,
        password_hash: &str,
        role: Role,
        now: DateTime<Utc>,
    ) -> Result<Option<i64>> {
        let row: Option<(i64,)> = on_pool!(self, pool => sqlx::query_as(
            "INSERT INTO operators (email, password_hash, role, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $4) ON CONFLICT (email) DO NOTHING RETURNING id")
            .bind(email).bind(password_hash).bind(role.as_str()).bind(millis(now))
            .fetch_optional(pool).await)?;
        Ok(row.map(|(id,)| id))
    }

    pub async fn operator_by_email(&self, email: &str) -> Result<Option<Operator>> {
        let sql = format!("SELECT {COLUMNS} FROM operators o WHERE o.email = $1");
        let row: Option<OperatorRow> = on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.clone()))
            .bind(email).fetch_optional(pool).await)?;
        row.map(Operator::try_from).transpose()
    }

    /// Records a failed sign-in: the new count and, past the allowance, the lock's end.
    pub async fn record_login_failure(
        &self,
        operator_id: i64,
        failed_logins: i64,
        locked_until: Option<DateTime<Utc>>,
        now: DateTime<Utc>,
    ) -> Result<()> {
        on_pool!(self, pool => sqlx::query(
            "UPDATE operators SET failed_logins = $2, locked_until = $3, updated_at = $4 WHERE id = $1")
            .bind(operator_id).bind(failed_logins).bind(locked_until.map(millis)).bind(millis(now))
            .execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// Failed sign-ins and the lock of an e-mail address that has no account.
    pub async fn unknown_login_failures(
        &self,
        email: &str,
    ) -> Result<(i64, Option<DateTime<Utc>>)> {
        let row: Option<(i64, Option<i64>)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT failures, locked_until FROM login_failures WHERE email = $1")
            .bind(email).fetch_optional(pool).await)?;
        match row {
            None => Ok((0, None)),
            Some((failures, until)) => Ok((failures, until.map(from_millis).transpose()?)),
        }
    }

    /// Records a failed sign-in with an e-mail address that has no account.
    pub async fn record_unknown_login_failure(
        &self,
        email: &str,
        failures: i64,
        locked_until: Option<DateTime<Utc>>,
        now: DateTime<Utc>,
    ) -> Result<()> {
        on_pool!(self, pool => sqlx::query(
            "INSERT INTO login_failures (email, failures, locked_until, updated_at) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (email) DO UPDATE SET \
                failures = excluded.failures, locked_until = excluded.locked_until, \
                updated_at = excluded.updated_at")
            .bind(email).bind(failures).bind(locked_until.map(millis)).bind(millis(now))
            .execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// Forgets failed sign-ins with unknown addresses last tried before `before`.
    pub async fn forget_unknown_login_failures(&self, before: DateTime<Utc>) -> Result<u64> {
        let done = on_pool!(self, pool => sqlx::query(
            "DELETE FROM login_failures WHERE updated_at < $1")
            .bind(millis(before)).execute(pool).await.map(|r| r.rows_affected()))?;
        Ok(done)
    }

    /// A successful sign-in clears the failures.
    pub async fn record_login(&self, operator_id: i64, now: DateTime<Utc>) -> Result<()> {
        on_pool!(self, pool => sqlx::query(
            "UPDATE operators SET failed_logins = 0, locked_until = NULL, last_login_at = $2, \
             updated_at = $2 WHERE id = $1")
            .bind(operator_id).bind(millis(now)).execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    pub async fn create_session(
        &self,
        token_hash: &str,
        operator_id: i64,
        expires_at: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<()> {
        on_pool!(self, pool => sqlx::query(
            "INSERT INTO operator_sessions (token_hash, operator_id, created_at, expires_at, last_seen_at) \
             VALUES ($1, $2, $3, $4, $3)")
            .bind(token_hash).bind(operator_id).bind(millis(now)).bind(millis(expires_at))
            .execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// The operator of a live session: not expired, account not disabled.
    pub async fn session_operator(
        &self,
        token_hash: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<Operator>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM operator_sessions s JOIN operators o ON o.id = s.operator_id \
             WHERE s.token_hash = $1 AND s.expires_at > $2 AND NOT o.disabled"
        );
        let row: Option<OperatorRow> = on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.clone()))
            .bind(token_hash).bind(millis(now)).fetch_optional(pool).await)?;
        row.map(Operator::try_from).transpose()
    }

    pub async fn delete_session(&self, token_hash: &str) -> Result<()> {
        on_pool!(self, pool => sqlx::query("DELETE FROM operator_sessions WHERE token_hash = $1")
            .bind(token_hash).execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// Removes sessions past their end; answers how many.
    pub async fn purge_sessions(&self, now: DateTime<Utc>) -> Result<u64> {
        Ok(
            on_pool!(self, pool => sqlx::query("DELETE FROM operator_sessions WHERE expires_at <= $1")
            .bind(millis(now)).execute(pool).await.map(|r| r.rows_affected()))?,
        )
    }

    /// Gives a photographer an event to work on (idempotent).
    pub async fn assign_event(&self, operator_id: i64, event_id: i64) -> Result<()> {
        on_pool!(self, pool => sqlx::query(
            "INSERT INTO operator_events (operator_id, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING")
            .bind(operator_id).bind(event_id).execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// The e-mail addresses of the operators `ids` (unknown ids are left out).
    pub async fn operator_emails(&self, ids: &[i64]) -> Result<Vec<(i64, String)>> {
        Ok(rows_with_ids!(self, ids, [], |list| format!(
            "SELECT id, email FROM operators WHERE id IN ({list}) ORDER BY id"
        )))
    }

    pub async fn operator_event_ids(&self, operator_id: i64) -> Result<Vec<i64>> {
        let rows: Vec<(i64,)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT event_id FROM operator_events WHERE operator_id = $1 ORDER BY event_id")
            .bind(operator_id).fetch_all(pool).await)?;
        Ok(rows.into_iter().map(|(id,)| id).collect())
    }
}
