//! The store contract: every test here runs against SQLite and against PostgreSQL, each
//! on a database of its own, so the two backends cannot drift apart.

// Tests fail by panicking.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use chrono::{DateTime, Utc};
use raceshot_domain::event::{EventInput, PackageInput};
use raceshot_domain::{EventKey, Flag};
use raceshot_store::events::Written;
use raceshot_store::jobs::{JobState, NewJob, Retry};
use raceshot_store::{Backend, Store};

/// Declares `async fn name(store: Store)` once and runs it on both backends.
macro_rules! contract {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[tokio::test]
            async fn $name() {
                let db = raceshot_store::testing::TestDatabase::new(raceshot_store::Backend::Sqlite).await;
                super::$name(db.store().await).await;
            })*
        }
        mod postgres {
            $(#[tokio::test]
            async fn $name() {
                let db = raceshot_store::testing::TestDatabase::new(raceshot_store::Backend::Postgres).await;
                super::$name(db.store().await).await;
            })*
        }
    };
}

contract!(
    writes_and_reads_an_event_whole,
    rewriting_an_event_replaces_it,
    a_failed_batch_writes_nothing,
    lists_visible_events_pinned_first_with_tiers,
    banners_come_with_their_event,
    settings_round_trip,
    jobs_are_claimed_once_and_retried_with_backoff,
    a_lapsed_lease_is_claimed_again,
    dedupe_keys_enqueue_once,
    audit_entries_page_newest_first,
    migrations_are_idempotent,
    unknown_photos_have_no_event,
    cart_logs_round_trip,
);

fn at(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s)
        .map(|t| t.with_timezone(&Utc))
        .unwrap_or_default()
}

fn now() -> DateTime<Utc> {
    at("2026-12-05T03:00:00Z")
}

fn event(key: &str, start: &str, end: &str) -> raceshot_domain::EventSpec {
    EventInput {
        event_key: key.into(),
        title: format!("งานวิ่ง {key}"),
        eventdate: "2026-11-30".into(),
        on_sale_start: start.into(),
        on_sale_end: end.into(),
        is_mhao: Flag::YES,
        mhao_price: Some(990.0),
        is_hybrid: Flag::YES,
        package: vec![
            PackageInput {
                name: "1 รูป".into(),
                name_en: "1 photo".into(),
                number_of_photo: 1,
                price: 60.0,
            },
            PackageInput {
                name: "5 รูป".into(),
                name_en: "5 photos".into(),
                number_of_photo: 5,
                price: 250.5,
            },
        ],
        package_hb: vec![PackageInput {
            name: "เหมา".into(),
            name_en: "All".into(),
            number_of_photo: 1,
            price: 40.0,
        }],
        banners: vec![raceshot_domain::event::BannerInput {
            image_url: format!("https://cdn.example/{key}.jpg"),
            link_url: format!("/{key}"),
        }],
        ..EventInput::default()
    }
    .validate()
    .unwrap_or_else(|e| panic!("{e:?}"))
}

fn key(k: &str) -> EventKey {
    EventKey::parse(k).unwrap_or_else(|e| panic!("{e}"))
}

async fn writes_and_reads_an_event_whole(store: Store) {
    let spec = event("bkk", "2026-12-01", "2026-12-31");
    let written = store
        .write_events(std::slice::from_ref(&spec), now())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(written[..], [Written::Created(_)]));
    let got = store
        .event_by_key(&key("bkk"))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let got = got.unwrap_or_else(|| panic!("event missing"));
    assert_eq!(got.id, written[0].id());
    assert_eq!(got.spec, spec);
    assert!(!got.sale_closed && got.visible);
    assert_eq!(store.event_by_key(&key("nope")).await.ok().flatten(), None);
}

async fn rewriting_an_event_replaces_it(store: Store) {
    let first = event("bkk", "2026-12-01", "2026-12-31");
    let id = store
        .write_events(std::slice::from_ref(&first), now())
        .await
        .map(|w| w[0].id())
        .unwrap_or_default();
    let mut second = first.clone();
    second.title = "Bangkok".into();
    second.packages.truncate(1);
    second.banners.clear();
    let written = store
        .write_events(&[second.clone()], now() + chrono::Duration::seconds(1))
        .await;
    assert_eq!(written.ok(), Some(vec![Written::Updated(id)]));
    let got = store
        .event_by_key(&key("bkk"))
        .await
        .ok()
        .flatten()
        .map(|e| e.spec);
    assert_eq!(got, Some(second));
}

