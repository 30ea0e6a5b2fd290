//! Orders, their photos and their payment trail. An order is written once with the
//! amounts the server computed; afterwards only its payment state, gateway references and
//! delivery flags change, each through a guarded update so that a replayed callback or a
//! re-run job changes nothing twice. Jobs caused by a change are enqueued in the same
//! transaction.

use chrono::{DateTime, Utc};
use raceshot_domain::{
    Bib, EndReason, EventKey, GatewayKind, Money, OrderUuid, PaymentChannel, PaymentStatus,
};
use sqlx::AssertSqlSafe;

use crate::jobs::{NewJob, insert_job};
use crate::macros::{in_tx, on_pool};
use crate::{Pool, Result, Store, StoreError, StoredName, from_millis, millis};

/// An order to write. The amounts come from the server's pricing, never from the browser.
#[derive(Debug, Clone)]
pub struct NewOrder {
    pub uuid: OrderUuid,
    pub event_id: i64,
    pub mobile: String,
    pub email: Option<String>,
    pub deal: bool,
    pub wholesale: bool,
    pub photo_ids: Vec<i64>,
    pub full_amount: Money,
    pub discount: Money,
    pub amount: Money,
    pub payment_fee: Money,
    pub paid_amount: Money,
    pub payment_gateway: GatewayKind,
    pub payment_channel: PaymentChannel,
    /// `Paid` for orders with nothing to pay (FREE), else `Initial`.
    pub payment_status: PaymentStatus,
    /// Same request, same fingerprint: a double submit within the window finds the first.
    pub fingerprint: String,
    pub am_order_ref: Option<OrderUuid>,
    pub expires_at: Option<DateTime<Utc>>,
    /// The photo pass that pays for the order (`photo_passes.id`): redeemed in the
    /// transaction that writes the order.
    pub pass_id: Option<i64>,
    /// The sponsor frame its photos carry, if any.
    pub frame: Option<OrderFrame>,
    /// The finisher certificate it buys, if any.
    pub certificate: Option<OrderCertificate>,
}

/// The finisher certificate an order buys: whose (their bib) and at what price (included
/// in the order's amounts), fixed when it is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderCertificate {
    pub bib: Bib,
    pub price: Money,
}

/// The sponsor frame an order's photos carry, fixed when it is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderFrame {
    /// The frame's file in the event's `frame/` folder.
    pub name: StoredName,
    /// The framed copy is all the order delivers (a free download): neither the original
    /// nor the logo copy.
    pub only: bool,
}

/// What writing an order did.
#[derive(Debug, Clone, PartialEq)]
pub enum Created {
    New(Order),
    /// The same request came in within the window: its first order.
    Repeated(Order),
    /// The order's photo pass had paid for another order: nothing was written.
    PassTaken,
}

impl Created {
    /// The order written or found again; `None` when nothing was written.
    pub fn order(&self) -> Option<&Order> {
        match self {
            Created::New(o) | Created::Repeated(o) => Some(o),
            Created::PassTaken => None,
        }
    }
}

/// An order as stored, with its event's key and title.
#[derive(Debug, Clone, PartialEq)]
pub struct Order {
    pub id: i64,
    pub uuid: OrderUuid,
    pub event_id: i64,
    pub event_key: EventKey,
    pub event_title: String,
    /// The event's date, `YYYY-MM-DD`.
    pub event_date: String,
    pub mobile: String,
    pub email: Option<String>,
    pub deal: bool,
    pub wholesale: bool,
    pub image_count: i64,
    pub full_amount: Money,
    pub discount: Money,
    pub amount: Money,
    pub payment_fee: Money,
    pub paid_amount: Money,
    pub payment_gateway: GatewayKind,
    pub payment_channel: PaymentChannel,
    pub payment_status: PaymentStatus,
    pub gateway_ref: Option<String>,
    pub qrcode_url: Option<String>,
    pub api_response: Option<String>,
    pub am_order_ref: Option<OrderUuid>,
    pub receipt_ref: Option<String>,
    pub is_original_image_created: bool,
    pub is_logo_image_created: bool,
    pub frame: Option<OrderFrame>,
    pub is_frame_image_created: bool,
    pub certificate: Option<OrderCertificate>,
    pub is_send_sms: bool,
    pub is_send_email: bool,
    pub created_at: DateTime<Utc>,
    pub paid_at: Option<DateTime<Utc>>,
    pub expires_at: Option<DateTime<Utc>>,
    pub last_checked_at: Option<DateTime<Utc>>,
    /// Why the shop ended it unpaid, when it did.
    pub end_reason: Option<EndReason>,
    /// Money that reached it after it had ended: an operator refunds it.
    pub refund_due: Option<Money>,
}

