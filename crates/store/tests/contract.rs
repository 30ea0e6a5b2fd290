//! The store contract: every test here runs against SQLite and against PostgreSQL, each
//! on a database of its own, so the two backends cannot drift apart.

// Tests fail by panicking.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use chrono::{DateTime, Utc};
use raceshot_domain::event::{EventInput, PackageInput};
use raceshot_domain::{
    EventKey, Flag, GatewayKind, Money, OrderUuid, PaymentChannel, PaymentStatus,
};
use raceshot_store::events::Written;
use raceshot_store::jobs::{JobState, NewJob, Retry};
use raceshot_store::orders::{
    Created, DeliveryFlag, FoundOrder, NewOrder, Order, OrderLookup, OrderPhoto, PaymentEvent,
};
use raceshot_store::photos::{Added, NewPhoto, PhotoState};
use raceshot_store::{Backend, Store, StoredName};
use serde_json::json;
use tokio::task::JoinSet;

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
    a_move_to_another_pair_keeps_each_pairs_faces_apart,
    rewriting_an_event_replaces_it,
    a_failed_batch_writes_nothing,
    lists_visible_events_pinned_first_with_tiers,
    banners_come_with_their_event,
    settings_round_trip,
    jobs_are_claimed_once_and_retried_with_backoff,
    a_lapsed_lease_is_claimed_again,
    dedupe_keys_enqueue_once,
    audit_entries_page_newest_first,
    audit_entries_name_accounts_and_hold_no_control_characters,
    migrations_are_idempotent,
    unknown_photos_have_no_event,
    cart_logs_round_trip,
    access_codes_open_once_and_give_out,
    orders_round_trip_with_their_photos,
    payment_details_are_recorded_and_kept,
    a_repeated_request_finds_its_first_order,
    simultaneous_repeats_make_one_order,
    order_jobs_carry_the_order_id,
    order_jobs_share_the_order_transaction,
    paying_an_order_counts_once,
    payment_trail_keeps_each_message_once,
    expiry_touches_only_lapsed_unpaid_orders,
    only_unpaid_orders_can_be_ended,
    gateway_checks_are_throttled,
    finds_orders_by_mobile_and_receipt,
    the_last_paid_deal_order_is_found,
    delivery_flags_are_set_one_by_one,
    retention_lists_photos_of_old_events,
    bibs_are_read_corrected_and_searched,
    privacy_templates_live_as_long_as_stated,
    what_searches_found_lasts_as_long_as_stated,
    a_held_photo_is_never_paid_for,
    selfie_uploads_serve_their_own_client_and_event,
    upload_tokens_sign_in_their_account_until_revoked,
    a_message_is_sent_once_under_its_key,
    line_logins_are_taken_once_and_links_end_with_retention,
    alerts_live_as_long_as_stated_and_tell_at_most_once_a_gap,
    results_are_replaced_whole_found_by_name_and_bib_and_deleted,
    certificate_settings_are_saved_whole,
    a_certificate_change_keeps_the_other_settings,
    photo_passes_are_added_in_batches_and_found_by_hash,
    a_pass_pays_for_one_order,
    an_events_frame_is_replaced_chosen_and_removed_and_orders_keep_theirs,
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
    assert_eq!(listed[0].spec.wholesale_packages.len(), 1);
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

