//! The job runner: workers claim leased jobs from the store's queue, run them, and record
//! success or a failure (retried with exponential back-off, given up after
//! `jobs.max_attempts`). Runs inside `serve`, in `raceshot worker`, and in
//! `raceshot ingest --wait`. Each job kind is a typed [`BackgroundJob`] in a file of its
//! own, found by its stored kind in [`registry`]; every kind is idempotent, because a job
//! whose worker died runs again once its lease lapses. Alongside the workers, a
//! housekeeping loop expires unpaid orders and enqueues the hourly retention run.

pub mod deliver_order;
pub mod ingest_photo;
mod job;
pub mod kinds;
pub mod notify_order;
pub mod notify_privacy;
pub mod queue;
pub mod read_bibs;
pub mod registry;
pub mod reindex_photo;
pub mod retention;
pub mod send_message;

use std::time::Duration;

use raceshot_store::jobs::{Job as Row, Retry};
use tokio::sync::watch;

use self::kinds::Retention;
use crate::app::state::AppState;

pub use self::job::{BackgroundJob, JobContext, JobError};
pub use self::kinds::{HEAVY, Job, LIGHT};
pub use self::queue::JobQueue;

/// The paid order an order job is about; `None` when it is gone or no longer paid (the
/// job then has nothing to do).
async fn paid_order(
    state: &AppState,
    order_id: i64,
) -> Result<Option<raceshot_store::orders::Order>, JobError> {
    let order = state.store.order_by_id(order_id).await?;
    Ok(order.filter(raceshot_store::orders::Order::is_deliverable))
}

/// How often housekeeping runs.
const HOUSEKEEPING_EVERY: Duration = Duration::from_secs(60);

/// Expires unpaid orders past their payment window and enqueues this hour's retention
/// run, every minute until `stop`. Every process may run it: both steps are idempotent.
async fn housekeeping(state: AppState, mut stop: watch::Receiver<bool>) {
    loop {
        match state.store.expire_orders(state.now()).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(orders = n, "unpaid orders expired"),
            Err(e) => tracing::warn!(error = %e, "cannot expire orders"),
        }
        let now = state.now();
        let retention = state.jobs.row(&Retention {}, now);
        if let Err(e) = state.store.enqueue(&retention, now).await {
            tracing::warn!(error = %e, "cannot enqueue the retention run");
        }
        let day_ago = state.now() - chrono::Duration::days(1);
        if let Err(e) = state.store.forget_unknown_login_failures(day_ago).await {
            tracing::warn!(error = %e, "cannot forget old sign-in failures");
        }
        if stopped_while_waiting(&mut stop, HOUSEKEEPING_EVERY).await {
            return;
        }
    }
}

/// Back-off before attempt `attempts + 1`: 5 s, 10 s, 20 s, … at most 10 minutes.
fn backoff(attempts: i64) -> Duration {
    let exp = u32::try_from(attempts.clamp(1, 8) - 1).unwrap_or(0);
    Duration::from_secs(5 * 2u64.pow(exp)).min(Duration::from_secs(600))
}

/// Runs `jobs.workers` workers until `stop` turns true; each finishes its current job first.
pub async fn run_workers(state: AppState, stop: watch::Receiver<bool>) {
    let mut workers = tokio::task::JoinSet::new();
    for n in 0..state.config.jobs.workers {
        let name = format!("{}-{}-{n}", hostname(), std::process::id());
        workers.spawn(worker(state.clone(), HEAVY, name, stop.clone()));
    }
    let name = format!("{}-{}-light", hostname(), std::process::id());
    workers.spawn(worker(state.clone(), LIGHT, name, stop.clone()));
    workers.spawn(housekeeping(state.clone(), stop.clone()));
    while workers.join_next().await.is_some() {}
}

/// How often a command waiting on jobs looks again at the latest: the jobs may be run by
/// other processes' workers.
const WAIT_POLL: Duration = Duration::from_millis(200);

