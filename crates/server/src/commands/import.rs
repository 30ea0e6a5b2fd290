//! `raceshot event import FILE.json`: create or update events (by `event_key`) from a JSON
//! file holding one event object or an array of them, in the shop's field names
//! (docs/event-import.md). The whole file is checked first and written in one transaction:
//! a bad file changes nothing.

use std::path::Path;

use chrono::{DateTime, Utc};
use raceshot_domain::event::{EventInput, EventSpec};
use raceshot_store::Store;
use raceshot_store::audit::event_target;
use raceshot_store::events::Written;

use crate::services::operators::cli_actor;

/// Why a file was refused: every problem, each naming its field.
#[derive(Debug, thiserror::Error)]
#[error("{} refused:\n  - {}", .file, .problems.join("\n  - "))]
pub struct Refused {
    pub file: String,
    pub problems: Vec<String>,
}

/// Parses and checks a whole import file.
pub fn parse_events(text: &str) -> Result<Vec<EventSpec>, Vec<String>> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| vec![format!("not valid JSON: {e}")])?;
    let (items, many) = match value {
        serde_json::Value::Array(items) => (items, true),
        obj @ serde_json::Value::Object(_) => (vec![obj], false),
        _ => {
            return Err(vec![
                "expected an event object or an array of events".to_owned(),
            ]);
        }
    };
    if items.is_empty() {
        return Err(vec!["the file holds no events".to_owned()]);
    }
    let mut problems = Vec::new();
    let mut specs: Vec<EventSpec> = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        let at = |field: &str| match (many, field.is_empty()) {
            (true, true) => format!("[{i}]"),
            (true, false) => format!("[{i}].{field}"),
            (false, _) => field.to_owned(),
        };
        let input: EventInput = match serde_path_to_error::deserialize(item) {
            Ok(input) => input,
            Err(e) => {
                let path = e.path().to_string();
                let path = if path == "." { String::new() } else { path };
                problems.push(format!("{}: {}", at(&path), e.into_inner()));
                continue;
            }
        };
        match input.validate() {
            Ok(spec) => {
                if specs.iter().any(|s| s.key == spec.key) {
                    problems.push(format!(
                        "{}: '{}' appears twice in the file",
                        at("event_key"),
                        spec.key
                    ));
                }
                specs.push(spec);
            }
            Err(errors) => problems.extend(
                errors
                    .into_iter()
                    .map(|e| format!("{}: {}", at(&e.field), e.message)),
            ),
        }
    }
    if problems.is_empty() {
        Ok(specs)
    } else {
        Err(problems)
    }
}

/// Imports a file; answers what was created or updated, or why nothing was.
pub async fn import_file(
    store: &Store,
    path: &Path,
    now: DateTime<Utc>,
) -> anyhow::Result<Vec<(String, Written)>> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| Refused {
        file: file.clone(),
        problems: vec![format!("cannot read: {e}")],
    })?;
    let specs = parse_events(&text).map_err(|problems| Refused {
        file: file.clone(),
        problems,
    })?;
    let written = store.write_events(&specs, now).await?;
    for (spec, w) in specs.iter().zip(&written) {
        let action = match w {
            Written::Created(_) => "event.create",
            Written::Updated(_) => "event.update",
        };
        let detail = serde_json::json!({ "source": file, "event_id": w.id() });
        store
            .audit(&cli_actor(), action, &event_target(&spec.key), &detail, now)
            .await?;
    }
    Ok(specs
        .into_iter()
        .map(|s| s.key.to_string())
        .zip(written)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{"event_key":"bkk","title":"Bangkok","eventdate":"2026-11-15",
        "on_sale_start":"2026-11-15","on_sale_end":"2026-12-15",
        "package":[{"name":"1","name_en":"1","number_of_photo":1,"price":60}]}"#;

    #[test]
    fn one_event_or_many() {
        assert_eq!(parse_events(GOOD).map(|v| v.len()), Ok(1));
        let two = format!("[{GOOD}, {}]", GOOD.replace("\"bkk\"", "\"cnx\""));
        assert_eq!(parse_events(&two).map(|v| v.len()), Ok(2));
    }

    #[test]
    fn problems_name_their_field() {
        let cases = [
            ("{", "not valid JSON"),
            ("42", "expected an event object"),
            ("[]", "no events"),
            (
                &GOOD.replace("\"price\":60", "\"price\":\"60\"") as &str,
                "package[0].price: invalid type",
            ),
            (
                &GOOD.replace("\"title\"", "\"colour\":1,\"title\""),
                "unknown field `colour`",
            ),
            (
                &GOOD.replace("2026-12-15", "2026-02-30"),
                "on_sale_end: expected a date",
            ),
            (
                &GOOD.replace("\"price\":60", "\"price\":60.123"),
                "package[0].price: amount may have at most two decimals",
            ),
        ];
        for (text, want) in cases {
            let got = parse_events(text).err().unwrap_or_default().join("\n");
            assert!(got.contains(want), "{want:?} not in {got:?}");
        }
        let twice = format!("[{GOOD}, {GOOD}]");
        let got = parse_events(&twice).err().unwrap_or_default();
        assert_eq!(
            got,
            vec!["[1].event_key: 'bkk' appears twice in the file".to_owned()]
        );
    }
}
