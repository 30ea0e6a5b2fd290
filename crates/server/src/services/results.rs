//! Race results: an organiser's results file (CSV as timing systems export it, UTF-8,
//! comma, semicolon or tab separated) imported for an event, through the console or
//! `raceshot results import`, and runners finding their row by name or bib with the
//! photos of that bib in the same answer.
//!
//! An import reads the whole file and checks every row ([`raceshot_domain::results`])
//! before any is kept: a file with a bad row changes nothing and names each bad line. The
//! columns are mapped by the operator's choice, else by the event's last import, else by
//! the headers' usual names; the map used is remembered. Importing again replaces the
//! event's results in one transaction.
//!
//! Results are personal data, shown exactly as the organiser published them: an operator
//! may delete one runner's row (and their cached certificates), and the retention run
//! deletes an event's rows (and certificates) with its originals
//! (`Store::delete_results_before`).

use chrono::{DateTime, Utc};
use raceshot_domain::results::{
    ColumnMap, MIN_NAME_QUERY, RaceResult, ResultRow, RowProblem, name_key, read_rows,
};
use raceshot_store::audit::event_target;
use raceshot_store::events::Event;
use raceshot_store::{Objects, Store, StoreError};

use crate::services::bibs::{self, BibFound, BibSearchError};
use crate::services::certificates;
use crate::services::search::SearchContext;

/// The largest results file taken: some 40,000 finishers at 100 bytes a row, twice over.
pub const MAX_FILE_BYTES: usize = 8 * 1024 * 1024;
/// The longest query a runner may type (characters).
pub const MAX_QUERY_CHARS: usize = 100;

/// Why results were not imported or found.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    /// Not a text file in UTF-8.
    #[error("the results file must be UTF-8 text")]
    NotUtf8,
    /// The file has no header row.
    #[error("the results file is empty")]
    Empty,
    /// A line the CSV reader could not read (an unclosed quote).
    #[error("line {line}: {reason}")]
    Unreadable { line: usize, reason: String },
    /// Rows that cannot be kept; nothing was imported.
    #[error("{} rows cannot be imported", .0.len())]
    Rows(Vec<RowProblem>),
    /// A query too short to search by name, or too long.
    #[error("type at least {MIN_NAME_QUERY} letters of the name, or the bib number")]
    Query,
    /// No result of that bib to delete.
    #[error("no result for that bib")]
    NotFound,
    #[error(transparent)]
    BibSearch(#[from] BibSearchError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A results file as read: its headers and each record with its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultsFile {
    pub headers: Vec<String>,
    pub records: Vec<(usize, Vec<String>)>,
}

/// The separator the header line uses most of: comma, semicolon or tab.
fn separator(text: &str) -> u8 {
    let header = text.lines().next().unwrap_or_default();
    [b',', b';', b'\t']
        .into_iter()
        .max_by_key(|s| header.bytes().filter(|b| b == s).count())
        .unwrap_or(b',')
}

/// Reads a results file: UTF-8 (a byte-order mark is skipped), quoted fields as CSV
/// quotes them. Linear in the file.
pub fn read_file(bytes: &[u8]) -> Result<ResultsFile, ResultsError> {
    let text = std::str::from_utf8(bytes).map_err(|_| ResultsError::NotUtf8)?;
    let text = text.trim_start_matches('\u{feff}');
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(separator(text))
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut records = Vec::new();
    let mut headers = None;
    // The line a record starts on, counted from its byte offset (the reader's own count
    // leaves out empty lines); each newline is counted once.
    let (mut counted_to, mut line) = (0, 1);
    let mut line_at = |byte: u64| {
        let mut byte = usize::try_from(byte).unwrap_or(text.len()).min(text.len());
        // The reader's position is where it began reading: before the empty lines it skipped.
        while matches!(text.as_bytes().get(byte), Some(b'\n' | b'\r')) {
            byte += 1;
        }
        if byte > counted_to {
            line += text.as_bytes()[counted_to..byte]
                .iter()
                .filter(|b| **b == b'\n')
                .count();
            counted_to = byte;
        }
        line
    };
    for record in reader.records() {
        let record = record.map_err(|e| ResultsError::Unreadable {
            line: e.position().map_or(0, |p| p.line() as usize),
            reason: "a quoted field is not closed".to_owned(),
        })?;
        let line = record.position().map_or(0, |p| line_at(p.byte()));
        let cells: Vec<String> = record.iter().map(str::to_owned).collect();
        if headers.is_none() {
            if cells.iter().all(|c| c.trim().is_empty()) {
                continue;
            }
            headers = Some(cells.iter().map(|c| c.trim().to_owned()).collect());
        } else {
            records.push((line, cells));
        }
    }
    Ok(ResultsFile {
        headers: headers.ok_or(ResultsError::Empty)?,
        records,
    })
}

/// What checking a file found: the map it was read with, and its rows or its problems.
#[derive(Debug, Clone)]
pub struct Checked {
    pub headers: Vec<String>,
    pub columns: ColumnMap,
    pub rows: Result<Vec<ResultRow>, Vec<RowProblem>>,
}

