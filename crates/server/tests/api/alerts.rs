//! "Tell me when new photos of me arrive", against the local fakes of ThaiBulkSMS and LINE:
//! an alert is refused without its own consent, on a channel the shop has not set up, for
//! a bad number or a selfie without a face; an SMS alert is confirmed by the code texted,
//! a LINE alert by LINE Login; each new photo showing the face is told of, the first at
//! once and the rest at most once a quarter hour, with a signed link to the photos and one
//! to stop; stopping deletes the template; an alert ends with its event's sale, on both
//! backends. The faces are the models' stand-in's: the same pixels where it samples them
//! are the same face.

use std::time::Duration;

use raceshot_server::infra::channels::ChannelKind;
use raceshot_server::jobs::kinds::SendMessage;
use raceshot_server::jobs::{BackgroundJob, JobContext};
use raceshot_server::services::messages::MessageKind;
use raceshot_store::Backend;
use raceshot_store::alerts::AlertState;
use serde_json::{Value, json};

use crate::helpers::{TOKEN, TestApp, assert_error, event, json, now};
use crate::line::{self, FakeLine, Mode, USER};
use crate::sms::{BAD_PREFIX, FakeThaiBulkSms};

const MOBILE: &str = "0812345678";

/// A PNG photo of `person` (where the stand-in samples a face: 8×8 points on a grid) in
/// picture `variant` (everywhere else): two variants of a person are two photos of one
/// face, two people strangers.
fn face_photo(person: u8, variant: u8) -> Vec<u8> {
    let (w, h) = (480u32, 320u32);
    let mut x: u32 = 0x2545_f491 ^ (u32::from(variant) << 8);
    let mut data: Vec<u8> = (0..w * h * 3)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x.to_le_bytes()[0]
        })
        .collect();
    for gy in 0..8u32 {
        for gx in 0..8u32 {
            let (px, py) = (w * (2 * gx + 1) / 16, h * (2 * gy + 1) / 16);
            let at = ((py * w + px) * 3) as usize;
            let v = person.wrapping_mul(37).wrapping_add((gx * 8 + gy) as u8);
            data[at..at + 3].copy_from_slice(&[v, v.wrapping_add(90), 255 - v]);
        }
    }
    let mut png = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut png, w, h);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().unwrap();
        writer.write_image_data(&data).unwrap();
    }
    png
}

/// A picture of one colour: the stand-in sees no face on it.
fn blank_photo() -> Vec<u8> {
    let image = raceshot_vision::RgbImage::filled(320, 240, [200, 200, 200]);
    raceshot_server::infra::imaging::encode_jpeg(&image, 90).unwrap()
}

async fn sms_app(backend: Backend, fake: &FakeThaiBulkSms, extra: &[(&str, &str)]) -> TestApp {
    let mut builder = crate::sms::sms_builder(backend, fake, crate::sms::KEY)
        .with_event(event("race"))
        .with_env("RACESHOT__ALERTS__PER_CLIENT_PER_MINUTE", "100");
    for (k, v) in extra {
        builder = builder.with_env(k, v);
    }
    builder.spawn().await
}

/// The six-digit code in a text.
fn code_in(text: &str) -> String {
    text.split(|c: char| !c.is_ascii_digit())
        .find(|w| w.len() == 6)
        .unwrap_or_else(|| panic!("no code in {text}"))
        .to_owned()
}

/// The path and query of the first link to an alert's page in a text.
fn alert_link(text: &str) -> String {
    let start = text
        .find("/alerts/")
        .unwrap_or_else(|| panic!("no link in {text}"));
    text[start..].split_whitespace().next().unwrap().to_owned()
}

/// The API call a page link makes: `/alerts/{id}?t=…` → `/api/alerts/{id}?t=…`.
fn api_of(link: &str) -> String {
    format!("/api{}", link.trim_end_matches("&stop=1"))
}

async fn conf_alerts(app: &TestApp) -> String {
    let conf = json(
        app.post(
            "/v1/utils/conf",
            &json!({ "tk": TOKEN, "conf_name": "ALERTS" }),
        )
        .await,
    )
    .await;
    conf["body"]["value"].as_str().unwrap().to_owned()
}

/// Runs the message due at `due` for an alert now, as its worker would then.
async fn run_message(app: &TestApp, alert_id: i64, due: chrono::DateTime<chrono::Utc>) {
    let job = SendMessage {
        kind: MessageKind::NewPhotos,
        subject: format!("{alert_id}:{}", due.timestamp_millis()),
        channel: ChannelKind::Sms,
    };
    let ctx = JobContext {
        state: &app.state,
        job_id: 0,
        worker: "test",
    };
    job.run(&ctx).await.unwrap();
}

