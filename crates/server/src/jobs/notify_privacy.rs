//! `notify_privacy`: tells a privacy request's requester of the operator's decision — an
//! e-mail to an address, a text message to a mobile number — and records it once a
//! provider accepted it. A re-run after that sends nothing.

use chrono::{DateTime, Utc};
use raceshot_store::privacy::PrivacyState;

use super::{BackgroundJob, JobContext, JobError};
use crate::app::state::AppState;
use crate::infra::notify::{PrivacyDecision, Sent, privacy_decision_mail, privacy_decision_sms};

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
        notify(ctx.state, &self.request_id).await
    }
}

async fn notify(state: &AppState, id: &str) -> Result<(), JobError> {
    let Some(request) = state.store.privacy_request(id).await? else {
        return Ok(());
    };
    if request.notified || request.state == PrivacyState::Pending {
        return Ok(());
    }
    let decision = PrivacyDecision {
        event_title: &request.event_title,
        approved: request.state == PrivacyState::Approved,
        hidden: usize::try_from(request.held).unwrap_or(0),
    };
    let sent = if request.contact.contains('@') {
        state
            .live()
            .mailer
            .send(&privacy_decision_mail(&request.contact, &decision))
            .await?
    } else {
        state
            .live()
            .sms
            .send(&request.contact, &privacy_decision_sms(&decision))
            .await?
    };
    // Only logged (no provider configured): not told, and not counted as told.
    if sent == Sent::Delivered {
        state.store.mark_privacy_notified(id).await?;
    }
    Ok(())
}
