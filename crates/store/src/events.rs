//! Events with their price tiers and banners: written whole (create or update by key) and
//! read for the catalogue.

use chrono::{DateTime, NaiveDate, Utc};
use raceshot_domain::event::{Banner, EventSpec, Package};
use raceshot_domain::{BibRule, EventKey, Money};

use sqlx::AssertSqlSafe;

use crate::macros::{in_tx, on_pool, rows_with_ids};
use crate::{Result, Store, StoreError, StoredName, from_millis, millis};

/// An event as stored, with the operator-side state the event's fields do not carry.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub id: i64,
    pub spec: EventSpec,
    /// An operator ended the sale before `on_sale_end`.
    pub sale_closed: bool,
    /// Hidden events are not listed and cannot be opened.
    pub visible: bool,
    pub updated_at: DateTime<Utc>,
    /// The face model pair its search, privacy requests and alerts use; `None` until its
    /// first photo is analysed.
    pub model_pair: Option<String>,
    /// The pair it is being moved to (`raceshot faces reindex`), if any.
    pub reindex_to: Option<String>,
    /// Its sponsor frame's file (`frames.rs`), if it has one.
    pub frame_name: Option<StoredName>,
}

/// What writing an event did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Written {
    Created(i64),
    Updated(i64),
}

impl Written {
    pub fn id(self) -> i64 {
        match self {
            Written::Created(id) | Written::Updated(id) => id,
        }
    }
}

const COLUMNS: &str = "id, event_key, title, cover_url, event_date_text, event_date, province, \
    on_sale_start, on_sale_end, is_hybrid, is_mhao, mhao_price, is_mhao_hybrid, \
    hybrid_mhao_price, is_event_stage, is_free_download, is_free_download_keep_contract, \
    caption_button_buy_all, face_threshold, max_face_search, pin, bib_min_digits, \
    bib_max_digits, bib_prefix, sale_closed, visible, updated_at, model_pair, reindex_to, \
    (SELECT f.name FROM event_frames f WHERE f.event_id = events.id) AS frame_name";

#[derive(sqlx::FromRow)]
struct EventRow {
    id: i64,
    event_key: String,
    title: String,
    cover_url: String,
    event_date_text: String,
    event_date: String,
    province: String,
    on_sale_start: i64,
    on_sale_end: i64,
    is_hybrid: bool,
    is_mhao: bool,
    mhao_price: Option<i64>,
    is_mhao_hybrid: bool,
    hybrid_mhao_price: Option<i64>,
    is_event_stage: bool,
    is_free_download: bool,
    is_free_download_keep_contract: bool,
    caption_button_buy_all: String,
    face_threshold: f64,
    max_face_search: i64,
    pin: bool,
    bib_min_digits: i64,
    bib_max_digits: i64,
    bib_prefix: String,
    sale_closed: bool,
    visible: bool,
    updated_at: i64,
    model_pair: Option<String>,
    reindex_to: Option<String>,
    frame_name: Option<String>,
}

#[derive(sqlx::FromRow)]
struct PackageRow {
    event_id: i64,
    kind: String,
    name: String,
    name_en: String,
    number_of_photo: i64,
    price: i64,
}

#[derive(sqlx::FromRow)]
struct BannerRow {
    image_url: String,
    link_url: String,
}

fn corrupt(what: &str, e: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt(format!("{what}: {e}"))
}

fn money(satang: i64) -> Result<Money> {
    Money::from_satang(satang).map_err(|e| corrupt("price", e))
}

