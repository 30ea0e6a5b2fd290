//! Thresholds fitted on the event's crowd (`raceshot_vision::calibration`), through the
//! face search: where the event's small faces barely resemble the selfie, a small face a
//! little below the event's threshold is found, never one below the pair's calibrated
//! floor, and never a large face (too few large faces for a fit: the event's threshold
//! holds there). The small face is the runner's, like a close-up of them found outright
//! (the lookalike guard asks that of a match below the threshold: `lookalike.rs`). A crowd
//! whose faces spread widely keeps the event's threshold, and a visitor's raised threshold
//! holds for every face.

use raceshot_store::Backend;
use raceshot_vision::{Embedding, cosine};
use serde_json::json;

use crate::helpers::{
    TestApp, apart_from, at_cosine, blend, event, face_of_width, found_matched_by, json, noisy_jpeg,
};

/// A crowd of 120 faces 40 px wide whose similarities to `me` spread evenly over
/// `-spread..=spread`.
fn crowd(me: &Embedding, spread: f32) -> Vec<raceshot_store::photos::NewFace> {
    (0..120u64)
        .map(|i| {
            let c = spread * (i as f32 / 119.0 * 2.0 - 1.0);
            face_of_width(&at_cosine(me, c, 1000 + i), 30.0 * i as f64, 40.0)
        })
        .collect()
}

crate::both_backends!(small_faces_are_matched_where_the_crowd_leaves_room);

async fn small_faces_are_matched_where_the_crowd_leaves_room(backend: Backend) {
    let app = TestApp::builder(backend)
        .with_event(event("race"))
        .with_event(event("wide"))
        .spawn()
        .await;
    let selfie = noisy_jpeg(3);
    let (stored, pair, me) = app.selfie_face("race", &selfie).await;
    let at = raceshot_server::app::faces::threshold(stored.spec.face_threshold, pair);
    let floor = pair.calibrated_floor();
    assert!(floor + 0.06 < at, "{floor} {at}");
    let between = (floor + at) / 2.0;

    // Faces between the floor and the threshold, and one below the floor, none of which
    // the distant view finds on its own: it scores the large face below the event's
    // threshold and the one below the floor below the floor.
    let near = at_cosine(&me.sharp, at + 0.15, 20);
    let small = blend(
        &[(&me.sharp, between), (&apart_from(&near, &me.sharp), 0.7)],
        21,
    );
    assert!((cosine(&me.sharp, &small) - between).abs() < 0.005);
    assert!(cosine(&small, &near) >= pair.lookalike_gate() + 0.05);
    let large = at_cosine(&me.sharp, between, 22);
    let below = at_cosine(&me.sharp, floor - 0.1, 23);
    let distant = |face: &Embedding| cosine(&me.distant, face);
    assert!(distant(&large) < at, "{}", distant(&large));
    assert!(distant(&below) < floor, "{}", distant(&below));
    let mut race_ids = None;
    for key in ["race", "wide"] {
        let spread = if key == "race" { 0.03 } else { 0.3 };
        app.ready_photo(
            key,
            "crowd.jpg",
            noisy_jpeg(9),
            (6000, 4000),
            crowd(&me.sharp, spread),
        )
        .await;
        let photo = |name: &'static str, face: &Embedding, width: f64| {
            let app = &app;
            let face = face_of_width(face, 3000.0, width);
            async move {
                app.ready_photo(key, name, noisy_jpeg(9), (6000, 4000), vec![face])
                    .await
            }
        };
        let id = photo("small.jpg", &small, 40.0).await;
        if key == "race" {
            race_ids = Some((photo("near.jpg", &near, 120.0).await, id));
        }
        photo("large.jpg", &large, 120.0).await;
        photo("below.jpg", &below, 40.0).await;
    }
    let (near_id, small_id) = race_ids.unwrap();

    // The crowd's small faces barely resemble the selfie: its small face is found, at its
    // own similarity, after the close-up, and neither the large one nor the one below the
    // floor.
    let body = json(app.face_search(selfie.clone(), json!({})).await).await;
    assert_eq!(body["status"], "success", "{body}");
    assert_eq!(
        found_matched_by(&body),
        vec![(near_id, None), (small_id, None)],
        "{body}"
    );
    let shown = body["images"][1]["similarity"].as_f64().unwrap() as f32;
    assert!((shown - between).abs() < 0.01, "{shown}");

    // A visitor's raised threshold holds for every face.
    let strict = json!({"face_threshold": f64::from(at) + 0.01});
    let body = json(app.face_search(selfie.clone(), strict).await).await;
    assert_eq!(found_matched_by(&body), vec![(near_id, None)], "{body}");

    // A crowd spread widely leaves no room below the event's threshold.
    let body = json(app.face_search_in("wide", selfie, json!({})).await).await;
    assert_eq!(body["status"], "success", "{body}");
    assert_eq!(found_matched_by(&body), Vec::new(), "{body}");
}
