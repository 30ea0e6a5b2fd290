//! Opening an order found through find-order. An order's uuid is the key to its photos,
//! so nobody who knows only a mobile number or a receipt may learn it: whatever the shop's
//! settings, a search answers an opaque, expiring lookup reference per order (which names
//! neither its uuid nor its sequential number), and the order opens only with a one-time
//! code sent to its own e-mail address or mobile number. When no channel can deliver a
//! code, the order does not open here at all: the buyer has it on the device that placed
//! it, or asks the shop, whose operator sends the link again.

use std::time::Duration;

use chrono::{DateTime, Utc};
use raceshot_domain::OrderUuid;
use raceshot_domain::order::{mask_email, mask_mobile};
use raceshot_store::access_codes::CodeCheck;
use raceshot_store::orders::Order;

use super::Commerce;
use super::{CommerceError, CommerceResult};
use crate::infra::channels::{Channel as _, ChannelKind};
use crate::infra::signing;
use crate::services::messages::{self, MessageKind, Outcome, SendError, templates};

/// How long a code works.
pub const CODE_TTL: Duration = Duration::from_secs(600);
/// How soon the same order may be sent another code.
pub const RESEND_AFTER: Duration = Duration::from_secs(60);
/// Wrong tries that void a code.
pub const MAX_TRIES: i64 = 5;
/// How long a lookup reference from a search works.
const LOOKUP_TTL: Duration = Duration::from_secs(3600);
const LOOKUP_PURPOSE: &str = "order-lookup";
const LOOKUP_PAD: &str = "order-lookup-pad";
const CODE_PURPOSE: &str = "order-access-code";

/// Where an order's code goes: its e-mail address when mail reaches people, else its
/// mobile number when text messages do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    Email(String),
    Mobile(String),
}

impl Destination {
    pub fn of(cx: &Commerce<'_>, email: Option<&str>, mobile: &str) -> Option<Self> {
        match email.filter(|e| !e.is_empty()) {
            Some(email) if cx.live.get().mailer.delivers() => {
                Some(Destination::Email(email.to_owned()))
            }
            _ if cx.live.get().sms.delivers() => Some(Destination::Mobile(mobile.to_owned())),
            _ => None,
        }
    }

    /// As the runner is shown it: enough to recognise, nothing to learn.
    pub fn masked(&self) -> String {
        match self {
            Destination::Email(e) => mask_email(e),
            Destination::Mobile(m) => mask_mobile(m),
        }
    }
}

/// The pad that hides an order's number in a lookup reference: a keyed function of the
/// reference's own nonce and expiry, so each reference hides it afresh.
fn lookup_pad(cx: &Commerce<'_>, nonce: &str, expires: &str) -> Option<u64> {
    let mac = signing::sign(cx.signing_key, LOOKUP_PAD, &[nonce, expires]);
    u64::from_str_radix(mac.get(..16)?, 16).ok()
}

/// The lookup reference of a found order: `{hidden number}.{nonce}.{expiry}.{signature}`,
/// where the order's sequential number is hidden by a keyed pad (a public answer never
/// shows it) and the whole is signed.
pub fn lookup(cx: &Commerce<'_>, order_id: i64) -> String {
    let expires = (cx.clock.now() + chrono::Duration::from_std(LOOKUP_TTL).unwrap_or_default())
        .timestamp()
        .to_string();
    let nonce = hex::encode(rand::random::<[u8; 8]>());
    let pad = lookup_pad(cx, &nonce, &expires).unwrap_or_default();
    let hidden = format!("{:016x}", u64::from_ne_bytes(order_id.to_ne_bytes()) ^ pad);
    let sig = signing::sign(cx.signing_key, LOOKUP_PURPOSE, &[&hidden, &nonce, &expires]);
    format!("{hidden}.{nonce}.{expires}.{sig}")
}

/// The order a lookup reference names; forged, malformed and expired alike are
/// `order_not_found`.
pub async fn resolve(cx: &Commerce<'_>, raw: &str) -> CommerceResult<Order> {
    let not_found = || CommerceError::OrderNotFound;
    let mut parts = raw.trim().splitn(4, '.');
    let (Some(hidden), Some(nonce), Some(expires), Some(sig)) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(not_found());
    };
    if !signing::verify(
        cx.signing_key,
        LOOKUP_PURPOSE,
        &[hidden, nonce, expires],
        sig,
    ) {
        return Err(not_found());
    }
    let at: i64 = expires.parse().map_err(|_| not_found())?;
    if at <= cx.clock.now().timestamp() {
        return Err(not_found());
    }
    let pad = lookup_pad(cx, nonce, expires).ok_or_else(not_found)?;
    let hidden = u64::from_str_radix(hidden, 16).map_err(|_| not_found())?;
    let id = i64::from_ne_bytes((hidden ^ pad).to_ne_bytes());
    cx.store.order_by_id(id).await?.ok_or_else(not_found)
}

