//! LINE: the Messaging API's push (the LINE channel) and LINE Login (OAuth 2.0 with
//! OpenID Connect), which tells the shop a runner's LINE user id.
//!
//! - Login: the browser goes to `{access_base}/oauth2/v2.1/authorize` with a `state`, a
//!   `nonce`, a PKCE challenge (S256) and `bot_prompt=aggressive` (LINE asks the runner to
//!   add the shop's Official Account as a friend, without which no push reaches them);
//!   LINE returns to the shop's callback with a code, exchanged at
//!   `{api_base}/oauth2/v2.1/token` with the channel secret and the PKCE verifier for an ID
//!   token. The ID token is checked here (HS256 with the channel secret, issuer, audience,
//!   expiry, the login's nonce) and then by LINE (`/oauth2/v2.1/verify`); only then is its
//!   `sub` the runner's user id.
//! - Push: `POST {api_base}/v2/bot/message/push` with the channel access token and an
//!   `X-Line-Retry-Key`: LINE answers 409 to a retry of a message it already accepted,
//!   which counts as sent, so a retried job never sends twice. A user id LINE refuses
//!   (400) is [`Undeliverable`]; 401, 429 (rate or monthly quota) and 5xx are errors for
//!   now, retried by the job.
//!
//! The login channel and the Messaging API channel must belong to the same LINE provider,
//! so that the user id from one is the user id of the other.

use std::fmt;
use std::time::Duration;

use anyhow::Context as _;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac};
use serde::Deserialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::{Card, Channel, ChannelKind, Message, Sent, Undeliverable};

/// LINE Login's authorization host.
pub const LINE_ACCESS_BASE: &str = "https://access.line.me";
/// LINE's API host (tokens, verification, messages).
pub const LINE_API_BASE: &str = "https://api.line.me";
/// The issuer of LINE's ID tokens.
const ISSUER: &str = "https://access.line.me";
/// Clock difference allowed between LINE and the shop when reading an ID token.
const SKEW_SECS: i64 = 60;

#[derive(Clone)]
pub struct LineSettings {
    /// The LINE Login channel's id (the ID token's audience).
    pub login_channel_id: String,
    pub login_channel_secret: String,
    /// The Messaging API channel's long-lived access token.
    pub channel_access_token: String,
    /// Without a trailing `/`.
    pub access_base: String,
    /// Without a trailing `/`.
    pub api_base: String,
    pub timeout: Duration,
}

impl fmt::Debug for LineSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LineSettings")
            .field("login_channel_id", &self.login_channel_id)
            .field("login_channel_secret", &"<redacted>")
            .field("channel_access_token", &"<redacted>")
            .field("access_base", &self.access_base)
            .field("api_base", &self.api_base)
            .field("timeout", &self.timeout)
            .finish()
    }
}

/// The shop's LINE channels.
#[derive(Debug, Clone)]
pub struct LineApi {
    http: reqwest::Client,
    settings: LineSettings,
}

/// Why an ID token was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdTokenError {
    #[error("the ID token is not a signed JWT")]
    Malformed,
    #[error("the ID token is not signed with HS256")]
    Algorithm,
    #[error("the ID token's signature is not the channel's")]
    Signature,
    #[error("the ID token's {0} is wrong")]
    Claim(&'static str),
    #[error("the ID token has expired")]
    Expired,
}

#[derive(Debug, Deserialize)]
struct TokenAnswer {
    id_token: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Claims {
    iss: String,
    sub: String,
    aud: String,
    exp: i64,
    iat: i64,
    #[serde(default)]
    nonce: Option<String>,
}

/// The PKCE challenge of a verifier (S256: the unpadded base64url of its SHA-256).
pub fn pkce_challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

impl LineApi {
    pub fn new(settings: LineSettings) -> anyhow::Result<Self> {
        let http = reqwest::Client::builder()
            .timeout(settings.timeout)
            .build()
            .context("building LINE's HTTP client")?;
        Ok(Self { http, settings })
    }

    /// Where the browser is sent to log in with LINE.
    pub fn authorize_url(
        &self,
        redirect_uri: &str,
        state: &str,
        nonce: &str,
        verifier: &str,
    ) -> String {
        let query = serde_urlencoded::to_string([
            ("response_type", "code"),
            ("client_id", self.settings.login_channel_id.as_str()),
            ("redirect_uri", redirect_uri),
            ("state", state),
            ("scope", "openid profile"),
            ("nonce", nonce),
            ("code_challenge", &pkce_challenge(verifier)),
            ("code_challenge_method", "S256"),
            ("bot_prompt", "aggressive"),
        ])
        .unwrap_or_default();
        format!(
            "{}/oauth2/v2.1/authorize?{query}",
            self.settings.access_base
        )
    }

