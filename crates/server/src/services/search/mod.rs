//! Searching an event's photos with selfies of up to three people: each selfie is
//! checked, decoded and embedded inside one bounded search slot, then matched against the
//! event's face index; photos showing any of them, or all of them together, are answered
//! with who is on each. The selfies and their embeddings live only as long as the call;
//! nothing of them is stored. Each selfie is compared twice: as it is, and as a camera sees
//! a runner far off (its distant view, at a threshold of its own), which finds more of the
//! small faces in race photos. Each view's threshold is fitted on how it scores against
//! the event's own faces, class by class of face width (`raceshot_vision::calibration`):
//! lower for the small faces strangers barely resemble, never above the event's threshold
//! nor below the pair's calibrated floor. A request may tighten the event's match
//! threshold (then held as given, for every face) and result count, never loosen them. A
//! face a little below the threshold is found too when it continues, in a photo of the
//! same photographer moments apart, a face matched outright (`sequence`); such photos are
//! marked. A photo found only below the threshold (by the distant view or a fitted
//! threshold) is kept only when its face resembles one of the runner's surest appearances
//! in the event, or wears the bib read under most of them, so a lookalike in the crowd is
//! not answered (`raceshot_vision::lookalike`, `services::bibs::worn`). The HTTP handlers
//! (`api::facesearch`) only read the selfies and shape the answer.

pub mod index;
pub mod sequence;
pub mod snapshot;

use raceshot_domain::{EventSpec, Money, pricing};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use raceshot_store::events::Event;
use raceshot_store::photos::Photo;
use raceshot_store::{Store, StoreError};
use raceshot_vision::image_io::{DecodeOptions, ImageFormat, decode, probe, sniff};
use raceshot_vision::lookalike::Guard;
use raceshot_vision::{Embedding, FaceAnalyzer, Hit, RgbImage, SelfieFaces, best_per_photo};

use crate::app::faces::FaceModels;
use crate::infra::clock::Clock;
use crate::infra::search_slots::Busy;
use crate::infra::search_slots::SearchSlots;
use crate::services::bibs;
use index::Cutoff;

/// A selfie is at most 5 MB, 1,000,000 bytes to the MB (docs/shop-contract.md, Photos and
/// search).
pub const MAX_SELFIE_BYTES: usize = 5_000_000;
/// A selfie declaring more pixels than this is refused before decoding.
pub const MAX_SELFIE_PIXELS: u64 = 40_000_000;

/// Why a search, or the reading of a selfie, did not go through: refusals of the input,
/// the shop too busy, or a fault (with its `source()`). `api::facesearch` maps each to its
/// code; the privacy service passes a selfie's refusal on as its own.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// Over [`MAX_SELFIE_BYTES`].
    #[error("the file is larger than 5 MB")]
    TooLarge,
    /// Neither JPEG nor PNG.
    #[error("use a JPEG or PNG file")]
    UnsupportedType,
    /// A JPEG or PNG that does not decode.
    #[error("the image cannot be read")]
    Unreadable,
    /// Over [`MAX_SELFIE_PIXELS`].
    #[error("the image has too many pixels")]
    TooManyPixels,
    /// More than [`MAX_PEOPLE`] selfies.
    #[error("at most {MAX_PEOPLE} selfies per search")]
    TooManySelfies,
    /// No selfie was sent.
    #[error("a selfie is required")]
    NoSelfie,
    /// A selfie shows no face where one must; `field` names the part that sent it.
    #[error("no face was found in the selfie")]
    NoFace { field: String },
    /// `match` is neither `any` nor `all`.
    #[error("must be any or all")]
    BadMatch,
    /// Every search slot and place in line is taken.
    #[error(transparent)]
    Busy(#[from] Busy),
    /// The database, the face index or the face engine failed.
    #[error(transparent)]
    Fault(anyhow::Error),
}

impl SearchError {
    fn fault(e: impl Into<anyhow::Error>) -> Self {
        SearchError::Fault(e.into())
    }
}

impl From<StoreError> for SearchError {
    fn from(e: StoreError) -> Self {
        SearchError::fault(e)
    }
}

/// A selfie small enough and in a format the shop reads.
pub fn check_selfie_bytes(bytes: &[u8]) -> Result<ImageFormat, SearchError> {
    if bytes.len() > MAX_SELFIE_BYTES {
        return Err(SearchError::TooLarge);
    }
    sniff(bytes).map_err(|_| SearchError::UnsupportedType)
}