async fn audit_entries_name_accounts_and_hold_no_control_characters(store: Store) {
    use raceshot_store::operators::Role;
    let id = store
        .create_operator("boss@example.com", "hash", Role::Admin, now())
        .await
        .unwrap()
        .unwrap();
    let typed = "op\u{1b}[2J\nerator\u{202e}";
    let detail = json!({ "file_name": "IMG\r\n.jpg", "n": 1 });
    for actor in [format!("operator:{id}"), "unknown:0123abcd".to_owned()] {
        store
            .audit(&actor, "photo.upload", typed, &detail, now())
            .await
            .unwrap();
    }
    let entries = store.audit_entries(None, 10).await.unwrap();
    let by_account = entries.iter().find(|e| e.actor == format!("operator:{id}"));
    let unknown = entries.iter().find(|e| e.actor.starts_with("unknown:"));
    assert_eq!(
        by_account.and_then(|e| e.actor_email.as_deref()),
        Some("boss@example.com")
    );
    assert_eq!(unknown.map(|e| e.actor_email.clone()), Some(None));
    for entry in &entries {
        let text = format!("{}{}{}", entry.actor, entry.target, entry.detail);
        assert!(!text.chars().any(char::is_control), "{text:?}");
        assert!(!text.contains('\u{202e}'), "{text:?}");
        assert_eq!(entry.detail["n"], 1);
    }
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

// ---- orders -------------------------------------------------------------------------

fn money(satang: i64) -> Money {
    Money::from_satang(satang).unwrap()
}

fn secs(n: i64) -> chrono::Duration {
    chrono::Duration::seconds(n)
}

fn ms(n: i64) -> chrono::Duration {
    chrono::Duration::milliseconds(n)
}

/// How far back a repeated request finds its first order in these tests.
fn window() -> chrono::Duration {
    chrono::Duration::minutes(10)
}

/// Writes an event dated `date` (`YYYY-MM-DD`) and returns its id.
async fn dated_event(store: &Store, key: &str, date: &str) -> i64 {
    let mut spec = event(key, "2026-12-01", "2026-12-31");
    spec.event_date = chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").unwrap();
    store.write_events(&[spec], now()).await.unwrap()[0].id()
}

/// Adds `n` photos to the event and makes them ready; their ids, oldest first. Photo `i`
/// is `IMG_{event}_{i}.jpg`, stored as `s{event}-{i}.jpg`, by photographer `10 + i`.
async fn ready_photos(store: &Store, event_id: i64, n: usize) -> Vec<i64> {
    let mut ids = Vec::with_capacity(n);
    for i in 0..n {
        let photo = NewPhoto {
            event_id,
            content_hash: format!("{event_id:08}{i:056}"),
            original_file_name: format!("IMG_{event_id}_{i}.jpg"),
            storage_name: format!("s{event_id}-{i}.jpg"),
            photographer_id: 10 + i as i64,
        };
        let ingest = |id: i64| NewJob {
            queue: "ingest".into(),
            kind: "ingest".into(),
            payload: json!({ "photo_id": id }),
            dedupe_key: None,
            max_attempts: 3,
            run_at: now(),
        };
        let added = store.add_photo(&photo, ingest, now()).await.unwrap();
        let Added::New(id) = added else {
            panic!("photo {i} was there already: {added:?}")
        };
        store
            .set_photo_state(id, PhotoState::Ready, None, now())
            .await
            .unwrap();
        ids.push(id);
    }
    ids
}

/// A PromptPay order of 3 photos with a 15-minute payment window.
/// A fixed order id named by a label, so that each test reads by its labels.
fn oid(label: &str) -> OrderUuid {
    let mut hash: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    for b in label.bytes() {
        hash ^= u128::from(b);
        hash = hash.wrapping_mul(0x0000_0000_0100_0000_0000_0000_0000_013b);
    }
    OrderUuid::parse(&format!("{hash:032x}")).unwrap()
}

fn new_order(event_id: i64, uuid: &str, photo_ids: &[i64]) -> NewOrder {
    NewOrder {
        uuid: oid(uuid),
        event_id,
        mobile: "0812345678".into(),
        email: Some("runner@example.com".into()),
        deal: false,
        wholesale: false,
        photo_ids: photo_ids.to_vec(),
        full_amount: money(18_000),
        discount: money(1_050),
        amount: money(16_950),
        payment_fee: money(277),
        paid_amount: money(17_227),
        payment_gateway: GatewayKind::Gbp,
        payment_channel: PaymentChannel::PromptPay,
        payment_status: PaymentStatus::Initial,
        fingerprint: format!("fp-{uuid}"),
        am_order_ref: None,
        expires_at: Some(now() + chrono::Duration::minutes(15)),
        pass_id: None,
        frame: None,
        certificate: None,
    }
}

/// A free all-photos order: nothing to pay, paid on creation, no payment window.
fn free_order(event_id: i64, uuid: &str, photo_ids: &[i64]) -> NewOrder {
    NewOrder {
        deal: true,
        amount: Money::ZERO,
        discount: money(18_000),
        payment_fee: Money::ZERO,
        paid_amount: Money::ZERO,
        payment_gateway: GatewayKind::Sandbox,
        payment_channel: PaymentChannel::Free,
        payment_status: PaymentStatus::Paid,
        expires_at: None,
        ..new_order(event_id, uuid, photo_ids)
    }
}

/// Writes an order that must be new.
async fn place(store: &Store, order: &NewOrder, at: DateTime<Utc>) -> Order {
    match store
        .create_order(order, at - window(), |_| Vec::new(), at)
        .await
        .unwrap()
    {
        Created::New(o) => o,
        Created::Repeated(o) => panic!("{} found the earlier order {}", order.uuid, o.uuid),
        Created::PassTaken => panic!("{} found its pass taken", order.uuid),
    }
}

async fn stored(store: &Store, order_id: i64) -> Order {
    store
        .order_by_id(order_id)
        .await
        .unwrap()
        .unwrap_or_else(|| panic!("order {order_id} missing"))
}

async fn status(store: &Store, order_id: i64) -> PaymentStatus {
    stored(store, order_id).await.payment_status
}

fn order_job(queue: &str, kind: &str, payload: serde_json::Value, dedupe: Option<&str>) -> NewJob {
    NewJob {
        queue: queue.into(),
        kind: kind.into(),
        payload,
        dedupe_key: dedupe.map(str::to_owned),
        max_attempts: 5,
        run_at: now(),
    }
}

/// Claims every due job of `queue`: (kind, payload), in queue order.
async fn claim_all(store: &Store, queue: &str) -> Vec<(String, serde_json::Value)> {
    let mut out = Vec::new();
    let at = now() + chrono::Duration::days(1);
    while let Some(job) = store
        .claim_job(queue, "worker", Duration::from_secs(600), at)
        .await
        .unwrap()
    {
        let payload = serde_json::from_str(&job.payload).unwrap();
        out.push((job.kind, payload));
    }
    out
}

/// Makes the database refuse any job of kind `poison`.
async fn poison_jobs(store: &Store) {
    let trigger: &[&str] = match store.backend() {
        Backend::Sqlite => &[
            "CREATE TRIGGER poison BEFORE INSERT ON jobs WHEN NEW.kind = 'poison' \
              BEGIN SELECT RAISE(ABORT, 'poisoned'); END",
        ],
        Backend::Postgres => &[
            "CREATE FUNCTION poison() RETURNS trigger AS $$ BEGIN \
               IF NEW.kind = 'poison' THEN RAISE EXCEPTION 'poisoned'; END IF; RETURN NEW; \
             END $$ LANGUAGE plpgsql",
            "CREATE TRIGGER poison BEFORE INSERT ON jobs FOR EACH ROW EXECUTE FUNCTION poison()",
        ],
    };
    for sql in trigger {
        store.execute_raw(sql).await.unwrap();
    }
}

async fn orders_round_trip_with_their_photos(store: Store) {
    let event_id = dated_event(&store, "bkk", "2026-11-30").await;
    let photos = ready_photos(&store, event_id, 4).await;
    let chosen = vec![photos[2], photos[0], photos[3]];
    let mut input = new_order(event_id, "8d0c6f1e-order-one", &chosen);
    input.expires_at = Some(now() + ms(900_123));
    let created = store
        .create_order(&input, now() - window(), |_| Vec::new(), now())
        .await
        .unwrap();
    let Created::New(first) = created else {
        panic!("a first request is new: {created:?}")
    };
    let expected = Order {
        id: first.id,
        uuid: oid("8d0c6f1e-order-one"),
        event_id,
        event_key: EventKey::parse("bkk").unwrap(),
        event_title: "งานวิ่ง bkk".into(),
        event_date: "2026-11-30".into(),
        mobile: "0812345678".into(),
        email: Some("runner@example.com".into()),
        deal: false,
        wholesale: false,
        image_count: 3,
        full_amount: money(18_000),
        discount: money(1_050),
        amount: money(16_950),
        payment_fee: money(277),
        paid_amount: money(17_227),
        payment_gateway: GatewayKind::Gbp,
        payment_channel: PaymentChannel::PromptPay,
        payment_status: PaymentStatus::Initial,
        gateway_ref: None,
        qrcode_url: None,
        api_response: None,
        am_order_ref: None,
        receipt_ref: None,
        is_original_image_created: false,
        is_logo_image_created: false,
        frame: None,
        is_frame_image_created: false,
        certificate: None,
        is_send_sms: false,
        is_send_email: false,
        created_at: now(),
        paid_at: None,
        expires_at: Some(now() + ms(900_123)),
        last_checked_at: None,
        end_reason: None,
        refund_due: None,
    };
    assert_eq!(first, expected);
    assert!(!first.is_deliverable());
    assert_eq!(
        store
            .order_by_uuid(oid("8d0c6f1e-order-one"))
            .await
            .unwrap(),
        Some(expected.clone())
    );
    assert_eq!(store.order_by_id(first.id).await.unwrap(), Some(expected));
    let listed = store.order_photos(first.id).await.unwrap();
    assert_eq!(
        listed,
        [2usize, 0, 3]
            .iter()
            .map(|&i| OrderPhoto {
                id: photos[i],
                original_file_name: format!("IMG_{event_id}_{i}.jpg"),
                storage_name: format!("s{event_id}-{i}.jpg"),
                photographer_id: 10 + i as i64,
                original_purged: false,
                held: false,
            })
            .collect::<Vec<_>>(),
        "the photos come in the order given"
    );

    // A free all-photos order of another event: no email, an approval reference, paid on
    // creation, no payment window.
    let other_event = dated_event(&store, "cnx", "2027-01-15").await;
    let other_photos = ready_photos(&store, other_event, 2).await;
    let mut input = free_order(other_event, "8d0c6f1e-order-two", &other_photos);
    input.email = None;
    input.wholesale = true;
    input.mobile = "0899999999".into();
    input.full_amount = money(99_000);
    input.discount = money(99_000);
    input.am_order_ref = Some(oid("AM-2027-0001"));
    let at = now() + ms(1_250);
    let free = place(&store, &input, at).await;
    assert_ne!(free.id, first.id);
    let got = store
        .order_by_uuid(oid("8d0c6f1e-order-two"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(got, free);
    assert_eq!(
        (
            got.event_id,
            got.event_key.as_str(),
            got.event_title.as_str(),
            got.event_date.as_str()
        ),
        (other_event, "cnx", "งานวิ่ง cnx", "2027-01-15")
    );
    assert_eq!(
        (got.mobile.as_str(), got.email.as_deref()),
        ("0899999999", None)
    );
    assert!(got.deal && got.wholesale);
    assert_eq!(got.image_count, 2);
    assert_eq!(
        [
            got.full_amount,
            got.discount,
            got.amount,
            got.payment_fee,
            got.paid_amount
        ],
        [
            money(99_000),
            money(99_000),
            Money::ZERO,
            Money::ZERO,
            Money::ZERO
        ]
    );
    assert_eq!(
        (
            got.payment_gateway.as_str(),
            got.payment_channel,
            got.payment_status
        ),
        ("SANDBOX", PaymentChannel::Free, PaymentStatus::Paid)
    );
    assert_eq!(got.am_order_ref, Some(oid("AM-2027-0001")));
    assert_eq!(
        (got.created_at, got.paid_at, got.expires_at),
        (at, Some(at), None)
    );
    assert!(got.is_deliverable());
    let ids: Vec<i64> = store
        .order_photos(free.id)
        .await
        .unwrap()
        .iter()
        .map(|p| p.id)
        .collect();
    assert_eq!(ids, other_photos);

    // The other channels round-trip too.
    for (i, channel) in [PaymentChannel::Card, PaymentChannel::Approval]
        .into_iter()
        .enumerate()
    {
        let mut input = new_order(event_id, &format!("channel-{i}"), &photos[..1]);
        input.payment_channel = channel;
        let order = place(&store, &input, now()).await;
        assert_eq!(stored(&store, order.id).await.payment_channel, channel);
    }

    assert_eq!(
        store.order_by_uuid(oid("no-such-order")).await.unwrap(),
        None
    );
    assert_eq!(store.order_by_id(first.id + 1_000).await.unwrap(), None);
    assert_eq!(store.order_photos(first.id + 1_000).await.unwrap(), vec![]);
}

async fn payment_details_are_recorded_and_kept(store: Store) {
    let event_id = dated_event(&store, "bkk", "2026-11-30").await;
    let photos = ready_photos(&store, event_id, 1).await;
    let order = place(&store, &new_order(event_id, "qr-order", &photos), now()).await;
    let other = place(&store, &new_order(event_id, "bystander", &photos), now()).await;
    let window_end = now() + chrono::Duration::minutes(5);
    store
        .set_order_payment(
            order.id,
            Some("GW-REF-1"),
            Some("data:image/png;base64,AAAA"),
            Some("{\"resultCode\":\"00\"}"),
            Some(window_end),
            now() + secs(1),
        )
        .await
        .unwrap();
    let got = stored(&store, order.id).await;
    let details = |o: &Order| {
        (
            o.gateway_ref.clone(),
            o.qrcode_url.clone(),
            o.api_response.clone(),
            o.expires_at,
        )
    };
    let first = (
        Some("GW-REF-1".to_owned()),
        Some("data:image/png;base64,AAAA".to_owned()),
        Some("{\"resultCode\":\"00\"}".to_owned()),
        Some(window_end),
    );
    assert_eq!(details(&got), first);
    // Nothing given: everything kept.
    store
        .set_order_payment(order.id, None, None, None, None, now() + secs(2))
        .await
        .unwrap();
    assert_eq!(details(&stored(&store, order.id).await), first);
    // Only what is given is replaced.
    store
        .set_order_payment(
            order.id,
            Some("GW-REF-2"),
            None,
            None,
            None,
            now() + secs(3),
        )
        .await
        .unwrap();
    let got = stored(&store, order.id).await;
    assert_eq!(
        details(&got),
        (Some("GW-REF-2".to_owned()), first.1, first.2, first.3)
    );
    assert_eq!(got.payment_status, PaymentStatus::Initial);
    assert_eq!(
        stored(&store, other.id).await,
        other,
        "other orders untouched"
    );
}

async fn a_repeated_request_finds_its_first_order(store: Store) {
    let event_id = dated_event(&store, "bkk", "2026-11-30").await;
    let photos = ready_photos(&store, event_id, 2).await;
    let mut input = new_order(event_id, "first", &photos);
    input.fingerprint = "fp-same".into();
    let original = place(&store, &input, now()).await;

    // A double submit 30 s later comes with the uuid the second request drew.
    let mut again = input.clone();
    again.uuid = oid("second");
    again.photo_ids = vec![photos[1]];
    let at = now() + secs(30);
    let answer = store
        .create_order(&again, at - window(), |_| Vec::new(), at)
        .await
        .unwrap();
    assert_eq!(answer, Created::Repeated(original.clone()));
    assert_eq!(answer.order(), Some(&original));
    assert_eq!(
        store.order_by_uuid(oid("second")).await.unwrap(),
        None,
        "no second order"
    );
    let ids: Vec<i64> = store
        .order_photos(original.id)
        .await
        .unwrap()
        .iter()
        .map(|p| p.id)
        .collect();
    assert_eq!(ids, photos, "the first order's photos are unchanged");

    // The window includes its first instant.
    let mut edge = input.clone();
    edge.uuid = oid("edge");
    let answer = store
        .create_order(&edge, original.created_at, |_| Vec::new(), at)
        .await
        .unwrap();
    assert_eq!(answer, Created::Repeated(original.clone()));
    assert_eq!(store.order_by_uuid(oid("edge")).await.unwrap(), None);

    // Another fingerprint within the window is another request.
    let mut other = input.clone();
    other.uuid = oid("other");
    other.fingerprint = "fp-other".into();
    let other = place(&store, &other, at).await;
    assert_ne!(other.id, original.id);

    // Once the window has passed the first order, the same fingerprint writes a new one.
    let later = now() + window() + secs(1);
    let mut late = input.clone();
    late.uuid = oid("late");
    let answer = store
        .create_order(&late, original.created_at + ms(1), |_| Vec::new(), later)
        .await
        .unwrap();
    let Created::New(late_order) = answer else {
        panic!("outside the window the order is new: {answer:?}")
    };
    assert_eq!(late_order.uuid, oid("late"));
    assert_eq!(late_order.created_at, later);
    assert_ne!(late_order.id, original.id);
    assert_eq!(
        store.order_by_uuid(oid("first")).await.unwrap(),
        Some(original),
        "the first order stays"
    );
    // A repeat of the new one finds the new one.
    let mut late_again = input.clone();
    late_again.uuid = oid("late-again");
    let at = later + secs(5);
    let answer = store
        .create_order(&late_again, at - window(), |_| Vec::new(), at)
        .await
        .unwrap();
    assert_eq!(answer, Created::Repeated(late_order.clone()));

    // A paid order is never handed back, even to the same request within the window.
    assert!(
        store
            .mark_order_paid(late_order.id, None, &[], at)
            .await
            .unwrap()
            .paid()
    );
    let mut after_pay = input.clone();
    after_pay.uuid = oid("after-pay");
    let answer = store
        .create_order(&after_pay, at - window(), |_| Vec::new(), at)
        .await
        .unwrap();
    assert!(
        matches!(&answer, Created::New(o) if o.uuid == oid("after-pay")),
        "{answer:?}"
    );
}

async fn simultaneous_repeats_make_one_order(store: Store) {
    let event_id = dated_event(&store, "bkk", "2026-11-30").await;
    let photos = ready_photos(&store, event_id, 3).await;
    let mut set = JoinSet::new();
    for i in 0..8 {
        let store = store.clone();
        let mut input = new_order(event_id, &format!("race-{i}"), &photos);
        input.fingerprint = "fp-race".into();
        let jobs = |id: i64| {
            vec![order_job(
                "deliver",
                "notify",
                json!({ "order_id": id }),
                None,
            )]
        };
        set.spawn(async move {
            store
                .create_order(&input, now() - window(), &jobs, now())
                .await
        });
    }
    let mut answers = Vec::new();
    while let Some(answer) = set.join_next().await {
        answers.push(answer.unwrap().unwrap());
    }
    assert_eq!(answers.len(), 8);
    let new: Vec<&Order> = answers
        .iter()
        .filter_map(|a| match a {
            Created::New(o) => Some(o),
            Created::Repeated(_) | Created::PassTaken => None,
        })
        .collect();
    assert_eq!(new.len(), 1, "exactly one request writes the order");
    let winner = new[0];
    assert!(
        answers
            .iter()
            .all(|a| a.order().map(|o| o.uuid) == Some(winner.uuid)),
        "every answer is the same order: {answers:?}"
    );
    let mut kept = Vec::new();
    for i in 0..8 {
        if let Some(o) = store
            .order_by_uuid(oid(&format!("race-{i}")))
            .await
            .unwrap()
        {
            kept.push(o.id);
        }
    }
    assert_eq!(kept, vec![winner.id]);
    assert_eq!(store.order_photos(winner.id).await.unwrap().len(), 3);
    assert_eq!(
        store.pending_jobs("deliver").await.unwrap(),
        1,
        "only the written order enqueues its jobs"
    );
}

async fn order_jobs_carry_the_order_id(store: Store) {
    let event_id = dated_event(&store, "bkk", "2026-11-30").await;
    let photos = ready_photos(&store, event_id, 1).await;
    let jobs = |id: i64| {
        vec![
            order_job(
                "deliver",
                "build_zip",
                json!({ "size": "original", "order_id": id }),
                Some(&format!("zip:{id}")),
            ),
            order_job("deliver", "notify", json!({ "order_id": id }), None),
        ]
    };
    let first = store
        .create_order(
            &new_order(event_id, "one", &photos),
            now() - window(),
            &jobs,
            now(),
        )
        .await
        .unwrap()
        .order()
        .unwrap()
        .clone();
    assert_eq!(
        claim_all(&store, "deliver").await,
        vec![
            (
                "build_zip".to_owned(),
                json!({ "size": "original", "order_id": first.id })
            ),
            ("notify".to_owned(), json!({ "order_id": first.id })),
        ]
    );
    // The dedupe key names the order: that key is taken, the template itself is not.
    let key = format!("zip:{}", first.id);
    assert_eq!(
        store
            .enqueue(
                &order_job("deliver", "build_zip", json!({}), Some(&key)),
                now()
            )
            .await
            .unwrap(),
        None
    );
    assert!(
        store
            .enqueue(
                &order_job("probe", "build_zip", json!({}), Some("zip:{order}")),
                now()
            )
            .await
            .unwrap()
            .is_some()
    );
    // A second order gets jobs of its own, under its own key.
    let second = store
        .create_order(
            &new_order(event_id, "two", &photos),
            now() - window(),
            &jobs,
            now(),
        )
        .await
        .unwrap()
        .order()
        .unwrap()
        .clone();
    assert_ne!(second.id, first.id);
    assert_eq!(
        claim_all(&store, "deliver").await,
        vec![
            (
                "build_zip".to_owned(),
                json!({ "size": "original", "order_id": second.id })
            ),
            ("notify".to_owned(), json!({ "order_id": second.id })),
        ]
    );

    // Paying enqueues the payment's jobs the same way.
    let paid_jobs = |id: i64| {
        vec![
            order_job(
                "mail",
                "receipt",
                json!({ "lang": "th", "order_id": id }),
                Some(&format!("receipt:{id}")),
            ),
            order_job("mail", "sms", json!({ "order_id": id }), None),
        ]
    };
    assert!(
        store
            .mark_order_paid(
                first.id,
                Some("RC-1"),
                &paid_jobs(first.id),
                now() + secs(5)
            )
            .await
            .unwrap()
            .paid()
    );
    assert_eq!(
        claim_all(&store, "mail").await,
        vec![
            (
                "receipt".to_owned(),
                json!({ "lang": "th", "order_id": first.id })
            ),
            ("sms".to_owned(), json!({ "order_id": first.id })),
        ]
    );
    let key = format!("receipt:{}", first.id);
    assert_eq!(
        store
            .enqueue(&order_job("mail", "receipt", json!({}), Some(&key)), now())
            .await
            .unwrap(),
        None
    );
    assert!(
        store
            .mark_order_paid(
                second.id,
                Some("RC-3"),
                &paid_jobs(second.id),
                now() + secs(6)
            )
            .await
            .unwrap()
            .paid()
    );
    assert_eq!(
        claim_all(&store, "mail").await,
        vec![
            (
                "receipt".to_owned(),
                json!({ "lang": "th", "order_id": second.id })
            ),
            ("sms".to_owned(), json!({ "order_id": second.id })),
        ]
    );
}

async fn order_jobs_share_the_order_transaction(store: Store) {
    poison_jobs(&store).await;
    let event_id = dated_event(&store, "bkk", "2026-11-30").await;
    let photos = ready_photos(&store, event_id, 2).await;
    let input = new_order(event_id, "doomed", &photos);
    let jobs = vec![
        order_job("deliver", "notify", json!({}), None),
        order_job("deliver", "poison", json!({}), None),
    ];
    let res = store
        .create_order(&input, now() - window(), |_| jobs.clone(), now())
        .await;
    assert!(
        res.as_ref()
            .is_err_and(|e| e.to_string().contains("poisoned")),
        "{res:?}"
    );
    assert_eq!(
        store.order_by_uuid(oid("doomed")).await.unwrap(),
        None,
        "no order without its jobs"
    );
    assert_eq!(store.pending_jobs("deliver").await.unwrap(), 0);
    // Nothing of the failed attempt lingers: the same request goes through.
    let created = store
        .create_order(&input, now() - window(), |_| jobs[..1].to_vec(), now())
        .await
        .unwrap();
    let Created::New(order) = created else {
        panic!("the failed attempt left an order behind: {created:?}")
    };
    assert_eq!(store.order_photos(order.id).await.unwrap().len(), 2);
    assert_eq!(store.pending_jobs("deliver").await.unwrap(), 1);

    let paid_jobs = vec![
        order_job("mail", "receipt", json!({}), None),
        order_job("mail", "poison", json!({}), None),
    ];
    let res = store
        .mark_order_paid(order.id, Some("RC-9"), &paid_jobs, now() + secs(1))
        .await;
    assert!(
        res.as_ref()
            .is_err_and(|e| e.to_string().contains("poisoned")),
        "{res:?}"
    );
    let got = stored(&store, order.id).await;
    assert_eq!(
        (got.payment_status, got.paid_at, got.receipt_ref),
        (PaymentStatus::Initial, None, None),
        "not paid without its jobs"
    );
    assert_eq!(store.pending_jobs("mail").await.unwrap(), 0);
    assert!(
        store
            .mark_order_paid(order.id, Some("RC-9"), &paid_jobs[..1], now() + secs(2))
            .await
            .unwrap()
            .paid()
    );
    assert_eq!(store.pending_jobs("mail").await.unwrap(), 1);
}

async fn paying_an_order_counts_once(store: Store) {
    let event_id = dated_event(&store, "bkk", "2026-11-30").await;
    let photos = ready_photos(&store, event_id, 1).await;
    let jobs = vec![order_job("mail", "receipt", json!({}), None)];
    let order = place(&store, &new_order(event_id, "pay-me", &photos), now()).await;
    let paid_at = now() + secs(40);
    assert!(
        store
            .mark_order_paid(order.id, Some("RC-0001"), &jobs, paid_at)
            .await
            .unwrap()
            .paid()
    );
    let got = stored(&store, order.id).await;
    assert_eq!(
        (got.payment_status, got.paid_at, got.receipt_ref.as_deref()),
        (PaymentStatus::Paid, Some(paid_at), Some("RC-0001"))
    );
    assert!(got.is_deliverable());

    // 100 replays, half of them at once, with other receipts and later times: none counts.
    for i in 0..50 {
        let receipt = format!("RC-R{i}");
        let replay = store
            .mark_order_paid(order.id, Some(&receipt), &jobs, paid_at + secs(i + 1))
            .await
            .unwrap()
            .paid();
        assert!(!replay, "replay {i}");
    }
    let mut set = JoinSet::new();
    for i in 50..100 {
        let (store, jobs) = (store.clone(), jobs.clone());
        set.spawn(async move {
            let receipt = format!("RC-R{i}");
            store
                .mark_order_paid(order.id, Some(&receipt), &jobs, paid_at + secs(i + 1))
                .await
        });
    }
    while let Some(replay) = set.join_next().await {
        assert!(!replay.unwrap().unwrap().paid());
    }
    assert_eq!(
        stored(&store, order.id).await,
        got,
        "replays change nothing"
    );
    assert_eq!(store.pending_jobs("mail").await.unwrap(), 1);

    // Confirmations that race (callback and webhook at once): one of them counts.
    let racing = place(&store, &new_order(event_id, "race-pay", &photos), now()).await;
    let mut set = JoinSet::new();
    for i in 0..20 {
        let (store, jobs) = (store.clone(), jobs.clone());
        set.spawn(async move {
            store
                .mark_order_paid(racing.id, Some("RC-RACE"), &jobs, now() + secs(i))
                .await
        });
    }
    let mut counted = 0;
    while let Some(answer) = set.join_next().await {
        counted += usize::from(answer.unwrap().unwrap().paid());
    }
    assert_eq!(counted, 1);
    assert_eq!(status(&store, racing.id).await, PaymentStatus::Paid);
    assert_eq!(store.pending_jobs("mail").await.unwrap(), 2);

    // Without a receipt the order is paid all the same.
    let plain = place(&store, &new_order(event_id, "no-receipt", &photos), now()).await;
    assert!(
        store
            .mark_order_paid(plain.id, None, &[], now() + secs(3))
            .await
            .unwrap()
            .paid()
    );
    let got = stored(&store, plain.id).await;
    assert_eq!(
        (got.payment_status, got.paid_at, got.receipt_ref),
        (PaymentStatus::Paid, Some(now() + secs(3)), None)
    );

    // Money that arrives after the payment window closed still counts.
    let mut input = new_order(event_id, "late-payer", &photos);
    input.expires_at = Some(now() + secs(60));
    let late = place(&store, &input, now()).await;
    assert_eq!(store.expire_orders(now() + secs(120)).await.unwrap(), 1);
    assert_eq!(status(&store, late.id).await, PaymentStatus::Expired);
    let at = now() + secs(180);
    assert!(
        store
            .mark_order_paid(late.id, Some("RC-LATE"), &jobs, at)
            .await
            .unwrap()
            .paid()
    );
    let got = stored(&store, late.id).await;
    assert_eq!(
        (got.payment_status, got.paid_at, got.receipt_ref.as_deref()),
        (PaymentStatus::Paid, Some(at), Some("RC-LATE"))
    );
    assert_eq!(store.pending_jobs("mail").await.unwrap(), 3);

    // A cancelled order stays cancelled.
    let cancelled = place(&store, &new_order(event_id, "cancel-me", &photos), now()).await;
    assert!(
        store
            .end_unpaid_order(cancelled.id, PaymentStatus::Cancelled, now() + secs(1))
            .await
            .unwrap()
    );
    assert!(
        !store
            .mark_order_paid(cancelled.id, Some("RC-NO"), &jobs, now() + secs(2))
            .await
            .unwrap()
            .paid()
    );
    let got = stored(&store, cancelled.id).await;
    assert_eq!(
        (got.payment_status, got.paid_at, got.receipt_ref),
        (PaymentStatus::Cancelled, None, None)
    );

    // A free order was paid on creation: there is nothing to confirm.
    let free = place(&store, &free_order(event_id, "free", &photos), now()).await;
    assert!(
        !store
            .mark_order_paid(free.id, Some("RC-FREE"), &jobs, now() + secs(2))
            .await
            .unwrap()
            .paid()
    );
    assert_eq!(stored(&store, free.id).await, free);
    assert!(
        !store
            .mark_order_paid(free.id + 1_000, None, &jobs, now())
            .await
            .unwrap()
            .paid()
    );
    assert_eq!(
        store.pending_jobs("mail").await.unwrap(),
        3,
        "refused payments enqueue nothing"
    );
}

async fn payment_trail_keeps_each_message_once(store: Store) {
    let event_id = dated_event(&store, "bkk", "2026-11-30").await;
    let photos = ready_photos(&store, event_id, 1).await;
    let order = place(&store, &new_order(event_id, "trail", &photos), now()).await;
    let other = place(&store, &new_order(event_id, "other", &photos), now()).await;
    let t = |n: i64| now() + secs(n);
    let callback = |external_ref| PaymentEvent {
        gateway: "GBP",
        kind: "callback",
        external_ref,
        amount: Some(money(17_227)),
        status: "00",
        payload: "{\"resultCode\":\"00\"}",
    };
    let create_qr = PaymentEvent {
        gateway: "GBP",
        kind: "create_qr",
        external_ref: None,
        amount: Some(money(17_227)),
        status: "created",
        payload: "{\"qrcode\":\"...\"}",
    };
    let record = |order_id: i64, event: PaymentEvent<'static>, at: DateTime<Utc>| {
        let store = store.clone();
        async move {
            store
                .record_payment_event(order_id, &event, at)
                .await
                .unwrap()
        }
    };
    assert!(record(order.id, create_qr.clone(), t(1)).await);
    assert!(record(order.id, callback(Some("TX-1")), t(2)).await);
    assert!(
        !record(order.id, callback(Some("TX-1")), t(3)).await,
        "a replayed callback"
    );
    // The same reference from another kind of message, or from another gateway, is another
    // message.
    let webhook = PaymentEvent {
        kind: "webhook",
        ..callback(Some("TX-1"))
    };
    assert!(record(order.id, webhook.clone(), t(4)).await);
    let opn = PaymentEvent {
        gateway: "OPN",
        status: "successful",
        ..callback(Some("TX-1"))
    };
    assert!(record(order.id, opn.clone(), t(5)).await);
    // A replay is one even when it names another order, and stays out of that trail.
    assert!(!record(other.id, callback(Some("TX-1")), t(6)).await);
    assert!(record(order.id, callback(Some("TX-2")), t(7)).await);
    // Entries without a reference cannot be told apart: every one is kept.
    for i in 0..3 {
        let check = PaymentEvent {
            kind: "status_check",
            external_ref: None,
            amount: None,
            status: "pending",
            payload: "{}",
            ..create_qr.clone()
        };
        assert!(record(order.id, check, t(8 + i)).await, "status check {i}");
    }
    assert!(record(order.id, create_qr.clone(), t(11)).await);

    let trail = store.payment_trail(order.id).await.unwrap();
    assert!(trail.windows(2).all(|w| w[0].id < w[1].id), "oldest first");
    let got: Vec<_> = trail
        .iter()
        .map(|r| {
            (
                r.gateway.as_str(),
                r.kind.as_str(),
                r.external_ref.as_deref(),
                r.amount,
                r.status.as_str(),
                r.payload.as_str(),
                r.created_at,
            )
        })
        .collect();
    let ms_at = |n: i64| t(n).timestamp_millis();
    let qr_payload = "{\"qrcode\":\"...\"}";
    let cb_payload = "{\"resultCode\":\"00\"}";
    assert_eq!(
        got,
        vec![
            (
                "GBP",
                "create_qr",
                None,
                Some(17_227),
                "created",
                qr_payload,
                ms_at(1)
            ),
            (
                "GBP",
                "callback",
                Some("TX-1"),
                Some(17_227),
                "00",
                cb_payload,
                ms_at(2)
            ),
            (
                "GBP",
                "webhook",
                Some("TX-1"),
                Some(17_227),
                "00",
                cb_payload,
                ms_at(4)
            ),
            (
                "OPN",
                "callback",
                Some("TX-1"),
                Some(17_227),
                "successful",
                cb_payload,
                ms_at(5)
            ),
            (
                "GBP",
                "callback",
                Some("TX-2"),
                Some(17_227),
                "00",
                cb_payload,
                ms_at(7)
            ),
            ("GBP", "status_check", None, None, "pending", "{}", ms_at(8)),
            ("GBP", "status_check", None, None, "pending", "{}", ms_at(9)),
            (
                "GBP",
                "status_check",
                None,
                None,
                "pending",
                "{}",
                ms_at(10)
            ),
            (
                "GBP",
                "create_qr",
                None,
                Some(17_227),
                "created",
                qr_payload,
                ms_at(11)
            ),
        ]
    );
    assert_eq!(store.payment_trail(other.id).await.unwrap(), vec![]);
    // Replays racing each other: one is recorded.
    let mut set = JoinSet::new();
    for i in 0..10 {
        set.spawn(record(other.id, callback(Some("TX-RACE")), t(20 + i)));
    }
    let mut recorded = 0;
    while let Some(answer) = set.join_next().await {
        recorded += usize::from(answer.unwrap());
    }
    assert_eq!(recorded, 1);
    assert_eq!(store.payment_trail(other.id).await.unwrap().len(), 1);
}

async fn expiry_touches_only_lapsed_unpaid_orders(store: Store) {
    let event_id = dated_event(&store, "bkk", "2026-11-30").await;
    let photos = ready_photos(&store, event_id, 1).await;
    let sweep = now() + secs(3_600);
    let with_window = |uuid: &str, expires_at: Option<DateTime<Utc>>| NewOrder {
        expires_at,
        ..new_order(event_id, uuid, &photos)
    };
    let lapsed = place(&store, &with_window("lapsed", Some(sweep - ms(1))), now()).await;
    let edge = place(&store, &with_window("edge", Some(sweep)), now()).await;
    let open = place(&store, &with_window("open", Some(sweep + secs(60))), now()).await;
    let unbounded = place(&store, &with_window("unbounded", None), now()).await;
    let free = place(
        &store,
        &NewOrder {
            expires_at: Some(sweep - secs(60)),
            ..free_order(event_id, "free", &photos)
        },
        now(),
    )
    .await;
    let paid = place(&store, &with_window("paid", Some(sweep - secs(60))), now()).await;
    assert!(
        store
            .mark_order_paid(paid.id, Some("RC-1"), &[], now() + secs(10))
            .await
            .unwrap()
            .paid()
    );
    let cancelled = place(
        &store,
        &with_window("cancelled", Some(sweep - secs(60))),
        now(),
    )
    .await;
    assert!(
        store
            .end_unpaid_order(cancelled.id, PaymentStatus::Cancelled, now() + secs(10))
            .await
            .unwrap()
    );

    assert_eq!(store.expire_orders(sweep).await.unwrap(), 1);
    let statuses = async |ids: &[i64]| {
        let mut out = Vec::new();
        for id in ids {
            out.push(status(&store, *id).await);
        }
        out
    };
    let all = [
        lapsed.id,
        edge.id,
        open.id,
        unbounded.id,
        free.id,
        paid.id,
        cancelled.id,
    ];
    use PaymentStatus::{Cancelled, Expired, Initial, Paid};
    assert_eq!(
        statuses(&all).await,
        [Expired, Initial, Initial, Initial, Paid, Paid, Cancelled]
    );
    let got = stored(&store, lapsed.id).await;
    assert_eq!((got.paid_at, got.expires_at), (None, Some(sweep - ms(1))));
    assert_eq!(store.expire_orders(sweep).await.unwrap(), 0, "once");
    // A window closes after its last instant.
    assert_eq!(store.expire_orders(sweep + ms(1)).await.unwrap(), 1);
    assert_eq!(
        statuses(&all).await,
        [Expired, Expired, Initial, Initial, Paid, Paid, Cancelled]
    );
    let far = sweep + chrono::Duration::days(365);
    assert_eq!(store.expire_orders(far).await.unwrap(), 1);
    assert_eq!(
        statuses(&all).await,
        [Expired, Expired, Expired, Initial, Paid, Paid, Cancelled],
        "an order without a window never expires"
    );
}

async fn only_unpaid_orders_can_be_ended(store: Store) {
    let event_id = dated_event(&store, "bkk", "2026-11-30").await;
    let photos = ready_photos(&store, event_id, 1).await;
    let order = |uuid: &'static str| {
        let store = store.clone();
        let input = new_order(event_id, uuid, &photos);
        async move { place(&store, &input, now()).await.id }
    };
    let end = |id: i64, to: PaymentStatus| {
        let store = store.clone();
        async move {
            store
                .end_unpaid_order(id, to, now() + secs(5))
                .await
                .unwrap()
        }
    };
    let to_expire = order("to-expire").await;
    assert!(end(to_expire, PaymentStatus::Expired).await);
    assert_eq!(status(&store, to_expire).await, PaymentStatus::Expired);
    assert!(!end(to_expire, PaymentStatus::Cancelled).await);
    assert!(!end(to_expire, PaymentStatus::Expired).await);
    assert_eq!(status(&store, to_expire).await, PaymentStatus::Expired);

    let to_cancel = order("to-cancel").await;
    assert!(end(to_cancel, PaymentStatus::Cancelled).await);
    assert!(!end(to_cancel, PaymentStatus::Expired).await);
    assert_eq!(status(&store, to_cancel).await, PaymentStatus::Cancelled);

    let paid = order("paid").await;
    assert!(
        store
            .mark_order_paid(paid, Some("RC-1"), &[], now())
            .await
            .unwrap()
            .paid()
    );
    assert!(!end(paid, PaymentStatus::Cancelled).await);
    assert!(!end(paid, PaymentStatus::Expired).await);
    let got = stored(&store, paid).await;
    assert_eq!(
        (got.payment_status, got.paid_at),
        (PaymentStatus::Paid, Some(now()))
    );

    let free = place(&store, &free_order(event_id, "free", &photos), now()).await;
    assert!(!end(free.id, PaymentStatus::Cancelled).await);
    assert_eq!(status(&store, free.id).await, PaymentStatus::Paid);
    assert!(!end(free.id + 1_000, PaymentStatus::Cancelled).await);
}

async fn gateway_checks_are_throttled(store: Store) {
    let event_id = dated_event(&store, "bkk", "2026-11-30").await;
    let photos = ready_photos(&store, event_id, 1).await;
    let order = place(&store, &new_order(event_id, "checked", &photos), now()).await;
    let every = secs(60);
    let claim = |id: i64, at: DateTime<Utc>| {
        let store = store.clone();
        async move { store.claim_order_check(id, at - every, at).await.unwrap() }
    };
    let last_checked = async |id: i64| stored(&store, id).await.last_checked_at;

    let t0 = now() + secs(100);
    assert!(claim(order.id, t0).await, "the first check");
    assert_eq!(last_checked(order.id).await, Some(t0));
    assert!(!claim(order.id, t0 + secs(20)).await, "within the window");
    assert_eq!(last_checked(order.id).await, Some(t0), "unchanged");
    assert!(
        !claim(order.id, t0 + every).await,
        "the window includes its last instant"
    );
    let t1 = t0 + every + ms(1);
    assert!(claim(order.id, t1).await, "after the window");
    assert_eq!(last_checked(order.id).await, Some(t1));
    assert!(!claim(order.id, t1 + secs(1)).await);

    // Each order has a window of its own.
    let other = place(&store, &new_order(event_id, "other", &photos), now()).await;
    assert!(claim(other.id, t1 + secs(1)).await);

    // Checks racing each other: one goes to the gateway.
    let racing = place(&store, &new_order(event_id, "racing", &photos), now()).await;
    let mut set = JoinSet::new();
    for _ in 0..10 {
        set.spawn(claim(racing.id, t0));
    }
    let mut claimed = 0;
    while let Some(answer) = set.join_next().await {
        claimed += usize::from(answer.unwrap());
    }
    assert_eq!(claimed, 1);
    assert!(!claim(racing.id + 1_000, t0).await, "no such order");
}

async fn access_codes_open_once_and_give_out(store: Store) {
    use raceshot_store::access_codes::CodeCheck::{NoCode, Opened, Wrong};
    let event = dated_event(&store, "codes", "2026-11-30").await;
    let photos = ready_photos(&store, event, 1).await;
    let order = place(&store, &new_order(event, "c1", &photos), now()).await;
    let t = |s: i64| now() + secs(s);
    assert_eq!(
        store
            .try_access_code(order.id, "h1", 3, t(1))
            .await
            .unwrap(),
        NoCode,
        "none sent"
    );
    assert_eq!(store.access_code_sent_at(order.id).await.unwrap(), None);

    store
        .put_access_code(order.id, "h1", t(600), t(0))
        .await
        .unwrap();
    assert_eq!(
        store.access_code_sent_at(order.id).await.unwrap(),
        Some(t(0))
    );
    assert_eq!(
        store
            .try_access_code(order.id, "bad", 3, t(1))
            .await
            .unwrap(),
        Wrong
    );
    assert_eq!(
        store
            .try_access_code(order.id, "h1", 3, t(2))
            .await
            .unwrap(),
        Opened
    );
    assert_eq!(
        store
            .try_access_code(order.id, "h1", 3, t(3))
            .await
            .unwrap(),
        NoCode,
        "used up"
    );

    // A new code replaces the old one and starts its tries afresh; three wrong tries void it.
    store
        .put_access_code(order.id, "h2", t(600), t(10))
        .await
        .unwrap();
    store
        .put_access_code(order.id, "h3", t(600), t(11))
        .await
        .unwrap();
    assert_eq!(
        store
            .try_access_code(order.id, "h2", 3, t(12))
            .await
            .unwrap(),
        Wrong
    );
    assert_eq!(
        store
            .try_access_code(order.id, "x", 3, t(13))
            .await
            .unwrap(),
        Wrong
    );
    assert_eq!(
        store
            .try_access_code(order.id, "x", 3, t(14))
            .await
            .unwrap(),
        Wrong
    );
    assert_eq!(
        store
            .try_access_code(order.id, "h3", 3, t(15))
            .await
            .unwrap(),
        NoCode
    );

    // Past its expiry the right code opens nothing.
    store
        .put_access_code(order.id, "h4", t(600), t(20))
        .await
        .unwrap();
    assert_eq!(
        store
            .try_access_code(order.id, "h4", 3, t(600))
            .await
            .unwrap(),
        NoCode
    );
    assert_eq!(store.access_code_sent_at(order.id).await.unwrap(), None);
}

async fn finds_orders_by_mobile_and_receipt(store: Store) {
    let bkk = dated_event(&store, "bkk", "2026-11-30").await;
    let cnx = dated_event(&store, "cnx", "2026-12-01").await;
    let bkk_photos = ready_photos(&store, bkk, 1).await;
    let cnx_photos = ready_photos(&store, cnx, 1).await;
    let o1 = place(&store, &new_order(bkk, "o1", &bkk_photos), now()).await;
    let o2 = place(&store, &new_order(cnx, "o2", &cnx_photos), now() + secs(1)).await;
    let o3 = place(&store, &new_order(bkk, "o3", &bkk_photos), now() + secs(2)).await;
    let mut stranger = new_order(bkk, "x1", &bkk_photos);
    stranger.mobile = "0899999999".into();
    let x1 = place(&store, &stranger, now() + secs(3)).await;

    let found = |o: &Order, status: PaymentStatus| FoundOrder {
        id: o.id,
        uuid: o.uuid,
        mobile: o.mobile.clone(),
        email: o.email.clone(),
        title: o.event_title.clone(),
        status,
        created_at: o.created_at,
    };
    let mine = OrderLookup::Mobile("0812345678");
    use PaymentStatus::{Initial, Paid};
    assert_eq!(
        store.find_orders(mine, 10).await.unwrap(),
        vec![
            found(&o3, Initial),
            found(&o2, Initial),
            found(&o1, Initial)
        ],
        "newest first"
    );
    assert_eq!(
        store.find_orders(mine, 2).await.unwrap(),
        vec![found(&o3, Initial), found(&o2, Initial)]
    );
    assert_eq!(
        store
            .find_orders(OrderLookup::Mobile("0899999999"), 10)
            .await
            .unwrap(),
        vec![found(&x1, Initial)]
    );
    assert_eq!(
        store
            .find_orders(OrderLookup::Mobile("0800000000"), 10)
            .await
            .unwrap(),
        vec![]
    );

    for (order, receipt) in [(&o1, "RCPT-0001"), (&o3, "RCPT-0003")] {
        assert!(
            store
                .mark_order_paid(order.id, Some(receipt), &[], now() + secs(10))
                .await
                .unwrap()
                .paid()
        );
    }
    assert_eq!(
        store.find_orders(mine, 10).await.unwrap(),
        vec![found(&o3, Paid), found(&o2, Initial), found(&o1, Paid)]
    );
    assert_eq!(
        store
            .find_orders(OrderLookup::Receipt("RCPT-0001"), 10)
            .await
            .unwrap(),
        vec![found(&o1, Paid)]
    );
    assert_eq!(o1.event_title, "งานวิ่ง bkk");
    assert_eq!(o2.event_title, "งานวิ่ง cnx");
    assert_eq!(
        store
            .find_orders(OrderLookup::Receipt("RCPT-9999"), 10)
            .await
            .unwrap(),
        vec![]
    );
    // A receipt is not a mobile number, nor the other way round.
    assert_eq!(
        store
            .find_orders(OrderLookup::Receipt("0812345678"), 10)
            .await
            .unwrap(),
        vec![]
    );
    assert_eq!(
        store
            .find_orders(OrderLookup::Mobile("RCPT-0001"), 10)
            .await
            .unwrap(),
        vec![]
    );
}

async fn the_last_paid_deal_order_is_found(store: Store) {
    let bkk = dated_event(&store, "bkk", "2026-11-30").await;
    let cnx = dated_event(&store, "cnx", "2026-12-01").await;
    let bkk_photos = ready_photos(&store, bkk, 1).await;
    let cnx_photos = ready_photos(&store, cnx, 1).await;
    let mobile = "0812345678";
    assert_eq!(store.last_paid_deal_order(bkk, mobile).await.unwrap(), None);

    let mut step = 0;
    let mut write = async |event_id: i64, uuid: &str, deal: bool, pay: bool, mobile: &str| {
        step += 1;
        let photos = if event_id == bkk {
            &bkk_photos
        } else {
            &cnx_photos
        };
        let input = NewOrder {
            deal,
            mobile: mobile.into(),
            ..new_order(event_id, uuid, photos)
        };
        let order = place(&store, &input, now() + secs(step)).await;
        if pay {
            assert!(
                store
                    .mark_order_paid(order.id, None, &[], now() + secs(step))
                    .await
                    .unwrap()
                    .paid()
            );
        }
    };
    write(bkk, "deal-1", true, true, mobile).await;
    write(bkk, "deal-2", true, true, mobile).await;
    write(bkk, "deal-unpaid", true, false, mobile).await;
    write(bkk, "single-paid", false, true, mobile).await;
    write(cnx, "deal-cnx", true, true, mobile).await;
    write(bkk, "deal-stranger", true, true, "0899999999").await;

    assert_eq!(
        store.last_paid_deal_order(bkk, mobile).await.unwrap(),
        Some(oid("deal-2"))
    );
    assert_eq!(
        store.last_paid_deal_order(cnx, mobile).await.unwrap(),
        Some(oid("deal-cnx"))
    );
    assert_eq!(
        store.last_paid_deal_order(bkk, "0899999999").await.unwrap(),
        Some(oid("deal-stranger"))
    );
    assert_eq!(
        store.last_paid_deal_order(bkk, "0800000000").await.unwrap(),
        None
    );
    // A free all-photos order counts: it is paid.
    let free = place(
        &store,
        &free_order(bkk, "deal-free", &bkk_photos),
        now() + secs(60),
    )
    .await;
    assert_eq!(
        store.last_paid_deal_order(bkk, mobile).await.unwrap(),
        Some(free.uuid)
    );
}

async fn delivery_flags_are_set_one_by_one(store: Store) {
    let event_id = dated_event(&store, "bkk", "2026-11-30").await;
    let photos = ready_photos(&store, event_id, 1).await;
    let flags_of = |o: &Order| {
        [
            o.is_original_image_created,
            o.is_logo_image_created,
            o.is_send_sms,
            o.is_send_email,
        ]
    };
    let flags = [
        DeliveryFlag::OriginalImages,
        DeliveryFlag::LogoImages,
        DeliveryFlag::Sms,
        DeliveryFlag::Email,
    ];
    // Each flag on an order of its own: it sets that flag and no other.
    for (i, flag) in flags.into_iter().enumerate() {
        let order = place(
            &store,
            &new_order(event_id, &format!("one-{i}"), &photos),
            now(),
        )
        .await;
        store
            .set_delivery_flag(order.id, flag, now() + secs(1))
            .await
            .unwrap();
        let got = stored(&store, order.id).await;
        let want: Vec<bool> = (0..4).map(|j| j == i).collect();
        assert_eq!(flags_of(&got).to_vec(), want, "{flag:?}");
        assert_eq!(
            Order {
                is_original_image_created: false,
                is_logo_image_created: false,
                frame: None,
                is_frame_image_created: false,
                is_send_sms: false,
                is_send_email: false,
                ..got
            },
            order,
            "{flag:?} changes nothing else"
        );
    }
    // All of them on one order, one after the other; setting one again is harmless.
    let order = place(&store, &new_order(event_id, "all", &photos), now()).await;
    for (i, flag) in flags.into_iter().enumerate() {
        store
            .set_delivery_flag(order.id, flag, now() + secs(1))
            .await
            .unwrap();
        let want: Vec<bool> = (0..4).map(|j| j <= i).collect();
        assert_eq!(
            flags_of(&stored(&store, order.id).await).to_vec(),
            want,
            "{flag:?}"
        );
    }
    store
        .set_delivery_flag(order.id, DeliveryFlag::Sms, now() + secs(2))
        .await
        .unwrap();
    assert_eq!(flags_of(&stored(&store, order.id).await), [true; 4]);
}

async fn retention_lists_photos_of_old_events(store: Store) {
    let old = dated_event(&store, "old", "2026-01-10").await;
    let edge = dated_event(&store, "edge", "2026-02-01").await;
    let recent = dated_event(&store, "recent", "2026-03-01").await;
    let old_photos = ready_photos(&store, old, 3).await;
    let edge_photos = ready_photos(&store, edge, 1).await;
    let recent_photos = ready_photos(&store, recent, 1).await;
    let entry = |id: i64, key: &str, event_id: i64, i: usize| {
        (
            id,
            EventKey::parse(key).unwrap(),
            StoredName::parse(&format!("s{event_id}-{i}.jpg")).unwrap(),
        )
    };
    let old_entries: Vec<_> = old_photos
        .iter()
        .enumerate()
        .map(|(i, &id)| entry(id, "old", old, i))
        .collect();
    let cutoff = "2026-02-01";
    assert_eq!(
        store.photos_past_retention(cutoff, 100).await.unwrap(),
        old_entries,
        "only events dated before the cutoff"
    );
    assert_eq!(
        store.photos_past_retention(cutoff, 2).await.unwrap(),
        old_entries[..2]
    );
    assert_eq!(
        store
            .photos_past_retention("2026-01-10", 100)
            .await
            .unwrap(),
        vec![]
    );

    let order = place(
        &store,
        &new_order(old, "kept", &[old_photos[1], old_photos[0]]),
        now(),
    )
    .await;
    store
        .mark_original_purged(old_photos[0], now())
        .await
        .unwrap();
    assert_eq!(
        store.photos_past_retention(cutoff, 100).await.unwrap(),
        old_entries[1..]
    );
    let purged: Vec<(i64, bool)> = store
        .order_photos(order.id)
        .await
        .unwrap()
        .iter()
        .map(|p| (p.id, p.original_purged))
        .collect();
    assert_eq!(purged, vec![(old_photos[1], false), (old_photos[0], true)]);
    // Purging again changes nothing.
    store
        .mark_original_purged(old_photos[0], now() + secs(1))
        .await
        .unwrap();
    assert_eq!(
        store.photos_past_retention(cutoff, 100).await.unwrap(),
        old_entries[1..]
    );
    for &id in &old_photos[1..] {
        store.mark_original_purged(id, now()).await.unwrap();
    }
    assert_eq!(
        store.photos_past_retention(cutoff, 100).await.unwrap(),
        vec![]
    );
    // A later cutoff reaches the later events.
    assert_eq!(
        store
            .photos_past_retention("2026-03-02", 100)
            .await
            .unwrap(),
        vec![
            entry(edge_photos[0], "edge", edge, 0),
            entry(recent_photos[0], "recent", recent, 0)
        ]
    );
    assert!(
        store
            .order_photos(order.id)
            .await
            .unwrap()
            .iter()
            .all(|p| p.original_purged)
    );
}

async fn bibs_are_read_corrected_and_searched(store: Store) {
    use raceshot_domain::BibRule;
    use raceshot_store::bibs::{BibSource, NewBib};
    use raceshot_store::photos::{FaceSet, PhotoFilter, ProcessedPhoto};

    let mut spec = event("bibs", "2026-12-01", "2026-12-31");
    spec.bib_rule = BibRule::new(2, 5, "a").unwrap();
    let event_id = store.write_events(&[spec], now()).await.unwrap()[0].id();
    // The rule comes back as written.
    let back = store.any_event_by_key(&key("bibs")).await.unwrap().unwrap();
    assert_eq!(back.spec.bib_rule, BibRule::new(2, 5, "A").unwrap());

    let ids = ready_photos(&store, event_id, 4).await;
    let rule = BibRule::new(2, 5, "A").unwrap();
    let read = |text: &str, confidence: f64, x: f64| NewBib {
        bib: rule.parse(text).unwrap(),
        confidence,
        bbox: [x, 300.0, x + 80.0, 340.0],
    };
    // Photo 0: processed with faces, bibs and a time; the repeated read keeps its best.
    let processed = ProcessedPhoto {
        size: (3000, 2000),
        faces: FaceSet {
            pair: "insightface".into(),
            faces: Vec::new(),
        },
        next_faces: None,
        bibs: vec![
            read("0042", 0.91, 10.0),
            read("42", 0.97, 20.0),
            read("A77", 0.9, 500.0),
        ],
        taken_at: Some(at("2026-12-06T00:10:00Z")),
        held_for: Vec::new(),
    };
    store
        .save_processed_photo(ids[0], event_id, &processed, now())
        .await
        .unwrap();
    store
        .replace_photo_bibs(ids[1], event_id, &[read("42", 0.85, 40.0)])
        .await
        .unwrap();
    let b42 = rule.parse("42").unwrap();
    let hits = store.photos_with_bib(event_id, &b42).await.unwrap();
    assert_eq!(
        hits.iter()
            .map(|h| (h.photo_id, h.bbox))
            .collect::<Vec<_>>(),
        vec![
            (ids[0], Some([20.0, 300.0, 100.0, 340.0])),
            (ids[1], Some([40.0, 300.0, 120.0, 340.0])),
        ]
    );

    // An operator takes 42 off photo 1 and puts it on photo 2; reading photo 1 again
    // finds 42 again, and the correction still wins.
    store
        .correct_bib(ids[1], event_id, &b42, false, "operator:a@b", now())
        .await
        .unwrap();
    store
        .correct_bib(ids[2], event_id, &b42, true, "operator:a@b", now())
        .await
        .unwrap();
    store
        .replace_photo_bibs(ids[1], event_id, &[read("42", 0.99, 40.0)])
        .await
        .unwrap();
    let hits = store.photos_with_bib(event_id, &b42).await.unwrap();
    assert_eq!(
        hits.iter()
            .map(|h| (h.photo_id, h.bbox.is_some()))
            .collect::<Vec<_>>(),
        vec![(ids[0], true), (ids[2], false)]
    );
    let listed = store.bibs_of_photos(&ids).await.unwrap();
    let sources: Vec<(i64, &str, BibSource)> = listed
        .iter()
        .map(|b| (b.photo_id, b.bib.as_str(), b.source))
        .collect();
    assert_eq!(
        sources,
        vec![
            (ids[0], "42", BibSource::Read),
            (ids[0], "A77", BibSource::Read),
            (ids[1], "42", BibSource::Removed),
            (ids[2], "42", BibSource::Added),
        ]
    );
    // A hidden photo drops out of bib search.
    store
        .set_photo_flags(ids[0], Some(true), None, now())
        .await
        .unwrap();
    let hits = store.photos_with_bib(event_id, &b42).await.unwrap();
    assert_eq!(
        hits.iter().map(|h| h.photo_id).collect::<Vec<_>>(),
        vec![ids[2]]
    );
    store
        .set_photo_flags(ids[0], Some(false), None, now())
        .await
        .unwrap();
    assert_eq!(store.bib_read_counts(event_id).await.unwrap(), (2, 3));

    // The manual page: in the order taken, untimed photos last; filters narrow it.
    let page = |filter: PhotoFilter| {
        let store = store.clone();
        async move {
            let (photos, total) = store
                .event_photo_page(event_id, filter, 0, 10)
                .await
                .unwrap();
            (photos.iter().map(|p| p.id).collect::<Vec<_>>(), total)
        }
    };
    let all = page(PhotoFilter::default()).await;
    assert_eq!(all, (vec![ids[0], ids[1], ids[2], ids[3]], 4));
    store
        .set_photo_flags(ids[3], Some(true), None, now())
        .await
        .unwrap();
    let by_photographer = page(PhotoFilter {
        photographer_id: Some(11),
        ..PhotoFilter::default()
    })
    .await;
    assert_eq!(by_photographer, (vec![ids[1]], 1));
    let window = page(PhotoFilter {
        taken_from: Some(at("2026-12-06T00:00:00Z").timestamp_millis()),
        taken_until: Some(at("2026-12-06T01:00:00Z").timestamp_millis()),
        ..PhotoFilter::default()
    })
    .await;
    assert_eq!(window, (vec![ids[0]], 1));
    let (_, second) = store
        .event_photo_page(event_id, PhotoFilter::default(), 1, 1)
        .await
        .unwrap();
    assert_eq!(second, 3, "the hidden photo is not counted");
    assert_eq!(
        store.event_photographers(event_id).await.unwrap(),
        vec![(10, 1), (11, 1), (12, 1)]
    );
}

async fn privacy_templates_live_as_long_as_stated(store: Store) {
    use raceshot_store::privacy::{Decided, Filed, NewPrivacyRequest, PrivacyState};

    let event_id = dated_event(&store, "hide", "2026-11-01").await;
    let ids = ready_photos(&store, event_id, 3).await;
    // A face is a template of 16 equal bytes; two templates are the same face when equal.
    let new = |id: &str, contact: &str, face: u8| NewPrivacyRequest {
        id: id.into(),
        event_id,
        contact: contact.into(),
        embedding: vec![face; 16],
        model_pair: "insightface".into(),
        face_crop: Some(format!("{id}.jpg")),
        client: "c".into(),
    };
    let file = |r: NewPrivacyRequest| {
        let store = store.clone();
        async move {
            let face = r.embedding.clone();
            store
                .file_privacy_request(&r, |t| t == face.as_slice(), now())
                .await
                .unwrap()
        }
    };
    assert_eq!(file(new("a", "0811111111", 7)).await, Filed::New);
    // One open request per face and event, whoever files it.
    assert_eq!(file(new("b", "0811111111", 7)).await, Filed::Exists);
    assert_eq!(file(new("b", "x@y.co", 7)).await, Filed::Exists);
    // One contact may file for several faces.
    assert_eq!(file(new("c", "0811111111", 8)).await, Filed::New);
    let a = store.privacy_request("a").await.unwrap().unwrap();
    assert_eq!(a.face_crop.as_deref(), Some("a.jpg"));
    // Eight requests for one new face at once: one is filed.
    let mut set = JoinSet::new();
    for i in 0..8 {
        set.spawn(file(new(
            &format!("race-{i}"),
            &format!("08100000{i:02}"),
            9,
        )));
    }
    let mut filed = 0;
    while let Some(answer) = set.join_next().await {
        filed += usize::from(answer.unwrap() == Filed::New);
    }
    assert_eq!(filed, 1, "exactly one request for the face is filed");

    // Approving holds and hides the photos named; a second decision changes nothing.
    let approved = store
        .approve_privacy_request("a", &ids[..2], "operator:o", now())
        .await
        .unwrap();
    assert_eq!(approved, Decided::Now(ids[..2].to_vec()));
    assert_eq!(
        store
            .reject_privacy_request("a", "operator:o", now())
            .await
            .unwrap(),
        Decided::Already(PrivacyState::Approved)
    );
    assert!(store.photo_privacy_held(ids[0]).await.unwrap());
    assert!(!store.photo_privacy_held(ids[2]).await.unwrap());
    assert!(
        store
            .shown_photos(event_id, &ids)
            .await
            .unwrap()
            .iter()
            .all(|p| p.id == ids[2])
    );
    assert_eq!(
        store.privacy_held_photos("a").await.unwrap(),
        ids[..2].to_vec()
    );
    // An approved request holds its face: a new request for it is refused.
    assert_eq!(file(new("d", "z@y.co", 7)).await, Filed::Exists);

    // Rejecting clears the template at once; an approved one keeps it for later photos.
    store
        .reject_privacy_request("c", "operator:o", now())
        .await
        .unwrap();
    let c = store.privacy_request("c").await.unwrap().unwrap();
    assert_eq!((c.state, c.embedding), (PrivacyState::Rejected, None));
    // A rejected request holds nothing: its face may be asked for again.
    assert_eq!(file(new("e", "x@y.co", 8)).await, Filed::New);

    // Face crops: those of decided requests are due at once (the server deletes them at
    // the decision; these are what a failed deletion left); the undecided ones' with
    // their event's originals. A crop is forgotten once deleted, by its name only.
    let due = |cutoff: &'static str| {
        let store = store.clone();
        async move {
            let mut ids: Vec<String> = store
                .privacy_face_crops_due(cutoff, 100)
                .await
                .unwrap()
                .into_iter()
                .map(|(id, name)| {
                    assert_eq!(name, format!("{id}.jpg"));
                    id
                })
                .collect();
            ids.sort();
            ids
        }
    };
    assert_eq!(due("2026-11-01").await, ["a", "c"]);
    store
        .clear_privacy_face_crop("a", "other.jpg")
        .await
        .unwrap();
    assert_eq!(due("2026-11-01").await, ["a", "c"]);
    store.clear_privacy_face_crop("a", "a.jpg").await.unwrap();
    store.clear_privacy_face_crop("c", "c.jpg").await.unwrap();
    assert!(due("2026-11-01").await.is_empty());
    assert_eq!(
        store.privacy_request("a").await.unwrap().unwrap().face_crop,
        None
    );
    let undecided = due("2026-11-02").await;
    assert_eq!(undecided.len(), 2, "{undecided:?}");
    assert!(undecided.contains(&"e".to_owned()));
    assert_eq!(
        store
            .privacy_face_crops_due("2026-11-02", 1)
            .await
            .unwrap()
            .len(),
        1
    );
    // A pending request whose crop could not be written is withdrawn; a decided one stays.
    assert!(store.withdraw_privacy_request("e").await.unwrap());
    assert!(store.privacy_request("e").await.unwrap().is_none());
    assert!(!store.withdraw_privacy_request("a").await.unwrap());
    assert!(!store.withdraw_privacy_request("c").await.unwrap());
    assert_eq!(
        store
            .privacy_templates(event_id, "insightface")
            .await
            .unwrap(),
        vec![("a".to_owned(), vec![7; 16])]
    );
    // Until the event's originals go: retention clears it, and the photos stay hidden.
    assert_eq!(
        store
            .clear_privacy_templates_before("2026-11-01")
            .await
            .unwrap(),
        0
    );
    // (The approved request's, and the one still pending: nobody decided it in time.)
    assert_eq!(
        store
            .clear_privacy_templates_before("2026-11-02")
            .await
            .unwrap(),
        2
    );
    assert!(
        store
            .privacy_templates(event_id, "insightface")
            .await
            .unwrap()
            .is_empty()
    );
    assert!(store.photo_privacy_held(ids[1]).await.unwrap());
    let a = store.privacy_request("a").await.unwrap().unwrap();
    assert_eq!(
        (a.state, a.held, a.embedding),
        (PrivacyState::Approved, 2, None)
    );
    assert_eq!(
        store
            .privacy_requests(Some(PrivacyState::Pending), 10)
            .await
            .unwrap()
            .len(),
        1,
        "the one request of the eight filed at once"
    );
    let pending = store
        .privacy_requests(Some(PrivacyState::Pending), 10)
        .await
        .unwrap();
    assert_eq!(
        pending[0].embedding, None,
        "cleared with its event's originals"
    );
}