impl Order {
    /// Paid, or free: its files may be delivered.
    pub fn is_deliverable(&self) -> bool {
        self.payment_status == PaymentStatus::Paid
    }
}

const ORDER_COLUMNS: &str = "o.id, o.uuid, o.event_id, e.event_key, e.title, e.event_date, \
    o.mobile, o.email, o.is_mhao, o.wholesale, o.image_count, o.full_amount, o.discount, \
    o.amount, o.payment_fee, o.paid_amount, o.payment_gateway, o.payment_channel, \
    o.payment_status, o.gateway_ref, o.qrcode_url, o.api_response, o.am_order_ref, \
    o.receipt_ref, o.is_original_image_created, o.is_logo_image_created, o.is_send_sms, \
    o.is_send_email, o.created_at, o.paid_at, o.expires_at, o.last_checked_at, o.end_reason, \
    o.refund_due, o.frame_name, o.frame_only, o.is_frame_image_created, o.certificate_bib, \
    o.certificate_price";

#[derive(sqlx::FromRow)]
struct OrderRow {
    id: i64,
    uuid: String,
    event_id: i64,
    event_key: String,
    title: String,
    event_date: String,
    mobile: String,
    email: Option<String>,
    is_mhao: bool,
    wholesale: bool,
    image_count: i64,
    full_amount: i64,
    discount: i64,
    amount: i64,
    payment_fee: i64,
    paid_amount: i64,
    payment_gateway: String,
    payment_channel: String,
    payment_status: String,
    gateway_ref: Option<String>,
    qrcode_url: Option<String>,
    api_response: Option<String>,
    am_order_ref: Option<String>,
    receipt_ref: Option<String>,
    is_original_image_created: bool,
    is_logo_image_created: bool,
    is_send_sms: bool,
    is_send_email: bool,
    created_at: i64,
    paid_at: Option<i64>,
    expires_at: Option<i64>,
    last_checked_at: Option<i64>,
    end_reason: Option<String>,
    refund_due: Option<i64>,
    frame_name: Option<String>,
    frame_only: bool,
    is_frame_image_created: bool,
    certificate_bib: Option<String>,
    certificate_price: i64,
}

fn money(satang: i64) -> Result<Money> {
    Money::from_satang(satang).map_err(|_| StoreError::Corrupt(format!("amount {satang}")))
}

fn instant(ms: Option<i64>) -> Result<Option<DateTime<Utc>>> {
    ms.map(from_millis).transpose()
}

