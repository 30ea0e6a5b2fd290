//! Telling runners: which message (its [`MessageKind`] and subject: an order, a privacy
//! request) goes through which channel to whom, at most once, within each channel's daily
//! cap. Every send is recorded in the store's outbox under `{kind}:{subject}:{channel}`
//! before it is tried; a message done with (sent, only logged, capped, refused for good)
//! is never tried again, whatever replays its job, and a retry carries the same retry key
//! (LINE takes it to mean the same message). A message counts as sent only when a
//! provider accepted it; each outcome is counted in `messages_total{channel,kind,outcome}`.
//!
//! Sends are jobs ([`crate::jobs::send_message`]), except the find-order code, which the
//! runner waits for on the page: it is sent at once and its failure shown there, and it
//! counts against the same caps.

pub mod line_link;
pub mod templates;

use std::collections::HashMap;

use chrono::{DateTime, Duration, FixedOffset, Utc};
use raceshot_domain::PaymentChannel;
use raceshot_store::Store;
use raceshot_store::messages::{MessageState, NewMessage};
use raceshot_store::orders::{DeliveryFlag, Order};
use raceshot_store::privacy::PrivacyState;

use crate::app::live::{Live, LiveCell};
use crate::infra::channels::{Channel, ChannelKind, Message, Sent, is_undeliverable};
use crate::infra::clock::Clock;
use crate::services::links::Links;

pub use templates::{OrderPlaced, OrderReady, PrivacyDecision};

/// What telling runners uses: the outbox and the subjects' rows, the channels of the
/// settings in force, the addresses messages carry, and the clock of the daily caps.
#[derive(Clone, Copy)]
pub struct Outbox<'a> {
    pub store: &'a Store,
    pub live: &'a LiveCell,
    pub links: &'a Links,
    pub clock: Clock,
}

impl<'a> Outbox<'a> {
    pub fn new(store: &'a Store, live: &'a LiveCell, links: &'a Links, clock: Clock) -> Self {
        Outbox {
            store,
            live,
            links,
            clock,
        }
    }
}

/// What a message is about; stored with it and in its job.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MessageKind {
    /// An order's link, when it is placed (SMS) or linked to LINE.
    OrderLink,
    /// An order's files can be downloaded.
    OrderReady,
    /// The one-time code that opens a found order.
    OrderCode,
    /// The decision on a request to hide one's photos.
    PrivacyDecision,
    /// The one-time code that confirms an alert's mobile number.
    AlertCode,
    /// New photos of a runner who asked to be told (subject `{alert id}:{due}`).
    NewPhotos,
    /// An operator trying a channel from the console.
    Trial,
}

impl MessageKind {
    /// Whether this kind is sent while someone waits (no job retries it).
    pub fn sent_at_once(self) -> bool {
        matches!(
            self,
            MessageKind::OrderCode | MessageKind::AlertCode | MessageKind::Trial
        )
    }

    pub fn as_str(self) -> &'static str {
        match self {
            MessageKind::OrderLink => "order_link",
            MessageKind::OrderReady => "order_ready",
            MessageKind::OrderCode => "order_code",
            MessageKind::PrivacyDecision => "privacy_decision",
            MessageKind::AlertCode => "alert_code",
            MessageKind::NewPhotos => "new_photos",
            MessageKind::Trial => "trial",
        }
    }
}

/// The subject of an alert's message of new photos due at `due`: `{alert id}:{due}`
/// (Unix ms), one message per alert and moment.
pub fn new_photos_subject(alert_id: i64, due: DateTime<Utc>) -> String {
    format!("{alert_id}:{}", due.timestamp_millis())
}

/// Reads a new-photos subject back: the alert and when its message was due.
pub fn parse_new_photos_subject(subject: &str) -> Option<(i64, DateTime<Utc>)> {
    let (id, due) = subject.split_once(':')?;
    Some((
        id.parse().ok()?,
        DateTime::from_timestamp_millis(due.parse().ok()?)?,
    ))
}

/// What became of one message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// A provider accepted it, now.
    Sent,
    /// No provider is set up for the channel: written to the log only.
    Logged,
    /// The channel's cap for the day was reached: not sent.
    Capped,
    /// Done with before (by an earlier run), as it says: nothing sent now.
    DoneBefore(MessageState),
}

