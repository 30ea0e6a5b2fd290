//! Delivery of bought photos: one photo through a signed, expiring address (Range
//! requests served), or the whole order as a streamed ZIP. Both work only for paid (or
//! free) orders, only for the files the order gives (`commerce::order_variants`: the
//! original, the logo copy, the framed copy), and only while the originals are kept.
//! A free-download event's photos are also given one by one, framed when the event has
//! a sponsor frame.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use raceshot_domain::OrderUuid;
use raceshot_store::orders::{Order, OrderPhoto};
use serde::Deserialize;
use utoipa::IntoParams;

use super::extract::{ApiPath, ApiQuery};
use crate::api::delivery::{ZipEntry, object_response, zip_body};
use crate::api::error::ErrorAnswer;
use crate::app::state::AppState;
use crate::error::{ErrorCode, ShopError, ShopResult};
use crate::services::commerce::{
    CommerceError, download_name, find_order, order_photo_key, order_variants, parse_event_key,
    parse_order_uuid, sold_photo_key, variant_ready,
};
use crate::services::frames::{FrameDrawer, FramesError};
use crate::services::links::Variant;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SignedParams {
    /// Unix seconds after which the address no longer works.
    pub expires: i64,
    pub signature: String,
}

/// Refuses orders whose files may not (or no longer) be delivered.
fn check_deliverable(order: &Order, variant: Variant) -> ShopResult<()> {
    if !order.is_deliverable() {
        return Err(ShopError::new(
            ErrorCode::OrderNotPaid,
            "the order is not paid",
        ));
    }
    if !order_variants(order).contains(&variant) {
        return Err(match variant {
            Variant::Frame => ShopError::new(ErrorCode::NotFound, "the order carries no frame"),
            _ => ShopError::new(
                ErrorCode::VariantNotOffered,
                "this order gives its photos with the sponsor's frame only",
            ),
        });
    }
    if !variant_ready(order, variant) {
        return Err(match variant {
            Variant::Frame => ShopError::new(
                ErrorCode::FrameImagesNotReady,
                "the copies with the frame are still being made",
            ),
            _ => ShopError::new(
                ErrorCode::LogoImagesNotReady,
                "the copies with the logo are still being made",
            ),
        });
    }
    Ok(())
}

fn storage_expired() -> ShopError {
    ShopError::new(
        ErrorCode::StorageExpired,
        "the originals' storage time has passed",
    )
}

/// One photo of a paid order, through the signed address the inquiry gave out.
#[utoipa::path(get, path = "/api/orders/{order_uuid}/photos/{photo_id}/{variant}", tag = "orders",
    params(("order_uuid" = String, Path), ("photo_id" = i64, Path),
        ("variant" = String, Path, description = "`original`, `logo` or `frame`"), SignedParams),
    responses((status = 200, description = "The JPEG", content_type = "image/jpeg"),
        (status = 206, description = "A byte range of it"),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer),
        (status = 410, response = ErrorAnswer), (status = 416, description = "Range not satisfiable")))]
pub async fn photo(
    State(state): State<AppState>,
    ApiPath((order_uuid, photo_id, variant)): ApiPath<(String, i64, String)>,
    ApiQuery(params): ApiQuery<SignedParams>,
    headers: HeaderMap,
) -> ShopResult<Response> {
    let variant = Variant::parse(&variant)
        .ok_or_else(|| ShopError::new(ErrorCode::NotFound, "no such file"))?;
    // The server signs only ids it made, so a malformed one is a bad signature too.
    let signed = OrderUuid::parse(&order_uuid).ok().filter(|uuid| {
        state.links.download_signature_ok(
            uuid,
            photo_id,
            variant,
            params.expires,
            &params.signature,
        )
    });
    let Some(order_uuid) = signed else {
        return Err(ShopError::new(
            ErrorCode::InvalidSignature,
            "the download address is not valid",
        ));
    };
    if params.expires < state.now().timestamp() {
        return Err(ShopError::new(
            ErrorCode::DownloadLinkExpired,
            "the download address has expired; open the order page again",
        ));
    }
    let order = find_order(&state.store, order_uuid).await?;
    check_deliverable(&order, variant)?;
    let photos = state.store.order_photos(order.id).await?;
    let photo = photos
        .iter()
        .find(|p| p.id == photo_id)
        .ok_or_else(|| ShopError::new(ErrorCode::NotFound, "no such photo in the order"))?;
    if photo.original_purged {
        return Err(storage_expired());
    }
    let key = order_photo_key(&order, &photo.storage_name, variant).map_err(ShopError::internal)?;
    let mut response = object_response(
        &state.objects,
        &key,
        &headers,
        "image/jpeg",
        Some(&download_name(photo, variant)),
        &state.signing_key,
    )
    .await?;
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, max-age=3600"),
    );
    Ok(response)
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ZipParams {
    /// `original` (default), `logo` or `frame`.
    pub variant: Option<String>,
}