impl TryFrom<OrderRow> for Order {
    type Error = StoreError;
    fn try_from(r: OrderRow) -> Result<Self> {
        Ok(Order {
            payment_gateway: r.payment_gateway.parse().map_err(|_| {
                StoreError::Corrupt(format!("payment gateway {}", r.payment_gateway))
            })?,
            payment_channel: PaymentChannel::parse(&r.payment_channel).ok_or_else(|| {
                StoreError::Corrupt(format!("payment channel {}", r.payment_channel))
            })?,
            payment_status: PaymentStatus::parse(&r.payment_status).ok_or_else(|| {
                StoreError::Corrupt(format!("payment status {}", r.payment_status))
            })?,
            full_amount: money(r.full_amount)?,
            discount: money(r.discount)?,
            amount: money(r.amount)?,
            payment_fee: money(r.payment_fee)?,
            paid_amount: money(r.paid_amount)?,
            created_at: from_millis(r.created_at)?,
            paid_at: instant(r.paid_at)?,
            expires_at: instant(r.expires_at)?,
            last_checked_at: instant(r.last_checked_at)?,
            end_reason: r
                .end_reason
                .map(|raw| {
                    EndReason::parse(&raw)
                        .ok_or_else(|| StoreError::Corrupt(format!("end reason {raw}")))
                })
                .transpose()?,
            refund_due: r.refund_due.map(money).transpose()?,
            id: r.id,
            uuid: r
                .uuid
                .try_into()
                .map_err(|_| StoreError::Corrupt("order uuid".into()))?,
            event_id: r.event_id,
            event_key: r.event_key.try_into()?,
            event_title: r.title,
            event_date: r.event_date,
            mobile: r.mobile,
            email: r.email,
            deal: r.is_mhao,
            wholesale: r.wholesale,
            image_count: r.image_count,
            gateway_ref: r.gateway_ref,
            qrcode_url: r.qrcode_url,
            api_response: r.api_response,
            am_order_ref: r
                .am_order_ref
                .map(|u| {
                    u.try_into()
                        .map_err(|_| StoreError::Corrupt("order uuid".into()))
                })
                .transpose()?,
            receipt_ref: r.receipt_ref,
            is_original_image_created: r.is_original_image_created,
            is_logo_image_created: r.is_logo_image_created,
            frame: r
                .frame_name
                .map(|name| {
                    Ok::<_, StoreError>(OrderFrame {
                        name: name.try_into()?,
                        only: r.frame_only,
                    })
                })
                .transpose()?,
            is_frame_image_created: r.is_frame_image_created,
            certificate: r
                .certificate_bib
                .map(|bib| {
                    Ok::<_, StoreError>(OrderCertificate {
                        bib: Bib::from_stored(bib),
                        price: money(r.certificate_price)?,
                    })
                })
                .transpose()?,
            is_send_sms: r.is_send_sms,
            is_send_email: r.is_send_email,
        })
    }
}

/// One photo of an order, in the order the visitor chose.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct OrderPhoto {
    pub id: i64,
    pub original_file_name: String,
    pub storage_name: String,
    pub photographer_id: i64,
    /// Retention removed its original and logo copy.
    pub original_purged: bool,
    /// Hidden at the request of the person in it (an approved privacy request).
    pub held: bool,
}

/// A delivery step of a paid order, recorded once done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryFlag {
    OriginalImages,
    LogoImages,
    FrameImages,
    Sms,
    Email,
}

impl DeliveryFlag {
    fn column(self) -> &'static str {
        match self {
            DeliveryFlag::OriginalImages => "is_original_image_created",
            DeliveryFlag::LogoImages => "is_logo_image_created",
            DeliveryFlag::FrameImages => "is_frame_image_created",
            DeliveryFlag::Sms => "is_send_sms",
            DeliveryFlag::Email => "is_send_email",
        }
    }
}

/// One entry of the payment trail: a request to, or a message from, a gateway.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentEvent<'a> {
    pub gateway: &'a str,
    /// What happened: `create_qr`, `charge`, `callback`, `webhook`, `status_check`,
    /// `operator_confirm`, …
    pub kind: &'a str,
    /// The gateway's id of the message; the trail holds each (gateway, kind, ref) once.
    pub external_ref: Option<&'a str>,
    pub amount: Option<Money>,
    pub status: &'a str,
    pub payload: &'a str,
}

/// A row of the payment trail.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PaymentRecord {
    pub id: i64,
    pub gateway: String,
    pub kind: String,
    pub external_ref: Option<String>,
    pub amount: Option<i64>,
    pub status: String,
    pub payload: String,
    pub created_at: i64,
}

/// A row of the find-order answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundOrder {
    pub id: i64,
    pub uuid: OrderUuid,
    pub mobile: String,
    pub email: Option<String>,
    pub title: String,
    pub status: PaymentStatus,
    pub created_at: DateTime<Utc>,
}

/// What the find-order search looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderLookup<'a> {
    Mobile(&'a str),
    Receipt(&'a str),
}

/// What marking an order paid did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkedPaid {
    /// Paid now; its delivery is enqueued.
    Paid,
    /// Paid already (a replayed confirmation), or ended.
    Unchanged,
    /// It holds a withdrawn photo: cancelled instead.
    Withdrawn,
}