/// Why a message did not go out.
#[derive(Debug, thiserror::Error)]
pub enum SendError {
    /// The recipient can never be reached this way; the message is done with.
    #[error("{0:#}")]
    Undeliverable(anyhow::Error),
    /// The provider or the store failed; trying again may work.
    #[error("{0:#}")]
    Failed(anyhow::Error),
}

impl From<raceshot_store::StoreError> for SendError {
    fn from(e: raceshot_store::StoreError) -> Self {
        SendError::Failed(e.into())
    }
}

/// The channel of a kind in the current settings.
pub fn channel(live: &Live, kind: ChannelKind) -> &dyn Channel {
    match kind {
        ChannelKind::Email => &live.mailer,
        ChannelKind::Sms => &live.sms,
        ChannelKind::Line => &live.line,
    }
}

/// The first moment of today in Bangkok: the daily caps count from there.
pub fn start_of_day(now: DateTime<Utc>) -> DateTime<Utc> {
    let Some(bangkok) = FixedOffset::east_opt(7 * 3600) else {
        return now;
    };
    let local = now.with_timezone(&bangkok).date_naive();
    local
        .and_hms_opt(0, 0, 0)
        .and_then(|t| t.and_local_timezone(bangkok).single())
        .map_or(now, |t| t.with_timezone(&Utc))
}

/// Sends `message` to `to` through `via` once under `key` (`{kind}:{subject}:{channel}`):
/// a message done with under that key is not sent again.
pub async fn send_once(
    outbox: &Outbox<'_>,
    key: &str,
    kind: MessageKind,
    via: ChannelKind,
    to: &str,
    message: &Message,
) -> Result<Outcome, SendError> {
    let now = outbox.clock.now();
    let retry_key = uuid::Uuid::new_v4().to_string();
    let entry = outbox
        .store
        .outbox_entry(
            &NewMessage {
                dedupe_key: key,
                channel: via.as_str(),
                kind: kind.as_str(),
                retry_key: &retry_key,
            },
            now,
        )
        .await?;
    if entry.state.is_final() {
        return Ok(Outcome::DoneBefore(entry.state));
    }
    let live = outbox.live.get();
    let sender = channel(&live, via);
    let cap = live.daily_caps.of(via);
    let count = |outcome: &'static str| {
        metrics::counter!("messages_total", "channel" => via.as_str(), "kind" => kind.as_str(), "outcome" => outcome)
            .increment(1);
    };
    // Only messages that would reach someone count against the cap.
    if sender.delivers()
        && cap > 0
        && outbox
            .store
            .messages_sent_since(via.as_str(), start_of_day(now))
            .await?
            >= i64::from(cap)
    {
        tracing::warn!(
            channel = via.as_str(),
            kind = kind.as_str(),
            cap,
            "daily message cap reached: not sent"
        );
        outbox
            .store
            .finish_message(entry.id, MessageState::Capped, None, outbox.clock.now())
            .await?;
        count("capped");
        return Ok(Outcome::Capped);
    }
    match sender.send(to, message, &entry.retry_key).await {
        Ok(Sent::Delivered) => {
            outbox
                .store
                .finish_message(entry.id, MessageState::Sent, None, outbox.clock.now())
                .await?;
            count("sent");
            Ok(Outcome::Sent)
        }
        Ok(Sent::Logged) => {
            outbox
                .store
                .finish_message(entry.id, MessageState::Logged, None, outbox.clock.now())
                .await?;
            count("logged");
            Ok(Outcome::Logged)
        }
        Err(e) if is_undeliverable(&e) => {
            let reason = format!("{e:#}");
            outbox
                .store
                .finish_message(
                    entry.id,
                    MessageState::Failed,
                    Some(&reason),
                    outbox.clock.now(),
                )
                .await?;
            count("undeliverable");
            Err(SendError::Undeliverable(e))
        }
        Err(e) => {
            // Codes and trials are sent while someone waits, never by a job that retries:
            // a failure is their end.
            if kind.sent_at_once() {
                let reason = format!("{e:#}");
                outbox
                    .store
                    .finish_message(
                        entry.id,
                        MessageState::Failed,
                        Some(&reason),
                        outbox.clock.now(),
                    )
                    .await?;
            }
            count("failed");
            Err(SendError::Failed(e))
        }
    }
}

