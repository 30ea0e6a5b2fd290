//! What each kind of message says, once, in Thai and then English: the mail's subject and
//! text, the text message (short: SMS are paid per part), and LINE's card. Titles and
//! names from the shop's data are put on one line where a line break could do harm.

use raceshot_domain::OrderUuid;

use crate::infra::channels::{Card, Message, one_line};

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
    /// A picture of the event, for LINE's card.
    pub image: Option<&'a str>,
}

/// An order whose files can be downloaded.
pub fn order_ready(o: &OrderReady) -> Message {
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
    let english_count = english_photos(n, "");
    Message {
        subject: format!("รูปของคุณพร้อมดาวน์โหลดแล้ว / Your photos are ready — {title}"),
        text,
        short: format!("รูปของคุณพร้อมดาวน์โหลดแล้ว / Your photos are ready\n{url}"),
        card: Card {
            alt_text: format!("รูปของคุณพร้อมดาวน์โหลดแล้ว / Your photos are ready — {title}"),
            title,
            lines: vec![
                format!("รูปของคุณ {n} รูปพร้อมดาวน์โหลดแล้ว"),
                format!("Your {english_count} ready to download."),
            ],
            image: o.image.map(str::to_owned),
            button: Some(("ดาวน์โหลด / Download".to_owned(), url.to_owned())),
            footnote: None,
        },
    }
}

/// An order just placed, waiting for its payment: where it is.
#[derive(Debug, Clone, Copy)]
pub struct OrderPlaced<'a> {
    pub order_uuid: &'a OrderUuid,
    pub order_url: &'a str,
    pub event_title: &'a str,
    pub photo_count: usize,
    /// A picture of the event, for LINE's card.
    pub image: Option<&'a str>,
}

/// The link of an order, sent when it is placed (and when a runner links it to LINE): the
/// way back to it from another device, or after the page is closed.
pub fn order_link(o: &OrderPlaced) -> Message {
    let title = one_line(o.event_title);
    let (url, uuid, n) = (o.order_url, o.order_uuid, o.photo_count);
    let english_count = english_photos(n, "");
    Message {
        subject: format!("คำสั่งซื้อของคุณ / Your order — {title}"),
        text: format!(
            "คำสั่งซื้อรูปจากงาน {title} จำนวน {n} รูป\n\
 ชำระเงินและดาวน์โหลดได้ที่:\n\
 {url}\n\
 หมายเลขคำสั่งซื้อ: {uuid}\n\
 \n\
 --\n\
 \n\
 Your order of {english_count} from {title}.\n\
 Pay for it and download it here:\n\
 {url}\n\
 Order number: {uuid}\n"
        ),
        short: format!("คำสั่งซื้อของคุณ / Your order\n{url}"),
        card: Card {
            alt_text: format!("คำสั่งซื้อของคุณ / Your order — {title}"),
            title,
            lines: vec![
                format!("คำสั่งซื้อรูป {n} รูป เราจะแจ้งที่นี่เมื่อรูปพร้อมดาวน์โหลด"),
                format!("Your order of {english_count}: we will tell you here when it is ready."),
            ],
            image: o.image.map(str::to_owned),
            button: Some(("ดูคำสั่งซื้อ / See the order".to_owned(), url.to_owned())),
            footnote: None,
        },
    }
}

/// The one-time code that opens an order found through find-order.
pub fn order_code(code: &str, minutes: u64) -> Message {
    one_time_code(
        "รหัสเปิดคำสั่งซื้อ / Your order code",
        &format!("รหัสเปิดคำสั่งซื้อของคุณคือ {code} ใช้ได้ {minutes} นาที หากคุณไม่ได้ขอรหัสนี้ ไม่ต้องทำอะไร"),
        &format!(
            "Your code to open your order is {code}. It works for {minutes} minutes. \
             If you did not ask for it, do nothing."
        ),
        code,
    )
}

