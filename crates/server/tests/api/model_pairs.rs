//! The face model pairs (`faces.model_pair`): an event moved from one pair to the other
//! (`raceshot faces reindex`) without a wrong search on the way, and the commercial pair
//! end to end on the real models.

use std::collections::HashMap;

use raceshot_server::app::startup::{Models, load_state_with};
use raceshot_server::app::state::Clock;
use raceshot_server::commands::faces;
use raceshot_server::services::reindex::{self, Started};
use raceshot_server::services::{privacy, search};
use raceshot_store::Backend;
use raceshot_store::alerts::NewAlert;
use raceshot_store::operators::Role;
use raceshot_store::privacy::NewPrivacyRequest;
use raceshot_vision::ModelPair;
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, event, found_names, json, now, photo};

crate::both_backends!(an_event_moves_to_another_pair_and_its_searches_stay_right);

/// The photo ids of an event by file name.
async fn photo_ids(app: &TestApp, event_id: i64) -> HashMap<String, i64> {
    let (photos, _) = app.store.list_photos(event_id, None, 0, 100).await.unwrap();
    photos
        .into_iter()
        .map(|p| (p.original_file_name, p.id))
        .collect()
}

/// The one face a stand-in sees on a photo, of `pair`.
async fn face_on(app: &TestApp, photo_id: i64, pair: ModelPair) -> Vec<u8> {
    let faces = app
        .store
        .faces_of_photo(photo_id, pair.name())
        .await
        .unwrap();
    assert_eq!(faces.len(), 1, "{pair} faces of photo {photo_id}");
    faces[0].embedding.clone()
}

/// An event of the non-commercial pair, with an approved privacy request and an alert,
/// moves to YuNet + SFace by `raceshot faces reindex` in another process configured for
/// it: the shop's searches answer the same before, during and after the move; the
/// templates are carried to the new pair's faces of the same people; the old faces go;
/// running it again does nothing.
async fn an_event_moves_to_another_pair_and_its_searches_stay_right(backend: Backend) {
    let app = TestApp::builder(backend)
        .with_event(event("race"))
        .spawn()
        .await;
    app.ingest_shipped_photos().await;
    let (_, event) = app.stored_event("race").await;
    assert_eq!(event.model_pair.as_deref(), Some("insightface"));
    let ids = photo_ids(&app, event.id).await;
    let search =
        || async { found_names(&json(app.search_v1("race", photo("yaoming.jpg")).await).await) };
    assert_eq!(search().await, ["yaoming.jpg"]);

    // gdp.jpg's person asked to be hidden, and was; players.jpg's person asked for alerts.
    let old = ModelPair::InsightFace;
    let request = NewPrivacyRequest {
        id: "hide-gdp".into(),
        event_id: event.id,
        contact: "0811111111".into(),
        embedding: face_on(&app, ids["gdp.jpg"], old).await,
        model_pair: old.name().into(),
        face_crop: None,
        client: "test".into(),
    };
    (app.store)
        .file_privacy_request(&request, |_| false, now())
        .await
        .unwrap();
    let hidden = privacy::approve(&app.state.privacy(), "hide-gdp", "admin")
        .await
        .unwrap();
    assert_eq!(hidden, [ids["gdp.jpg"]]);
    let alert = NewAlert {
        public_id: "players-alert".into(),
        event_id: event.id,
        channel: raceshot_store::alerts::AlertChannel::Sms,
        mobile: Some("0812345678".into()),
        embedding: face_on(&app, ids["players.jpg"], old).await,
        model_pair: old.name().into(),
        code_hash: None,
        client: "test".into(),
        consented_at: now(),
        expires_at: now() + chrono::Duration::days(1),
    };
    let alert = app.store.add_alert(&alert, now()).await.unwrap().unwrap();
    let end = now() + chrono::Duration::days(1);
    assert!(app.store.activate_alert(alert, None, end).await.unwrap());

    // Another process, configured for the commercial pair, starts the move.
    let new = ModelPair::YuNetSFace;
    let mut config = app.state.config.clone();
    config.faces.model_pair = new;
    let mover = load_state_with(config, Clock::Fixed(now()), app.url(""), Models::StandIns)
        .await
        .unwrap();
    let started = reindex::start(&mover.reindexing(), &event, new)
        .await
        .unwrap();
    assert_eq!(started, Started::Moving { queued: 3 });
    // Searches still use the old pair (whatever the shop's workers did meanwhile).
    assert_eq!(search().await, ["yaoming.jpg"]);
    app.account("admin@shop.test", Role::Admin, &[]).await;
    let admin = app.sign_in("admin@shop.test").await;
    let console_row = || async {
        let list = app
            .call(Method::GET, "/api/admin/events", Some(&admin), None)
            .await;
        let list = json(list).await;
        let row = &list["events"][0];
        (
            row["model_pair"].clone(),
            row["model_pair_for_sale"].clone(),
            row["moving_to"].clone(),
            row["faces"].clone(),
        )
    };
    // The console shows the event still on the pair a shop may not sell with, and moving.
    assert_eq!(
        console_row().await,
        (
            json!("insightface"),
            json!(false),
            json!("yunet-sface"),
            json!(3)
        )
    );
    let (_, moving) = app.stored_event("race").await;
    assert_eq!(
        (moving.model_pair.as_deref(), moving.reindex_to.as_deref()),
        (Some("insightface"), Some("yunet-sface"))
    );

    let mut seen = Vec::new();
    let report = faces::reindex(&mover, "race", |done, total| seen.push((done, total)))
        .await
        .unwrap();
    let faces::Report::Moved {
        pair,
        carried,
        old_faces,
        ..
    } = report
    else {
        panic!("{report:?}")
    };
    assert_eq!((pair, carried, old_faces), (new, 2, 3));
    assert_eq!(seen.last(), Some(&(3, 3)), "{seen:?}");

    let (_, moved) = app.stored_event("race").await;
    assert_eq!(
        (moved.model_pair.as_deref(), moved.reindex_to.as_deref()),
        (Some("yunet-sface"), None)
    );
    for (name, id) in &ids {
        assert!(
            (app.store.faces_of_photo(*id, old.name()).await.unwrap()).is_empty(),
            "{name}: the old pair's faces are deleted"
        );
    }
    // The templates are the new pair's faces of the same people.
    assert_eq!(
        app.store
            .privacy_templates(event.id, new.name())
            .await
            .unwrap(),
        [(
            "hide-gdp".to_owned(),
            face_on(&app, ids["gdp.jpg"], new).await
        )]
    );
    assert_eq!(
        (app.store.alert_templates(event.id, new.name(), now()).await).unwrap(),
        [(alert, face_on(&app, ids["players.jpg"], new).await)]
    );
    assert_eq!(
        console_row().await,
        (json!("yunet-sface"), json!(true), Value::Null, json!(3))
    );
    // The shop, still configured for the old pair, searches the event with the new one.
    assert_eq!(search().await, ["yaoming.jpg"]);
    let selfies = vec![photo("yaoming.jpg").into()];
    let mover_found = search::search_event(
        mover.search(),
        &moved,
        selfies,
        search::Narrowing::default(),
        search::Match::Any,
        |i| i.to_string(),
    )
    .await
    .unwrap();
    let search::Found::Photos { photos, .. } = mover_found else {
        panic!("no face")
    };
    assert_eq!(
        photos.iter().map(|p| p.photo.id).collect::<Vec<_>>(),
        [ids["yaoming.jpg"]]
    );

    // Done: again, nothing to do.
    let again = faces::reindex(&mover, "race", |_, _| {}).await.unwrap();
    assert_eq!(again, faces::Report::AlreadyOn(new));
}

