//! One-time codes that open an order found through find-order: one pending code per
//! order, stored as the keyed hash the caller made, used up by the right code, voided by
//! its expiry or by too many wrong tries. Each check is one guarded statement, so two
//! tries at once cannot both pass.

use chrono::{DateTime, Utc};

use crate::macros::on_pool;
use crate::{Result, Store, from_millis, millis};

/// What trying a code did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeCheck {
    /// The right code: it is used up.
    Opened,
    /// A wrong code; the pending code still works (for fewer tries).
    Wrong,
    /// No code is pending: none was sent, it expired, or too many tries voided it.
    NoCode,
}

impl Store {
    /// Replaces the order's pending code.
    pub async fn put_access_code(
        &self,
        order_id: i64,
        code_hash: &str,
        expires_at: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<()> {
        on_pool!(self, pool => sqlx::query(
            "INSERT INTO order_access_codes (order_id, code_hash, attempts, expires_at, created_at) \
             VALUES ($1, $2, 0, $3, $4) \
             ON CONFLICT (order_id) DO UPDATE SET code_hash = excluded.code_hash, attempts = 0, \
                expires_at = excluded.expires_at, created_at = excluded.created_at")
            .bind(order_id).bind(code_hash).bind(millis(expires_at)).bind(millis(now))
            .execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// Forgets the order's pending code (one that could not be delivered).
    pub async fn forget_access_code(&self, order_id: i64) -> Result<()> {
        on_pool!(self, pool => sqlx::query("DELETE FROM order_access_codes WHERE order_id = $1")
            .bind(order_id).execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// When the order's pending code was sent, if one is pending.
    pub async fn access_code_sent_at(&self, order_id: i64) -> Result<Option<DateTime<Utc>>> {
        let row: Option<(i64,)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT created_at FROM order_access_codes WHERE order_id = $1")
            .bind(order_id).fetch_optional(pool).await)?;
        row.map(|(t,)| from_millis(t)).transpose()
    }

    /// Tries a code: the right one before its expiry and within `max_attempts` tries opens
    /// the order once.
    pub async fn try_access_code(
        &self,
        order_id: i64,
        code_hash: &str,
        max_attempts: i64,
        now: DateTime<Utc>,
    ) -> Result<CodeCheck> {
        let opened: Option<(i64,)> = on_pool!(self, pool => sqlx::query_as(
            "DELETE FROM order_access_codes WHERE order_id = $1 AND code_hash = $2 \
                AND expires_at > $3 AND attempts < $4 RETURNING order_id")
            .bind(order_id).bind(code_hash).bind(millis(now)).bind(max_attempts)
            .fetch_optional(pool).await)?;
        if opened.is_some() {
            return Ok(CodeCheck::Opened);
        }
        let counted: Option<(i64,)> = on_pool!(self, pool => sqlx::query_as(
            "UPDATE order_access_codes SET attempts = attempts + 1 \
             WHERE order_id = $1 AND expires_at > $2 AND attempts < $3 RETURNING attempts")
            .bind(order_id).bind(millis(now)).bind(max_attempts)
            .fetch_optional(pool).await)?;
        if counted.is_some() {
            return Ok(CodeCheck::Wrong);
        }
        self.forget_access_code(order_id).await?;
        Ok(CodeCheck::NoCode)
    }
}