impl MarkedPaid {
    /// Whether this call marked the order paid.
    pub fn paid(self) -> bool {
        self == MarkedPaid::Paid
    }
}

impl Store {
    /// Writes an order and its photos, or finds the one the same request wrote within
    /// `since`. The photos must be ids of shown photos; the caller checked them. A new
    /// order's `jobs`, made for its id once it is known, are enqueued in the same
    /// transaction, and its photo pass, if any, is redeemed in it: [`Created::PassTaken`]
    /// when another order had redeemed it.
    pub async fn create_order(
        &self,
        order: &NewOrder,
        since: DateTime<Utc>,
        jobs: impl Fn(i64) -> Vec<NewJob>,
        now: DateTime<Utc>,
    ) -> Result<Created> {
        let is_postgres = matches!(self.pool, Pool::Postgres(_));
        let lock_key = fingerprint_lock(&order.fingerprint);
        let (created, id) = in_tx!(self, tx => {
            if is_postgres {
                // Two identical requests at once: the second waits here, then finds the first.
                sqlx::query("SELECT pg_advisory_xact_lock($1)")
                    .bind(lock_key).execute(&mut *tx).await?;
            }
            let earlier: Option<(i64,)> = sqlx::query_as(
                "SELECT id FROM orders WHERE request_fingerprint = $1 AND created_at >= $2 \
                    AND payment_status = 'INITIAL' ORDER BY id LIMIT 1")
                .bind(&order.fingerprint).bind(millis(since))
                .fetch_optional(&mut *tx).await?;
            // A pass pays for one order: the same request again finds that order (it is
            // paid, so the query above does not), any other finds the pass taken.
            let redeemer: Option<(i64, String, i64)> = match order.pass_id {
                Some(pass_id) => sqlx::query_as(
                    "SELECT o.id, o.request_fingerprint, o.created_at FROM photo_passes p \
                     JOIN orders o ON o.id = p.order_id WHERE p.id = $1")
                    .bind(pass_id).fetch_optional(&mut *tx).await?,
                None => None,
            };
            let earlier = earlier.or(match redeemer {
                Some((id, fingerprint, at))
                    if fingerprint == order.fingerprint && at >= millis(since) => Some((id,)),
                Some(_) => return Ok(Created::PassTaken),
                None => None,
            });
            match earlier {
                Some((id,)) => (false, id),
                None => {
                    let count = i64::try_from(order.photo_ids.len()).unwrap_or(i64::MAX);
                    let (id,): (i64,) = sqlx::query_as(
                        "INSERT INTO orders (uuid, event_id, mobile, email, is_mhao, wholesale, \
                            image_count, full_amount, discount, amount, payment_fee, paid_amount, \
                            payment_gateway, payment_channel, payment_status, am_order_ref, \
                            request_fingerprint, created_at, updated_at, paid_at, expires_at, \
                            frame_name, frame_only, certificate_bib, certificate_price) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, \
                            $15, $16, $17, $18, $18, $19, $20, $21, $22, $23, $24) RETURNING id")
                        .bind(order.uuid.to_string()).bind(order.event_id).bind(&order.mobile)
                        .bind(order.email.as_deref()).bind(order.deal).bind(order.wholesale)
                        .bind(count).bind(order.full_amount.satang()).bind(order.discount.satang())
                        .bind(order.amount.satang()).bind(order.payment_fee.satang())
                        .bind(order.paid_amount.satang()).bind(order.payment_gateway.as_str())
                        .bind(order.payment_channel.as_str()).bind(order.payment_status.as_str())
                        .bind(order.am_order_ref.map(|u| u.to_string())).bind(&order.fingerprint)
                        .bind(millis(now))
                        .bind((order.payment_status == PaymentStatus::Paid).then(|| millis(now)))
                        .bind(order.expires_at.map(millis))
                        .bind(order.frame.as_ref().map(|f| f.name.as_str()))
                        .bind(order.frame.as_ref().is_some_and(|f| f.only))
                        .bind(order.certificate.as_ref().map(|c| c.bib.as_str()))
                        .bind(order.certificate.as_ref().map_or(0, |c| c.price.satang()))
                        .fetch_one(&mut *tx).await?;
                    for (position, photo_id) in order.photo_ids.iter().enumerate() {
                        sqlx::query(
                            "INSERT INTO order_images (order_id, photo_id, position) VALUES ($1, $2, $3)")
                            .bind(id).bind(*photo_id)
                            .bind(i64::try_from(position).unwrap_or(i64::MAX))
                            .execute(&mut *tx).await?;
                    }
                    if let Some(pass_id) = order.pass_id {
                        // Two orders with one pass at once: the second finds it redeemed
                        // here (Postgres waits for the first to commit), and writes nothing.
                        let redeemed = sqlx::query(
                            "UPDATE photo_passes SET redeemed_at = $1, order_id = $2 \
                             WHERE id = $3 AND redeemed_at IS NULL")
                            .bind(millis(now)).bind(id).bind(pass_id)
                            .execute(&mut *tx).await?.rows_affected();
                        if redeemed != 1 {
                            return Ok(Created::PassTaken);
                        }
                    }
                    for job in jobs(id) {
                        insert_job!(&mut *tx, &job, now);
                    }
                    (true, id)
                }
            }
        });
        let stored = self
            .order_by_id(id)
            .await?
            .ok_or_else(|| StoreError::Corrupt(format!("order {id} vanished")))?;
        Ok(if created {
            Created::New(stored)
        } else {
            Created::Repeated(stored)
        })
    }

