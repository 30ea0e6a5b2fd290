//! Finisher certificates' settings per event (`0020_certificates.sql`): offered or not,
//! the price, and the operator's two templates.

use chrono::{DateTime, Utc};
use raceshot_domain::Money;

use crate::macros::on_pool;
use crate::{Result, Store, StoreError, millis};

/// How an event offers certificates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CertificateSettings {
    pub offered: bool,
    /// Zero: free to download.
    pub price: Money,
    /// The 1080 × 1350 picture's template; `None` is the shop's own.
    pub image_svg: Option<String>,
    /// The A4 page's template; `None` is the shop's own.
    pub print_svg: Option<String>,
    pub updated_at: DateTime<Utc>,
}

#[derive(sqlx::FromRow)]
struct Row {
    offered: bool,
    price_satang: i64,
    image_svg: Option<String>,
    print_svg: Option<String>,
    updated_at: i64,
}

impl Store {
    /// The event's certificate settings; `None` until an operator saved some.
    pub async fn certificate_settings(&self, event_id: i64) -> Result<Option<CertificateSettings>> {
        let row: Option<Row> = on_pool!(self, pool => sqlx::query_as(
            "SELECT offered, price_satang, image_svg, print_svg, updated_at \
             FROM certificates WHERE event_id = $1")
            .bind(event_id).fetch_optional(pool).await)?;
        row.map(|r| {
            Ok(CertificateSettings {
                offered: r.offered,
                price: Money::from_satang(r.price_satang)
                    .map_err(|e| StoreError::Corrupt(format!("certificate price: {e}")))?,
                image_svg: r.image_svg,
                print_svg: r.print_svg,
                updated_at: DateTime::from_timestamp_millis(r.updated_at)
                    .ok_or_else(|| StoreError::Corrupt("certificate settings time".to_owned()))?,
            })
        })
        .transpose()
    }

    /// Saves the event's certificate settings whole.
    pub async fn save_certificate_settings(
        &self,
        event_id: i64,
        settings: &CertificateSettings,
    ) -> Result<()> {
        on_pool!(self, pool => sqlx::query(
            "INSERT INTO certificates (event_id, offered, price_satang, image_svg, print_svg, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (event_id) DO UPDATE SET offered = excluded.offered, \
             price_satang = excluded.price_satang, image_svg = excluded.image_svg, \
             print_svg = excluded.print_svg, updated_at = excluded.updated_at")
            .bind(event_id)
            .bind(settings.offered)
            .bind(settings.price.satang())
            .bind(settings.image_svg.as_deref())
            .bind(settings.print_svg.as_deref())
            .bind(millis(settings.updated_at))
            .execute(pool).await.map(|_| ()))?;
        Ok(())
    }
}
