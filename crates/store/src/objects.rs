//! Object storage for photo files: a local directory by default, any S3-compatible service
//! when configured. Keys are laid out per event — `{event_key}/original/{name}`,
//! `preview/`, `thumbnail/`, `logo/`, `withlogo/`, `certificate/` — and built only from a parsed [`EventKey`] and a
//! [`StoredName`], never from raw user input.

use std::path::PathBuf;
use std::sync::Arc;

use bytes::Bytes;
use chrono::{DateTime, Utc};
use object_store::aws::AmazonS3Builder;
use object_store::local::LocalFileSystem;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt, PutPayload};
use raceshot_domain::EventKey;

use crate::{Result, StoreError};

#[derive(Debug, Clone)]
pub enum StorageSettings {
    Local {
        root: PathBuf,
    },
    S3 {
        endpoint: Option<String>,
        bucket: String,
        region: String,
        access_key_id: Option<String>,
        secret_access_key: Option<String>,
        path_style: bool,
    },
}

/// The kinds of file kept per event: each photo's original, preview, thumbnail and (once
/// bought) its copy with the logo stamped on; and the event's logo images.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjectKind {
    Original,
    Preview,
    Thumbnail,
    /// The event's logo images (public).
    Logo,
    /// A sold photo's original with the logo stamped on (delivered like originals).
    WithLogo,
    /// Finisher certificates, named by a hash of what they show.
    Certificate,
    /// The event's sponsor frames (public).
    Frame,
    /// A photo with the event's sponsor frame drawn over it, named by photo and frame
    /// (delivered like originals).
    Framed,
}

impl ObjectKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ObjectKind::Original => "original",
            ObjectKind::Preview => "preview",
            ObjectKind::Thumbnail => "thumbnail",
            ObjectKind::Logo => "logo",
            ObjectKind::WithLogo => "withlogo",
            ObjectKind::Certificate => "certificate",
            ObjectKind::Frame => "frame",
            ObjectKind::Framed => "framed",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "original" => Some(ObjectKind::Original),
            "preview" => Some(ObjectKind::Preview),
            "thumbnail" => Some(ObjectKind::Thumbnail),
            "logo" => Some(ObjectKind::Logo),
            "withlogo" => Some(ObjectKind::WithLogo),
            "certificate" => Some(ObjectKind::Certificate),
            "frame" => Some(ObjectKind::Frame),
            "framed" => Some(ObjectKind::Framed),
            _ => None,
        }
    }
}

/// A file name the shop chose (or checked): letters, digits, `-`, `_` and inner dots only,
/// so it can never climb out of its folder.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StoredName(String);

