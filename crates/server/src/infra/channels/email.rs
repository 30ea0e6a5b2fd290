//! E-mail through an SMTP server (or only logged when none is configured): the mail
//! channel. A mail only logged is never counted as sent; an address the transport cannot
//! take, or a mailbox name the server refuses for good (SMTP 553), is [`Undeliverable`].
//! Logs never carry a whole address.

use std::fmt;
use std::time::Duration;

use anyhow::Context as _;
use lettre::message::Mailbox;
use lettre::message::header::ContentType;
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use raceshot_domain::order::mask_email;

use super::{Channel, ChannelKind, Message, Sent, Undeliverable, one_line};

/// How the connection to the SMTP server is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpTls {
    /// Plain text: only for a relay on the same host or network.
    None,
    /// Plain connection upgraded with STARTTLS (usually port 587); refuses to go on without.
    StartTls,
    /// TLS from the first byte (usually port 465).
    Tls,
}

#[derive(Clone)]
pub struct SmtpSettings {
    pub host: String,
    pub port: u16,
    pub username: Option<String>,
    pub password: Option<String>,
    /// The sender, `shop@example.com` or `Shop <shop@example.com>`.
    pub from: String,
    pub tls: SmtpTls,
    /// For connecting and for each SMTP command.
    pub timeout: Duration,
}

impl fmt::Debug for SmtpSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SmtpSettings")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("username", &self.username)
            .field("password", &self.password.as_ref().map(|_| "<redacted>"))
            .field("from", &self.from)
            .field("tls", &self.tls)
            .field("timeout", &self.timeout)
            .finish()
    }
}

/// One plain-text e-mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingMail {
    pub to: String,
    pub subject: String,
    pub text: String,
}

/// The recipient as the transport takes it: the address as `Email::parse` keeps it (a
/// domain in another script in its ASCII form, as orders stored before may not have it),
/// then as lettre reads it.
fn recipient(to: &str) -> Result<Mailbox, Undeliverable> {
    raceshot_domain::Email::parse(to)
        .and_then(|email| email.as_str().parse::<Mailbox>().ok())
        .ok_or_else(|| Undeliverable(mask_email(to)))
}

/// Where e-mails go.
#[derive(Debug, Clone)]
pub enum Mailer {
    /// Nowhere: one log line per mail (for development and shops without mail).
    Log,
    Smtp(SmtpMailer),
}

/// An SMTP connection pool and the sender address.
#[derive(Clone)]
pub struct SmtpMailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl fmt::Debug for SmtpMailer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SmtpMailer")
            .field("from", &self.from.to_string())
            .finish_non_exhaustive()
    }
}

impl Mailer {
    /// A mailer for this server. Nothing is connected until the first mail; settings that
    /// cannot work (sender address, half the credentials, TLS name) fail here.
    ///
    /// Connections are pooled by a background task, so the mailer must be made (and
    /// dropped) inside the Tokio runtime.
    pub fn smtp(settings: &SmtpSettings) -> anyhow::Result<Mailer> {
        tokio::runtime::Handle::try_current()
            .context("the SMTP mailer must be made inside the Tokio runtime")?;
        let from: Mailbox = settings
            .from
            .parse()
            .with_context(|| format!("smtp sender {:?} is not a mail address", settings.from))?;
        let builder = match settings.tls {
            SmtpTls::None => {
                AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(settings.host.as_str())
            }
            SmtpTls::StartTls => {
                AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(&settings.host)
                    .with_context(|| format!("smtp host {}", settings.host))?
            }
            SmtpTls::Tls => AsyncSmtpTransport::<Tokio1Executor>::relay(&settings.host)
                .with_context(|| format!("smtp host {}", settings.host))?,
        };
        let mut builder = builder.port(settings.port).timeout(Some(settings.timeout));
        match (&settings.username, &settings.password) {
            (Some(username), Some(password)) => {
                builder = builder.credentials(Credentials::new(username.clone(), password.clone()));
            }
            (None, None) => {}
            _ => anyhow::bail!("smtp username and password must be set together"),
        }
        Ok(Mailer::Smtp(SmtpMailer {
            transport: builder.build(),
            from,
        }))
    }

    /// Whether mails reach their addressees (an SMTP server is configured).
    pub fn delivers(&self) -> bool {
        matches!(self, Mailer::Smtp(_))
    }

    /// Sends one mail; an error means the server did not accept it (the caller may retry).
    pub async fn send(&self, mail: &OutgoingMail) -> anyhow::Result<Sent> {
        match self {
            Mailer::Log => {
                tracing::info!(
                    to = %mask_email(&mail.to),
                    subject = %mail.subject,
                    "mail logged, not sent (no mail server configured)"
                );
                Ok(Sent::Logged)
            }
            Mailer::Smtp(smtp) => smtp.send(mail).await.map(|()| Sent::Delivered),
        }
    }
}

