//! LINE Login for the shop: "Send to my LINE" links an order to the runner's LINE account,
//! and a LINE alert of new photos is confirmed by the account it goes to.
//! Starting keeps a login under the SHA-256 of a fresh `state` (with its nonce and PKCE
//! verifier, for [`LOGIN_TTL`]) and answers LINE's authorize address; the browser also
//! keeps the `state` in a cookie, so the callback is known to come back to the browser
//! that started. The callback takes the login once (a replayed callback finds nothing),
//! has LINE Login check the code, the PKCE verifier and the ID token, links the order to
//! the token's user and enqueues the order's link (or, when it is paid already, its news)
//! as a LINE message; the order's news
//! (ready to download) goes there too from then on. The LINE user id is deleted with the
//! event's files (retention). For an alert, the callback confirms it with the token's user
//! (`crate::services::alerts::activate`), whose id goes with the alert.

use std::time::Duration;

use raceshot_domain::{EventKey, OrderUuid};
use raceshot_store::alerts::{Alert, AlertState};
use raceshot_store::messages::{LineLogin, LoginFor};
use raceshot_store::orders::Order;
use sha2::{Digest, Sha256};

use super::MessageKind;
use crate::infra::channels::ChannelKind;
use crate::infra::signing;
use crate::services::alerts::{self, Alerting};

/// How long a runner has to log in with LINE.
pub const LOGIN_TTL: Duration = Duration::from_secs(600);

/// The page a login returns to: the order's, or the event's of an alert.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Back {
    Order(OrderUuid),
    Alert(EventKey),
}

/// Why linking failed; the page returned to shows which.
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    /// LINE is not set up.
    #[error("LINE is not set up")]
    Unavailable,
    /// No login under way with this `state`: unknown, used already or expired.
    #[error("no LINE login is waiting for this answer")]
    UnknownLogin,
    /// The callback came back to another browser than the one that started.
    #[error("the LINE login came back to another browser")]
    OtherBrowser(Back),
    /// The runner said no on LINE's page.
    #[error("the runner did not allow the login")]
    Declined(Back),
    /// LINE's answer did not hold (a code, a token or its verification).
    #[error("LINE login failed: {1:#}")]
    Refused(Back, anyhow::Error),
    #[error(transparent)]
    Store(#[from] raceshot_store::StoreError),
}

/// Where the browser goes to log in, and the `state` it keeps in its cookie.
pub struct Started {
    pub authorize_url: String,
    pub state: String,
}

fn state_hash(login_state: &str) -> String {
    hex::encode(Sha256::digest(login_state.as_bytes()))
}

/// Starts linking `order` to a LINE account.
pub async fn start(cx: &Alerting<'_>, order: &Order) -> Result<Started, LinkError> {
    begin(cx, LoginFor::Order(order.id)).await
}

/// Starts confirming a LINE alert still waiting for it.
pub async fn start_alert(cx: &Alerting<'_>, alert: &Alert) -> Result<Started, LinkError> {
    if alert.state != AlertState::Pending || alert.channel != alerts::AlertChannel::Line {
        return Err(LinkError::UnknownLogin);
    }
    begin(cx, LoginFor::Alert(alert.id)).await
}

async fn begin(cx: &Alerting<'_>, target: LoginFor) -> Result<Started, LinkError> {
    let live = cx.live.get();
    let api = live.line.api().ok_or(LinkError::Unavailable)?;
    let login_state = hex::encode(rand::random::<[u8; 32]>());
    let nonce = hex::encode(rand::random::<[u8; 16]>());
    // 64 characters (PKCE takes 43 to 128), from 256 random bits.
    let verifier = hex::encode(rand::random::<[u8; 32]>());
    let expires_at = cx.clock.now() + chrono::Duration::from_std(LOGIN_TTL).unwrap_or_default();
    cx.store
        .put_line_login(
            &state_hash(&login_state),
            &LineLogin {
                target,
                nonce: nonce.clone(),
                verifier: verifier.clone(),
                expires_at,
            },
        )
        .await?;
    Ok(Started {
        authorize_url: api.authorize_url(
            &cx.links.line_callback_url(),
            &login_state,
            &nonce,
            &verifier,
        ),
        state: login_state,
    })
}

/// What LINE's callback carries.
pub struct Callback<'a> {
    pub state: &'a str,
    pub code: Option<&'a str>,
    /// LINE's `error` (the runner declined: `access_denied`).
    pub error: Option<&'a str>,
    /// The `state` the browser kept in its cookie.
    pub cookie: Option<&'a str>,
}

/// Finishes a login: links the order and enqueues its link as a LINE message, or confirms
/// the alert; answers the page to return to.
pub async fn finish(cx: &Alerting<'_>, callback: &Callback<'_>) -> Result<Back, LinkError> {
    let live = cx.live.get();
    let api = live.line.api().ok_or(LinkError::Unavailable)?;
    let now = cx.clock.now();
    let login = cx
        .store
        .take_line_login(&state_hash(callback.state), now)
        .await?
        .ok_or(LinkError::UnknownLogin)?;
    let subject = match login.target {
        LoginFor::Order(id) => {
            (cx.store.order_by_id(id).await?).map(|order| Subject::Order(Box::new(order)))
        }
        LoginFor::Alert(id) => {
            (cx.store.alert_by_id(id).await?).map(|alert| Subject::Alert(Box::new(alert)))
        }
    }
    .ok_or(LinkError::UnknownLogin)?;
    let back = subject.back();
    if !callback
        .cookie
        .is_some_and(|kept| signing::same(callback.state, kept))
    {
        return Err(LinkError::OtherBrowser(back));
    }
    if callback.error.is_some() {
        return Err(LinkError::Declined(back));
    }
    let code = callback
        .code
        .filter(|c| !c.is_empty() && c.len() <= 512)
        .ok_or_else(|| LinkError::Refused(back.clone(), anyhow::anyhow!("no code")))?;
    let user = api
        .log_in(
            code,
            &cx.links.line_callback_url(),
            &login.verifier,
            &login.nonce,
            now,
        )
        .await
        .map_err(|e| LinkError::Refused(back.clone(), e))?;
    match subject {
        Subject::Order(order) => link_order(cx, &order, &user).await?,
        Subject::Alert(alert) => {
            alerts::activate(cx, &alert, Some(&user))
                .await
                .map_err(|e| LinkError::Refused(back.clone(), e.into()))?;
        }
    }
    Ok(back)
}

/// What a login is finished for.
/// (Both rows boxed: an order's is twice an alert's.)
enum Subject {
    Order(Box<Order>),
    Alert(Box<Alert>),
}

impl Subject {
    fn back(&self) -> Back {
        match self {
            Subject::Order(order) => Back::Order(order.uuid),
            Subject::Alert(alert) => Back::Alert(alert.event_key.clone()),
        }
    }
}

/// Links `order` to the LINE account `user` and enqueues its link there.
async fn link_order(cx: &Alerting<'_>, order: &Order, user: &str) -> Result<(), LinkError> {
    cx.store.link_line(order.id, user, cx.clock.now()).await?;
    // The order's link now; a paid order's news went out before it was linked, so that
    // follows on LINE instead.
    let kind = if order.is_deliverable() {
        MessageKind::OrderReady
    } else {
        MessageKind::OrderLink
    };
    let job = cx
        .jobs
        .message(kind, &order.id.to_string(), ChannelKind::Line);
    cx.store.enqueue(&job, cx.clock.now()).await?;
    cx.jobs.wake();
    Ok(())
}
