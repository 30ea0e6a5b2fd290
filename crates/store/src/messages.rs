//! Messages to runners (e-mail, SMS, LINE) as an outbox: one row per message and channel
//! under a key, so that a message is sent at most once whichever job or replay asks, with
//! the retry key a deduplicating provider is given on each attempt and the outcome. The
//! daily caps count the rows sent since a moment; the console counts rows per channel,
//! kind and outcome. Also the LINE side of an order or an alert: LINE Logins under way (their
//! nonce and PKCE verifier, taken once by the callback) and the LINE account an order's news
//! goes to. No address, number or text is kept in the outbox.

use chrono::{DateTime, Utc};

use crate::macros::on_pool;
use crate::{Result, Store, StoreError, from_millis, millis};

/// What became of a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MessageState {
    /// Not finished yet: a send is under way, or was cut off and will run again.
    Sending,
    /// A provider accepted it.
    Sent,
    /// No provider is set up for the channel: only written to the log.
    Logged,
    /// The channel's daily cap was reached; not sent.
    Capped,
    /// Refused for good (an address no mail reaches, a number the provider refuses).
    Failed,
}

impl MessageState {
    pub fn as_str(self) -> &'static str {
        match self {
            MessageState::Sending => "sending",
            MessageState::Sent => "sent",
            MessageState::Logged => "logged",
            MessageState::Capped => "capped",
            MessageState::Failed => "failed",
        }
    }

    pub fn parse(s: &str) -> Result<Self> {
        Ok(match s {
            "sending" => MessageState::Sending,
            "sent" => MessageState::Sent,
            "logged" => MessageState::Logged,
            "capped" => MessageState::Capped,
            "failed" => MessageState::Failed,
            other => return Err(StoreError::Corrupt(format!("message state {other:?}"))),
        })
    }

    /// Whether the message is done with: nothing is sent under its key again.
    pub fn is_final(self) -> bool {
        self != MessageState::Sending
    }
}

/// A message's row: whether it is done with, and its retry key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxEntry {
    pub id: i64,
    pub retry_key: String,
    pub state: MessageState,
}

/// A message about to be sent.
#[derive(Debug, Clone, Copy)]
pub struct NewMessage<'a> {
    /// `{kind}:{subject}:{channel}`: one message per key, ever.
    pub dedupe_key: &'a str,
    pub channel: &'a str,
    pub kind: &'a str,
    /// Kept if the row is new; an existing row keeps its own.
    pub retry_key: &'a str,
}

/// Messages of one channel and kind in one state, counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageCount {
    pub channel: String,
    pub kind: String,
    pub state: MessageState,
    pub count: i64,
}

/// What a LINE Login is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoginFor {
    /// Linking an order (its row id).
    Order(i64),
    /// Confirming an alert (its row id).
    Alert(i64),
}

/// A LINE Login under way, as the callback needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineLogin {
    pub target: LoginFor,
    pub nonce: String,
    pub verifier: String,
    pub expires_at: DateTime<Utc>,
}

/// A LINE login's row: order, alert, nonce, verifier, expiry.
type LoginRow = (Option<i64>, Option<i64>, String, String, i64);

impl Store {
    /// The row of the message `new` names: made (as `sending`) the first time it is asked
    /// for, answered as it stands after that.
    pub async fn outbox_entry(
        &self,
        new: &NewMessage<'_>,
        now: DateTime<Utc>,
    ) -> Result<OutboxEntry> {
        on_pool!(self, pool => sqlx::query(
            "INSERT INTO messages (dedupe_key, channel, kind, retry_key, state, created_at) \
             VALUES ($1, $2, $3, $4, 'sending', $5) ON CONFLICT (dedupe_key) DO NOTHING")
            .bind(new.dedupe_key).bind(new.channel).bind(new.kind).bind(new.retry_key)
            .bind(millis(now)).execute(pool).await.map(|_| ()))?;
        let (id, retry_key, state): (i64, String, String) = on_pool!(self, pool => sqlx::query_as(
            "SELECT id, retry_key, state FROM messages WHERE dedupe_key = $1")
            .bind(new.dedupe_key).fetch_one(pool).await)?;
        Ok(OutboxEntry {
            id,
            retry_key,
            state: MessageState::parse(&state)?,
        })
    }

    /// Records a message's outcome, once: a row already finished keeps its first outcome.
    /// `error` is the reason of a failure (never an address or a text).
    pub async fn finish_message(
        &self,
        id: i64,
        state: MessageState,
        error: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let sent_at = (state == MessageState::Sent).then(|| millis(now));
        let n = on_pool!(self, pool => sqlx::query(
            "UPDATE messages SET state = $2, error = $3, sent_at = $4 \
             WHERE id = $1 AND state = 'sending'")
            .bind(id).bind(state.as_str()).bind(error).bind(sent_at)
            .execute(pool).await.map(|r| r.rows_affected()))?;
        Ok(n == 1)
    }