async fn what_searches_found_lasts_as_long_as_stated(store: Store) {
    let event_id = dated_event(&store, "found", "2026-11-01").await;
    let other = dated_event(&store, "elsewhere", "2026-11-01").await;
    let ids = ready_photos(&store, event_id, 3).await;
    store
        .remember_found("h1", event_id, &ids[..2], now() + secs(60), now())
        .await
        .unwrap();
    store
        .remember_found("h2", event_id, &ids[1..], now() + secs(10), now())
        .await
        .unwrap();
    let both = ["h1".to_owned(), "h2".to_owned(), "unknown".to_owned()];
    let mut found = store.found_photos(event_id, &both, now()).await.unwrap();
    found.sort_unstable();
    assert_eq!(found, [ids[0], ids[1], ids[1], ids[2]]);
    // Another event's search covers nothing here, nor a lapsed one.
    assert!(
        store
            .found_photos(other, &both, now())
            .await
            .unwrap()
            .is_empty()
    );
    let later = store
        .found_photos(event_id, &both, now() + secs(10))
        .await
        .unwrap();
    assert_eq!(later, ids[..2]);
    // The sweep deletes exactly what lapsed.
    assert_eq!(
        store.forget_finds_before(now() + secs(10)).await.unwrap(),
        1
    );
    assert_eq!(
        store.forget_finds_before(now() + secs(61)).await.unwrap(),
        1
    );
    assert!(
        store
            .found_photos(event_id, &both, now())
            .await
            .unwrap()
            .is_empty()
    );
}

