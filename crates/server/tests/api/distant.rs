//! The selfie seen from afar (`FaceAnalyzer::embed_distant`), through the face search: a face
//! that resembles the selfie's distant view is found outright, at the view's own
//! threshold, beside the faces the sharp selfie finds (and resembling one of them, as the
//! lookalike guard asks: `lookalike.rs`); a face below that threshold is not, and a
//! visitor who raises the threshold raises it for both views.

use raceshot_store::Backend;
use serde_json::json;

use crate::helpers::{Runner, TestApp, apart_from, at_cosine, blend, found_matched_by, json};

crate::both_backends!(a_face_like_the_distant_view_is_found_at_its_own_threshold);

async fn a_face_like_the_distant_view_is_found_at_its_own_threshold(backend: Backend) {
    let (app, runner) = TestApp::with_runner(backend).await;
    let Runner {
        selfie,
        pair,
        me,
        sharp_at,
        distant_at,
    } = runner;

    let near_face = at_cosine(&me.sharp, sharp_at + 0.15, 13);
    // The runner far off: like the distant view, and like the near face in what it has
    // beyond the selfie.
    let far_face = blend(
        &[
            (&me.distant, distant_at + 0.1),
            (&apart_from(&near_face, &me.sharp), 0.7),
        ],
        11,
    );
    let too_unlike = at_cosine(&me.distant, distant_at - 0.05, 12);
    // Only the distant view finds the first; neither finds the second.
    for (face, what) in [(&far_face, "far"), (&too_unlike, "too unlike")] {
        let s = raceshot_vision::cosine(&me.sharp, face);
        assert!(s < sharp_at - 0.1, "{what}: the sharp selfie scores {s}");
    }
    let resemblance = raceshot_vision::cosine(&far_face, &near_face);
    assert!(resemblance > pair.lookalike_gate() + 0.05, "{resemblance}");
    let like_view = raceshot_vision::cosine(&me.distant, &far_face);
    assert!(like_view >= distant_at + 0.05, "{like_view}");
    let far = app.photo_of_face("race", "far.jpg", &far_face).await;
    let unlike = app.photo_of_face("race", "unlike.jpg", &too_unlike).await;
    let near = app.photo_of_face("race", "near.jpg", &near_face).await;

    let body = json(app.face_search(selfie.clone(), json!({})).await).await;
    assert_eq!(body["status"], "success", "{body}");
    // Both outright matches, the better first; no `matched_by`.
    assert_eq!(
        found_matched_by(&body),
        vec![(near, None), (far, None)],
        "{body}"
    );
    assert_eq!(body["image_length"], 2);
    let shown = body["images"][1]["similarity"].as_f64().unwrap() as f32;
    assert!(
        (shown - like_view).abs() < 0.01,
        "{shown} against {like_view}"
    );
    assert!(found_matched_by(&body).iter().all(|(id, _)| *id != unlike));

    // A visitor's higher threshold holds for the distant view too.
    let strict = json!({"face_threshold": f64::from(sharp_at) + 0.12});
    let body = json(app.face_search(selfie, strict).await).await;
    assert_eq!(found_matched_by(&body), vec![(near, None)], "{body}");
}
