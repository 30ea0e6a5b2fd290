//! The shop's calendar: every date a person reads or writes is in Asia/Bangkok (UTC+7, no
//! daylight saving), while the server stores instants in UTC.

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc};

/// UTC+7, checked when the crate compiles.
#[allow(clippy::panic)]
const BANGKOK: FixedOffset = match FixedOffset::east_opt(7 * 3600) {
    Some(offset) => offset,
    None => panic!("UTC+7 is a valid offset"),
};

pub fn bangkok() -> FixedOffset {
    BANGKOK
}

/// The calendar day in Bangkok at `now`.
pub fn bangkok_date(now: DateTime<Utc>) -> NaiveDate {
    now.with_timezone(&bangkok()).date_naive()
}

/// `2026-12-01T09:30:00+07:00`
pub fn format_bangkok(t: DateTime<Utc>) -> String {
    t.with_timezone(&bangkok())
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, false)
}

/// `2026-12-01 09:30`: language-neutral text the web app shows or re-formats.
pub fn format_bangkok_short(t: DateTime<Utc>) -> String {
    t.with_timezone(&bangkok())
        .format("%Y-%m-%d %H:%M")
        .to_string()
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected a date YYYY-MM-DD or an RFC 3339 date-time, got '{0}'")]
pub struct TimeError(pub String);

pub fn parse_date(raw: &str) -> Result<NaiveDate, TimeError> {
    NaiveDate::parse_from_str(raw, "%Y-%m-%d").map_err(|_| TimeError(raw.to_owned()))
}

/// Which end of a day a bare date stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DayEdge {
    Start,
    End,
}

/// Reads `YYYY-MM-DD` (the start or the end of that Bangkok day), an RFC 3339 date-time, or
/// a date-time without offset (taken as Bangkok time).
pub fn parse_instant(raw: &str, edge: DayEdge) -> Result<DateTime<Utc>, TimeError> {
    let err = || TimeError(raw.to_owned());
    if let Ok(t) = DateTime::parse_from_rfc3339(raw) {
        return Ok(t.with_timezone(&Utc));
    }
    let local = if let Ok(date) = parse_date(raw) {
        let time = match edge {
            DayEdge::Start => NaiveTime::MIN,
            DayEdge::End => NaiveTime::from_hms_opt(23, 59, 59).ok_or_else(err)?,
        };
        date.and_time(time)
    } else {
        [
            "%Y-%m-%dT%H:%M:%S",
            "%Y-%m-%dT%H:%M",
            "%Y-%m-%d %H:%M:%S",
            "%Y-%m-%d %H:%M",
        ]
        .iter()
        .find_map(|f| NaiveDateTime::parse_from_str(raw, f).ok())
        .ok_or_else(err)?
    };
    bangkok()
        .from_local_datetime(&local)
        .single()
        .map(|t| t.with_timezone(&Utc))
        .ok_or_else(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s)
            .map(|t| t.with_timezone(&Utc))
            .unwrap_or_default()
    }

    #[test]
    fn bare_dates_are_bangkok_days() {
        assert_eq!(
            parse_instant("2026-12-01", DayEdge::Start),
            Ok(utc("2026-11-30T17:00:00Z"))
        );
        assert_eq!(
            parse_instant("2026-12-01", DayEdge::End),
            Ok(utc("2026-12-01T16:59:59Z"))
        );
    }

    #[test]
    fn date_times_with_and_without_offset() {
        assert_eq!(
            parse_instant("2026-12-01T09:30:00+07:00", DayEdge::Start),
            Ok(utc("2026-12-01T02:30:00Z"))
        );
        assert_eq!(
            parse_instant("2026-12-01T09:30:00Z", DayEdge::Start),
            Ok(utc("2026-12-01T09:30:00Z"))
        );
        assert_eq!(
            parse_instant("2026-12-01T09:30:00", DayEdge::End),
            Ok(utc("2026-12-01T02:30:00Z"))
        );
        assert!(parse_instant("2026-13-01", DayEdge::Start).is_err());
        assert!(parse_instant("tomorrow", DayEdge::Start).is_err());
    }

    #[test]
    fn bangkok_day_turns_at_17_utc() {
        assert_eq!(
            bangkok_date(utc("2026-11-30T16:59:59Z")).to_string(),
            "2026-11-30"
        );
        assert_eq!(
            bangkok_date(utc("2026-11-30T17:00:00Z")).to_string(),
            "2026-12-01"
        );
        assert_eq!(
            format_bangkok(utc("2026-11-30T17:00:00Z")),
            "2026-12-01T00:00:00+07:00"
        );
    }
}