async fn a_held_photo_is_never_paid_for(store: Store) {
    use raceshot_domain::EndReason;
    use raceshot_store::orders::MarkedPaid;
    use raceshot_store::privacy::NewPrivacyRequest;

    let event_id = dated_event(&store, "held", "2026-11-01").await;
    let ids = ready_photos(&store, event_id, 3).await;
    let unpaid = place(
        &store,
        &new_order(event_id, "held-unpaid", &ids[..2]),
        now(),
    )
    .await;
    let paid = place(&store, &new_order(event_id, "held-paid", &ids[..1]), now()).await;
    let other = place(&store, &new_order(event_id, "held-other", &ids[2..]), now()).await;
    assert!(
        store
            .mark_order_paid(paid.id, Some("RC-1"), &[], now())
            .await
            .unwrap()
            .paid()
    );
    let request = NewPrivacyRequest {
        id: "hold-1".into(),
        event_id,
        contact: "0811111111".into(),
        embedding: vec![7; 16],
        model_pair: "insightface".into(),
        face_crop: None,
        client: "c".into(),
    };
    store
        .file_privacy_request(&request, |_| false, now())
        .await
        .unwrap();
    store
        .approve_privacy_request("hold-1", &ids[..1], "operator:1", now() + secs(1))
        .await
        .unwrap();

    // The unpaid order holding the photo is cancelled with the reason; the paid one and
    // an order of other photos are untouched.
    let got = stored(&store, unpaid.id).await;
    assert_eq!(
        (got.payment_status, got.end_reason),
        (PaymentStatus::Cancelled, Some(EndReason::PhotoWithdrawn))
    );
    assert_eq!(status(&store, paid.id).await, PaymentStatus::Paid);
    assert_eq!(status(&store, other.id).await, PaymentStatus::Initial);
    let photos = store.order_photos(unpaid.id).await.unwrap();
    assert_eq!(
        photos.iter().map(|p| (p.id, p.held)).collect::<Vec<_>>(),
        [(ids[0], true), (ids[1], false)]
    );

    // An order that raced the hold (unpaid again here) is cancelled, not paid, when its
    // money comes; the money is noted as owed back, once.
    store
        .execute_raw(&format!(
            "UPDATE orders SET payment_status = 'INITIAL', end_reason = NULL WHERE id = {}",
            unpaid.id
        ))
        .await
        .unwrap();
    let jobs = vec![order_job("mail", "receipt", json!({}), None)];
    assert_eq!(
        store
            .mark_order_paid(unpaid.id, Some("RC-2"), &jobs, now() + secs(2))
            .await
            .unwrap(),
        MarkedPaid::Withdrawn
    );
    assert_eq!(store.pending_jobs("mail").await.unwrap(), 0);
    for _ in 0..2 {
        store
            .note_refund_due(unpaid.id, money(17_227), now() + secs(3))
            .await
            .unwrap();
    }
    let got = stored(&store, unpaid.id).await;
    assert_eq!(
        (got.payment_status, got.refund_due, got.receipt_ref),
        (PaymentStatus::Cancelled, Some(money(17_227)), None)
    );
    // A refund is noted only on a cancelled order.
    store
        .note_refund_due(other.id, money(100), now())
        .await
        .unwrap();
    assert_eq!(stored(&store, other.id).await.refund_due, None);
}

