//! `notify_order`: tells the buyer of a paid order that the photos are ready — an e-mail
//! when they left an address, and a text message — and records each once sent
//! (`is_send_email`, `is_send_sms`; a mail that was only logged, with no SMTP server set
//! up, does not count). A re-run sends only what was not sent yet.

use raceshot_domain::PaymentChannel;
use raceshot_store::jobs::{Job, NewJob};
use raceshot_store::orders::DeliveryFlag;

use super::JobError;
use crate::commerce::links;
use crate::notify::{Mailer, OrderReady, order_ready_mail, order_ready_sms};
use crate::state::AppState;

pub const KIND: &str = "notify_order";

/// The job for a paid order; the store fills in the order id.
pub fn job(state: &AppState) -> NewJob {
    super::new_job(
        KIND,
        serde_json::json!({}),
        format!("{KIND}:{{order}}"),
        state,
        state.now(),
    )
}

pub async fn run(state: &AppState, job: &Job) -> Result<(), JobError> {
    let Some(order) = super::paid_order(state, job).await? else {
        return Ok(());
    };
    let url = links::order_page_url(state, &order.uuid);
    let ready = OrderReady {
        order_uuid: &order.uuid,
        order_url: &url,
        event_title: &order.event_title,
        photo_count: usize::try_from(order.image_count).unwrap_or(0),
        free: order.payment_channel == PaymentChannel::Free,
        kept_days: state.config.orders.retention_days,
    };
    // Without an SMTP server the mail is only logged, and not counted as sent.
    let can_mail = matches!(state.mailer, Mailer::Smtp(_));
    if let Some(email) = order.email.as_deref().filter(|_| !order.is_send_email) {
        state.mailer.send(&order_ready_mail(email, &ready)).await?;
        if can_mail {
            state
                .store
                .set_delivery_flag(order.id, DeliveryFlag::Email, state.now())
                .await?;
        }
    }
    if !order.is_send_sms {
        state
            .sms
            .send(&order.mobile, &order_ready_sms(&ready))
            .await?;
        state
            .store
            .set_delivery_flag(order.id, DeliveryFlag::Sms, state.now())
            .await?;
    }
    Ok(())
}
