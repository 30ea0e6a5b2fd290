//! Finisher certificates: for a runner with a result, a 1080 × 1350 picture (JPEG) and an
//! A4 page (PDF) with their name, distance, times, rank, the event's logo and one of their
//! photos, drawn from the event's templates ([`template`]) on the server.
//!
//! - **Offered** per event by an operator, free or at a price ([`price`]: a free event's
//!   are free). A free one is given to anyone who names the bib ([`Claim::Offer`]); a
//!   priced one is a line of the cart ([`sold_line`]) and given to the order that bought
//!   it ([`Claim::Bought`]), even if the offer changed since.
//! - **The photo** is one of the runner's (bib search: read on the photo, or the same face
//!   elsewhere; hidden photos never), by default the best by a stated rule ([`best`]): the
//!   photo where the runner's face above their bib is largest, its area weighted by the
//!   detector's confidence (which blur, a turned head or a cut face lower). The runner may
//!   pick another of theirs. The photo is cropped around their face to the template's box
//!   at the size it is drawn: a certificate never carries the original's resolution.
//! - **Cached**: the file is stored under `{event_key}/certificate/{bib}-{hash}`, the
//!   hash covering everything drawn (the filled template, the photo and its crop, the
//!   logo), so the same inputs give the same bytes once drawn, and a change draws anew.
//!   Deleting a runner's result deletes their cached files; the retention run deletes
//!   an event's with its results; a file drawn while its result was being deleted is
//!   deleted by its own request.

pub mod template;

use bytes::Bytes;
use raceshot_domain::Bib;
use raceshot_domain::results::RaceResult;
use raceshot_store::certificates::CertificateSettings;
use raceshot_store::events::Event;
use raceshot_store::orders::OrderCertificate;
use raceshot_store::photos::Photo;
use raceshot_store::{ObjectKey, ObjectKind, Objects, Store, StoreError, StoredName};
use raceshot_vision::BBox;
use raceshot_vision::image_io::{DecodeOptions, decode, probe, resize_exact};
use sha2::{Digest, Sha256};

pub use self::template::{Format, TemplateError};
use crate::infra::cpu::CpuPool;
use crate::infra::imaging::{MAX_PHOTO_PIXELS, crop, encode_jpeg};
use crate::infra::svg::{Document, Fonts, Picture};
use crate::services::bibs::{self, BibFound, BibSearchError};
use crate::services::branding;
use crate::services::search::SearchContext;

/// The JPEG quality of the picture, and of the photo inside either file.
const JPEG_QUALITY: i32 = 90;

/// Names the drawing in the cache key: a change to how certificates are drawn changes it.
const DRAWING_VERSION: &str = "certificate-1";

/// What drawing certificates uses: the searches that find the runner's photos, object
/// storage (originals, logos, the cache), the fonts and the CPU pool.
#[derive(Clone, Copy)]
pub struct Certificates<'a> {
    pub search: SearchContext<'a>,
    pub objects: &'a Objects,
    pub fonts: Option<&'a Fonts>,
    pub cpu: &'a CpuPool,
}

#[derive(Debug, thiserror::Error)]
pub enum CertificateError {
    #[error("this event offers no finisher certificates")]
    NotOffered,
    #[error("this event's certificates are sold, not given away")]
    NotFree,
    #[error("this event's certificates are free: download it from your result")]
    NotSold,
    #[error("no result of this event has that bib")]
    NoResult,
    #[error("that photo is not one of this runner's")]
    NotTheirPhoto,
    #[error("certificates cannot be drawn: the shop's fonts are missing")]
    NoFonts,
    #[error(transparent)]
    BibSearch(#[from] BibSearchError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Fault(#[from] anyhow::Error),
}

/// A drawn certificate.
#[derive(Debug, Clone)]
pub struct Certificate {
    pub bytes: Bytes,
    pub format: Format,
    /// The name it downloads as.
    pub file_name: String,
}

/// The event's settings: the saved ones, else not offered, free, the shop's templates.
pub async fn settings(store: &Store, event: &Event) -> Result<CertificateSettings, StoreError> {
    Ok(store
        .certificate_settings(event.id)
        .await?
        .unwrap_or(CertificateSettings {
            offered: false,
            price: raceshot_domain::Money::ZERO,
            image_svg: None,
            print_svg: None,
            updated_at: chrono::DateTime::UNIX_EPOCH,
        }))
}

/// What a runner pays for a certificate of `event`: its price, nothing at an event that
/// gives its photos away.
pub fn price(settings: &CertificateSettings, event: &Event) -> raceshot_domain::Money {
    if event.spec.is_free_download || event.spec.is_free_download_keep_contract {
        raceshot_domain::Money::ZERO
    } else {
        settings.price
    }
}

/// By what right a certificate is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// The event's offer: it must be offered, and free.
    Offer,
    /// An order that bought it (paid, or paid by a pass), whatever the offer says now.
    Bought,
}