async fn selfie_uploads_serve_their_own_client_and_event(store: Store) {
    use raceshot_store::selfies::Taken;

    let lapse = now() + secs(60);
    assert!(
        store
            .reserve_selfie_upload("s1", "client-a", 7, 3, lapse, now())
            .await
            .unwrap()
    );
    // Another client, or the right client for another event: not theirs, left alone.
    for (client, event) in [("client-b", 7), ("client-a", 8)] {
        assert_eq!(
            store
                .take_selfie_upload("s1", client, event, now())
                .await
                .unwrap(),
            Taken::NotYours
        );
    }
    assert_eq!(
        store
            .take_selfie_upload("s1", "client-a", 7, now())
            .await
            .unwrap(),
        Taken::Yes
    );
    // Once only; unknown addresses are gone.
    for id in ["s1", "never"] {
        assert_eq!(
            store
                .take_selfie_upload(id, "client-a", 7, now())
                .await
                .unwrap(),
            Taken::Gone
        );
    }
    // A refused upload spends its address.
    store
        .reserve_selfie_upload("s2", "client-a", 7, 3, lapse, now())
        .await
        .unwrap();
    assert!(store.spend_selfie_upload("s2", now()).await.unwrap());
    assert!(!store.spend_selfie_upload("s2", now()).await.unwrap());
    assert_eq!(
        store
            .take_selfie_upload("s2", "client-a", 7, now())
            .await
            .unwrap(),
        Taken::Gone
    );
}

