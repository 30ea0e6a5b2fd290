//! `notify_privacy`: the decision on a privacy request, as rows queued by earlier versions
//! hold it: it now enqueues the [`SendMessage`](super::send_message::SendMessage)s that tell the requester (by e-mail or
//! SMS, whichever their contact is), each sent at most once.

use super::kinds::NotifyPrivacy;
use super::{BackgroundJob, JobContext, JobError};
use crate::services::messages::MessageKind;

impl BackgroundJob for NotifyPrivacy {
    async fn run(&self, ctx: &JobContext<'_>) -> Result<(), JobError> {
        let jobs = ctx
            .state
            .jobs
            .messages(MessageKind::PrivacyDecision, &self.request_id);
        Ok(ctx.state.jobs.enqueue_all(&jobs).await?)
    }
}
