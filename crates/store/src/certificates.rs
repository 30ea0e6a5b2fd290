//! Finisher certificates' settings per event (`0020_certificates.sql`): offered or not,
//! the price, and the operator's two templates.

use chrono::{DateTime, Utc};
use raceshot_domain::Money;

use sqlx::AssertSqlSafe;

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

/// One change an operator makes to an event's certificate settings; the rest stay as
/// they are in the row, whatever another operator saved meanwhile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CertificateChange {
    Offer {
        offered: bool,
        price: Money,
    },
    /// The picture's template (`None`: back to the shop's own).
    ImageTemplate(Option<String>),
    /// The A4 page's template (`None`: back to the shop's own).
    PrintTemplate(Option<String>),
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

    /// Applies one change to the event's certificate settings, in one statement (a new row
    /// is not offered, free, with the shop's templates), and answers them as saved.
    pub async fn change_certificate_settings(
        &self,
        event_id: i64,
        change: &CertificateChange,
        now: DateTime<Utc>,
    ) -> Result<CertificateSettings> {
        let (offered, price, image, print) = match change {
            CertificateChange::Offer { offered, price } => (*offered, price.satang(), None, None),
            CertificateChange::ImageTemplate(svg) => (false, 0, svg.as_deref(), None),
            CertificateChange::PrintTemplate(svg) => (false, 0, None, svg.as_deref()),
        };
        let update = match change {
            CertificateChange::Offer { .. } => {
                "offered = excluded.offered, price_satang = excluded.price_satang"
            }
            CertificateChange::ImageTemplate(_) => "image_svg = excluded.image_svg",
            CertificateChange::PrintTemplate(_) => "print_svg = excluded.print_svg",
        };
        let sql = format!(
            "INSERT INTO certificates (event_id, offered, price_satang, image_svg, print_svg, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (event_id) DO UPDATE SET {update}, updated_at = excluded.updated_at"
        );
        on_pool!(self, pool => sqlx::query(AssertSqlSafe(sql.clone()))
            .bind(event_id)
            .bind(offered)
            .bind(price)
            .bind(image)
            .bind(print)
            .bind(millis(now))
            .execute(pool).await.map(|_| ()))?;
        self.certificate_settings(event_id)
            .await?
            .ok_or_else(|| StoreError::Corrupt(format!("certificates of event {event_id}")))
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
