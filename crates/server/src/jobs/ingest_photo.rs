//! `ingest_photo`: turns an uploaded original into a shop photo — EXIF orientation applied,
//! a thumbnail (long edge 400) and a watermarked preview (long edge 1600) written to
//! storage, faces detected and embedded by the event's model pair (and by the pair it is
//! moving to, during a move: `crate::services::reindex`), bib numbers read under them
//! (`crate::services::bibs`), the time taken read from EXIF, then the photo marked ready with its faces and bibs in one
//! transaction (hidden at once when an approved privacy request's face is on it), then
//! matched against the event's alerts (`crate::services::alerts::watch`). Running it again rewrites the same files and replaces the same faces and
//! bibs (operators' bib corrections stay).

use raceshot_domain::{BibRule, EventKey};
use raceshot_store::photos::{FaceSet, NewFace, PhotoState, ProcessedPhoto, Saved};
use raceshot_store::{ObjectKey, ObjectKind, StoredName};
use raceshot_vision::image_io::{DecodeOptions, decode, probe, resize_to_long_edge};
use raceshot_vision::{BBox, BibReader, FaceAnalyzer, ModelPair, RgbImage};

use super::kinds::IngestPhoto;
use super::{BackgroundJob, JobContext, JobError};
use crate::app::state::AppState;
use crate::infra::imaging::{MAX_PHOTO_PIXELS, encode_jpeg, watermark};
use crate::services::alerts;
use crate::services::bibs::{read_photo_bibs, taken_at};
use crate::services::photos::derived_name;
use crate::services::privacy::held_for;

pub const PREVIEW_EDGE: u32 = 1600;
pub const THUMBNAIL_EDGE: u32 = 400;

struct Processed {
    preview: Vec<u8>,
    thumbnail: Vec<u8>,
    found: ProcessedPhoto,
    /// Seconds spent decoding, on faces, on bibs, and making the preview and thumbnail.
    stages: [f64; 4],
}

impl BackgroundJob for IngestPhoto {
    async fn run(&self, ctx: &JobContext<'_>) -> Result<(), JobError> {
        ingest(ctx.state, self.photo_id).await
    }

    /// A file that cannot be processed fails at once, anything else once its retries ran
    /// out: the photo fails alone, with the reason.
    async fn gave_up(&self, ctx: &JobContext<'_>, error: &str) {
        let id = self.photo_id;
        match ctx
            .state
            .store
            .set_photo_state(id, PhotoState::Failed, Some(error), ctx.state.now())
            .await
        {
            Ok(()) => metrics::counter!("photos_failed_total").increment(1),
            Err(e) => tracing::error!(photo = id, error = %e, "cannot mark the photo failed"),
        }
    }
}

