//! `raceshot results import --event KEY FILE.csv [--column FIELD=HEADER …]`: imports an
//! event's race results from a timing system's file, as the console does; a file with a
//! bad row imports nothing and each bad line is printed.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context;
use chrono::{DateTime, Utc};
use raceshot_domain::EventKey;
use raceshot_domain::results::{ColumnMap, ResultField, RowProblem};
use raceshot_store::Store;

use crate::services::results::{self, MAX_FILE_BYTES, ResultsError};

/// What an import did.
#[derive(Debug, PartialEq, Eq)]
pub enum Report {
    Imported(usize),
    /// Nothing imported: these rows cannot be kept.
    Refused(Vec<RowProblem>),
}

/// The operator's map from `FIELD=HEADER` pairs; `None` when none was given.
pub fn parse_columns(pairs: &[String]) -> anyhow::Result<Option<ColumnMap>> {
    let mut map = BTreeMap::new();
    for pair in pairs {
        let (field, header) = pair
            .split_once('=')
            .with_context(|| format!("--column {pair:?}: write FIELD=HEADER"))?;
        let field = ResultField::parse(field).with_context(|| {
            let names: Vec<&str> = ResultField::ALL.iter().map(|f| f.as_str()).collect();
            format!(
                "--column {pair:?}: the field is one of {}",
                names.join(", ")
            )
        })?;
        map.insert(field, header.trim().to_owned());
    }
    Ok((!map.is_empty()).then_some(ColumnMap(map)))
}

pub async fn import_file(
    store: &Store,
    event_key: &str,
    file: &Path,
    columns: Option<ColumnMap>,
    actor: &str,
    now: DateTime<Utc>,
) -> anyhow::Result<Report> {
    let key = EventKey::parse(event_key)?;
    let event = store
        .any_event_by_key(&key)
        .await?
        .with_context(|| format!("no event {event_key}"))?;
    let size = std::fs::metadata(file)
        .with_context(|| format!("reading {}", file.display()))?
        .len();
    anyhow::ensure!(
        size <= MAX_FILE_BYTES as u64,
        "{} is over 8 MB: is it a results file?",
        file.display()
    );
    let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    match results::import(store, &event, &bytes, columns, actor, now).await {
        Ok(rows) => Ok(Report::Imported(rows)),
        Err(ResultsError::Rows(problems)) => Ok(Report::Refused(problems)),
        Err(e) => Err(e.into()),
    }
}