    /// Exchanges a login's code for its ID token, checks the token and has LINE verify
    /// it; answers the runner's user id.
    pub async fn log_in(
        &self,
        code: &str,
        redirect_uri: &str,
        verifier: &str,
        nonce: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<String> {
        let s = &self.settings;
        let resp = self
            .http
            .post(format!("{}/oauth2/v2.1/token", s.api_base))
            .form(&[
                ("grant_type", "authorization_code"),
                ("code", code),
                ("redirect_uri", redirect_uri),
                ("client_id", s.login_channel_id.as_str()),
                ("client_secret", s.login_channel_secret.as_str()),
                ("code_verifier", verifier),
            ])
            .send()
            .await
            .context("LINE's token endpoint did not answer")?;
        let status = resp.status();
        if !status.is_success() {
            anyhow::bail!("LINE refused the login's code: HTTP {status}");
        }
        let answer: TokenAnswer = resp.json().await.context("LINE's token answer")?;
        let id_token = answer
            .id_token
            .context("LINE's token answer has no ID token")?;
        let user = self.check_id_token(&id_token, nonce, now)?;
        let resp = self
            .http
            .post(format!("{}/oauth2/v2.1/verify", s.api_base))
            .form(&[
                ("id_token", id_token.as_str()),
                ("client_id", s.login_channel_id.as_str()),
                ("nonce", nonce),
            ])
            .send()
            .await
            .context("LINE's verify endpoint did not answer")?;
        let status = resp.status();
        if !status.is_success() {
            anyhow::bail!("LINE did not verify the ID token: HTTP {status}");
        }
        let verified: Value = resp.json().await.context("LINE's verify answer")?;
        if verified.get("sub").and_then(Value::as_str) != Some(user.as_str()) {
            anyhow::bail!("LINE verified the ID token for another user");
        }
        Ok(user)
    }

    /// The user id of an ID token signed for this login channel, for this `nonce`, still
    /// valid at `now`.
    pub fn check_id_token(
        &self,
        token: &str,
        nonce: &str,
        now: DateTime<Utc>,
    ) -> Result<String, IdTokenError> {
        let mut parts = token.split('.');
        let (Some(header), Some(payload), Some(signature), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(IdTokenError::Malformed);
        };
        let decode = |part: &str| {
            URL_SAFE_NO_PAD
                .decode(part)
                .map_err(|_| IdTokenError::Malformed)
        };
        let header: Value =
            serde_json::from_slice(&decode(header)?).map_err(|_| IdTokenError::Malformed)?;
        if header.get("alg").and_then(Value::as_str) != Some("HS256") {
            return Err(IdTokenError::Algorithm);
        }
        let mut mac = Hmac::<Sha256>::new_from_slice(self.settings.login_channel_secret.as_bytes())
            .map_err(|_| IdTokenError::Signature)?;
        let signed_len = token.len() - signature.len() - 1;
        mac.update(&token.as_bytes()[..signed_len]);
        mac.verify_slice(&decode(signature)?)
            .map_err(|_| IdTokenError::Signature)?;
        let claims: Claims =
            serde_json::from_slice(&decode(payload)?).map_err(|_| IdTokenError::Malformed)?;
        if claims.iss != ISSUER {
            return Err(IdTokenError::Claim("issuer"));
        }
        if claims.aud != self.settings.login_channel_id {
            return Err(IdTokenError::Claim("audience"));
        }
        if claims.nonce.as_deref() != Some(nonce) {
            return Err(IdTokenError::Claim("nonce"));
        }
        let now = now.timestamp();
        if claims.exp + SKEW_SECS <= now {
            return Err(IdTokenError::Expired);
        }
        if claims.iat > now + SKEW_SECS {
            return Err(IdTokenError::Claim("issue time"));
        }
        if claims.sub.is_empty() || claims.sub.len() > 64 {
            return Err(IdTokenError::Claim("subject"));
        }
        Ok(claims.sub)
    }

    /// Pushes `card` to a LINE user, as one Flex message.
    pub async fn push(&self, to: &str, card: &Card, retry_key: &str) -> anyhow::Result<()> {
        let who = mask_user(to);
        let body = json!({ "to": to, "messages": [flex(card)] });
        let resp = self
            .http
            .post(format!("{}/v2/bot/message/push", self.settings.api_base))
            .bearer_auth(&self.settings.channel_access_token)
            .header("X-Line-Retry-Key", retry_key)
            .json(&body)
            .send()
            .await
            .with_context(|| format!("pushing to {who}: no answer from LINE"))?;
        let status = resp.status();
        match status.as_u16() {
            200..=299 => {}
            // A retry of a message LINE already accepted: sent once, as it should be.
            409 => tracing::info!(to = %who, "LINE had accepted this message already"),
            400 => {
                let why = line_message(resp).await;
                return Err(anyhow::Error::new(Undeliverable(who))
                    .context(format!("LINE refused the message: {why}")));
            }
            _ => {
                let why = line_message(resp).await;
                anyhow::bail!("LINE refused a push to {who}: HTTP {status}, {why}");
            }
        }
        tracing::info!(to = %who, "LINE message pushed");
        Ok(())
    }
}

/// LINE's `message` from an error answer, cut short (it never holds the recipient).
async fn line_message(resp: reqwest::Response) -> String {
    let body: Value = resp.json().await.unwrap_or(Value::Null);
    body.get("message")
        .and_then(Value::as_str)
        .unwrap_or("an unreadable answer")
        .chars()
        .take(200)
        .collect()
}

/// A LINE user id as logs show it: its first characters.
fn mask_user(id: &str) -> String {
    format!("{}***", id.chars().take(5).collect::<String>())
}

/// A card as a Flex message: a bubble with the picture, the event's name, the news, the
/// button and the footnote.
pub fn flex(card: &Card) -> Value {
    let mut body = vec![json!({
        "type": "text", "text": card.title, "weight": "bold", "size": "lg", "wrap": true
    })];
    body.extend(card.lines.iter().map(|line| {
        json!({ "type": "text", "text": line, "size": "sm", "wrap": true, "color": "#555555" })
    }));
    let mut footer = Vec::new();
    if let Some((label, uri)) = &card.button {
        footer.push(json!({
            "type": "button", "style": "primary", "color": "#E4572E",
            "action": { "type": "uri", "label": label_of(label), "uri": uri }
        }));
    }
    if let Some((label, uri)) = &card.footnote {
        footer.push(json!({
            "type": "button", "style": "link", "height": "sm",
            "action": { "type": "uri", "label": label_of(label), "uri": uri }
        }));
    }
    let mut bubble = json!({
        "type": "bubble",
        "body": { "type": "box", "layout": "vertical", "spacing": "sm", "contents": body },
    });
    if !footer.is_empty() {
        bubble["footer"] =
            json!({ "type": "box", "layout": "vertical", "spacing": "sm", "contents": footer });
    }
    // LINE shows only pictures served over https.
    if let Some(image) = card.image.as_ref().filter(|u| u.starts_with("https://")) {
        bubble["hero"] = json!({
            "type": "image", "url": image, "size": "full", "aspectRatio": "3:2", "aspectMode": "cover"
        });
    }
    json!({
        "type": "flex",
        "altText": card.alt_text.chars().take(400).collect::<String>(),
        "contents": bubble,
    })
}

/// A button's label within LINE's 40 characters.
fn label_of(label: &str) -> String {
    label.chars().take(40).collect()
}

/// Where LINE messages go.
#[derive(Debug, Clone)]
pub enum LineSender {
    /// Nowhere: one log line per message (LINE is not set up).
    Log,
    Api(LineApi),
}

impl LineSender {
    /// LINE Login, when LINE is set up.
    pub fn api(&self) -> Option<&LineApi> {
        match self {
            LineSender::Log => None,
            LineSender::Api(api) => Some(api),
        }
    }
}

#[async_trait::async_trait]
impl Channel for LineSender {
    fn kind(&self) -> ChannelKind {
        ChannelKind::Line
    }

