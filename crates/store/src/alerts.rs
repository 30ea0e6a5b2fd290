//! "Tell me when new photos of me arrive": runners' alerts (a face template, a channel and
//! its address, each for the alert's lifetime, `0017_alerts.sql`), the new photos each
//! alert's face was found on, and the schedule of their messages (at most one per gap:
//! the first match is due at once, the next no sooner than a gap after the last message).

use chrono::{DateTime, Utc};
use raceshot_domain::EventKey;

use crate::macros::{in_tx, on_pool};
use crate::{Result, Store, StoreError, from_millis, millis};

/// Whether an alert is waiting for its confirmation or working.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AlertState {
    /// Asked for: the mobile's code or LINE Login is still to come.
    Pending,
    /// Confirmed: new photos are matched against it.
    Active,
}

impl AlertState {
    pub fn as_str(self) -> &'static str {
        match self {
            AlertState::Pending => "pending",
            AlertState::Active => "active",
        }
    }

    fn parse(s: &str) -> Result<Self> {
        match s {
            "pending" => Ok(AlertState::Pending),
            "active" => Ok(AlertState::Active),
            other => Err(StoreError::Corrupt(format!("alert state {other:?}"))),
        }
    }
}

/// How an alert reaches the runner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AlertChannel {
    /// A mobile number, proven by a one-time code.
    Sms,
    /// A LINE account, proven by LINE Login.
    Line,
}

impl AlertChannel {
    /// The channel a client or a row names: `sms` or `line`.
    pub fn parse(raw: &str) -> Option<Self> {
        match raw.trim() {
            "sms" => Some(AlertChannel::Sms),
            "line" => Some(AlertChannel::Line),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            AlertChannel::Sms => "sms",
            AlertChannel::Line => "line",
        }
    }
}

/// An alert as asked for.
#[derive(Debug, Clone)]
pub struct NewAlert {
    pub public_id: String,
    pub event_id: i64,
    pub channel: AlertChannel,
    pub mobile: Option<String>,
    pub embedding: Vec<u8>,
    /// The model pair that made it: the event's.
    pub model_pair: String,
    /// The keyed hash of an SMS alert's one-time code.
    pub code_hash: Option<String>,
    pub client: String,
    pub consented_at: DateTime<Utc>,
    /// When an alert never confirmed goes.
    pub expires_at: DateTime<Utc>,
}

/// An alert with its event.
#[derive(Debug, Clone)]
pub struct Alert {
    pub id: i64,
    pub public_id: String,
    pub event_id: i64,
    pub event_key: EventKey,
    pub event_title: String,
    pub state: AlertState,
    pub channel: AlertChannel,
    pub mobile: Option<String>,
    pub line_user_id: Option<String>,
    pub embedding: Vec<u8>,
    pub code_hash: Option<String>,
    pub code_tries: i64,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub last_message_at: Option<DateTime<Utc>>,
    pub message_due_at: Option<DateTime<Utc>>,
}

#[derive(sqlx::FromRow)]
struct Row {
    id: i64,
    public_id: String,
    event_id: i64,
    event_key: String,
    event_title: String,
    state: String,
    channel: String,
    mobile: Option<String>,
    line_user_id: Option<String>,
    embedding: Vec<u8>,
    code_hash: Option<String>,
    code_tries: i64,
    created_at: i64,
    expires_at: i64,
    last_message_at: Option<i64>,
    message_due_at: Option<i64>,
}

impl Row {
    fn into_alert(self) -> Result<Alert> {
        Ok(Alert {
            id: self.id,
            public_id: self.public_id,
            event_id: self.event_id,
            event_key: EventKey::try_from(self.event_key)
                .map_err(|e| StoreError::Corrupt(format!("alert's event key: {e}")))?,
            event_title: self.event_title,
            state: AlertState::parse(&self.state)?,
            channel: AlertChannel::parse(&self.channel)
                .ok_or_else(|| StoreError::Corrupt(format!("alert channel {:?}", self.channel)))?,
            mobile: self.mobile,
            line_user_id: self.line_user_id,
            embedding: self.embedding,
            code_hash: self.code_hash,
            code_tries: self.code_tries,
            created_at: from_millis(self.created_at)?,
            expires_at: from_millis(self.expires_at)?,
            last_message_at: self.last_message_at.map(from_millis).transpose()?,
            message_due_at: self.message_due_at.map(from_millis).transpose()?,
        })
    }
}

