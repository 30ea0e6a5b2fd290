//! Race results as an organiser publishes them: one row per finisher (bib, name, gender,
//! category, distance, gun and chip time, rank), read from the file a timing system
//! exports. Which column holds which field is the operator's [`ColumnMap`] (guessed from
//! the headers, English or Thai); every row is checked before any is kept, and each
//! problem names its line. Names are kept exactly as published and searched by their
//! [`name_key`], which forgives spaces, punctuation and case.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::bib::{Bib, BibRule};

/// The most rows one results file may hold: the largest races have some 40,000 finishers.
pub const MAX_RESULT_ROWS: usize = 100_000;
/// The longest name, category, gender or distance kept (characters).
pub const MAX_TEXT_CHARS: usize = 200;
/// The shortest name query searched (characters of its key): one letter finds everyone.
pub const MIN_NAME_QUERY: usize = 2;

/// A field of a results row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResultField {
    Bib,
    Name,
    Gender,
    Category,
    Distance,
    GunTime,
    ChipTime,
    Rank,
}

impl ResultField {
    pub const ALL: [ResultField; 8] = [
        ResultField::Bib,
        ResultField::Name,
        ResultField::Gender,
        ResultField::Category,
        ResultField::Distance,
        ResultField::GunTime,
        ResultField::ChipTime,
        ResultField::Rank,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ResultField::Bib => "bib",
            ResultField::Name => "name",
            ResultField::Gender => "gender",
            ResultField::Category => "category",
            ResultField::Distance => "distance",
            ResultField::GunTime => "gun_time",
            ResultField::ChipTime => "chip_time",
            ResultField::Rank => "rank",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.as_str() == raw.trim())
    }

    /// Whether a results file must have the field: a row is a bib and a name.
    pub fn required(self) -> bool {
        matches!(self, ResultField::Bib | ResultField::Name)
    }

    /// Headers timing systems and organisers use for the field, compared by
    /// [`header_key`].
    fn usual_headers(self) -> &'static [&'static str] {
        match self {
            ResultField::Bib => &[
                "bib",
                "bibno",
                "bibnumber",
                "no",
                "number",
                "หมายเลข",
                "เลขบิบ",
                "บิบ",
            ],
            ResultField::Name => &[
                "name",
                "fullname",
                "runner",
                "athlete",
                "ชื่อ",
                "ชื่อนามสกุล",
                "ชื่อสกุล",
            ],
            ResultField::Gender => &["gender", "sex", "เพศ"],
            ResultField::Category => &[
                "category",
                "agegroup",
                "division",
                "class",
                "รุ่น",
                "ประเภท",
                "รุ่นอายุ",
            ],
            ResultField::Distance => &["distance", "race", "course", "event", "ระยะ", "ระยะทาง"],
            ResultField::GunTime => &["guntime", "gun", "time", "เวลา", "เวลาปืน"],
            ResultField::ChipTime => &["chiptime", "chip", "nettime", "net", "เวลาชิป", "เวลาสุทธิ"],
            ResultField::Rank => &[
                "rank",
                "overallrank",
                "overall",
                "position",
                "pos",
                "place",
                "อันดับ",
                "ลำดับ",
            ],
        }
    }
}

