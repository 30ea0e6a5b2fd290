//! "New photos since you searched": the event page asks, about once a minute after a
//! search, how many of the event's photos became searchable since then, and offers to
//! search again. The answer is a count, never which photos: the server keeps nothing of
//! the search (the page keeps its selfie in memory to search again).

use axum::Json;
use axum::extract::State;
use chrono::DateTime;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::api::error::ErrorAnswer;
use crate::api::extract::{ApiPath, ApiQuery, ClientIp};
use crate::app::state::AppState;
use crate::error::ShopResult;
use crate::services::commerce::{find_event, parse_event_key};
use crate::services::raceday;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ArrivalsQuery {
    /// The `as_of` of an earlier answer (Unix milliseconds). Without it, the answer only
    /// gives the moment to ask from next time. Read as at most 24 hours ago.
    pub since: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ArrivalsBody {
    /// The event's shown photos that became searchable after `since` (at most 1000).
    pub new_photos: i64,
    /// The server's moment of this answer (Unix milliseconds): the `since` of the next
    /// question.
    pub as_of: i64,
}

/// How many of an event's photos became searchable since a moment.
#[utoipa::path(operation_id = "event_arrivals", get, path = "/api/events/{event_key}/arrivals",
    tag = "face search", params(("event_key" = String, Path), ArrivalsQuery),
    responses((status = 200, body = ArrivalsBody), (status = 401, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer), (status = 429, response = ErrorAnswer)),
    security(("client_token" = [])))]
pub async fn arrivals(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    ApiPath(event_key): ApiPath<String>,
    ApiQuery(query): ApiQuery<ArrivalsQuery>,
) -> ShopResult<Json<ArrivalsBody>> {
    state.rate_limits.arrivals.check(client)?;
    let event = find_event(&state.catalogue, &parse_event_key(&event_key)?).await?;
    let now = state.now();
    let new_photos = match query.since.and_then(DateTime::from_timestamp_millis) {
        Some(since) => raceday::arrivals_since(&state.store, event.id, since, now).await?,
        None => 0,
    };
    Ok(Json(ArrivalsBody {
        new_photos,
        as_of: now.timestamp_millis(),
    }))
}