#[async_trait::async_trait]
impl Channel for Mailer {
    fn kind(&self) -> ChannelKind {
        ChannelKind::Email
    }

    fn delivers(&self) -> bool {
        Mailer::delivers(self)
    }

    async fn send(&self, to: &str, message: &Message, _retry_key: &str) -> anyhow::Result<Sent> {
        let mail = OutgoingMail {
            to: to.to_owned(),
            subject: message.subject.clone(),
            text: message.text.clone(),
        };
        Mailer::send(self, &mail).await
    }
}

impl SmtpMailer {
    async fn send(&self, mail: &OutgoingMail) -> anyhow::Result<()> {
        let masked = mask_email(&mail.to);
        let to = recipient(&mail.to)?;
        let message = lettre::Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(one_line(&mail.subject))
            .message_id(None)
            .header(ContentType::TEXT_PLAIN)
            .body(mail.text.clone())
            .context("building the mail")?;
        if let Err(e) = self.transport.send(message).await {
            // 553: the server will never take this mailbox name.
            if e.is_permanent() && e.status().map(u16::from) == Some(553) {
                // Its text may quote the whole address, which logs never carry.
                return Err(anyhow::Error::new(Undeliverable(masked))
                    .context("the mail server refused the mailbox name (SMTP 553)"));
            }
            return Err(anyhow::Error::new(e).context(format!("sending mail to {masked}")));
        }
        tracing::info!(to = %masked, subject = %mail.subject, "mail sent");
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::infra::channels::is_undeliverable;
    use proptest::prelude::*;

    proptest! {
        /// Whatever address an order may be stored with is one the SMTP transport takes
        /// without SMTPUTF8: lettre reads it, and it is ASCII.
        #[test]
        fn every_address_orders_accept_is_one_lettre_takes(
            local in "[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~ก-๙ü\"(),:;<>@\\[\\] \u{0}\u{7}\u{85}\u{200B}]{1,12}",
            labels in prop::collection::vec("[a-zA-Z0-9ก-๙üÜ_\u{0E31}\u{2603}-]{1,12}", 1..4),
            tld in "[a-zA-Z0-9ก-๙-]{1,6}",
        ) {
            let raw = format!("{local}@{}.{tld}", labels.join("."));
            if let Some(email) = raceshot_domain::Email::parse(&raw) {
                prop_assert!(email.as_str().is_ascii(), "{:?}", email);
                prop_assert!(email.as_str().parse::<lettre::Address>().is_ok(), "{:?}", email);
                prop_assert!(recipient(email.as_str()).is_ok());
            }
        }
    }

    #[test]
    fn addresses_lettre_or_smtp_cannot_take_are_undeliverable() {
        for bad in [
            "นักวิ่ง@example.com",
            "run\u{7}ner@example.com",
            "a@\u{0E31}abc.com",
        ] {
            let refused = recipient(bad).map(|_| ()).map_err(anyhow::Error::new);
            assert!(refused.as_ref().is_err_and(is_undeliverable), "{bad:?}");
        }
        let thai = recipient("runner@ตัวอย่าง.ไทย").map(|m| m.email.to_string());
        assert_eq!(
            thai.ok().as_deref(),
            Some("runner@xn--72c1a1bt4awk9o.xn--o3cw4h")
        );
        let other = anyhow::anyhow!("connection refused").context("sending mail");
        assert!(!is_undeliverable(&other));
    }

    #[tokio::test]
    async fn settings_hide_the_password() {
        let settings = SmtpSettings {
            host: "smtp.example.com".to_owned(),
            port: 587,
            username: Some("shop".to_owned()),
            password: Some("hunter2".to_owned()),
            from: "Shop <shop@example.com>".to_owned(),
            tls: SmtpTls::StartTls,
            timeout: Duration::from_secs(10),
        };
        let shown = format!("{settings:?}");
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(shown.contains("<redacted>"));
        assert!(Mailer::smtp(&settings).is_ok());
        let half = SmtpSettings {
            password: None,
            ..settings.clone()
        };
        assert!(Mailer::smtp(&half).is_err());
        let bad_from = SmtpSettings {
            from: "not an address".to_owned(),
            ..settings
        };
        assert!(Mailer::smtp(&bad_from).is_err());
    }

    #[tokio::test]
    async fn the_log_mailer_succeeds_without_sending() {
        let mail = OutgoingMail {
            to: "a@example.com".to_owned(),
            subject: "s".to_owned(),
            text: "t".to_owned(),
        };
        assert_eq!(Mailer::Log.send(&mail).await.ok(), Some(Sent::Logged));
    }
}
