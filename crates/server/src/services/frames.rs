//! Sponsor frames (docs/shop-contract.md, Sponsor frames): an operator gives an event a
//! frame (a PNG with transparency, or an SVG, kept as a PNG: `infra/framing.rs`), which
//! the event page shows over its previews, free downloads carry (the framed copy is all
//! they give), and sold photos get as a third copy beside the original and the logo copy
//! when the operator chooses so. Which orders carry it is fixed when each is made
//! (`commerce::orders::order_frame`).
//!
//! A framed copy is named by its photo and its frame (`{photo}-{frame}.jpg` in the event's
//! `framed/` folder): shared by every order and free download of that photo with that
//! frame, made once, and a new frame never changes what an earlier order received.
//! Retention deletes the event's framed copies with its originals.

use std::sync::Arc;

use bytes::Bytes;
use chrono::{DateTime, Utc};
use raceshot_domain::EventKey;
use raceshot_store::frames::EventFrame;
use raceshot_store::{ObjectKey, ObjectKind, Objects, Store, StoreError, StoredName};
use raceshot_vision::image_io::{DecodeOptions, decode};
use resvg::tiny_skia::Pixmap;
use sha2::{Digest, Sha256};
use tokio::sync::OnceCell;

use crate::infra::cpu::CpuPool;
use crate::infra::framing::{self, FrameError};
use crate::infra::imaging::{MAX_PHOTO_PIXELS, encode_jpeg};
use crate::infra::svg::Fonts;
use crate::services::photos::derived_name;

/// Framed copies are JPEGs at this quality, as logo copies are.
const COPY_QUALITY: i32 = 92;

/// Why a frame is refused or a framed copy cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum FramesError {
    #[error(transparent)]
    Picture(#[from] FrameError),
    #[error("the photo's original cannot be read: {0}")]
    Original(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Fault(#[from] anyhow::Error),
}

/// The storage key of an event's frame.
pub fn frame_object(event: &EventKey, name: &StoredName) -> ObjectKey {
    ObjectKey::new(event, ObjectKind::Frame, name)
}

/// The storage key of a photo's copy (by its stored name) with the frame `frame` over it.
pub fn framed_object(
    event: &EventKey,
    storage_name: &str,
    frame: &StoredName,
) -> anyhow::Result<ObjectKey> {
    let stem = |name: &str| name.rsplit_once('.').map_or(name, |(s, _)| s).to_owned();
    let raw = format!(
        "{}-{}.jpg",
        stem(&derived_name(storage_name)),
        stem(frame.as_str())
    );
    let name = StoredName::parse(&raw).ok_or_else(|| anyhow::anyhow!("framed name {raw}"))?;
    Ok(ObjectKey::new(event, ObjectKind::Framed, &name))
}

/// Makes an upload the event's frame (the one in force from now on), and answers it.
pub async fn put_frame(
    store: &Store,
    objects: &Objects,
    cpu: &CpuPool,
    fonts: Option<&Fonts>,
    event: (i64, &EventKey),
    upload: Bytes,
    now: DateTime<Utc>,
) -> Result<EventFrame, FramesError> {
    let fonts = fonts.cloned();
    let png = cpu
        .run(move || framing::normalise(&upload, fonts.as_ref()))
        .await??;
    let raw = format!("{}.png", &hex::encode(Sha256::digest(&png))[..24]);
    let name = StoredName::parse(&raw).ok_or_else(|| anyhow::anyhow!("frame name {raw}"))?;
    let (event_id, event_key) = event;
    objects
        .put(&frame_object(event_key, &name), png.into())
        .await?;
    Ok(store.put_event_frame(event_id, &name, now).await?)
}

/// Makes the framed copies of one event's photos with one frame, on the CPU pool. The
/// frame is read and decoded once, when the first copy that is not in storage needs it.
/// Each copy is made once: a photo's copy costs one drawing per frame, whoever asks.
pub struct FrameDrawer<'a> {
    objects: &'a Objects,
    cpu: &'a CpuPool,
    event: &'a EventKey,
    frame: &'a StoredName,
    picture: OnceCell<Arc<Pixmap>>,
}

impl<'a> FrameDrawer<'a> {
    pub fn new(
        objects: &'a Objects,
        cpu: &'a CpuPool,
        event: &'a EventKey,
        frame: &'a StoredName,
    ) -> Self {
        FrameDrawer {
            objects,
            cpu,
            event,
            frame,
            picture: OnceCell::new(),
        }
    }

    /// The copy of the photo (by its stored name) with the frame over it, made from its
    /// original when it is not in storage yet; answers its key.
    pub async fn copy(&self, storage_name: &str) -> Result<ObjectKey, FramesError> {
        let copy = framed_object(self.event, storage_name, self.frame)?;
        if self.objects.exists(&copy).await? {
            return Ok(copy);
        }
        let original_name = StoredName::parse(storage_name)
            .ok_or_else(|| anyhow::anyhow!("stored name {storage_name}"))?;
        let original = self
            .objects
            .get(&ObjectKey::new(
                self.event,
                ObjectKind::Original,
                &original_name,
            ))
            .await?;
        let frame = self.picture().await?;
        let jpeg = self
            .cpu
            .run(move || -> Result<Vec<u8>, FramesError> {
                let opts = DecodeOptions::default().with_max_pixels(MAX_PHOTO_PIXELS);
                let photo =
                    decode(&original, &opts).map_err(|e| FramesError::Original(e.to_string()))?;
                Ok(encode_jpeg(
                    &framing::draw_over(photo, &frame),
                    COPY_QUALITY,
                )?)
            })
            .await??;
        self.objects.put(&copy, jpeg.into()).await?;
        Ok(copy)
    }

    async fn picture(&self) -> Result<Arc<Pixmap>, FramesError> {
        let picture = self
            .picture
            .get_or_try_init(|| async {
                let png = self
                    .objects
                    .get(&frame_object(self.event, self.frame))
                    .await?;
                let decoded = self.cpu.run(move || framing::decode(&png)).await??;
                Ok::<_, FramesError>(Arc::new(decoded))
            })
            .await?;
        Ok(picture.clone())
    }
}

/// Deletes the event's framed copies (retention, with its originals); answers how many.
pub async fn forget_framed(objects: &Objects, event: &EventKey) -> Result<usize, StoreError> {
    objects.delete_all(event, ObjectKind::Framed, "").await
}
