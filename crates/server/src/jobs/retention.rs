//! `retention`: deletes the originals, logo copies and framed copies of events whose
//! storage window has passed (`orders.retention_days` after the event's date, Bangkok
//! calendar) and marks the photos purged, so order pages then say "storage time expired",
//! clears the face templates of approved and undecided privacy requests of those events
//! and deletes the face crops of their requests never decided (and any crop a decision
//! failed to delete), and deletes those events' race results and finisher certificates.
//! Previews and thumbnails stay for the shop's pages. It also deletes console sessions
//! past their end (a session lasts `admin.session_ttl_hours`), unfinished resumable
//! uploads past theirs (24 hours), parts and all, FTP files half sent a day ago, and the
//! race-day view's search counts after 30 days, the LINE accounts linked to orders of
//! events past retention, the outbox's records of messages after 30 days, and the alerts
//! (face templates, numbers, LINE accounts, matches) whose time is up: past their end, or
//! of an event whose sale has ended, and the face index snapshots that hold a face deleted
//! since, or that no row names (`services::search::snapshot`). Enqueued hourly by the housekeeping loop; a re-run
//! finds only what is left.

use raceshot_domain::time::bangkok_date;

use super::kinds::Retention;
use super::{BackgroundJob, JobContext, JobError};
use crate::app::state::AppState;
use crate::services::certificates;
use crate::services::commerce::sold_photo_key;
use crate::services::links::Variant;

/// The race-day view's search counts (per five minutes) are kept this many days.
const SEARCH_COUNTS_DAYS: i64 = 30;

/// Photos purged per batch, between lease renewals.
const BATCH: i64 = 200;

/// The first event date whose files are still kept today.
pub fn cutoff(state: &AppState) -> String {
    let days = chrono::Duration::days(i64::from(state.live().retention_days));
    (bangkok_date(state.now()) - days)
        .format("%Y-%m-%d")
        .to_string()
}

impl BackgroundJob for Retention {
    async fn run(&self, ctx: &JobContext<'_>) -> Result<(), JobError> {
        purge(ctx).await
    }
}

async fn purge(ctx: &JobContext<'_>) -> Result<(), JobError> {
    let state = ctx.state;
    let cutoff = cutoff(state);
    // With the originals go the face templates of approved privacy requests (no photo is
    // ingested for such an event any more, and what they hid stays hidden) and of those
    // nobody decided.
    let cleared = state.store.clear_privacy_templates_before(&cutoff).await?;
    if cleared > 0 {
        tracing::info!(cleared, "privacy request templates deleted after retention");
    }
    // The rows first: a certificate drawn meanwhile finds its result gone and deletes
    // itself (`certificates::certificate`).
    let certified = state.store.events_with_results_before(&cutoff).await?;
    let results = state.store.delete_results_before(&cutoff).await?;
    for event in &certified {
        certificates::forget_cached(&state.objects, event, None).await?;
    }
    if results > 0 {
        tracing::info!(results, "race results deleted after retention");
    }
    let links = state.store.forget_line_links_before(&cutoff).await?;
    if links > 0 {
        tracing::info!(links, "LINE accounts of orders deleted after retention");
    }
    let alerts = crate::services::alerts::delete_due(&state.alerting()).await?;
    if alerts > 0 {
        tracing::info!(
            alerts,
            "alerts past their end deleted, with their face templates"
        );
    }
    let messages = state
        .store
        .purge_messages_before(state.now() - crate::services::messages::KEPT)
        .await?;
    if messages > 0 {
        tracing::info!(messages, "message records past their time deleted");
    }
    let sessions = state.store.purge_sessions(state.now()).await?;
    if sessions > 0 {
        tracing::info!(sessions, "console sessions past their end deleted");
    }
    let counts = state
        .store
        .forget_search_counts_before(state.now() - chrono::Duration::days(SEARCH_COUNTS_DAYS))
        .await?;
    if counts > 0 {
        tracing::info!(
            counts,
            "search counts of the race-day view past their time deleted"
        );
    }
    let uploads =
        crate::services::uploads::resumable::sweep_expired(state.intake(), state.now()).await?;
    if uploads > 0 {
        tracing::info!(uploads, "unfinished uploads past their end deleted");
    }
    match crate::ftp::sweep_incoming(&state.config.data_dir).await {
        Ok(0) => {}
        Ok(files) => tracing::info!(files, "FTP files never finished deleted"),
        Err(e) => tracing::warn!(error = %e, "the FTP incoming folder was not swept"),
    }
    let crops = crate::services::privacy::delete_due_face_crops(&state.privacy(), &cutoff).await?;
    if crops > 0 {
        tracing::info!(crops, "privacy request face crops deleted");
    }
    let snapshots = crate::services::search::snapshot::sweep(&state.store, &state.objects).await?;
    if snapshots > 0 {
        tracing::info!(
            snapshots,
            "face index snapshots holding deleted faces deleted"
        );
    }
    loop {
        let batch = state.store.photos_past_retention(&cutoff, BATCH).await?;
        if batch.is_empty() {
            return Ok(());
        }
        let mut events: Vec<_> = batch.iter().map(|(_, key, _)| key.clone()).collect();
        events.dedup();
        for (photo_id, event_key, storage_name) in batch {
            for variant in [Variant::Original, Variant::Logo] {
                let key =
                    sold_photo_key(&event_key, storage_name.as_str(), variant).map_err(|e| {
                        JobError::Permanent(format!(
                            "photo {photo_id} has an invalid storage key: {e}"
                        ))
                    })?;
                state.objects.delete(&key).await?;
            }
            state
                .store
                .mark_original_purged(photo_id, state.now())
                .await?;
        }
        // Framed copies are named by photo and frame: the event's whole folder goes.
        for event in &events {
            crate::services::frames::forget_framed(&state.objects, event).await?;
        }
        ctx.renew_lease().await?;
    }
}
