//! Resumable uploads in progress (tus 1.0): one row per file being sent, and the parts of
//! it that arrived whole, in object storage. A part is committed only if it starts where
//! the upload stands (`received`), so two clients resuming the same upload at once cannot
//! both extend it: the loser's part is not listed and its object is deleted by the caller.

use chrono::{DateTime, Utc};
use raceshot_domain::EventKey;

use crate::macros::{in_tx, on_pool};
use crate::{Result, Store, from_millis, millis};

/// An upload as the server knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upload {
    pub id: String,
    pub operator_id: i64,
    pub event_id: i64,
    pub event_key: EventKey,
    pub file_name: String,
    /// The whole file's size in bytes.
    pub length: i64,
    /// Bytes received so far: where the next part starts.
    pub received: i64,
    /// The photo it became, once whole.
    pub photo_id: Option<i64>,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
}

/// An upload to start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewUpload<'a> {
    pub id: &'a str,
    pub operator_id: i64,
    pub event_id: i64,
    pub file_name: &'a str,
    pub length: i64,
    pub expires_at: DateTime<Utc>,
}

/// One committed part: `size` bytes from `start`, in the object named `name`.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct UploadPart {
    pub start: i64,
    pub size: i64,
    pub name: String,
}

type Row = (
    String,
    i64,
    i64,
    String,
    String,
    i64,
    i64,
    Option<i64>,
    i64,
    i64,
);

fn upload(r: Row) -> Result<Upload> {
    let (id, operator_id, event_id, key, file_name, length, received, photo_id, created, expires) =
        r;
    Ok(Upload {
        id,
        operator_id,
        event_id,
        event_key: key.try_into()?,
        file_name,
        length,
        received,
        photo_id,
        created_at: from_millis(created)?,
        expires_at: from_millis(expires)?,
    })
}

impl Store {
    pub async fn create_upload(&self, new: &NewUpload<'_>, now: DateTime<Utc>) -> Result<()> {
        on_pool!(self, pool => sqlx::query(
            "INSERT INTO uploads (id, operator_id, event_id, file_name, length, created_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)")
            .bind(new.id).bind(new.operator_id).bind(new.event_id).bind(new.file_name)
            .bind(new.length).bind(millis(now)).bind(millis(new.expires_at))
            .execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    pub async fn upload(&self, id: &str) -> Result<Option<Upload>> {
        let row: Option<Row> = on_pool!(self, pool => sqlx::query_as(
            "SELECT u.id, u.operator_id, u.event_id, e.event_key, u.file_name, u.length, u.received, \
                u.photo_id, u.created_at, u.expires_at \
             FROM uploads u JOIN events e ON e.id = u.event_id WHERE u.id = $1")
            .bind(id).fetch_optional(pool).await)?;
        row.map(upload).transpose()
    }

    /// Lists `part` as the upload's next one if it starts where the upload stands and the
    /// upload is unfinished; `false` (nothing written) otherwise.
    pub async fn commit_upload_part(&self, id: &str, part: &UploadPart) -> Result<bool> {
        let committed = in_tx!(self, tx => {
            let moved = sqlx::query(
                "UPDATE uploads SET received = received + $3 \
                 WHERE id = $1 AND received = $2 AND photo_id IS NULL AND received + $3 <= length")
                .bind(id).bind(part.start).bind(part.size).execute(&mut *tx).await?
                .rows_affected();
            if moved == 1 {
                sqlx::query("INSERT INTO upload_parts (upload_id, start, size, name) VALUES ($1, $2, $3, $4)")
                    .bind(id).bind(part.start).bind(part.size).bind(&part.name)
                    .execute(&mut *tx).await?;
            }
            moved == 1
        });
        Ok(committed)
    }

    /// The upload's committed parts, in order.
    pub async fn upload_parts(&self, id: &str) -> Result<Vec<UploadPart>> {
        Ok(on_pool!(self, pool => sqlx::query_as(
            "SELECT start, size, name FROM upload_parts WHERE upload_id = $1 ORDER BY start")
            .bind(id).fetch_all(pool).await)?)
    }

    /// Marks a whole upload as the photo it became; its parts are forgotten (the caller
    /// deletes their objects).
    pub async fn finish_upload(&self, id: &str, photo_id: i64) -> Result<()> {
        in_tx!(self, tx => {
            sqlx::query("UPDATE uploads SET photo_id = $2 WHERE id = $1")
                .bind(id).bind(photo_id).execute(&mut *tx).await?;
            sqlx::query("DELETE FROM upload_parts WHERE upload_id = $1")
                .bind(id).execute(&mut *tx).await?;
        });
        Ok(())
    }

    /// Forgets an upload and its parts (the caller deletes their objects first).
    pub async fn delete_upload(&self, id: &str) -> Result<()> {
        on_pool!(self, pool => sqlx::query("DELETE FROM uploads WHERE id = $1")
            .bind(id).execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// How many unfinished uploads an account has open.
    pub async fn open_uploads(&self, operator_id: i64) -> Result<i64> {
        let (n,): (i64,) = on_pool!(self, pool => sqlx::query_as(
            "SELECT COUNT(*) FROM uploads WHERE operator_id = $1 AND photo_id IS NULL")
            .bind(operator_id).fetch_one(pool).await)?;
        Ok(n)
    }

    /// Uploads past their end, at most `limit`: what the retention sweep deletes.
    pub async fn expired_uploads(&self, now: DateTime<Utc>, limit: i64) -> Result<Vec<String>> {
        let rows: Vec<(String,)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT id FROM uploads WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2")
            .bind(millis(now)).bind(limit).fetch_all(pool).await)?;
        Ok(rows.into_iter().map(|(id,)| id).collect())
    }
}