async fn upload_tokens_sign_in_their_account_until_revoked(store: Store) {
    use raceshot_store::operators::Role;
    use raceshot_store::upload_tokens::{NewUploadToken, TokenScope};
    let account = |email: &'static str, role| {
        let store = store.clone();
        async move {
            store
                .create_operator(email, "hash", role, now())
                .await
                .unwrap()
                .unwrap()
        }
    };
    let (ann, boss) = (
        account("ann@example.com", Role::Photographer).await,
        account("boss@example.com", Role::Admin).await,
    );
    let new = |operator_id, token_hash, label| NewUploadToken {
        operator_id,
        token_hash,
        label,
        hint: "x9Zq",
    };
    let camera = store
        .create_upload_token(&new(ann, "hash-camera", "Nikon Z6"), now())
        .await
        .unwrap();
    assert_eq!(
        (
            camera.operator_email.as_str(),
            camera.label.as_str(),
            camera.hint.as_str()
        ),
        ("ann@example.com", "Nikon Z6", "x9Zq")
    );
    assert_eq!(
        (camera.created_at, camera.last_used_at, camera.revoked_at),
        (now(), None, None)
    );
    let laptop = store
        .create_upload_token(&new(boss, "hash-laptop", "laptop"), now())
        .await
        .unwrap();

    // Scopes: a photographer sees her own; an admin, everyone's, newest first.
    let ids = |tokens: Vec<raceshot_store::upload_tokens::UploadToken>| {
        tokens.into_iter().map(|t| t.id).collect::<Vec<_>>()
    };
    assert_eq!(
        ids(store
            .upload_tokens(TokenScope::Operator(ann))
            .await
            .unwrap()),
        [camera.id]
    );
    assert_eq!(
        ids(store.upload_tokens(TokenScope::All).await.unwrap()),
        [laptop.id, camera.id]
    );

    // A use signs the account in and is recorded, at most once a minute.
    let (token_id, operator) = store
        .upload_token_operator("hash-camera", now())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (token_id, operator.id, operator.role),
        (camera.id, ann, Role::Photographer)
    );
    let used = |store: Store| async move {
        store
            .upload_tokens(TokenScope::Operator(ann))
            .await
            .unwrap()[0]
            .last_used_at
    };
    assert_eq!(used(store.clone()).await, Some(now()));
    store
        .upload_token_operator("hash-camera", now() + ms(30_000))
        .await
        .unwrap();
    assert_eq!(used(store.clone()).await, Some(now()), "within the minute");
    store
        .upload_token_operator("hash-camera", now() + ms(61_000))
        .await
        .unwrap();
    assert_eq!(used(store.clone()).await, Some(now() + ms(61_000)));
    assert!(
        store
            .upload_token_operator("hash-unknown", now())
            .await
            .unwrap()
            .is_none()
    );

    // A photographer cannot revoke another account's token; a revoked one signs in nobody
    // and stays listed, once.
    assert!(
        !store
            .revoke_upload_token(laptop.id, TokenScope::Operator(ann), now())
            .await
            .unwrap()
    );
    assert!(
        store
            .revoke_upload_token(camera.id, TokenScope::Operator(ann), now())
            .await
            .unwrap()
    );
    assert!(
        !store
            .revoke_upload_token(camera.id, TokenScope::All, now())
            .await
            .unwrap()
    );
    assert!(
        store
            .upload_token_operator("hash-camera", now())
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(
        store
            .upload_tokens(TokenScope::Operator(ann))
            .await
            .unwrap()[0]
            .revoked_at,
        Some(now())
    );
    assert!(
        store
            .upload_token_operator("hash-laptop", now())
            .await
            .unwrap()
            .is_some()
    );
}

async fn a_message_is_sent_once_under_its_key(store: Store) {
    use raceshot_store::messages::{MessageState, NewMessage};
    let new = |key: &'static str, retry: &'static str| NewMessage {
        dedupe_key: key,
        channel: "line",
        kind: "order_ready",
        retry_key: retry,
    };
    let first = store
        .outbox_entry(&new("order_ready:1:line", "r-1"), now())
        .await
        .unwrap();
    assert_eq!(first.state, MessageState::Sending);
    // Asked again (a retry): the same row, with its first retry key.
    let again = store
        .outbox_entry(&new("order_ready:1:line", "r-2"), now())
        .await
        .unwrap();
    assert_eq!((again.id, again.retry_key.as_str()), (first.id, "r-1"));
    assert!(
        store
            .finish_message(first.id, MessageState::Sent, None, now() + secs(1))
            .await
            .unwrap()
    );
    // The first outcome stays.
    assert!(
        !store
            .finish_message(first.id, MessageState::Failed, Some("x"), now() + secs(2))
            .await
            .unwrap()
    );
    let done = store
        .outbox_entry(&new("order_ready:1:line", "r-3"), now())
        .await
        .unwrap();
    assert_eq!(done.state, MessageState::Sent);

    let other = store
        .outbox_entry(&new("order_ready:2:line", "r-4"), now())
        .await
        .unwrap();
    store
        .finish_message(other.id, MessageState::Capped, None, now())
        .await
        .unwrap();
    assert_eq!(store.messages_sent_since("line", now()).await.unwrap(), 1);
    assert_eq!(
        store
            .messages_sent_since("line", now() + secs(2))
            .await
            .unwrap(),
        0
    );
    assert_eq!(store.messages_sent_since("sms", now()).await.unwrap(), 0);
    let counts = store.message_counts(now() - secs(60)).await.unwrap();
    let states: Vec<_> = counts.iter().map(|c| (c.state, c.count)).collect();
    assert_eq!(states, [(MessageState::Capped, 1), (MessageState::Sent, 1)]);
    // Kept 30 days by the retention run.
    assert_eq!(store.purge_messages_before(now()).await.unwrap(), 0);
    assert_eq!(
        store.purge_messages_before(now() + secs(1)).await.unwrap(),
        2
    );
}

