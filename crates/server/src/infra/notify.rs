//! Telling a customer that an order is ready to download, or the code that opens an order
//! they found: an e-mail (through an SMTP server, or only logged when none is configured)
//! and an SMS (through the provider of `sms.provider`, `infra/sms.rs`, or only logged
//! when none is chosen). A message only logged is never counted as sent. The texts are
//! Thai first, then English.
//!
//! Logs never carry a whole address, number or order link: the link opens the order.

use std::fmt;
use std::time::Duration;

use anyhow::Context as _;
use lettre::message::Mailbox;
use lettre::message::header::ContentType;
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use raceshot_domain::OrderUuid;
use raceshot_domain::order::{mask_email, mask_mobile};

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

/// What became of a message: a provider (an SMTP server, an SMS gateway) accepted it, or
/// it was only written to the log because none is configured. Only the first counts as
/// sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sent {
    Delivered,
    Logged,
}

/// A mail that can never be delivered, however often it is sent again: the address is
/// not one the mail transport takes, or the mail server refused the mailbox's name
/// (SMTP 553). Carries the masked address. Jobs give up on it at once.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0} cannot receive mail")]
pub struct Undeliverable(pub String);

/// Whether sending failed for good (an [`Undeliverable`] address) rather than for now.
pub fn is_undeliverable(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| cause.is::<Undeliverable>())
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

impl SmtpMailer {
    async fn send(&self, mail: &OutgoingMail) -> anyhow::Result<()> {
        let masked = mask_email(&mail.to);
        let to = recipient(&mail.to)?;
        let message = Message::builder()
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

/// Where text messages go.
#[derive(Debug, Clone)]
pub enum SmsSender {
    /// Nowhere: one log line per message, with the number masked and without the text
    /// (it holds the order link).
    Log,
    /// ThaiBulkSMS's HTTP API.
    ThaiBulkSms(crate::infra::sms::ThaiBulkSms),
}

impl SmsSender {
    /// Whether text messages reach their addressees (an SMS gateway is configured).
    pub fn delivers(&self) -> bool {
        match self {
            SmsSender::Log => false,
            SmsSender::ThaiBulkSms(_) => true,
        }
    }

    /// Sends one text message to a mobile number.
    pub async fn send(&self, mobile: &str, text: &str) -> anyhow::Result<Sent> {
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

/// What the order-ready messages say.
#[derive(Debug, Clone, Copy)]
pub struct OrderReady<'a> {
    pub order_uuid: &'a OrderUuid,
    /// The order's page, where its files are downloaded.
    pub order_url: &'a str,
    pub event_title: &'a str,
    pub photo_count: usize,
    /// Nothing was paid (free photos).
    pub free: bool,
    /// How many days after the event the files are kept (`orders.retention_days`).
    pub kept_days: u32,
}

/// The e-mail for an order whose files can be downloaded.
pub fn order_ready_mail(to: &str, o: &OrderReady) -> OutgoingMail {
    let title = one_line(o.event_title);
    let n = o.photo_count;
    let (thai_lead, english_lead) = if o.free {
        (
            format!("รูปฟรีจากงาน {title} จำนวน {n} รูป พร้อมให้ดาวน์โหลดแล้ว"),
            format!(
                "Your {} from {title} {} ready to download.",
                english_photos(n, "free "),
                if n == 1 { "is" } else { "are" }
            ),
        )
    } else {
        (
            format!("ขอบคุณสำหรับคำสั่งซื้อ\nรูปจากงาน {title} จำนวน {n} รูป พร้อมให้ดาวน์โหลดแล้ว"),
            format!(
                "Thank you for your order.\nYour {} from {title} {} ready to download.",
                english_photos(n, ""),
                if n == 1 { "is" } else { "are" }
            ),
        )
    };
    let (url, uuid, days) = (o.order_url, o.order_uuid, o.kept_days);
    let them = if n == 1 { "it" } else { "them" };
    let text = format!(
        "{thai_lead}\n\
         ดาวน์โหลดได้ที่:\n\
         {url}\n\
         \n\
         ระบบจะเก็บไฟล์ไว้ประมาณ {days} วันหลังวันจัดงาน กรุณาดาวน์โหลดเก็บไว้ก่อนครบกำหนด\n\
         หมายเลขคำสั่งซื้อ: {uuid}\n\
         \n\
         --\n\
         \n\
         {english_lead}\n\
         Download {them} here:\n\
         {url}\n\
         \n\
         Files are kept for about {days} days after the event; please download {them} before then.\n\
         Order number: {uuid}\n"
    );
    OutgoingMail {
        to: to.to_owned(),
        subject: format!("รูปของคุณพร้อมดาวน์โหลดแล้ว / Your photos are ready — {title}"),
        text,
    }
}

/// The text message for the same news: one Thai line and the link.
pub fn order_ready_sms(o: &OrderReady) -> String {
    format!("รูปของคุณพร้อมดาวน์โหลดแล้ว\n{}", o.order_url)
}

/// The answer to a request to hide one's photos.
#[derive(Debug, Clone, Copy)]
pub struct PrivacyDecision<'a> {
    pub event_title: &'a str,
    pub approved: bool,
    /// Photos hidden now (approved only).
    pub hidden: usize,
}

/// The e-mail telling a requester of the decision, Thai then English.
pub fn privacy_decision_mail(to: &str, d: &PrivacyDecision) -> OutgoingMail {
    let title = one_line(d.event_title);
    let (thai, english) = if d.approved {
        (
            format!(
                "เราได้ซ่อนรูปที่มีใบหน้าของคุณจากงาน {title} แล้ว ({} รูป) รวมถึงรูปที่จะอัปโหลดภายหลัง                  รูปเหล่านี้จะไม่ปรากฏในการค้นหาอีก",
                d.hidden
            ),
            format!(
                "We have hidden the photos of {title} that show your face ({}), and will hide any                  added later. They no longer appear in any search.",
                english_photos(d.hidden, "")
            ),
        )
    } else {
        (
            format!(
                "เราไม่สามารถดำเนินการตามคำขอซ่อนรูปจากงาน {title} ได้ หากมีข้อสงสัยกรุณาติดต่อเรา                  ข้อมูลใบหน้าจากคำขอนี้ถูกลบแล้ว"
            ),
            format!(
                "We could not act on your request to hide your photos of {title}; please contact                  us if you have questions. The face data of the request has been deleted."
            ),
        )
    };
    OutgoingMail {
        to: to.to_owned(),
        subject: format!("คำขอซ่อนรูปของคุณ / Your request to hide your photos — {title}"),
        text: format!(
            "{thai}

--

{english}
"
        ),
    }
}

/// The text message for the same news: one Thai line.
pub fn privacy_decision_sms(d: &PrivacyDecision) -> String {
    let title = one_line(d.event_title);
    if d.approved {
        format!("ซ่อนรูปของคุณจากงาน {title} แล้ว ({} รูป)", d.hidden)
    } else {
        format!("ไม่สามารถซ่อนรูปจากงาน {title} ตามคำขอได้ ข้อมูลใบหน้าถูกลบแล้ว")
    }
}

fn english_photos(n: usize, adjective: &str) -> String {
    if n == 1 {
        format!("1 {adjective}photo")
    } else {
        format!("{n} {adjective}photos")
    }
}

/// Text for a header or a one-line slot: control characters (line breaks) become spaces.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_owned()
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
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

    static UUID: std::sync::LazyLock<OrderUuid> = std::sync::LazyLock::new(|| {
        OrderUuid::parse("5f0c1a2e-0000-4000-8000-000000000001").unwrap()
    });

    fn order(free: bool, photo_count: usize) -> OrderReady<'static> {
        OrderReady {
            order_uuid: &UUID,
            order_url: "https://shop.example/order/5f0c1a2e?k=secret",
            event_title: "Bangkok Marathon 2026",
            photo_count,
            free,
            kept_days: 35,
        }
    }

