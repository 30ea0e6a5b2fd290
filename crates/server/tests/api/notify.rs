//! Order-ready mail through a real SMTP conversation with the test sink: envelope, headers
//! and the Thai and English text as a mail client decodes them; refusals reach the caller.

use std::time::Duration;

use raceshot_domain::OrderUuid;
use raceshot_server::infra::channels::email::{Mailer, OutgoingMail, SmtpSettings, SmtpTls};
use raceshot_server::services::messages::OrderReady;
use raceshot_server::services::messages::templates::order_ready;

use crate::smtp_sink::{SmtpSink, decode_header, parse};

const WAIT: Duration = Duration::from_secs(10);

fn settings(port: u16) -> SmtpSettings {
    SmtpSettings {
        host: "127.0.0.1".to_owned(),
        port,
        username: None,
        password: None,
        from: "Raceshot <shop@raceshot.test>".to_owned(),
        tls: SmtpTls::None,
        timeout: Duration::from_secs(5),
    }
}

static ORDER_UUID: std::sync::LazyLock<OrderUuid> =
    std::sync::LazyLock::new(|| OrderUuid::parse("5f0c1a2e-7b1d-4c55-9a57-2d5a3e0b9c11").unwrap());

fn order() -> OrderReady<'static> {
    OrderReady {
        order_uuid: &ORDER_UUID,
        order_url: "https://shop.raceshot.test/order/5f0c1a2e-7b1d-4c55-9a57-2d5a3e0b9c11?k=Zx9",
        event_title: "วิ่งด้วยกัน Bangkok 2026",
        photo_count: 3,
        free: false,
        kept_days: 35,
        image: None,
    }
}

/// The order-ready message as the mail channel sends it.
fn order_ready_mail(to: &str, o: &OrderReady) -> OutgoingMail {
    let message = order_ready(o);
    OutgoingMail {
        to: to.to_owned(),
        subject: message.subject,
        text: message.text,
    }
}

#[tokio::test]
async fn order_ready_mail_reaches_the_mail_server() {
    let sink = SmtpSink::start().await;
    let mailer = Mailer::smtp(&settings(sink.port())).unwrap();
    let mail = order_ready_mail("runner@example.com", &order());
    mailer.send(&mail).await.unwrap();

    let received = sink.wait_for(1, WAIT).await;
    assert_eq!(received.len(), 1);
    let got = &received[0];
    assert_eq!(got.from, "shop@raceshot.test");
    assert_eq!(got.to, ["runner@example.com"]);

    let parsed = parse(&got.data);
    assert!(
        parsed.header("From").contains("<shop@raceshot.test>"),
        "{}",
        parsed.header("From")
    );
    assert_eq!(parsed.header("To"), "runner@example.com");
    assert_eq!(
        decode_header(parsed.header("Subject")),
        "รูปของคุณพร้อมดาวน์โหลดแล้ว / Your photos are ready — วิ่งด้วยกัน Bangkok 2026"
    );
    assert!(
        parsed
            .header("Content-Type")
            .eq_ignore_ascii_case("text/plain; charset=utf-8"),
        "{}",
        parsed.header("Content-Type")
    );
    parsed.header("Date");
    parsed.header("Message-ID");

    let body = parsed.body.replace("\r\n", "\n");
    assert_eq!(body.trim_end(), mail.text.trim_end());
    assert!(body.contains("รูปจากงาน วิ่งด้วยกัน Bangkok 2026 จำนวน 3 รูป พร้อมให้ดาวน์โหลดแล้ว"));
    assert!(body.contains("Your 3 photos from วิ่งด้วยกัน Bangkok 2026 are ready to download."));
    assert!(body.contains(order().order_url));
    assert!(body.contains("35"));
}

#[tokio::test]
async fn lines_starting_with_a_dot_arrive_intact() {
    let sink = SmtpSink::start().await;
    let mailer = Mailer::smtp(&settings(sink.port())).unwrap();
    let text = "first line\n.second line starts with a dot\n.\nlast line\n";
    let mail = OutgoingMail {
        to: "runner@example.com".to_owned(),
        subject: "plain".to_owned(),
        text: text.to_owned(),
    };
    mailer.send(&mail).await.unwrap();
    let received = sink.wait_for(1, WAIT).await;
    let parsed = parse(&received[0].data);
    // The transport may end the content with one more line break of its own.
    assert_eq!(
        parsed.body.replace("\r\n", "\n").trim_end(),
        text.trim_end()
    );
    assert_eq!(parsed.header("Subject"), "plain");
}

#[tokio::test]
async fn a_refused_mail_is_an_error_and_the_next_try_gets_through() {
    let sink = SmtpSink::start().await;
    let mailer = Mailer::smtp(&settings(sink.port())).unwrap();
    let mail = order_ready_mail("runner@example.com", &order());

    sink.fail_next(451);
    assert!(
        mailer.send(&mail).await.is_err(),
        "a 451 must fail the send"
    );
    sink.fail_next(554);
    assert!(
        mailer.send(&mail).await.is_err(),
        "a 554 must fail the send"
    );
    assert!(sink.messages().is_empty());

    mailer.send(&mail).await.unwrap();
    let received = sink.wait_for(1, WAIT).await;
    assert_eq!(received.len(), 1);
    assert_eq!(received[0].to, ["runner@example.com"]);
}

#[tokio::test]
async fn no_mail_server_is_an_error() {
    // A port that was free a moment ago, with nothing listening on it now.
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let mailer = Mailer::smtp(&settings(port)).unwrap();
    let mail = order_ready_mail("runner@example.com", &order());
    assert!(mailer.send(&mail).await.is_err());
}
