//! Race day: the console's view of photos received (per photographer), made searchable and
//! searched, with the queue and its expected wait; and the event page's question "how many
//! photos became searchable since I searched". Both backends; the app's clock is fixed, so
//! everything falls in the window's last bucket.

use reqwest::Method;
use serde_json::Value;

use raceshot_store::Backend;
use raceshot_store::operators::Role;

use crate::helpers::{TestApp, assert_error, event, json, noisy_jpeg, now};

const VIEW: &str = "/api/admin/race-day";

async fn upload(app: &TestApp, cookie: &str, event_key: &str, seed: u8) -> i64 {
    let resp = app
        .client
        .put(app.url(&format!("/api/admin/events/{event_key}/photos")))
        .query(&[("file_name", format!("IMG_{seed:04}.JPG"))])
        .header("cookie", cookie)
        .header("content-type", "image/jpeg")
        .body(noisy_jpeg(seed))
        .send()
        .await
        .unwrap();
    let body = json(resp).await;
    assert_eq!(body["result"], "queued", "{body}");
    body["photo_id"].as_i64().unwrap()
}

fn total(series: &Value) -> i64 {
    series
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_i64().unwrap())
        .sum()
}

async fn view(app: &TestApp, cookie: &str, query: &str) -> Value {
    let resp = app
        .call(Method::GET, &format!("{VIEW}{query}"), Some(cookie), None)
        .await;
    assert_eq!(resp.status(), 200);
    json(resp).await
}

#[tokio::test]
async fn the_race_day_view_charts_arrivals_per_photographer_searchable_photos_and_searches() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let app = TestApp::builder(backend)
            .with_event(event("race"))
            .with_event(event("quiet"))
            .spawn()
            .await;
        app.account("boss@example.com", Role::Admin, &[]).await;
        app.account("ann@example.com", Role::Photographer, &["race"])
            .await;
        app.account("bob@example.com", Role::Photographer, &["race"])
            .await;
        let boss = app.sign_in("boss@example.com").await;
        let ann = app.sign_in("ann@example.com").await;

        // Nothing has happened yet: no event is shown, the queue is empty.
        let empty = view(&app, &boss, "").await;
        assert_eq!(empty["events"], serde_json::json!([]), "{empty}");
        assert_eq!(empty["queue"]["depth"], 0);
        assert_eq!(empty["queue"]["expected_wait_secs"], 0);
        assert_eq!(empty["bucket_minutes"], 5);

        let bob = app.sign_in("bob@example.com").await;
        upload(&app, &ann, "race", 1).await;
        upload(&app, &ann, "race", 2).await;
        upload(&app, &bob, "race", 3).await;
        app.jobs_done().await;
        for _ in 0..2 {
            let searched = app.search_v1("race", noisy_jpeg(9)).await;
            assert_eq!(searched.status(), 200);
        }

        let day = view(&app, &boss, "?hours=3").await;
        assert_eq!(day["recent_minutes"], 10);
        let events = day["events"].as_array().unwrap();
        assert_eq!(
            events.len(),
            1,
            "only the event with something going on: {day}"
        );
        let race = &events[0];
        assert_eq!(race["event_key"], "race");
        assert_eq!(race["received"].as_array().unwrap().len(), 36);
        assert_eq!(total(&race["received"]), 3);
        assert_eq!(total(&race["searchable"]), 3);
        assert_eq!(total(&race["searches"]), 2);
        // The app's clock stands still: all of it is in the last bucket.
        assert_eq!(race["received"][35], 3);
        assert_eq!(race["received_recent"], 3);
        assert_eq!(race["waiting"], 0);
        let people = race["photographers"].as_array().unwrap();
        assert_eq!(people.len(), 2);
        assert_eq!(people[0]["email"], "ann@example.com", "the busiest first");
        assert_eq!(total(&people[0]["received"]), 2);
        assert_eq!(people[1]["email"], "bob@example.com");
        assert_eq!(total(&people[1]["received"]), 1);
        // Three photos made searchable in the last ten minutes, none waiting.
        assert_eq!(day["queue"]["depth"], 0);
        assert_eq!(day["queue"]["per_minute"], 0.3);
        assert_eq!(day["queue"]["expected_wait_secs"], 0);

        // A photographer sees her own e-mail and no other account's.
        let hers = view(&app, &ann, "").await;
        let people = hers["events"][0]["photographers"].as_array().unwrap();
        assert_eq!(people[0]["email"], "ann@example.com");
        assert_eq!(people[1]["email"], Value::Null);
        assert!(people[1]["photographer_id"].as_i64().unwrap() > 0);

        // Any window is read as 1 to 12 hours, in at most 36 buckets of whole five minutes.
        let widest = view(&app, &boss, "?hours=99").await;
        assert_eq!(widest["bucket_minutes"], 20);
        assert_eq!(
            widest["events"][0]["received"].as_array().unwrap().len(),
            36
        );
        let narrowest = view(&app, &boss, "?hours=0").await;
        assert_eq!(narrowest["bucket_minutes"], 5);
        assert_eq!(
            narrowest["events"][0]["received"].as_array().unwrap().len(),
            12
        );
        let bad = app
            .call(
                Method::GET,
                &format!("{VIEW}?hours=lots"),
                Some(&boss),
                None,
            )
            .await;
        assert_error(bad, 422, "invalid_field").await;
        let anonymous = app.call(Method::GET, VIEW, None, None).await;
        assert_error(anonymous, 401, "not_signed_in").await;
    }
}