async fn an_sms_alert_tells_of_new_photos_of_the_runner(backend: Backend) {
    let fake = FakeThaiBulkSms::start().await;
    let app = sms_app(backend, &fake, &[]).await;
    assert_eq!(conf_alerts(&app).await, "sms");
    let me = face_photo(1, 0);
    let sms = [("channel", "sms"), ("mobile", MOBILE)];

    // Refused, and nothing kept or sent.
    let no_consent = app.ask_alert("race", &sms, me.clone()).await;
    assert_error(no_consent, 422, "alert_consent_required").await;
    let line = app
        .ask_alert(
            "race",
            &[("channel", "line"), ("consent", "yes")],
            me.clone(),
        )
        .await;
    assert_error(line, 404, "alerts_unavailable").await;
    let bad = app
        .ask_alert(
            "race",
            &[("channel", "sms"), ("mobile", "12"), ("consent", "yes")],
            me.clone(),
        )
        .await;
    assert_error(bad, 422, "invalid_field").await;
    let consent = [("channel", "sms"), ("mobile", MOBILE), ("consent", "yes")];
    let faceless = app.ask_alert("race", &consent, blank_photo()).await;
    assert_error(faceless, 422, "no_face").await;
    let elsewhere = app.ask_alert("no-such-run", &consent, me.clone()).await;
    assert_error(elsewhere, 404, "event_not_found").await;
    // A number the provider cannot reach: no code, no alert.
    let unreachable = format!("{BAD_PREFIX}000000");
    let undeliverable = app
        .ask_alert(
            "race",
            &[
                ("channel", "sms"),
                ("mobile", &unreachable),
                ("consent", "yes"),
            ],
            me.clone(),
        )
        .await;
    assert_error(undeliverable, 422, "access_code_undeliverable").await;
    assert!(app.store.events_with_alerts().await.unwrap().is_empty());

    // Asked for: a code is texted to the number, which the answer shows masked.
    let asked = app.ask_alert("race", &consent, me.clone()).await;
    assert_eq!(asked.status(), 201);
    let asked = json(asked).await;
    assert_eq!(
        (&asked["channel"], &asked["next"]),
        (&json!("sms"), &json!("code"))
    );
    assert!(!asked.to_string().contains(MOBILE), "{asked}");
    let id = asked["alert_id"].as_str().unwrap().to_owned();
    fake.wait_for(2).await;
    let texted = fake.messages()[1].clone();
    assert_eq!(texted.field("msisdn"), Some(MOBILE));
    let code = code_in(texted.field("message").unwrap());
    let confirm = |code: String| {
        let app = &app;
        let id = id.clone();
        async move {
            app.post(
                &format!("/api/alerts/{id}/confirm"),
                &json!({ "tk": TOKEN, "code": code }),
            )
            .await
        }
    };
    let wrong = if code == "000000" { "111111" } else { "000000" };
    assert_error(confirm(wrong.to_owned()).await, 422, "access_code_invalid").await;
    let confirmed = json(confirm(code.clone()).await).await;
    // It lives until the sale ends (sooner than alerts.days from now).
    let (_, stored) = app.stored_event("race").await;
    let ends: chrono::DateTime<chrono::Utc> =
        serde_json::from_value(confirmed["alert"]["expires_at"].clone()).unwrap();
    assert_eq!(ends, stored.spec.on_sale_end, "{confirmed}");
    assert_eq!(confirmed["alert"]["event_key"], "race");
    assert!(!confirmed.to_string().contains(MOBILE));
    let alert = app.store.alert(&id, now()).await.unwrap().unwrap();
    assert_eq!(alert.state, AlertState::Active);
    // The same number is not texted again within a minute, from whatever address.
    let again = app.ask_alert("race", &consent, me.clone()).await;
    assert_eq!(again.headers()["retry-after"], "60");
    assert_error(again, 429, "rate_limited").await;
    assert_eq!(fake.messages().len(), 2);
    assert_eq!(app.store.alert_counts(now()).await.unwrap().len(), 1);

    // A photo of the runner and one of a stranger: one message, at once, with the count
    // and the links.
    let report = app
        .ingest_files(&[("a.png", face_photo(1, 1)), ("b.png", face_photo(2, 1))])
        .await;
    assert_eq!(report.ready, 2, "{:?}", report.failed);
    app.jobs_done().await;
    fake.wait_for(3).await;
    let told = fake.messages()[2].field("message").unwrap().to_owned();
    assert!(told.contains("1 new photo of you"), "{told}");
    assert!(told.contains("&stop=1"), "{told}");
    let link = alert_link(&told);
    let page = json(app.get(&api_of(&link)).await).await;
    assert_eq!(page["image_length"], 1, "{page}");
    assert_eq!(page["images"][0]["original_file_name"], "a.png");
    assert!(page["alert"].get("embedding").is_none());

    // Another photo of the runner within the quarter hour: no message now; one is due a
    // quarter hour after the first, and tells of it alone.
    let report = app.ingest_files(&[("c.png", face_photo(1, 2))]).await;
    assert_eq!(report.ready, 1);
    app.jobs_done().await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(fake.messages().len(), 3);
    let alert = app.store.alert(&id, now()).await.unwrap().unwrap();
    let due = now() + chrono::Duration::minutes(15);
    assert_eq!(alert.message_due_at, Some(due));
    run_message(&app, alert.id, due).await;
    let told = fake.messages()[3].field("message").unwrap().to_owned();
    assert!(told.contains("1 new photo of you"), "{told}");
    // Run again (a replay): nothing twice.
    run_message(&app, alert.id, due).await;
    assert_eq!(fake.messages().len(), 4);
    let page = json(app.get(&api_of(&link)).await).await;
    assert_eq!(page["image_length"], 2, "{page}");
    assert_eq!(page["images"][0]["original_file_name"], "c.png");

    // A link that does not fit opens nothing.
    let forged = link.replace("?t=", "?t=1").replace(&id, &"0".repeat(32));
    assert_error(app.get(&api_of(&forged)).await, 404, "alert_not_found").await;
    let tampered = format!("{}0", api_of(&link));
    assert_error(app.get(&tampered).await, 404, "alert_not_found").await;

    // Stopped by the message's link: the template is gone at once, and no photo is told
    // of after.
    let stop = app.delete(&api_of(&link)).await;
    assert_eq!(stop.status(), 200);
    assert!(app.store.alert_by_id(alert.id).await.unwrap().is_none());
    assert_error(app.get(&api_of(&link)).await, 404, "alert_not_found").await;
    let report = app.ingest_files(&[("d.png", face_photo(1, 3))]).await;
    assert_eq!(report.ready, 1);
    app.jobs_done().await;
    assert_eq!(fake.messages().len(), 4);
}

