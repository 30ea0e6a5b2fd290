//! Adding a photo to an event, the one way every path takes (`raceshot ingest`, the
//! console, resumable uploads, cameras' FTP), with the file name as it is kept, and the
//! names of the pictures derived from a stored photo.

use anyhow::Context;
use raceshot_domain::EventKey;
use raceshot_store::photos::{Added, NewPhoto};
use raceshot_store::{ObjectKey, ObjectKind, Objects, Store, StoredName};
use raceshot_vision::image_io::{ImageFormat, sniff};
use sha2::{Digest, Sha256};

use crate::infra::clock::Clock;
use crate::infra::cpu::CpuPool;
use crate::jobs::kinds::IngestPhoto;
use crate::jobs::queue::JobQueue;

/// The largest photo file the shop takes, however it arrives (the console, resumable
/// uploads, FTP).
pub const MAX_PHOTO_BYTES: usize = 60 * 1024 * 1024;

/// The longest file name kept (characters).
const MAX_NAME_CHARS: usize = 200;

/// The file name as the client sent it: its last path segment, without control
/// characters, at most [`MAX_NAME_CHARS`]; `photo.jpg` when nothing is left.
pub fn clean_file_name(raw: &str) -> String {
    let name: String = raw
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or_default()
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_NAME_CHARS)
        .collect();
    if name.trim().is_empty() {
        "photo.jpg".to_owned()
    } else {
        name
    }
}

/// The name of a photo's preview and thumbnail: its stored name as a JPEG.
pub fn derived_name(storage_name: &str) -> String {
    let stem = storage_name
        .rsplit_once('.')
        .map_or(storage_name, |(stem, _)| stem);
    format!("{stem}.jpg")
}

/// What adding a photo uses: where its original and its row go, the pool that hashes it
/// and the queue of its processing job.
#[derive(Clone, Copy)]
pub struct Intake<'a> {
    pub store: &'a Store,
    pub objects: &'a Objects,
    pub cpu: &'a CpuPool,
    pub jobs: &'a JobQueue,
    pub clock: Clock,
}

/// What adding one file to an event did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileAdded {
    /// A new photo, queued for processing.
    Queued(i64),
    /// The event holds this content already (as this photo).
    Exists(i64),
    /// Not a JPEG or PNG file.
    Refused(&'static str),
}

/// Adds one file to an event: the original goes to object storage first, then the photo
/// row with its processing job; content the event holds already is skipped. Used by
/// `raceshot ingest` and the console's uploads alike. `photographer_id` is the operator
/// who uploaded it (0 when it came another way, or `raceshot ingest --photographer`).
pub async fn add_file(
    intake: Intake<'_>,
    key: &EventKey,
    event_id: i64,
    file_name: &str,
    photographer_id: i64,
    bytes: Vec<u8>,
) -> anyhow::Result<FileAdded> {
    let ext = match sniff(&bytes) {
        Ok(ImageFormat::Jpeg) => "jpg",
        Ok(ImageFormat::Png) => "png",
        Err(_) => return Ok(FileAdded::Refused("not a JPEG or PNG file")),
    };
    // Hashing a photo of tens of megabytes takes a while: not on a runtime thread.
    let (hash, bytes) = intake
        .cpu
        .run(move || (hex::encode(Sha256::digest(&bytes)), bytes))
        .await?;
    if let Some((id, _)) = intake.store.photo_by_hash(event_id, &hash).await? {
        return Ok(FileAdded::Exists(id));
    }
    let storage_name = format!("{}.{ext}", hex::encode(rand::random::<[u8; 12]>()));
    let name = StoredName::parse(&storage_name).context("stored name")?;
    let original = ObjectKey::new(key, ObjectKind::Original, &name);
    intake.objects.put(&original, bytes.into()).await?;
    let photo = NewPhoto {
        event_id,
        content_hash: hash,
        original_file_name: file_name.to_owned(),
        storage_name,
        photographer_id,
    };
    match intake
        .store
        .add_photo(
            &photo,
            |photo_id| intake.jobs.row_now(&IngestPhoto { photo_id }),
            intake.clock.now(),
        )
        .await?
    {
        Added::New(id) => {
            intake.jobs.wake();
            Ok(FileAdded::Queued(id))
        }
        Added::Exists(id, _) => {
            // Another ingest of the same file won the race; drop this copy.
            intake.objects.delete(&original).await?;
            Ok(FileAdded::Exists(id))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_keep_their_last_segment_without_control_characters() {
        assert_eq!(
            clean_file_name("DCIM/100NIKON/DSC_0001.JPG"),
            "DSC_0001.JPG"
        );
        assert_eq!(clean_file_name("C:\\cards\\a\u{7}b.jpg"), "ab.jpg");
        assert_eq!(clean_file_name("  "), "photo.jpg");
        assert_eq!(clean_file_name(&"x".repeat(500)).len(), MAX_NAME_CHARS);
    }
}
