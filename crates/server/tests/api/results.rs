//! Race results end to end, on both backends: an admin checks and imports a results file
//! (Thai names, quoted fields, the columns guessed, chosen, then remembered), a file with
//! bad rows imports nothing and names each line, a runner finds their row by name or bib
//! with the photos of the bib in the same answer, and an admin deletes one runner's row.

use raceshot_domain::BibRule;
use raceshot_store::Backend;
use raceshot_store::bibs::NewBib;
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_error, json};

crate::both_backends!(results_are_imported_found_by_name_or_bib_and_deleted);

const RESULTS: &str = "\u{feff}Bib No.,ชื่อ-นามสกุล,Gender,Category,Distance,Gun Time,Chip Time,Overall Rank\n\
    42,Somchai Jaidee,M,M30-39,21K,1:03:10,1:02:03,2\n\
    043,สมหญิง ใจงาม,F,F30-39,21K,1:00:30,0:59:59.5,1\n\
    7,\"Jaidee, Anan\",M,M40-49,21K,,,\n";

/// Sends a results file to the console's import of event `race`.
pub(crate) async fn put_results(
    app: &TestApp,
    cookie: &str,
    query: &str,
    csv: &str,
) -> reqwest::Response {
    app.client
        .put(app.url(&format!("/api/admin/events/race/results{query}")))
        .header("cookie", cookie)
        .header("content-type", "text/csv; charset=utf-8")
        .body(csv.to_owned())
        .send()
        .await
        .unwrap()
}

async fn search(app: &TestApp, q: &str) -> reqwest::Response {
    app.post(
        "/v1/results/search",
        &json!({ "event_key": "race", "q": q }),
    )
    .await
}

/// The names a search found, in order.
async fn names(app: &TestApp, q: &str) -> Vec<String> {
    let resp = search(app, q).await;
    assert_eq!(resp.status(), 200, "{q}");
    let body = json(resp).await;
    body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap().to_owned())
        .collect()
}

async fn last_import(app: &TestApp, cookie: &str) -> Value {
    json(
        app.call(
            Method::GET,
            "/api/admin/events/race/results",
            Some(cookie),
            None,
        )
        .await,
    )
    .await
}

