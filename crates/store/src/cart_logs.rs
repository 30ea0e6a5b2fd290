//! Cart analytics the shop's web app sends (`POST /v1/logs/`): which photos visitors put in
//! their carts, kept for the operators' dashboards.

use chrono::{DateTime, Utc};

use crate::macros::on_pool;
use crate::{Result, Store, from_millis, millis};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CartLog {
    pub at: DateTime<Utc>,
    /// `cart` or `cart-wholesale`.
    pub service: String,
    pub event_key: String,
    pub cart_count: i64,
    pub image_id: String,
    /// Comma-joined photo ids.
    pub list: String,
}

impl Store {
    pub async fn add_cart_log(&self, log: &CartLog) -> Result<()> {
        on_pool!(self, pool => sqlx::query(
            "INSERT INTO cart_logs (at, service, event_key, cart_count, image_id, list) \
             VALUES ($1, $2, $3, $4, $5, $6)")
            .bind(millis(log.at)).bind(&log.service).bind(&log.event_key).bind(log.cart_count)
            .bind(&log.image_id).bind(&log.list)
            .execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// An event's entries, newest first.
    pub async fn cart_logs(&self, event_key: &str, limit: i64) -> Result<Vec<CartLog>> {
        let rows: Vec<(i64, String, String, i64, String, String)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT at, service, event_key, cart_count, image_id, list FROM cart_logs \
             WHERE event_key = $1 ORDER BY id DESC LIMIT $2")
            .bind(event_key).bind(limit).fetch_all(pool).await)?;
        rows.into_iter()
            .map(|(at, service, event_key, cart_count, image_id, list)| {
                Ok(CartLog {
                    at: from_millis(at)?,
                    service,
                    event_key,
                    cart_count,
                    image_id,
                    list,
                })
            })
            .collect()
    }
}