/// What a search may narrow: the event's own choices are the loosest allowed.
#[derive(Debug, Clone, Copy, Default)]
pub struct Narrowing {
    pub threshold: Option<f64>,
    pub max: Option<u32>,
}

/// A photo that one or more index searches found.
#[derive(Debug, Clone, PartialEq)]
pub struct PhotoHits {
    pub photo_id: i64,
    /// The best similarity any of them found.
    pub similarity: f32,
    /// Which searches found it (their indices).
    pub found_by: Vec<u8>,
}

/// The hits of several index searches, one entry a photo, best first; linear in the hits.
pub fn by_photo(searches: Vec<Vec<Hit>>) -> Vec<PhotoHits> {
    let mut at: HashMap<i64, usize> = HashMap::new();
    let mut photos: Vec<PhotoHits> = Vec::new();
    for (i, hits) in searches.into_iter().enumerate() {
        let search = u8::try_from(i).unwrap_or(u8::MAX);
        for hit in hits {
            match at.get(&hit.photo_id) {
                Some(&j) => {
                    let p = &mut photos[j];
                    p.similarity = p.similarity.max(hit.similarity);
                    if p.found_by.last() != Some(&search) {
                        p.found_by.push(search);
                    }
                }
                None => {
                    at.insert(hit.photo_id, photos.len());
                    photos.push(PhotoHits {
                        photo_id: hit.photo_id,
                        similarity: hit.similarity,
                        found_by: vec![search],
                    });
                }
            }
        }
    }
    photos.sort_by(|a, b| b.similarity.total_cmp(&a.similarity));
    photos
}

/// The event's shown (ready, not hidden) photos among `ids`, by id: what a search's hits
/// become, hidden and deleted photos dropping out.
pub async fn shown_by_id(
    store: &Store,
    event_id: i64,
    ids: &[i64],
) -> Result<HashMap<i64, Photo>, StoreError> {
    Ok(store
        .shown_photos(event_id, ids)
        .await?
        .into_iter()
        .map(|p| (p.id, p))
        .collect())
}

/// The all-photos deal per photo for `found` photos of the event: what every search answers
/// as `avg_price`.
pub fn average_price(spec: &EventSpec, found: usize) -> Money {
    pricing::average_price(
        u32::try_from(found).unwrap_or(u32::MAX),
        &spec.packages,
        spec.deal.then_some(spec.deal_price).flatten(),
    )
}

/// How many people one search may look for.
pub const MAX_PEOPLE: usize = 3;

/// Which photos a search for several people answers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Match {
    /// Photos showing any of them.
    #[default]
    Any,
    /// Only photos showing all of them together.
    All,
}

impl Match {
    /// `any` or `all`, as the API spells them.
    pub fn parse(raw: &str) -> Result<Self, SearchError> {
        match raw {
            "any" => Ok(Match::Any),
            "all" => Ok(Match::All),
            _ => Err(SearchError::BadMatch),
        }
    }
}

/// A photo a search found: its best similarity to any of the people, which of them
/// (indices of the selfies, in the order sent) it shows, and whether only by sequence.
#[derive(Debug, Clone)]
pub struct FoundPhoto {
    pub photo: Photo,
    pub similarity: f32,
    pub people: Vec<u8>,
    /// Every person on it was found by sequence, none outright (`sequence`).
    pub by_sequence: bool,
}

/// What the selfies found.
#[derive(Debug, Clone)]
pub enum Found {
    /// No face in the selfie (a search for one person).
    NoFace,
    /// The event's shown photos of those faces, best first, and the average price of one
    /// photo at this count.
    Photos {
        photos: Vec<FoundPhoto>,
        avg_price: Money,
    },
}

/// A selfie's face as a search compares it with an event's faces: sharp, and seen from
/// afar ([`FaceAnalyzer::embed_distant`]), which finds more of the small faces of distant
/// runners.
#[derive(Debug, Clone)]
pub struct SelfieFace {
    pub sharp: Embedding,
    pub distant: Embedding,
}

