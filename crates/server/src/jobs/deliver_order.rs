//! `deliver_order`: makes a paid order's files ready. First it checks that every original
//! is in storage (`is_original_image_created`), then, when the order carries a sponsor
//! frame, it makes each photo's framed copy (`is_frame_image_created`), and then each
//! photo's copy with the event's logo (or the shop's) stamped on
//! (`is_logo_image_created`). An order that gives only the framed copy (a free download)
//! is marked ready once those are made, and gets no logo copies. Copies are shared by
//! every order of the photo and skipped when present, so a re-run redoes nothing.

use raceshot_store::orders::DeliveryFlag;
use raceshot_vision::RgbImage;
use raceshot_vision::image_io::{DecodeOptions, decode};

use super::kinds::DeliverOrder;
use super::{BackgroundJob, JobContext, JobError};
use crate::app::state::AppState;
use crate::infra::imaging::{MAX_PHOTO_PIXELS, decode_logo, encode_jpeg, stamp_logo};
use crate::services::branding;
use crate::services::commerce::sold_photo_key;
use crate::services::frames::{FrameDrawer, FramesError};
use crate::services::links::Variant;

/// Copies are JPEGs at this quality: close to the original.
const COPY_QUALITY: i32 = 92;

impl BackgroundJob for DeliverOrder {
    async fn run(&self, ctx: &JobContext<'_>) -> Result<(), JobError> {
        deliver(ctx, self.order_id).await
    }
}

async fn deliver(ctx: &JobContext<'_>, order_id: i64) -> Result<(), JobError> {
    let state = ctx.state;
    let Some(order) = super::paid_order(state, order_id).await? else {
        return Ok(());
    };
    let photos = state.store.order_photos(order.id).await?;
    let kept: Vec<_> = photos.iter().filter(|p| !p.original_purged).collect();
    for photo in &kept {
        let key = sold_photo_key(&order.event_key, &photo.storage_name, Variant::Original)?;
        if !state.objects.exists(&key).await? {
            return Err(JobError::Permanent(format!(
                "the original of photo {} is missing from storage",
                photo.id
            )));
        }
    }
    let frame_only = order.frame.as_ref().is_some_and(|f| f.only);
    if !order.is_original_image_created && !frame_only {
        state
            .store
            .set_delivery_flag(order.id, DeliveryFlag::OriginalImages, state.now())
            .await?;
    }
    if let Some(frame) = order
        .frame
        .as_ref()
        .filter(|_| !order.is_frame_image_created)
    {
        let drawer = FrameDrawer::new(&state.objects, &state.cpu, &order.event_key, &frame.name);
        for (done, photo) in kept.iter().enumerate() {
            drawer
                .copy(&photo.storage_name)
                .await
                .map_err(|e| match e {
                    FramesError::Store(e) => JobError::from(e),
                    FramesError::Fault(e) => JobError::Retry(e),
                    refused => JobError::Permanent(refused.to_string()),
                })?;
            if done % 10 == 9 {
                ctx.renew_lease().await?;
            }
        }
        state
            .store
            .set_delivery_flag(order.id, DeliveryFlag::FrameImages, state.now())
            .await?;
    }
    if frame_only {
        // A free download's files are its framed copies: ready now.
        if !order.is_original_image_created {
            state
                .store
                .set_delivery_flag(order.id, DeliveryFlag::OriginalImages, state.now())
                .await?;
        }
        return Ok(());
    }
    if order.is_logo_image_created {
        return Ok(());
    }
    let logo = load_logo(state, order.event_id).await?;
    for (done, photo) in kept.iter().enumerate() {
        let copy = sold_photo_key(&order.event_key, &photo.storage_name, Variant::Logo)?;
        if state.objects.exists(&copy).await? {
            continue;
        }
        let original = state
            .objects
            .get(&sold_photo_key(
                &order.event_key,
                &photo.storage_name,
                Variant::Original,
            )?)
            .await?;
        let logo = logo.clone();
        let jpeg = tokio::task::spawn_blocking(move || -> Result<Vec<u8>, JobError> {
            let opts = DecodeOptions::default().with_max_pixels(MAX_PHOTO_PIXELS);
            let img = decode(&original, &opts).map_err(|e| JobError::Permanent(e.to_string()))?;
            Ok(encode_jpeg(&stamp_logo(img, logo.as_ref()), COPY_QUALITY)?)
        })
        .await
        .map_err(|e| JobError::Retry(e.into()))??;
        state.objects.put(&copy, jpeg.into()).await?;
        if done % 10 == 9 {
            ctx.renew_lease().await?;
        }
    }
    state
        .store
        .set_delivery_flag(order.id, DeliveryFlag::LogoImages, state.now())
        .await?;
    Ok(())
}

/// The event's logo, else the shop's; `None` stamps the shop's name instead.
async fn load_logo(state: &AppState, event_id: i64) -> Result<Option<RgbImage>, JobError> {
    let Some(logo) = branding::logo(&state.store, &state.objects, event_id).await? else {
        return Ok(None);
    };
    // Logos stored before uploads were limited may declare any size: the same limit.
    match decode_logo(&logo.bytes) {
        Ok(img) => Ok(Some(img)),
        Err(e) => {
            let key = logo.key;
            tracing::warn!(%key, error = %e, "logo cannot be decoded; stamping the shop's name");
            Ok(None)
        }
    }
}
