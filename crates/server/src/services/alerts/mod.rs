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
use raceshot_store::StoreError;
use raceshot_store::alerts::{Alert, AlertState, NewAlert};
use raceshot_store::events::Event;
use raceshot_vision::FaceAnalyzer;
use sha2::{Digest, Sha256};

use crate::app::state::AppState;
use crate::infra::channels::{Channel as _, ChannelKind};
use crate::infra::signing;
use crate::services::messages::{self, MessageKind, Outcome, SendError, templates};
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
const LINK_PURPOSE: &str = "alert-link";

/// How an alert reaches the runner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AlertChannel {
    Sms,
    Line,
}

impl AlertChannel {
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

    pub fn kind(self) -> ChannelKind {
        match self {
            AlertChannel::Sms => ChannelKind::Sms,
            AlertChannel::Line => ChannelKind::Line,
        }
    }

    /// The channels alerts can go through with the shop's settings now: SMS when a
    /// provider is set up, LINE when LINE Login and the Messaging API are.
    pub fn available(state: &AppState) -> Vec<AlertChannel> {
        let live = state.live();
        let mut on = Vec::new();
        if live.line.api().is_some() {
            on.push(AlertChannel::Line);
        }
        if live.sms.delivers() {
            on.push(AlertChannel::Sms);
        }
        on
    }
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
    state: &AppState,
    event: &Event,
    ask: &Ask,
    selfie: bytes::Bytes,
    client: IpAddr,
) -> Result<Asked, AlertError> {
    if !ask.consent {
        return Err(AlertError::NoConsent);
    }
    let now = state.now();
    let sale = SaleState::at(
        event.spec.on_sale_start,
        event.spec.on_sale_end,
        event.sale_closed,
        now,
    );
    if sale.status != SaleStatus::OnSale {
        return Err(AlertError::NotOnSale);
    }
    if !AlertChannel::available(state).contains(&ask.channel) {
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
        texted_lately(state, mobile.as_str(), now).await?;
    }
    let (pair, engine) = state
        .faces
        .of_event(event)
        .await
        .map_err(AlertError::Fault)?;
    let face = selfie_face(engine, state, selfie).await?;
    let public_id = hex::encode(rand::random::<[u8; 16]>());
    let code = format!("{:06}", rand::random_range(0..1_000_000u32));
    let alert = NewAlert {
        public_id: public_id.clone(),
        event_id: event.id,
        channel: ask.channel.as_str().to_owned(),
        mobile: mobile.as_ref().map(|m| m.as_str().to_owned()),
        embedding: face.to_bytes(),
        model_pair: pair.name().to_owned(),
        code_hash: mobile
            .is_some()
            .then(|| code_hash(state, &public_id, &code)),
        client: hex::encode(Sha256::digest(client.to_string().as_bytes())),
        consented_at: now,
        expires_at: now + chrono::Duration::from_std(CONFIRM_TTL).unwrap_or_default(),
    };
    let id = state.store.add_alert(&alert, now).await?.ok_or_else(|| {
        AlertError::Fault(anyhow::anyhow!(
            "the event moved to another face model pair meanwhile"
        ))
    })?;
    metrics::counter!("alerts_asked_total", "channel" => ask.channel.as_str()).increment(1);
    let contact = match &mobile {
        Some(mobile) => {
            if let Err(e) = send_code(state, &public_id, mobile.as_str(), &code).await {
                state.store.delete_alert(id).await?;
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
    state: &AppState,
    mobile: &str,
    now: DateTime<Utc>,
) -> Result<(), AlertError> {
    let window = chrono::Duration::from_std(CONFIRM_TTL).unwrap_or_default();
    let (n, latest) = state
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
    state: &AppState,
    selfie: bytes::Bytes,
) -> Result<raceshot_vision::Embedding, AlertError> {
    let _slot = state
        .search_slots
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

fn code_hash(state: &AppState, public_id: &str, code: &str) -> String {
    signing::sign(&state.signing_key, CODE_PURPOSE, &[public_id, code])
}

async fn send_code(
    state: &AppState,
    public_id: &str,
    mobile: &str,
    code: &str,
) -> Result<(), AlertError> {
    let minutes = CONFIRM_TTL.as_secs() / 60;
    let message = templates::alert_code(code, minutes);
    let key = format!("alert_code:{public_id}:sms");
    match messages::send_once(
        state,
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
    state: &AppState,
    event_sale_end: DateTime<Utc>,
    now: DateTime<Utc>,
) -> DateTime<Utc> {
    let days = i64::from(state.live().alert_days);
    event_sale_end.min(now + chrono::Duration::days(days))
}

/// Confirms an SMS alert with the code sent to its number; answers the alert working.
/// Confirming one that works already answers it as it is.
pub async fn confirm(state: &AppState, public_id: &str, code: &str) -> Result<Alert, AlertError> {
    let now = state.now();
    let alert = state
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
    if !signing::same(hash, &code_hash(state, public_id, code.trim())) {
        let tries = state.store.count_alert_code_try(alert.id).await?;
        return Err(if tries >= MAX_TRIES {
            AlertError::CodeVoid
        } else {
            AlertError::WrongCode
        });
    }
    activate(state, &alert, None).await
}

/// Makes a pending alert work from now until its end, with the LINE account LINE Login
/// answered for a LINE alert.
pub async fn activate(
    state: &AppState,
    alert: &Alert,
    line_user_id: Option<&str>,
) -> Result<Alert, AlertError> {
    let now = state.now();
    let event = state
        .store
        .any_event_by_key(&alert.event_key)
        .await?
        .ok_or(AlertError::NotFound)?;
    let ends = ends_at(state, event.spec.on_sale_end, now);
    if !state
        .store
        .activate_alert(alert.id, line_user_id, ends)
        .await?
        && alert.state != AlertState::Active
    {
        return Err(AlertError::NotFound);
    }
    state.alerts.forget(alert.event_id);
    metrics::counter!("alerts_confirmed_total", "channel" => alert.channel.clone()).increment(1);
    state
        .store
        .alert(&alert.public_id, now)
        .await?
        .ok_or(AlertError::NotFound)
}

/// The token of an alert's links: `{expiry}.{signature}`, working until the alert ends.
pub fn link_token(state: &AppState, alert: &Alert) -> String {
    let expires = alert.expires_at.timestamp().to_string();
    let sig = signing::sign(
        &state.signing_key,
        LINK_PURPOSE,
        &[&alert.public_id, &expires],
    );
    format!("{expires}.{sig}")
}

/// The page of an alert's new photos, and the same page asking to stop.
pub fn links(state: &AppState, alert: &Alert) -> (String, String) {
    let view = format!(
        "{}/alerts/{}?t={}",
        state.public_url,
        alert.public_id,
        link_token(state, alert)
    );
    let stop = format!("{view}&stop=1");
    (view, stop)
}

/// The working alert a link names, when its token fits and has not expired.
pub async fn by_link(state: &AppState, public_id: &str, token: &str) -> Result<Alert, AlertError> {
    let (expires, sig) = token.split_once('.').ok_or(AlertError::NotFound)?;
    if !signing::verify(&state.signing_key, LINK_PURPOSE, &[public_id, expires], sig) {
        return Err(AlertError::NotFound);
    }
    let now = state.now();
    let at: i64 = expires.parse().map_err(|_| AlertError::NotFound)?;
    if at <= now.timestamp() {
        return Err(AlertError::NotFound);
    }
    match state.store.alert(public_id, now).await? {
        Some(alert) if alert.state == AlertState::Active => Ok(alert),
        _ => Err(AlertError::NotFound),
    }
}

/// Stops an alert: its template, its number or LINE account and its matches are deleted.
/// An alert never confirmed is stopped by its id alone (only the browser that asked for it
/// knows it); a working one needs its link's token.
pub async fn stop(
    state: &AppState,
    public_id: &str,
    token: Option<&str>,
) -> Result<(), AlertError> {
    let now = state.now();
    let alert = match token {
        Some(token) => by_link(state, public_id, token).await?,
        None => state
            .store
            .alert(public_id, now)
            .await?
            .filter(|a| a.state == AlertState::Pending)
            .ok_or(AlertError::NotFound)?,
    };
    state.store.delete_alert(alert.id).await?;
    state.alerts.forget(alert.event_id);
    metrics::counter!("alerts_stopped_total").increment(1);
    Ok(())
}

/// The photos found for an alert since it was confirmed, newest first (photo ids).
pub async fn found(state: &AppState, alert: &Alert) -> Result<Vec<i64>, AlertError> {
    Ok(state.store.alert_photos(alert.id).await?)
}

/// Deletes the alerts whose time is up: past their end, or of an event whose sale has
/// ended (closed early by an operator, or its end moved earlier). Answers how many.
pub async fn delete_due(state: &AppState) -> Result<u64, StoreError> {
    let now = state.now();
    let mut closed = Vec::new();
    for (event_id, key) in state.store.events_with_alerts().await? {
        let open = match state.store.any_event_by_key(&key).await? {
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
    let deleted = state.store.delete_alerts_due(now, &closed).await?;
    for event_id in closed {
        state.alerts.forget(event_id);
    }
    Ok(deleted)
}
