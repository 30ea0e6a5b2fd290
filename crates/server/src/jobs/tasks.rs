//! The background work the shop asks for: each job kind, and how a job of it is enqueued.
//! Services (placing and paying orders, adding photos) and the housekeeping loop enqueue
//! through here; the runner in `jobs` carries the jobs out. Keeping the two apart lets the
//! jobs use the services without the services knowing the jobs.

use chrono::{DateTime, Utc};
use raceshot_store::jobs::NewJob;

use crate::app::state::AppState;

/// Photo processing: CPU-heavy, one job per core.
pub const HEAVY: &str = "heavy";

pub const INGEST_PHOTO: &str = "ingest_photo";
pub const READ_BIBS: &str = "read_bibs";
pub const NOTIFY_PRIVACY: &str = "notify_privacy";
pub const DELIVER_ORDER: &str = "deliver_order";
pub const NOTIFY_ORDER: &str = "notify_order";
pub const RETENTION: &str = "retention";

fn new_job(
    kind: &str,
    payload: serde_json::Value,
    dedupe_key: String,
    state: &AppState,
    now: DateTime<Utc>,
) -> NewJob {
    NewJob {
        queue: HEAVY.to_owned(),
        kind: kind.to_owned(),
        payload,
        dedupe_key: Some(dedupe_key),
        max_attempts: state.config.jobs.max_attempts,
        run_at: now,
    }
}

/// Processing one uploaded photo.
pub fn ingest_photo(state: &AppState, photo_id: i64) -> NewJob {
    new_job(
        INGEST_PHOTO,
        serde_json::json!({ "photo_id": photo_id }),
        format!("{INGEST_PHOTO}:{photo_id}"),
        state,
        state.now(),
    )
}

/// Reading a ready photo's bibs again; each request to re-read (`requested`) is its own
/// job, so a second `raceshot bibs` after a rule change runs again.
pub fn read_bibs(state: &AppState, photo_id: i64, requested: DateTime<Utc>) -> NewJob {
    new_job(
        READ_BIBS,
        serde_json::json!({ "photo_id": photo_id }),
        format!("{READ_BIBS}:{photo_id}:{}", requested.timestamp_millis()),
        state,
        state.now(),
    )
}

/// Telling a privacy request's requester of the decision: once per request.
pub fn notify_privacy(state: &AppState, request_id: &str) -> NewJob {
    new_job(
        NOTIFY_PRIVACY,
        serde_json::json!({ "request_id": request_id }),
        format!("{NOTIFY_PRIVACY}:{request_id}"),
        state,
        state.now(),
    )
}

/// A job about a paid order: the order has at most one of each kind.
fn order_job(kind: &str, state: &AppState, order_id: i64) -> NewJob {
    new_job(
        kind,
        serde_json::json!({ "order_id": order_id }),
        format!("{kind}:{order_id}"),
        state,
        state.now(),
    )
}

/// The jobs a paid order sets off, enqueued with the payment: its files, then the news.
pub fn paid_order(state: &AppState, order_id: i64) -> Vec<NewJob> {
    vec![
        order_job(DELIVER_ORDER, state, order_id),
        order_job(NOTIFY_ORDER, state, order_id),
    ]
}

/// The retention run for the current hour: one per hour whoever enqueues it.
pub fn retention(state: &AppState) -> NewJob {
    let now = state.now();
    new_job(
        RETENTION,
        serde_json::json!({}),
        format!("{RETENTION}:{}", now.format("%Y-%m-%dT%H")),
        state,
        now,
    )
}