async fn ingest(state: &AppState, photo_id: i64) -> Result<(), JobError> {
    let Some(work) = state.store.photo_work(photo_id).await? else {
        return Ok(()); // deleted meanwhile
    };
    if work.state == PhotoState::Ready {
        return Ok(());
    }
    let event = &work.event_key;
    let Some(the_event) = state.store.any_event_by_key(event).await? else {
        return Ok(()); // deleted meanwhile
    };
    // The event's pair and, while it moves to another, that one too.
    let pairs = state.faces.pairs_of(&the_event).map_err(JobError::Retry)?;
    let engine = state
        .faces
        .engine(pairs.pair)
        .await
        .map_err(JobError::Retry)?;
    let next = match pairs.next {
        Some(pair) => Some((
            pair,
            state.faces.engine(pair).await.map_err(JobError::Retry)?,
        )),
        None => None,
    };
    let spec = the_event.spec;
    let rule = spec.bib_rule;
    let name = &work.storage_name;
    let derived = StoredName::parse(&derived_name(name.as_str()))
        .ok_or_else(|| JobError::Permanent("bad derived name".to_owned()))?;
    state
        .store
        .set_photo_state(photo_id, PhotoState::Processing, None, state.now())
        .await?;

    let started = std::time::Instant::now();
    let original = read_original(state, event, name).await?;
    let read = started.elapsed().as_secs_f64();
    let reader = state.reader.clone();
    let pair = pairs.pair;
    let processed = tokio::task::spawn_blocking(move || {
        let next = next.as_ref().map(|(pair, engine)| (*pair, engine.as_ref()));
        process(
            (pair, engine.as_ref()),
            next,
            reader.as_deref(),
            &rule,
            &original,
        )
    })
    .await
    .map_err(|e| JobError::Retry(e.into()))??;
    let mut processed = processed;
    // Approved requests to hide one's photos cover photos ingested after them too.
    let templates = (state.store)
        .privacy_templates(work.event_id, pair.name())
        .await?;
    processed.found.held_for = held_for(
        &templates,
        &processed.found.faces.faces,
        crate::app::faces::threshold(spec.face_threshold, pair),
        pair.embedding_dim(),
    );
    let stored = std::time::Instant::now();
    state
        .objects
        .put(
            &ObjectKey::new(event, ObjectKind::Preview, &derived),
            processed.preview.into(),
        )
        .await?;
    state
        .objects
        .put(
            &ObjectKey::new(event, ObjectKind::Thumbnail, &derived),
            processed.thumbnail.into(),
        )
        .await?;
    let saved = (state.store)
        .save_processed_photo(photo_id, work.event_id, &processed.found, state.now())
        .await?;
    if saved == Saved::EventMoved {
        let moved = "the event moved to another face model pair meanwhile: processed again";
        return Err(JobError::Retry(anyhow::anyhow!(moved)));
    }
    // Runners who asked to be told of new photos of them. A photo held for a privacy
    // request tells no one. The photo is ready now and is not processed again, so a
    // failure here is logged, not retried: that photo is not told of.
    let alerts_started = std::time::Instant::now();
    if processed.found.held_for.is_empty()
        && let Err(e) = alerts::watch::photo_ingested(
            &state.alerting(),
            work.event_id,
            photo_id,
            pair,
            &processed.found.faces.faces,
            crate::app::faces::threshold(spec.face_threshold, pair),
        )
        .await
    {
        tracing::warn!(photo = photo_id, error = %e, "cannot match the photo against the event's alerts");
    }
    let alerts_s = alerts_started.elapsed().as_secs_f64();
    let [decode_s, faces_s, bibs_s, images_s] = processed.stages;
    let store_s = stored.elapsed().as_secs_f64() + read;
    for (stage, secs) in [
        ("decode", decode_s),
        ("faces", faces_s),
        ("bibs", bibs_s),
        ("images", images_s),
        ("storage", store_s),
        ("alerts", alerts_s),
    ] {
        metrics::histogram!("ingest_stage_seconds", "stage" => stage).record(secs);
    }
    metrics::counter!("photos_ingested_total").increment(1);
    tracing::debug!(
        photo = photo_id,
        faces = processed.found.faces.faces.len(),
        bibs = processed.found.bibs.len(),
        decode_s,
        faces_s,
        bibs_s,
        images_s,
        store_s,
        alerts_s,
        total_s = started.elapsed().as_secs_f64(),
        "photo ingested"
    );
    Ok(())
}

/// A photo's original from storage; gone from it, the photo cannot be processed.
pub(super) async fn read_original(
    state: &AppState,
    event: &EventKey,
    name: &StoredName,
) -> Result<bytes::Bytes, JobError> {
    match (state.objects)
        .get(&ObjectKey::new(event, ObjectKind::Original, name))
        .await
    {
        Ok(bytes) => Ok(bytes),
        Err(e) if e.is_not_found() => Err(JobError::Permanent(
            "the original file is missing from storage".to_owned(),
        )),
        Err(e) => Err(e.into()),
    }
}

fn image_error(e: raceshot_vision::Error) -> JobError {
    use raceshot_vision::Error as E;
    match e {
        E::UnsupportedFormat => JobError::Permanent("not a JPEG or PNG file".to_owned()),
        E::TooManyPixels { width, height, .. } => JobError::Permanent(format!(
            "{width}×{height} is more pixels than the shop accepts"
        )),
        E::Decode(msg) => JobError::Permanent(format!("cannot decode the image: {msg}")),
        other => JobError::Retry(other.into()),
    }
}