#[tokio::test]
async fn photos_waiting_show_with_an_unknown_wait_until_the_queue_has_a_pace() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let app = TestApp::builder(backend)
            .with_event(event("race"))
            .without_jobs()
            .spawn()
            .await;
        app.account("boss@example.com", Role::Admin, &[]).await;
        let boss = app.sign_in("boss@example.com").await;
        upload(&app, &boss, "race", 1).await;
        upload(&app, &boss, "race", 2).await;

        let day = view(&app, &boss, "").await;
        let race = &day["events"][0];
        assert_eq!(race["waiting"], 2);
        assert_eq!(total(&race["received"]), 2);
        assert_eq!(total(&race["searchable"]), 0);
        assert_eq!(day["queue"]["depth"], 2);
        assert_eq!(day["queue"]["expected_wait_secs"], Value::Null);
    }
}

#[tokio::test]
async fn the_event_page_hears_how_many_photos_became_searchable_since_its_search() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let app = TestApp::builder(backend)
            .with_event(event("race"))
            .with_env("RACESHOT__SEARCH__ARRIVALS_PER_CLIENT_PER_MINUTE", "10")
            .spawn()
            .await;
        app.account("boss@example.com", Role::Admin, &[]).await;
        let boss = app.sign_in("boss@example.com").await;
        let arrivals = |since: Option<i64>| {
            let app = &app;
            async move {
                let query = since.map(|s| format!("?since={s}")).unwrap_or_default();
                let resp = app.get(&format!("/api/events/race/arrivals{query}")).await;
                assert_eq!(resp.status(), 200);
                json(resp).await
            }
        };

        // Without a moment, the answer is only the moment to ask from: the server's clock.
        let mark = arrivals(None).await;
        assert_eq!(mark["new_photos"], 0);
        let as_of = mark["as_of"].as_i64().unwrap();
        assert_eq!(as_of, now().timestamp_millis());

        let minute_ago = as_of - 60_000;
        let first = upload(&app, &boss, "race", 1).await;
        upload(&app, &boss, "race", 2).await;
        app.jobs_done().await;
        assert_eq!(arrivals(Some(minute_ago)).await["new_photos"], 2);
        // Photos made searchable at the asked moment itself are not "since".
        assert_eq!(arrivals(Some(as_of)).await["new_photos"], 0);
        // A hidden photo is not news.
        let hidden = app
            .call(
                Method::POST,
                &format!("/api/admin/photos/{first}"),
                Some(&boss),
                Some(serde_json::json!({"hidden": true})),
            )
            .await;
        assert_eq!(hidden.status(), 204);
        assert_eq!(arrivals(Some(minute_ago)).await["new_photos"], 1);
        // A moment long ago is read as a day ago, one in the future as now.
        assert_eq!(arrivals(Some(0)).await["new_photos"], 1);
        assert_eq!(arrivals(Some(as_of + 3_600_000)).await["new_photos"], 0);

        // An unknown event, an unreadable moment, and past the rate limit.
        let unknown = app.get("/api/events/nope/arrivals").await;
        assert_error(unknown, 404, "event_not_found").await;
        let unreadable = app.get("/api/events/race/arrivals?since=soon").await;
        assert_error(unreadable, 422, "invalid_field").await;
        let mut answers = Vec::new();
        for _ in 0..10 {
            answers.push(app.get("/api/events/race/arrivals").await);
        }
        let limited = answers.into_iter().find(|r| r.status() == 429);
        assert_error(limited.expect("a limit"), 429, "rate_limited").await;
    }
}
