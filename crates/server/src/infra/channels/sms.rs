//! The SMS channel: text messages through a Thai SMS provider's HTTP API: ThaiBulkSMS (`POST {api_base}/sms`,
//! HTTP Basic with the account's API key and secret, a form of `msisdn`, `message` and
//! the registered `sender`). A message counts as sent only when the provider answers
//! success and lists the number among those it took; a number it lists as bad, or any
//! error answer, is an error naming the provider's code, never the message (it may hold a
//! code or an order link) nor the whole number. A number the provider lists as bad is
//! [`Undeliverable`]. Without a provider set up, messages are only logged.

use std::fmt;
use std::time::Duration;

use anyhow::Context as _;
use raceshot_domain::order::mask_mobile;
use serde::Deserialize;

use super::{Channel, ChannelKind, Message, Sent, Undeliverable};

/// ThaiBulkSMS's API.
pub const THAIBULKSMS_API_BASE: &str = "https://api-v2.thaibulksms.com";

#[derive(Clone)]
pub struct SmsSettings {
    /// The provider's API, without a trailing `/`.
    pub api_base: String,
    pub key: String,
    pub secret: String,
    /// The sender name registered with the provider; `None`: the account's default.
    pub sender: Option<String>,
    pub timeout: Duration,
}

impl fmt::Debug for SmsSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SmsSettings")
            .field("api_base", &self.api_base)
            .field("key", &"<redacted>")
            .field("secret", &"<redacted>")
            .field("sender", &self.sender)
            .field("timeout", &self.timeout)
            .finish()
    }
}

/// A ThaiBulkSMS account.
#[derive(Debug, Clone)]
pub struct ThaiBulkSms {
    http: reqwest::Client,
    settings: SmsSettings,
}

/// ThaiBulkSMS's answer to a send.
#[derive(Debug, Deserialize)]
struct SendAnswer {
    #[serde(default)]
    phone_number_list: Vec<serde_json::Value>,
    #[serde(default)]
    bad_phone_number_list: Vec<serde_json::Value>,
}

/// ThaiBulkSMS's error answer: `{"error": {"code": …, "name": …, "description": …}}`.
#[derive(Debug, Deserialize)]
struct ErrorAnswer {
    error: ProviderError,
}

#[derive(Debug, Deserialize)]
struct ProviderError {
    #[serde(default)]
    code: serde_json::Value,
    #[serde(default)]
    name: String,
}

impl ThaiBulkSms {
    pub fn new(settings: SmsSettings) -> anyhow::Result<Self> {
        let http = reqwest::Client::builder()
            .timeout(settings.timeout)
            .build()
            .context("building the SMS provider's HTTP client")?;
        Ok(Self { http, settings })
    }

    /// Sends one message to a Thai mobile number (`0812345678`, as orders keep it).
    pub async fn send(&self, mobile: &str, text: &str) -> anyhow::Result<()> {
        let masked = mask_mobile(mobile);
        let mut form = vec![("msisdn", mobile), ("message", text)];
        if let Some(sender) = &self.settings.sender {
            form.push(("sender", sender));
        }
        let body = serde_urlencoded::to_string(&form).context("encoding the SMS form")?;
        let resp = self
            .http
            .post(format!("{}/sms", self.settings.api_base))
            .basic_auth(&self.settings.key, Some(&self.settings.secret))
            .header(reqwest::header::ACCEPT, "application/json")
            .header(
                reqwest::header::CONTENT_TYPE,
                "application/x-www-form-urlencoded",
            )
            .body(body)
            .send()
            .await
            .with_context(|| format!("sending an SMS to {masked}: no answer from the provider"))?;
        let status = resp.status();
        let bytes = resp
            .bytes()
            .await
            .with_context(|| format!("sending an SMS to {masked}: the answer broke off"))?;
        if !status.is_success() {
            let why = serde_json::from_slice::<ErrorAnswer>(&bytes)
                .map(|e| format!("{} {}", e.error.code, e.error.name))
                .unwrap_or_else(|_| "an unreadable answer".to_owned());
            anyhow::bail!("the SMS provider refused a message to {masked}: HTTP {status}, {why}");
        }
        let answer: SendAnswer = serde_json::from_slice(&bytes)
            .with_context(|| format!("sending an SMS to {masked}: an unreadable answer"))?;
        if answer.phone_number_list.is_empty() || !answer.bad_phone_number_list.is_empty() {
            return Err(anyhow::Error::new(Undeliverable(masked))
                .context("the SMS provider did not take the number"));
        }
        tracing::info!(to = %masked, "SMS sent");
        Ok(())
    }
}

/// Where text messages go.
#[derive(Debug, Clone)]
pub enum SmsSender {
    /// Nowhere: one log line per message, with the number masked and without the text
    /// (it holds the order link).
    Log,
    /// ThaiBulkSMS's HTTP API.
    ThaiBulkSms(ThaiBulkSms),
}

#[async_trait::async_trait]
impl Channel for SmsSender {
    fn kind(&self) -> ChannelKind {
        ChannelKind::Sms
    }

    fn delivers(&self) -> bool {
        match self {
            SmsSender::Log => false,
            SmsSender::ThaiBulkSms(_) => true,
        }
    }

    async fn send(
        &self,
        mobile: &str,
        message: &Message,
        _retry_key: &str,
    ) -> anyhow::Result<Sent> {
        let text = &message.short;
        match self {
            SmsSender::Log => {
                tracing::info!(
                    to = %mask_mobile(mobile),
                    chars = text.chars().count(),
                    "SMS logged, not sent (no SMS gateway configured)"
                );
                Ok(Sent::Logged)
            }
            SmsSender::ThaiBulkSms(provider) => {
                provider.send(mobile, text).await?;
                Ok(Sent::Delivered)
            }
        }
    }
}