/// Checks, decodes and embeds a selfie; `None` when it shows no face. Runs on a blocking
/// thread; the caller holds a search slot.
pub async fn embed_selfie(
    engine: Arc<dyn FaceAnalyzer>,
    selfie: bytes::Bytes,
) -> Result<Option<SelfieFace>, SearchError> {
    let sees = engine.clone();
    with_selfie_faces(engine, selfie, move |img, faces| {
        let Some(faces) = faces else { return Ok(None) };
        let distant = sees
            .embed_distant(img, &faces.primary)
            .map_err(SearchError::fault)?;
        Ok(Some(SelfieFace {
            sharp: faces.primary.embedding,
            distant,
        }))
    })
    .await
}

/// Checks and decodes a selfie, finds its faces with `engine` (the event's pair; `None`:
/// no face) and hands them with the decoded picture to `then`, all on a blocking thread;
/// only the primary face is embedded. The picture is dropped when `then` returns. The
/// caller holds a search slot.
pub async fn with_selfie_faces<T: Send + 'static>(
    engine: Arc<dyn FaceAnalyzer>,
    selfie: bytes::Bytes,
    then: impl FnOnce(&RgbImage, Option<SelfieFaces>) -> Result<T, SearchError> + Send + 'static,
) -> Result<T, SearchError> {
    check_selfie_bytes(&selfie)?;
    let info = probe(&selfie).map_err(|_| SearchError::Unreadable)?;
    if info.pixels() > MAX_SELFIE_PIXELS {
        return Err(SearchError::TooManyPixels);
    }
    let selfie_edge = engine.selfie_long_edge();
    let found =
        tokio::task::spawn_blocking(move || -> raceshot_vision::Result<Result<T, SearchError>> {
            let opts = DecodeOptions::default()
                .with_max_pixels(MAX_SELFIE_PIXELS)
                .with_target_long_edge(selfie_edge);
            let img = decode(&selfie, &opts)?;
            let faces = engine.analyze_selfie_faces(&img)?;
            Ok(then(&img, faces))
        })
        .await
        .map_err(SearchError::fault)?;
    match found {
        Ok(answer) => answer,
        Err(raceshot_vision::Error::Decode(_) | raceshot_vision::Error::UnsupportedFormat) => {
            Err(SearchError::Unreadable)
        }
        Err(raceshot_vision::Error::TooManyPixels { .. }) => Err(SearchError::TooManyPixels),
        Err(e) => Err(SearchError::fault(e)),
    }
}

/// What searching an event uses: the rows of its photos and faces, the face engines, the
/// events' face indexes, and the slots that bound how many searches run at once.
#[derive(Clone, Copy)]
pub struct SearchContext<'a> {
    pub store: &'a Store,
    pub faces: &'a FaceModels,
    pub indexes: &'a index::FaceIndexes,
    pub slots: &'a SearchSlots,
    pub clock: Clock,
}

