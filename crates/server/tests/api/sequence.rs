//! Matching by sequence (`services::search::sequence`), through the face search: a face a
//! little short of the threshold is found, marked `matched_by: sequence`, when a face
//! matched outright in a shown photo of the same photographer, a moment apart, stood where
//! it is; not for another photographer, another moment, another place, a photo with no
//! time, a face below the pair's floor, a hidden anchor, or a visitor who raised the
//! threshold.

use chrono::{DateTime, Duration, Utc};
use raceshot_store::Backend;
use serde_json::json;

use crate::helpers::{
    TestApp, at_cosine, event, face_at as face, found_matched_by as found, json, noisy_jpeg, now,
};

crate::both_backends!(a_face_short_of_the_threshold_is_found_beside_an_outright_match);

async fn a_face_short_of_the_threshold_is_found_beside_an_outright_match(backend: Backend) {
    let app = TestApp::builder(backend)
        .with_event(event("race"))
        .spawn()
        .await;
    let selfie = noisy_jpeg(3);
    let (stored, pair, me) = app.selfie_face("race", &selfie).await;
    let me = me.sharp;
    let threshold = stored.spec.face_threshold as f32;
    let floor = pair.sequence_floor();
    assert!(floor + 0.1 < threshold, "{floor} {threshold}");
    let (outright, short, too_far) = (threshold + 0.25, floor + 0.05, floor - 0.05);

    let t0: DateTime<Utc> = now() - Duration::hours(2);
    let ms = Duration::milliseconds;
    let mut seed = 100;
    let mut photo = |name: &'static str, sim: f32, x: f64, by: i64, at: Option<DateTime<Utc>>| {
        seed += 1;
        let faces = vec![face(&at_cosine(&me, sim, seed), x)];
        let app = &app;
        async move {
            app.ready_photo_taken("race", name, noisy_jpeg(9), (6000, 4000), faces, (by, at))
                .await
        }
    };
    let anchor = photo("A.jpg", outright, 1000.0, 7, Some(t0)).await;
    let next = photo("B.jpg", short, 1012.0, 7, Some(t0 + ms(500))).await;
    let other_camera = photo("C.jpg", short, 1000.0, 8, Some(t0 + ms(500))).await;
    let later = photo("D.jpg", short, 1000.0, 7, Some(t0 + ms(3000))).await;
    let elsewhere = photo("E.jpg", short, 1500.0, 7, Some(t0 + ms(500))).await;
    let below_floor = photo("F.jpg", too_far, 1000.0, 7, Some(t0 + ms(400))).await;
    let no_time = photo("G.jpg", short, 1000.0, 7, None).await;
    let before = photo("H.jpg", short, 990.0, 7, Some(t0 - ms(900))).await;
    let missed = [other_camera, later, elsewhere, below_floor, no_time];

    let body = json(app.face_search(selfie.clone(), json!({})).await).await;
    assert_eq!(body["status"], "success", "{body}");
    let answer = found(&body);
    assert_eq!(
        answer[0],
        (anchor, None),
        "the outright match first: {body}"
    );
    let mut rest = answer[1..].to_vec();
    rest.sort_unstable();
    assert_eq!(
        rest,
        vec![
            (next, Some("sequence".to_owned())),
            (before, Some("sequence".to_owned()))
        ],
        "{body}"
    );
    assert!(answer.iter().all(|(id, _)| !missed.contains(id)));
    assert_eq!(body["image_length"], 3);
    // The similarity answered is the face's own, short of the threshold.
    let shown = body["images"][1]["similarity"].as_f64().unwrap() as f32;
    assert!((shown - short).abs() < 0.01, "{shown}");

    // A visitor who raises the threshold gets outright matches only.
    let strict = json!({"face_threshold": f64::from(threshold) + 0.1});
    let body = json(app.face_search(selfie.clone(), strict).await).await;
    assert_eq!(found(&body), vec![(anchor, None)], "{body}");

    // A hidden photo anchors nothing.
    app.store
        .set_photo_flags(anchor, Some(true), None, now())
        .await
        .unwrap();
    let body = json(app.face_search(selfie, json!({})).await).await;
    assert_eq!(found(&body), Vec::new(), "{body}");
}
