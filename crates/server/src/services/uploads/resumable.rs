//! Resumable uploads (the tus 1.0 protocol's rules, without its HTTP): a photographer's
//! client announces a file (its event, name and length), then sends its bytes, from
//! wherever the server says it stands, in as many requests as the network allows. The
//! bytes go to object storage in parts of at most [`PART_BYTES`] as they arrive, so a
//! request holds one part in memory, and a cut connection keeps every part that arrived
//! whole plus the piece in hand. A part counts only if it starts where the upload stands
//! (`Store::commit_upload_part`): two clients resuming at once cannot interleave. When the
//! last byte is in, the file is added to its event as the console's uploads are
//! ([`add_file`]: hash dedupe, the same limits, the same audit) and the parts are deleted.
//! An unfinished upload lives [`UPLOAD_TTL`]; the retention job deletes it after.

use bytes::{Bytes, BytesMut};
use chrono::{DateTime, Utc};
use futures::{Stream, StreamExt};
use raceshot_domain::EventKey;
use raceshot_store::audit::event_target;
use raceshot_store::operators::Operator;
use raceshot_store::uploads::{NewUpload, Upload, UploadPart};
use raceshot_store::{ObjectKey, StoreError, StoredName};

use crate::services::operators::{actor_of, may_work_on};
use crate::services::photos::{FileAdded, Intake, MAX_PHOTO_BYTES, add_file, clean_file_name};

/// Bytes held in memory per request before they are written out as a part.
pub const PART_BYTES: usize = 8 * 1024 * 1024;
/// How long an unfinished upload may be resumed.
pub const UPLOAD_TTL: chrono::Duration = chrono::Duration::hours(24);
/// Unfinished uploads one account may have open at once: a camera card's worth, and a
/// bound on what a leaked token can make the shop keep.
pub const MAX_OPEN_UPLOADS: i64 = 500;