/// A header as compared with the usual ones: lower case, without spaces or punctuation.
fn header_key(header: &str) -> String {
    header
        .trim_start_matches('\u{feff}')
        .chars()
        .filter(|c| c.is_alphanumeric() || is_thai_mark(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Which column (by its header) holds which field.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ColumnMap(pub BTreeMap<ResultField, String>);

impl ColumnMap {
    /// The map the headers suggest: each field to the first header that is one of its
    /// usual names; a header serves one field.
    pub fn guess(headers: &[String]) -> Self {
        let keys: Vec<String> = headers.iter().map(|h| header_key(h)).collect();
        let mut map = BTreeMap::new();
        let mut taken = vec![false; headers.len()];
        for field in ResultField::ALL {
            let found = field.usual_headers().iter().find_map(|usual| {
                keys.iter()
                    .enumerate()
                    .find(|(i, k)| !taken[*i] && k.as_str() == *usual)
                    .map(|(i, _)| i)
            });
            if let Some(i) = found {
                taken[i] = true;
                map.insert(field, headers[i].clone());
            }
        }
        ColumnMap(map)
    }

    /// The column index of each mapped field in `headers`; problems name the fields whose
    /// column is missing, and the required fields left unmapped.
    fn columns(&self, headers: &[String]) -> Result<BTreeMap<ResultField, usize>, Vec<String>> {
        let mut problems = Vec::new();
        let mut columns = BTreeMap::new();
        for field in ResultField::ALL {
            match self.0.get(&field) {
                Some(header) => match headers.iter().position(|h| h.trim() == header.trim()) {
                    Some(i) => {
                        columns.insert(field, i);
                    }
                    None => problems.push(format!(
                        "{}: the file has no column {header:?}",
                        field.as_str()
                    )),
                },
                None if field.required() => {
                    problems.push(format!(
                        "{}: choose the column that holds it",
                        field.as_str()
                    ));
                }
                None => {}
            }
        }
        if problems.is_empty() {
            Ok(columns)
        } else {
            Err(problems)
        }
    }
}

/// A time of the race, to the hundredth of a second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct RaceTime(u32);

impl RaceTime {
    /// `H:MM:SS`, `HH:MM:SS`, `MM:SS`, each with an optional fraction (`.5`, `.45`, `,45`).
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.trim();
        let (whole, fraction) = match text.split_once(['.', ',']) {
            Some((w, f)) => (w, Some(f)),
            None => (text, None),
        };
        let parts: Vec<&str> = whole.split(':').collect();
        if !(2..=3).contains(&parts.len())
            || parts
                .iter()
                .any(|p| p.is_empty() || p.len() > 3 || !p.bytes().all(|b| b.is_ascii_digit()))
        {
            return None;
        }
        let numbers: Vec<u32> = parts.iter().filter_map(|p| p.parse().ok()).collect();
        let (h, m, s) = match numbers[..] {
            [h, m, s] => (h, m, s),
            [m, s] => (0, m, s),
            _ => return None,
        };
        if m >= 60 || s >= 60 || h > 99 {
            return None;
        }
        let hundredths = match fraction {
            None => 0,
            Some(f) if !f.is_empty() && f.len() <= 3 && f.bytes().all(|b| b.is_ascii_digit()) => {
                let padded = format!("{f:0<3}");
                padded.parse::<u32>().ok()? / 10
            }
            Some(_) => return None,
        };
        Some(RaceTime(((h * 60 + m) * 60 + s) * 100 + hundredths))
    }

    /// Hundredths of a second, as stored.
    pub fn hundredths(self) -> u32 {
        self.0
    }

    pub fn from_hundredths(h: u32) -> Self {
        RaceTime(h)
    }
}

/// `H:MM:SS`, with hundredths when there are any.
impl std::fmt::Display for RaceTime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (secs, hundredths) = (self.0 / 100, self.0 % 100);
        write!(f, "{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)?;
        if hundredths > 0 {
            write!(f, ".{hundredths:02}")?;
        }
        Ok(())
    }
}

/// One finisher's result as the organiser published it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RaceResult {
    pub bib: Bib,
    pub name: String,
    pub gender: Option<String>,
    pub category: Option<String>,
    pub distance: Option<String>,
    pub gun_time: Option<RaceTime>,
    pub chip_time: Option<RaceTime>,
    pub rank: Option<u32>,
}

impl RaceResult {
    /// The name as searched.
    pub fn name_key(&self) -> String {
        name_key(&self.name)
    }
}

/// A row of a results file, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultRow {
    /// The file's line the row came from (the header is line 1).
    pub line: usize,
    pub result: RaceResult,
}

/// A row that cannot be kept, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RowProblem {
    /// The file's line (the header is line 1); 0 for the file as a whole.
    pub line: usize,
    pub reason: String,
}