impl EventRow {
    fn into_event(self, packages: &[PackageRow]) -> Result<Event> {
        let tiers = |kind: &str| -> Result<Vec<Package>> {
            packages
                .iter()
                .filter(|p| p.event_id == self.id && p.kind == kind)
                .map(|p| {
                    Ok(Package {
                        name: p.name.clone(),
                        name_en: p.name_en.clone(),
                        number_of_photo: u32::try_from(p.number_of_photo)
                            .map_err(|e| corrupt("number_of_photo", e))?,
                        price: money(p.price)?,
                    })
                })
                .collect()
        };
        Ok(Event {
            id: self.id,
            spec: EventSpec {
                key: EventKey::parse(&self.event_key).map_err(|e| corrupt("event_key", e))?,
                title: self.title,
                cover_url: self.cover_url,
                event_date_text: self.event_date_text,
                event_date: NaiveDate::parse_from_str(&self.event_date, "%Y-%m-%d")
                    .map_err(|e| corrupt("event_date", e))?,
                province: self.province,
                on_sale_start: from_millis(self.on_sale_start)?,
                on_sale_end: from_millis(self.on_sale_end)?,
                wholesale: self.is_hybrid,
                deal: self.is_mhao,
                deal_price: self.mhao_price.map(money).transpose()?,
                wholesale_deal: self.is_mhao_hybrid,
                wholesale_deal_price: self.hybrid_mhao_price.map(money).transpose()?,
                is_event_stage: self.is_event_stage,
                is_free_download: self.is_free_download,
                is_free_download_keep_contract: self.is_free_download_keep_contract,
                caption_button_buy_all: self.caption_button_buy_all,
                face_threshold: self.face_threshold,
                max_face_search: u32::try_from(self.max_face_search)
                    .map_err(|e| corrupt("max_face_search", e))?,
                pin: self.pin,
                bib_rule: BibRule {
                    min_digits: u32::try_from(self.bib_min_digits)
                        .map_err(|e| corrupt("bib_min_digits", e))?,
                    max_digits: u32::try_from(self.bib_max_digits)
                        .map_err(|e| corrupt("bib_max_digits", e))?,
                    prefix: self.bib_prefix,
                },
                packages: tiers("standard")?,
                wholesale_packages: tiers("hybrid")?,
                banners: Vec::new(),
            },
            sale_closed: self.sale_closed,
            visible: self.visible,
            updated_at: from_millis(self.updated_at)?,
            model_pair: self.model_pair,
            reindex_to: self.reindex_to,
            frame_name: self.frame_name.map(StoredName::try_from).transpose()?,
        })
    }
}