    pub async fn order_by_uuid(&self, uuid: OrderUuid) -> Result<Option<Order>> {
        self.order_where(OrderKey::Uuid(uuid)).await
    }

    pub async fn order_by_id(&self, id: i64) -> Result<Option<Order>> {
        self.order_where(OrderKey::Id(id)).await
    }

    async fn order_where(&self, key: OrderKey) -> Result<Option<Order>> {
        let filter = match key {
            OrderKey::Id(_) => "o.id = $1",
            OrderKey::Uuid(_) => "o.uuid = $1",
        };
        let sql = format!(
            "SELECT {ORDER_COLUMNS} FROM orders o JOIN events e ON e.id = o.event_id WHERE {filter}"
        );
        let row: Option<OrderRow> = on_pool!(self, pool => {
            let q = sqlx::query_as(AssertSqlSafe(sql.clone()));
            let q = match key {
                OrderKey::Id(id) => q.bind(id),
                OrderKey::Uuid(uuid) => q.bind(uuid.to_string()),
            };
            q.fetch_optional(pool).await
        })?;
        row.map(Order::try_from).transpose()
    }

    /// The order's photos in the visitor's order.
    pub async fn order_photos(&self, order_id: i64) -> Result<Vec<OrderPhoto>> {
        Ok(on_pool!(self, pool => sqlx::query_as(
            "SELECT p.id, p.original_file_name, p.storage_name, p.photographer_id, \
                p.original_purged, \
                EXISTS (SELECT 1 FROM privacy_holds h WHERE h.photo_id = p.id) AS held \
             FROM order_images i JOIN photos p ON p.id = i.photo_id \
             WHERE i.order_id = $1 ORDER BY i.position")
            .bind(order_id).fetch_all(pool).await)?)
    }

    /// Records how the gateway will be paid: its reference for the payment, the QR or
    /// payment address, its answer, and when the payment window closes.
    pub async fn set_order_payment(
        &self,
        order_id: i64,
        gateway_ref: Option<&str>,
        qrcode_url: Option<&str>,
        api_response: Option<&str>,
        expires_at: Option<DateTime<Utc>>,
        now: DateTime<Utc>,
    ) -> Result<()> {
        on_pool!(self, pool => sqlx::query(
            "UPDATE orders SET gateway_ref = COALESCE($2, gateway_ref), \
                qrcode_url = COALESCE($3, qrcode_url), api_response = COALESCE($4, api_response), \
                expires_at = COALESCE($5, expires_at), updated_at = $6 WHERE id = $1")
            .bind(order_id).bind(gateway_ref).bind(qrcode_url).bind(api_response)
            .bind(expires_at.map(millis)).bind(millis(now))
            .execute(pool).await.map(|r| r.rows_affected()))?;
        Ok(())
    }

