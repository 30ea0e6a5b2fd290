//! Hide my photos (the right to object, Thai PDPA): a runner files a request with a selfie
//! and a way to reach them; an operator approves or rejects it; every photo of the event
//! showing that face is then hidden from face search, bib search, highlights and the
//! manual page, photos ingested later included, while those already sold stay available
//! to their buyers (delivery never looks at `hidden`). The requester is told through the
//! notification adapters; each step is in the audit log.
//!
//! The selfie must show one person: a second face of comparable size
//! ([`OTHER_FACE_MIN_SHARE`]) refuses it ([`PrivacyError::ManyFaces`]), so that nobody files a
//! request with a group photo and the operator knows whose face is meant. One face has one
//! open request per event, whoever sends it: a request whose face matches a pending or
//! approved one's is refused ([`PrivacyError::Exists`]), while one contact may ask for
//! several faces (a parent for two children).
//!
//! The selfie is embedded in memory and dropped with the request. Two things of it are
//! stored, each for as long as its migration states: the face template
//! (`0009_privacy_requests.sql`: until the decision when rejected, until the event's
//! originals are deleted when approved), and a small picture of the face
//! ([`face_crop`], `0011_privacy_face_crops.sql`), which the console shows beside the
//! matched photos only to admins, until the decision (approved or rejected), or until the
//! event's originals are deleted for a request never decided.
//!
//! The service answers its own [`PrivacyError`]: its refusals by name, the selfie's
//! refusals by face search's rules, and faults with their causes. The HTTP edge maps it to
//! error codes (`api/privacy.rs`); this module names none.

use std::net::IpAddr;
use std::sync::Arc;

use raceshot_domain::order::{Email, Mobile, mask_email, mask_mobile};
use raceshot_store::events::Event;
use raceshot_store::photos::NewFace;
use raceshot_store::privacy::{Decided, Filed, NewPrivacyRequest, PrivacyRequest, PrivacyState};
use raceshot_store::{ObjectKey, Objects, Store, StoreError, StoredName};
use raceshot_vision::image_io::resize_to_long_edge;
use raceshot_vision::{BBox, Embedding, FaceAnalyzer, RgbImage, cosine};
use sha2::{Digest, Sha256};

use crate::app::faces::FaceModels;
use crate::infra::clock::Clock;
use crate::infra::imaging::{crop, encode_jpeg};
use crate::infra::search_slots::SearchSlots;
use crate::jobs::queue::JobQueue;
use crate::services::messages::MessageKind;
use crate::services::search::index::FaceIndexes;
use crate::services::search::{SearchError, by_photo, with_selfie_faces};

/// What hiding one's photos uses: the requests' rows and face crops, the face engines and
/// indexes a selfie is matched with, the search slots its embedding waits in, and the
/// queue of the requester's messages.
pub struct Privacy<'a> {
    pub store: &'a Store,
    pub objects: &'a Objects,
    pub faces: &'a FaceModels,
    pub indexes: &'a FaceIndexes,
    pub slots: &'a SearchSlots,
    pub jobs: &'a JobQueue,
    pub clock: Clock,
}

/// The most photos one request is matched against: the shop's own cap on a search's
/// answer (`MAX_FACE_SEARCH_LIMIT`) many times over; a runner is rarely in more.
const MATCH_LIMIT: usize = 20_000;

/// A face of a request's selfie other than the largest counts as a second person, and
/// refuses the selfie, when its size (the box's shorter side, as the quality gate measures
/// faces) is at least this share of the largest face's. A face's size falls with its
/// distance from the camera: half the size is twice as far. At arm's length (~0.5 m)
/// this counts everyone within about a metre of the lens, that is, anyone posing with
/// the requester, and every face of a team or group photo (whose rows differ in size by
/// far less than half: 0.78 in the shipped `players.jpg`); a passer-by further behind,
/// smaller still, does not refuse an otherwise clear selfie, and does not make it unclear
/// whose request it is (the crowd behind the players of `players.jpg` and `gdp.jpg`
/// measures 0.35–0.43 of the largest face). Faces the quality gate drops (under 16 px, or
/// unsure) never count.
pub const OTHER_FACE_MIN_SHARE: f32 = 0.5;

/// How many people a selfie shows for a privacy request: its faces at least
/// [`OTHER_FACE_MIN_SHARE`] the size of the largest (the largest included).
pub fn people_in_selfie(faces: &[BBox]) -> usize {
    let largest = faces.iter().map(BBox::min_side).fold(0.0, f32::max);
    faces
        .iter()
        .filter(|b| b.min_side() >= OTHER_FACE_MIN_SHARE * largest)
        .count()
}

