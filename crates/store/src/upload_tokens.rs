//! Upload tokens: the secrets a camera (over FTP), the photographer's uploader and other
//! resumable-upload clients sign in with. Kept by the SHA-256 of the secret only, like
//! console sessions; each belongs to one account, records its last use, and is revoked
//! rather than deleted, so the console and the audit log can still name it.

use chrono::{DateTime, Utc};

use crate::macros::on_pool;
use crate::operators::{COLUMNS, Operator, OperatorRow};
use crate::{Result, Store, from_millis, millis};

/// A token as the console lists it (never its secret).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UploadToken {
    pub id: i64,
    pub operator_id: i64,
    pub operator_email: String,
    pub label: String,
    /// The secret's last characters, to tell tokens apart.
    pub hint: String,
    pub created_at: DateTime<Utc>,
    pub last_used_at: Option<DateTime<Utc>>,
    pub revoked_at: Option<DateTime<Utc>>,
}

/// A token to store: the hash of its secret, never the secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewUploadToken<'a> {
    pub operator_id: i64,
    pub token_hash: &'a str,
    pub label: &'a str,
    pub hint: &'a str,
}

/// Whose tokens a listing or a revocation may touch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenScope {
    /// Every account's (an admin).
    All,
    /// One account's own (a photographer).
    Operator(i64),
}

impl TokenScope {
    fn operator(self) -> Option<i64> {
        match self {
            TokenScope::All => None,
            TokenScope::Operator(id) => Some(id),
        }
    }
}

type TokenRow = (
    i64,
    i64,
    String,
    String,
    String,
    i64,
    Option<i64>,
    Option<i64>,
);

fn token(r: TokenRow) -> Result<UploadToken> {
    let (id, operator_id, operator_email, label, hint, created, used, revoked) = r;
    Ok(UploadToken {
        id,
        operator_id,
        operator_email,
        label,
        hint,
        created_at: from_millis(created)?,
        last_used_at: used.map(from_millis).transpose()?,
        revoked_at: revoked.map(from_millis).transpose()?,
    })
}

const TOKEN_COLUMNS: &str = "t.id, t.operator_id, o.email, t.label, t.hint, t.created_at, \
    t.last_used_at, t.revoked_at";

/// A use refreshes `last_used_at` at most this often (milliseconds): a camera sending a
/// photo a second must not write the row a second.
const LAST_USE_GRAIN_MS: i64 = 60_000;

impl Store {
    /// Stores a new token; answers it as listed.
    pub async fn create_upload_token(
        &self,
        new: &NewUploadToken<'_>,
        now: DateTime<Utc>,
    ) -> Result<UploadToken> {
        let (id,): (i64,) = on_pool!(self, pool => sqlx::query_as(
            "INSERT INTO upload_tokens (operator_id, token_hash, label, hint, created_at) \
             VALUES ($1, $2, $3, $4, $5) RETURNING id")
            .bind(new.operator_id).bind(new.token_hash).bind(new.label).bind(new.hint)
            .bind(millis(now)).fetch_one(pool).await)?;
        let sql = format!(
            "SELECT {TOKEN_COLUMNS} FROM upload_tokens t JOIN operators o ON o.id = t.operator_id \
             WHERE t.id = $1"
        );
        let row: TokenRow = on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.clone()))
            .bind(id).fetch_one(pool).await)?;
        token(row)
    }

    /// The tokens in `scope`, newest first, revoked ones included.
    pub async fn upload_tokens(&self, scope: TokenScope) -> Result<Vec<UploadToken>> {
        let sql = format!(
            "SELECT {TOKEN_COLUMNS} FROM upload_tokens t JOIN operators o ON o.id = t.operator_id \
             WHERE ($1 IS NULL OR t.operator_id = $1) ORDER BY t.id DESC"
        );
        let rows: Vec<TokenRow> = on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.clone()))
            .bind(scope.operator()).fetch_all(pool).await)?;
        rows.into_iter().map(token).collect()
    }

    /// Revokes a live token in `scope`; `false` when there is none (unknown, another
    /// account's, or revoked already).
    pub async fn revoke_upload_token(
        &self,
        id: i64,
        scope: TokenScope,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let done = on_pool!(self, pool => sqlx::query(
            "UPDATE upload_tokens SET revoked_at = $3 WHERE id = $1 \
             AND ($2 IS NULL OR operator_id = $2) AND revoked_at IS NULL")
            .bind(id).bind(scope.operator()).bind(millis(now)).execute(pool).await
            .map(|r| r.rows_affected()))?;
        Ok(done == 1)
    }

    /// The account a live token signs in, with the token's id; records the use. Revoked
    /// tokens and disabled accounts sign in nobody.
    pub async fn upload_token_operator(
        &self,
        token_hash: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<(i64, Operator)>> {
        let sql = format!(
            "SELECT t.id AS token_id, {COLUMNS} FROM upload_tokens t JOIN operators o ON o.id = t.operator_id \
             WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND NOT o.disabled"
        );
        #[derive(sqlx::FromRow)]
        struct Row {
            token_id: i64,
            #[sqlx(flatten)]
            operator: OperatorRow,
        }
        let row: Option<Row> = on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.clone()))
            .bind(token_hash).fetch_optional(pool).await)?;
        let Some(row) = row else {
            return Ok(None);
        };
        let now = millis(now);
        on_pool!(self, pool => sqlx::query(
            "UPDATE upload_tokens SET last_used_at = $2 WHERE id = $1 \
             AND (last_used_at IS NULL OR last_used_at <= $3)")
            .bind(row.token_id).bind(now).bind(now - LAST_USE_GRAIN_MS).execute(pool).await
            .map(|_| ()))?;
        Ok(Some((row.token_id, Operator::try_from(row.operator)?)))
    }
}
