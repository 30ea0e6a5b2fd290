//! `notify_order`: the news that a paid order's photos are ready, as rows queued by
//! earlier versions hold it: it now enqueues one [`SendMessage`](super::send_message::SendMessage) per channel (e-mail, SMS,
//! LINE), each sent at most once. Orders paid now enqueue those at once
//! ([`super::JobQueue::paid_order`]).

use super::kinds::NotifyOrder;
use super::{BackgroundJob, JobContext, JobError};
use crate::services::messages::MessageKind;

impl BackgroundJob for NotifyOrder {
    async fn run(&self, ctx: &JobContext<'_>) -> Result<(), JobError> {
        let jobs = ctx
            .state
            .jobs
            .messages(MessageKind::OrderReady, &self.order_id.to_string());
        Ok(ctx.state.jobs.enqueue_all(&jobs).await?)
    }
}
