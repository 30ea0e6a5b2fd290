//! "Tell me when new photos of me arrive": after a face search, a runner asks to be told
//! of new photos of them at the event, by SMS (a mobile number proven by a one-time code)
//! or LINE (an account proven by LINE Login). The alert keeps the selfie's face template,
//! so it is asked for with its own consent (Thai PDPA s.26: a box of its own, never a
//! condition of buying or searching), and it has a stated lifetime: it is deleted when the
//! event's sale ends, after `alerts.days` days, or when the runner stops it (a one-tap
//! link in every message), whichever comes first; an alert never confirmed goes after
//! [`CONFIRM_TTL`]. The selfie itself is dropped once embedded, as a search drops it.
//!
//! Each message carries two links signed with the shop's key until the alert's end: one
//! to the page of the photos found since (no selfie needed: the template never leaves the
//! server) and one to stop. Matching new photos and scheduling the messages is
//! [`watch`].
//!
//! The service answers its own [`AlertError`]; `api/alerts.rs` maps it to error codes.

pub mod watch;

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use raceshot_domain::event::{SaleState, SaleStatus};
use raceshot_domain::order::{Mobile, mask_mobile};
pub use raceshot_store::alerts::AlertChannel;
use raceshot_store::alerts::{Alert, AlertState, NewAlert};
use raceshot_store::events::Event;
use raceshot_store::{Store, StoreError};
use raceshot_vision::FaceAnalyzer;
use sha2::{Digest, Sha256};

use crate::app::faces::FaceModels;
use crate::app::live::{Live, LiveCell};
use crate::infra::channels::{Channel as _, ChannelKind};
use crate::infra::clock::Clock;
use crate::infra::search_slots::SearchSlots;
use crate::infra::signing;
use crate::jobs::queue::JobQueue;
use crate::services::links::Links;
use crate::services::messages::{self, MessageKind, Outbox, Outcome, SendError, templates};
use crate::services::search::{SearchError, with_selfie_faces};

/// How long an alert waits for its code or its LINE Login.
pub const CONFIRM_TTL: Duration = Duration::from_secs(600);
/// Wrong codes that void an alert's code (it may be asked for again).
pub const MAX_TRIES: i64 = 5;
/// How soon one number may be texted another code.
pub const RESEND_AFTER: Duration = Duration::from_secs(60);
/// Codes one number is texted within [`CONFIRM_TTL`] at most: nobody can make the shop
/// text a stranger's phone more often, from however many addresses.
pub const CODES_PER_NUMBER: i64 = 3;
const CODE_PURPOSE: &str = "alert-code";

/// What alerts use: their rows and this process's templates of them, the face engines
/// and search slots a selfie is embedded with, the channels of the settings in force and
/// the outbox the code goes through, the addresses and the key that sign their links and
/// codes, and the queue of their messages. LINE Login takes it too, as it confirms alerts.
#[derive(Clone, Copy)]
pub struct Alerting<'a> {
    pub store: &'a Store,
    pub templates: &'a watch::AlertTemplates,
    pub faces: &'a FaceModels,
    pub slots: &'a SearchSlots,
    pub live: &'a LiveCell,
    pub links: &'a Links,
    /// Signs the codes sent to confirm a number.
    pub signing_key: &'a [u8],
    pub jobs: &'a JobQueue,
    pub clock: Clock,
}

impl<'a> Alerting<'a> {
    /// The outbox the alerts' codes go through.
    pub fn outbox(&self) -> Outbox<'a> {
        Outbox::new(self.store, self.live, self.links, self.clock)
    }
}

/// The message channel an alert's messages take.
impl From<AlertChannel> for ChannelKind {
    fn from(channel: AlertChannel) -> Self {
        match channel {
            AlertChannel::Sms => ChannelKind::Sms,
            AlertChannel::Line => ChannelKind::Line,
        }
    }
}

/// The channels alerts can go through with the shop's settings now: SMS when a provider
/// is set up, LINE when LINE Login and the Messaging API are.
pub fn available_channels(live: &Live) -> Vec<AlertChannel> {
    let mut on = Vec::new();
    if live.line.api().is_some() {
        on.push(AlertChannel::Line);
    }
    if live.sms.delivers() {
        on.push(AlertChannel::Sms);
    }
    on
}