/// The certificate of the runner wearing `bib_text` as a line of a cart at `event`: the
/// event must sell them (offered, at a price) and have that bib's result.
pub async fn sold_line(
    store: &Store,
    event: &Event,
    bib_text: &str,
) -> Result<OrderCertificate, CertificateError> {
    let settings = settings(store, event).await?;
    if !settings.offered {
        return Err(CertificateError::NotOffered);
    }
    let price = price(&settings, event);
    if price.satang() == 0 {
        return Err(CertificateError::NotSold);
    }
    let result = result_of(store, event, bib_text).await?;
    Ok(OrderCertificate {
        bib: result.bib,
        price,
    })
}

/// The result of the runner wearing `bib_text` (as the event's bib rule reads it).
async fn result_of(
    store: &Store,
    event: &Event,
    bib_text: &str,
) -> Result<RaceResult, CertificateError> {
    let bib = bibs::parse_query(&event.spec.bib_rule, bib_text)
        .map_err(|_| CertificateError::NoResult)?;
    store
        .result_by_bib(event.id, &bib)
        .await?
        .ok_or(CertificateError::NoResult)
}

/// The template in force for `format`.
pub fn template_of(settings: &CertificateSettings, format: Format) -> &str {
    let saved = match format {
        Format::Image => settings.image_svg.as_deref(),
        Format::Print => settings.print_svg.as_deref(),
    };
    saved.unwrap_or_else(|| format.default_template())
}

/// One of the runner's photos, and their face on it when the bib under it tells which.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub photo: Photo,
    /// The face box, in the original's displayed pixels.
    pub face: Option<[f64; 4]>,
    /// The face's area times the detector's confidence (0 without a face).
    pub quality: f64,
}

/// The photo a certificate shows by default: the candidate with the highest quality (the
/// earliest photo on a tie); with no face known on any, the first photo carrying the bib.
pub fn best(candidates: &[Candidate]) -> Option<&Candidate> {
    candidates
        .iter()
        .filter(|c| c.face.is_some())
        .max_by(|a, b| {
            a.quality
                .total_cmp(&b.quality)
                .then_with(|| b.photo.id.cmp(&a.photo.id))
        })
        .or_else(|| candidates.first())
}

/// The runner's shown photos (a bib search's answer) with their face where the bib on the
/// photo tells which face is theirs.
pub fn candidates(found: &BibFound) -> Vec<Candidate> {
    found
        .photos
        .iter()
        .map(|(photo, _)| {
            let face = found.runner_faces.get(&photo.id);
            let quality = face.map_or(0.0, |([x1, y1, x2, y2], score)| {
                (x2 - x1).max(0.0) * (y2 - y1).max(0.0) * score
            });
            Candidate {
                photo: photo.clone(),
                face: face.map(|(bbox, _)| *bbox),
                quality,
            }
        })
        .collect()
}

/// The values of a template's fields for `result` at `event`.
pub fn values(result: &RaceResult, event: &Event) -> Vec<(&'static str, String)> {
    let text = |v: &Option<String>| v.clone().unwrap_or_default();
    vec![
        ("name", result.name.clone()),
        ("bib", result.bib.as_str().to_owned()),
        ("distance", text(&result.distance)),
        ("category", text(&result.category)),
        ("gender", text(&result.gender)),
        (
            "chip_time",
            result.chip_time.map(|t| t.to_string()).unwrap_or_default(),
        ),
        (
            "gun_time",
            result.gun_time.map(|t| t.to_string()).unwrap_or_default(),
        ),
        (
            "rank",
            result.rank.map(|r| r.to_string()).unwrap_or_default(),
        ),
        ("event", event.spec.title.clone()),
        ("date", event.spec.event_date_text.clone()),
    ]
}