/// What a command waiting on jobs found when it looked.
pub enum Waiting<T> {
    Done(T),
    /// This many of its jobs are still to run.
    Pending(u64),
}

/// Asks `check` until it answers [`Waiting::Done`]: every [`WAIT_POLL`], and at once when
/// this process's workers have `finished` as many jobs as were pending
/// ([`crate::app::state::Inner::jobs_finished`]), so that a command returns the moment its last
/// job is done without asking after every job (one ask can cost as much as a job: a
/// look at 50,000 photos).
pub async fn wait_until<T, E, Fut>(
    finished: &watch::Sender<u64>,
    mut check: impl FnMut() -> Fut,
) -> Result<T, E>
where
    Fut: std::future::Future<Output = Result<Waiting<T>, E>>,
{
    let mut finished = finished.subscribe();
    loop {
        let before = *finished.borrow_and_update();
        let pending = match check().await? {
            Waiting::Done(done) => return Ok(done),
            Waiting::Pending(n) => n,
        };
        let poll = tokio::time::sleep(WAIT_POLL);
        tokio::pin!(poll);
        loop {
            tokio::select! {
                () = &mut poll => break,
                changed = finished.changed() => {
                    // The state holds the sender, so it is never dropped while this runs.
                    if changed.is_err() || finished.borrow().wrapping_sub(before) >= pending {
                        break;
                    }
                }
            }
        }
    }
}

/// This process's workers ([`run_workers`]) for a command that works on the queue until
/// its own jobs are done (`ingest --wait`, `bibs --wait`).
pub struct Workers {
    stop: watch::Sender<bool>,
    handle: tokio::task::JoinHandle<()>,
}

impl Workers {
    pub fn start(state: &AppState) -> Self {
        let (stop, stop_rx) = watch::channel(false);
        let handle = tokio::spawn(run_workers(state.clone(), stop_rx));
        Self { stop, handle }
    }

    /// Lets each worker finish its current job, then returns.
    pub async fn stop(self) {
        let _ = self.stop.send(true);
        let _ = self.handle.await;
    }
}

fn hostname() -> String {
    std::fs::read_to_string("/etc/hostname")
        .map_or_else(|_| "host".to_owned(), |h| h.trim().to_owned())
}

