//! How a job is enqueued: a typed job ([`BackgroundJob`]) becomes the store's row, its
//! payload serialised once. Services (placing and paying orders, adding photos) and the
//! housekeeping loop enqueue through here, inside the transaction of the write that causes
//! the job where there is one; the runner in `jobs` carries the jobs out.

use chrono::{DateTime, Utc};
use raceshot_store::jobs::NewJob;

use super::deliver_order::DeliverOrder;
use super::job::{BackgroundJob, JobError};
use super::send_message::SendMessage;
use crate::app::state::AppState;
use crate::infra::channels::ChannelKind;
use crate::services::messages::MessageKind;

/// Photo processing: CPU-heavy, one job per core.
pub const HEAVY: &str = "heavy";
/// Messages: short waits on providers, one worker per process beside the heavy ones, so
/// a message never waits behind a morning's photos.
pub const LIGHT: &str = "light";

/// The row for `job`, enqueued at `at` and due then.
pub fn new_job<J: BackgroundJob>(state: &AppState, job: &J, at: DateTime<Utc>) -> NewJob {
    // A job's fields are plain numbers and strings, whose serialisation cannot fail; were
    // it to, the job would fail for good at once with an unreadable payload.
    let payload = serde_json::to_value(job).unwrap_or_else(|e| {
        tracing::error!(kind = J::KIND, error = %e, "cannot serialise a job");
        serde_json::Value::Null
    });
    NewJob {
        queue: J::queue().to_owned(),
        kind: J::KIND.to_owned(),
        payload,
        dedupe_key: Some(dedupe_key(job, at)),
        max_attempts: state.config.jobs.max_attempts,
        run_at: at,
    }
}

/// The key at most one job of it ever has: `{KIND}:{…}`.
pub fn dedupe_key<J: BackgroundJob>(job: &J, at: DateTime<Utc>) -> String {
    format!("{}:{}", J::KIND, job.dedupe_key(at))
}

/// The jobs a paid order sets off, enqueued with the payment: its files, then the news.
pub fn paid_order(state: &AppState, order_id: i64) -> Vec<NewJob> {
    let now = state.now();
    let mut jobs = vec![new_job(state, &DeliverOrder { order_id }, now)];
    jobs.extend(messages(
        state,
        MessageKind::OrderReady,
        &order_id.to_string(),
    ));
    jobs
}

/// The jobs that send a message about `subject` through every channel; each finds whether
/// its recipient has that channel.
pub fn messages(state: &AppState, kind: MessageKind, subject: &str) -> Vec<NewJob> {
    ChannelKind::ALL
        .into_iter()
        .map(|channel| message(state, kind, subject, channel))
        .collect()
}

/// The job that sends a message about `subject` through one channel.
pub fn message(state: &AppState, kind: MessageKind, subject: &str, channel: ChannelKind) -> NewJob {
    let job = SendMessage {
        kind,
        subject: subject.to_owned(),
        channel,
    };
    new_job(state, &job, state.now())
}

/// Enqueues `jobs` (each at most once, by its dedupe key) and wakes the workers.
pub async fn enqueue_all(state: &AppState, jobs: &[NewJob]) -> Result<(), JobError> {
    for job in jobs {
        state.store.enqueue(job, state.now()).await?;
    }
    state.wake_workers();
    Ok(())
}
