//! How a job is enqueued: [`JobQueue`], the handle services and the housekeeping loop hold,
//! turns a typed job ([`Job`]) into the store's row, its payload serialised once,
//! enqueues it (inside the transaction of the write that causes the job where there is
//! one) and wakes this process's workers; the runner in `jobs` carries the jobs out.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use raceshot_store::Store;
use raceshot_store::jobs::NewJob;
use tokio::sync::Notify;
use tokio::sync::futures::Notified;

use super::kinds::{DeliverOrder, Job, SendMessage};
use crate::infra::channels::ChannelKind;
use crate::infra::clock::Clock;
use crate::services::messages::MessageKind;

/// The queue of background jobs as the services see it: rows to enqueue, and the wake-up
/// of this process's idle workers. Cheap to clone.
#[derive(Clone)]
pub struct JobQueue {
    store: Store,
    /// `jobs.max_attempts`, written on every row.
    max_attempts: u32,
    clock: Clock,
    /// Wakes this process's idle workers when a job is queued, so a photo is worked on at
    /// once rather than at their next poll (workers in other processes still poll).
    queued: Arc<Notify>,
}

impl JobQueue {
    pub fn new(store: Store, max_attempts: u32, clock: Clock) -> Self {
        Self {
            store,
            max_attempts,
            clock,
            queued: Arc::new(Notify::new()),
        }
    }

    /// The row for `job`, enqueued at `at` and due then.
    pub fn row<J: Job>(&self, job: &J, at: DateTime<Utc>) -> NewJob {
        // A job's fields are plain numbers and strings, whose serialisation cannot fail;
        // were it to, the job would fail for good at once with an unreadable payload.
        let payload = serde_json::to_value(job).unwrap_or_else(|e| {
            tracing::error!(kind = J::KIND, error = %e, "cannot serialise a job");
            serde_json::Value::Null
        });
        NewJob {
            queue: J::queue().to_owned(),
            kind: J::KIND.to_owned(),
            payload,
            dedupe_key: Some(dedupe_key(job, at)),
            max_attempts: self.max_attempts,
            run_at: at,
        }
    }

    /// The row for `job`, due now.
    pub fn row_now<J: Job>(&self, job: &J) -> NewJob {
        self.row(job, self.clock.now())
    }

    /// The jobs a paid order sets off, enqueued with the payment: its files, then the news.
    pub fn paid_order(&self, order_id: i64) -> Vec<NewJob> {
        let mut jobs = vec![self.row_now(&DeliverOrder { order_id })];
        jobs.extend(self.messages(MessageKind::OrderReady, &order_id.to_string()));
        jobs
    }

    /// The jobs that send a message about `subject` through every channel; each finds
    /// whether its recipient has that channel.
    pub fn messages(&self, kind: MessageKind, subject: &str) -> Vec<NewJob> {
        ChannelKind::ALL
            .into_iter()
            .map(|channel| self.message(kind, subject, channel))
            .collect()
    }

    /// The job that sends a message about `subject` through one channel.
    pub fn message(&self, kind: MessageKind, subject: &str, channel: ChannelKind) -> NewJob {
        self.row_now(&SendMessage {
            kind,
            subject: subject.to_owned(),
            channel,
        })
    }

    /// Enqueues `jobs` (each at most once, by its dedupe key) and wakes the workers.
    pub async fn enqueue_all(&self, jobs: &[NewJob]) -> Result<(), raceshot_store::StoreError> {
        for job in jobs {
            self.store.enqueue(job, self.clock.now()).await?;
        }
        self.wake();
        Ok(())
    }

    /// Tells this process's idle workers that a job was queued (by [`Self::enqueue_all`],
    /// or by a store write that enqueued one in its own transaction).
    pub fn wake(&self) {
        self.queued.notify_waiters();
    }

    /// Resolves at the next [`Self::wake`]: what an idle worker waits on beside its poll.
    pub fn queued(&self) -> Notified<'_> {
        self.queued.notified()
    }
}

/// The key at most one job of it ever has: `{KIND}:{…}`.
pub fn dedupe_key<J: Job>(job: &J, at: DateTime<Utc>) -> String {
    format!("{}:{}", J::KIND, job.dedupe_key(at))
}