fn code_hash(cx: &Commerce<'_>, order_id: i64, code: &str) -> String {
    signing::sign(cx.signing_key, CODE_PURPOSE, &[&order_id.to_string(), code])
}

/// A code sent: where to, and for how long it works.
#[derive(Debug, Clone)]
pub struct CodeSent {
    pub contact: String,
    pub expires_in: Duration,
}

/// Sends a new code for `order` to its own contact; at most one per `RESEND_AFTER`.
pub async fn send_code(cx: &Commerce<'_>, order: &Order) -> CommerceResult<CodeSent> {
    let to = Destination::of(cx, order.email.as_deref(), &order.mobile)
        .ok_or(CommerceError::NoContact)?;
    let now = cx.clock.now();
    if let Some(sent) = cx.store.access_code_sent_at(order.id).await? {
        let wait = resend_wait(sent, now);
        if wait > 0 {
            return Err(CommerceError::CodeSentRecently { retry_after: wait });
        }
    }
    let code = format!("{:06}", rand::random_range(0..1_000_000u32));
    let expires = now + chrono::Duration::from_std(CODE_TTL).unwrap_or_default();
    let hash = code_hash(cx, order.id, &code);
    cx.store
        .put_access_code(order.id, &hash, expires, now)
        .await?;
    let message = templates::order_code(&code, CODE_TTL.as_secs() / 60);
    let (via, address) = match &to {
        Destination::Email(email) => (ChannelKind::Email, email),
        Destination::Mobile(mobile) => (ChannelKind::Sms, mobile),
    };
    // Each code is a message of its own: its key holds a part of the code's hash.
    let key = format!(
        "order_code:{}:{}:{}",
        order.id,
        &hash[..16.min(hash.len())],
        via.as_str()
    );
    let sent = messages::send_once(
        &cx.outbox(),
        &key,
        MessageKind::OrderCode,
        via,
        address,
        &message,
    )
    .await;
    // A code that did not go out is forgotten, so the runner may ask again at once.
    let sent = match sent {
        Ok(Outcome::Sent) => Ok(()),
        Ok(Outcome::Capped) => Err(CommerceError::MessageCap),
        Ok(_) => Err(CommerceError::CodeNotDelivered),
        Err(SendError::Undeliverable(e) | SendError::Failed(e)) => {
            Err(CommerceError::CodeSendFailed(e))
        }
    };
    if let Err(e) = sent {
        cx.store.forget_access_code(order.id).await?;
        return Err(e);
    }
    Ok(CodeSent {
        contact: to.masked(),
        expires_in: CODE_TTL,
    })
}

/// Seconds until another code may be sent, after one sent at `sent`.
fn resend_wait(sent: DateTime<Utc>, now: DateTime<Utc>) -> u64 {
    let next = sent + chrono::Duration::from_std(RESEND_AFTER).unwrap_or_default();
    u64::try_from((next - now).num_seconds()).unwrap_or(0)
}

/// Opens `order` with a code: its uuid, once.
pub async fn open(cx: &Commerce<'_>, order: &Order, code: &str) -> CommerceResult<OrderUuid> {
    let code = code.trim();
    if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CommerceError::MalformedCode);
    }
    let hash = code_hash(cx, order.id, code);
    match cx
        .store
        .try_access_code(order.id, &hash, MAX_TRIES, cx.clock.now())
        .await?
    {
        CodeCheck::Opened => Ok(order.uuid),
        CodeCheck::Wrong => Err(CommerceError::WrongCode),
        CodeCheck::NoCode => Err(CommerceError::NoCodeWaiting),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_code_waits_a_minute() {
        let t = DateTime::<Utc>::UNIX_EPOCH;
        assert_eq!(resend_wait(t, t), 60);
        assert_eq!(resend_wait(t, t + chrono::Duration::seconds(59)), 1);
        assert_eq!(resend_wait(t, t + chrono::Duration::seconds(60)), 0);
        assert_eq!(resend_wait(t, t + chrono::Duration::hours(1)), 0);
    }
}
