//! `reindex_photo`: gives a ready photo the faces of the model pair its event is moving to
//! (`raceshot faces reindex`), beside the faces searched now. The original is decoded and
//! analysed by that pair alone: thumbnails, previews and bibs stay as they are. Nothing is
//! done for a photo not ready yet (its ingestion finds both pairs' faces), one that has
//! them already, or an event no longer moving to the pair: running it again changes
//! nothing.

use raceshot_store::photos::PhotoState;

use super::ingest_photo::{decode_original, find_faces, read_original};
use super::kinds::ReindexPhoto;
use super::{BackgroundJob, JobContext, JobError};
use crate::app::faces;
use crate::app::state::AppState;

impl BackgroundJob for ReindexPhoto {
    async fn run(&self, ctx: &JobContext<'_>) -> Result<(), JobError> {
        reindex(ctx.state, self.photo_id, &self.pair).await
    }
}

async fn reindex(state: &AppState, photo_id: i64, pair_name: &str) -> Result<(), JobError> {
    let pair = faces::parse(pair_name).map_err(|e| JobError::Permanent(e.to_string()))?;
    let Some(work) = state.store.photo_work(photo_id).await? else {
        return Ok(()); // deleted meanwhile
    };
    if work.state != PhotoState::Ready {
        return Ok(()); // its ingestion finds the faces of both pairs
    }
    let key = &work.event_key;
    let Some(event) = state.store.any_event_by_key(key).await? else {
        return Ok(());
    };
    if event.reindex_to.as_deref() != Some(pair_name) {
        return Ok(());
    }
    let original = read_original(state, key, &work.storage_name).await?;
    let engine = state.faces.engine(pair).await.map_err(JobError::Retry)?;
    let set = tokio::task::spawn_blocking(move || {
        let (img, size) = decode_original(&[engine.as_ref()], &original)?;
        let scale = f64::from(size.0) / f64::from(img.width().max(1));
        Ok::<_, JobError>(find_faces((pair, engine.as_ref()), &img, scale)?.0)
    })
    .await
    .map_err(|e| JobError::Retry(e.into()))??;
    if (state.store)
        .save_reindexed_faces(photo_id, work.event_id, &set)
        .await?
    {
        metrics::counter!("photos_reindexed_total").increment(1);
    }
    Ok(())
}