async fn a_failed_batch_writes_nothing(store: Store) {
    // A trigger makes the database refuse the second event of the batch.
    let trigger: &[&str] = match store.backend() {
        Backend::Sqlite => &[
            "CREATE TRIGGER poison BEFORE INSERT ON events WHEN NEW.event_key = 'poison' \
              BEGIN SELECT RAISE(ABORT, 'poisoned'); END",
        ],
        Backend::Postgres => &[
            "CREATE FUNCTION poison() RETURNS trigger AS $$ BEGIN \
               IF NEW.event_key = 'poison' THEN RAISE EXCEPTION 'poisoned'; END IF; RETURN NEW; \
             END $$ LANGUAGE plpgsql",
            "CREATE TRIGGER poison BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION poison()",
        ],
    };
    for sql in trigger {
        store
            .execute_raw(sql)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let batch = vec![
        event("first", "2026-12-01", "2026-12-31"),
        event("poison", "2026-12-01", "2026-12-31"),
    ];
    let res = store.write_events(&batch, now()).await;
    assert!(res.is_err_and(|e| e.to_string().contains("poisoned")));
    assert_eq!(
        store.event_by_key(&key("first")).await.ok(),
        Some(None),
        "nothing half-written"
    );
    assert_eq!(store.visible_events().await.map(|e| e.len()).ok(), Some(0));
}

async fn lists_visible_events_pinned_first_with_tiers(store: Store) {
    let mut pinned = event("pinned", "2026-12-01", "2026-12-31");
    pinned.pin = true;
    pinned.event_date = chrono::NaiveDate::from_ymd_opt(2026, 1, 1).unwrap_or_default();
    let mut newer = event("newer", "2026-12-01", "2026-12-31");
    newer.event_date = chrono::NaiveDate::from_ymd_opt(2026, 12, 1).unwrap_or_default();
    let specs = vec![event("older", "2026-12-01", "2026-12-31"), pinned, newer];
    store
        .write_events(&specs, now())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let listed = store
        .visible_events()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let keys: Vec<&str> = listed.iter().map(|e| e.spec.key.as_str()).collect();
    assert_eq!(keys, ["pinned", "newer", "older"]);
    // Tiers come back with each listed event, in order.
    assert_eq!(listed[0].spec.packages.len(), 2);
    assert_eq!(listed[0].spec.packages[1].price.satang(), 25_050);
    assert_eq!(listed[0].spec.hybrid_packages.len(), 1);
    assert!(
        listed.iter().all(|e| e.spec.banners.is_empty()),
        "banners come separately"
    );
}

async fn banners_come_with_their_event(store: Store) {
    let specs = vec![
        event("live", "2026-12-01", "2026-12-31"),
        event("later", "2027-01-01", "2027-01-31"),
    ];
    let written = store
        .write_events(&specs, now())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let banners = store.banners().await.unwrap_or_default();
    let got: Vec<(Option<i64>, &str)> = banners
        .iter()
        .map(|(e, b)| (*e, b.link_url.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![
            (Some(written[0].id()), "/live"),
            (Some(written[1].id()), "/later")
        ]
    );
}

async fn settings_round_trip(store: Store) {
    assert_eq!(store.setting("PAYMENT_GATEWAY").await.ok(), Some(None));
    store
        .put_setting("PAYMENT_GATEWAY", "GBP", false, now())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    store
        .put_setting("PAYMENT_GATEWAY", "SANDBOX", false, now())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        store.setting("PAYMENT_GATEWAY").await.ok(),
        Some(Some("SANDBOX".to_owned()))
    );
}

fn job(kind: &str, dedupe: Option<&str>, max_attempts: u32) -> NewJob {
    NewJob {
        queue: "heavy".into(),
        kind: kind.into(),
        payload: serde_json::json!({"photo_id": 7}),
        dedupe_key: dedupe.map(str::to_owned),
        max_attempts,
        run_at: now(),
    }
}

async fn jobs_are_claimed_once_and_retried_with_backoff(store: Store) {
    let lease = Duration::from_secs(60);
    let id = store
        .enqueue(&job("ingest", None, 2), now())
        .await
        .ok()
        .flatten()
        .unwrap_or_default();
    assert_eq!(store.pending_jobs("heavy").await.ok(), Some(1));
    assert_eq!(
        store.claim_job("light", "w1", lease, now()).await.ok(),
        Some(None)
    );
    let claimed = store
        .claim_job("heavy", "w1", lease, now())
        .await
        .ok()
        .flatten();
    assert_eq!(
        claimed
            .as_ref()
            .map(|j| (j.id, j.attempts, j.kind.as_str())),
        Some((id, 1, "ingest"))
    );
    assert_eq!(
        claimed.map(|j| j.payload),
        Some("{\"photo_id\":7}".to_owned())
    );
    // Leased: nobody else gets it.
    assert_eq!(
        store.claim_job("heavy", "w2", lease, now()).await.ok(),
        Some(None)
    );

    let retry = store
        .fail_job(
            id,
            "w1",
            "decode failed",
            Duration::from_secs(30),
            false,
            now(),
        )
        .await;
    assert_eq!(
        retry.ok(),
        Some(Retry::At(now() + chrono::Duration::seconds(30)))
    );
    assert_eq!(
        store.claim_job("heavy", "w2", lease, now()).await.ok(),
        Some(None),
        "backing off"
    );
    let later = now() + chrono::Duration::seconds(31);
    let again = store
        .claim_job("heavy", "w2", lease, later)
        .await
        .ok()
        .flatten();
    assert_eq!(again.map(|j| j.attempts), Some(2));
    // The first worker's late answer is refused: it no longer holds the job.
    assert_eq!(store.complete_job(id, "w1", later).await.ok(), Some(false));
    let gave_up = store
        .fail_job(
            id,
            "w2",
            "decode failed again",
            Duration::from_secs(30),
            false,
            later,
        )
        .await;
    assert_eq!(gave_up.ok(), Some(Retry::GaveUp));
    assert_eq!(
        store.job_state(id).await.ok().flatten(),
        Some((JobState::Failed, Some("decode failed again".to_owned())))
    );
    assert_eq!(store.pending_jobs("heavy").await.ok(), Some(0));

    let ok = store
        .enqueue(&job("ingest", None, 3), now())
        .await
        .ok()
        .flatten()
        .unwrap_or_default();
    let _ = store.claim_job("heavy", "w3", lease, later).await;
    assert_eq!(store.complete_job(ok, "w3", later).await.ok(), Some(true));
    assert_eq!(
        store.job_state(ok).await.ok().flatten(),
        Some((JobState::Done, None))
    );
}

async fn a_lapsed_lease_is_claimed_again(store: Store) {
    let lease = Duration::from_secs(10);
    let id = store
        .enqueue(&job("ingest", None, 5), now())
        .await
        .ok()
        .flatten()
        .unwrap_or_default();
    let _ = store.claim_job("heavy", "dead-worker", lease, now()).await;
    let t = now() + chrono::Duration::seconds(5);
    assert!(
        store
            .extend_job_lease(id, "dead-worker", lease, t)
            .await
            .unwrap_or(false)
    );
    assert_eq!(
        store
            .claim_job("heavy", "w2", lease, t + chrono::Duration::seconds(9))
            .await
            .ok(),
        Some(None)
    );
    let t = t + chrono::Duration::seconds(11);
    let stolen = store
        .claim_job("heavy", "w2", lease, t)
        .await
        .ok()
        .flatten();
    assert_eq!(stolen.map(|j| (j.id, j.attempts)), Some((id, 2)));
    assert!(
        !store
            .extend_job_lease(id, "dead-worker", lease, t)
            .await
            .unwrap_or(true)
    );
}

async fn dedupe_keys_enqueue_once(store: Store) {
    let first = store
        .enqueue(&job("ingest", Some("photo:1"), 3), now())
        .await;
    let second = store
        .enqueue(&job("ingest", Some("photo:1"), 3), now())
        .await;
    assert!(matches!(first, Ok(Some(_))));
    assert!(matches!(second, Ok(None)));
    assert_eq!(store.pending_jobs("heavy").await.ok(), Some(1));
}

async fn audit_entries_page_newest_first(store: Store) {
    for i in 0..5 {
        let detail = serde_json::json!({ "n": i });
        store
            .audit(
                "admin@example.com",
                "event.import",
                &format!("event:{i}"),
                &detail,
                now(),
            )
            .await
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let page = store.audit_entries(None, 2).await.unwrap_or_default();
    assert_eq!(
        page.iter().map(|e| e.target.as_str()).collect::<Vec<_>>(),
        ["event:4", "event:3"]
    );
    assert_eq!(page[0].detail, serde_json::json!({ "n": 4 }));
    let next = store
        .audit_entries(Some(page[1].id), 10)
        .await
        .unwrap_or_default();
    assert_eq!(next.len(), 3);
}

async fn migrations_are_idempotent(store: Store) {
    store.migrate().await.unwrap_or_else(|e| panic!("{e}"));
    store.ping().await.unwrap_or_else(|e| panic!("{e}"));
}

async fn unknown_photos_have_no_event(store: Store) {
    assert_eq!(store.event_key_of_photo(12345).await.ok(), Some(None));
    assert_eq!(store.highlight_photos(1, 10).await.ok(), Some(vec![]));
}

#[test]
fn backends_are_chosen_by_url() {
    assert_eq!(Backend::of_url("sqlite://x.db").ok(), Some(Backend::Sqlite));
    assert_eq!(
        Backend::of_url("postgres://h/db").ok(),
        Some(Backend::Postgres)
    );
    assert!(Backend::of_url("mysql://h/db").is_err());
}

async fn cart_logs_round_trip(store: Store) {
    for (i, service) in ["cart", "cart-wholesale"].into_iter().enumerate() {
        let log = raceshot_store::cart_logs::CartLog {
            at: now(),
            service: service.into(),
            event_key: "bkk".into(),
            cart_count: i as i64 + 1,
            image_id: format!("{i}"),
            list: "1,2".into(),
        };
        store.add_cart_log(&log).await.unwrap();
    }
    let logs = store.cart_logs("bkk", 10).await.unwrap();
    assert_eq!(
        logs.iter().map(|l| l.service.as_str()).collect::<Vec<_>>(),
        ["cart-wholesale", "cart"]
    );
    assert_eq!(logs[0].at, now());
    assert!(store.cart_logs("other", 10).await.unwrap().is_empty());
}
