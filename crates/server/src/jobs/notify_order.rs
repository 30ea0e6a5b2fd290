//! `notify_order`: tells the buyer of a paid order that the photos are ready — an e-mail
//! when they left an address, and a text message — and records each once a provider
//! accepted it (`is_send_email`, `is_send_sms`; a message only logged, with no SMTP server
//! or SMS gateway set up, does not count). A re-run sends only what was not sent yet; an
//! address no mail can reach ends the job at once (`Permanent`), not after every retry.

use chrono::{DateTime, Utc};
use raceshot_domain::PaymentChannel;
use raceshot_store::orders::{DeliveryFlag, Order};

use super::{BackgroundJob, JobContext, JobError};
use crate::app::state::AppState;
use crate::infra::notify::{OrderReady, Sent, is_undeliverable, order_ready_mail, order_ready_sms};
use crate::services::commerce::links;

/// Mails `email` that the order's photos are ready; answers whether a mail server took
/// it (without an SMTP server the mail is only logged).
pub async fn mail_order_ready(
    state: &AppState,
    order: &Order,
    email: &str,
) -> anyhow::Result<bool> {
    let url = links::order_page_url(state, &order.uuid);
    let sent = state
        .live()
        .mailer
        .send(&order_ready_mail(email, &ready(state, order, &url)))
        .await?;
    Ok(sent == Sent::Delivered)
}

fn ready<'a>(state: &AppState, order: &'a Order, url: &'a str) -> OrderReady<'a> {
    OrderReady {
        order_uuid: &order.uuid,
        order_url: url,
        event_title: &order.event_title,
        photo_count: usize::try_from(order.image_count).unwrap_or(0),
        free: order.payment_channel == PaymentChannel::Free,
        kept_days: state.live().retention_days,
    }
}

/// Telling a paid order's buyer that the photos are ready: at most one per order.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NotifyOrder {
    pub order_id: i64,
}

impl BackgroundJob for NotifyOrder {
    const KIND: &'static str = "notify_order";

    fn dedupe_key(&self, _at: DateTime<Utc>) -> String {
        self.order_id.to_string()
    }

    async fn run(&self, ctx: &JobContext<'_>) -> Result<(), JobError> {
        notify(ctx.state, self.order_id).await
    }
}

async fn notify(state: &AppState, order_id: i64) -> Result<(), JobError> {
    let Some(order) = super::paid_order(state, order_id).await? else {
        return Ok(());
    };
    // Without a provider a message is only logged, and not counted as sent. An address no
    // mail can reach fails the job for good, after the text message below is sent: sending
    // again would only fail again.
    let mut undeliverable = None;
    if let Some(email) = order.email.as_deref().filter(|_| !order.is_send_email) {
        match mail_order_ready(state, &order, email).await {
            Ok(true) => {
                state
                    .store
                    .set_delivery_flag(order.id, DeliveryFlag::Email, state.now())
                    .await?;
            }
            Ok(false) => {}
            Err(e) if is_undeliverable(&e) => undeliverable = Some(e),
            Err(e) => return Err(e.into()),
        }
    }
    if !order.is_send_sms {
        let url = links::order_page_url(state, &order.uuid);
        let sent = state
            .live()
            .sms
            .send(&order.mobile, &order_ready_sms(&ready(state, &order, &url)))
            .await?;
        if sent == Sent::Delivered {
            state
                .store
                .set_delivery_flag(order.id, DeliveryFlag::Sms, state.now())
                .await?;
        }
    }
    match undeliverable {
        Some(e) => Err(JobError::Permanent(format!("{e:#}"))),
        None => Ok(()),
    }
}
