//! The durable job queue. A worker claims a job by leasing it (`locked_until`); one that
//! dies mid-job lets the lease lapse and another worker runs the job again, so every job
//! kind must be idempotent. Failures retry with back-off up to `max_attempts`, then the job
//! stays `failed` with its last error.

use std::time::Duration;

use chrono::{DateTime, Utc};

use sqlx::AssertSqlSafe;

use crate::macros::on_pool;
use crate::{Pool, Result, Store, millis};

#[derive(Debug, Clone, PartialEq)]
pub struct NewJob {
    pub queue: String,
    pub kind: String,
    pub payload: serde_json::Value,
    /// At most one job with the same key ever exists; enqueueing it again does nothing.
    pub dedupe_key: Option<String>,
    pub max_attempts: u32,
    pub run_at: DateTime<Utc>,
}

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct Job {
    pub id: i64,
    pub queue: String,
    pub kind: String,
    pub payload: String,
    pub attempts: i64,
    pub max_attempts: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobState {
    Queued,
    Running,
    Done,
    Failed,
}

impl JobState {
    fn parse(raw: &str) -> Option<Self> {
        match raw {
            "queued" => Some(JobState::Queued),
            "running" => Some(JobState::Running),
            "done" => Some(JobState::Done),
            "failed" => Some(JobState::Failed),
            _ => None,
        }
    }
}

/// What happened to a failed attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retry {
    /// Queued again, to run at this instant.
    At(DateTime<Utc>),
    /// No attempts left: the job is `failed` for good.
    GaveUp,
}

/// Inserts `$job` through `$executor` (a pool or an open transaction, so a job can be
/// enqueued together with the write that causes it); evaluates to the new id, or `None`
/// when a job with the same dedupe key exists.
macro_rules! insert_job {
    ($executor:expr, $job:expr, $now:expr) => {{
        let job: &$crate::jobs::NewJob = $job;
        let id: Option<(i64,)> = sqlx::query_as(
            "INSERT INTO jobs (queue, kind, payload, dedupe_key, state, max_attempts, run_at, \
                created_at, updated_at) VALUES ($1, $2, $3, $4, 'queued', $5, $6, $7, $7) \
             ON CONFLICT (dedupe_key) DO NOTHING RETURNING id",
        )
        .bind(&job.queue)
        .bind(&job.kind)
        .bind(job.payload.to_string())
        .bind(job.dedupe_key.as_deref())
        .bind(i64::from(job.max_attempts))
        .bind($crate::millis(job.run_at))
        .bind($crate::millis($now))
        .fetch_optional($executor)
        .await?;
        id.map(|(id,)| id)
    }};
}
pub(crate) use insert_job;

const JOB_COLUMNS: &str = "id, queue, kind, payload, attempts, max_attempts";

/// A job is claimable when it is due, or when the worker holding it let its lease lapse.
const CLAIMABLE: &str = "queue = $1 AND ((state = 'queued' AND run_at <= $2) \
    OR (state = 'running' AND locked_until < $2))";

impl Store {
    /// Adds a job; returns its id, or `None` when a job with the same dedupe key exists.
    pub async fn enqueue(&self, job: &NewJob, now: DateTime<Utc>) -> Result<Option<i64>> {
        Ok(on_pool!(self, pool => insert_job!(pool, job, now)))
    }

    /// Leases the next due job of `queue` to `worker` for `lease`, counting the attempt.
    pub async fn claim_job(
        &self,
        queue: &str,
        worker: &str,
        lease: Duration,
        now: DateTime<Utc>,
    ) -> Result<Option<Job>> {
        let until = millis(now) + i64::try_from(lease.as_millis()).unwrap_or(i64::MAX / 2);
        // PostgreSQL workers run in parallel and skip each other's rows; SQLite has one
        // writer at a time, so the single statement is already atomic.
        let pick = match self.pool {
            Pool::Postgres(_) => format!(
                "SELECT id FROM jobs WHERE {CLAIMABLE} ORDER BY run_at, id LIMIT 1 \
                 FOR UPDATE SKIP LOCKED"
            ),
            Pool::Sqlite(_) => {
                format!("SELECT id FROM jobs WHERE {CLAIMABLE} ORDER BY run_at, id LIMIT 1")
            }
        };
        let sql = format!(
            "UPDATE jobs SET state = 'running', attempts = attempts + 1, locked_until = $3, \
                locked_by = $4, updated_at = $2 \
             WHERE id = ({pick}) RETURNING {JOB_COLUMNS}"
        );
        Ok(
            on_pool!(self, pool => sqlx::query_as(AssertSqlSafe(sql.clone()))
            .bind(queue).bind(millis(now)).bind(until).bind(worker)
            .fetch_optional(pool).await)?,
        )
    }