/// The certificate of the runner wearing `bib_text` at `event`, as `format`, showing
/// `photo` (one of theirs) or the best of theirs, by `claim`: from the cache, else drawn
/// and cached.
pub async fn certificate(
    cx: &Certificates<'_>,
    event: &Event,
    bib_text: &str,
    format: Format,
    photo: Option<i64>,
    claim: Claim,
) -> Result<Certificate, CertificateError> {
    let store = cx.search.store;
    let settings = settings(store, event).await?;
    if claim == Claim::Offer {
        if !settings.offered {
            return Err(CertificateError::NotOffered);
        }
        if price(&settings, event).satang() > 0 {
            return Err(CertificateError::NotFree);
        }
    }
    let fonts = cx.fonts.ok_or(CertificateError::NoFonts)?;
    let result = result_of(store, event, bib_text).await?;
    let bib = result.bib.clone();
    let found = bibs::search(cx.search, event, bib.as_str()).await?;
    let candidates = candidates(&found);
    let chosen = match photo {
        Some(id) => Some(
            candidates
                .iter()
                .find(|c| c.photo.id == id)
                .ok_or(CertificateError::NotTheirPhoto)?,
        ),
        None => best(&candidates),
    };
    let template = template_of(&settings, format);
    let filled = template::fill(template, &values(&result, event));
    let slot = template::photo_slot(template);
    // The logo's key names it in the hash; its file is read only to draw.
    let logo_key = branding::logo_key(store, event.id).await?;

    let mut key = Sha256::new();
    key.update(DRAWING_VERSION);
    key.update([0]);
    key.update(format.as_str());
    key.update([0]);
    key.update(&filled);
    key.update([0]);
    if let (Some(c), Some(slot)) = (chosen, slot) {
        key.update(format!("{}:{:?}:{:?}", c.photo.storage_name, c.face, slot));
    }
    key.update([0]);
    if let Some(logo_key) = &logo_key {
        key.update(logo_key);
    }
    let hash = hex::encode(&key.finalize()[..12]);
    let object = cache_key(event, &bib, &hash, format)?;
    let file_name = format!(
        "certificate-{}-{}.{}",
        event.spec.key,
        bib.as_str(),
        format.extension()
    );
    match cx.objects.get(&object).await {
        Ok(bytes) => {
            metrics::counter!("certificates_total", "cache" => "hit").increment(1);
            return Ok(Certificate {
                bytes,
                format,
                file_name,
            });
        }
        Err(e) if e.is_not_found() => {}
        Err(e) => return Err(e.into()),
    }

    let original = match (chosen, slot) {
        (Some(c), Some(_)) => {
            let key = ObjectKey::new(
                &event.spec.key,
                ObjectKind::Original,
                &StoredName::parse(&c.photo.storage_name)
                    .ok_or_else(|| anyhow::anyhow!("photo {} has no valid name", c.photo.id))?,
            );
            match cx.objects.get(&key).await {
                Ok(bytes) => Some((bytes, c.face)),
                // The original is gone after the retention window: no photo then.
                Err(e) if e.is_not_found() => None,
                Err(e) => return Err(e.into()),
            }
        }
        _ => None,
    };
    let logo = match logo_key {
        Some(key) => branding::read(cx.objects, key).await?,
        None => None,
    };
    let fonts = fonts.clone();
    let bytes = cx
        .cpu
        .run(move || draw(&filled, &fonts, format, original, slot, logo))
        .await??;
    let bytes = Bytes::from(bytes);
    cx.objects.put(&object, bytes.clone()).await?;
    // The result may have been deleted while this was drawn (the runner asked, or the
    // retention run): then the file goes too, as its deletion would have taken it.
    if store.result_by_bib(event.id, &bib).await?.is_none() {
        cx.objects.delete(&object).await?;
        return Err(CertificateError::NoResult);
    }
    metrics::counter!("certificates_total", "cache" => "miss").increment(1);
    Ok(Certificate {
        bytes,
        format,
        file_name,
    })
}

/// A sample of `settings`' template for `format` with made-up values and the event's logo,
/// as the console previews it (never cached).
pub async fn sample(
    cx: &Certificates<'_>,
    event: &Event,
    settings: &CertificateSettings,
    format: Format,
) -> Result<Bytes, CertificateError> {
    let fonts = cx.fonts.ok_or(CertificateError::NoFonts)?.clone();
    let logo = branding::logo(cx.search.store, cx.objects, event.id).await?;
    let template = template_of(settings, format).to_owned();
    let bytes = cx
        .cpu
        .run(move || -> anyhow::Result<Vec<u8>> {
            let doc = template::sample_document(&template, &fonts, logo.and_then(logo_picture))?;
            render(&doc, format)
        })
        .await??;
    Ok(Bytes::from(bytes))
}