/// Checks every record (`line`, cells) of a results file with `headers` as `map` says:
/// all rows, or every problem (a bib not of `rule`, a bib twice, a name missing, a time
/// or rank that is not one).
pub fn read_rows(
    headers: &[String],
    records: impl IntoIterator<Item = (usize, Vec<String>)>,
    map: &ColumnMap,
    rule: &BibRule,
) -> Result<Vec<ResultRow>, Vec<RowProblem>> {
    let columns = map.columns(headers).map_err(|reasons| {
        reasons
            .into_iter()
            .map(|reason| RowProblem { line: 1, reason })
            .collect::<Vec<_>>()
    })?;
    let mut rows = Vec::new();
    let mut problems = Vec::new();
    let mut seen: BTreeMap<Bib, usize> = BTreeMap::new();
    for (line, cells) in records {
        if cells.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        if rows.len() + problems.len() >= MAX_RESULT_ROWS {
            problems.push(RowProblem {
                line,
                reason: format!("a results file holds at most {MAX_RESULT_ROWS} rows"),
            });
            break;
        }
        match read_row(&cells, &columns, rule) {
            Ok(result) => match seen.get(&result.bib) {
                Some(first) => problems.push(RowProblem {
                    line,
                    reason: format!("bib {} is on line {first} already", result.bib),
                }),
                None => {
                    seen.insert(result.bib.clone(), line);
                    rows.push(ResultRow { line, result });
                }
            },
            Err(reason) => problems.push(RowProblem { line, reason }),
        }
    }
    if problems.is_empty() {
        Ok(rows)
    } else {
        Err(problems)
    }
}

fn read_row(
    cells: &[String],
    columns: &BTreeMap<ResultField, usize>,
    rule: &BibRule,
) -> Result<RaceResult, String> {
    let cell = |field: ResultField| -> Option<&str> {
        let text = cells.get(*columns.get(&field)?)?.trim();
        (!text.is_empty()).then_some(text)
    };
    let text = |field: ResultField| -> Result<Option<String>, String> {
        match cell(field) {
            Some(t) if t.chars().count() > MAX_TEXT_CHARS => Err(format!(
                "{} is longer than {MAX_TEXT_CHARS} characters",
                field.as_str()
            )),
            Some(t) if t.chars().any(char::is_control) => {
                Err(format!("{} holds control characters", field.as_str()))
            }
            other => Ok(other.map(str::to_owned)),
        }
    };
    let time = |field: ResultField| -> Result<Option<RaceTime>, String> {
        cell(field)
            .map(|t| {
                RaceTime::parse(t)
                    .ok_or_else(|| format!("{} {t:?} is not a time like 1:02:03", field.as_str()))
            })
            .transpose()
    };
    let bib_text = cell(ResultField::Bib).ok_or("bib is empty")?;
    let bib = rule
        .parse(bib_text)
        .map_err(|e| format!("bib {bib_text:?}: {e}"))?;
    let name = text(ResultField::Name)?.ok_or("name is empty")?;
    let rank = cell(ResultField::Rank)
        .map(|r| {
            r.trim_start_matches('#')
                .parse::<u32>()
                .ok()
                .filter(|r| *r > 0)
                .ok_or_else(|| format!("rank {r:?} is not a whole number above 0"))
        })
        .transpose()?;
    Ok(RaceResult {
        bib,
        name,
        gender: text(ResultField::Gender)?,
        category: text(ResultField::Category)?,
        distance: text(ResultField::Distance)?,
        gun_time: time(ResultField::GunTime)?,
        chip_time: time(ResultField::ChipTime)?,
        rank,
    })
}

/// Thai vowel and tone marks, which are not alphanumeric but are part of a name.
fn is_thai_mark(c: char) -> bool {
    ('\u{0E31}'..='\u{0E3A}').contains(&c) || ('\u{0E47}'..='\u{0E4E}').contains(&c)
}

