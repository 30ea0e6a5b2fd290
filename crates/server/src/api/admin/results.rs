//! Race results in the console (admins only: results are runners' personal data): import
//! an event's results file, checking it first to show which column holds which field;
//! see the last import; delete one runner's row. The rules are in
//! `crate::services::results`.

use std::collections::BTreeMap;

use axum::Json;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use raceshot_domain::EventKey;
use raceshot_domain::results::{ColumnMap, ResultField, RowProblem};
use raceshot_store::events::Event;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::auth::Admin;
use crate::api::error::{ErrorAnswer, ErrorBody};
use crate::api::extract::{ApiPath, ApiQuery, capped_body, content_type_is};
use crate::app::state::AppState;
use crate::error::{ErrorCode, FieldProblem, ShopError, ShopResult};
use crate::services::results::{self, MAX_FILE_BYTES, ResultsError};

/// Which column holds which field; none given: the event's last map, else the headers'
/// usual names. `check=true` reads and checks the file without keeping it.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ImportQuery {
    pub check: Option<bool>,
    pub bib: Option<String>,
    pub name: Option<String>,
    pub gender: Option<String>,
    pub category: Option<String>,
    pub distance: Option<String>,
    pub gun_time: Option<String>,
    pub chip_time: Option<String>,
    pub rank: Option<String>,
}

impl ImportQuery {
    /// The operator's map, when any column was chosen.
    fn columns(&self) -> Option<ColumnMap> {
        let chosen = [
            (ResultField::Bib, &self.bib),
            (ResultField::Name, &self.name),
            (ResultField::Gender, &self.gender),
            (ResultField::Category, &self.category),
            (ResultField::Distance, &self.distance),
            (ResultField::GunTime, &self.gun_time),
            (ResultField::ChipTime, &self.chip_time),
            (ResultField::Rank, &self.rank),
        ];
        let map: BTreeMap<ResultField, String> = chosen
            .into_iter()
            .filter_map(|(field, header)| {
                let header = header.as_deref()?.trim();
                (!header.is_empty()).then(|| (field, header.to_owned()))
            })
            .collect();
        (!map.is_empty()).then_some(ColumnMap(map))
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ResultsProblem {
    /// The file's line (the header is line 1).
    pub line: usize,
    pub reason: String,
}

impl From<RowProblem> for ResultsProblem {
    fn from(p: RowProblem) -> Self {
        ResultsProblem {
            line: p.line,
            reason: p.reason,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ResultsChecked {
    /// Whether the rows were kept (never with `check=true`).
    pub imported: bool,
    /// Rows read, when every row holds.
    pub rows: usize,
    /// The file's headers, in order.
    pub headers: Vec<String>,
    /// The header each field was read from (`bib`, `name`, `gender`, `category`,
    /// `distance`, `gun_time`, `chip_time`, `rank`).
    #[schema(value_type = BTreeMap<String, String>)]
    pub columns: ColumnMap,
    /// Each row that cannot be kept; nothing is imported while there is one.
    pub problems: Vec<ResultsProblem>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ResultsImport {
    /// When the results were last imported (RFC 3339); absent before the first import.
    pub imported_at: Option<String>,
    pub rows: i64,
    #[schema(value_type = BTreeMap<String, String>)]
    pub columns: ColumnMap,
}

/// The console's answer to a results error.
fn results_error(e: ResultsError) -> ShopError {
    match e {
        ResultsError::Rows(problems) => ShopError::fields(
            problems
                .into_iter()
                .map(|p| FieldProblem {
                    field: "file".to_owned(),
                    message: format!("line {}: {}", p.line, p.reason),
                })
                .collect(),
        ),
        ResultsError::NotFound => ShopError::new(ErrorCode::NotFound, e.to_string()),
        ResultsError::NotUtf8
        | ResultsError::Empty
        | ResultsError::Unreadable { .. }
        | ResultsError::Query => ShopError::field("file", e.to_string()),
        ResultsError::BibSearch(_) | ResultsError::Store(_) => ShopError::internal(e),
    }
}

/// Any event by key (hidden ones too: the console prepares them).
pub(super) async fn event_of(state: &AppState, event_key: &str) -> ShopResult<Event> {
    let not_found = || ShopError::new(ErrorCode::EventNotFound, "no such event");
    let key = EventKey::parse(event_key).map_err(|_| not_found())?;
    state
        .store
        .any_event_by_key(&key)
        .await?
        .ok_or_else(not_found)
}

/// Imports an event's results file (CSV, UTF-8, as timing systems export it), replacing
/// its results; with `check=true`, reads and checks it only. A file with a bad row
/// imports nothing: each bad line is named.
#[utoipa::path(operation_id = "admin_results_import", put, path = "/api/admin/events/{event_key}/results", tag = "console",
    params(("event_key" = String, Path), ImportQuery),
    request_body(content = String, content_type = "text/csv"),
    responses((status = 200, body = ResultsChecked), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer),
        (status = 413, description = "Over 8 MB", body = ErrorBody), (status = 415, response = ErrorAnswer),
        (status = 422, response = ErrorAnswer)))]
pub async fn import(
    State(state): State<AppState>,
    admin: Admin,
    ApiPath(event_key): ApiPath<String>,
    ApiQuery(q): ApiQuery<ImportQuery>,
    headers: HeaderMap,
    body: Body,
) -> ShopResult<Json<ResultsChecked>> {
    if !content_type_is(&headers, &["text/csv", "text/plain"]) {
        return Err(ShopError::new(
            ErrorCode::UnsupportedMediaType,
            "send the results file as text/csv",
        ));
    }
    let event = event_of(&state, &event_key).await?;
    let bytes = capped_body(body, MAX_FILE_BYTES, "results files up to 8 MB").await?;
    let checked = results::check(&state.store, &event, &bytes, q.columns())
        .await
        .map_err(results_error)?;
    let check_only = q.check == Some(true);
    let (rows, problems, imported) = match &checked.rows {
        Err(problems) if !check_only => {
            return Err(results_error(ResultsError::Rows(problems.clone())));
        }
        Err(problems) => (0, problems.clone(), false),
        Ok(rows) if check_only => (rows.len(), Vec::new(), false),
        Ok(rows) => {
            let actor = admin.0.actor();
            results::keep(
                &state.store,
                &event,
                rows,
                &checked.columns,
                &actor,
                state.now(),
            )
            .await
            .map_err(results_error)?;
            (rows.len(), Vec::new(), true)
        }
    };
    Ok(Json(ResultsChecked {
        imported,
        rows,
        headers: checked.headers,
        columns: checked.columns,
        problems: problems.into_iter().map(Into::into).collect(),
    }))
}

/// The event's last results import: when, how many rows, and its column map.
#[utoipa::path(operation_id = "admin_results_get", get, path = "/api/admin/events/{event_key}/results", tag = "console",
    params(("event_key" = String, Path)),
    responses((status = 200, body = ResultsImport), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer)))]