async fn line_logins_are_taken_once_and_links_end_with_retention(store: Store) {
    use raceshot_store::messages::{LineLogin, LoginFor};
    let event = dated_event(&store, "line", "2026-11-30").await;
    let photos = ready_photos(&store, event, 1).await;
    let order = place(&store, &new_order(event, "l1", &photos), now()).await;
    let login = LineLogin {
        target: LoginFor::Order(order.id),
        nonce: "n".to_owned(),
        verifier: "v".to_owned(),
        expires_at: now() + secs(600),
    };
    store.put_line_login("s1", &login).await.unwrap();
    store.put_line_login("s2", &login).await.unwrap();
    assert_eq!(
        store.take_line_login("s1", now()).await.unwrap(),
        Some(login.clone())
    );
    // Once only.
    assert_eq!(store.take_line_login("s1", now()).await.unwrap(), None);
    // Not after its ten minutes.
    assert_eq!(
        store
            .take_line_login("s2", now() + secs(600))
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        store.take_line_login("s2", now()).await.unwrap(),
        None,
        "deleted when expired"
    );

    assert_eq!(store.line_user_of_order(order.id).await.unwrap(), None);
    store.link_line(order.id, "U1", now()).await.unwrap();
    store.link_line(order.id, "U2", now()).await.unwrap();
    assert_eq!(
        store.line_user_of_order(order.id).await.unwrap().as_deref(),
        Some("U2")
    );
    // Kept while the event's files are: its date is 2026-11-30.
    assert_eq!(
        store.forget_line_links_before("2026-11-30").await.unwrap(),
        0
    );
    assert_eq!(
        store.forget_line_links_before("2026-12-01").await.unwrap(),
        1
    );
    assert_eq!(store.line_user_of_order(order.id).await.unwrap(), None);
}

async fn alerts_live_as_long_as_stated_and_tell_at_most_once_a_gap(store: Store) {
    use raceshot_store::alerts::{AlertChannel, AlertMatch, AlertState, NewAlert};
    use raceshot_store::messages::{LineLogin, LoginFor};
    let event = dated_event(&store, "alerts", "2026-11-30").await;
    let photos = ready_photos(&store, event, 4).await;
    let ask = |public_id: &str, channel: AlertChannel| NewAlert {
        public_id: public_id.to_owned(),
        event_id: event,
        channel,
        mobile: (channel == AlertChannel::Sms).then(|| "0812345678".to_owned()),
        embedding: vec![1, 2, 3, 4],
        model_pair: "insightface".to_owned(),
        code_hash: (channel == AlertChannel::Sms).then(|| "hash".to_owned()),
        client: "c".to_owned(),
        consented_at: now(),
        expires_at: now() + secs(600),
    };
    let sms = store
        .add_alert(&ask("a1", AlertChannel::Sms), now())
        .await
        .unwrap()
        .unwrap();
    let line = store
        .add_alert(&ask("a2", AlertChannel::Line), now())
        .await
        .unwrap()
        .unwrap();
    // Asked for: not matched until confirmed.
    assert!(
        store
            .alert_templates(event, "insightface", now())
            .await
            .unwrap()
            .is_empty()
    );
    let a1 = store.alert("a1", now()).await.unwrap().unwrap();
    assert_eq!(
        (a1.state, a1.mobile.as_deref(), a1.code_tries),
        (AlertState::Pending, Some("0812345678"), 0)
    );
    assert_eq!(store.count_alert_code_try(sms).await.unwrap(), 1);
    // Codes texted to a number lately, for the shop's limit per number.
    assert_eq!(
        store
            .alerts_asked_by_mobile("0812345678", now() - secs(600))
            .await
            .unwrap(),
        (1, Some(now()))
    );
    assert_eq!(
        store
            .alerts_asked_by_mobile("0812345678", now() + secs(1))
            .await
            .unwrap(),
        (0, None)
    );
    // An alert never confirmed is gone after its ten minutes.
    assert!(
        store
            .alert("a1", now() + secs(600))
            .await
            .unwrap()
            .is_none()
    );

    // A LINE login may confirm an alert.
    let login = LineLogin {
        target: LoginFor::Alert(line),
        nonce: "n".to_owned(),
        verifier: "v".to_owned(),
        expires_at: now() + secs(600),
    };
    store.put_line_login("s", &login).await.unwrap();
    assert_eq!(
        store.take_line_login("s", now()).await.unwrap(),
        Some(login)
    );

    let end = now() + secs(30 * 86_400);
    assert!(store.activate_alert(sms, None, end).await.unwrap());
    assert!(!store.activate_alert(sms, None, end).await.unwrap(), "once");
    assert!(store.activate_alert(line, Some("U1"), end).await.unwrap());
    let a2 = store.alert_by_id(line).await.unwrap().unwrap();
    assert_eq!(
        (a2.state, a2.line_user_id.as_deref(), a2.expires_at),
        (AlertState::Active, Some("U1"), end)
    );
    assert_eq!(
        store
            .alert_templates(event, "insightface", now())
            .await
            .unwrap(),
        [(sms, vec![1, 2, 3, 4]), (line, vec![1, 2, 3, 4])]
    );
    assert_eq!(store.alert_counts(now()).await.unwrap(), [(event, 2)]);

    // The first match is told at once; a second photo within the gap waits for the first
    // message, and a repeated match counts once.
    let gap = chrono::Duration::minutes(15);
    let m = |alert_id| AlertMatch {
        alert_id,
        similarity: 0.8,
    };
    let first = store
        .record_alert_matches(photos[0], &[m(sms)], gap, now())
        .await
        .unwrap();
    assert_eq!(first, [(sms, now())]);
    let t1 = now() + secs(60);
    assert!(
        store
            .record_alert_matches(photos[1], &[m(sms)], gap, t1)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        store
            .record_alert_matches(photos[1], &[m(sms)], gap, t1)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        store.untold_alert_matches(sms, now()).await.unwrap(),
        [photos[0]]
    );
    // The first message done: the photo after it is owed a message a gap after it.
    assert!(store.alert_message_done(sms, now()).await.unwrap());
    assert!(!store.alert_message_done(sms, now()).await.unwrap(), "once");
    assert!(
        store
            .schedule_alert_message(sms, now() + gap)
            .await
            .unwrap()
    );
    assert!(
        !store
            .schedule_alert_message(sms, now() + gap)
            .await
            .unwrap()
    );
    let a1 = store.alert_by_id(sms).await.unwrap().unwrap();
    assert_eq!(
        (a1.last_message_at, a1.message_due_at),
        (Some(now()), Some(now() + gap))
    );
    assert_eq!(
        store.untold_alert_matches(sms, now() + gap).await.unwrap(),
        [photos[1]]
    );
    // After that message, all is told, and a new match is due a gap after it.
    assert!(!store.alert_message_done(sms, now() + gap).await.unwrap());
    assert!(
        store
            .untold_alert_matches(sms, t1)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        store.alert_photos(sms).await.unwrap(),
        [photos[1], photos[0]]
    );
    let t2 = now() + secs(16 * 60);
    assert_eq!(
        store
            .record_alert_matches(photos[2], &[m(sms), m(line)], gap, t2)
            .await
            .unwrap(),
        [(sms, now() + gap + gap), (line, t2)]
    );

    // Stopped: the template, the number and the matches go.
    assert!(store.delete_alert(line).await.unwrap());
    assert!(store.alert_by_id(line).await.unwrap().is_none());
    assert!(!store.delete_alert(line).await.unwrap());
    // Past its end, or its event's sale over: deleted by the retention run.
    assert_eq!(store.events_with_alerts().await.unwrap().len(), 1);
    assert_eq!(
        store.delete_alerts_due(end - secs(1), &[]).await.unwrap(),
        0
    );
    assert_eq!(store.delete_alerts_due(end, &[]).await.unwrap(), 1);
    assert!(store.alert_by_id(sms).await.unwrap().is_none());
    let again = store
        .add_alert(&ask("a3", AlertChannel::Sms), now())
        .await
        .unwrap()
        .unwrap();
    assert!(store.activate_alert(again, None, end).await.unwrap());
    assert_eq!(store.delete_alerts_due(now(), &[event]).await.unwrap(), 1);
    assert!(store.events_with_alerts().await.unwrap().is_empty());
}

/// Moving an event from one face model pair to another: each pair's faces stored apart,
/// nothing saved for pairs the event does not use, the move finished only once every photo
/// has the new pair's faces and every template is carried, and nothing filed with the old
/// pair afterwards.
async fn a_move_to_another_pair_keeps_each_pairs_faces_apart(store: Store) {
    use raceshot_store::alerts::NewAlert;
    use raceshot_store::face_pairs::{Finished, ReindexStart, TemplateOwner};
    use raceshot_store::photos::{FaceSet, NewFace, ProcessedPhoto, Saved};
    use raceshot_store::privacy::{Filed, NewPrivacyRequest};
    let (old, new) = ("insightface", "yunet-sface");
    let event = dated_event(&store, "moving", "2026-11-30").await;
    let photos = ready_photos(&store, event, 3).await;
    let set = |pair: &str, byte: u8| FaceSet {
        pair: pair.to_owned(),
        faces: vec![NewFace {
            embedding: vec![byte; 8],
            bbox: [10.0, 10.0, 50.0, 60.0],
            landmarks: vec![0; 40],
            score: 0.9,
        }],
    };
    let processed = |faces: FaceSet, next_faces: Option<FaceSet>| ProcessedPhoto {
        size: (3000, 2000),
        faces,
        next_faces,
        ..ProcessedPhoto::default()
    };
    let save = |photo: i64, p: ProcessedPhoto| {
        let store = store.clone();
        async move {
            store
                .save_processed_photo(photo, event, &p, now())
                .await
                .unwrap()
        }
    };
    let faces_of = |pair: &'static str| {
        let store = store.clone();
        async move { store.faces_after(event, pair, 0, 100).await.unwrap().len() }
    };

    // The first photo gives the event its pair; another pair is refused then.
    assert_eq!(
        save(photos[0], processed(set(old, 1), None)).await,
        Saved::Stored
    );
    assert_eq!(
        save(photos[1], processed(set(new, 2), None)).await,
        Saved::EventMoved
    );
    assert_eq!(
        save(photos[1], processed(set(old, 2), None)).await,
        Saved::Stored
    );
    assert_eq!(
        store.start_reindex(event, old).await.unwrap(),
        ReindexStart::AlreadyOn
    );

    // Moving: ingestion must bring both pairs' faces.
    assert_eq!(
        store.start_reindex(event, new).await.unwrap(),
        ReindexStart::Moving
    );
    assert_eq!(
        store.start_reindex(event, new).await.unwrap(),
        ReindexStart::Moving
    );
    assert_eq!(
        save(photos[2], processed(set(old, 3), None)).await,
        Saved::EventMoved
    );
    let both = processed(set(old, 3), Some(set(new, 3)));
    assert_eq!(save(photos[2], both).await, Saved::Stored);
    assert_eq!(store.reindex_progress(event, new).await.unwrap(), (1, 3));
    assert_eq!(
        store.photos_to_reindex(event, new).await.unwrap(),
        photos[..2]
    );
    assert_eq!(
        store.finish_reindex(event, new, &[]).await.unwrap(),
        Finished::PhotosLeft(2)
    );
    for (i, photo) in photos[..2].iter().enumerate() {
        let faces = set(new, 10 + i as u8);
        assert!(
            store
                .save_reindexed_faces(*photo, event, &faces)
                .await
                .unwrap()
        );
        assert!(
            !store
                .save_reindexed_faces(*photo, event, &faces)
                .await
                .unwrap(),
            "once"
        );
    }
    assert_eq!(store.reindex_progress(event, new).await.unwrap(), (3, 3));
    assert_eq!((faces_of(old).await, faces_of(new).await), (3, 3));

    // A template of the old pair waits for its carried one.
    let request = NewPrivacyRequest {
        id: "moving-1".into(),
        event_id: event,
        contact: "0811111111".into(),
        embedding: vec![1; 8],
        model_pair: old.into(),
        face_crop: None,
        client: "c".into(),
    };
    let filed = store.file_privacy_request(&request, |_| false, now()).await;
    assert_eq!(filed.unwrap(), Filed::New);
    assert_eq!(
        store.finish_reindex(event, new, &[]).await.unwrap(),
        Finished::TemplatesLeft(1)
    );
    let carried = [(TemplateOwner::Privacy("moving-1".into()), vec![10; 8])];
    assert_eq!(
        store.finish_reindex(event, new, &carried).await.unwrap(),
        Finished::Moved
    );
    assert_eq!((faces_of(old).await, faces_of(new).await), (3, 3));
    assert_eq!(store.delete_faces_of_other_pairs(event).await.unwrap(), 3);
    assert_eq!((faces_of(old).await, faces_of(new).await), (0, 3));
    let moved = store.all_events().await.unwrap();
    let moved = moved.iter().find(|e| e.id == event).unwrap();
    assert_eq!(
        (moved.model_pair.as_deref(), moved.reindex_to.as_deref()),
        (Some(new), None)
    );
    assert_eq!(
        store.finish_reindex(event, new, &carried).await.unwrap(),
        Finished::NotMoving
    );

    // Nothing more is filed with the old pair.
    let late = NewPrivacyRequest {
        id: "moving-2".into(),
        ..request
    };
    let filed = store.file_privacy_request(&late, |_| false, now()).await;
    assert_eq!(filed.unwrap(), Filed::PairMoved);
    let alert = NewAlert {
        public_id: "moving-alert".into(),
        event_id: event,
        channel: raceshot_store::alerts::AlertChannel::Sms,
        mobile: Some("0812345678".into()),
        embedding: vec![1; 8],
        model_pair: old.into(),
        code_hash: None,
        client: "c".into(),
        consented_at: now(),
        expires_at: now() + secs(600),
    };
    assert_eq!(store.add_alert(&alert, now()).await.unwrap(), None);
}