async fn worker(
    state: AppState,
    queue: &'static str,
    name: String,
    mut stop: watch::Receiver<bool>,
) {
    let cfg = &state.config.jobs;
    loop {
        if *stop.borrow() {
            return;
        }
        // Listening before claiming: a job queued in this process between an empty claim
        // and the wait still wakes this worker.
        let queued = state.jobs.queued();
        tokio::pin!(queued);
        queued.as_mut().enable();
        let claimed = state
            .store
            .claim_job(queue, &name, cfg.lease, state.now())
            .await;
        match claimed {
            Ok(Some(job)) => run_one(&state, &name, job).await,
            Ok(None) => {
                tokio::select! {
                    stopped = stopped_while_waiting(&mut stop, cfg.poll_interval) => {
                        if stopped {
                            return;
                        }
                    }
                    () = queued => {}
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot claim a job");
                if stopped_while_waiting(&mut stop, cfg.poll_interval * 4).await {
                    return;
                }
            }
        }
    }
}

/// Waits up to `pause` for a stop; a vanished sender counts as one.
async fn stopped_while_waiting(stop: &mut watch::Receiver<bool>, pause: Duration) -> bool {
    match tokio::time::timeout(pause, stop.changed()).await {
        Ok(Err(_)) => true,
        Ok(Ok(())) => *stop.borrow(),
        Err(_) => false,
    }
}

async fn run_one(state: &AppState, worker: &str, job: Row) {
    let started = std::time::Instant::now();
    let ctx = JobContext {
        state,
        job_id: job.id,
        worker,
    };
    // A row no kind can read fails for good, and there is nothing to tell of it.
    let (typed, result) = match registry::job_of(&job) {
        Ok(typed) => {
            let result = typed.run(&ctx).await;
            (Some(typed), result)
        }
        Err(e) => (None, Err(e)),
    };
    let now = state.now();
    let outcome = match &result {
        Ok(()) => state
            .store
            .complete_job(job.id, worker, now)
            .await
            .map(|_| None),
        Err(e) => {
            let permanent = matches!(e, JobError::Permanent(_));
            let message = format!("{e:#}");
            state
                .store
                .fail_job(
                    job.id,
                    worker,
                    &message,
                    backoff(job.attempts),
                    permanent,
                    now,
                )
                .await
                .map(|retry| Some((retry, message)))
        }
    };
    metrics::histogram!("job_duration_seconds", "kind" => job.kind.clone())
        .record(started.elapsed().as_secs_f64());
    match outcome {
        Ok(None) => tracing::debug!(job = job.id, kind = %job.kind, "job done"),
        Ok(Some((Retry::At(at), message))) => {
            tracing::warn!(job = job.id, kind = %job.kind, %at, error = %message, "job failed; will retry");
        }
        Ok(Some((Retry::GaveUp, message))) => {
            tracing::warn!(job = job.id, kind = %job.kind, error = %message, "job failed for good");
            if let Some(typed) = &typed {
                typed.gave_up(&ctx, &message).await;
            }
        }
        Err(e) => tracing::error!(job = job.id, error = %e, "cannot record the job's outcome"),
    }
    state.jobs_finished.send_modify(|n| *n += 1);
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering::SeqCst};

    use tokio::time::{Instant, sleep};

    use super::*;

    /// A command's look at its jobs: done when none is `left`; counts the looks.
    async fn look(left: &AtomicU64, looks: &AtomicU64) -> Result<Waiting<&'static str>, ()> {
        looks.fetch_add(1, SeqCst);
        Ok(match left.load(SeqCst) {
            0 => Waiting::Done("done"),
            n => Waiting::Pending(n),
        })
    }

    #[tokio::test(start_paused = true)]
    async fn a_wait_ends_when_as_many_jobs_finished_as_were_pending() {
        let finished = watch::Sender::new(0u64);
        let (left, looks) = (AtomicU64::new(2), AtomicU64::new(0));
        let started = Instant::now();
        let workers = async {
            for _ in 0..2 {
                sleep(Duration::from_millis(50)).await;
                left.fetch_sub(1, SeqCst);
                finished.send_modify(|n| *n += 1);
            }
        };
        let (done, ()) = tokio::join!(wait_until(&finished, || look(&left, &looks)), workers);
        assert_eq!(done, Ok("done"));
        // At the second job's end, not at the next poll; and no look after the first job,
        // when one was still pending.
        assert_eq!(started.elapsed(), Duration::from_millis(100));
        assert_eq!(looks.load(SeqCst), 2);
    }

    #[tokio::test(start_paused = true)]
    async fn jobs_finished_by_other_processes_are_seen_at_the_next_poll() {
        let finished = watch::Sender::new(0u64);
        let (left, looks) = (AtomicU64::new(1), AtomicU64::new(0));
        let started = Instant::now();
        let elsewhere = async {
            sleep(Duration::from_millis(50)).await;
            left.store(0, SeqCst);
        };
        let (done, ()) = tokio::join!(wait_until(&finished, || look(&left, &looks)), elsewhere);
        assert_eq!(done, Ok("done"));
        assert_eq!(started.elapsed(), WAIT_POLL);
        assert_eq!(looks.load(SeqCst), 2);
    }

    #[tokio::test(start_paused = true)]
    async fn a_failed_look_ends_the_wait_with_its_error() {
        let finished = watch::Sender::new(0u64);
        let failed = wait_until(&finished, || async {
            Err::<Waiting<()>, _>("database gone")
        });
        assert_eq!(failed.await, Err("database gone"));
    }
}
