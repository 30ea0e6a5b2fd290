//! What a job kind does: its stored format is a [`Job`] in `jobs::kinds`; its
//! [`BackgroundJob`] impl, in a file of its own, is its work and what happens when it fails
//! for good. `jobs::registry` lists the kinds the workers run; `jobs::queue` enqueues them.

use std::future::Future;

use super::kinds::Job;
use crate::app::state::AppState;

/// How a job failed.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// Retrying cannot help (a corrupt file): give up now.
    #[error("{0}")]
    Permanent(String),
    /// Might work later (storage or database trouble).
    #[error(transparent)]
    Retry(#[from] anyhow::Error),
}

impl From<raceshot_store::StoreError> for JobError {
    fn from(e: raceshot_store::StoreError) -> Self {
        JobError::Retry(e.into())
    }
}

/// What a running job has to hand: the shop, and its own lease.
pub struct JobContext<'a> {
    pub state: &'a AppState,
    /// The job's row.
    pub job_id: i64,
    /// The worker holding the job's lease.
    pub worker: &'a str,
}

impl JobContext<'_> {
    /// Extends the job's lease by `jobs.lease`, between batches of a long job. A lease
    /// already lost is not an error here: the work is idempotent, and the runner finds out
    /// when it records the outcome.
    pub async fn renew_lease(&self) -> Result<(), JobError> {
        let state = self.state;
        state
            .store
            .extend_job_lease(
                self.job_id,
                self.worker,
                state.config.jobs.lease,
                state.now(),
            )
            .await?;
        Ok(())
    }
}

/// What a kind of job does; its value (a [`Job`]) is the job's payload.
pub trait BackgroundJob: Job {
    /// Does the work. A job whose worker died runs again once its lease lapses, so this
    /// must be idempotent.
    fn run(&self, ctx: &JobContext<'_>) -> impl Future<Output = Result<(), JobError>> + Send;

    /// Called once the job has failed for good (a permanent error, or its retries ran
    /// out) with its last error. Does nothing unless a kind says otherwise.
    fn gave_up(&self, ctx: &JobContext<'_>, error: &str) -> impl Future<Output = ()> + Send {
        let _ = (ctx, error);
        async {}
    }
}