/// Where a certificate is cached: `{event_key}/certificate/{bib}-{hash}.{ext}`.
fn cache_key(
    event: &Event,
    bib: &Bib,
    hash: &str,
    format: Format,
) -> Result<ObjectKey, CertificateError> {
    let name = StoredName::parse(&format!("{}-{hash}.{}", bib.as_str(), format.extension()))
        .or_else(|| StoredName::parse(&format!("{hash}.{}", format.extension())))
        .ok_or_else(|| anyhow::anyhow!("no storage name for a certificate"))?;
    Ok(ObjectKey::new(
        &event.spec.key,
        ObjectKind::Certificate,
        &name,
    ))
}

/// Deletes the cached certificates of `bib` at the event `event_key` (its result was
/// deleted); every file when `bib` is `None` (the event's results were).
pub async fn forget_cached(
    objects: &Objects,
    event_key: &raceshot_domain::EventKey,
    bib: Option<&Bib>,
) -> Result<usize, StoreError> {
    let prefix = bib.map_or_else(String::new, |bib| format!("{}-", bib.as_str()));
    objects
        .delete_all(event_key, ObjectKind::Certificate, &prefix)
        .await
}

/// Draws a certificate (on the CPU pool): the photo cropped to the slot, the logo, the
/// filled template.
fn draw(
    filled: &str,
    fonts: &Fonts,
    format: Format,
    original: Option<(Bytes, Option<[f64; 4]>)>,
    slot: Option<(f32, f32)>,
    logo: Option<branding::Logo>,
) -> anyhow::Result<Vec<u8>> {
    let mut pictures = Vec::new();
    if let (Some((bytes, face)), Some(slot)) = (original, slot) {
        pictures.push(Picture::jpeg(
            "photo",
            photo_for_slot(&bytes, face, slot, format)?,
        ));
    }
    pictures.extend(logo.and_then(logo_picture));
    render(&Document::parse(filled, fonts, &pictures)?, format)
}

fn render(doc: &Document, format: Format) -> anyhow::Result<Vec<u8>> {
    Ok(match format {
        Format::Image => doc.to_jpeg(JPEG_QUALITY)?,
        Format::Print => doc.to_pdf()?,
    })
}

/// The logo as a document's picture, if it is a PNG or a JPEG (the console accepts no
/// other).
fn logo_picture(logo: branding::Logo) -> Option<Picture> {
    match logo.bytes.get(..4) {
        Some([0x89, b'P', b'N', b'G']) => Some(Picture::png("logo", logo.bytes.to_vec())),
        Some([0xff, 0xd8, ..]) => Some(Picture::jpeg("logo", logo.bytes.to_vec())),
        _ => {
            tracing::warn!(key = %logo.key, "the logo is neither PNG nor JPEG; none is drawn");
            None
        }
    }
}

/// The part of the photo the slot shows, as a JPEG at the slot's drawn size.
fn photo_for_slot(
    original: &[u8],
    face: Option<[f64; 4]>,
    slot: (f32, f32),
    format: Format,
) -> anyhow::Result<Vec<u8>> {
    let info = probe(original)?;
    let (width, height) = info.display_size();
    let (out_w, out_h) = (
        (slot.0 * format.photo_scale()).round().max(1.0) as u32,
        (slot.1 * format.photo_scale()).round().max(1.0) as u32,
    );
    let [x1, y1, x2, y2] = crop_box(
        f64::from(width),
        f64::from(height),
        face,
        f64::from(slot.0 / slot.1),
    );
    // Decode only as large as the crop needs at the slot's size.
    let needed = f64::from(width.max(height)) * f64::from(out_w) / (x2 - x1).max(1.0);
    let opts = DecodeOptions::default()
        .with_max_pixels(MAX_PHOTO_PIXELS)
        .with_target_long_edge(needed.ceil().min(f64::from(width.max(height))) as u32);
    let img = decode(original, &opts)?;
    let scale = f64::from(img.width()) / f64::from(width.max(1));
    let region = BBox {
        x1: (x1 * scale) as f32,
        y1: (y1 * scale) as f32,
        x2: (x2 * scale) as f32,
        y2: (y2 * scale) as f32,
    };
    let part = crop(&img, &region)?;
    encode_jpeg(&resize_exact(&part, out_w, out_h), JPEG_QUALITY)
}