    /// Notes that the gateway was just asked about the order; `false` when another request
    /// did so after `since` (so this one need not).
    pub async fn claim_order_check(
        &self,
        order_id: i64,
        since: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let done = on_pool!(self, pool => sqlx::query(
            "UPDATE orders SET last_checked_at = $3 WHERE id = $1 \
             AND (last_checked_at IS NULL OR last_checked_at < $2)")
            .bind(order_id).bind(millis(since)).bind(millis(now))
            .execute(pool).await.map(|r| r.rows_affected()))?;
        Ok(done == 1)
    }

    /// Adds an entry to the order's payment trail; `false` when the trail already holds
    /// this (gateway, kind, external ref): a replayed message.
    pub async fn record_payment_event(
        &self,
        order_id: i64,
        event: &PaymentEvent<'_>,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let inserted: Option<(i64,)> = on_pool!(self, pool => sqlx::query_as(
            "INSERT INTO payments (order_id, gateway, kind, external_ref, amount, status, payload, \
                created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
             ON CONFLICT (gateway, kind, external_ref) DO NOTHING RETURNING id")
            .bind(order_id).bind(event.gateway).bind(event.kind).bind(event.external_ref)
            .bind(event.amount.map(Money::satang)).bind(event.status).bind(event.payload)
            .bind(millis(now))
            .fetch_optional(pool).await)?;
        Ok(inserted.is_some())
    }

    /// The order's payment trail, oldest first.
    pub async fn payment_trail(&self, order_id: i64) -> Result<Vec<PaymentRecord>> {
        Ok(on_pool!(self, pool => sqlx::query_as(
            "SELECT id, gateway, kind, external_ref, amount, status, payload, created_at \
             FROM payments WHERE order_id = $1 ORDER BY id")
            .bind(order_id).fetch_all(pool).await)?)
    }

    /// Marks an unpaid order paid and enqueues its delivery jobs, once. An expired order is
    /// still marked paid: the gateway confirmed that the money arrived. An order holding a
    /// photo hidden at the request of the person in it is not: it is cancelled instead
    /// (it was placed before the hold, or raced it), so that nobody pays for a photo that
    /// will not be delivered.
    pub async fn mark_order_paid(
        &self,
        order_id: i64,
        receipt_ref: Option<&str>,
        jobs: &[NewJob],
        now: DateTime<Utc>,
    ) -> Result<MarkedPaid> {
        let marked = in_tx!(self, tx => {
            let held: Option<(i64,)> = sqlx::query_as(
                "SELECT i.photo_id FROM order_images i \
                 JOIN privacy_holds h ON h.photo_id = i.photo_id WHERE i.order_id = $1 LIMIT 1")
                .bind(order_id).fetch_optional(&mut *tx).await?;
            if held.is_some() {
                sqlx::query(
                    "UPDATE orders SET payment_status = 'CANCELLED', end_reason = $2, \
                        updated_at = $3 \
                     WHERE id = $1 AND payment_status IN ('INITIAL', 'EXPIRED')")
                    .bind(order_id).bind(EndReason::PhotoWithdrawn.as_str()).bind(millis(now))
                    .execute(&mut *tx).await?;
                MarkedPaid::Withdrawn
            } else {
                let done = sqlx::query(
                    "UPDATE orders SET payment_status = 'PAID', paid_at = $2, updated_at = $2, \
                        receipt_ref = COALESCE($3, receipt_ref) \
                     WHERE id = $1 AND payment_status IN ('INITIAL', 'EXPIRED')")
                    .bind(order_id).bind(millis(now)).bind(receipt_ref)
                    .execute(&mut *tx).await?;
                if done.rows_affected() == 1 {
                    for job in jobs {
                        insert_job!(&mut *tx, job, now);
                    }
                    MarkedPaid::Paid
                } else {
                    MarkedPaid::Unchanged
                }
            }
        });
        Ok(marked)
    }

    /// Notes that the order's payment reached it after it had ended (cancelled): an
    /// operator refunds `amount`. Setting it again changes nothing (a replayed message).
    pub async fn note_refund_due(
        &self,
        order_id: i64,
        amount: Money,
        now: DateTime<Utc>,
    ) -> Result<()> {
        on_pool!(self, pool => sqlx::query(
            "UPDATE orders SET refund_due = $2, updated_at = $3 \
             WHERE id = $1 AND payment_status = 'CANCELLED'")
            .bind(order_id).bind(amount.satang()).bind(millis(now))
            .execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// Ends an unpaid order as `Expired` or `Cancelled` (other statuses are refused);
    /// `false` when it was not unpaid.
    pub async fn end_unpaid_order(
        &self,
        order_id: i64,
        status: PaymentStatus,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        if !matches!(status, PaymentStatus::Expired | PaymentStatus::Cancelled) {
            return Ok(false);
        }
        let done = on_pool!(self, pool => sqlx::query(
            "UPDATE orders SET payment_status = $2, updated_at = $3 \
             WHERE id = $1 AND payment_status = 'INITIAL'")
            .bind(order_id).bind(status.as_str()).bind(millis(now))
            .execute(pool).await.map(|r| r.rows_affected()))?;
        Ok(done == 1)
    }

    /// Expires every unpaid order whose payment window closed before `now`.
    pub async fn expire_orders(&self, now: DateTime<Utc>) -> Result<u64> {
        let done = on_pool!(self, pool => sqlx::query(
            "UPDATE orders SET payment_status = 'EXPIRED', updated_at = $1 \
             WHERE payment_status = 'INITIAL' AND expires_at IS NOT NULL AND expires_at < $1")
            .bind(millis(now)).execute(pool).await.map(|r| r.rows_affected()))?;
        Ok(done)
    }

    /// Records a finished delivery step.
    pub async fn set_delivery_flag(
        &self,
        order_id: i64,
        flag: DeliveryFlag,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let sql = format!(
            "UPDATE orders SET {} = TRUE, updated_at = $2 WHERE id = $1",
            flag.column()
        );
        on_pool!(self, pool => sqlx::query(AssertSqlSafe(sql.clone()))
            .bind(order_id).bind(millis(now)).execute(pool).await.map(|r| r.rows_affected()))?;
        Ok(())
    }

    /// The orders the find-order page lists, newest first.
    pub async fn find_orders(
        &self,
        lookup: OrderLookup<'_>,
        limit: i64,
    ) -> Result<Vec<FoundOrder>> {
        let (filter, value) = match lookup {
            OrderLookup::Mobile(m) => ("o.mobile = $1", m),
            OrderLookup::Receipt(r) => ("o.receipt_ref = $1", r),
        };
        let sql = format!(
            "SELECT o.id, o.uuid, o.mobile, o.email, e.title, o.payment_status, o.created_at \
             FROM orders o JOIN events e ON e.id = o.event_id WHERE {filter} \
             ORDER BY o.id DESC LIMIT $2"
        );
        type Row = (i64, String, String, Option<String>, String, String, i64);
        let rows: Vec<Row> = on_pool!(self, pool =>
            sqlx::query_as(AssertSqlSafe(sql.clone())).bind(value).bind(limit).fetch_all(pool).await)?;
        rows.into_iter()
            .map(|(id, uuid, mobile, email, title, status, created)| {
                Ok(FoundOrder {
                    id,
                    mobile,
                    email,
                    status: PaymentStatus::parse(&status)
                        .ok_or_else(|| StoreError::Corrupt(format!("payment status {status}")))?,
                    created_at: from_millis(created)?,
                    uuid: uuid
                        .try_into()
                        .map_err(|_| StoreError::Corrupt("order uuid".into()))?,
                    title,
                })
            })
            .collect()
    }

    /// The newest paid all-photos order of this mobile number for the event: what a
    /// request for extra photos refers to.
    pub async fn last_paid_deal_order(
        &self,
        event_id: i64,
        mobile: &str,
    ) -> Result<Option<OrderUuid>> {
        let row: Option<(String,)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT uuid FROM orders WHERE event_id = $1 AND mobile = $2 AND is_mhao \
                AND payment_status = 'PAID' ORDER BY id DESC LIMIT 1")
            .bind(event_id).bind(mobile).fetch_optional(pool).await)?;
        row.map(|(u,)| {
            u.try_into()
                .map_err(|_| StoreError::Corrupt("order uuid".into()))
        })
        .transpose()
    }

    /// Photos of events dated before `cutoff` (`YYYY-MM-DD`) whose originals are still
    /// kept, at most `limit`: what retention purges next.
    pub async fn photos_past_retention(
        &self,
        cutoff: &str,
        limit: i64,
    ) -> Result<Vec<(i64, EventKey, StoredName)>> {
        let rows: Vec<(i64, String, String)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT p.id, e.event_key, p.storage_name FROM photos p \
             JOIN events e ON e.id = p.event_id \
             WHERE e.event_date < $1 AND NOT p.original_purged ORDER BY p.id LIMIT $2")
            .bind(cutoff).bind(limit).fetch_all(pool).await)?;
        rows.into_iter()
            .map(|(id, key, name)| Ok((id, key.try_into()?, name.try_into()?)))
            .collect()
    }

    /// Notes that a photo's original and logo copy are gone.
    pub async fn mark_original_purged(&self, photo_id: i64, now: DateTime<Utc>) -> Result<()> {
        on_pool!(self, pool => sqlx::query(
            "UPDATE photos SET original_purged = TRUE, updated_at = $2 WHERE id = $1")
            .bind(photo_id).bind(millis(now)).execute(pool).await.map(|r| r.rows_affected()))?;
        Ok(())
    }
}