pub async fn get(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath(event_key): ApiPath<String>,
) -> ShopResult<Json<ResultsImport>> {
    let event = event_of(&state, &event_key).await?;
    let last = state.store.results_imported(event.id).await?;
    Ok(Json(match last {
        Some(last) => ResultsImport {
            imported_at: Some(last.at.to_rfc3339()),
            rows: last.rows,
            columns: last.columns,
        },
        None => ResultsImport {
            imported_at: None,
            rows: 0,
            columns: ColumnMap::default(),
        },
    }))
}

/// Deletes one runner's result (a runner asked, or the organiser withdrew it).
#[utoipa::path(operation_id = "admin_results_delete", delete, path = "/api/admin/events/{event_key}/results/{bib}", tag = "console",
    params(("event_key" = String, Path), ("bib" = String, Path)),
    responses((status = 204, description = "Deleted"), (status = 401, response = ErrorAnswer),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer)))]
pub async fn delete(
    State(state): State<AppState>,
    admin: Admin,
    ApiPath((event_key, bib)): ApiPath<(String, String)>,
) -> ShopResult<StatusCode> {
    let event = event_of(&state, &event_key).await?;
    results::forget(
        &state.store,
        &state.objects,
        &event,
        &bib,
        &admin.0.actor(),
        state.now(),
    )
    .await
    .map_err(results_error)?;
    Ok(StatusCode::NO_CONTENT)
}
