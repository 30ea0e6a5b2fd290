//! The channels a message reaches a runner through, behind one interface ([`Channel`], as
//! the payment gateways are behind `Gateway`): e-mail (SMTP), SMS (a Thai provider's HTTP
//! API) and LINE (the Messaging API's push). Each takes the same rendered [`Message`] and
//! uses its part of it: the mail its subject and long text, SMS its short text, LINE its
//! card (a Flex message). A channel with no provider set up only writes a log line, and
//! that never counts as sent. What is sent when, to whom and how often is the rules'
//! business (`services::messages`), not this module's.

pub mod email;
pub mod line;
pub mod sms;

use async_trait::async_trait;

/// A channel, as stored with each message and shown in metrics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChannelKind {
    Email,
    Sms,
    Line,
}

impl ChannelKind {
    pub const ALL: [ChannelKind; 3] = [ChannelKind::Email, ChannelKind::Sms, ChannelKind::Line];

    pub fn as_str(self) -> &'static str {
        match self {
            ChannelKind::Email => "email",
            ChannelKind::Sms => "sms",
            ChannelKind::Line => "line",
        }
    }
}

/// One message, rendered for every channel (Thai first, then English).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// The mail's subject.
    pub subject: String,
    /// The mail's text.
    pub text: String,
    /// The text message: a line or two and the link, short because SMS are paid per part.
    pub short: String,
    /// LINE's card.
    pub card: Card,
}

/// A message as a card with a button (LINE's Flex bubble).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Card {
    /// What a phone's notification shows (LINE's `altText`, at most 400 characters).
    pub alt_text: String,
    /// The event's name.
    pub title: String,
    /// The news, Thai then English.
    pub lines: Vec<String>,
    /// A picture above (an `https` address), when there is one.
    pub image: Option<String>,
    /// The button: its label and where it leads.
    pub button: Option<(String, String)>,
    /// A small link below the button (to stop alerts), when there is one.
    pub footnote: Option<(String, String)>,
}

/// What became of a message: a provider accepted it, or it was only written to the log
/// because none is configured. Only the first counts as sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sent {
    Delivered,
    Logged,
}

/// A recipient the channel can never reach, however often it is tried again: an address
/// the mail transport cannot take or a server refuses for good, a number the SMS provider
/// refuses, a LINE account the Messaging API does not know. Carries the masked
/// recipient. Jobs give up on it at once.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0} cannot receive this message")]
pub struct Undeliverable(pub String);

/// Whether sending failed for good (an [`Undeliverable`] recipient) rather than for now.
pub fn is_undeliverable(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| cause.is::<Undeliverable>())
}

/// A channel: how a message reaches someone.
#[async_trait]
pub trait Channel: Send + Sync {
    fn kind(&self) -> ChannelKind;

    /// Whether messages reach their addressees (a provider is set up).
    fn delivers(&self) -> bool;

    /// Sends `message` to `to` (an e-mail address, a mobile number, a LINE user id). An
    /// error means the provider did not accept it; the caller may try again with the same
    /// `retry_key`, which a provider that deduplicates takes to mean the same message.
    async fn send(&self, to: &str, message: &Message, retry_key: &str) -> anyhow::Result<Sent>;
}

/// Text for a header or a one-line slot: control characters (line breaks) become spaces.
pub fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_owned()
}
