//! Shop-wide settings an operator changes at run time (e.g. `PAYMENT_GATEWAY`).

use chrono::{DateTime, Utc};

use crate::macros::on_pool;
use crate::{Result, Store, millis};

impl Store {
    pub async fn setting(&self, name: &str) -> Result<Option<String>> {
        let row: Option<(String,)> = on_pool!(self, pool =>
            sqlx::query_as("SELECT value FROM settings WHERE name = $1")
                .bind(name).fetch_optional(pool).await)?;
        Ok(row.map(|(v,)| v))
    }

    /// Every setting whose name starts with `prefix`, by name.
    pub async fn settings_with_prefix(&self, prefix: &str) -> Result<Vec<(String, String)>> {
        let pattern = format!(
            "{}%",
            prefix
                .replace('\\', "\\\\")
                .replace('%', "\\%")
                .replace('_', "\\_")
        );
        Ok(on_pool!(self, pool => sqlx::query_as(
            "SELECT name, value FROM settings WHERE name LIKE $1 ESCAPE '\\' ORDER BY name")
            .bind(&pattern).fetch_all(pool).await)?)
    }

    pub async fn delete_setting(&self, name: &str) -> Result<()> {
        on_pool!(self, pool => sqlx::query("DELETE FROM settings WHERE name = $1")
            .bind(name).execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// Sets a value; `secret` values are never returned by listings meant for people.
    pub async fn put_setting(
        &self,
        name: &str,
        value: &str,
        secret: bool,
        now: DateTime<Utc>,
    ) -> Result<()> {
        on_pool!(self, pool => sqlx::query(
            "INSERT INTO settings (name, value, secret, updated_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (name) DO UPDATE SET value = excluded.value, secret = excluded.secret, \
             updated_at = excluded.updated_at")
            .bind(name).bind(value).bind(secret).bind(millis(now))
            .execute(pool).await.map(|_| ()))?;
        Ok(())
    }
}

impl Store {
    /// The setting's value; when it has none yet, `init` becomes its value. Safe when
    /// several processes start at once: they all end up with the first value written.
    pub async fn setting_or_init(
        &self,
        name: &str,
        init: &str,
        secret: bool,
        now: DateTime<Utc>,
    ) -> Result<String> {
        on_pool!(self, pool => sqlx::query(
            "INSERT INTO settings (name, value, secret, updated_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (name) DO NOTHING")
            .bind(name).bind(init).bind(secret).bind(millis(now))
            .execute(pool).await.map(|_| ()))?;
        Ok(self.setting(name).await?.unwrap_or_else(|| init.to_owned()))
    }
}