/// A name as searched: lower case, without spaces, dots, dashes or other punctuation, so
/// `Somchai  Jaidee`, `somchai jaidee` and `SOMCHAI-JAIDEE` are one, as are Thai names
/// typed with or without the space between given name and surname.
pub fn name_key(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric() || is_thai_mark(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn times_read_as_timing_systems_write_them() {
        let t = |s: &str| RaceTime::parse(s).map(|t| t.to_string());
        assert_eq!(t("1:02:03"), Some("1:02:03".into()));
        assert_eq!(t("01:02:03.4"), Some("1:02:03.40".into()));
        assert_eq!(t("42:05,25"), Some("0:42:05.25".into()));
        assert_eq!(t("12:60:00"), None);
        assert_eq!(t("1:2"), Some("0:01:02".into()));
        assert_eq!(t("abc"), None);
        assert_eq!(t("1:02:03:04"), None);
        assert_eq!(t(""), None);
    }

    #[test]
    fn names_are_searched_without_spaces_case_or_punctuation() {
        assert_eq!(name_key("Somchai  JAIDEE"), "somchaijaidee");
        assert_eq!(name_key("O'Brien-Smith"), "obriensmith");
        assert_eq!(name_key("สมชาย ใจดี"), name_key("สมชายใจดี"));
        // Tone and vowel marks stay: they tell names apart.
        assert_eq!(name_key("น้ำ"), "น้ำ");
    }

    #[test]
    fn headers_are_guessed_in_english_and_thai() {
        let map = ColumnMap::guess(&strings(&[
            "\u{feff}Bib No.",
            "ชื่อ-นามสกุล",
            "Gender",
            "Chip Time",
            "Overall Rank",
        ]));
        assert_eq!(
            map.0.get(&ResultField::Bib).map(String::as_str),
            Some("\u{feff}Bib No.")
        );
        assert_eq!(
            map.0.get(&ResultField::Name).map(String::as_str),
            Some("ชื่อ-นามสกุล")
        );
        assert_eq!(
            map.0.get(&ResultField::ChipTime).map(String::as_str),
            Some("Chip Time")
        );
        assert_eq!(
            map.0.get(&ResultField::Rank).map(String::as_str),
            Some("Overall Rank")
        );
        assert_eq!(map.0.get(&ResultField::GunTime), None);
    }

    #[test]
    fn every_bad_row_is_named_by_its_line_and_nothing_is_kept() {
        let headers = strings(&["bib", "name", "chip time", "rank"]);
        let map = ColumnMap::guess(&headers);
        let rule = BibRule::default();
        let good = vec![
            (2, strings(&["42", "Somchai Jaidee", "1:02:03", "1"])),
            (3, strings(&["043", "สมหญิง ใจงาม", "", ""])),
        ];
        let rows = read_rows(&headers, good.clone(), &map, &rule).unwrap_or_default();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].result.bib.as_str(), "43");
        assert_eq!(rows[1].line, 3);
        assert_eq!(
            rows[0].result.chip_time.map(RaceTime::hundredths),
            Some(372_300)
        );
        let mut bad = good;
        bad.push((4, strings(&["42", "Again", "", ""])));
        bad.push((5, strings(&["x", "Who", "", ""])));
        bad.push((6, strings(&["7", "", "", ""])));
        bad.push((7, strings(&["8", "Late", "soon", "0"])));
        bad.push((8, strings(&["", "", "", ""])));
        let problems = read_rows(&headers, bad, &map, &rule)
            .err()
            .unwrap_or_default();
        let lines: Vec<usize> = problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, [4, 5, 6, 7]);
        assert!(problems[0].reason.contains("line 2"));
    }

    #[test]
    fn a_map_without_bib_or_name_is_refused_before_any_row() {
        let headers = strings(&["runner no", "time"]);
        let problems = read_rows(
            &headers,
            Vec::new(),
            &ColumnMap::guess(&headers),
            &BibRule::default(),
        )
        .err()
        .unwrap_or_default();
        assert_eq!(problems.len(), 2);
        assert!(problems.iter().all(|p| p.line == 1));
    }
}
