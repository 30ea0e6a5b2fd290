//! Searching an event's photos with a selfie: the selfie is checked, decoded and embedded
//! inside a bounded search slot, then matched against the event's face index. The selfie
//! and its embedding live only as long as the call; nothing of them is stored. A request
//! may tighten the event's match threshold and result count, never loosen them. The HTTP
//! handlers (`api::facesearch`) only read the selfie and shape the answer.

use raceshot_domain::{Money, pricing};
use raceshot_faces::image_io::{DecodeOptions, ImageFormat, decode, probe, sniff};
use raceshot_store::events::Event;
use raceshot_store::photos::Photo;

use crate::error::{ErrorCode, ShopError, ShopResult};
use crate::state::AppState;

/// Spec §5: at most 5 MB, 1,000,000 bytes to the MB.
pub const MAX_SELFIE_BYTES: usize = 5_000_000;
/// A selfie declaring more pixels than this is refused before decoding.
pub const MAX_SELFIE_PIXELS: u64 = 40_000_000;

/// The error of a selfie over [`MAX_SELFIE_BYTES`].
pub fn too_large() -> ShopError {
    ShopError::new(ErrorCode::FileTooLarge, "the file is larger than 5 MB")
}

/// A selfie small enough and in a format the shop reads.
pub fn check_selfie_bytes(bytes: &[u8]) -> ShopResult<ImageFormat> {
    if bytes.len() > MAX_SELFIE_BYTES {
        return Err(too_large());
    }
    sniff(bytes)
        .map_err(|_| ShopError::new(ErrorCode::UnsupportedImageType, "use a JPEG or PNG file"))
}

fn unreadable() -> ShopError {
    ShopError::new(ErrorCode::UnreadableImage, "the image cannot be read")
}

fn too_many_pixels() -> ShopError {
    ShopError::new(
        ErrorCode::ImageTooManyPixels,
        "the image has too many pixels",
    )
}

/// What a search may narrow: the event's own choices are the loosest allowed.
#[derive(Debug, Clone, Copy, Default)]
pub struct Narrowing {
    pub threshold: Option<f64>,
    pub max: Option<u32>,
}

/// What a selfie found.
#[derive(Debug, Clone)]
pub enum Found {
    /// No face in the selfie.
    NoFace,
    /// The event's shown photos of that face, best first, with their similarity, and the
    /// average price of one photo at this count.
    Photos {
        photos: Vec<(Photo, f32)>,
        avg_price: Money,
    },
}

/// Checks, decodes and embeds the selfie, then searches the event's index.
pub async fn search_event(
    state: &AppState,
    event: &Event,
    selfie: bytes::Bytes,
    narrowing: Narrowing,
) -> ShopResult<Found> {
    check_selfie_bytes(&selfie)?;
    let _slot = state.search_slots.acquire().await?;
    let info = probe(&selfie).map_err(|_| unreadable())?;
    if info.pixels() > MAX_SELFIE_PIXELS {
        return Err(too_many_pixels());
    }
    let engine = state.engine.clone();
    let selfie_edge = engine.config().detector.selfie_long_edge;
    let face = tokio::task::spawn_blocking(move || {
        let opts = DecodeOptions::default()
            .with_max_pixels(MAX_SELFIE_PIXELS)
            .with_target_long_edge(selfie_edge);
        let img = decode(&selfie, &opts)?;
        engine.analyze_selfie(&img)
    })
    .await
    .map_err(ShopError::internal)?;
    let face = match face {
        Ok(face) => face,
        Err(raceshot_faces::Error::Decode(_) | raceshot_faces::Error::UnsupportedFormat) => {
            return Err(unreadable());
        }
        Err(raceshot_faces::Error::TooManyPixels { .. }) => return Err(too_many_pixels()),
        Err(e) => return Err(ShopError::internal(e)),
    };
    // Every selfie read counts, found face or not. A lost count only dims the dashboard.
    if let Err(e) = state.store.count_search(event.id).await {
        tracing::warn!(event_id = event.id, error = %e, "search not counted");
    }
    let spec = &event.spec;
    let Some(face) = face else {
        return Ok(Found::NoFace);
    };
    let threshold = narrowing
        .threshold
        .filter(|t| t.is_finite())
        .map_or(spec.face_threshold, |t| t.max(spec.face_threshold));
    let k = narrowing
        .max
        .map_or(spec.max_face_search, |m| m.clamp(1, spec.max_face_search));
    let hits = state
        .indexes
        .search(event.id, face.embedding, threshold as f32, k as usize)
        .await
        .map_err(ShopError::internal)?;
    let ids: Vec<i64> = hits.iter().map(|h| h.photo_id).collect();
    // Hidden and deleted photos drop out here.
    let shown = state.store.shown_photos(event.id, &ids).await?;
    let photos: Vec<(Photo, f32)> = hits
        .iter()
        .filter_map(|h| {
            let photo = shown.iter().find(|p| p.id == h.photo_id)?;
            Some((photo.clone(), h.similarity))
        })
        .collect();
    metrics::counter!("face_searches_total").increment(1);
    let n = u32::try_from(photos.len()).unwrap_or(u32::MAX);
    let avg_price = pricing::average_price(
        n,
        &spec.packages,
        spec.deal.then_some(spec.deal_price).flatten(),
    );
    Ok(Found::Photos { photos, avg_price })
}
