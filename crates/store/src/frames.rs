//! Sponsor frames per event (`0022_sponsor_frames.sql`): the frame's file in the event's
//! `frame/` folder and whether sold photos get a framed copy too.

use chrono::{DateTime, Utc};

use crate::macros::on_pool;
use crate::objects::StoredName;
use crate::{Result, Store, StoreError, millis};

/// An event's sponsor frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventFrame {
    /// Its PNG in the event's `frame/` folder: a new upload is a new name.
    pub name: StoredName,
    /// Sold photos get a framed copy beside the original and the logo copy.
    pub on_sold: bool,
    pub updated_at: DateTime<Utc>,
}

#[derive(sqlx::FromRow)]
struct Row {
    name: String,
    on_sold: bool,
    updated_at: i64,
}

impl Store {
    /// The event's frame; `None` when it has none.
    pub async fn event_frame(&self, event_id: i64) -> Result<Option<EventFrame>> {
        let row: Option<Row> = on_pool!(self, pool => sqlx::query_as(
            "SELECT name, on_sold, updated_at FROM event_frames WHERE event_id = $1")
            .bind(event_id).fetch_optional(pool).await)?;
        row.map(|r| {
            Ok(EventFrame {
                name: StoredName::try_from(r.name)?,
                on_sold: r.on_sold,
                updated_at: DateTime::from_timestamp_millis(r.updated_at)
                    .ok_or_else(|| StoreError::Corrupt("frame time".to_owned()))?,
            })
        })
        .transpose()
    }

    /// Makes `name` the event's frame; whether sold photos carry it stays as it was (not,
    /// for a first frame).
    pub async fn put_event_frame(
        &self,
        event_id: i64,
        name: &StoredName,
        now: DateTime<Utc>,
    ) -> Result<EventFrame> {
        on_pool!(self, pool => sqlx::query(
            "INSERT INTO event_frames (event_id, name, on_sold, updated_at) VALUES ($1, $2, FALSE, $3) \
             ON CONFLICT (event_id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at")
            .bind(event_id).bind(name.as_str()).bind(millis(now))
            .execute(pool).await.map(|_| ()))?;
        self.event_frame(event_id)
            .await?
            .ok_or_else(|| StoreError::Corrupt(format!("frame of event {event_id}")))
    }

    /// Sets whether sold photos of the event carry its frame; `None` when it has none.
    pub async fn set_frame_on_sold(
        &self,
        event_id: i64,
        on_sold: bool,
        now: DateTime<Utc>,
    ) -> Result<Option<EventFrame>> {
        on_pool!(self, pool => sqlx::query(
            "UPDATE event_frames SET on_sold = $2, updated_at = $3 WHERE event_id = $1")
            .bind(event_id).bind(on_sold).bind(millis(now))
            .execute(pool).await.map(|_| ()))?;
        self.event_frame(event_id).await
    }

    /// Takes the event's frame off; answers whether it had one. Orders already made keep
    /// the frame they were made with.
    pub async fn remove_event_frame(&self, event_id: i64) -> Result<bool> {
        let removed = on_pool!(self, pool => sqlx::query(
            "DELETE FROM event_frames WHERE event_id = $1")
            .bind(event_id).execute(pool).await.map(|r| r.rows_affected()))?;
        Ok(removed > 0)
    }
}