#[derive(Clone, Copy)]
enum OrderKey {
    Id(i64),
    Uuid(OrderUuid),
}

/// A stable 64-bit lock number for a request fingerprint (FNV-1a).
fn fingerprint_lock(fingerprint: &str) -> i64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in fingerprint.bytes() {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    i64::from_ne_bytes(hash.to_ne_bytes())
}

/// What the console's order list is narrowed to; every part is optional.
#[derive(Debug, Clone, Default)]
pub struct OrderFilter {
    pub event_key: Option<String>,
    pub status: Option<PaymentStatus>,
    pub channel: Option<PaymentChannel>,
    pub mobile: Option<String>,
    /// Created at or after.
    pub from: Option<DateTime<Utc>>,
    /// Created before.
    pub until: Option<DateTime<Utc>>,
}

impl Store {
    /// Orders matching `filter`, newest first, one page of them, and how many match.
    pub async fn list_orders(
        &self,
        filter: &OrderFilter,
        offset: i64,
        limit: i64,
    ) -> Result<(Vec<Order>, i64)> {
        const WHERE: &str = "($1 IS NULL OR e.event_key = $1) AND ($2 IS NULL OR o.payment_status = $2) \
            AND ($3 IS NULL OR o.payment_channel = $3) AND ($4 IS NULL OR o.mobile = $4) \
            AND ($5 IS NULL OR o.created_at >= $5) AND ($6 IS NULL OR o.created_at < $6)";
        let list = format!(
            "SELECT {ORDER_COLUMNS} FROM orders o JOIN events e ON e.id = o.event_id \
             WHERE {WHERE} ORDER BY o.id DESC LIMIT $7 OFFSET $8"
        );
        let count = format!(
            "SELECT COUNT(*) FROM orders o JOIN events e ON e.id = o.event_id WHERE {WHERE}"
        );
        let status = filter.status.map(PaymentStatus::as_str);
        let channel = filter.channel.map(PaymentChannel::as_str);
        let from = filter.from.map(millis);
        let until = filter.until.map(millis);
        let rows: Vec<OrderRow> = on_pool!(self, pool => sqlx::query_as(AssertSqlSafe(list.clone()))
            .bind(filter.event_key.as_deref()).bind(status).bind(channel)
            .bind(filter.mobile.as_deref()).bind(from).bind(until).bind(limit).bind(offset)
            .fetch_all(pool).await)?;
        let (total,): (i64,) = on_pool!(self, pool => sqlx::query_as(AssertSqlSafe(count.clone()))
            .bind(filter.event_key.as_deref()).bind(status).bind(channel)
            .bind(filter.mobile.as_deref()).bind(from).bind(until)
            .fetch_one(pool).await)?;
        let orders = rows
            .into_iter()
            .map(Order::try_from)
            .collect::<Result<Vec<_>>>()?;
        Ok((orders, total))
    }
}