    #[test]
    fn the_mail_is_thai_then_english() {
        let mail = order_ready_mail("runner@example.com", &order(false, 12));
        assert_eq!(mail.to, "runner@example.com");
        assert_eq!(
            mail.subject,
            "รูปของคุณพร้อมดาวน์โหลดแล้ว / Your photos are ready — Bangkok Marathon 2026"
        );
        let thai = mail
            .text
            .find("รูปจากงาน Bangkok Marathon 2026 จำนวน 12 รูป")
            .unwrap();
        let english = mail
            .text
            .find("Your 12 photos from Bangkok Marathon 2026 are ready")
            .unwrap();
        assert!(thai < english);
        assert_eq!(
            mail.text
                .matches("https://shop.example/order/5f0c1a2e?k=secret")
                .count(),
            2
        );
        assert!(mail.text.contains("ประมาณ 35 วันหลังวันจัดงาน"));
        assert!(mail.text.contains("about 35 days after the event"));
        assert!(mail.text.contains("5f0c1a2e-0000-4000-8000-000000000001"));
        assert!(mail.text.contains("Thank you for your order."));
    }

    #[test]
    fn free_orders_and_single_photos_read_right() {
        let mail = order_ready_mail("a@example.com", &order(true, 1));
        assert!(mail.text.contains("รูปฟรีจากงาน"));
        assert!(
            mail.text
                .contains("Your 1 free photo from Bangkok Marathon 2026 is ready")
        );
        assert!(mail.text.contains("Download it here:"));
        assert!(!mail.text.contains("Thank you"));
    }

    #[test]
    fn titles_cannot_break_the_subject() {
        let o = OrderReady {
            event_title: "Run\r\nBcc: victim@example.com",
            ..order(false, 2)
        };
        let mail = order_ready_mail("a@example.com", &o);
        assert!(!mail.subject.contains('\n') && !mail.subject.contains('\r'));
    }

    #[test]
    fn the_sms_is_short() {
        let sms = order_ready_sms(&order(false, 3));
        assert_eq!(
            sms,
            "รูปของคุณพร้อมดาวน์โหลดแล้ว\nhttps://shop.example/order/5f0c1a2e?k=secret"
        );
    }

    #[test]
    fn logs_mask_addresses_and_numbers() {
        assert_eq!(mask_email("somchai@example.com"), "s***@example.com");
        assert_eq!(mask_email("nobody"), "***");
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
    async fn the_log_senders_succeed() {
        let mail = order_ready_mail("a@example.com", &order(false, 1));
        assert_eq!(Mailer::Log.send(&mail).await.ok(), Some(Sent::Logged));
        assert!(SmsSender::Log.send("0812345678", "hi").await.is_ok());
    }
}