/// Why a privacy request, or an operator's decision on one, did not go through.
#[derive(Debug, thiserror::Error)]
pub enum PrivacyError {
    /// The contact is neither a mobile number nor an e-mail address.
    #[error("a mobile number or an e-mail address")]
    BadContact,
    /// The selfie shows more than one person.
    #[error("the selfie shows more than one person; send one showing only the requester")]
    ManyFaces,
    /// A request whose face matches this one's is pending or approved for the event.
    #[error("a request for this face is open or approved for this event")]
    Exists,
    /// No request has this id.
    #[error("no such privacy request")]
    NotFound,
    /// The request was decided already.
    #[error("the request is {} already", .0.as_str())]
    Decided(PrivacyState),
    /// The selfie could not be read as a face search reads one (no face, an unreadable or
    /// oversized image, or the shop too busy to read it now): face search's own error.
    #[error(transparent)]
    Selfie(SearchError),
    /// The database or the object storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Anything else that cannot happen unless something is broken.
    #[error(transparent)]
    Fault(anyhow::Error),
}

impl PrivacyError {
    fn fault(e: impl Into<anyhow::Error>) -> Self {
        PrivacyError::Fault(e.into())
    }
}

/// The margin kept around the face box in a face crop, on each side, as a share of the
/// box's width or height: the whole head, hair and chin, which an operator compares
/// with the photos more surely than the features alone.
const CROP_MARGIN: f32 = 0.5;
/// The face crop's long edge at most: as large as the console's thumbnails, and no more
/// of the requester than the decision needs.
pub const CROP_MAX_EDGE: u32 = 256;
const CROP_QUALITY: i32 = 85;

/// The picture of the requester's face an operator judges the request by: the face box of
/// the decoded selfie with a margin ([`CROP_MARGIN`]), at most [`CROP_MAX_EDGE`] px, as a
/// JPEG encoded from the pixels (so none of the selfie's metadata comes along).
pub fn face_crop(img: &RgbImage, face: &BBox) -> anyhow::Result<Vec<u8>> {
    let (dx, dy) = (face.width() * CROP_MARGIN, face.height() * CROP_MARGIN);
    let region = BBox {
        x1: face.x1 - dx,
        y1: face.y1 - dy,
        x2: face.x2 + dx,
        y2: face.y2 + dy,
    };
    let picture = resize_to_long_edge(&crop(img, &region)?, CROP_MAX_EDGE);
    encode_jpeg(&picture, CROP_QUALITY)
}

/// Where a request's face crop lives: `_shop/privacy/{name}`; `None` for a name the shop
/// cannot have given.
pub fn face_crop_key(name: &str) -> Option<ObjectKey> {
    StoredName::parse(name).map(|name| ObjectKey::shared("privacy", &name))
}

/// What a request keeps of its selfie.
struct Requester {
    face: Embedding,
    crop: Vec<u8>,
}

/// Reads the requester's face from the selfie, inside a search slot: refused when it shows
/// no face or more than one person.
async fn requester(
    engine: Arc<dyn FaceAnalyzer>,
    cx: &Privacy<'_>,
    selfie: bytes::Bytes,
) -> Result<Requester, PrivacyError> {
    let _slot = cx
        .slots
        .acquire()
        .await
        .map_err(|busy| PrivacyError::Selfie(busy.into()))?;
    with_selfie_faces(engine, selfie, |img, faces| {
        let faces = faces.ok_or_else(|| SearchError::NoFace {
            field: "file".to_owned(),
        })?;
        if people_in_selfie(&faces.boxes) > 1 {
            return Ok(Err(PrivacyError::ManyFaces));
        }
        Ok(face_crop(img, &faces.primary.bbox)
            .map(|crop| Requester {
                face: faces.primary.embedding,
                crop,
            })
            .map_err(PrivacyError::Fault))
    })
    .await
    .map_err(PrivacyError::Selfie)?
}

/// How a requester is reached: a mobile number (digits) or an e-mail address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Contact {
    Mobile(Mobile),
    Email(Email),
}

impl Contact {
    /// A Thai mobile number (spaces and dashes allowed) or an e-mail address.
    pub fn parse(raw: &str) -> Result<Self, PrivacyError> {
        let raw = raw.trim();
        let digits: String = raw.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
        if let Some(m) = Mobile::parse(&digits, Mobile::SEARCH_LENGTH) {
            return Ok(Contact::Mobile(m));
        }
        Email::parse(raw)
            .map(|e| Contact::Email(Email::parse(&e.as_str().to_lowercase()).unwrap_or(e)))
            .ok_or(PrivacyError::BadContact)
    }