impl StoredName {
    pub fn parse(raw: &str) -> Option<Self> {
        let ok = !raw.is_empty()
            && raw.len() <= 128
            && !raw.starts_with('.')
            && !raw.contains("..")
            && raw
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        ok.then(|| StoredName(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A name read back from a row: one the shop wrote, so anything else is corrupt data.
impl TryFrom<String> for StoredName {
    type Error = crate::StoreError;
    fn try_from(raw: String) -> Result<Self, Self::Error> {
        Self::parse(&raw).ok_or_else(|| crate::StoreError::Corrupt(format!("stored name {raw}")))
    }
}

impl std::fmt::Display for StoredName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Where one file of one event lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectKey(Path);

impl ObjectKey {
    pub fn new(event: &EventKey, kind: ObjectKind, name: &StoredName) -> Self {
        ObjectKey(Path::from_iter([
            event.as_str(),
            kind.as_str(),
            name.as_str(),
        ]))
    }

    /// A key outside any event, for shop-wide files (the shop's logo) and transient uploads.
    pub fn shared(folder: &'static str, name: &StoredName) -> Self {
        ObjectKey(Path::from_iter(["_shop", folder, name.as_str()]))
    }

    pub fn as_str(&self) -> &str {
        self.0.as_ref()
    }
}

/// The object store handle: cheap to clone.
#[derive(Clone)]
pub struct Objects {
    inner: Arc<dyn ObjectStore>,
    /// Set for S3, which can hand out presigned addresses.
    s3: Option<Arc<object_store::aws::AmazonS3>>,
}

impl Objects {
    pub fn open(settings: &StorageSettings) -> Result<Self> {
        let mut s3 = None;
        let inner: Arc<dyn ObjectStore> = match settings {
            StorageSettings::Local { root } => {
                std::fs::create_dir_all(root).map_err(|e| {
                    StoreError::Config(format!("cannot create {}: {e}", root.display()))
                })?;
                Arc::new(LocalFileSystem::new_with_prefix(root)?.with_automatic_cleanup(true))
            }
            StorageSettings::S3 {
                endpoint,
                bucket,
                region,
                access_key_id,
                secret_access_key,
                path_style,
            } => {
                let mut b = AmazonS3Builder::new()
                    .with_bucket_name(bucket)
                    .with_region(region)
                    .with_virtual_hosted_style_request(!path_style);
                if let Some(endpoint) = endpoint {
                    b = b
                        .with_allow_http(endpoint.starts_with("http://"))
                        .with_endpoint(endpoint);
                }
                if let Some(key) = access_key_id {
                    b = b.with_access_key_id(key);
                }
                if let Some(secret) = secret_access_key {
                    b = b.with_secret_access_key(secret);
                }
                let store = Arc::new(b.build()?);
                s3 = Some(store.clone());
                store
            }
        };
        Ok(Self { inner, s3 })
    }

    /// Writes a whole object; readers see either the old object or the new one, never a
    /// part (local files are written aside and renamed, S3 puts are atomic).
    pub async fn put(&self, key: &ObjectKey, data: Bytes) -> Result<()> {
        self.inner.put(&key.0, PutPayload::from_bytes(data)).await?;
        Ok(())
    }

    pub async fn get(&self, key: &ObjectKey) -> Result<Bytes> {
        Ok(self.inner.get(&key.0).await?.bytes().await?)
    }

    /// The size of an object and its ETag (when the store gives one), without reading it.
    pub async fn head(&self, key: &ObjectKey) -> Result<(u64, Option<String>)> {
        let meta = self.inner.head(&key.0).await?;
        Ok((meta.size, meta.e_tag))
    }

    /// Reads a whole object as a stream of chunks, for files too large to hold in memory:
    /// its size, its ETag (when the store gives one) and the bytes as they arrive, a local
    /// file 64 KiB at a time.
    pub async fn get_stream(
        &self,
        key: &ObjectKey,
    ) -> Result<(
        u64,
        Option<String>,
        futures::stream::BoxStream<'static, Result<Bytes>>,
    )> {
        self.get_parts(key, 64 * 1024).await
    }

    /// Reads a whole object in parts of about `part` bytes: its size, its ETag (when the
    /// store gives one) and the parts. A local file is read `part` bytes per blocking call
    /// (the store's own stream makes one call per 8 KiB, too many for a file of hundreds of
    /// megabytes); S3 answers in its own chunks.
    pub async fn get_parts(
        &self,
        key: &ObjectKey,
        part: usize,
    ) -> Result<(
        u64,
        Option<String>,
        futures::stream::BoxStream<'static, Result<Bytes>>,
    )> {
        use futures::StreamExt;
        let got = self.inner.get(&key.0).await?;
        let (size, etag) = (got.meta.size, got.meta.e_tag.clone());
        let stream = match got.payload {
            object_store::GetResultPayload::File(file, path) => {
                futures::stream::try_unfold(file, move |mut file| {
                    let path = path.clone();
                    async move {
                        let read = tokio::task::spawn_blocking(move || {
                            use std::io::Read;
                            let mut chunk = Vec::with_capacity(part);
                            (&mut file).take(part as u64).read_to_end(&mut chunk)?;
                            Ok::<_, std::io::Error>((file, chunk))
                        })
                        .await;
                        let failed = |e: String| object_store::Error::Generic {
                            store: "LocalFileSystem",
                            source: format!("reading {}: {e}", path.display()).into(),
                        };
                        let (file, chunk) = read
                            .map_err(|e| failed(e.to_string()))?
                            .map_err(|e| failed(e.to_string()))?;
                        Ok::<_, StoreError>((!chunk.is_empty()).then(|| (Bytes::from(chunk), file)))
                    }
                })
                .boxed()
            }
            payload => object_store::GetResult { payload, ..got }
                .into_stream()
                .map(|c| c.map_err(StoreError::from))
                .boxed(),
        };
        Ok((size, etag, stream))
    }

    /// Writes an object part by part (a multipart upload; a local file is written aside and
    /// renamed): readers see no object, or the old one, until [`ObjectWriter::finish`].
    pub async fn writer(&self, key: &ObjectKey) -> Result<ObjectWriter> {
        let upload = self.inner.put_multipart(&key.0).await?;
        Ok(ObjectWriter(
            object_store::WriteMultipart::new_with_chunk_size(upload, WRITER_PART),
        ))
    }

    /// Reads bytes `range` of an object (which must lie within it) as a stream of chunks.
    /// With `if_match` (an ETag from [`Objects::head`]) the read fails rather than mix in
    /// bytes of an object written since.
    pub async fn get_range_stream(
        &self,
        key: &ObjectKey,
        range: std::ops::Range<u64>,
        if_match: Option<&str>,
    ) -> Result<futures::stream::BoxStream<'static, Result<Bytes>>> {
        use futures::StreamExt;
        let options = object_store::GetOptions {
            range: Some(object_store::GetRange::Bounded(range)),
            if_match: if_match.map(str::to_owned),
            ..Default::default()
        };
        let got = self.inner.get_opts(&key.0, options).await?;
        Ok(got
            .into_stream()
            .map(|c| c.map_err(StoreError::from))
            .boxed())
    }

    pub async fn exists(&self, key: &ObjectKey) -> Result<bool> {
        match self.inner.head(&key.0).await {
            Ok(_) => Ok(true),
            Err(object_store::Error::NotFound { .. }) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// Removes an object; removing one that is not there is not an error.
    pub async fn delete(&self, key: &ObjectKey) -> Result<()> {
        match self.inner.delete(&key.0).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(e.into()),
        }
    }

    /// Keys under a folder, e.g. `_shop/selfies` (for checks and clean-up jobs).
    pub async fn list(&self, prefix: &str) -> Result<Vec<String>> {
        use futures::TryStreamExt;
        let prefix = Path::from(prefix);
        let metas: Vec<_> = self.inner.list(Some(&prefix)).try_collect().await?;
        Ok(metas.into_iter().map(|m| m.location.to_string()).collect())
    }

    /// Keys under a folder with when each was last written (to sweep files no row names).
    pub async fn list_with_times(&self, prefix: &str) -> Result<Vec<(String, DateTime<Utc>)>> {
        use futures::TryStreamExt;
        let prefix = Path::from(prefix);
        let metas: Vec<_> = self.inner.list(Some(&prefix)).try_collect().await?;
        Ok(metas
            .into_iter()
            .map(|m| (m.location.to_string(), m.last_modified))
            .collect())
    }

    /// Deletes the event's files of `kind` whose names start with `prefix` (every one with
    /// `""`); answers how many. Names the shop does not write are left alone.
    pub async fn delete_all(
        &self,
        event: &EventKey,
        kind: ObjectKind,
        prefix: &str,
    ) -> Result<usize> {
        let folder = format!("{event}/{}/", kind.as_str());
        let mut deleted = 0;
        for path in self.list(&folder).await? {
            let Some(name) = path.strip_prefix(&folder) else {
                continue;
            };
            if !name.starts_with(prefix) {
                continue;
            }
            let Some(name) = StoredName::parse(name) else {
                continue;
            };
            self.delete(&ObjectKey::new(event, kind, &name)).await?;
            deleted += 1;
        }
        Ok(deleted)
    }

    /// Proves the store answers: a missing object is a fine answer.
    pub async fn ping(&self) -> Result<()> {
        match self.inner.head(&Path::from("_shop/readiness-probe")).await {
            Ok(_) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(e.into()),
        }
    }

    /// A presigned address to PUT `key` directly, when the storage offers them (S3);
    /// `None` for a local directory, where uploads go through the server.
    pub async fn presign_put(
        &self,
        key: &ObjectKey,
        ttl: std::time::Duration,
    ) -> Result<Option<String>> {
        use object_store::signer::Signer;
        match &self.s3 {
            Some(s3) => Ok(Some(
                s3.signed_url(http::Method::PUT, &key.0, ttl)
                    .await?
                    .to_string(),
            )),
            None => Ok(None),
        }
    }

    /// The underlying store, for streaming reads and presigned URLs.
    pub fn raw(&self) -> &Arc<dyn ObjectStore> {
        &self.inner
    }
}

/// Bytes sent per part of a multipart upload (S3 wants at least 5 MiB but the last).
const WRITER_PART: usize = 8 * 1024 * 1024;

/// An object being written part by part ([`Objects::writer`]).
pub struct ObjectWriter(object_store::WriteMultipart);

impl ObjectWriter {
    /// Adds bytes, waiting while two parts are still on their way.
    pub async fn write(&mut self, bytes: &[u8]) -> Result<()> {
        self.0.wait_for_capacity(2).await?;
        self.0.write(bytes);
        Ok(())
    }

    /// Completes the object.
    pub async fn finish(self) -> Result<()> {
        self.0.finish().await?;
        Ok(())
    }

    /// Gives the object up: nothing of it stays.
    pub async fn abort(self) -> Result<()> {
        self.0.abort().await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_laid_out_per_event() {
        let key = EventKey::parse("demo").ok();
        let name = StoredName::parse("ab12.jpg");
        let got = key
            .zip(name)
            .map(|(k, n)| ObjectKey::new(&k, ObjectKind::Thumbnail, &n));
        assert_eq!(
            got.as_ref().map(ObjectKey::as_str),
            Some("demo/thumbnail/ab12.jpg")
        );
    }

    #[test]
    fn stored_names_cannot_traverse() {
        for bad in ["", "../x", "a/b", ".hidden", "a..b", "a b", "x\\y", "ก.jpg"] {
            assert_eq!(StoredName::parse(bad), None, "{bad}");
        }
        assert!(StoredName::parse("IMG_0001.JPG").is_some());
    }
}