impl Store {
    /// Creates the event, or replaces every field, tier and banner of the event with the
    /// same key; all of `events` or none of them.
    pub async fn write_events(
        &self,
        events: &[EventSpec],
        now: DateTime<Utc>,
    ) -> Result<Vec<Written>> {
        let now = millis(now);
        let written = in_tx!(self, tx => {
            let mut written = Vec::with_capacity(events.len());
            for e in events {
                // Asked first rather than told by timestamps, which two writes can share.
                let existed: Option<(i64,)> = sqlx::query_as("SELECT id FROM events WHERE event_key = $1")
                    .bind(e.key.as_str())
                    .fetch_optional(&mut *tx)
                    .await?;
                let (id,): (i64,) = sqlx::query_as(
                    "INSERT INTO events (event_key, title, cover_url, event_date_text, event_date, \
                        province, on_sale_start, on_sale_end, is_hybrid, is_mhao, mhao_price, \
                        is_mhao_hybrid, hybrid_mhao_price, is_event_stage, is_free_download, \
                        is_free_download_keep_contract, caption_button_buy_all, face_threshold, \
                        max_face_search, pin, bib_min_digits, bib_max_digits, bib_prefix, \
                        created_at, updated_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, \
                        $16, $17, $18, $19, $20, $21, $22, $23, $24, $24) \
                     ON CONFLICT (event_key) DO UPDATE SET title = excluded.title, \
                        cover_url = excluded.cover_url, event_date_text = excluded.event_date_text, \
                        event_date = excluded.event_date, province = excluded.province, \
                        on_sale_start = excluded.on_sale_start, on_sale_end = excluded.on_sale_end, \
                        is_hybrid = excluded.is_hybrid, is_mhao = excluded.is_mhao, \
                        mhao_price = excluded.mhao_price, is_mhao_hybrid = excluded.is_mhao_hybrid, \
                        hybrid_mhao_price = excluded.hybrid_mhao_price, \
                        is_event_stage = excluded.is_event_stage, \
                        is_free_download = excluded.is_free_download, \
                        is_free_download_keep_contract = excluded.is_free_download_keep_contract, \
                        caption_button_buy_all = excluded.caption_button_buy_all, \
                        face_threshold = excluded.face_threshold, \
                        max_face_search = excluded.max_face_search, pin = excluded.pin, \
                        bib_min_digits = excluded.bib_min_digits, \
                        bib_max_digits = excluded.bib_max_digits, bib_prefix = excluded.bib_prefix, \
                        updated_at = excluded.updated_at \
                     RETURNING id",
                )
                .bind(e.key.as_str())
                .bind(&e.title)
                .bind(&e.cover_url)
                .bind(&e.event_date_text)
                .bind(e.event_date.format("%Y-%m-%d").to_string())
                .bind(&e.province)
                .bind(millis(e.on_sale_start))
                .bind(millis(e.on_sale_end))
                .bind(e.wholesale)
                .bind(e.deal)
                .bind(e.deal_price.map(Money::satang))
                .bind(e.wholesale_deal)
                .bind(e.wholesale_deal_price.map(Money::satang))
                .bind(e.is_event_stage)
                .bind(e.is_free_download)
                .bind(e.is_free_download_keep_contract)
                .bind(&e.caption_button_buy_all)
                .bind(e.face_threshold)
                .bind(i64::from(e.max_face_search))
                .bind(e.pin)
                .bind(i64::from(e.bib_rule.min_digits))
                .bind(i64::from(e.bib_rule.max_digits))
                .bind(&e.bib_rule.prefix)
                .bind(now)
                .fetch_one(&mut *tx)
                .await?;

                sqlx::query("DELETE FROM event_packages WHERE event_id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                for (kind, list) in [("standard", &e.packages), ("hybrid", &e.wholesale_packages)] {
                    for (position, p) in list.iter().enumerate() {
                        sqlx::query(
                            "INSERT INTO event_packages (event_id, kind, position, name, name_en, \
                                number_of_photo, price) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                        )
                        .bind(id)
                        .bind(kind)
                        .bind(position as i64)
                        .bind(&p.name)
                        .bind(&p.name_en)
                        .bind(i64::from(p.number_of_photo))
                        .bind(p.price.satang())
                        .execute(&mut *tx)
                        .await?;
                    }
                }
                sqlx::query("DELETE FROM banners WHERE event_id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                for (position, b) in e.banners.iter().enumerate() {
                    sqlx::query(
                        "INSERT INTO banners (event_id, position, image_url, link_url) \
                         VALUES ($1, $2, $3, $4)",
                    )
                    .bind(id)
                    .bind(position as i64)
                    .bind(&b.image_url)
                    .bind(&b.link_url)
                    .execute(&mut *tx)
                    .await?;
                }
                written.push(if existed.is_none() { Written::Created(id) } else { Written::Updated(id) });
            }
            written
        });
        Ok(written)
    }

    /// A visible event by key, with its tiers and banners.
    pub async fn event_by_key(&self, key: &EventKey) -> Result<Option<Event>> {
        self.event_with_key(key, true).await
    }

    /// An event by key, hidden or not, with its tiers and banners: what operators edit.
    pub async fn any_event_by_key(&self, key: &EventKey) -> Result<Option<Event>> {
        self.event_with_key(key, false).await
    }

    async fn event_with_key(&self, key: &EventKey, visible_only: bool) -> Result<Option<Event>> {
        let sql =
            format!("SELECT {COLUMNS} FROM events WHERE event_key = $1 AND (visible OR NOT $2)");
        let row: Option<EventRow> = on_pool!(self, pool => sqlx::query_as(AssertSqlSafe(sql.clone())).bind(key.as_str()).bind(visible_only).fetch_optional(pool).await)?;
        let Some(row) = row else { return Ok(None) };
        let id = row.id;
        let packages = self.packages_of(&[id]).await?;
        let banners: Vec<BannerRow> = on_pool!(self, pool => sqlx::query_as(
            "SELECT image_url, link_url FROM banners WHERE event_id = $1 ORDER BY position")
            .bind(id).fetch_all(pool).await)?;
        let mut event = row.into_event(&packages)?;
        event.spec.banners = banners
            .into_iter()
            .map(|b| Banner {
                image_url: b.image_url,
                link_url: b.link_url,
            })
            .collect();
        Ok(Some(event))
    }

    /// The storage key of the event's logo (`{event_key}/logo/{name}`), if it has one.
    pub async fn event_logo_key(&self, event_id: i64) -> Result<Option<String>> {
        let row: Option<(Option<String>,)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT logo_key FROM events WHERE id = $1")
            .bind(event_id).fetch_optional(pool).await)?;
        Ok(row.and_then(|(k,)| k).filter(|k| !k.is_empty()))
    }