#[tokio::test]
async fn an_sms_alert_tells_of_new_photos_of_the_runner_sqlite() {
    an_sms_alert_tells_of_new_photos_of_the_runner(Backend::Sqlite).await;
}

#[tokio::test]
async fn an_sms_alert_tells_of_new_photos_of_the_runner_postgres() {
    an_sms_alert_tells_of_new_photos_of_the_runner(Backend::Postgres).await;
}

async fn an_alert_ends_with_the_sale_or_its_days(backend: Backend) {
    let fake = FakeThaiBulkSms::start().await;
    let app = sms_app(backend, &fake, &[("RACESHOT__ALERTS__DAYS", "2")]).await;
    let consent = [("channel", "sms"), ("mobile", MOBILE), ("consent", "yes")];
    let asked = json(app.ask_alert("race", &consent, face_photo(1, 0)).await).await;
    let id = asked["alert_id"].as_str().unwrap().to_owned();
    // Never confirmed: gone after ten minutes.
    let ten = now() + chrono::Duration::minutes(10);
    assert!(app.store.alert(&id, ten).await.unwrap().is_none());
    fake.wait_for(1).await;
    let code = code_in(fake.messages()[0].field("message").unwrap());
    let confirmed = json(
        app.post(
            &format!("/api/alerts/{id}/confirm"),
            &json!({ "tk": TOKEN, "code": code }),
        )
        .await,
    )
    .await;
    // alerts.days before the sale's end.
    let ends: chrono::DateTime<chrono::Utc> =
        serde_json::from_value(confirmed["alert"]["expires_at"].clone()).unwrap();
    assert_eq!(ends, now() + chrono::Duration::days(2));
    assert!(app.store.alert(&id, ends).await.unwrap().is_none());
    // The retention run keeps it while the sale lasts, and deletes it, template and all,
    // when the operator ends the sale.
    app.run_retention().await.unwrap();
    let alert = app.store.alert(&id, now()).await.unwrap().unwrap();
    let (_, stored) = app.stored_event("race").await;
    app.store
        .set_sale_closed(stored.id, true, now())
        .await
        .unwrap();
    app.run_retention().await.unwrap();
    assert!(app.store.alert_by_id(alert.id).await.unwrap().is_none());
    assert!(app.store.events_with_alerts().await.unwrap().is_empty());
}

#[tokio::test]
async fn an_alert_ends_with_the_sale_or_its_days_sqlite() {
    an_alert_ends_with_the_sale_or_its_days(Backend::Sqlite).await;
}

#[tokio::test]
async fn an_alert_ends_with_the_sale_or_its_days_postgres() {
    an_alert_ends_with_the_sale_or_its_days(Backend::Postgres).await;
}

