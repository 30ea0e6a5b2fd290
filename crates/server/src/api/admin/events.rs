//! Events in the console: the list (photographers see their assigned events only), create
//! or edit in the import format (every bad field named), and closing a sale early.

use axum::Json;
use axum::extract::{Path, State};
use raceshot_domain::event::EventInput;
use raceshot_domain::time::format_bangkok;
use raceshot_domain::{EventKey, Money};
use raceshot_store::audit::event_target;
use raceshot_store::events::Event;
use raceshot_store::operators::Role;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::auth::{Admin, Session};
use crate::api::contract;
use crate::api::error::{ErrorAnswer, ErrorBody};
use crate::api::extract::ApiJson;
use crate::app::state::AppState;
use crate::error::{ErrorCode, FieldProblem, ShopError, ShopResult};

/// An event as the console lists it.
#[derive(Debug, Serialize, ToSchema)]
pub struct AdminEvent {
    pub event_id: i64,
    pub event_key: String,
    pub title: String,
    /// `YYYY-MM-DD`.
    pub eventdate: String,
    /// RFC 3339, Bangkok time.
    pub on_sale_start: String,
    pub on_sale_end: String,
    /// An operator ended the sale early.
    pub sale_closed: bool,
    /// Hidden events are neither listed nor opened in the shop.
    pub visible: bool,
    pub photos_ready: i64,
    /// Queued or being processed.
    pub photos_pending: i64,
    pub photos_failed: i64,
    /// Faces of the pair its search uses.
    pub faces: i64,
    /// The face model pair its search uses (`insightface`, `yunet-sface`); none before its
    /// first photo is analysed.
    pub model_pair: Option<String>,
    /// Whether a shop that sells photos may use that pair (true without one).
    pub model_pair_for_sale: bool,
    /// The pair `raceshot faces reindex` is moving it to, if any.
    pub moving_to: Option<String>,
    pub searches: i64,
    pub orders_paid: i64,
    /// Working alerts of new photos (runners waiting to be told): a count, nothing of them.
    pub alerts: i64,
    /// Baht paid for the event's orders.
    #[schema(value_type = f64)]
    pub revenue: Money,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AdminEventList {
    pub events: Vec<AdminEvent>,
    /// Photos waiting for or in processing, across events: the ingestion queue's depth.
    pub queue_depth: i64,
}

/// An event by the key in an address, hidden or not.
pub async fn event_by_key(state: &AppState, event_key: &str) -> ShopResult<(EventKey, Event)> {
    let not_found = || ShopError::new(ErrorCode::EventNotFound, "no such event");
    let key = EventKey::parse(event_key).map_err(|_| not_found())?;
    let event = state
        .store
        .any_event_by_key(&key)
        .await?
        .ok_or_else(not_found)?;
    Ok((key, event))
}

/// Events the operator may work on, newest race first.
#[utoipa::path(operation_id = "admin_events_list", get, path = "/api/admin/events", tag = "console",
    responses((status = 200, body = AdminEventList), (status = 401, response = ErrorAnswer)))]
pub async fn list(
    State(state): State<AppState>,
    session: Session,
) -> ShopResult<Json<AdminEventList>> {
    let allowed = match session.operator.role {
        Role::Admin => None,
        Role::Photographer => Some(state.store.operator_event_ids(session.operator.id).await?),
    };
    let stats = state.store.event_stats().await?;
    let alerts = state.store.alert_counts(state.now()).await?;
    let mut events = Vec::new();
    for e in state.store.all_events().await? {
        let s = stats
            .iter()
            .find(|s| s.event_id == e.id)
            .cloned()
            .unwrap_or_default();
        if allowed.as_ref().is_some_and(|ids| !ids.contains(&e.id)) {
            continue;
        }
        events.push(AdminEvent {
            event_id: e.id,
            event_key: e.spec.key.to_string(),
            title: e.spec.title.clone(),
            eventdate: e.spec.event_date.to_string(),
            on_sale_start: format_bangkok(e.spec.on_sale_start),
            on_sale_end: format_bangkok(e.spec.on_sale_end),
            sale_closed: e.sale_closed,
            visible: e.visible,
            photos_ready: s.photos_ready,
            photos_pending: s.photos_pending,
            photos_failed: s.photos_failed,
            faces: s.faces,
            model_pair_for_sale: match &e.model_pair {
                Some(name) => crate::app::faces::parse(name)
                    .map_err(ShopError::internal)?
                    .commercial(),
                None => true,
            },
            model_pair: e.model_pair.clone(),
            moving_to: e.reindex_to.clone(),
            searches: s.searches,
            orders_paid: s.orders_paid,
            alerts: alerts
                .iter()
                .find(|(id, _)| *id == e.id)
                .map_or(0, |(_, n)| *n),
            revenue: Money::from_satang(s.revenue).map_err(ShopError::internal)?,
        });
    }
    let queue_depth = state.store.pending_jobs(crate::jobs::HEAVY).await?;
    Ok(Json(AdminEventList {
        events,
        queue_depth,
    }))
}

