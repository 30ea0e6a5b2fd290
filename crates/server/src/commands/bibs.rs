//! `raceshot bibs --event KEY [--wait]`: reads the bib numbers of an event's ready photos
//! again, as one `read_bibs` job per photo (any worker takes them). With `--wait` this
//! process works on the queue too and returns when every such job is done.

use anyhow::Context;
use raceshot_domain::EventKey;

use crate::app::state::AppState;
use crate::jobs::kinds::ReadBibs;
use crate::jobs::{self, Job as _};

#[derive(Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Photos queued for reading.
    pub queued: usize,
    /// With `--wait`: photos carrying a read bib, and the reads, once done.
    pub photos_with_bibs: i64,
    pub bibs: i64,
}

pub async fn reread(state: &AppState, event_key: &str, wait: bool) -> anyhow::Result<Report> {
    anyhow::ensure!(
        state.reader.is_some(),
        "bib reading is off: set bibs.read to true"
    );
    let key = EventKey::parse(event_key)?;
    let event = state
        .store
        .any_event_by_key(&key)
        .await?
        .with_context(|| format!("no event {event_key}"))?;
    let ids = state.store.ready_photo_ids(event.id).await?;
    let requested = state.now();
    for id in &ids {
        state
            .store
            .enqueue(
                &state.jobs.row(&ReadBibs { photo_id: *id }, requested),
                requested,
            )
            .await?;
    }
    let mut report = Report {
        queued: ids.len(),
        ..Report::default()
    };
    if wait {
        let workers = jobs::Workers::start(state);
        let waited = jobs::wait_until(&state.jobs_finished, || async {
            let pending = state.store.pending_jobs_of_kind(ReadBibs::KIND).await?;
            Ok::<_, raceshot_store::StoreError>(match pending {
                0 => jobs::Waiting::Done(()),
                n => jobs::Waiting::Pending(n.unsigned_abs()),
            })
        })
        .await;
        workers.stop().await;
        waited?;
        (report.photos_with_bibs, report.bibs) = state.store.bib_read_counts(event.id).await?;
    }
    Ok(report)
}