/// Reads and checks a results file for `event`, mapped by `columns`, else by the event's
/// last import, else by its headers; keeps nothing.
pub async fn check(
    store: &Store,
    event: &Event,
    bytes: &[u8],
    columns: Option<ColumnMap>,
) -> Result<Checked, ResultsError> {
    let file = read_file(bytes)?;
    let columns = match columns {
        Some(c) => c,
        None => match store.results_imported(event.id).await? {
            Some(last) if last.columns.0.values().all(|h| file.headers.contains(h)) => last.columns,
            _ => ColumnMap::guess(&file.headers),
        },
    };
    let rows = read_rows(&file.headers, file.records, &columns, &event.spec.bib_rule);
    Ok(Checked {
        headers: file.headers,
        columns,
        rows,
    })
}

/// Imports a results file for `event`, replacing its results: every row, or nothing and
/// every problem. Answers the rows imported.
pub async fn import(
    store: &Store,
    event: &Event,
    bytes: &[u8],
    columns: Option<ColumnMap>,
    actor: &str,
    now: DateTime<Utc>,
) -> Result<usize, ResultsError> {
    let checked = check(store, event, bytes, columns).await?;
    let rows = checked.rows.map_err(ResultsError::Rows)?;
    keep(store, event, &rows, &checked.columns, actor, now).await?;
    Ok(rows.len())
}

/// Keeps checked `rows` as `event`'s results, read with `columns`, as `actor`.
pub async fn keep(
    store: &Store,
    event: &Event,
    rows: &[ResultRow],
    columns: &ColumnMap,
    actor: &str,
    now: DateTime<Utc>,
) -> Result<(), ResultsError> {
    store.replace_results(event.id, rows, columns, now).await?;
    let detail = serde_json::json!({ "rows": rows.len() });
    store
        .audit(
            actor,
            "results.import",
            &event_target(&event.spec.key),
            &detail,
            now,
        )
        .await?;
    Ok(())
}

/// Deletes one runner's result, as `actor`, and their cached certificates.
pub async fn forget(
    store: &Store,
    objects: &Objects,
    event: &Event,
    bib_text: &str,
    actor: &str,
    now: DateTime<Utc>,
) -> Result<(), ResultsError> {
    let bib = event
        .spec
        .bib_rule
        .parse(bib_text)
        .map_err(|_| ResultsError::NotFound)?;
    if !store.delete_result(event.id, &bib).await? {
        return Err(ResultsError::NotFound);
    }
    certificates::forget_cached(objects, &event.spec.key, Some(&bib)).await?;
    let detail = serde_json::json!({ "bib": bib.as_str() });
    store
        .audit(
            actor,
            "results.delete",
            &event_target(&event.spec.key),
            &detail,
            now,
        )
        .await?;
    Ok(())
}

/// What a runner's search found: the results rows, and for a single row the photos of its
/// bib (read on the photo, and the same runner's face elsewhere).
#[derive(Debug, Clone)]
pub struct Found {
    pub results: Vec<RaceResult>,
    pub photos: Option<BibFound>,
}

/// Finds results of `event` by bib (when the query is one of the event's bibs and a
/// result has it) or by name (a part of it, forgiving spaces and case), with the photos
/// of the bib when one result is found and `photos` (the event's photos are on sale).
pub async fn find(
    search: SearchContext<'_>,
    event: &Event,
    query: &str,
    photos: bool,
) -> Result<Found, ResultsError> {
    let query = query.trim();
    if query.chars().count() > MAX_QUERY_CHARS {
        return Err(ResultsError::Query);
    }
    let by_bib = match event.spec.bib_rule.parse(query) {
        Ok(bib) => search.store.result_by_bib(event.id, &bib).await?,
        Err(_) => None,
    };
    let results = match by_bib {
        Some(result) => vec![result],
        None => {
            let key = name_key(query);
            if key.chars().count() < MIN_NAME_QUERY {
                return Err(ResultsError::Query);
            }
            search.store.results_by_name(event.id, &key).await?
        }
    };
    let photos = match results.as_slice() {
        [one] if photos => Some(bibs::search(search, event, one.bib.as_str()).await?),
        _ => None,
    };
    Ok(Found { results, photos })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_read_with_their_separator_quotes_and_lines() {
        let text = "\u{feff}Bib;Name;Chip Time\n42;\"Jaidee; Somchai\";1:02:03\n\n43;สมหญิง;\n";
        let file = read_file(text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(file.headers, ["Bib", "Name", "Chip Time"]);
        // Empty lines are skipped; each record keeps its line.
        assert_eq!(file.records.len(), 2);
        assert_eq!(
            file.records[0],
            (
                2,
                vec!["42".into(), "Jaidee; Somchai".into(), "1:02:03".into()]
            )
        );
        assert_eq!(file.records[1].0, 4);
        assert!(matches!(read_file(b"\xff\xfe"), Err(ResultsError::NotUtf8)));
        assert!(matches!(read_file(b""), Err(ResultsError::Empty)));
        let tabs = read_file(b"bib\tname\n1\tA").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(tabs.records[0].1, ["1", "A"]);
    }
}