#[tokio::test]
async fn a_line_alert_is_confirmed_by_line_login_and_pushed_with_its_links() {
    let fake = FakeLine::start().await;
    let app = TestApp::builder(Backend::Sqlite)
        .with_event(event("race"))
        .with_env("RACESHOT__LINE__LOGIN_CHANNEL_ID", line::CHANNEL_ID)
        .with_env("RACESHOT__LINE__LOGIN_CHANNEL_SECRET", line::CHANNEL_SECRET)
        .with_env("RACESHOT__LINE__CHANNEL_ACCESS_TOKEN", line::ACCESS_TOKEN)
        .with_env("RACESHOT__LINE__ACCESS_BASE", &fake.url())
        .with_env("RACESHOT__LINE__API_BASE", &fake.url())
        .with_env("RACESHOT__ALERTS__PER_CLIENT_PER_MINUTE", "100")
        .spawn()
        .await;
    assert_eq!(conf_alerts(&app).await, "line");
    let consent = [("channel", "line"), ("consent", "yes")];
    let asked = json(app.ask_alert("race", &consent, face_photo(5, 0)).await).await;
    assert_eq!(asked["next"], "line", "{asked}");
    let id = asked["alert_id"].as_str().unwrap().to_owned();
    let line_url = asked["line_url"].as_str().unwrap().to_owned();
    assert_eq!(line_url, format!("/api/line/link/alert/{id}"));

    // A forged ID token confirms nothing.
    let forged = json(app.ask_alert("race", &consent, face_photo(6, 0)).await).await;
    fake.set(Mode::Forge);
    let (back, cookie) = through_line(&app, forged["line_url"].as_str().unwrap()).await;
    assert_eq!(
        line::callback(&back, Some(&cookie)).await,
        app.url("/race?alert=failed")
    );
    let forged_id = forged["alert_id"].as_str().unwrap();
    let still = app.store.alert(forged_id, now()).await.unwrap().unwrap();
    assert_eq!(still.state, AlertState::Pending);
    // Stopped by the browser that asked, before it was confirmed.
    let stop = app.delete(&format!("/api/alerts/{forged_id}")).await;
    assert_eq!(stop.status(), 200);
    assert!(app.store.alert_by_id(still.id).await.unwrap().is_none());

    fake.set(Mode::Normal);
    let (back, cookie) = through_line(&app, &line_url).await;
    assert_eq!(
        line::callback(&back, Some(&cookie)).await,
        app.url("/race?alert=linked")
    );
    let alert = app.store.alert(&id, now()).await.unwrap().unwrap();
    assert_eq!(
        (alert.state, alert.line_user_id.as_deref()),
        (AlertState::Active, Some(USER))
    );
    // A working alert is not stopped without its link.
    let refused = app.delete(&format!("/api/alerts/{id}")).await;
    assert_error(refused, 404, "alert_not_found").await;

    let report = app
        .ingest_files(&[("e.png", face_photo(5, 1)), ("f.png", face_photo(5, 2))])
        .await;
    assert_eq!(report.ready, 2);
    app.jobs_done().await;
    let pushed = line::wait_pushed(&fake, 1).await;
    assert_eq!(pushed[0].body["to"], USER);
    let flex = &pushed[0].body["messages"][0];
    let text = flex.to_string();
    let view = flex["contents"]["footer"]["contents"][0]["action"]["uri"]
        .as_str()
        .unwrap();
    assert!(
        view.starts_with(&app.url(&format!("/alerts/{id}?t="))),
        "{view}"
    );
    assert!(text.contains("&stop=1"), "{text}");
    let page = json(app.get(&api_of(&alert_link(view))).await).await;
    assert!(page["image_length"].as_u64().unwrap() >= 1, "{page}");
}

/// Starts LINE Login at `path` and goes through LINE's page: the callback address and the
/// cookie the browser holds.
async fn through_line(app: &TestApp, path: &str) -> (String, String) {
    let b = line::browser();
    let start = b.get(app.url(path)).send().await.unwrap();
    assert_eq!(start.status(), 303);
    let cookie = line::cookie_of(&start);
    let at_line = b.get(line::location(&start)).send().await.unwrap();
    assert!(at_line.status().is_redirection());
    (line::location(&at_line), cookie)
}

#[tokio::test]
async fn without_a_channel_there_are_no_alerts() {
    let app = TestApp::with_one_event("race").await;
    assert_eq!(conf_alerts(&app).await, "");
    let asked = app
        .ask_alert(
            "race",
            &[("channel", "sms"), ("mobile", MOBILE), ("consent", "yes")],
            face_photo(1, 0),
        )
        .await;
    assert_error(asked, 404, "alerts_unavailable").await;
    let unknown: Value = json(
        app.get(&format!("/api/alerts/{}?t=1.x", "a".repeat(32)))
            .await,
    )
    .await;
    assert_eq!(unknown["code"], "alert_not_found");
}