    fn delivers(&self) -> bool {
        matches!(self, LineSender::Api(_))
    }

    async fn send(&self, to: &str, message: &Message, retry_key: &str) -> anyhow::Result<Sent> {
        match self {
            LineSender::Log => {
                tracing::info!(to = %mask_user(to), "LINE message logged, not sent (LINE is not set up)");
                Ok(Sent::Logged)
            }
            LineSender::Api(api) => {
                api.push(to, &message.card, retry_key).await?;
                Ok(Sent::Delivered)
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn api() -> LineApi {
        LineApi::new(LineSettings {
            login_channel_id: "1650000000".to_owned(),
            login_channel_secret: "channel-secret".to_owned(),
            channel_access_token: "token".to_owned(),
            access_base: LINE_ACCESS_BASE.to_owned(),
            api_base: LINE_API_BASE.to_owned(),
            timeout: Duration::from_secs(5),
        })
        .unwrap()
    }

    fn jwt(secret: &str, header: &Value, claims: &Value) -> String {
        let signed = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(header.to_string()),
            URL_SAFE_NO_PAD.encode(claims.to_string())
        );
        let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
        mac.update(signed.as_bytes());
        format!(
            "{signed}.{}",
            URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
        )
    }

    fn claims(now: i64) -> Value {
        json!({
            "iss": "https://access.line.me", "sub": "U1234567890abcdef", "aud": "1650000000",
            "exp": now + 3600, "iat": now, "nonce": "n-1", "name": "Somchai"
        })
    }

    #[test]
    fn only_a_token_of_this_channel_and_login_passes() {
        let now = Utc::now();
        let t = now.timestamp();
        let hs = json!({"alg": "HS256", "typ": "JWT"});
        let good = jwt("channel-secret", &hs, &claims(t));
        assert_eq!(
            api().check_id_token(&good, "n-1", now).unwrap(),
            "U1234567890abcdef"
        );
        let check = |token: &str, nonce: &str| api().check_id_token(token, nonce, now).unwrap_err();
        assert_eq!(check(&good, "n-2"), IdTokenError::Claim("nonce"));
        assert_eq!(
            check(&jwt("forged", &hs, &claims(t)), "n-1"),
            IdTokenError::Signature
        );
        let none = jwt("channel-secret", &json!({"alg": "none"}), &claims(t));
        assert_eq!(check(&none, "n-1"), IdTokenError::Algorithm);
        let mut other = claims(t);
        other["aud"] = json!("1659999999");
        assert_eq!(
            check(&jwt("channel-secret", &hs, &other), "n-1"),
            IdTokenError::Claim("audience")
        );
        let mut old = claims(t - 7200);
        old["exp"] = json!(t - 3600);
        assert_eq!(
            check(&jwt("channel-secret", &hs, &old), "n-1"),
            IdTokenError::Expired
        );
        let mut iss = claims(t);
        iss["iss"] = json!("https://evil.example");
        assert_eq!(
            check(&jwt("channel-secret", &hs, &iss), "n-1"),
            IdTokenError::Claim("issuer")
        );
        assert_eq!(check("a.b", "n-1"), IdTokenError::Malformed);
        assert_eq!(check(&format!("{good}x"), "n-1"), IdTokenError::Signature);
    }

    #[test]
    fn the_login_asks_for_pkce_and_the_friendship() {
        let url = api().authorize_url(
            "https://shop.example/api/line/callback",
            "st",
            "no",
            "verifier",
        );
        let (base, query) = url.split_once('?').unwrap();
        assert_eq!(base, "https://access.line.me/oauth2/v2.1/authorize");
        let q: Vec<(String, String)> = serde_urlencoded::from_str(query).unwrap();
        let get = |k: &str| q.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        assert_eq!(
            get("code_challenge"),
            Some(pkce_challenge("verifier").as_str())
        );
        assert_eq!(get("code_challenge_method"), Some("S256"));
        assert_eq!(get("bot_prompt"), Some("aggressive"));
        assert_eq!(get("scope"), Some("openid profile"));
        assert_eq!(
            get("redirect_uri"),
            Some("https://shop.example/api/line/callback")
        );
        // RFC 7636's example.
        assert_eq!(
            pkce_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }

    #[test]
    fn a_card_is_a_bubble_with_https_pictures_only() {
        let card = Card {
            alt_text: "รูปของคุณพร้อมแล้ว".to_owned(),
            title: "Bangkok Marathon".to_owned(),
            lines: vec![
                "รูปของคุณพร้อมแล้ว".to_owned(),
                "Your photos are ready".to_owned(),
            ],
            image: Some("http://shop.example/t.jpg".to_owned()),
            button: Some((
                "ดูรูป / See photos".to_owned(),
                "https://shop.example/order/x".to_owned(),
            )),
            footnote: None,
        };
        let v = flex(&card);
        assert_eq!(v["type"], "flex");
        assert_eq!(v["contents"]["type"], "bubble");
        assert!(v["contents"].get("hero").is_none());
        assert_eq!(
            v["contents"]["footer"]["contents"][0]["action"]["uri"],
            "https://shop.example/order/x"
        );
        let https = Card {
            image: Some("https://shop.example/t.jpg".to_owned()),
            ..card
        };
        assert_eq!(
            flex(&https)["contents"]["hero"]["url"],
            "https://shop.example/t.jpg"
        );
    }
}
