//! The race-day view of the console's dashboard: per event with anything in the window,
//! photos received (in all and per photographer), photos that became searchable and face
//! searches in equal buckets over the last hours; photos received in the last minutes and
//! still waiting; and the ingestion queue with its expected wait. Photographers see their
//! assigned events, and the e-mail of no account but their own.

use axum::Json;
use axum::extract::State;
use raceshot_domain::time::format_bangkok;
use raceshot_store::operators::Role;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::auth::Session;
use crate::api::error::ErrorAnswer;
use crate::api::extract::ApiQuery;
use crate::app::state::AppState;
use crate::error::ShopResult;
use crate::services::raceday::{self, RECENT_MINUTES, Window};

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RaceDayQuery {
    /// The window charted, in hours (1 to 12; default 3).
    pub hours: Option<u32>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RaceDay {
    /// RFC 3339, Bangkok time: the first bucket's start.
    pub since: String,
    /// RFC 3339, Bangkok time: the moment of this answer (in the last bucket).
    pub as_of: String,
    pub bucket_minutes: i64,
    /// `received_recent` counts this many minutes.
    pub recent_minutes: i64,
    pub queue: QueueBody,
    /// Events with photos received, made searchable or searched in the window, or photos
    /// waiting; the most received first.
    pub events: Vec<EventRaceDay>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct QueueBody {
    /// Processing jobs waiting or running, across events.
    pub depth: i64,
    /// Photos that became searchable per minute over the last 10 minutes.
    pub per_minute: f64,
    /// How long a photo sent now waits to be searchable; null when the queue has no pace
    /// yet (no photo became searchable in the last 10 minutes).
    pub expected_wait_secs: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EventRaceDay {
    pub event_key: String,
    pub title: String,
    /// Photos received in the last `recent_minutes`.
    pub received_recent: i64,
    /// Photos queued or being processed.
    pub waiting: i64,
    /// Per bucket, oldest first.
    pub received: Vec<i64>,
    pub searchable: Vec<i64>,
    pub searches: Vec<i64>,
    /// The busiest first.
    pub photographers: Vec<PhotographerRaceDay>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PhotographerRaceDay {
    /// The uploading account (0: photos added by `raceshot ingest` or another way).
    pub photographer_id: i64,
    /// The account's e-mail: shown to admins, and to a photographer for their own.
    pub email: Option<String>,
    /// Photos received per bucket.
    pub received: Vec<i64>,
}

/// Race day at a glance: what arrived, what is searchable, what runners search.
#[utoipa::path(operation_id = "admin_race_day", get, path = "/api/admin/race-day", tag = "console",
    params(RaceDayQuery),
    responses((status = 200, body = RaceDay), (status = 401, response = ErrorAnswer)))]
pub async fn race_day(
    State(state): State<AppState>,
    session: Session,
    ApiQuery(query): ApiQuery<RaceDayQuery>,
) -> ShopResult<Json<RaceDay>> {
    let now = state.now();
    let window = Window::last_hours(query.hours.unwrap_or(3), now);
    let me = &session.operator;
    let events = state.store.all_events().await?;
    let allowed = match me.role {
        Role::Admin => events.iter().map(|e| e.id).collect(),
        Role::Photographer => state.store.operator_event_ids(me.id).await?,
    };
    let activity = raceday::activity(&state.store, &allowed, window, now).await?;
    let mut ids: Vec<i64> = activity
        .iter()
        .flat_map(|a| a.photographers.iter().map(|p| p.photographer_id))
        .filter(|&id| me.role == Role::Admin || id == me.id)
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let emails = state.store.operator_emails(&ids).await?;
    let email_of = |id: i64| {
        emails
            .iter()
            .find(|(known, _)| *known == id)
            .map(|(_, email)| email.clone())
    };
    let queue = raceday::queue(&state.store, now).await?;
    Ok(Json(RaceDay {
        since: format_bangkok(window.since),
        as_of: format_bangkok(now),
        bucket_minutes: window.bucket_ms / 60_000,
        recent_minutes: RECENT_MINUTES,
        queue: QueueBody {
            depth: queue.depth,
            per_minute: queue.per_minute,
            expected_wait_secs: queue.expected_wait_secs,
        },
        events: activity
            .into_iter()
            .filter_map(|a| {
                let event = events.iter().find(|e| e.id == a.event_id)?;
                Some(EventRaceDay {
                    event_key: event.spec.key.to_string(),
                    title: event.spec.title.clone(),
                    received_recent: a.received_recent,
                    waiting: a.waiting,
                    received: a.received,
                    searchable: a.searchable,
                    searches: a.searches,
                    photographers: a
                        .photographers
                        .into_iter()
                        .map(|p| PhotographerRaceDay {
                            email: email_of(p.photographer_id),
                            photographer_id: p.photographer_id,
                            received: p.received,
                        })
                        .collect(),
                })
            })
            .collect(),
    }))
}