    /// Extends the lease of a long job; false when the lease was lost to another worker.
    pub async fn extend_job_lease(
        &self,
        id: i64,
        worker: &str,
        lease: Duration,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let until = millis(now) + i64::try_from(lease.as_millis()).unwrap_or(i64::MAX / 2);
        let done = on_pool!(self, pool => sqlx::query(
            "UPDATE jobs SET locked_until = $1, updated_at = $2 \
             WHERE id = $3 AND state = 'running' AND locked_by = $4")
            .bind(until).bind(millis(now)).bind(id).bind(worker).execute(pool).await.map(|r| r.rows_affected()))?;
        Ok(done == 1)
    }

    /// Marks a job done; false when the worker had lost its lease (the job ran twice).
    pub async fn complete_job(&self, id: i64, worker: &str, now: DateTime<Utc>) -> Result<bool> {
        let done = on_pool!(self, pool => sqlx::query(
            "UPDATE jobs SET state = 'done', locked_until = NULL, last_error = NULL, updated_at = $1 \
             WHERE id = $2 AND state = 'running' AND locked_by = $3")
            .bind(millis(now)).bind(id).bind(worker).execute(pool).await.map(|r| r.rows_affected()))?;
        Ok(done == 1)
    }

    /// Records a failed attempt: queues the job again after `backoff`, or gives up when no
    /// attempts are left (or `permanent` says retrying cannot help).
    pub async fn fail_job(
        &self,
        id: i64,
        worker: &str,
        error: &str,
        backoff: Duration,
        permanent: bool,
        now: DateTime<Utc>,
    ) -> Result<Retry> {
        let run_at = now + chrono::Duration::from_std(backoff).unwrap_or(chrono::Duration::zero());
        let row: Option<(String,)> = on_pool!(self, pool => sqlx::query_as(
            "UPDATE jobs SET \
                state = CASE WHEN $1 OR attempts >= max_attempts THEN 'failed' ELSE 'queued' END, \
                run_at = $2, locked_until = NULL, last_error = $3, updated_at = $4 \
             WHERE id = $5 AND state = 'running' AND locked_by = $6 RETURNING state")
            .bind(permanent).bind(millis(run_at)).bind(error).bind(millis(now)).bind(id).bind(worker)
            .fetch_optional(pool).await)?;
        Ok(match row.as_ref().map(|(s,)| s.as_str()) {
            Some("queued") => Retry::At(run_at),
            _ => Retry::GaveUp,
        })
    }

    pub async fn job_state(&self, id: i64) -> Result<Option<(JobState, Option<String>)>> {
        let row: Option<(String, Option<String>)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT state, last_error FROM jobs WHERE id = $1").bind(id).fetch_optional(pool).await)?;
        Ok(row.and_then(|(s, e)| JobState::parse(&s).map(|s| (s, e))))
    }

    /// Jobs of one kind waiting or running.
    pub async fn pending_jobs_of_kind(&self, kind: &str) -> Result<i64> {
        let (n,): (i64,) = on_pool!(self, pool => sqlx::query_as(
            "SELECT COUNT(*) FROM jobs WHERE kind = $1 AND state IN ('queued', 'running')")
            .bind(kind).fetch_one(pool).await)?;
        Ok(n)
    }

    /// Jobs of `queue` due at `now` and not done: waiting and due, or running.
    pub async fn jobs_due(&self, queue: &str, now: DateTime<Utc>) -> Result<i64> {
        let (n,): (i64,) = on_pool!(self, pool => sqlx::query_as(
            "SELECT COUNT(*) FROM jobs WHERE queue = $1 \
             AND (state = 'running' OR (state = 'queued' AND run_at <= $2))")
            .bind(queue).bind(millis(now)).fetch_one(pool).await)?;
        Ok(n)
    }

    /// Jobs of `queue` waiting or running: the queue depth an operator watches.
    pub async fn pending_jobs(&self, queue: &str) -> Result<i64> {
        let (n,): (i64,) = on_pool!(self, pool => sqlx::query_as(
            "SELECT COUNT(*) FROM jobs WHERE queue = $1 AND state IN ('queued', 'running')")
            .bind(queue).fetch_one(pool).await)?;
        Ok(n)
    }
}