/// The original as ingestion works on it — upright, DCT-scaled to a long edge of at least
/// the preview's and each engine's passes' ([`FaceAnalyzer::decode_long_edge`]) — and its
/// displayed size.
pub(super) fn decode_original(
    engines: &[&dyn FaceAnalyzer],
    original: &[u8],
) -> Result<(RgbImage, (u32, u32)), JobError> {
    let info = probe(original).map_err(image_error)?;
    let edge = engines
        .iter()
        .map(|e| e.decode_long_edge())
        .max()
        .unwrap_or(0);
    let opts = DecodeOptions::default()
        .with_max_pixels(MAX_PHOTO_PIXELS)
        .with_target_long_edge(PREVIEW_EDGE.max(edge));
    let img = decode(original, &opts).map_err(image_error)?;
    Ok((img, info.display_size()))
}

/// The faces `engine` (of `pair`) finds on `img`, with boxes and landmarks in the
/// original's pixels (`scale` of the decoded image's).
pub(super) fn find_faces(
    (pair, engine): (ModelPair, &dyn FaceAnalyzer),
    img: &RgbImage,
    scale: f64,
) -> Result<(FaceSet, Vec<BBox>), JobError> {
    let faces = engine.analyze(img).map_err(|e| JobError::Retry(e.into()))?;
    let boxes: Vec<BBox> = faces.iter().map(|f| f.bbox).collect();
    let faces = faces
        .into_iter()
        .map(|f| NewFace {
            embedding: f.embedding.to_bytes(),
            bbox: [f.bbox.x1, f.bbox.y1, f.bbox.x2, f.bbox.y2].map(|v| f64::from(v) * scale),
            landmarks: f
                .landmarks
                .iter()
                .flat_map(|[x, y]| [*x, *y])
                .map(|v| (f64::from(v) * scale) as f32)
                .flat_map(f32::to_le_bytes)
                .collect(),
            score: f64::from(f.score),
        })
        .collect();
    let set = FaceSet {
        pair: pair.name().to_owned(),
        faces,
    };
    Ok((set, boxes))
}

/// Processes the original with the event's pair and, while it moves, the next one too.
fn process(
    engine: (ModelPair, &dyn FaceAnalyzer),
    next: Option<(ModelPair, &dyn FaceAnalyzer)>,
    reader: Option<&dyn BibReader>,
    rule: &BibRule,
    original: &[u8],
) -> Result<Processed, JobError> {
    let t0 = std::time::Instant::now();
    let engines: Vec<&dyn FaceAnalyzer> = std::iter::once(engine.1)
        .chain(next.map(|(_, e)| e))
        .collect();
    let (img, size) = decode_original(&engines, original)?;
    let t1 = std::time::Instant::now();

    // Boxes are in the decoded image's pixels; the shop stores the original's.
    let scale = f64::from(size.0) / f64::from(img.width().max(1));
    let (faces, boxes) = find_faces(engine, &img, scale)?;
    let next_faces = match next {
        Some(next) => Some(find_faces(next, &img, scale)?.0),
        None => None,
    };

    let t2 = std::time::Instant::now();
    let bibs = match reader {
        Some(reader) => read_photo_bibs(reader, &img, &boxes, rule, scale)
            .map_err(|e| JobError::Retry(e.into()))?,
        None => Vec::new(),
    };

    let t3 = std::time::Instant::now();
    let preview = shrink(&img, PREVIEW_EDGE);
    let thumbnail = encode_jpeg(&shrink(&preview, THUMBNAIL_EDGE), 80)?;
    let preview = encode_jpeg(&watermark(preview), 82)?;
    let stages = [t1 - t0, t2 - t1, t3 - t2, t3.elapsed()].map(|d| d.as_secs_f64());
    Ok(Processed {
        preview,
        thumbnail,
        found: ProcessedPhoto {
            size,
            faces,
            next_faces,
            bibs,
            taken_at: taken_at(original),
            held_for: Vec::new(),
        },
        stages,
    })
}

fn shrink(img: &RgbImage, edge: u32) -> RgbImage {
    if img.long_edge() > edge {
        resize_to_long_edge(img, edge)
    } else {
        img.clone()
    }
}
