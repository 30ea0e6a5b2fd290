//! The registry: every job kind the workers run, found by the kind stored with a claimed
//! job, whose payload is read into that kind's type. A kind not listed here, or a payload
//! its type cannot read, fails for good with the reason; retrying cannot help.

use futures::future::BoxFuture;
use raceshot_store::jobs::Job;

use super::job::{BackgroundJob, JobContext, JobError};
use super::kinds::{
    DeliverOrder, IngestPhoto, NotifyOrder, NotifyPrivacy, ReadBibs, ReindexPhoto, Retention,
    SendMessage,
};

/// Every kind the workers run.
const KINDS: &[Kind] = &[
    kind::<IngestPhoto>(),
    kind::<ReadBibs>(),
    kind::<ReindexPhoto>(),
    kind::<DeliverOrder>(),
    kind::<NotifyOrder>(),
    kind::<NotifyPrivacy>(),
    kind::<Retention>(),
    kind::<SendMessage>(),
];

/// A job read from its row, of whichever kind: what the runner calls.
pub trait Runnable: Send + Sync {
    fn run<'a>(&'a self, ctx: &'a JobContext<'a>) -> BoxFuture<'a, Result<(), JobError>>;
    fn gave_up<'a>(&'a self, ctx: &'a JobContext<'a>, error: &'a str) -> BoxFuture<'a, ()>;
}

impl<J: BackgroundJob> Runnable for J {
    fn run<'a>(&'a self, ctx: &'a JobContext<'a>) -> BoxFuture<'a, Result<(), JobError>> {
        Box::pin(BackgroundJob::run(self, ctx))
    }

    fn gave_up<'a>(&'a self, ctx: &'a JobContext<'a>, error: &'a str) -> BoxFuture<'a, ()> {
        Box::pin(BackgroundJob::gave_up(self, ctx, error))
    }
}

/// A registered kind: its name and how its payload is read.
struct Kind {
    name: &'static str,
    read: fn(&str) -> serde_json::Result<Box<dyn Runnable>>,
}

const fn kind<J: BackgroundJob>() -> Kind {
    Kind {
        name: J::KIND,
        read: read::<J>,
    }
}

fn read<J: BackgroundJob>(payload: &str) -> serde_json::Result<Box<dyn Runnable>> {
    Ok(Box::new(serde_json::from_str::<J>(payload)?))
}

/// The job a claimed row holds.
pub fn job_of(row: &Job) -> Result<Box<dyn Runnable>, JobError> {
    let kind = KINDS
        .iter()
        .find(|k| k.name == row.kind)
        .ok_or_else(|| JobError::Permanent(format!("unknown job kind {}", row.kind)))?;
    (kind.read)(&row.payload)
        .map_err(|e| JobError::Permanent(format!("bad payload {}: {e}", row.payload)))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use chrono::{DateTime, TimeZone, Utc};
    use serde_json::{Value, json};

    use super::*;
    use crate::jobs::queue::dedupe_key;

    fn row(kind: &str, payload: &str) -> Job {
        Job {
            id: 1,
            queue: crate::jobs::HEAVY.to_owned(),
            kind: kind.to_owned(),
            payload: payload.to_owned(),
            attempts: 1,
            max_attempts: 5,
        }
    }

    #[test]
    fn every_kind_is_registered_once() {
        let mut names: Vec<_> = KINDS.iter().map(|k| k.name).collect();
        names.sort_unstable();
        assert_eq!(
            names,
            [
                "deliver_order",
                "ingest_photo",
                "notify_order",
                "notify_privacy",
                "read_bibs",
                "reindex_photo",
                "retention",
                "send_message"
            ]
        );
    }

    /// How a job is stored: its kind, payload and dedupe key.
    fn stored<J: BackgroundJob>(job: &J, at: DateTime<Utc>) -> (&'static str, Value, String) {
        (
            J::KIND,
            serde_json::to_value(job).unwrap(),
            dedupe_key(job, at),
        )
    }

    /// The kinds, payloads and dedupe keys are those earlier versions stored: jobs they
    /// queued still run, and a job they queued is not queued again.
    #[test]
    fn jobs_are_stored_as_before() {
        let at = Utc.with_ymd_and_hms(2026, 12, 5, 9, 30, 0).unwrap();
        let ms = at.timestamp_millis();
        let request_id = "r-1".to_owned();
        let cases = [
            (
                stored(&IngestPhoto { photo_id: 7 }, at),
                (
                    "ingest_photo",
                    json!({ "photo_id": 7 }),
                    "ingest_photo:7".to_owned(),
                ),
            ),
            (
                stored(&ReadBibs { photo_id: 7 }, at),
                (
                    "read_bibs",
                    json!({ "photo_id": 7 }),
                    format!("read_bibs:7:{ms}"),
                ),
            ),
            (
                stored(&DeliverOrder { order_id: 3 }, at),
                (
                    "deliver_order",
                    json!({ "order_id": 3 }),
                    "deliver_order:3".to_owned(),
                ),
            ),
            (
                stored(&NotifyOrder { order_id: 3 }, at),
                (
                    "notify_order",
                    json!({ "order_id": 3 }),
                    "notify_order:3".to_owned(),
                ),
            ),
            (
                stored(&NotifyPrivacy { request_id }, at),
                (
                    "notify_privacy",
                    json!({ "request_id": "r-1" }),
                    "notify_privacy:r-1".to_owned(),
                ),
            ),
            (
                stored(
                    &SendMessage {
                        kind: crate::services::messages::MessageKind::OrderReady,
                        subject: "3".to_owned(),
                        channel: crate::infra::channels::ChannelKind::Line,
                    },
                    at,
                ),
                (
                    "send_message",
                    json!({ "kind": "order_ready", "subject": "3", "channel": "line" }),
                    "send_message:order_ready:3:line".to_owned(),
                ),
            ),
            (
                stored(&Retention {}, at),
                ("retention", json!({}), "retention:2026-12-05T09".to_owned()),
            ),
        ];
        for (now, before) in cases {
            assert_eq!(now, before);
            let (kind, payload, _) = before;
            assert!(job_of(&row(kind, &payload.to_string())).is_ok(), "{kind}");
        }
    }

    #[test]
    fn unknown_kinds_and_unreadable_payloads_fail_for_good() {
        let reason = |kind, payload| match job_of(&row(kind, payload)) {
            Err(JobError::Permanent(reason)) => reason,
            Err(e) => panic!("{kind}: not permanent: {e}"),
            Ok(_) => panic!("{kind}: read"),
        };
        assert_eq!(reason("build_zip", "{}"), "unknown job kind build_zip");
        assert!(
            reason("ingest_photo", "{}").starts_with("bad payload {}: missing field `photo_id`")
        );
        assert!(reason("deliver_order", r#"{"order_id":"3"}"#).starts_with("bad payload"));
        assert!(reason("retention", "null").starts_with("bad payload null"));
    }
}
