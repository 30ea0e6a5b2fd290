//! The face model pair (`faces.model_pair`): a shop whose stored face templates another
//! pair made refuses to start rather than compare embeddings of two recognisers.

use raceshot_server::app::startup::{Application, Models};
use raceshot_server::app::state::Clock;
use raceshot_store::Backend;
use raceshot_vision::ModelPair;

use crate::helpers::{TestApp, event, found_names, json, now, photo};

crate::both_backends!(a_shop_with_faces_of_another_pair_refuses_to_start);

async fn a_shop_with_faces_of_another_pair_refuses_to_start(backend: Backend) {
    let app = TestApp::builder(backend)
        .with_event(event("race"))
        .spawn()
        .await;
    let mut config = app.state.config.clone();
    // No face yet: either pair may start on this store.
    config.faces.model_pair = ModelPair::YuNetSFace;
    let empty =
        Application::build_with(config.clone(), Clock::Fixed(now()), false, Models::StandIns).await;
    assert!(empty.is_ok(), "{:?}", empty.err());
    drop(empty);

    app.ingest_shipped_photos().await;
    let refused =
        Application::build_with(config.clone(), Clock::Fixed(now()), false, Models::StandIns)
            .await
            .err()
            .expect("faces of another pair refuse the start");
    let why = format!("{refused:#}");
    assert!(
        why.contains("faces.model_pair is yunet-sface (128-float embeddings)")
            && why.contains(" faces of photos, 0 privacy requests and 0 alerts made by another"),
        "{why}"
    );
    // The pair that made them starts.
    config.faces.model_pair = ModelPair::InsightFace;
    let same = Application::build_with(config, Clock::Fixed(now()), false, Models::StandIns).await;
    assert!(same.is_ok(), "{:?}", same.err());
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
    assert_eq!(app.state.engine.embedding_dim(), 128);
    let seeded = raceshot_server::commands::demo::seed(
        &app.state,
        &crate::helpers::models_dir().join("photos"),
    )
    .await
    .unwrap();
    let body = json(app.search_v1("demo", photo("yaoming.jpg")).await).await;
    assert_eq!(found_names(&body), seeded.with_player_13, "{body}");
}