/// Why an alert was not made, confirmed, shown or stopped.
#[derive(Debug, thiserror::Error)]
pub enum AlertError {
    /// The separate consent to keep a face template was not given.
    #[error("alerts keep your face template: tick the box that allows it")]
    NoConsent,
    /// The event is not on sale: there is nothing to be told of.
    #[error("the event is not on sale")]
    NotOnSale,
    /// The channel is not set up in this shop.
    #[error("alerts by {} are not available", .0.as_str())]
    Unavailable(AlertChannel),
    /// An SMS alert without a mobile number that can receive one.
    #[error("a mobile number")]
    BadMobile,
    /// No working alert by that id (never made, stopped, its time up), or a link that does
    /// not fit it.
    #[error("no such alert")]
    NotFound,
    /// A wrong code.
    #[error("the code is not right")]
    WrongCode,
    /// Too many wrong codes: the alert must be asked for again.
    #[error("too many wrong codes; ask for the alert again")]
    CodeVoid,
    /// The code could not be sent.
    #[error("{0}")]
    Undeliverable(&'static str),
    /// The number was texted a code a moment ago, or too many lately: try again after
    /// this many seconds.
    #[error("a code was sent to this number a moment ago")]
    TooSoon(u64),
    /// The selfie could not be read as a face search reads one.
    #[error(transparent)]
    Selfie(SearchError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Fault(anyhow::Error),
}

/// What a runner asks for.
#[derive(Debug, Clone)]
pub struct Ask {
    pub channel: AlertChannel,
    /// The number an SMS alert goes to.
    pub mobile: Option<String>,
    /// The separate consent to keep a face template.
    pub consent: bool,
}

/// An alert asked for, waiting for its confirmation.
#[derive(Debug, Clone)]
pub struct Asked {
    pub public_id: String,
    pub channel: AlertChannel,
    /// Where the code went (masked), for an SMS alert.
    pub contact: Option<String>,
    /// Where the browser goes to confirm a LINE alert.
    pub line_url: Option<String>,
    pub expires_in: Duration,
}

/// Asks for an alert on `event` with the face of `selfie` (its largest face, as a search
/// takes it). An SMS alert is sent its code now; a LINE alert is confirmed through
/// [`line_url`].
pub async fn ask(
    cx: &Alerting<'_>,
    event: &Event,
    ask: &Ask,
    selfie: bytes::Bytes,
    client: IpAddr,
) -> Result<Asked, AlertError> {
    if !ask.consent {
        return Err(AlertError::NoConsent);
    }
    let now = cx.clock.now();
    let sale = SaleState::at(
        event.spec.on_sale_start,
        event.spec.on_sale_end,
        event.sale_closed,
        now,
    );
    if sale.status != SaleStatus::OnSale {
        return Err(AlertError::NotOnSale);
    }
    if !available_channels(&cx.live.get()).contains(&ask.channel) {
        return Err(AlertError::Unavailable(ask.channel));
    }
    let mobile = match ask.channel {
        AlertChannel::Sms => Some(
            ask.mobile
                .as_deref()
                .map(|m| {
                    m.chars()
                        .filter(|c| !matches!(c, ' ' | '-'))
                        .collect::<String>()
                })
                .and_then(|m| Mobile::parse(&m, Mobile::SEARCH_LENGTH))
                .ok_or(AlertError::BadMobile)?,
        ),
        AlertChannel::Line => None,
    };
    if let Some(mobile) = &mobile {
        texted_lately(cx, mobile.as_str(), now).await?;
    }
    let (pair, engine) = cx.faces.of_event(event).await.map_err(AlertError::Fault)?;
    let face = selfie_face(engine, cx, selfie).await?;
    let public_id = hex::encode(rand::random::<[u8; 16]>());
    let code = format!("{:06}", rand::random_range(0..1_000_000u32));
    let alert = NewAlert {
        public_id: public_id.clone(),
        event_id: event.id,
        channel: ask.channel,
        mobile: mobile.as_ref().map(|m| m.as_str().to_owned()),
        embedding: face.to_bytes(),
        model_pair: pair.name().to_owned(),
        code_hash: mobile.is_some().then(|| code_hash(cx, &public_id, &code)),
        client: hex::encode(Sha256::digest(client.to_string().as_bytes())),
        consented_at: now,
        expires_at: now + chrono::Duration::from_std(CONFIRM_TTL).unwrap_or_default(),
    };
    let id = cx.store.add_alert(&alert, now).await?.ok_or_else(|| {
        AlertError::Fault(anyhow::anyhow!(
            "the event moved to another face model pair meanwhile"
        ))
    })?;
    metrics::counter!("alerts_asked_total", "channel" => ask.channel.as_str()).increment(1);
    let contact = match &mobile {
        Some(mobile) => {
            if let Err(e) = send_code(cx, &public_id, mobile.as_str(), &code).await {
                cx.store.delete_alert(id).await?;
                return Err(e);
            }
            Some(mask_mobile(mobile.as_str()))
        }
        None => None,
    };
    Ok(Asked {
        line_url: (ask.channel == AlertChannel::Line).then(|| line_url(&public_id)),
        public_id,
        channel: ask.channel,
        contact,
        expires_in: CONFIRM_TTL,
    })
}

/// Refuses a number texted a code within [`RESEND_AFTER`], or [`CODES_PER_NUMBER`] times
/// within [`CONFIRM_TTL`].
async fn texted_lately(
    cx: &Alerting<'_>,
    mobile: &str,
    now: DateTime<Utc>,
) -> Result<(), AlertError> {
    let window = chrono::Duration::from_std(CONFIRM_TTL).unwrap_or_default();
    let (n, latest) = cx
        .store
        .alerts_asked_by_mobile(mobile, now - window)
        .await?;
    let resend = chrono::Duration::from_std(RESEND_AFTER).unwrap_or_default();
    let wait = |until: DateTime<Utc>| {
        u64::try_from((until - now).num_seconds())
            .unwrap_or(0)
            .max(1)
    };
    match latest {
        Some(latest) if latest + resend > now => Err(AlertError::TooSoon(wait(latest + resend))),
        Some(_) if n >= CODES_PER_NUMBER => Err(AlertError::TooSoon(CONFIRM_TTL.as_secs())),
        _ => Ok(()),
    }
}

/// The face a selfie shows (its largest), inside a search slot.
async fn selfie_face(
    engine: Arc<dyn FaceAnalyzer>,
    cx: &Alerting<'_>,
    selfie: bytes::Bytes,
) -> Result<raceshot_vision::Embedding, AlertError> {
    let _slot = cx
        .slots
        .acquire()
        .await
        .map_err(|busy| AlertError::Selfie(busy.into()))?;
    with_selfie_faces(engine, selfie, |_, faces| {
        faces
            .map(|f| f.primary.embedding)
            .ok_or_else(|| SearchError::NoFace {
                field: "file".to_owned(),
            })
    })
    .await
    .map_err(AlertError::Selfie)
}

fn code_hash(cx: &Alerting<'_>, public_id: &str, code: &str) -> String {
    signing::sign(cx.signing_key, CODE_PURPOSE, &[public_id, code])
}

async fn send_code(
    cx: &Alerting<'_>,
    public_id: &str,
    mobile: &str,
    code: &str,
) -> Result<(), AlertError> {
    let minutes = CONFIRM_TTL.as_secs() / 60;
    let message = templates::alert_code(code, minutes);
    let key = format!("alert_code:{public_id}:sms");
    match messages::send_once(
        &cx.outbox(),
        &key,
        MessageKind::AlertCode,
        ChannelKind::Sms,
        mobile,
        &message,
    )
    .await
    {
        Ok(Outcome::Sent) => Ok(()),
        Ok(Outcome::Capped) => Err(AlertError::Undeliverable(
            "the shop sent all the messages it may send today",
        )),
        Ok(_) | Err(SendError::Undeliverable(_)) => {
            Err(AlertError::Undeliverable("the code could not be delivered"))
        }
        Err(SendError::Failed(e)) => Err(AlertError::Fault(e.context("sending an alert code"))),
    }
}

/// Where the browser starts LINE Login for an alert.
pub fn line_url(public_id: &str) -> String {
    format!("/api/line/link/alert/{public_id}")
}

/// When an alert confirmed now ends: the event's sale end or `alerts.days` from now,
/// whichever comes first.
pub fn ends_at(
    cx: &Alerting<'_>,
    event_sale_end: DateTime<Utc>,
    now: DateTime<Utc>,
) -> DateTime<Utc> {
    let days = i64::from(cx.live.get().alert_days);
    event_sale_end.min(now + chrono::Duration::days(days))
}

/// Confirms an SMS alert with the code sent to its number; answers the alert working.
/// Confirming one that works already answers it as it is.
pub async fn confirm(cx: &Alerting<'_>, public_id: &str, code: &str) -> Result<Alert, AlertError> {
    let now = cx.clock.now();
    let alert = cx
        .store
        .alert(public_id, now)
        .await?
        .ok_or(AlertError::NotFound)?;
    if alert.state == AlertState::Active {
        return Ok(alert);
    }
    let Some(hash) = alert.code_hash.as_deref() else {
        return Err(AlertError::NotFound);
    };
    if alert.code_tries >= MAX_TRIES {
        return Err(AlertError::CodeVoid);
    }
    if !signing::same(hash, &code_hash(cx, public_id, code.trim())) {
        let tries = cx.store.count_alert_code_try(alert.id).await?;
        return Err(if tries >= MAX_TRIES {
            AlertError::CodeVoid
        } else {
            AlertError::WrongCode
        });
    }
    activate(cx, &alert, None).await
}

/// Makes a pending alert work from now until its end, with the LINE account LINE Login
/// answered for a LINE alert.
pub async fn activate(
    cx: &Alerting<'_>,
    alert: &Alert,
    line_user_id: Option<&str>,
) -> Result<Alert, AlertError> {
    let now = cx.clock.now();
    let event = cx
        .store
        .any_event_by_key(&alert.event_key)
        .await?
        .ok_or(AlertError::NotFound)?;
    let ends = ends_at(cx, event.spec.on_sale_end, now);
    if !cx
        .store
        .activate_alert(alert.id, line_user_id, ends)
        .await?
        && alert.state != AlertState::Active
    {
        return Err(AlertError::NotFound);
    }
    cx.templates.forget(alert.event_id);
    metrics::counter!("alerts_confirmed_total", "channel" => alert.channel.as_str()).increment(1);
    cx.store
        .alert(&alert.public_id, now)
        .await?
        .ok_or(AlertError::NotFound)
}

/// The working alert a link names, when its token fits and has not expired.
pub async fn by_link(cx: &Alerting<'_>, public_id: &str, token: &str) -> Result<Alert, AlertError> {
    let at = (cx.links)
        .alert_token_expiry(public_id, token)
        .ok_or(AlertError::NotFound)?;
    let now = cx.clock.now();
    if at <= now.timestamp() {
        return Err(AlertError::NotFound);
    }
    match cx.store.alert(public_id, now).await? {
        Some(alert) if alert.state == AlertState::Active => Ok(alert),
        _ => Err(AlertError::NotFound),
    }
}

/// Stops an alert: its template, its number or LINE account and its matches are deleted.
/// An alert never confirmed is stopped by its id alone (only the browser that asked for it
/// knows it); a working one needs its link's token.
pub async fn stop(
    cx: &Alerting<'_>,
    public_id: &str,
    token: Option<&str>,
) -> Result<(), AlertError> {
    let now = cx.clock.now();
    let alert = match token {
        Some(token) => by_link(cx, public_id, token).await?,
        None => cx
            .store
            .alert(public_id, now)
            .await?
            .filter(|a| a.state == AlertState::Pending)
            .ok_or(AlertError::NotFound)?,
    };
    cx.store.delete_alert(alert.id).await?;
    cx.templates.forget(alert.event_id);
    metrics::counter!("alerts_stopped_total").increment(1);
    Ok(())
}

/// The photos found for an alert since it was confirmed, newest first (photo ids).
pub async fn found(cx: &Alerting<'_>, alert: &Alert) -> Result<Vec<i64>, AlertError> {
    Ok(cx.store.alert_photos(alert.id).await?)
}

/// Deletes the alerts whose time is up: past their end, or of an event whose sale has
/// ended (closed early by an operator, or its end moved earlier). Answers how many.
pub async fn delete_due(cx: &Alerting<'_>) -> Result<u64, StoreError> {
    let now = cx.clock.now();
    let mut closed = Vec::new();
    for (event_id, key) in cx.store.events_with_alerts().await? {
        let open = match cx.store.any_event_by_key(&key).await? {
            Some(e) => {
                SaleState::at(e.spec.on_sale_start, e.spec.on_sale_end, e.sale_closed, now).status
                    != SaleStatus::Closed
            }
            None => false,
        };
        if !open {
            closed.push(event_id);
        }
    }
    let deleted = cx.store.delete_alerts_due(now, &closed).await?;
    for event_id in closed {
        cx.templates.forget(event_id);
    }
    Ok(deleted)
}
