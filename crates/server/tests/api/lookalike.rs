//! The lookalike guard through the face search (`raceshot_vision::lookalike`): a photo
//! found only below the threshold (here by the selfie's distant view) is answered when its
//! face resembles one of the runner's surest appearances in the event, and not when it
//! resembles none, nor when the only face it resembles just reaches the threshold (a
//! lookalike's own), unless its face wears the bib read under the runner's sure
//! appearance. A photo the sharp selfie finds at the threshold is always answered.

use raceshot_store::Backend;
use raceshot_vision::cosine;
use serde_json::json;

use crate::helpers::{Runner, TestApp, apart_from, at_cosine, blend, found_matched_by, json};

crate::both_backends!(
    a_weak_match_is_answered_only_when_a_sure_appearance_vouches_for_it,
    a_weak_match_wearing_the_runners_bib_is_answered,
);

async fn a_weak_match_is_answered_only_when_a_sure_appearance_vouches_for_it(backend: Backend) {
    let (app, runner) = TestApp::with_runner(backend).await;
    let Runner {
        selfie,
        pair,
        me,
        sharp_at,
        distant_at,
    } = runner;
    let gate = pair.lookalike_gate();

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
        let (sharp, distant) = (cosine(&me.sharp, face), cosine(&me.distant, face));
        assert!(
            sharp < sharp_at - 0.1,
            "{what}: the sharp selfie scores {sharp}"
        );
        assert!(
            distant >= distant_at + 0.05,
            "{what}: the distant view scores {distant}"
        );
    }
    let lookalike_sharp = cosine(&me.sharp, &lookalike_near);
    assert!(
        (sharp_at..sharp_at + raceshot_vision::lookalike::SURE_MARGIN).contains(&lookalike_sharp),
        "{lookalike_sharp}"
    );
    assert!(cosine(&runner_far, &near) >= gate + 0.05);
    assert!(cosine(&lookalike_far, &near) < gate - 0.1);
    assert!(cosine(&lookalike_far, &lookalike_near) >= gate + 0.05);

    let runner_far_id = app
        .photo_of_face("race", "runner-far.jpg", &runner_far)
        .await;
    let lookalike_far_id = app
        .photo_of_face("race", "lookalike-far.jpg", &lookalike_far)
        .await;
    let lookalike_near_id = app
        .photo_of_face("race", "lookalike-near.jpg", &lookalike_near)
        .await;

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

/// A photo found only by the distant view whose face resembles none of the runner's sure
/// appearances (a face changes across a day) is answered once the bib read under it is the
/// one read under the runner's sure appearance; a lookalike wearing another bib is not.
async fn a_weak_match_wearing_the_runners_bib_is_answered(backend: Backend) {
    let (app, runner) = TestApp::with_runner(backend).await;
    let Runner {
        selfie,
        pair,
        me,
        sharp_at,
        distant_at,
    } = runner;
    let gate = pair.lookalike_gate();

    let near = at_cosine(&me.sharp, sharp_at + 0.15, 41);
    let runner_far = at_cosine(&me.distant, distant_at + 0.1, 42);
    let lookalike_far = at_cosine(&me.distant, distant_at + 0.1, 43);
    for (face, what) in [
        (&runner_far, "runner far"),
        (&lookalike_far, "lookalike far"),
    ] {
        assert!(cosine(&me.sharp, face) < sharp_at - 0.1, "{what}");
        assert!(cosine(&me.distant, face) >= distant_at + 0.05, "{what}");
        assert!(
            cosine(face, &near) < gate - 0.1,
            "{what}: no face vouches for it"
        );
    }
    let near_id = app.photo_of_face("race", "near.jpg", &near).await;
    let runner_far_id = app
        .photo_of_face("race", "runner-far.jpg", &runner_far)
        .await;
    let lookalike_far_id = app
        .photo_of_face("race", "lookalike-far.jpg", &lookalike_far)
        .await;
    // `photo_of_face` puts the face at x 1000..1060, y 1000..1080: the bib on its chest.
    let chest = [990.0, 1120.0, 1070.0, 1160.0];

    // Unread bibs: the face alone cannot vouch for the runner far off.
    let body = json(app.face_search(selfie.clone(), json!({})).await).await;
    assert_eq!(found(&body), vec![near_id], "{body}");

    // Read under the lookalike and the runner far off only: no sure appearance wears one.
    app.put_bib("race", lookalike_far_id, "5678", chest).await;
    app.put_bib("race", runner_far_id, "1234", chest).await;
    let body = json(app.face_search(selfie.clone(), json!({})).await).await;
    assert_eq!(found(&body), vec![near_id], "{body}");

    // Read under the close-up too: the runner's bib vouches for the runner far off.
    app.put_bib("race", near_id, "1234", chest).await;
    let body = json(app.face_search(selfie, json!({})).await).await;
    let mut want = vec![near_id, runner_far_id];
    want.sort_unstable();
    assert_eq!(found(&body), want, "{body}");
    assert!(!found(&body).contains(&lookalike_far_id));
    assert_eq!(body["image_length"], 2);
}

/// The photos a search answered, by id.
fn found(body: &serde_json::Value) -> Vec<i64> {
    let mut ids: Vec<i64> = found_matched_by(body).iter().map(|(id, _)| *id).collect();
    ids.sort_unstable();
    ids
}
