//! Photo passes in the console, on both backends: an admin makes a batch of codes, answered
//! once as a CSV file (codes as printed, each different, found again by their hash only),
//! the event's batches are listed with their counts, a bad batch is refused field by field,
//! and only admins may make them; each batch is audited without its codes.

use raceshot_domain::pass::{PassCode, PassCover};
use raceshot_server::services::passes::code_hash;
use raceshot_store::Backend;
use reqwest::Method;
use serde_json::json;

use crate::helpers::{TestApp, assert_error, json};

crate::both_backends!(an_admin_makes_a_batch_of_pass_codes_as_a_file);

async fn an_admin_makes_a_batch_of_pass_codes_as_a_file(backend: Backend) {
    let (app, admin) = TestApp::race_with_console(backend).await;
    let make = |cookie: &str, body: serde_json::Value| {
        let cookie = cookie.to_owned();
        let app = &app;
        async move {
            app.call(
                Method::POST,
                "/api/admin/events/race/passes",
                Some(&cookie),
                Some(body),
            )
            .await
        }
    };

    let resp = make(
        &admin,
        json!({ "batch": "Entry 2026", "count": 3, "photos": 5 }),
    )
    .await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["content-type"], "text/csv; charset=utf-8");
    assert_eq!(
        resp.headers()["content-disposition"],
        "attachment; filename=\"passes-race-Entry_2026.csv\""
    );
    let csv = resp.text().await.unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("code,photos"));
    let codes: Vec<PassCode> = lines
        .map(|line| {
            let (code, photos) = line.split_once(',').unwrap();
            assert_eq!(photos, "5");
            assert_eq!(code.len(), 14, "{code}");
            PassCode::parse(code).unwrap()
        })
        .collect();
    assert_eq!(codes.len(), 3);
    assert!(codes[0] != codes[1] && codes[1] != codes[2] && codes[0] != codes[2]);
    // Kept as hashes only: each found by the hash of its code, however it is typed.
    let (_, stored) = app.stored_event("race").await;
    let typed = PassCode::parse(&codes[2].to_string().to_lowercase().replace('-', " ")).unwrap();
    let pass = app
        .state
        .store
        .pass_by_hash(&code_hash(&typed))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (pass.event_id, pass.cover, pass.redeemed),
        (stored.id, PassCover::Photos(5), false)
    );

    // A batch covering the all-photos deal; the batches listed.
    let deal = make(&admin, json!({ "batch": "VIP", "count": 1 })).await;
    assert!(deal.text().await.unwrap().ends_with(",all\n"));
    let list = json(
        app.call(
            Method::GET,
            "/api/admin/events/race/passes",
            Some(&admin),
            None,
        )
        .await,
    )
    .await;
    assert_eq!(list[0]["batch"], "Entry 2026");
    assert_eq!(
        (
            list[0]["count"].clone(),
            list[0]["redeemed"].clone(),
            list[0]["photos"].clone()
        ),
        (json!(3), json!(0), json!(5))
    );
    assert_eq!(
        (list[1]["batch"].clone(), list[1]["photos"].clone()),
        (json!("VIP"), json!(null))
    );

    // Refused field by field: a name again, no codes, too many photos, a bad name.
    for (body, field) in [
        (json!({ "batch": "VIP", "count": 1 }), "batch"),
        (json!({ "batch": "More", "count": 0 }), "count"),
        (json!({ "batch": "More", "count": 10001 }), "count"),
        (
            json!({ "batch": "More", "count": 1, "photos": 0 }),
            "photos",
        ),
        (json!({ "batch": "a,b", "count": 1 }), "batch"),
    ] {
        let err = assert_error(make(&admin, body.clone()).await, 422, "invalid_field").await;
        assert_eq!(err["field"], field, "{body}");
    }
    assert_eq!(
        app.state.store.pass_batches(stored.id).await.unwrap().len(),
        2
    );

    // Admins only; each batch audited, without its codes.
    let cam = app.sign_in("cam@example.com").await;
    assert_error(
        make(&cam, json!({ "batch": "Mine", "count": 1 })).await,
        403,
        "forbidden",
    )
    .await;
    let actions = app.audit_actions(&admin).await;
    assert_eq!(actions.iter().filter(|a| *a == "passes.create").count(), 2);
    let audit = json(
        app.call(Method::GET, "/api/admin/audit", Some(&admin), None)
            .await,
    )
    .await
    .to_string();
    for code in &codes {
        assert!(!audit.contains(code.as_str()) && !audit.contains(&code.to_string()));
    }
}