/// Why an upload call did not go through.
#[derive(Debug, thiserror::Error)]
pub enum ResumableError {
    /// No such upload, or another account's.
    #[error("no such upload")]
    NotFound,
    /// Past its end: start again.
    #[error("the upload has expired; start it again")]
    Expired,
    /// The bytes sent do not start where the upload stands (`at`).
    #[error("the upload stands at byte {at}")]
    OffsetConflict { at: i64 },
    /// The account has [`MAX_OPEN_UPLOADS`] unfinished uploads already.
    #[error("too many unfinished uploads; finish or delete some first")]
    TooManyOpen,
    /// More bytes than the announced length, or a length over the limit.
    #[error("a photo file is at most 60 MB, and no longer than announced")]
    TooLarge,
    /// The announced length or metadata is missing or malformed.
    #[error("{0}")]
    BadRequest(&'static str),
    /// The event does not exist.
    #[error("no such event")]
    EventNotFound,
    /// The account may not upload to the event.
    #[error("this account may not upload to this event")]
    Forbidden,
    /// The whole file is not a JPEG or PNG photo.
    #[error("not a JPEG or PNG file")]
    NotAPhoto,
    /// The connection broke off; what arrived is kept.
    #[error("the upload broke off at byte {at}")]
    Cut { at: i64 },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Fault(anyhow::Error),
}

impl ResumableError {
    fn fault(e: impl Into<anyhow::Error>) -> Self {
        ResumableError::Fault(e.into())
    }
}

/// Announces a file of `length` bytes for the event `event_key`.
pub async fn start(
    intake: Intake<'_>,
    operator: &Operator,
    event_key: &str,
    file_name: &str,
    length: i64,
) -> Result<Upload, ResumableError> {
    if length <= 0 {
        return Err(ResumableError::BadRequest(
            "Upload-Length must be a positive number",
        ));
    }
    if length > MAX_PHOTO_BYTES as i64 {
        return Err(ResumableError::TooLarge);
    }
    let key = EventKey::parse(event_key).map_err(|_| ResumableError::EventNotFound)?;
    let event = intake
        .store
        .any_event_by_key(&key)
        .await?
        .ok_or(ResumableError::EventNotFound)?;
    if !may_work_on(intake.store, operator, event.id).await? {
        return Err(ResumableError::Forbidden);
    }
    if intake.store.open_uploads(operator.id).await? >= MAX_OPEN_UPLOADS {
        return Err(ResumableError::TooManyOpen);
    }
    let id = hex::encode(rand::random::<[u8; 16]>());
    let now = intake.clock.now();
    intake
        .store
        .create_upload(
            &NewUpload {
                id: &id,
                operator_id: operator.id,
                event_id: event.id,
                file_name: &clean_file_name(file_name),
                length,
                expires_at: now + UPLOAD_TTL,
            },
            now,
        )
        .await?;
    intake
        .store
        .upload(&id)
        .await?
        .ok_or(ResumableError::NotFound)
}

/// The operator's own upload `id`, unexpired (a finished one stays readable until then).
pub async fn find(
    intake: Intake<'_>,
    operator: &Operator,
    id: &str,
) -> Result<Upload, ResumableError> {
    let upload = intake
        .store
        .upload(id)
        .await?
        .filter(|u| u.operator_id == operator.id)
        .ok_or(ResumableError::NotFound)?;
    if upload.expires_at <= intake.clock.now() {
        return Err(ResumableError::Expired);
    }
    Ok(upload)
}

/// Where a part is kept: `_shop/uploads/{name}`.
fn part_key(name: &str) -> Option<ObjectKey> {
    StoredName::parse(name).map(|n| ObjectKey::shared("uploads", &n))
}

fn key_of(part: &UploadPart) -> Option<ObjectKey> {
    part_key(&part.name)
}

/// Writes `bytes` as the part starting at `start`; answers whether it was committed (a
/// part that lost a race is deleted again).
async fn write_part(
    intake: Intake<'_>,
    upload: &Upload,
    start: i64,
    bytes: Bytes,
) -> Result<bool, ResumableError> {
    // Named by where it starts and a nonce, so a part that loses a race never overwrites
    // the winner's.
    let nonce = hex::encode(rand::random::<[u8; 4]>());
    let name = format!("{}-{start:012}-{nonce}", upload.id);
    let key = part_key(&name).ok_or(ResumableError::NotFound)?;
    let size = bytes.len() as i64;
    intake.objects.put(&key, bytes).await?;
    let part = UploadPart { start, size, name };
    if intake.store.commit_upload_part(&upload.id, &part).await? {
        return Ok(true);
    }
    if let Err(e) = intake.objects.delete(&key).await {
        tracing::warn!(upload = %upload.id, error = %e, "a part that lost a race was not deleted");
    }
    Ok(false)
}

/// What a request's bytes did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Appended {
    /// Where the upload stands now.
    pub received: i64,
    /// The photo it became, when this request brought its last byte.
    pub photo: Option<Became>,
}

/// What a whole file became.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Became {
    pub photo_id: i64,
    /// A new photo (`false`: the event held this file already).
    pub new: bool,
}

/// Takes the bytes of one request, which must start at `offset`, where the upload stands.
pub async fn append<S, E>(
    intake: Intake<'_>,
    upload: &Upload,
    offset: i64,
    body: S,
) -> Result<Appended, ResumableError>
where
    S: Stream<Item = Result<Bytes, E>> + Unpin,
    E: std::fmt::Display,
{
    if upload.photo_id.is_some() || offset != upload.received {
        return Err(ResumableError::OffsetConflict {
            at: upload.received,
        });
    }
    let mut body = body;
    let mut at = offset;
    let mut held = BytesMut::new();
    let mut cut = false;
    let mut over = false;
    while let Some(chunk) = body.next().await {
        let chunk = match chunk {
            Ok(chunk) => chunk,
            Err(e) => {
                tracing::info!(upload = %upload.id, error = %e, "upload broke off");
                cut = true;
                break;
            }
        };
        let room = (upload.length - at - held.len() as i64).max(0) as usize;
        if chunk.len() > room {
            held.extend_from_slice(&chunk[..room]);
            over = true;
            break;
        }
        held.extend_from_slice(&chunk);
        if held.len() >= PART_BYTES {
            let part = held.split().freeze();
            let size = part.len() as i64;
            if !write_part(intake, upload, at, part).await? {
                return Err(ResumableError::OffsetConflict { at });
            }
            at += size;
        }
    }
    if !held.is_empty() {
        let size = held.len() as i64;
        if !write_part(intake, upload, at, held.freeze()).await? {
            return Err(ResumableError::OffsetConflict { at });
        }
        at += size;
    }
    if over {
        return Err(ResumableError::TooLarge);
    }
    if cut {
        return Err(ResumableError::Cut { at });
    }
    let photo = if at == upload.length {
        Some(complete(intake, upload).await?)
    } else {
        None
    };
    Ok(Appended {
        received: at,
        photo,
    })
}