    /// The event's cover picture address, if it has one.
    pub async fn event_cover(&self, event_id: i64) -> Result<Option<String>> {
        let row: Option<(String,)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT cover_url FROM events WHERE id = $1")
            .bind(event_id).fetch_optional(pool).await)?;
        Ok(row.map(|(u,)| u).filter(|u| !u.is_empty()))
    }

    /// Every visible event with its tiers, pinned first, then the newest race: the
    /// catalogue a process keeps in memory.
    pub async fn visible_events(&self) -> Result<Vec<Event>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM events WHERE visible ORDER BY pin DESC, event_date DESC, id DESC"
        );
        let rows: Vec<EventRow> = on_pool!(self, pool => sqlx::query_as(AssertSqlSafe(sql.clone())).fetch_all(pool).await)?;
        let packages: Vec<PackageRow> = on_pool!(self, pool => sqlx::query_as(
            "SELECT p.event_id, p.kind, p.name, p.name_en, p.number_of_photo, p.price \
             FROM event_packages p JOIN events e ON e.id = p.event_id WHERE e.visible \
             ORDER BY p.event_id, p.kind, p.position")
            .fetch_all(pool).await)?;
        rows.into_iter().map(|r| r.into_event(&packages)).collect()
    }

    /// Every event, hidden ones too, newest race first: the console's list.
    pub async fn all_events(&self) -> Result<Vec<Event>> {
        let sql = format!("SELECT {COLUMNS} FROM events ORDER BY event_date DESC, id DESC");
        let rows: Vec<EventRow> = on_pool!(self, pool => sqlx::query_as(AssertSqlSafe(sql.clone())).fetch_all(pool).await)?;
        let packages: Vec<PackageRow> = on_pool!(self, pool => sqlx::query_as(
            "SELECT p.event_id, p.kind, p.name, p.name_en, p.number_of_photo, p.price \
             FROM event_packages p ORDER BY p.event_id, p.kind, p.position")
            .fetch_all(pool).await)?;
        rows.into_iter().map(|r| r.into_event(&packages)).collect()
    }

    /// Ends (or reopens) an event's sale before its window does; `false` when no such event.
    pub async fn set_sale_closed(
        &self,
        event_id: i64,
        closed: bool,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        Ok(on_pool!(self, pool => sqlx::query(
            "UPDATE events SET sale_closed = $2, updated_at = $3 WHERE id = $1")
            .bind(event_id).bind(closed).bind(millis(now)).execute(pool).await
            .map(|r| r.rows_affected() > 0))?)
    }

    /// Every carousel slide with its event (`None` for shop-wide slides), in order.
    pub async fn banners(&self) -> Result<Vec<(Option<i64>, Banner)>> {
        let rows: Vec<(Option<i64>, String, String)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT event_id, image_url, link_url FROM banners ORDER BY event_id IS NOT NULL, event_id, position")
            .fetch_all(pool).await)?;
        Ok(rows
            .into_iter()
            .map(|(event, image_url, link_url)| {
                (
                    event,
                    Banner {
                        image_url,
                        link_url,
                    },
                )
            })
            .collect())
    }

    async fn packages_of(&self, event_ids: &[i64]) -> Result<Vec<PackageRow>> {
        Ok(rows_with_ids!(self, event_ids, [], |list| format!(
            "SELECT event_id, kind, name, name_en, number_of_photo, price FROM event_packages \
             WHERE event_id IN ({list}) ORDER BY event_id, kind, position"
        )))
    }
}

/// An event's figures for the console's dashboard.
#[derive(Debug, Clone, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct EventStats {
    pub event_id: i64,
    pub photos_ready: i64,
    pub photos_pending: i64,
    pub photos_failed: i64,
    pub faces: i64,
    pub searches: i64,
    pub orders_paid: i64,
    /// Satang paid for the event's orders.
    pub revenue: i64,
}

impl Store {
    /// Every event's figures.
    pub async fn event_stats(&self) -> Result<Vec<EventStats>> {
        Ok(on_pool!(self, pool => sqlx::query_as(
            "SELECT e.id AS event_id, \
                (SELECT COUNT(*) FROM photos p WHERE p.event_id = e.id AND p.state = 'ready') AS photos_ready, \
                (SELECT COUNT(*) FROM photos p WHERE p.event_id = e.id AND p.state IN ('queued', 'processing')) AS photos_pending, \
                (SELECT COUNT(*) FROM photos p WHERE p.event_id = e.id AND p.state = 'failed') AS photos_failed, \
                (SELECT COUNT(*) FROM faces f \
                    WHERE f.event_id = e.id AND f.model_pair = e.model_pair) AS faces, \
                COALESCE((SELECT s.searches FROM event_searches s WHERE s.event_id = e.id), 0) AS searches, \
                (SELECT COUNT(*) FROM orders o WHERE o.event_id = e.id AND o.payment_status = 'PAID') AS orders_paid, \
                CAST(COALESCE((SELECT SUM(o.paid_amount) FROM orders o WHERE o.event_id = e.id AND o.payment_status = 'PAID'), 0) AS BIGINT) AS revenue \
             FROM events e ORDER BY e.id")
            .fetch_all(pool).await)?)
    }
}
