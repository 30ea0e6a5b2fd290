//! `notify_privacy`: the decision on a privacy request, as rows queued by earlier versions
//! hold it: it now enqueues the [`SendMessage`](super::send_message::SendMessage)s that tell the requester (by e-mail or
//! SMS, whichever their contact is), each sent at most once.

use chrono::{DateTime, Utc};

use super::{BackgroundJob, JobContext, JobError, tasks};
use crate::services::messages::MessageKind;

/// Telling a privacy request's requester of the decision: at most one per request.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NotifyPrivacy {
    pub request_id: String,
}

impl BackgroundJob for NotifyPrivacy {
    const KIND: &'static str = "notify_privacy";

    fn dedupe_key(&self, _at: DateTime<Utc>) -> String {
        self.request_id.clone()
    }

    async fn run(&self, ctx: &JobContext<'_>) -> Result<(), JobError> {
        let jobs = tasks::messages(ctx.state, MessageKind::PrivacyDecision, &self.request_id);
        tasks::enqueue_all(ctx.state, &jobs).await
    }
}
