//! `notify_order`: the news that a paid order's photos are ready, as rows queued by
//! earlier versions hold it: it now enqueues one [`SendMessage`](super::send_message::SendMessage) per channel (e-mail, SMS,
//! LINE), each sent at most once. Orders paid now enqueue those at once
//! ([`super::tasks::paid_order`]).

use chrono::{DateTime, Utc};

use super::{BackgroundJob, JobContext, JobError, tasks};
use crate::services::messages::MessageKind;

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
        let jobs = tasks::messages(
            ctx.state,
            MessageKind::OrderReady,
            &self.order_id.to_string(),
        );
        tasks::enqueue_all(ctx.state, &jobs).await
    }
}
