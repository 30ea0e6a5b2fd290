//! Every job kind's stored format, in one place: a serde struct per kind, whose fields are
//! its payload in the `jobs` table, and its [`Job`] impl naming its kind, its dedupe key and
//! its queue. Rows queued by an earlier version must still read, so neither a kind nor a
//! field is ever renamed. Services enqueue these through [`super::queue::JobQueue`]; what
//! each kind does is its [`super::BackgroundJob`] impl in a file of its own.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::infra::channels::ChannelKind;
use crate::services::messages::MessageKind;

/// Photo processing: CPU-heavy, one job per core.
pub const HEAVY: &str = "heavy";
/// Messages: short waits on providers, one worker per process beside the heavy ones, so
/// a message never waits behind a morning's photos.
pub const LIGHT: &str = "light";

/// A job kind as it is stored: its payload is the value.
pub trait Job: Serialize + DeserializeOwned + Send + Sync + 'static {
    /// The kind stored with each job, and the `kind` label of `job_duration_seconds`.
    const KIND: &'static str;

    /// What makes two jobs of this kind one: at most one job keyed `{KIND}:{dedupe_key}`
    /// ever exists, and enqueueing it again does nothing. `at` is when it is enqueued, for
    /// kinds that run once per request or per hour.
    fn dedupe_key(&self, at: DateTime<Utc>) -> String;

    /// The queue its jobs wait in: [`HEAVY`] (photo work, one worker per core) unless a
    /// kind says otherwise.
    fn queue() -> &'static str {
        HEAVY
    }
}

/// Processing one uploaded photo: at most one per photo.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct IngestPhoto {
    pub photo_id: i64,
}

impl Job for IngestPhoto {
    const KIND: &'static str = "ingest_photo";

    fn dedupe_key(&self, _at: DateTime<Utc>) -> String {
        self.photo_id.to_string()
    }
}

/// Reading a ready photo's bibs again. Each request to re-read (enqueued at its own
/// instant) is a job of its own, so a second `raceshot bibs` after a rule change runs
/// again.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ReadBibs {
    pub photo_id: i64,
}

impl Job for ReadBibs {
    const KIND: &'static str = "read_bibs";

    fn dedupe_key(&self, requested: DateTime<Utc>) -> String {
        format!("{}:{}", self.photo_id, requested.timestamp_millis())
    }
}

/// One photo's faces of `pair`, asked for at one move.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ReindexPhoto {
    pub photo_id: i64,
    /// The pair's name.
    pub pair: String,
}

impl Job for ReindexPhoto {
    const KIND: &'static str = "reindex_photo";

    fn dedupe_key(&self, requested: DateTime<Utc>) -> String {
        format!(
            "{}:{}:{}",
            self.photo_id,
            self.pair,
            requested.timestamp_millis()
        )
    }
}

/// Making the files of a paid order ready: at most one per order.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DeliverOrder {
    pub order_id: i64,
}

impl Job for DeliverOrder {
    const KIND: &'static str = "deliver_order";

    fn dedupe_key(&self, _at: DateTime<Utc>) -> String {
        self.order_id.to_string()
    }
}

/// Telling a paid order's buyer that the photos are ready: at most one per order.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NotifyOrder {
    pub order_id: i64,
}

impl Job for NotifyOrder {
    const KIND: &'static str = "notify_order";

    fn dedupe_key(&self, _at: DateTime<Utc>) -> String {
        self.order_id.to_string()
    }
}

/// Telling a privacy request's requester of the decision: at most one per request.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NotifyPrivacy {
    pub request_id: String,
}

impl Job for NotifyPrivacy {
    const KIND: &'static str = "notify_privacy";

    fn dedupe_key(&self, _at: DateTime<Utc>) -> String {
        self.request_id.clone()
    }
}

/// One message through one channel.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SendMessage {
    pub kind: MessageKind,
    /// What it is about: an order's id, a privacy request's id, an alert's id and the
    /// moment its message was due.
    pub subject: String,
    pub channel: ChannelKind,
}

impl SendMessage {
    /// The message's key in the outbox, which is also the job's dedupe key.
    pub fn key(&self) -> String {
        format!(
            "{}:{}:{}",
            self.kind.as_str(),
            self.subject,
            self.channel.as_str()
        )
    }
}

impl Job for SendMessage {
    const KIND: &'static str = "send_message";

    fn dedupe_key(&self, _at: DateTime<Utc>) -> String {
        self.key()
    }

    fn queue() -> &'static str {
        LIGHT
    }
}

/// The retention run: one per hour, whoever enqueues it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Retention {}

impl Job for Retention {
    const KIND: &'static str = "retention";

    fn dedupe_key(&self, at: DateTime<Utc>) -> String {
        at.format("%Y-%m-%dT%H").to_string()
    }
}