/// The part of a `width` × `height` photo a slot of aspect `aspect` (width / height)
/// shows: around the face (its centre at 40% of the height, the face a third of it),
/// else the largest centred part; inside the photo.
pub fn crop_box(width: f64, height: f64, face: Option<[f64; 4]>, aspect: f64) -> [f64; 4] {
    let aspect = if aspect.is_finite() && aspect > 0.0 {
        aspect
    } else {
        1.0
    };
    // The largest part of this aspect the photo holds.
    let (max_w, max_h) = if width / height > aspect {
        (height * aspect, height)
    } else {
        (width, width / aspect)
    };
    let Some([fx1, fy1, fx2, fy2]) = face else {
        let (x, y) = ((width - max_w) / 2.0, (height - max_h) / 2.0);
        return [x, y, x + max_w, y + max_h];
    };
    let face_h = (fy2 - fy1).max(1.0);
    let h = (face_h * 3.0).min(max_h);
    let w = (h * aspect).min(max_w);
    let h = w / aspect;
    let (cx, cy) = ((fx1 + fx2) / 2.0, (fy1 + fy2) / 2.0);
    let x = (cx - w / 2.0).clamp(0.0, width - w);
    let y = (cy - 0.4 * h).clamp(0.0, height - h);
    [x, y, x + w, y + h]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn photo(id: i64) -> Photo {
        Photo {
            id,
            event_id: 1,
            event_key: raceshot_domain::EventKey::parse("run").unwrap_or_else(|e| panic!("{e}")),
            original_file_name: format!("{id}.jpg"),
            storage_name: format!("{id}.jpg"),
            photographer_id: 1,
            taken_at: None,
        }
    }

    #[test]
    fn the_best_photo_is_the_largest_clearest_face_of_theirs() {
        let candidate = |id: i64, face: Option<[f64; 4]>, score: f64| Candidate {
            photo: photo(id),
            face,
            quality: face.map_or(0.0, |[x1, y1, x2, y2]| (x2 - x1) * (y2 - y1) * score),
        };
        let small = candidate(1, Some([0.0, 0.0, 50.0, 60.0]), 0.9);
        let large_blurred = candidate(2, Some([0.0, 0.0, 100.0, 120.0]), 0.2);
        let large_sharp = candidate(3, Some([0.0, 0.0, 90.0, 110.0]), 0.9);
        let no_face = candidate(4, None, 0.0);
        let all = [no_face.clone(), small.clone(), large_blurred, large_sharp];
        assert_eq!(best(&all).map(|c| c.photo.id), Some(3));
        // A tie goes to the earlier photo.
        let twin = candidate(5, Some([0.0, 0.0, 50.0, 60.0]), 0.9);
        assert_eq!(best(&[twin, small]).map(|c| c.photo.id), Some(1));
        // With no face known, the first photo with the bib; with none, nothing.
        assert_eq!(best(&[no_face]).map(|c| c.photo.id), Some(4));
        assert!(best(&[]).is_none());
    }

    #[test]
    fn the_crop_frames_the_face_and_stays_inside_the_photo() {
        // A 6000 × 4000 photo, a 120 px face near the top-left corner, a square slot.
        let [x1, y1, x2, y2] = crop_box(6000.0, 4000.0, Some([100.0, 50.0, 200.0, 170.0]), 1.0);
        assert_eq!([x1, y1], [0.0, 0.0]);
        assert!(((x2 - x1) - (y2 - y1)).abs() < 1e-6);
        assert!((y2 - y1 - 360.0).abs() < 1e-6);
        // A face in the middle: centred across, at 40% down.
        let [x1, y1, x2, y2] =
            crop_box(6000.0, 4000.0, Some([2950.0, 1950.0, 3050.0, 2050.0]), 0.75);
        assert!(((x1 + x2) / 2.0 - 3000.0).abs() < 1e-6);
        assert!((y1 + 0.4 * (y2 - y1) - 2000.0).abs() < 1e-6);
        // A face larger than the photo allows: the whole height.
        let [_, y1, _, y2] = crop_box(600.0, 400.0, Some([0.0, 0.0, 300.0, 390.0]), 1.0);
        assert!((y2 - y1 - 400.0).abs() < 1e-6);
        // No face: the largest centred part.
        assert_eq!(
            crop_box(600.0, 400.0, None, 1.0),
            [100.0, 0.0, 500.0, 400.0]
        );
    }
}