/// Checks, decodes and embeds each selfie (1 to [`MAX_PEOPLE`], one person each), then
/// searches the event's index for each face and combines the hits as `matching` says.
/// A lone selfie without a face finds nothing (`NoFace`); among several, it is refused,
/// naming it by `field_of` its index.
pub async fn search_event(
    cx: SearchContext<'_>,
    event: &Event,
    selfies: Vec<bytes::Bytes>,
    narrowing: Narrowing,
    matching: Match,
    field_of: fn(usize) -> String,
) -> Result<Found, SearchError> {
    if selfies.is_empty() {
        return Err(SearchError::NoSelfie);
    }
    if selfies.len() > MAX_PEOPLE {
        return Err(SearchError::TooManySelfies);
    }
    for selfie in &selfies {
        check_selfie_bytes(selfie)?;
    }
    let _slot = cx.slots.acquire().await?;
    let (pair, engine) = cx.faces.of_event(event).await.map_err(SearchError::fault)?;
    let group = selfies.len() > 1;
    let mut faces = Vec::with_capacity(selfies.len());
    for (i, selfie) in selfies.into_iter().enumerate() {
        match embed_selfie(engine.clone(), selfie).await? {
            Some(face) => faces.push(face),
            None if group => {
                return Err(SearchError::NoFace { field: field_of(i) });
            }
            None => faces.clear(),
        }
    }
    // Every search counts, found face or not. A lost count only dims the dashboard.
    if let Err(e) = cx.store.count_search(event.id, cx.clock.now()).await {
        tracing::warn!(event_id = event.id, error = %e, "search not counted");
    }
    if faces.is_empty() {
        return Ok(Found::NoFace);
    }
    let spec = &event.spec;
    let threshold = narrowing
        .threshold
        .filter(|t| t.is_finite())
        .map_or(spec.face_threshold, |t| t.max(spec.face_threshold));
    let k = narrowing
        .max
        .map_or(spec.max_face_search, |m| m.clamp(1, spec.max_face_search)) as usize;
    let matching_at = crate::app::faces::threshold(threshold, pair);
    let distant_at = crate::app::faces::distant_threshold(threshold, pair);
    // A visitor who raised the threshold asked for that threshold and outright matches
    // only; otherwise each view's threshold is fitted on the event's crowd, at most the
    // event's.
    let raised = threshold > spec.face_threshold;
    let cutoff = |most: f32| {
        if raised {
            Cutoff::Fixed(most)
        } else {
            Cutoff::Fitted {
                least: pair.calibrated_floor(),
                most,
            }
        }
    };
    let floor = if raised {
        matching_at
    } else {
        pair.sequence_floor()
    };
    let mut searches = Vec::with_capacity(faces.len());
    let mut by_sequence: HashSet<(u8, i64)> = HashSet::new();
    for (i, face) in faces.iter().enumerate() {
        // The sharp selfie and its distant view, each at its own thresholds.
        let views = vec![
            (face.sharp.clone(), cutoff(matching_at)),
            (face.distant.clone(), cutoff(distant_at)),
        ];
        let mut each = cx
            .indexes
            .search_each(event.id, pair, views, k)
            .await
            .map_err(SearchError::fault)?;
        let distant = each.pop().unwrap_or_default();
        let sharp = each.pop().unwrap_or_default();
        let guard = Guard {
            threshold: matching_at,
            gate: pair.lookalike_gate(),
        };
        let guarded = guard.keep(sharp, distant, |faces, sure| {
            cx.indexes.most_alike(event.id, pair, faces, sure)
        });
        let kept = if guarded.asks_bibs() {
            let worn = bibs::worn(cx.store, pair, &guarded.bib_photos()).await?;
            guarded.with_bibs(|face| worn.get(&face))
        } else {
            guarded.kept
        };
        let mut direct = best_per_photo(kept);
        direct.truncate(k);
        let continued = sequence::continued(
            cx,
            (event.id, pair),
            &face.sharp,
            &direct,
            (floor, matching_at),
        )
        .await?;
        let search = u8::try_from(i).unwrap_or(u8::MAX);
        by_sequence.extend(continued.iter().map(|h| (search, h.photo_id)));
        direct.extend(continued);
        searches.push(direct);
    }
    let everyone = faces.len();
    let mut seen = by_photo(searches);
    seen.retain(|p| matching == Match::Any || p.found_by.len() == everyone);
    seen.truncate(k);
    let ids: Vec<i64> = seen.iter().map(|p| p.photo_id).collect();
    // Hidden and deleted photos drop out here.
    let shown = shown_by_id(cx.store, event.id, &ids).await?;
    let photos: Vec<FoundPhoto> = seen
        .into_iter()
        .filter_map(|p| {
            Some(FoundPhoto {
                photo: shown.get(&p.photo_id)?.clone(),
                similarity: p.similarity,
                by_sequence: p
                    .found_by
                    .iter()
                    .all(|s| by_sequence.contains(&(*s, p.photo_id))),
                people: p.found_by,
            })
        })
        .collect();
    metrics::counter!("face_searches_total").increment(1);
    let avg_price = average_price(spec, photos.len());
    Ok(Found::Photos { photos, avg_price })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(photo_id: i64, face_id: i64, similarity: f32) -> Hit {
        Hit::new(photo_id, face_id, similarity)
    }

    #[test]
    fn hits_become_one_entry_a_photo_with_who_found_it() {
        // Search 0 finds two faces of photo 1; search 1 finds photo 1 and photo 2.
        let photos = by_photo(vec![
            vec![hit(1, 10, 0.5), hit(1, 11, 0.7)],
            vec![hit(2, 20, 0.9), hit(1, 12, 0.4)],
        ]);
        assert_eq!(
            photos,
            vec![
                PhotoHits {
                    photo_id: 2,
                    similarity: 0.9,
                    found_by: vec![1]
                },
                PhotoHits {
                    photo_id: 1,
                    similarity: 0.7,
                    found_by: vec![0, 1]
                },
            ]
        );
        assert!(by_photo(Vec::new()).is_empty());
    }
}