const SELECT: &str = "SELECT a.id, a.public_id, a.event_id, e.event_key, e.title AS event_title, \
    a.state, a.channel, a.mobile, a.line_user_id, a.embedding, a.code_hash, a.code_tries, \
    a.created_at, a.expires_at, a.last_message_at, a.message_due_at \
    FROM alerts a JOIN events e ON e.id = a.event_id";

/// A photo an alert's face was found on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AlertMatch {
    pub alert_id: i64,
    pub similarity: f32,
}

/// When an alert's next message may go, the last having gone at `last`: no sooner than
/// `gap` after it, and never in the past. Matching a new photo and finishing a message
/// both schedule by this rule.
pub fn next_message_at(
    last: DateTime<Utc>,
    gap: chrono::Duration,
    now: DateTime<Utc>,
) -> DateTime<Utc> {
    (last + gap).max(now)
}

impl Store {
    /// Keeps an alert asked for, as `pending`; answers its id, or `None` when the event
    /// uses another model pair than the template's now (it was moved meanwhile).
    pub async fn add_alert(&self, a: &NewAlert, now: DateTime<Utc>) -> Result<Option<i64>> {
        let is_postgres = matches!(self.pool, crate::Pool::Postgres(_));
        let id = in_tx!(self, tx => {
            crate::face_pairs::lock_event_templates!(is_postgres, tx, a.event_id);
            let added: Option<(i64,)> = sqlx::query_as(
                "INSERT INTO alerts (public_id, event_id, state, channel, mobile, embedding, \
                 code_hash, client, consented_at, created_at, expires_at, model_pair) \
                 SELECT $1, $2, 'pending', $3, $4, $5, $6, $7, $8, $9, $10, $11 FROM events \
                 WHERE id = $2 AND COALESCE(model_pair, $11) = $11 RETURNING id")
                .bind(&a.public_id).bind(a.event_id).bind(a.channel.as_str()).bind(&a.mobile)
                .bind(&a.embedding).bind(&a.code_hash).bind(&a.client)
                .bind(millis(a.consented_at)).bind(millis(now)).bind(millis(a.expires_at))
                .bind(&a.model_pair).fetch_optional(&mut *tx).await?;
            added.map(|(id,)| id)
        });
        Ok(id)
    }