    /// The stored form: the digits, or the address in lower case.
    pub fn as_str(&self) -> &str {
        match self {
            Contact::Mobile(m) => m.as_str(),
            Contact::Email(e) => e.as_str(),
        }
    }

    /// What answers and logs show of a stored contact.
    pub fn masked(stored: &str) -> String {
        if stored.contains('@') {
            mask_email(stored)
        } else {
            mask_mobile(stored)
        }
    }
}

/// Files a request for `event` from `client`: the selfie must show one person's face
/// (`no_face`, [`PrivacyError::ManyFaces`]); a face matching an undecided or approved
/// request's of the event, at the event's threshold, is told so ([`PrivacyError::Exists`]).
pub async fn file(
    cx: &Privacy<'_>,
    event: &Event,
    contact: &Contact,
    selfie: bytes::Bytes,
    client: IpAddr,
) -> Result<String, PrivacyError> {
    let (pair, engine) = cx
        .faces
        .of_event(event)
        .await
        .map_err(PrivacyError::fault)?;
    let Requester { face, crop } = requester(engine, cx, selfie).await?;
    let id = uuid::Uuid::new_v4().to_string();
    let crop_name = format!("{id}.jpg");
    let crop_key = face_crop_key(&crop_name)
        .ok_or_else(|| PrivacyError::fault(anyhow::anyhow!("face crop name {crop_name}")))?;
    let request = NewPrivacyRequest {
        id: id.clone(),
        event_id: event.id,
        contact: contact.as_str().to_owned(),
        embedding: face.to_bytes(),
        model_pair: pair.name().to_owned(),
        face_crop: Some(crop_name),
        client: hex::encode(Sha256::digest(client.to_string().as_bytes())),
    };
    let threshold = crate::app::faces::threshold(event.spec.face_threshold, pair);
    let dim = pair.embedding_dim();
    let same_face = |template: &[u8]| {
        Embedding::from_bytes(template, dim).is_ok_and(|t| cosine(&t, &face) >= threshold)
    };
    let now = cx.clock.now();
    match cx
        .store
        .file_privacy_request(&request, same_face, now)
        .await?
    {
        Filed::New => {}
        Filed::Exists => return Err(PrivacyError::Exists),
        Filed::PairMoved => {
            let moved = "the event moved to another face model pair meanwhile";
            return Err(PrivacyError::fault(anyhow::anyhow!(moved)));
        }
    }
    // The row names the crop before it is written, so no crop is ever stored that the
    // decision and the retention run cannot find. A request whose crop could not be
    // written cannot be judged: it is withdrawn, and the requester may send it again.
    if let Err(e) = cx.objects.put(&crop_key, crop.into()).await {
        if let Err(w) = cx.store.withdraw_privacy_request(&id).await {
            tracing::error!(error = %w, "a privacy request without its face crop stays pending");
        }
        return Err(e.into());
    }
    let detail = serde_json::json!({ "contact": Contact::masked(contact.as_str()) });
    cx.store
        .audit(
            "visitor",
            "privacy.request",
            &format!("privacy:{id}@{}", event.spec.key),
            &detail,
            now,
        )
        .await?;
    Ok(id)
}

/// The event's photos showing the request's face, best first (photo id, similarity), at
/// the event's threshold; none once the template is gone.
pub async fn matches(
    cx: &Privacy<'_>,
    request: &PrivacyRequest,
) -> Result<Vec<(i64, f32)>, PrivacyError> {
    let Some(bytes) = &request.embedding else {
        return Ok(Vec::new());
    };
    let Some(event) = cx.store.any_event_by_key(&request.event_key).await? else {
        return Ok(Vec::new());
    };
    let pair = cx.faces.pairs_of(&event).map_err(PrivacyError::fault)?.pair;
    let face = Embedding::from_bytes(bytes, pair.embedding_dim()).map_err(PrivacyError::fault)?;
    let hits = cx
        .indexes
        .search(
            request.event_id,
            pair,
            face,
            crate::app::faces::threshold(event.spec.face_threshold, pair),
            MATCH_LIMIT,
        )
        .await
        .map_err(PrivacyError::Fault)?;
    Ok(by_photo(vec![hits])
        .into_iter()
        .map(|p| (p.photo_id, p.similarity))
        .collect())
}