/// Adds the whole file to its event and deletes its parts; answers the photo.
async fn complete(intake: Intake<'_>, upload: &Upload) -> Result<Became, ResumableError> {
    let parts = intake.store.upload_parts(&upload.id).await?;
    let mut file = Vec::with_capacity(usize::try_from(upload.length).unwrap_or(0));
    for part in &parts {
        let key = key_of(part).ok_or(ResumableError::NotFound)?;
        file.extend_from_slice(&intake.objects.get(&key).await?);
    }
    if file.len() as i64 != upload.length {
        return Err(ResumableError::fault(anyhow::anyhow!(
            "upload {} has {} of {} bytes in its parts",
            upload.id,
            file.len(),
            upload.length
        )));
    }
    let added = add_file(
        intake,
        &upload.event_key,
        upload.event_id,
        &upload.file_name,
        upload.operator_id,
        file,
    )
    .await
    .map_err(ResumableError::fault)?;
    let became = match added {
        FileAdded::Queued(id) => {
            let detail = serde_json::json!({
                "photo_id": id, "file_name": upload.file_name, "via": "resumable upload",
            });
            intake
                .store
                .audit(
                    &actor_of(upload.operator_id),
                    "photo.upload",
                    &event_target(&upload.event_key),
                    &detail,
                    intake.clock.now(),
                )
                .await?;
            Became {
                photo_id: id,
                new: true,
            }
        }
        FileAdded::Exists(id) => Became {
            photo_id: id,
            new: false,
        },
        FileAdded::Refused(_) => {
            discard(intake, &upload.id).await?;
            return Err(ResumableError::NotAPhoto);
        }
    };
    intake
        .store
        .finish_upload(&upload.id, became.photo_id)
        .await?;
    delete_parts(intake, &parts).await;
    Ok(became)
}

/// Deletes parts' objects; one left behind is only wasted space until the sweep.
async fn delete_parts(intake: Intake<'_>, parts: &[UploadPart]) {
    for part in parts {
        let Some(key) = key_of(part) else { continue };
        if let Err(e) = intake.objects.delete(&key).await {
            tracing::warn!(part = %part.name, error = %e, "upload part not deleted");
        }
    }
}

/// Ends an upload at the client's request: its parts and its row are deleted.
pub async fn terminate(intake: Intake<'_>, upload: &Upload) -> Result<(), ResumableError> {
    Ok(discard(intake, &upload.id).await?)
}

/// Deletes an upload's parts, then the upload.
async fn discard(intake: Intake<'_>, id: &str) -> Result<(), StoreError> {
    let parts = intake.store.upload_parts(id).await?;
    delete_parts(intake, &parts).await;
    intake.store.delete_upload(id).await
}

/// Deletes every upload past its end, parts and all; answers how many.
pub async fn sweep_expired(intake: Intake<'_>, now: DateTime<Utc>) -> Result<usize, StoreError> {
    let mut swept = 0;
    loop {
        let due = intake.store.expired_uploads(now, 100).await?;
        if due.is_empty() {
            return Ok(swept);
        }
        for id in &due {
            discard(intake, id).await?;
        }
        swept += due.len();
    }
}