async fn results_are_imported_found_by_name_or_bib_and_deleted(backend: Backend) {
    let (app, admin) = TestApp::race_with_console(backend).await;
    // Bib 42 was read on the first of three photos.
    let ids = app.ready_photos("race", 3).await;
    let (_, stored) = app.stored_event("race").await;
    let bib42 = BibRule::default().parse("42").unwrap();
    app.state
        .store
        .replace_photo_bibs(
            ids[0],
            stored.id,
            &[NewBib {
                bib: bib42,
                confidence: 0.9,
                bbox: [10.0, 10.0, 40.0, 30.0],
            }],
        )
        .await
        .unwrap();

    // Checking reads the file and guesses the columns; nothing is kept.
    let checked = json(put_results(&app, &admin, "?check=true", RESULTS).await).await;
    assert_eq!(checked["imported"], false);
    assert_eq!(checked["rows"], 3);
    assert_eq!(checked["problems"], json!([]));
    assert_eq!(checked["columns"]["bib"], "Bib No.");
    assert_eq!(checked["columns"]["name"], "ชื่อ-นามสกุล");
    assert_eq!(checked["columns"]["chip_time"], "Chip Time");
    assert_eq!(checked["columns"]["rank"], "Overall Rank");
    assert_eq!(last_import(&app, &admin).await["rows"], 0);

    // Bad rows: nothing imported, each line named.
    let bad = format!("{RESULTS}x,Nobody,,,,,,\n42,Again,,,,,,\n8,Late,,,,,soon,\n");
    let err = assert_error(
        put_results(&app, &admin, "", &bad).await,
        422,
        "invalid_field",
    )
    .await;
    let messages: Vec<&str> = err["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["message"].as_str().unwrap())
        .collect();
    assert_eq!(messages.len(), 3, "{err}");
    assert!(messages[0].starts_with("line 5:"), "{messages:?}");
    assert!(messages[1].starts_with("line 6:") && messages[1].contains("line 2"));
    assert!(messages[2].starts_with("line 7:") && messages[2].contains("chip_time"));
    let checked = json(put_results(&app, &admin, "?check=true", &bad).await).await;
    assert_eq!(checked["problems"].as_array().unwrap().len(), 3);
    assert_eq!(last_import(&app, &admin).await["rows"], 0);

    // Imported: the runner finds their row by name, any spacing and case, or by bib.
    let done = json(put_results(&app, &admin, "", RESULTS).await).await;
    assert_eq!(
        (done["imported"].clone(), done["rows"].clone()),
        (json!(true), json!(3))
    );
    let last = last_import(&app, &admin).await;
    assert_eq!(last["rows"], 3);
    assert!(last["imported_at"].is_string());

    let body = json(search(&app, "  somchai   JAIDEE ").await).await;
    assert_eq!(body["results"][0]["bib"], "42");
    assert_eq!(body["results"][0]["chip_time"], "1:02:03");
    assert_eq!(body["results"][0]["rank"], 2);
    assert_eq!(body["results"][0]["category"], "M30-39");
    // One row: the photos of its bib come with it, named for the cart.
    let photos = &body["photos"];
    assert_eq!(photos["images"][0]["id"], ids[0]);
    assert_eq!(photos["images"][0]["matched_by"], "bib");
    assert!(!photos["found_ref"].as_str().unwrap().is_empty());
    // Several rows: best rank first, unranked last, and no photos until one is chosen.
    assert_eq!(
        names(&app, "jaidee").await,
        ["Somchai Jaidee", "Jaidee, Anan"]
    );
    assert!(json(search(&app, "jaidee").await).await["photos"].is_null());
    assert_eq!(names(&app, "สมหญิงใจงาม").await, ["สมหญิง ใจงาม"]);
    let by_bib = json(search(&app, "0043").await).await;
    assert_eq!(by_bib["results"][0]["chip_time"], "0:59:59.50");
    assert_eq!(by_bib["photos"]["images"], json!([]));
    assert!(names(&app, "nobody").await.is_empty());
    let err = assert_error(search(&app, "a").await, 422, "invalid_field").await;
    assert_eq!(err["field"], "q");
    let err = assert_error(search(&app, &"a".repeat(101)).await, 422, "invalid_field").await;
    assert_eq!(err["field"], "q");
    let resp = app
        .post(
            "/v1/results/search",
            &json!({ "event_key": "nope", "q": "somchai" }),
        )
        .await;
    assert_error(resp, 404, "event_not_found").await;

    // After the sale the results are still found, without photos.
    let close = |closed: bool| {
        let admin = admin.clone();
        let app = &app;
        async move {
            let body = json!({ "closed": closed });
            let path = "/api/admin/events/race/close";
            app.call(Method::POST, path, Some(&admin), Some(body)).await
        }
    };
    assert_eq!(close(true).await.status(), 204);
    let closed = json(search(&app, "somchai jaidee").await).await;
    assert_eq!(closed["results"][0]["bib"], "42");
    assert!(closed["photos"].is_null(), "{closed}");
    assert_eq!(close(false).await.status(), 204);

    // Another file layout, its columns chosen by the operator, then remembered.
    let own = "Racer ID;Full Name Thai;Finish\n9;Nok Fast;0:40:00\n";
    let err = assert_error(
        put_results(&app, &admin, "", own).await,
        422,
        "invalid_field",
    )
    .await;
    assert!(
        err["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("line 1"),
        "{err}"
    );
    let chosen = "?bib=Racer%20ID&name=Full%20Name%20Thai&chip_time=Finish";
    let done = json(put_results(&app, &admin, chosen, own).await).await;
    assert_eq!(done["rows"], 1);
    assert_eq!(names(&app, "nok").await, ["Nok Fast"]);
    // Importing again replaced the results before.
    assert!(names(&app, "jaidee").await.is_empty());
    let next = "Racer ID;Full Name Thai;Finish\n10;Ploy;\n";
    let again = json(put_results(&app, &admin, "?check=true", next).await).await;
    assert_eq!(again["columns"]["name"], "Full Name Thai");
    assert_eq!(again["rows"], 1);

    // An admin deletes one runner's row; both steps are audited.
    let delete = |bib: &str| {
        let path = format!("/api/admin/events/race/results/{bib}");
        let admin = admin.clone();
        let app = &app;
        async move { app.call(Method::DELETE, &path, Some(&admin), None).await }
    };
    assert_eq!(delete("9").await.status(), 204);
    assert!(names(&app, "nok").await.is_empty());
    assert_error(delete("9").await, 404, "not_found").await;
    let actions: Vec<String> = (app.audit_actions(&admin).await)
        .into_iter()
        .filter(|a| a.starts_with("results."))
        .collect();
    assert_eq!(
        actions,
        ["results.delete", "results.import", "results.import"]
    );

    // Results are personal data: admins only; a file is sent as CSV text.
    let cam = app.sign_in("cam@example.com").await;
    assert_error(put_results(&app, &cam, "", RESULTS).await, 403, "forbidden").await;
    let resp = app
        .client
        .put(app.url("/api/admin/events/race/results"))
        .header("cookie", &admin)
        .header("content-type", "application/json")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_error(resp, 415, "unsupported_media_type").await;
    assert_error(
        put_results(&app, &admin, "", "\u{feff}").await,
        422,
        "invalid_field",
    )
    .await;
}