/// Every photo of a paid order as one ZIP, streamed as it is written.
#[utoipa::path(get, path = "/api/orders/{order_uuid}/download.zip", tag = "orders",
    params(("order_uuid" = String, Path), ZipParams),
    responses((status = 200, description = "The ZIP archive", content_type = "application/zip"),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer), (status = 409, response = ErrorAnswer),
        (status = 410, response = ErrorAnswer)))]
pub async fn zip(
    State(state): State<AppState>,
    Path(order_uuid): Path<String>,
    ApiQuery(params): ApiQuery<ZipParams>,
) -> ShopResult<Response> {
    let variant = match params.variant.as_deref() {
        None | Some("") => Variant::Original,
        Some(raw) => Variant::parse(raw)
            .ok_or_else(|| ShopError::field("variant", "must be original, logo or frame"))?,
    };
    let order = find_order(&state.store, parse_order_uuid(&order_uuid)?).await?;
    check_deliverable(&order, variant)?;
    let photos = state.store.order_photos(order.id).await?;
    if photos.is_empty() {
        // An order of a finisher certificate alone.
        return Err(ShopError::new(
            ErrorCode::NotFound,
            "the order holds no photos",
        ));
    }
    let kept: Vec<&OrderPhoto> = photos.iter().filter(|p| !p.original_purged).collect();
    if kept.is_empty() {
        return Err(storage_expired());
    }
    let entries = kept
        .into_iter()
        .map(|p| {
            Ok(ZipEntry {
                key: order_photo_key(&order, &p.storage_name, variant)
                    .map_err(ShopError::internal)?,
                name: download_name(p, variant),
            })
        })
        .collect::<ShopResult<Vec<_>>>()?;
    let file = match variant {
        Variant::Original => format!("{}.zip", order.uuid),
        Variant::Logo => format!("{}-logo.zip", order.uuid),
        Variant::Frame => format!("{}-frame.zip", order.uuid),
    };
    Ok((
        [
            (header::CONTENT_TYPE, "application/zip".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}\""),
            ),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
        zip_body(state.objects.clone(), entries),
    )
        .into_response())
}

/// One photo of a free-download event (free events download directly), saved as
/// `photographerId_originalName`: the original, or, when the event has a sponsor frame,
/// the framed copy (made on the first download, as `frame_…`). Only shown photos of a
/// visible free event are served.
#[utoipa::path(get, path = "/api/events/{event_key}/photos/{photo_id}/download", tag = "orders",
    params(("event_key" = String, Path), ("photo_id" = i64, Path)),
    responses((status = 200, description = "The JPEG", content_type = "image/jpeg"),
        (status = 206, description = "A byte range of it"),
        (status = 403, response = ErrorAnswer), (status = 404, response = ErrorAnswer),
        (status = 416, description = "Range not satisfiable")))]
pub async fn free_photo(
    State(state): State<AppState>,
    ApiPath((event_key, photo_id)): ApiPath<(String, i64)>,
    headers: HeaderMap,
) -> ShopResult<Response> {
    let key = parse_event_key(&event_key)?;
    let event = state
        .store
        .event_by_key(&key)
        .await?
        .ok_or(CommerceError::EventNotFound)?;
    if !event.spec.is_free_download {
        return Err(ShopError::new(
            ErrorCode::OrderNotPaid,
            "photos of this event are sold, not given away",
        ));
    }
    let photo = state
        .store
        .shown_photos(event.id, &[photo_id])
        .await?
        .into_iter()
        .next()
        .ok_or_else(|| ShopError::new(ErrorCode::ImageNotFound, "no such photo in the event"))?;
    let sold = OrderPhoto {
        id: photo.id,
        original_file_name: photo.original_file_name,
        storage_name: photo.storage_name,
        photographer_id: photo.photographer_id,
        original_purged: false,
        held: false,
    };
    // The event's row names its frame: no second query.
    let (object, name) = match &event.frame_name {
        Some(frame) => (
            FrameDrawer::new(&state.objects, &state.cpu, &key, frame)
                .copy(&sold.storage_name)
                .await
                .map_err(|e| match e {
                    FramesError::Store(e) if e.is_not_found() => storage_expired(),
                    e => ShopError::internal(e),
                })?,
            download_name(&sold, Variant::Frame),
        ),
        None => (
            sold_photo_key(&key, &sold.storage_name, Variant::Original)
                .map_err(ShopError::internal)?,
            download_name(&sold, Variant::Original),
        ),
    };
    let mut response = object_response(
        &state.objects,
        &object,
        &headers,
        "image/jpeg",
        Some(&name),
        &state.signing_key,
    )
    .await?;
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=3600"),
    );
    Ok(response)
}
