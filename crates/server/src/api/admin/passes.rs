//! Photo passes in the console (admins only: a code is worth photos): make a batch of codes
//! for an event, answered once as a CSV file for the registration system, and list the
//! event's batches with how many were redeemed. The rules are in
//! `crate::services::passes`.

use axum::Json;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::auth::Admin;
use super::results::event_of;
use crate::api::error::ErrorAnswer;
use crate::api::extract::{ApiJson, ApiPath};
use crate::app::state::AppState;
use crate::error::ShopResult;
use crate::services::passes;

#[derive(Debug, Deserialize, ToSchema)]
pub struct PassBatchInput {
    /// The batch's name, new for the event (1 to 40 letters, digits, spaces, `-`, `_`).
    pub batch: String,
    /// How many codes (1 to 10,000).
    pub count: usize,
    /// Photos each code covers (1 to 500); none: every photo the runner's searches find.
    pub photos: Option<u32>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PassBatchBody {
    pub batch: String,
    /// Photos each code covers; none: every photo the runner's searches find.
    pub photos: Option<u32>,
    pub count: i64,
    pub redeemed: i64,
    /// RFC 3339.
    pub created_at: String,
}

/// Makes a batch of pass codes: the answer is the only copy of the codes, a CSV file
/// (`code,photos`).
#[utoipa::path(operation_id = "admin_passes_create", post, path = "/api/admin/events/{event_key}/passes", tag = "console",
    params(("event_key" = String, Path)),
    request_body = PassBatchInput,
    responses((status = 200, description = "The codes", content_type = "text/csv"),
        (status = 401, response = ErrorAnswer), (status = 403, response = ErrorAnswer),
        (status = 404, response = ErrorAnswer), (status = 422, response = ErrorAnswer)))]
pub async fn create(
    State(state): State<AppState>,
    admin: Admin,
    ApiPath(event_key): ApiPath<String>,
    ApiJson(input): ApiJson<PassBatchInput>,
) -> ShopResult<Response> {
    let event = event_of(&state, &event_key).await?;
    let (codes, cover) = passes::make_batch(
        &state.store,
        &event,
        &input.batch,
        input.count,
        input.photos,
        &admin.0.actor(),
        state.now(),
    )
    .await?;
    let file: String = format!("passes-{}-{}.csv", event.spec.key, input.batch.trim())
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}\""),
            ),
        ],
        passes::codes_csv(&codes, cover),
    )
        .into_response())
}

/// The event's batches of passes, oldest first.
#[utoipa::path(operation_id = "admin_passes_list", get, path = "/api/admin/events/{event_key}/passes", tag = "console",
    params(("event_key" = String, Path)),
    responses((status = 200, body = Vec<PassBatchBody>), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer)))]
pub async fn list(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath(event_key): ApiPath<String>,
) -> ShopResult<Json<Vec<PassBatchBody>>> {
    let event = event_of(&state, &event_key).await?;
    let batches = state.store.pass_batches(event.id).await?;
    Ok(Json(
        batches
            .into_iter()
            .map(|b| PassBatchBody {
                batch: b.batch,
                photos: b.cover.photos(),
                count: b.count,
                redeemed: b.redeemed,
                created_at: b.created_at.to_rfc3339(),
            })
            .collect(),
    ))
}