/// The shop on the pair it may sell with (YuNet + SFace), real models end to end: the
/// demo's three photos of player 13 are found from another photo of him, and only they.
#[tokio::test]
async fn the_commercial_pair_finds_player_13_and_only_him() {
    let app = TestApp::builder(Backend::Sqlite)
        .with_models()
        .with_env("RACESHOT__FACES__MODEL_PAIR", "yunet-sface")
        .spawn()
        .await;
    let engine = app.state.faces.engine(ModelPair::YuNetSFace).await.unwrap();
    assert_eq!(engine.embedding_dim(), 128);
    let seeded = app.seed_demo().await;
    let body = json(app.search_v1("demo", photo("yaoming.jpg")).await).await;
    assert_eq!(found_names(&body), seeded.with_player_13, "{body}");
}

/// Real models: the demo event, analysed by InsightFace, moved to YuNet + SFace by another
/// process; the shop (still configured for InsightFace) finds the same three photos of
/// player 13 from another photo of him, now with the new pair.
#[tokio::test]
async fn the_demo_moves_to_the_commercial_pair_and_still_finds_player_13() {
    let app = TestApp::builder(Backend::Sqlite)
        .with_models()
        .spawn()
        .await;
    let seeded = app.seed_demo().await;
    let search =
        || async { found_names(&json(app.search_v1("demo", photo("yaoming.jpg")).await).await) };
    assert_eq!(search().await, seeded.with_player_13);

    let mut config = app.state.config.clone();
    config.faces.model_pair = ModelPair::YuNetSFace;
    let mover = load_state_with(config, Clock::Fixed(now()), app.url(""), Models::Real)
        .await
        .unwrap();
    let report = faces::reindex(&mover, "demo", |_, _| {}).await.unwrap();
    assert!(
        matches!(report, faces::Report::Moved { queued, .. } if queued == seeded.photos),
        "{report:?}"
    );
    let (_, moved) = app.stored_event("demo").await;
    assert_eq!(moved.model_pair.as_deref(), Some("yunet-sface"));
    assert_eq!(search().await, seeded.with_player_13);
}