/// Approves a pending request: the photos showing the face are hidden and held, the
/// requester told. Answers the photos hidden.
pub async fn approve(cx: &Privacy<'_>, id: &str, actor: &str) -> Result<Vec<i64>, PrivacyError> {
    let request = cx
        .store
        .privacy_request(id)
        .await?
        .ok_or(PrivacyError::NotFound)?;
    if request.state != PrivacyState::Pending {
        return Err(PrivacyError::Decided(request.state));
    }
    let photos: Vec<i64> = matches(cx, &request)
        .await?
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    let now = cx.clock.now();
    let hidden = match cx
        .store
        .approve_privacy_request(id, &photos, actor, now)
        .await?
    {
        Decided::Now(hidden) => hidden,
        Decided::Already(s) => return Err(PrivacyError::Decided(s)),
        Decided::Missing => return Err(PrivacyError::NotFound),
    };
    drop_face_crop(cx, &request).await;
    decided(cx, &request, "privacy.approve", actor, hidden.len()).await?;
    Ok(hidden)
}

/// Rejects a pending request: its face template is deleted, the requester told.
pub async fn reject(cx: &Privacy<'_>, id: &str, actor: &str) -> Result<(), PrivacyError> {
    let request = cx
        .store
        .privacy_request(id)
        .await?
        .ok_or(PrivacyError::NotFound)?;
    match cx
        .store
        .reject_privacy_request(id, actor, cx.clock.now())
        .await?
    {
        Decided::Now(_) => {
            drop_face_crop(cx, &request).await;
            decided(cx, &request, "privacy.reject", actor, 0).await
        }
        Decided::Already(s) => Err(PrivacyError::Decided(s)),
        Decided::Missing => Err(PrivacyError::NotFound),
    }
}

/// Deletes a decided request's face crop, then forgets it. The decision stands if the
/// storage fails: the crop stays named, and the hourly retention run deletes it.
async fn drop_face_crop(cx: &Privacy<'_>, request: &PrivacyRequest) {
    let Some(name) = &request.face_crop else {
        return;
    };
    if let Err(e) = delete_face_crop(cx, &request.id, name).await {
        tracing::warn!(error = %e, "a decided privacy request's face crop is left for the retention run");
    }
}

async fn delete_face_crop(cx: &Privacy<'_>, id: &str, name: &str) -> anyhow::Result<()> {
    let key = face_crop_key(name)
        .ok_or_else(|| anyhow::anyhow!("privacy request {id} names a face crop {name:?}"))?;
    cx.objects.delete(&key).await?;
    cx.store.clear_privacy_face_crop(id, name).await?;
    Ok(())
}

/// Face crops deleted per query of the retention run.
const CROP_BATCH: i64 = 100;

/// Deletes the face crops whose time is up: those of requests never decided whose event is
/// dated before `cutoff` (its originals are gone), and any a decision failed to delete.
/// Answers how many were deleted.
pub async fn delete_due_face_crops(cx: &Privacy<'_>, cutoff: &str) -> anyhow::Result<u64> {
    let mut deleted = 0;
    loop {
        let due = cx.store.privacy_face_crops_due(cutoff, CROP_BATCH).await?;
        let full = due.len() as i64 == CROP_BATCH;
        for (id, name) in due {
            delete_face_crop(cx, &id, &name).await?;
            deleted += 1;
        }
        if !full {
            return Ok(deleted);
        }
    }
}

/// The audit entry and the requester's notification of a decision.
async fn decided(
    cx: &Privacy<'_>,
    request: &PrivacyRequest,
    action: &str,
    actor: &str,
    hidden: usize,
) -> Result<(), PrivacyError> {
    let now = cx.clock.now();
    for job in cx.jobs.messages(MessageKind::PrivacyDecision, &request.id) {
        cx.store.enqueue(&job, now).await?;
    }
    cx.jobs.wake();
    let detail = serde_json::json!({
        "contact": Contact::masked(&request.contact),
        "photos_hidden": hidden,
    });
    cx.store
        .audit(
            actor,
            action,
            &format!("privacy:{}@{}", request.id, request.event_key),
            &detail,
            now,
        )
        .await?;
    Ok(())
}

