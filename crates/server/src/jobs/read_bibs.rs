//! `read_bibs`: reads a ready photo's bib numbers again (`raceshot bibs`, after an event's
//! bib rule changed or a better reader came): its original decoded as ingestion decodes it,
//! its stored faces, the event's rule today. What was read before is replaced; operators'
//! corrections stay. A photo deleted meanwhile, not ready, or whose original is gone
//! (retention) is left as it is.

use raceshot_store::photos::PhotoState;
use raceshot_store::{ObjectKey, ObjectKind};
use raceshot_vision::BBox;

use super::ingest_photo::decode_original;
use super::kinds::ReadBibs;
use super::{BackgroundJob, JobContext, JobError};
use crate::app::state::AppState;
use crate::services::bibs::read_photo_bibs;

impl BackgroundJob for ReadBibs {
    async fn run(&self, ctx: &JobContext<'_>) -> Result<(), JobError> {
        read(ctx.state, self.photo_id).await
    }
}

async fn read(state: &AppState, photo_id: i64) -> Result<(), JobError> {
    let Some(reader) = state.reader.clone() else {
        return Err(JobError::Permanent(
            "bib reading is off (bibs.read)".to_owned(),
        ));
    };
    let Some(work) = state.store.photo_work(photo_id).await? else {
        return Ok(());
    };
    if work.state != PhotoState::Ready {
        return Ok(()); // ingestion reads it
    }
    let key = &work.event_key;
    let Some(event) = state.store.any_event_by_key(key).await? else {
        return Ok(());
    };
    let name = &work.storage_name;
    let original = match state
        .objects
        .get(&ObjectKey::new(key, ObjectKind::Original, name))
        .await
    {
        Ok(bytes) => bytes,
        Err(e) if e.is_not_found() => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    let (pair, engine) = state
        .faces
        .of_event(&event)
        .await
        .map_err(JobError::Retry)?;
    let faces = state.store.faces_of_photo(photo_id, pair.name()).await?;
    let rule = event.spec.bib_rule;
    let bibs = tokio::task::spawn_blocking(move || {
        let (img, size) = decode_original(&[engine.as_ref()], &original)?;
        // Stored boxes are in the original's pixels; the reader works in the decoded ones.
        let scale = f64::from(size.0) / f64::from(img.width().max(1));
        let boxes: Vec<BBox> = faces
            .iter()
            .map(|f| {
                let [x1, y1, x2, y2] = f.bbox.map(|v| (v / scale) as f32);
                BBox { x1, y1, x2, y2 }
            })
            .collect();
        read_photo_bibs(reader.as_ref(), &img, &boxes, &rule, scale)
            .map_err(|e| JobError::Retry(e.into()))
    })
    .await
    .map_err(|e| JobError::Retry(e.into()))??;
    state
        .store
        .replace_photo_bibs(photo_id, work.event_id, &bibs)
        .await?;
    Ok(())
}