/// A one-time code's message: `title` (Thai / English) and the two lines saying it.
fn one_time_code(title: &str, thai: &str, english: &str, code: &str) -> Message {
    let text = format!("{thai}\n{english}\n");
    Message {
        subject: title.to_owned(),
        short: text.clone(),
        card: Card {
            alt_text: format!("{title}: {code}"),
            title: title.to_owned(),
            lines: text.lines().map(str::to_owned).collect(),
            image: None,
            button: None,
            footnote: None,
        },
        text,
    }
}

/// The answer to a request to hide one's photos.
#[derive(Debug, Clone, Copy)]
pub struct PrivacyDecision<'a> {
    pub event_title: &'a str,
    pub approved: bool,
    /// Photos hidden now (approved only).
    pub hidden: usize,
}

/// The decision on a request to hide one's photos.
pub fn privacy_decision(d: &PrivacyDecision) -> Message {
    let title = one_line(d.event_title);
    let (thai, english) = if d.approved {
        (
            format!(
                "เราได้ซ่อนรูปที่มีใบหน้าของคุณจากงาน {title} แล้ว ({} รูป) รวมถึงรูปที่จะอัปโหลดภายหลัง รูปเหล่านี้จะไม่ปรากฏในการค้นหาอีก",
                d.hidden
            ),
            format!(
                "We have hidden the photos of {title} that show your face ({}), and will hide any added later. They no longer appear in any search.",
                english_photos(d.hidden, "")
            ),
        )
    } else {
        (
            format!(
                "เราไม่สามารถดำเนินการตามคำขอซ่อนรูปจากงาน {title} ได้ หากมีข้อสงสัยกรุณาติดต่อเรา ข้อมูลใบหน้าจากคำขอนี้ถูกลบแล้ว"
            ),
            format!(
                "We could not act on your request to hide your photos of {title}; please contact us if you have questions. The face data of the request has been deleted."
            ),
        )
    };
    let short = if d.approved {
        format!(
            "ซ่อนรูปของคุณจากงาน {title} แล้ว ({} รูป) / Your photos are hidden",
            d.hidden
        )
    } else {
        format!(
            "ไม่สามารถซ่อนรูปจากงาน {title} ตามคำขอได้ ข้อมูลใบหน้าถูกลบแล้ว / Your request was declined"
        )
    };
    let subject = format!("คำขอซ่อนรูปของคุณ / Your request to hide your photos — {title}");
    Message {
        card: Card {
            alt_text: subject.clone(),
            title: title.clone(),
            lines: vec![thai.clone(), english.clone()],
            image: None,
            button: None,
            footnote: None,
        },
        subject,
        text: format!("{thai}\n\n--\n\n{english}\n"),
        short,
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

/// A message an operator sends to try a channel from the console.
pub fn trial(shop_url: &str) -> Message {
    let thai = "ข้อความทดสอบจากร้าน: ช่องทางนี้ใช้งานได้";
    let english = "A test message from the shop: this channel works.";
    Message {
        subject: "ข้อความทดสอบ / Test message".to_owned(),
        text: format!("{thai}\n{english}\n{shop_url}\n"),
        short: format!("{thai} / {english}"),
        card: Card {
            alt_text: format!("{thai} / {english}"),
            title: "ข้อความทดสอบ / Test message".to_owned(),
            lines: vec![thai.to_owned(), english.to_owned()],
            image: None,
            button: Some(("เปิดร้าน / Open the shop".to_owned(), shop_url.to_owned())),
            footnote: None,
        },
    }
}

/// The one-time code that confirms an alert's mobile number.
pub fn alert_code(code: &str, minutes: u64) -> Message {
    one_time_code(
        "รหัสยืนยันการแจ้งเตือน / Your alert code",
        &format!("รหัสยืนยันการแจ้งเตือนรูปใหม่ของคุณคือ {code} ใช้ได้ {minutes} นาที หากคุณไม่ได้ขอ ไม่ต้องทำอะไร"),
        &format!(
            "Your code to turn on new-photo alerts is {code}. It works for {minutes} minutes. \
             If you did not ask for it, do nothing."
        ),
        code,
    )
}

/// What a new-photos alert says.
#[derive(Debug, Clone, Copy)]
pub struct NewPhotos<'a> {
    pub event_title: &'a str,
    /// New photos of the runner since the last message.
    pub count: usize,
    /// The page showing them (a signed link, working while the alert does).
    pub view_url: &'a str,
    /// The page that stops the alerts in one tap.
    pub stop_url: &'a str,
    /// The first new photo's thumbnail, for LINE's card.
    pub image: Option<&'a str>,
}

/// New photos of the runner were found.
pub fn new_photos(n: &NewPhotos) -> Message {
    let title = one_line(n.event_title);
    let (count, view, stop) = (n.count, n.view_url, n.stop_url);
    let english = english_photos(count, "new ");
    let text = format!(
        "พบรูปใหม่ของคุณจากงาน {title} จำนวน {count} รูป\n\
         ดูรูปได้ที่:\n\
         {view}\n\
         \n\
         หยุดการแจ้งเตือน (ลบข้อมูลใบหน้าของคุณ):\n\
         {stop}\n\
         \n\
         --\n\
         \n\
         {english} of you from {title}.\n\
         See them here:\n\
         {view}\n\
         \n\
         Stop these alerts (and delete your face data):\n\
         {stop}\n"
    );
    Message {
        subject: format!("พบรูปใหม่ของคุณ / New photos of you — {title}"),
        short: format!("พบรูปใหม่ของคุณ {count} รูป / {english} of you\n{view}\nหยุด / Stop: {stop}"),
        card: Card {
            alt_text: format!("พบรูปใหม่ของคุณ {count} รูป / {english} of you — {title}"),
            title,
            lines: vec![
                format!("พบรูปใหม่ของคุณ {count} รูป"),
                format!("{english} of you"),
            ],
            image: n.image.map(str::to_owned),
            button: Some(("ดูรูป / See them".to_owned(), view.to_owned())),
            footnote: Some(("หยุดการแจ้งเตือน / Stop alerts".to_owned(), stop.to_owned())),
        },
        text,
    }
}

fn english_photos(n: usize, adjective: &str) -> String {
    if n == 1 {
        format!("1 {adjective}photo")
    } else {
        format!("{n} {adjective}photos")
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

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
            image: None,
        }
    }

    #[test]
    fn the_mail_is_thai_then_english() {
        let mail = order_ready(&order(false, 12));
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
        let mail = order_ready(&order(true, 1));
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
        let mail = order_ready(&o);
        assert!(!mail.subject.contains('\n') && !mail.subject.contains('\r'));
    }

    #[test]
    fn the_sms_is_short() {
        let sms = order_ready(&order(false, 3)).short;
        assert_eq!(
            sms,
            "รูปของคุณพร้อมดาวน์โหลดแล้ว / Your photos are ready\nhttps://shop.example/order/5f0c1a2e?k=secret"
        );
    }

    #[test]
    fn the_code_is_in_both_languages() {
        let m = order_code("042917", 10);
        assert_eq!(m.short.matches("042917").count(), 2);
        assert!(m.short.contains("10 นาที") && m.short.contains("10 minutes"));
    }

    #[test]
    fn every_kind_has_a_card_and_a_short_text() {
        let o = order(false, 2);
        let placed = OrderPlaced {
            order_uuid: o.order_uuid,
            order_url: o.order_url,
            event_title: o.event_title,
            photo_count: 2,
            image: None,
        };
        let decision = PrivacyDecision {
            event_title: "Run",
            approved: true,
            hidden: 3,
        };
        for m in [
            order_ready(&o),
            order_link(&placed),
            order_code("123456", 10),
            privacy_decision(&decision),
            trial("https://shop.example/"),
        ] {
            assert!(
                !m.short.is_empty() && !m.card.lines.is_empty() && !m.card.alt_text.is_empty(),
                "{m:?}"
            );
            assert!(!m.subject.contains('\n'));
        }
        assert!(order_link(&placed).short.contains(o.order_url));
    }
}