    /// Messages of `channel` a provider accepted since `since`: what the daily cap counts.
    pub async fn messages_sent_since(&self, channel: &str, since: DateTime<Utc>) -> Result<i64> {
        let (n,): (i64,) = on_pool!(self, pool => sqlx::query_as(
            "SELECT COUNT(*) FROM messages WHERE channel = $1 AND sent_at >= $2")
            .bind(channel).bind(millis(since)).fetch_one(pool).await)?;
        Ok(n)
    }

    /// Messages made since `since`, counted per channel, kind and state.
    pub async fn message_counts(&self, since: DateTime<Utc>) -> Result<Vec<MessageCount>> {
        let rows: Vec<(String, String, String, i64)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT channel, kind, state, COUNT(*) FROM messages WHERE created_at >= $1 \
             GROUP BY channel, kind, state ORDER BY channel, kind, state")
            .bind(millis(since)).fetch_all(pool).await)?;
        rows.into_iter()
            .map(|(channel, kind, state, count)| {
                Ok(MessageCount {
                    channel,
                    kind,
                    state: MessageState::parse(&state)?,
                    count,
                })
            })
            .collect()
    }

    /// Deletes the outbox rows made before `before`; answers how many.
    pub async fn purge_messages_before(&self, before: DateTime<Utc>) -> Result<u64> {
        Ok(
            on_pool!(self, pool => sqlx::query("DELETE FROM messages WHERE created_at < $1")
            .bind(millis(before)).execute(pool).await.map(|r| r.rows_affected()))?,
        )
    }

    /// Keeps a LINE Login under way under the hash of its `state`.
    pub async fn put_line_login(&self, state_hash: &str, login: &LineLogin) -> Result<()> {
        let (order, alert) = match login.target {
            LoginFor::Order(id) => (Some(id), None),
            LoginFor::Alert(id) => (None, Some(id)),
        };
        on_pool!(self, pool => sqlx::query(
            "INSERT INTO line_logins (state_hash, order_id, alert_id, nonce, verifier, expires_at) \
             VALUES ($1, $2, $3, $4, $5, $6)")
            .bind(state_hash).bind(order).bind(alert).bind(&login.nonce).bind(&login.verifier)
            .bind(millis(login.expires_at)).execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// Takes the LINE Login of a `state`, once: `None` when unknown, taken already or
    /// expired (expired ones are deleted on the way).
    pub async fn take_line_login(
        &self,
        state_hash: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<LineLogin>> {
        on_pool!(self, pool => sqlx::query("DELETE FROM line_logins WHERE expires_at <= $1")
            .bind(millis(now)).execute(pool).await.map(|_| ()))?;
        let row: Option<LoginRow> = on_pool!(self, pool => sqlx::query_as(
            "DELETE FROM line_logins WHERE state_hash = $1 \
             RETURNING order_id, alert_id, nonce, verifier, expires_at")
            .bind(state_hash).fetch_optional(pool).await)?;
        row.map(|(order, alert, nonce, verifier, expires)| {
            let target = match (order, alert) {
                (Some(id), None) => LoginFor::Order(id),
                (None, Some(id)) => LoginFor::Alert(id),
                _ => return Err(StoreError::Corrupt("a LINE login for nothing".to_owned())),
            };
            Ok(LineLogin {
                target,
                nonce,
                verifier,
                expires_at: from_millis(expires)?,
            })
        })
        .transpose()
    }

    /// Sends an order's news to the LINE account `line_user_id` from now on.
    pub async fn link_line(
        &self,
        order_id: i64,
        line_user_id: &str,
        now: DateTime<Utc>,
    ) -> Result<()> {
        on_pool!(self, pool => sqlx::query(
            "INSERT INTO line_links (order_id, line_user_id, linked_at) VALUES ($1, $2, $3) \
             ON CONFLICT (order_id) DO UPDATE SET line_user_id = $2, linked_at = $3")
            .bind(order_id).bind(line_user_id).bind(millis(now)).execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// The LINE account linked to an order.
    pub async fn line_user_of_order(&self, order_id: i64) -> Result<Option<String>> {
        let row: Option<(String,)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT line_user_id FROM line_links WHERE order_id = $1")
            .bind(order_id).fetch_optional(pool).await)?;
        Ok(row.map(|(id,)| id))
    }

    /// Forgets the LINE accounts of orders of events dated before `cutoff` (`YYYY-MM-DD`),
    /// with their files; answers how many.
    pub async fn forget_line_links_before(&self, cutoff: &str) -> Result<u64> {
        Ok(on_pool!(self, pool => sqlx::query(
            "DELETE FROM line_links WHERE order_id IN (SELECT o.id FROM orders o \
             JOIN events e ON e.id = o.event_id WHERE e.event_date < $1)")
            .bind(cutoff).execute(pool).await.map(|r| r.rows_affected()))?)
    }
}
