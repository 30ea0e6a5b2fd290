//! `raceshot faces reindex --event KEY`: moves an event to the configured model pair
//! (`faces.model_pair`; [`crate::services::reindex`]). This process works on the queue
//! (other workers help), the progress is shown as photos are done, and the move is finished
//! when the last is. Interrupted, it is run again: it carries on where it stopped.

use std::cell::{Cell, RefCell};

use anyhow::Context;
use raceshot_domain::EventKey;
use raceshot_store::face_pairs::TemplateOwner;
use raceshot_vision::ModelPair;

use crate::app::state::AppState;
use crate::jobs;
use crate::services::reindex::{self, Finish, Started};

/// What a reindex did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Report {
    /// The event uses the pair already: nothing to do.
    AlreadyOn(ModelPair),
    Moved {
        pair: ModelPair,
        /// The photos given the pair's faces by this run.
        queued: usize,
        /// Templates of privacy requests and alerts carried over.
        carried: usize,
        /// The old pair's faces deleted.
        old_faces: u64,
    },
}

/// Moves the event to the configured pair; `progress` is told (photos done, photos) as
/// they are done.
pub async fn reindex(
    state: &AppState,
    event_key: &str,
    progress: impl FnMut(i64, i64),
) -> anyhow::Result<Report> {
    let key = EventKey::parse(event_key)?;
    let event = (state.store)
        .any_event_by_key(&key)
        .await?
        .with_context(|| format!("no event {event_key}"))?;
    let pair = state.faces.configured();
    let moving = &state.reindexing();
    let queued = match reindex::start(moving, &event, pair).await? {
        Started::AlreadyOn => return Ok(Report::AlreadyOn(pair)),
        Started::Moving { queued } => queued,
    };
    let workers = jobs::Workers::start(state);
    let (shown, progress, event) = (&Cell::new(None), &RefCell::new(progress), &event);
    let finished = jobs::wait_until(&state.jobs_finished, || async move {
        let (done, total) = reindex::progress(moving, event.id, pair).await?;
        if shown.replace(Some(done)) != Some(done) {
            (progress.borrow_mut())(done, total);
        }
        if done < total {
            return Ok(jobs::Waiting::Pending((total - done).unsigned_abs()));
        }
        match reindex::finish(moving, event, pair).await? {
            Finish::PhotosLeft(n) => Ok(jobs::Waiting::Pending(n.unsigned_abs().max(1))),
            other => Ok::<_, anyhow::Error>(jobs::Waiting::Done(other)),
        }
    })
    .await;
    workers.stop().await;
    match finished? {
        Finish::Moved { carried, old_faces } => Ok(Report::Moved {
            pair,
            queued,
            carried,
            old_faces,
        }),
        Finish::NotMoving => anyhow::bail!(
            "{event_key} is no longer moving to {pair}: another process moved it meanwhile"
        ),
        Finish::NotCarried(owners) => anyhow::bail!(
            "every photo of {event_key} has {pair}'s faces, but {} is on none of its photos, so \
             its face cannot be carried to {pair}; the event stays on its pair (searches are \
             unchanged) until it ends or is decided, then run this again",
            owners.iter().map(owner).collect::<Vec<_>>().join(", ")
        ),
        Finish::PhotosLeft(_) => unreachable!("waited until no photo was left"),
    }
}

fn owner(o: &TemplateOwner) -> String {
    match o {
        TemplateOwner::Privacy(id) => format!("privacy request {id}"),
        TemplateOwner::Alert(id) => format!("alert {id}"),
    }
}