    /// The alert a link names, unless its time is up.
    pub async fn alert(&self, public_id: &str, now: DateTime<Utc>) -> Result<Option<Alert>> {
        let sql = format!("{SELECT} WHERE a.public_id = $1 AND a.expires_at > $2");
        let row: Option<Row> = on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.clone()))
            .bind(public_id).bind(millis(now)).fetch_optional(pool).await)?;
        row.map(Row::into_alert).transpose()
    }

    /// The alert of a row id, whatever its time (a message job's subject).
    pub async fn alert_by_id(&self, id: i64) -> Result<Option<Alert>> {
        let sql = format!("{SELECT} WHERE a.id = $1");
        let row: Option<Row> = on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.clone()))
            .bind(id).fetch_optional(pool).await)?;
        row.map(Row::into_alert).transpose()
    }

    /// The alerts asked for with `mobile` since `since` (codes texted to it): how many, and
    /// when the latest was.
    pub async fn alerts_asked_by_mobile(
        &self,
        mobile: &str,
        since: DateTime<Utc>,
    ) -> Result<(i64, Option<DateTime<Utc>>)> {
        let (n, latest): (i64, Option<i64>) = on_pool!(self, pool => sqlx::query_as(
            "SELECT COUNT(*), MAX(created_at) FROM alerts WHERE mobile = $1 AND created_at >= $2")
            .bind(mobile).bind(millis(since)).fetch_one(pool).await)?;
        Ok((n, latest.map(from_millis).transpose()?))
    }

    /// Counts a wrong code against a pending alert; answers the tries so far.
    pub async fn count_alert_code_try(&self, id: i64) -> Result<i64> {
        let (n,): (i64,) = on_pool!(self, pool => sqlx::query_as(
            "UPDATE alerts SET code_tries = code_tries + 1 WHERE id = $1 RETURNING code_tries")
            .bind(id).fetch_one(pool).await)?;
        Ok(n)
    }

    /// Confirms a pending alert until `expires_at`, with the LINE account its messages go
    /// to when it is a LINE alert; false when it is not pending (confirmed already, gone).
    pub async fn activate_alert(
        &self,
        id: i64,
        line_user_id: Option<&str>,
        expires_at: DateTime<Utc>,
    ) -> Result<bool> {
        let n = on_pool!(self, pool => sqlx::query(
            "UPDATE alerts SET state = 'active', code_hash = NULL, \
             line_user_id = COALESCE($2, line_user_id), expires_at = $3 \
             WHERE id = $1 AND state = 'pending'")
            .bind(id).bind(line_user_id).bind(millis(expires_at))
            .execute(pool).await.map(|r| r.rows_affected()))?;
        Ok(n == 1)
    }

    /// Deletes an alert, its template and its matches; false when there was none.
    pub async fn delete_alert(&self, id: i64) -> Result<bool> {
        let n = on_pool!(self, pool => sqlx::query("DELETE FROM alerts WHERE id = $1")
            .bind(id).execute(pool).await.map(|r| r.rows_affected()))?;
        Ok(n == 1)
    }

    /// The templates of an event's working alerts: what a new photo is matched against.
    /// (alert id, template)
    pub async fn alert_templates(
        &self,
        event_id: i64,
        pair: &str,
        now: DateTime<Utc>,
    ) -> Result<Vec<(i64, Vec<u8>)>> {
        Ok(on_pool!(self, pool => sqlx::query_as(
            "SELECT id, embedding FROM alerts WHERE event_id = $1 AND model_pair = $3 \
             AND state = 'active' AND expires_at > $2 ORDER BY id")
            .bind(event_id).bind(millis(now)).bind(pair).fetch_all(pool).await)?)
    }

    /// Records that a new photo shows the faces of `matches`' alerts (those still working),
    /// and schedules each alert's next message: due at once when none was sent, else no
    /// sooner than `gap` after the last. Answers the alerts whose message was scheduled
    /// now, with when it is due (an alert with one scheduled already is not in it).
    pub async fn record_alert_matches(
        &self,
        photo_id: i64,
        matches: &[AlertMatch],
        gap: chrono::Duration,
        now: DateTime<Utc>,
    ) -> Result<Vec<(i64, DateTime<Utc>)>> {
        let mut scheduled = Vec::new();
        for m in matches {
            let due = in_tx!(self, tx => {
                let inserted = sqlx::query(
                    "INSERT INTO alert_matches (alert_id, photo_id, similarity, created_at) \
                     SELECT id, $2, $3, $4 FROM alerts \
                     WHERE id = $1 AND state = 'active' AND expires_at > $4 \
                     ON CONFLICT (alert_id, photo_id) DO NOTHING")
                    .bind(m.alert_id).bind(photo_id).bind(f64::from(m.similarity)).bind(millis(now))
                    .execute(&mut *tx).await?.rows_affected();
                let last: Option<(Option<i64>,)> = if inserted == 1 {
                    sqlx::query_as("SELECT last_message_at FROM alerts WHERE id = $1")
                        .bind(m.alert_id).fetch_optional(&mut *tx).await?
                } else {
                    None
                };
                match last {
                    Some((last,)) => {
                        let last = last.map(from_millis).transpose()?;
                        let due = millis(last.map_or(now, |l| next_message_at(l, gap, now)));
                        let n = sqlx::query(
                            "UPDATE alerts SET message_due_at = $2 \
                             WHERE id = $1 AND message_due_at IS NULL")
                            .bind(m.alert_id).bind(due).execute(&mut *tx).await?.rows_affected();
                        (n == 1).then_some(due)
                    }
                    None => None,
                }
            });
            if let Some(due) = due {
                scheduled.push((m.alert_id, from_millis(due)?));
            }
        }
        Ok(scheduled)
    }

    /// The visible photos an alert's face was found on, newest first: its page.
    pub async fn alert_photos(&self, alert_id: i64) -> Result<Vec<i64>> {
        let rows: Vec<(i64,)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT m.photo_id FROM alert_matches m JOIN photos p ON p.id = m.photo_id \
             WHERE m.alert_id = $1 AND NOT p.hidden ORDER BY m.created_at DESC, m.photo_id DESC")
            .bind(alert_id).fetch_all(pool).await)?;
        Ok(rows.into_iter().map(|(id,)| id).collect())
    }

    /// The visible photos of an alert's matches made up to `until` that no message told of
    /// yet, newest first: what the message due at `until` tells of.
    pub async fn untold_alert_matches(
        &self,
        alert_id: i64,
        until: DateTime<Utc>,
    ) -> Result<Vec<i64>> {
        let rows: Vec<(i64,)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT m.photo_id FROM alert_matches m JOIN photos p ON p.id = m.photo_id \
             WHERE m.alert_id = $1 AND NOT m.told AND m.created_at <= $2 AND NOT p.hidden \
             ORDER BY m.created_at DESC, m.photo_id DESC")
            .bind(alert_id).bind(millis(until)).fetch_all(pool).await)?;
        Ok(rows.into_iter().map(|(id,)| id).collect())
    }

    /// The message due at `due` is done with (sent or not): the matches up to then are
    /// told of, and the next match schedules the next message. Answers whether matches
    /// are still untold (a message is owed for them); nothing happens when another message
    /// is scheduled in its place.
    pub async fn alert_message_done(&self, alert_id: i64, due: DateTime<Utc>) -> Result<bool> {
        let owed = in_tx!(self, tx => {
            let done = sqlx::query(
                "UPDATE alerts SET last_message_at = $2, message_due_at = NULL \
                 WHERE id = $1 AND message_due_at = $2")
                .bind(alert_id).bind(millis(due)).execute(&mut *tx).await?.rows_affected();
            if done == 0 {
                false
            } else {
                sqlx::query(
                    "UPDATE alert_matches SET told = TRUE WHERE alert_id = $1 AND created_at <= $2")
                    .bind(alert_id).bind(millis(due)).execute(&mut *tx).await?;
                let untold: Option<(i64,)> = sqlx::query_as(
                    "SELECT photo_id FROM alert_matches WHERE alert_id = $1 AND NOT told LIMIT 1")
                    .bind(alert_id).fetch_optional(&mut *tx).await?;
                untold.is_some()
            }
        });
        Ok(owed)
    }

    /// Schedules an alert's next message at `due` unless one is scheduled; answers whether
    /// this did.
    pub async fn schedule_alert_message(&self, alert_id: i64, due: DateTime<Utc>) -> Result<bool> {
        let n = on_pool!(self, pool => sqlx::query(
            "UPDATE alerts SET message_due_at = $2 WHERE id = $1 AND message_due_at IS NULL")
            .bind(alert_id).bind(millis(due)).execute(pool).await.map(|r| r.rows_affected()))?;
        Ok(n == 1)
    }

    /// Deletes the alerts whose time is up at `now`, and the working alerts of the events
    /// `closed` (whose sale has ended); answers how many.
    pub async fn delete_alerts_due(&self, now: DateTime<Utc>, closed: &[i64]) -> Result<u64> {
        let mut n = on_pool!(self, pool => sqlx::query("DELETE FROM alerts WHERE expires_at <= $1")
            .bind(millis(now)).execute(pool).await.map(|r| r.rows_affected()))?;
        for event in closed {
            n += on_pool!(self, pool => sqlx::query("DELETE FROM alerts WHERE event_id = $1")
                .bind(event).execute(pool).await.map(|r| r.rows_affected()))?;
        }
        Ok(n)
    }

    /// Working alerts per event (event id, count), for the console: counts only.
    pub async fn alert_counts(&self, now: DateTime<Utc>) -> Result<Vec<(i64, i64)>> {
        Ok(on_pool!(self, pool => sqlx::query_as(
            "SELECT event_id, COUNT(*) FROM alerts WHERE state = 'active' AND expires_at > $1 \
             GROUP BY event_id ORDER BY event_id")
            .bind(millis(now)).fetch_all(pool).await)?)
    }

    /// The events that have alerts (working or asked for), by id and key: what the
    /// retention run looks at.
    pub async fn events_with_alerts(&self) -> Result<Vec<(i64, EventKey)>> {
        let rows: Vec<(i64, String)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT DISTINCT a.event_id, e.event_key FROM alerts a \
             JOIN events e ON e.id = a.event_id ORDER BY a.event_id")
            .fetch_all(pool).await)?;
        rows.into_iter()
            .map(|(id, key)| {
                EventKey::try_from(key)
                    .map(|key| (id, key))
                    .map_err(|e| StoreError::Corrupt(format!("alert's event key: {e}")))
            })
            .collect()
    }
}