impl Outcome {
    /// Whether a provider took the message (now or before).
    pub fn was_sent(self) -> bool {
        matches!(
            self,
            Outcome::Sent | Outcome::DoneBefore(MessageState::Sent)
        )
    }
}

/// Sends the message `kind` says about `subject` to `to` once more, whatever was sent
/// before (an operator's "send again"), within the channel's cap.
pub async fn send_again(
    outbox: &Outbox<'_>,
    kind: MessageKind,
    subject: &str,
    via: ChannelKind,
    to: &str,
) -> Result<Outcome, SendError> {
    let Some(composed) = compose(outbox, kind, subject).await? else {
        return Err(SendError::Failed(anyhow::anyhow!(
            "there is nothing to send"
        )));
    };
    let key = format!(
        "{}:{subject}:{}:again:{}",
        kind.as_str(),
        via.as_str(),
        uuid::Uuid::new_v4()
    );
    send_once(outbox, &key, kind, via, to, &composed.message).await
}

/// A message composed for its subject, and where each channel delivers it.
pub struct Composed {
    pub message: Message,
    /// The recipient on each channel it has.
    pub to: HashMap<ChannelKind, String>,
}

/// The message `kind` says about `subject` (an order's or a privacy request's id); `None`
/// when there is nothing to say any more (the order is gone, not paid, the request not
/// decided).
pub async fn compose(
    outbox: &Outbox<'_>,
    kind: MessageKind,
    subject: &str,
) -> Result<Option<Composed>, SendError> {
    let id = || subject.parse::<i64>().ok();
    match kind {
        MessageKind::OrderLink | MessageKind::OrderReady => {
            let Some(order) = (match id() {
                Some(id) => outbox.store.order_by_id(id).await?,
                None => None,
            }) else {
                return Ok(None);
            };
            if kind == MessageKind::OrderReady && !order.is_deliverable() {
                return Ok(None);
            }
            let url = outbox.links.order_page_url(&order.uuid);
            let image = event_picture(outbox, &order).await?;
            let message = if kind == MessageKind::OrderReady {
                templates::order_ready(&OrderReady {
                    order_uuid: &order.uuid,
                    order_url: &url,
                    event_title: &order.event_title,
                    photo_count: usize::try_from(order.image_count).unwrap_or(0),
                    free: order.payment_channel == PaymentChannel::Free,
                    kept_days: outbox.live.get().retention_days,
                    image: image.as_deref(),
                })
            } else {
                templates::order_link(&OrderPlaced {
                    order_uuid: &order.uuid,
                    order_url: &url,
                    event_title: &order.event_title,
                    photo_count: usize::try_from(order.image_count).unwrap_or(0),
                    image: image.as_deref(),
                })
            };
            let mut to = HashMap::new();
            // Orders keep whether an earlier version already sent the news.
            if let Some(email) = order.email.clone().filter(|e| !e.is_empty())
                && !(kind == MessageKind::OrderReady && order.is_send_email)
            {
                to.insert(ChannelKind::Email, email);
            }
            if !(kind == MessageKind::OrderReady && order.is_send_sms) {
                to.insert(ChannelKind::Sms, order.mobile.clone());
            }
            if let Some(line) = outbox.store.line_user_of_order(order.id).await? {
                to.insert(ChannelKind::Line, line);
            }
            Ok(Some(Composed { message, to }))
        }
        MessageKind::PrivacyDecision => {
            let Some(request) = outbox.store.privacy_request(subject).await? else {
                return Ok(None);
            };
            if request.notified || request.state == PrivacyState::Pending {
                return Ok(None);
            }
            let message = templates::privacy_decision(&PrivacyDecision {
                event_title: &request.event_title,
                approved: request.state == PrivacyState::Approved,
                hidden: usize::try_from(request.held).unwrap_or(0),
            });
            let via = if request.contact.contains('@') {
                ChannelKind::Email
            } else {
                ChannelKind::Sms
            };
            Ok(Some(Composed {
                message,
                to: HashMap::from([(via, request.contact.clone())]),
            }))
        }
        MessageKind::NewPhotos => new_photos(outbox, subject).await,
        MessageKind::OrderCode | MessageKind::AlertCode | MessageKind::Trial => Ok(None),
    }
}