async fn results_are_replaced_whole_found_by_name_and_bib_and_deleted(store: Store) {
    use raceshot_domain::BibRule;
    use raceshot_domain::results::{ColumnMap, name_key, read_rows};
    let old = dated_event(&store, "old-race", "2026-01-10").await;
    let race = dated_event(&store, "results", "2026-11-30").await;
    let headers: Vec<String> = ["bib", "name", "chip time", "rank"]
        .map(String::from)
        .to_vec();
    let map = ColumnMap::guess(&headers);
    let rows = |records: &[[&str; 4]]| {
        let records = records
            .iter()
            .enumerate()
            .map(|(i, r)| (i + 2, r.map(String::from).to_vec()));
        read_rows(&headers, records, &map, &BibRule::default()).unwrap()
    };
    let first = rows(&[
        ["42", "Somchai Jaidee", "1:02:03", "2"],
        ["43", "สมหญิง ใจงาม", "0:59:59.5", "1"],
        ["44", "Anan JAIDEE", "", ""],
    ]);
    store
        .replace_results(race, &first, &map, now())
        .await
        .unwrap();
    store
        .replace_results(old, &first[..1], &map, now())
        .await
        .unwrap();
    let imported = store.results_imported(race).await.unwrap().unwrap();
    assert_eq!(
        (imported.rows, imported.columns, imported.at),
        (3, map.clone(), now())
    );

    let bib = |b: &str| BibRule::default().parse(b).unwrap();
    let found = store
        .result_by_bib(race, &bib("043"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(found.name, "สมหญิง ใจงาม");
    assert_eq!(
        found.chip_time.map(|t| t.to_string()),
        Some("0:59:59.50".into())
    );
    assert_eq!(found.rank, Some(1));
    // By a part of the name, forgiving spaces and case, best rank first, unranked last.
    let names = |v: Vec<raceshot_store::results::RaceResult>| -> Vec<String> {
        v.into_iter().map(|r| r.name).collect()
    };
    assert_eq!(
        names(
            store
                .results_by_name(race, &name_key("jaidee"))
                .await
                .unwrap()
        ),
        ["Somchai Jaidee", "Anan JAIDEE"]
    );
    assert_eq!(
        names(
            store
                .results_by_name(race, &name_key("สมหญิงใจ"))
                .await
                .unwrap()
        ),
        ["สมหญิง ใจงาม"]
    );
    assert!(
        store
            .results_by_name(old, &name_key("anan"))
            .await
            .unwrap()
            .is_empty()
    );

    // Importing again replaces the event's results, and only that event's.
    let second = rows(&[["45", "Nok Fast", "0:40:00", "1"]]);
    store
        .replace_results(race, &second, &map, now())
        .await
        .unwrap();
    assert!(
        store
            .result_by_bib(race, &bib("42"))
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        store
            .result_by_bib(old, &bib("42"))
            .await
            .unwrap()
            .is_some()
    );
    assert_eq!(store.results_imported(race).await.unwrap().unwrap().rows, 1);

    // One runner's row is deleted on request; the event's go with its originals.
    assert!(store.delete_result(race, &bib("45")).await.unwrap());
    assert!(!store.delete_result(race, &bib("45")).await.unwrap());
    let before = store
        .events_with_results_before("2026-06-01")
        .await
        .unwrap();
    assert_eq!(
        before.iter().map(|k| k.as_str()).collect::<Vec<_>>(),
        ["old-race"]
    );
    assert_eq!(store.delete_results_before("2026-06-01").await.unwrap(), 1);
    assert!(
        store
            .events_with_results_before("2026-06-01")
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        store
            .result_by_bib(old, &bib("42"))
            .await
            .unwrap()
            .is_none()
    );
    assert!(store.results_imported(old).await.unwrap().is_none());
    assert!(store.results_imported(race).await.unwrap().is_some());
}

async fn certificate_settings_are_saved_whole(store: Store) {
    use raceshot_domain::Money;
    use raceshot_store::certificates::CertificateSettings;
    let race = dated_event(&store, "certified", "2026-11-30").await;
    assert!(store.certificate_settings(race).await.unwrap().is_none());
    let mut settings = CertificateSettings {
        offered: true,
        price: Money::from_satang(4900).unwrap(),
        image_svg: Some("<svg>{{name}} น้ำทิพย์</svg>".to_owned()),
        print_svg: None,
        updated_at: now(),
    };
    store
        .save_certificate_settings(race, &settings)
        .await
        .unwrap();
    assert_eq!(
        store.certificate_settings(race).await.unwrap(),
        Some(settings.clone())
    );
    // Saving again replaces every field.
    settings.offered = false;
    settings.image_svg = None;
    settings.print_svg = Some("<svg/>".to_owned());
    store
        .save_certificate_settings(race, &settings)
        .await
        .unwrap();
    assert_eq!(
        store.certificate_settings(race).await.unwrap(),
        Some(settings)
    );
}

async fn photo_passes_are_added_in_batches_and_found_by_hash(store: Store) {
    use raceshot_domain::pass::PassCover;
    let race = dated_event(&store, "passes", "2026-11-30").await;
    let hashes = |prefix: &str, n: usize| {
        (0..n)
            .map(|i| format!("{prefix}{i:060}"))
            .collect::<Vec<_>>()
    };
    store
        .add_passes(
            race,
            "entry-5",
            &hashes("a", 3),
            PassCover::Photos(5),
            now(),
        )
        .await
        .unwrap();
    store
        .add_passes(race, "vip", &hashes("b", 2), PassCover::AllPhotos, now())
        .await
        .unwrap();
    let pass = store
        .pass_by_hash(&hashes("a", 3)[1])
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (
            pass.event_id,
            pass.batch.as_str(),
            pass.cover,
            pass.redeemed,
            pass.order_id
        ),
        (race, "entry-5", PassCover::Photos(5), false, None)
    );
    assert_eq!(
        store
            .pass_by_hash(&hashes("b", 1)[0])
            .await
            .unwrap()
            .unwrap()
            .cover,
        PassCover::AllPhotos
    );
    assert!(store.pass_by_hash("nope").await.unwrap().is_none());
    let batches = store.pass_batches(race).await.unwrap();
    let summary: Vec<_> = batches
        .iter()
        .map(|b| (b.batch.as_str(), b.cover, b.count, b.redeemed))
        .collect();
    assert_eq!(
        summary,
        [
            ("entry-5", PassCover::Photos(5), 3, 0),
            ("vip", PassCover::AllPhotos, 2, 0)
        ]
    );
    assert_eq!(batches[0].created_at, now());
    // A code's hash is unique: a batch repeating one is refused whole.
    let repeat = vec![format!("c{:060}", 0), hashes("a", 1)[0].clone()];
    assert!(
        store
            .add_passes(race, "again", &repeat, PassCover::Photos(1), now())
            .await
            .is_err()
    );
    assert!(store.pass_by_hash(&repeat[0]).await.unwrap().is_none());
    assert_eq!(store.pass_batches(race).await.unwrap().len(), 2);
}

async fn a_pass_pays_for_one_order(store: Store) {
    use raceshot_domain::pass::PassCover;
    let race = dated_event(&store, "passes", "2026-11-30").await;
    let photos = ready_photos(&store, race, 2).await;
    let hashes = [format!("p{:063}", 1), format!("p{:063}", 2)];
    store
        .add_passes(race, "entry", &hashes, PassCover::Photos(5), now())
        .await
        .unwrap();
    let pass = |n: usize| {
        let store = store.clone();
        let hash = hashes[n].clone();
        async move { store.pass_by_hash(&hash).await.unwrap().unwrap() }
    };
    let with_pass = |uuid: &str, pass_id: i64| NewOrder {
        pass_id: Some(pass_id),
        ..free_order(race, uuid, &photos)
    };

    // Redeemed with the order it pays for, in the same transaction.
    let first = pass(0).await;
    let order = place(&store, &with_pass("first", first.id), now()).await;
    let redeemed = pass(0).await;
    assert!(redeemed.redeemed);
    assert_eq!(redeemed.order_id, Some(order.id));

    // The same request again finds that order; another finds the pass taken and writes
    // nothing.
    let same_request = NewOrder {
        uuid: oid("again"),
        ..with_pass("first", first.id)
    };
    let again = store
        .create_order(&same_request, now() - window(), |_| Vec::new(), now())
        .await
        .unwrap();
    assert_eq!(again, Created::Repeated(order.clone()));
    let other = NewOrder {
        fingerprint: "fp-other".into(),
        ..with_pass("other", first.id)
    };
    let taken = store
        .create_order(&other, now() - window(), |_| Vec::new(), now())
        .await
        .unwrap();
    assert_eq!(taken, Created::PassTaken);
    assert!(store.order_by_uuid(oid("other")).await.unwrap().is_none());
    // After the repeat window, even the same request finds it taken.
    let late = store
        .create_order(
            &same_request,
            now() + secs(3_600) - window(),
            |_| Vec::new(),
            now() + secs(3_600),
        )
        .await
        .unwrap();
    assert_eq!(late, Created::PassTaken);

    // Eight different orders with one pass at once: one is written, seven find it taken.
    let second = pass(1).await;
    let mut set = JoinSet::new();
    for i in 0..8 {
        let store = store.clone();
        let input = with_pass(&format!("rush-{i}"), second.id);
        set.spawn(async move {
            store
                .create_order(&input, now() - window(), |_| Vec::new(), now())
                .await
        });
    }
    let mut written = Vec::new();
    while let Some(answer) = set.join_next().await {
        match answer.unwrap().unwrap() {
            Created::New(o) => written.push(o),
            Created::PassTaken => {}
            Created::Repeated(o) => panic!("{} is no repeat", o.uuid),
        }
    }
    assert_eq!(written.len(), 1);
    assert_eq!(pass(1).await.order_id, Some(written[0].id));
    let batches = store.pass_batches(race).await.unwrap();
    assert_eq!((batches[0].count, batches[0].redeemed), (2, 2));
}

async fn a_certificate_change_keeps_the_other_settings(store: Store) {
    use raceshot_domain::Money;
    use raceshot_store::certificates::CertificateChange;
    let race = dated_event(&store, "certified", "2026-11-30").await;
    // The first change makes the row: not offered, free, the shop's templates, but for it.
    let first = store
        .change_certificate_settings(
            race,
            &CertificateChange::PrintTemplate(Some("<svg>print</svg>".to_owned())),
            now(),
        )
        .await
        .unwrap();
    assert_eq!(
        (
            first.offered,
            first.price,
            first.image_svg,
            first.print_svg.as_deref()
        ),
        (false, Money::ZERO, None, Some("<svg>print</svg>"))
    );
    // Two operators' changes, each of its own fields: neither undoes the other.
    let price = Money::from_satang(4_900).unwrap();
    store
        .change_certificate_settings(
            race,
            &CertificateChange::Offer {
                offered: true,
                price,
            },
            now() + secs(1),
        )
        .await
        .unwrap();
    let last = store
        .change_certificate_settings(
            race,
            &CertificateChange::ImageTemplate(Some("<svg>image</svg>".to_owned())),
            now() + secs(2),
        )
        .await
        .unwrap();
    assert_eq!(
        (
            last.offered,
            last.price,
            last.image_svg.as_deref(),
            last.print_svg.as_deref()
        ),
        (
            true,
            price,
            Some("<svg>image</svg>"),
            Some("<svg>print</svg>")
        )
    );
    assert_eq!(last.updated_at, now() + secs(2));
    let reset = store
        .change_certificate_settings(race, &CertificateChange::PrintTemplate(None), now())
        .await
        .unwrap();
    assert_eq!((reset.offered, reset.print_svg.as_deref()), (true, None));
    assert_eq!(store.certificate_settings(race).await.unwrap(), Some(reset));
}

async fn an_events_frame_is_replaced_chosen_and_removed_and_orders_keep_theirs(store: Store) {
    use raceshot_store::frames::EventFrame;
    use raceshot_store::orders::{OrderCertificate, OrderFrame};
    let race = dated_event(&store, "framed", "2026-11-30").await;
    let name = |raw: &str| StoredName::parse(raw).unwrap();
    assert_eq!(store.event_frame(race).await.unwrap(), None);
    assert_eq!(
        store.set_frame_on_sold(race, true, now()).await.unwrap(),
        None
    );

    // A first frame is not for sold photos; a new one keeps the choice.
    let first = store
        .put_event_frame(race, &name("a1.png"), now())
        .await
        .unwrap();
    assert_eq!((first.name.as_str(), first.on_sold), ("a1.png", false));
    let chosen = store
        .set_frame_on_sold(race, true, now() + secs(1))
        .await
        .unwrap();
    assert_eq!(chosen.map(|f| f.on_sold), Some(true));
    let second = store
        .put_event_frame(race, &name("b2.png"), now() + secs(2))
        .await
        .unwrap();
    assert_eq!(
        second,
        EventFrame {
            name: name("b2.png"),
            on_sold: true,
            updated_at: now() + secs(2),
        }
    );
    let listed = store.all_events().await.unwrap();
    let event = listed.iter().find(|e| e.id == race).unwrap();
    assert_eq!(event.frame_name, Some(name("b2.png")));

    // An order keeps the frame it was made with, and whether that is all it gives, and
    // the certificate it buys.
    let photos = ready_photos(&store, race, 1).await;
    let order = NewOrder {
        frame: Some(OrderFrame {
            name: name("b2.png"),
            only: true,
        }),
        certificate: Some(OrderCertificate {
            bib: raceshot_domain::Bib::from_stored("0042".into()),
            price: money(4_900),
        }),
        ..free_order(race, "8d0c6f1e-framed", &photos)
    };
    let placed = place(&store, &order, now()).await;
    assert_eq!(placed.frame, order.frame);
    assert_eq!(placed.certificate, order.certificate);
    assert!(!placed.is_frame_image_created);
    store
        .set_delivery_flag(placed.id, DeliveryFlag::FrameImages, now())
        .await
        .unwrap();
    assert!(store.remove_event_frame(race).await.unwrap());
    assert!(!store.remove_event_frame(race).await.unwrap());
    assert_eq!(store.event_frame(race).await.unwrap(), None);
    let kept = store
        .order_by_uuid(oid("8d0c6f1e-framed"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (kept.frame, kept.is_frame_image_created),
        (order.frame, true)
    );
}