/// One event in the import format, hidden or not: what the console's form edits.
#[utoipa::path(operation_id = "admin_events_get", get, path = "/api/admin/events/{event_key}", tag = "console",
    params(("event_key" = String, Path)),
    responses((status = 200, description = "The event in the import format (docs/event-import.md)", body = contract::ImportEvent),
        (status = 401, response = ErrorAnswer), (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer)))]
pub async fn get(
    State(state): State<AppState>,
    Admin(_session): Admin,
    Path(event_key): Path<String>,
) -> ShopResult<Json<EventInput>> {
    let not_found = || ShopError::new(ErrorCode::EventNotFound, "no such event");
    let key = EventKey::parse(&event_key).map_err(|_| not_found())?;
    let event = state
        .store
        .any_event_by_key(&key)
        .await?
        .ok_or_else(not_found)?;
    Ok(Json(event.spec.to_input()))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Written {
    pub event_key: String,
    /// `created` or `updated`.
    pub result: &'static str,
}

/// Creates the event, or replaces every field of the one with this key (the body is the
/// import format of docs/event-import.md). Admins only.
#[utoipa::path(operation_id = "admin_events_put", put, path = "/api/admin/events/{event_key}", tag = "console",
    params(("event_key" = String, Path)), request_body(content = contract::ImportEvent, description = "An event in the import format"),
    responses((status = 200, body = Written), (status = 401, response = ErrorAnswer), (status = 403, response = ErrorAnswer),
        (status = 422, description = "Every bad field, in `errors`", body = ErrorBody)))]
pub async fn put(
    State(state): State<AppState>,
    Admin(session): Admin,
    Path(event_key): Path<String>,
    ApiJson(input): ApiJson<EventInput>,
) -> ShopResult<Json<Written>> {
    if input.event_key.trim() != event_key {
        return Err(ShopError::field(
            "event_key",
            "must be the key in the address",
        ));
    }
    let spec = input.validate().map_err(|errors| {
        ShopError::fields(
            errors
                .into_iter()
                .map(|e| FieldProblem {
                    field: e.field,
                    message: e.message,
                })
                .collect(),
        )
    })?;
    let now = state.now();
    let written = state.store.write_events(&[spec], now).await?;
    state.catalogue.invalidate();
    let result = if written
        .first()
        .is_some_and(|w| matches!(w, raceshot_store::events::Written::Created(_)))
    {
        "created"
    } else {
        "updated"
    };
    let detail = serde_json::json!({ "result": result });
    state
        .store
        .audit(
            &session.actor(),
            "event.write",
            &event_target(&event_key),
            &detail,
            now,
        )
        .await?;
    Ok(Json(Written { event_key, result }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CloseRequest {
    /// `true` ends the sale now; `false` reopens it within its window.
    pub closed: bool,
}

/// Ends an event's sale early, or reopens it. Admins only.
#[utoipa::path(operation_id = "admin_events_close", post, path = "/api/admin/events/{event_key}/close", tag = "console",
    params(("event_key" = String, Path)), request_body = CloseRequest,
    responses((status = 204, description = "Done"), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer)))]
pub async fn close(
    State(state): State<AppState>,
    Admin(session): Admin,
    Path(event_key): Path<String>,
    ApiJson(req): ApiJson<CloseRequest>,
) -> ShopResult<axum::http::StatusCode> {
    let (_, event) = event_by_key(&state, &event_key).await?;
    let now = state.now();
    state
        .store
        .set_sale_closed(event.id, req.closed, now)
        .await?;
    state.catalogue.invalidate();
    let detail = serde_json::json!({ "closed": req.closed });
    state
        .store
        .audit(
            &session.actor(),
            "event.close_sale",
            &event_target(&event_key),
            &detail,
            now,
        )
        .await?;
    Ok(axum::http::StatusCode::NO_CONTENT)
}