/// The new photos an alert's message due at its subject's moment tells of: those matched
/// by then and not told of before; `None` when the alert is gone or none is left to tell
/// of (hidden meanwhile).
async fn new_photos(outbox: &Outbox<'_>, subject: &str) -> Result<Option<Composed>, SendError> {
    let Some((alert_id, due)) = parse_new_photos_subject(subject) else {
        return Ok(None);
    };
    let Some(alert) = outbox.store.alert_by_id(alert_id).await? else {
        return Ok(None);
    };
    if alert.expires_at <= outbox.clock.now() {
        return Ok(None);
    }
    let photos = outbox.store.untold_alert_matches(alert.id, due).await?;
    if photos.is_empty() {
        return Ok(None);
    }
    let (view_url, stop_url) = outbox.links.alert_pages(&alert.public_id, alert.expires_at);
    let image = outbox
        .store
        .event_cover(alert.event_id)
        .await?
        .filter(|u| u.starts_with("https://"));
    let message = templates::new_photos(&templates::NewPhotos {
        event_title: &alert.event_title,
        count: photos.len(),
        view_url: &view_url,
        stop_url: &stop_url,
        image: image.as_deref(),
    });
    let to = match (alert.mobile, alert.line_user_id) {
        (_, Some(line)) => HashMap::from([(ChannelKind::Line, line)]),
        (Some(mobile), None) => HashMap::from([(ChannelKind::Sms, mobile)]),
        (None, None) => HashMap::new(),
    };
    Ok(Some(Composed { message, to }))
}

/// The event's cover picture for LINE's card, when it is one LINE can show.
async fn event_picture(outbox: &Outbox<'_>, order: &Order) -> Result<Option<String>, SendError> {
    let cover = outbox.store.event_cover(order.event_id).await?;
    Ok(cover.filter(|u| u.starts_with("https://")))
}

/// Records on the subject what a sent message means there: an order's news was sent by
/// mail or SMS (the spec's `is_send_email`, `is_send_sms`), a requester was told.
pub async fn sent(
    outbox: &Outbox<'_>,
    kind: MessageKind,
    subject: &str,
    via: ChannelKind,
) -> Result<(), SendError> {
    match (kind, via) {
        (MessageKind::OrderReady, ChannelKind::Email | ChannelKind::Sms) => {
            if let Ok(id) = subject.parse::<i64>() {
                let flag = if via == ChannelKind::Email {
                    DeliveryFlag::Email
                } else {
                    DeliveryFlag::Sms
                };
                outbox
                    .store
                    .set_delivery_flag(id, flag, outbox.clock.now())
                    .await?;
            }
        }
        (MessageKind::PrivacyDecision, _) => outbox.store.mark_privacy_notified(subject).await?,
        _ => {}
    }
    Ok(())
}

/// How long outbox rows are kept: a day's caps and a week's console counts need less.
pub const KEPT: Duration = Duration::days(30);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_photos_subject_names_its_alert_and_moment() {
        let due = DateTime::from_timestamp_millis(1_764_000_000_123).unwrap_or_default();
        assert_eq!(
            parse_new_photos_subject(&new_photos_subject(42, due)),
            Some((42, due))
        );
        assert_eq!(parse_new_photos_subject("42"), None);
        assert_eq!(parse_new_photos_subject("x:1"), None);
    }

    #[test]
    fn days_begin_at_midnight_in_bangkok() {
        let at = |s: &str| {
            DateTime::parse_from_rfc3339(s)
                .map(|t| t.with_timezone(&Utc))
                .ok()
        };
        // 06:30 in Bangkok on 26 November.
        assert_eq!(
            Some(start_of_day(at("2026-11-25T23:30:00Z").unwrap_or_default())),
            at("2026-11-25T17:00:00Z")
        );
        // 23:59 in Bangkok on 25 November.
        assert_eq!(
            Some(start_of_day(at("2026-11-25T16:59:00Z").unwrap_or_default())),
            at("2026-11-24T17:00:00Z")
        );
    }
}