/// The approved requests (ids) whose face is on a photo with `faces`: at the event's
/// threshold against any of them. `templates` are (request id, template bytes).
pub fn held_for(
    templates: &[(String, Vec<u8>)],
    faces: &[NewFace],
    threshold: f32,
    dim: usize,
) -> Vec<String> {
    let faces: Vec<Embedding> = faces
        .iter()
        .filter_map(|f| Embedding::from_bytes(&f.embedding, dim).ok())
        .collect();
    templates
        .iter()
        .filter(|(_, bytes)| {
            Embedding::from_bytes(bytes, dim)
                .is_ok_and(|t| faces.iter().any(|f| cosine(f, &t) >= threshold))
        })
        .map(|(id, _)| id.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contacts_are_mobiles_or_addresses_in_one_form() {
        assert_eq!(
            Contact::parse(" 081-234 5678 ").unwrap().as_str(),
            "0812345678"
        );
        assert_eq!(
            Contact::parse("Runner@Example.COM").unwrap().as_str(),
            "runner@example.com"
        );
        for bad in ["", "12345", "not an address", "a@b"] {
            assert!(Contact::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Contact::masked("0812345678"), mask_mobile("0812345678"));
    }

    fn square(x: f32, side: f32) -> BBox {
        BBox {
            x1: x,
            y1: 10.0,
            x2: x + side,
            y2: 10.0 + side * 1.3,
        }
    }

    #[test]
    fn a_second_face_counts_from_half_the_largest_ones_size() {
        assert_eq!(people_in_selfie(&[]), 0);
        assert_eq!(people_in_selfie(&[square(0.0, 200.0)]), 1);
        // A passer-by behind the requester: under half the size, not counted, wherever
        // they are and whichever is listed first.
        assert_eq!(
            people_in_selfie(&[square(0.0, 60.0), square(100.0, 200.0)]),
            1
        );
        assert_eq!(
            people_in_selfie(&[square(0.0, 200.0), square(300.0, 99.0)]),
            1
        );
        // Half the size or more: someone beside the requester.
        assert_eq!(
            people_in_selfie(&[square(0.0, 200.0), square(300.0, 100.0)]),
            2
        );
        // A team photo: faces within 0.78 of each other, all counted.
        let team: Vec<BBox> = (0..16)
            .map(|i| square(i as f32 * 50.0, 37.0 + (i % 10) as f32))
            .collect();
        assert_eq!(people_in_selfie(&team), 16);
        // Size is the shorter side: a wide box is no larger for it.
        let wide = BBox {
            x1: 0.0,
            y1: 0.0,
            x2: 400.0,
            y2: 90.0,
        };
        assert_eq!(people_in_selfie(&[square(500.0, 200.0), wide]), 1);
    }

    #[test]
    fn a_face_crop_is_the_face_with_a_margin_small_and_without_metadata() {
        let img = RgbImage::filled(1200, 900, [90, 120, 150]);
        // A 400 x 520 px face: with its margins 800 x 1040 px, 800 x 880 inside the image,
        // brought down to 256 px.
        let face = BBox {
            x1: 400.0,
            y1: 100.0,
            x2: 800.0,
            y2: 620.0,
        };
        let jpeg = face_crop(&img, &face).unwrap();
        let shown =
            raceshot_vision::decode(&jpeg, &raceshot_vision::DecodeOptions::default()).unwrap();
        assert_eq!((shown.width(), shown.height()), (233, CROP_MAX_EDGE));
        assert_eq!(
            &jpeg[..4],
            [0xFF, 0xD8, 0xFF, 0xE0],
            "JFIF, no EXIF segment"
        );
        assert!(!jpeg.windows(2).any(|w| w == [0xFF, 0xE1]));
        // A small face near the corner: the margin stops at the image's edge.
        let small = face_crop(
            &img,
            &BBox {
                x1: 5.0,
                y1: 5.0,
                x2: 45.0,
                y2: 57.0,
            },
        )
        .unwrap();
        let shown =
            raceshot_vision::decode(&small, &raceshot_vision::DecodeOptions::default()).unwrap();
        assert_eq!((shown.width(), shown.height()), (65, 83));
        assert_eq!(
            face_crop_key("a.jpg").unwrap().as_str(),
            "_shop/privacy/a.jpg"
        );
        assert!(face_crop_key("../a.jpg").is_none());
    }

    #[test]
    fn a_photo_is_held_for_the_requests_whose_face_is_on_it() {
        let e = |v: [f32; 2]| Embedding::from_raw(v.to_vec(), 2).unwrap().to_bytes();
        let face = |v| NewFace {
            embedding: e(v),
            bbox: [0.0; 4],
            landmarks: Vec::new(),
            score: 0.9,
        };
        let templates = vec![
            ("a".to_owned(), e([1.0, 0.0])),
            ("b".to_owned(), e([0.0, 1.0])),
        ];
        let held = held_for(&templates, &[face([0.95, 0.1]), face([-1.0, 0.0])], 0.5, 2);
        assert_eq!(held, ["a"]);
        assert!(held_for(&templates, &[], 0.5, 2).is_empty());
    }
}
