//! `notify_privacy`: tells a privacy request's requester of the operator's decision — an
//! e-mail to an address, a text message to a mobile number — and records it once a
//! provider accepted it. A re-run after that sends nothing.

use raceshot_store::jobs::Job;
use raceshot_store::privacy::PrivacyState;

use super::JobError;
use crate::app::state::AppState;
use crate::infra::notify::{PrivacyDecision, Sent, privacy_decision_mail, privacy_decision_sms};

pub const KIND: &str = crate::jobs::tasks::NOTIFY_PRIVACY;

pub async fn run(state: &AppState, job: &Job) -> Result<(), JobError> {
    let id = serde_json::from_str::<serde_json::Value>(&job.payload)
        .ok()
        .and_then(|v| v["request_id"].as_str().map(str::to_owned))
        .ok_or_else(|| JobError::Permanent(format!("bad payload {}", job.payload)))?;
    let Some(request) = state.store.privacy_request(&id).await? else {
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
            .sms
            .send(&request.contact, &privacy_decision_sms(&decision))
            .await?
    };
    // Only logged (no provider configured): not told, and not counted as told.
    if sent == Sent::Delivered {
        state.store.mark_privacy_notified(&id).await?;
    }
    Ok(())
}
