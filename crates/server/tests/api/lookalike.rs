//! The lookalike guard through the face search (`raceshot_vision::lookalike`): a photo
//! found only below the threshold (here by the selfie's distant view) is answered when its
//! face resembles one of the runner's surest appearances in the event, and not when it
//! resembles none, nor when the only face it resembles just reaches the threshold (a
//! lookalike's own). A photo the sharp selfie finds at the threshold is always answered.

use raceshot_store::Backend;
use serde_json::json;

use crate::helpers::{
    TestApp, apart_from, at_cosine, blend, event, found_matched_by, json, noisy_jpeg,
};

crate::both_backends!(a_weak_match_is_answered_only_when_a_sure_appearance_vouches_for_it);

async fn a_weak_match_is_answered_only_when_a_sure_appearance_vouches_for_it(backend: Backend) {
    let app = TestApp::builder(backend)
        .with_event(event("race"))
        .spawn()
        .await;
    let selfie = noisy_jpeg(3);
    let (stored, pair, me) = app.selfie_face("race", &selfie).await;
    let distant_at =
        raceshot_server::app::faces::distant_threshold(stored.spec.face_threshold, pair);
    let sharp_at = raceshot_server::app::faces::threshold(stored.spec.face_threshold, pair);
    let gate = pair.lookalike_gate();
    let cos = raceshot_vision::cosine;

    // The runner close up: sure (the sharp selfie scores it well above the threshold).
    let near = at_cosine(&me.sharp, sharp_at + 0.15, 31);
    // The runner far off, and a lookalike far off: the distant view finds both alike, the
    // sharp selfie neither; only the runner's resembles the close-up.
    let runner_far = blend(
        &[
            (&me.distant, distant_at + 0.1),
            (&apart_from(&near, &me.sharp), 0.7),
        ],
        32,
    );
    let lookalike_far = at_cosine(&me.distant, distant_at + 0.1, 33);
    // The lookalike close up, just at the threshold: answered, but too unsure to vouch
    // for the lookalike's other photo, which it resembles closely.
    let lookalike_near = blend(
        &[
            (&me.sharp, sharp_at + 0.02),
            (&apart_from(&lookalike_far, &me.sharp), 0.8),
        ],
        34,
    );
    for (face, what) in [
        (&runner_far, "runner far"),
        (&lookalike_far, "lookalike far"),
    ] {
        let (sharp, distant) = (cos(&me.sharp, face), cos(&me.distant, face));
        assert!(
            sharp < sharp_at - 0.1,
            "{what}: the sharp selfie scores {sharp}"
        );
        assert!(
            distant >= distant_at + 0.05,
            "{what}: the distant view scores {distant}"
        );
    }
    let lookalike_sharp = cos(&me.sharp, &lookalike_near);
    assert!(
        (sharp_at..sharp_at + raceshot_vision::lookalike::SURE_MARGIN).contains(&lookalike_sharp),
        "{lookalike_sharp}"
    );
    assert!(cos(&runner_far, &near) >= gate + 0.05);
    assert!(cos(&lookalike_far, &near) < gate - 0.1);
    assert!(cos(&lookalike_far, &lookalike_near) >= gate + 0.05);

    let runner_far_id = app
        .photo_of_face("race", "runner-far.jpg", &runner_far)
        .await;
    let lookalike_far_id = app
        .photo_of_face("race", "lookalike-far.jpg", &lookalike_far)
        .await;
    let lookalike_near_id = app
        .photo_of_face("race", "lookalike-near.jpg", &lookalike_near)
        .await;
    let found = |body: &serde_json::Value| -> Vec<i64> {
        let mut ids: Vec<i64> = found_matched_by(body).iter().map(|(id, _)| *id).collect();
        ids.sort_unstable();
        ids
    };

    // No sure appearance yet: only the photo at the threshold.
    let body = json(app.face_search(selfie.clone(), json!({})).await).await;
    assert_eq!(body["status"], "success", "{body}");
    assert_eq!(found(&body), vec![lookalike_near_id], "{body}");

    // The close-up arrives and vouches for the runner far off, not for the lookalike.
    let near_id = app.photo_of_face("race", "near.jpg", &near).await;
    let body = json(app.face_search(selfie, json!({})).await).await;
    let mut want = vec![runner_far_id, lookalike_near_id, near_id];
    want.sort_unstable();
    assert_eq!(found(&body), want, "{body}");
    assert!(!found(&body).contains(&lookalike_far_id));
    assert_eq!(body["image_length"], 3);
}
