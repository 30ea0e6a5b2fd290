//! Delivering bought files from object storage, streamed so that memory stays bounded
//! whatever the number and size of the files: one file at a time ([`object_response`],
//! with HTTP byte ranges so that interrupted downloads resume), or many at once as a ZIP
//! archive written while it downloads ([`zip_body`]).
//!
//! # The ZIP archive
//!
//! Entries are STORED (the photos are JPEGs; compressing them again gains nothing) and
//! written with async_zip's stream writer: each local header is followed by the data as it
//! is read from storage and a data descriptor carrying the CRC-32 and sizes computed on the
//! way. Between the writer task and the HTTP body sits a bounded pipe
//! ([`PIPE_CAPACITY`]), so the writer waits for the client and holds at most one storage
//! chunk and one pipe's worth of the archive; what grows with the number of entries is
//! only the central directory (about a hundred bytes per entry).
//!
//! Before writing, the sizes of all the files are asked of storage (a few requests at a
//! time) and the archive format is chosen from them:
//!
//! - **Classic ZIP** when the whole archive ends below 4 GiB (less 1 MiB of slack) and has
//!   at most 65,534 entries: 16-byte data descriptors with the real sizes and no ZIP64
//!   record at all. Readers of the central directory handle it, and so does libarchive
//!   reading it as a stream (`bsdtar -xf - < order.zip`); Java's `ZipInputStream` refuses
//!   any STORED entry with a data descriptor, whatever the format.
//! - **ZIP64** otherwise. async_zip 0.0.19 then writes, for every streamed entry: a local
//!   header whose sizes are `0xFFFFFFFF` with a ZIP64 extra field holding zeros; a data
//!   descriptor of the *4-byte* form whose two sizes are `0xFFFFFFFF` (APPNOTE 4.3.9.2
//!   would have the 8-byte form once a local header carries ZIP64); a central-directory
//!   record whose sizes and offset are `0xFFFFFFFF` with a ZIP64 extra field holding the
//!   real 64-bit uncompressed size, compressed size and local-header offset; and at the
//!   end a ZIP64 end-of-central-directory record and locator before the classic record
//!   (whose counts, size and offset are clamped to their `0xFFFF`/`0xFFFFFFFF` markers).
//!   "Version needed to extract" stays 1.0 instead of 4.5. Readers that work from the
//!   central directory extract such archives (checked on small ones: Info-ZIP `unzip`
//!   6.0, Python's `zipfile`, Java's `ZipFile`, 7-Zip 16.02, libarchive; past 4 GiB and
//!   past 65,535 entries: `unzip -t` and async_zip's reader, in the ignored tests below);
//!   readers of a stream that trust the data descriptors do not (libarchive from a pipe
//!   reports "Overflow of 64-bit file sizes").
//!
//! A file that cannot be read (missing, storage failure, fewer bytes than announced) ends
//! the body with an error, so the client sees a failed download instead of an archive
//! that looks complete; the cause is logged.

use std::io;
use std::ops::Range;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};

use anyhow::Context as _;
use async_zip::base::write::ZipFileWriter;
use async_zip::{Compression, ZipDateTime, ZipDateTimeBuilder, ZipEntryBuilder};
use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;
use bytes::Bytes;
use chrono::{Datelike, Timelike};
use futures::{Stream, StreamExt, TryStreamExt};
use raceshot_store::{ObjectKey, Objects};
use tokio::io::{AsyncWrite, DuplexStream};
use tokio::sync::oneshot;
use tokio_util::io::ReaderStream;

use crate::error::{ErrorCode, OrMissing, ShopError};

/// How much of the archive may wait between the writer and the client.
pub const PIPE_CAPACITY: usize = 64 * 1024;

/// How many file sizes are asked of storage at once before an archive starts.
const HEAD_CONCURRENCY: usize = 16;

/// The last offset a classic (non-ZIP64) archive may reach. The slack covers files whose
/// size changes between the size check and the read; past it the writer refuses, and the
/// download fails instead of producing a broken archive.
const CLASSIC_MAX_END: u64 = u32::MAX as u64 - (1 << 20);

/// Entry counts from this one up need ZIP64 (`0xFFFF` is the "see ZIP64" marker).
const CLASSIC_MAX_ENTRIES: usize = 0xFFFF;

/// One file of an archive: where it is stored and the name it gets inside the archive.
#[derive(Debug, Clone)]
pub struct ZipEntry {
    pub key: ObjectKey,
    pub name: String,
}

/// A ZIP archive of `entries`, written while the body is read.
///
/// Names are made safe to extract (no folders, no characters Windows refuses) and unique
/// (ignoring case, as Windows and macOS do): a repeated name gets `-2`, `-3`… before its
/// extension. The body ends with an error if any file cannot be read.
pub fn zip_body(objects: Objects, entries: Vec<ZipEntry>) -> Body {
    let (stream, _written) = zip_stream(objects, entries, ZipOptions::default());
    Body::from_stream(stream)
}

#[derive(Debug, Clone, Copy)]
struct ZipOptions {
    pipe_capacity: usize,
    /// Writes ZIP64 even when a classic archive would do (to test what readers make of it).
    force_zip64: bool,
}

impl Default for ZipOptions {
    fn default() -> Self {
        Self {
            pipe_capacity: PIPE_CAPACITY,
            force_zip64: false,
        }
    }
}

/// The archive's bytes, and a counter of the bytes the writer has handed to the pipe.
fn zip_stream(
    objects: Objects,
    entries: Vec<ZipEntry>,
    options: ZipOptions,
) -> (
    impl Stream<Item = io::Result<Bytes>> + Send + 'static,
    Arc<AtomicU64>,
) {
    let (reader, writer) = tokio::io::duplex(options.pipe_capacity);
    let written = Arc::new(AtomicU64::new(0));
    let pipe = CountingWriter {
        inner: writer,
        written: written.clone(),
    };
    let (done_tx, done_rx) = oneshot::channel::<Result<(), String>>();
    let count = entries.len();
    let task = tokio::spawn(async move {
        let outcome = write_zip(&objects, entries, pipe, options.force_zip64).await;
        match &outcome {
            Ok(summary) => tracing::info!(
                entries = count,
                bytes = summary.bytes,
                zip64 = summary.zip64,
                "zip archive delivered"
            ),
            // Nobody reads the body any more: the client went away.
            Err(error) if done_tx.is_closed() => {
                tracing::debug!(error = format!("{error:#}"), "zip download abandoned")
            }
            Err(error) => {
                tracing::error!(entries = count, error = ?error, "zip download failed")
            }
        }
        let _ = done_tx.send(outcome.map(|_| ()).map_err(|e| format!("{e:#}")));
    });
    let abort = AbortOnDrop(task.abort_handle());

    // The pipe ends when the writer finishes or fails; only its outcome tells which.
    let tail = futures::stream::once(async move {
        let _abort = abort;
        match done_rx.await {
            Ok(Ok(())) => None,
            Ok(Err(message)) => Some(Err(io::Error::other(format!(
                "zip archive incomplete: {message}"
            )))),
            Err(_) => Some(Err(io::Error::other("zip archive writer stopped"))),
        }
    })
    .filter_map(futures::future::ready);
    let stream = ReaderStream::with_capacity(reader, options.pipe_capacity).chain(tail);
    (stream, written)
}

struct ZipSummary {
    bytes: u64,
    zip64: bool,
}

async fn write_zip(
    objects: &Objects,
    entries: Vec<ZipEntry>,
    pipe: CountingWriter<DuplexStream>,
    force_zip64: bool,
) -> anyhow::Result<ZipSummary> {
    let names = unique_names(entries.iter().map(|e| e.name.as_str()));
    let keys: Vec<ObjectKey> = entries.iter().map(|e| e.key.clone()).collect();
    let heads = keys.into_iter().map(|key| {
        let objects = objects.clone();
        async move {
            let (size, _) = objects
                .head(&key)
                .await
                .with_context(|| format!("cannot read {}", key.as_str()))?;
            anyhow::Ok(size)
        }
    });
    let sizes: Vec<u64> = futures::stream::iter(heads)
        .buffered(HEAD_CONCURRENCY)
        .try_collect()
        .await?;
    let zip64 = force_zip64 || needs_zip64(&names, &sizes);

    let written = pipe.written.clone();
    let mut zip = ZipFileWriter::with_tokio(pipe);
    if !zip64 {
        zip = zip.force_no_zip64();
    }
    let modified = zip_now();
    for (entry, name) in entries.iter().zip(names) {
        let key = entry.key.as_str();
        let (size, _, mut data) = objects
            .get_stream(&entry.key)
            .await
            .with_context(|| format!("cannot read {key}"))?;
        let options = ZipEntryBuilder::new(name.into(), Compression::Stored)
            .last_modification_date(modified)
            .unix_permissions(0o100644);
        let mut file = zip.write_entry_stream(options).await?;
        let mut copied = 0u64;
        while let Some(chunk) = data.next().await {
            let chunk = chunk.with_context(|| format!("cannot read {key}"))?;
            copied += chunk.len() as u64;
            futures::AsyncWriteExt::write_all(&mut file, &chunk).await?;
        }
        anyhow::ensure!(
            copied == size,
            "{key} ended after {copied} of its {size} bytes"
        );
        file.close().await?;
    }
    let pipe = zip.close().await?.into_inner();
    drop(pipe);
    Ok(ZipSummary {
        bytes: written.load(Ordering::Relaxed),
        zip64,
    })
}

/// Whether the archive of these entries would pass a classic ZIP's limits: its layout is
/// the local header (30 bytes + name), the data and the data descriptor (16 bytes) of
/// each entry, then the central directory (46 bytes + name each) and its 22-byte end.
fn needs_zip64(names: &[String], sizes: &[u64]) -> bool {
    if names.len() >= CLASSIC_MAX_ENTRIES {
        return true;
    }
    let end = names.iter().zip(sizes).fold(22u64, |end, (name, size)| {
        end.saturating_add(30 + 16 + 46 + 2 * name.len() as u64)
            .saturating_add(*size)
    });
    end > CLASSIC_MAX_END
}

/// The current Bangkok time, as ZIP's DOS timestamps are local times.
fn zip_now() -> ZipDateTime {
    let now = chrono::Utc::now().with_timezone(&raceshot_domain::time::bangkok());
    ZipDateTimeBuilder::new()
        .year(now.year())
        .month(now.month())
        .day(now.day())
        .hour(now.hour())
        .minute(now.minute())
        .second(now.second())
        .build()
}

/// Names safe to extract and unique ignoring case: a name keeps its place the first time
/// it appears; repeats get `-2`, `-3`… before the extension, skipping names given to
/// other entries.
fn unique_names<'a>(names: impl Iterator<Item = &'a str>) -> Vec<String> {
    use std::collections::{HashMap, HashSet};
    let names: Vec<String> = names.map(safe_name).collect();
    let given: HashSet<String> = names.iter().map(|n| n.to_lowercase()).collect();
    let mut used = HashSet::new();
    // Per repeated name, the number to try next: many repeats stay linear.
    let mut next: HashMap<String, u64> = HashMap::new();
    names
        .into_iter()
        .map(|name| {
            let folded = name.to_lowercase();
            if used.insert(folded.clone()) {
                return name;
            }
            let (stem, ext) = match name.rfind('.') {
                Some(dot) if dot > 0 => name.split_at(dot),
                _ => (name.as_str(), ""),
            };
            let n = next.entry(folded).or_insert(2);
            loop {
                let candidate = format!("{stem}-{n}{ext}");
                *n += 1;
                let candidate_folded = candidate.to_lowercase();
                if !given.contains(&candidate_folded) && used.insert(candidate_folded) {
                    return candidate;
                }
            }
        })
        .collect()
}

/// One file name without folders, control characters or characters Windows refuses.
fn safe_name(raw: &str) -> String {
    let name: String = raw
        .chars()
        .map(|c| {
            if c.is_control() || matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|') {
                '_'
            } else {
                c
            }
        })
        .collect();
    let name = name.trim();
    if name.is_empty() || name.chars().all(|c| c == '.') {
        "file".to_owned()
    } else {
        name.to_owned()
    }
}

/// Counts the bytes the inner writer accepted.
struct CountingWriter<W> {
    inner: W,
    written: Arc<AtomicU64>,
}

impl<W: AsyncWrite + Unpin> AsyncWrite for CountingWriter<W> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write(cx, buf);
        if let Poll::Ready(Ok(n)) = &poll {
            self.written.fetch_add(*n as u64, Ordering::Relaxed);
        }
        poll
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// Stops the archive writer when the body is dropped (the client went away).
struct AbortOnDrop(tokio::task::AbortHandle);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// One stored file, streamed: `200` with the whole file, or `206` with the one byte range
/// asked for (`Range: bytes=a-b`, `a-` or `-n`, honoured only if an `If-Range` matches the
/// ETag), or `416` with `Content-Range: bytes */size` when that range lies past the end.
/// Several ranges or a malformed `Range` get the whole file. Answers carry `Content-Length`,
/// `Accept-Ranges: bytes`, an opaque `ETag` when the store gives one ([`opaque_etag`]:
/// keyed with `etag_key`, it changes with the file but tells nothing of how it is stored),
/// and with `download_name` a `Content-Disposition: attachment` with an ASCII `filename`
/// and the exact UTF-8 name as `filename*` (RFC 6266, RFC 5987).
///
/// A missing object answers `not_found`; a read that fails once the answer has started
/// ends the body with an error (the client sees a failed download) and is logged.
pub async fn object_response(
    objects: &Objects,
    key: &ObjectKey,
    request_headers: &HeaderMap,
    content_type: &'static str,
    download_name: Option<&str>,
    etag_key: &[u8],
) -> Result<Response, ShopError> {
    let disposition = download_name.map(content_disposition).transpose()?;
    // What answers carry and `If-Range` is compared with; the store's own tag is only
    // used to ask the store for the very same file.
    let shown = |stored: Option<&str>| stored.map(|tag| opaque_etag(etag_key, key, tag));
    let answer = |status: StatusCode, etag: Option<&str>| {
        let mut builder = Response::builder()
            .status(status)
            .header(header::ACCEPT_RANGES, "bytes");
        if let Some(etag) = etag.and_then(http_etag) {
            builder = builder.header(header::ETAG, etag);
        }
        builder
    };
    let finish = |builder: axum::http::response::Builder, length: u64, body: Body| {
        let mut builder = builder
            .header(header::CONTENT_TYPE, content_type)
            .header(header::CONTENT_LENGTH, length);
        if let Some(disposition) = &disposition {
            builder = builder.header(header::CONTENT_DISPOSITION, disposition.clone());
        }
        builder.body(body).map_err(ShopError::internal)
    };

    let Some(wanted) = requested_range(request_headers) else {
        let (size, etag, data) = objects.get_stream(key).await.or_missing(no_such_file)?;
        let body = stream_body(data, key);
        return finish(
            answer(StatusCode::OK, shown(etag.as_deref()).as_deref()),
            size,
            body,
        );
    };

    let (size, etag) = objects.head(key).await.or_missing(no_such_file)?;
    let ours = shown(etag.as_deref());
    if !if_range_matches(request_headers, ours.as_deref()) {
        let (size, etag, data) = objects.get_stream(key).await.or_missing(no_such_file)?;
        let body = stream_body(data, key);
        return finish(
            answer(StatusCode::OK, shown(etag.as_deref()).as_deref()),
            size,
            body,
        );
    }
    let Some(range) = wanted.resolve(size) else {
        return answer(StatusCode::RANGE_NOT_SATISFIABLE, ours.as_deref())
            .header(header::CONTENT_RANGE, format!("bytes */{size}"))
            .header(header::CONTENT_LENGTH, 0)
            .body(Body::empty())
            .map_err(ShopError::internal);
    };
    let data = objects
        .get_range_stream(key, range.clone(), etag.as_deref())
        .await
        .or_missing(no_such_file)?;
    let content_range = format!("bytes {}-{}/{size}", range.start, range.end - 1);
    let builder = answer(StatusCode::PARTIAL_CONTENT, ours.as_deref())
        .header(header::CONTENT_RANGE, content_range);
    finish(builder, range.end - range.start, stream_body(data, key))
}

fn no_such_file() -> ShopError {
    ShopError::new(ErrorCode::NotFound, "no such file")
}

fn stream_body(
    data: futures::stream::BoxStream<'static, raceshot_store::Result<Bytes>>,
    key: &ObjectKey,
) -> Body {
    let key = key.as_str().to_owned();
    Body::from_stream(data.inspect_err(move |error| {
        tracing::error!(key = %key, error = ?error, "file download failed mid-way");
    }))
}

/// The one byte range a request asks for, before the file's size is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ByteRange {
    /// `bytes=a-b`
    FromTo(u64, u64),
    /// `bytes=a-`
    From(u64),
    /// `bytes=-n`: the last `n` bytes.
    Last(u64),
}

impl ByteRange {
    /// The bytes of a file of `size` bytes this range covers; `None` when it covers none.
    fn resolve(self, size: u64) -> Option<Range<u64>> {
        match self {
            ByteRange::FromTo(first, last) => {
                (first < size).then(|| first..last.saturating_add(1).min(size))
            }
            ByteRange::From(first) => (first < size).then_some(first..size),
            ByteRange::Last(n) => (n > 0 && size > 0).then(|| size - n.min(size)..size),
        }
    }
}

/// A single well-formed `Range: bytes=…` header; anything else (absent, several headers or
/// ranges, another unit, bad syntax) is `None` and gets the whole file.
fn requested_range(headers: &HeaderMap) -> Option<ByteRange> {
    let mut values = headers.get_all(header::RANGE).iter();
    let value = values.next()?;
    if values.next().is_some() {
        return None;
    }
    let (unit, spec) = value.to_str().ok()?.trim().split_once('=')?;
    if !unit.trim().eq_ignore_ascii_case("bytes") || spec.contains(',') {
        return None;
    }
    let (first, last) = spec.trim().split_once('-')?;
    let (first, last) = (first.trim(), last.trim());
    match (first.is_empty(), last.is_empty()) {
        (true, true) => None,
        (true, false) => Some(ByteRange::Last(position(last)?)),
        (false, true) => Some(ByteRange::From(position(first)?)),
        (false, false) => {
            let (first, last) = (position(first)?, position(last)?);
            (first <= last).then_some(ByteRange::FromTo(first, last))
        }
    }
}

/// Digits only; a number too large for `u64` is as good as infinite.
fn position(digits: &str) -> Option<u64> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(digits.parse().unwrap_or(u64::MAX))
}

/// `If-Range` allows the range only for the very same file: a strong ETag equal to ours.
/// Dates never match, as these answers carry no `Last-Modified`.
fn if_range_matches(headers: &HeaderMap, etag: Option<&str>) -> bool {
    let Some(condition) = headers.get(header::IF_RANGE) else {
        return true;
    };
    let ours = etag.and_then(http_etag);
    match (condition.to_str(), ours) {
        (Ok(condition), Some(ours)) => {
            !condition.starts_with("W/") && ours.to_str().is_ok_and(|o| o == condition.trim())
        }
        _ => false,
    }
}

/// The entity tag answers carry for a stored file: a keyed hash of the object's key and
/// the store's own tag. The store's tag changes whenever the file does, and so does this;
/// but a local file's tag is its inode, modification time and size (S3's may be an MD5 of
/// the content), which are not the visitor's business.
pub fn opaque_etag(etag_key: &[u8], key: &ObjectKey, stored: &str) -> String {
    let tag = crate::infra::signing::sign(etag_key, "etag", &[key.as_str(), stored]);
    format!("\"{}\"", tag.get(..32).unwrap_or(&tag))
}

/// An entity tag as an HTTP header value: quoted, visible ASCII.
fn http_etag(raw: &str) -> Option<HeaderValue> {
    let (weak, tag) = match raw.strip_prefix("W/") {
        Some(rest) => ("W/", rest),
        None => ("", raw),
    };
    let inner = tag
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(tag);
    let ok = !inner.is_empty() && inner.bytes().all(|b| b.is_ascii_graphic() && b != b'"');
    ok.then(|| HeaderValue::from_str(&format!("{weak}\"{inner}\"")).ok())
        .flatten()
}

/// `attachment; filename="ascii"; filename*=UTF-8''percent-encoded`.
fn content_disposition(name: &str) -> Result<HeaderValue, ShopError> {
    let name = safe_name(name);
    let mut fallback = String::with_capacity(name.len());
    for c in name.chars() {
        let keep = (c.is_ascii_graphic() || c == ' ') && !matches!(c, '"' | '\\' | '%');
        if keep {
            fallback.push(c);
        } else if !fallback.ends_with('_') {
            fallback.push('_');
        }
    }
    let mut encoded = String::with_capacity(name.len() * 3);
    for b in name.bytes() {
        // RFC 5987 attr-char; everything else is percent-encoded.
        if b.is_ascii_alphanumeric() || b"!#$&+-.^_`|~".contains(&b) {
            encoded.push(char::from(b));
        } else {
            encoded.push_str(&format!("%{b:02X}"));
        }
    }
    HeaderValue::from_str(&format!(
        "attachment; filename=\"{fallback}\"; filename*=UTF-8''{encoded}"
    ))
    .map_err(ShopError::internal)
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    use http_body_util::BodyExt;
    use raceshot_domain::EventKey;
    use raceshot_store::{ObjectKind, StorageSettings, StoredName};

    fn key(name: &str) -> ObjectKey {
        ObjectKey::new(
            &EventKey::parse("demo").unwrap(),
            ObjectKind::Original,
            &StoredName::parse(name).unwrap(),
        )
    }

    fn store() -> (tempfile::TempDir, Objects) {
        let dir = tempfile::tempdir().unwrap();
        let objects = Objects::open(&StorageSettings::Local {
            root: dir.path().to_path_buf(),
        })
        .unwrap();
        (dir, objects)
    }

    /// Bytes that differ from file to file and position to position.
    fn content(seed: u8, len: usize) -> Bytes {
        (0..len)
            .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
            .collect::<Vec<u8>>()
            .into()
    }

    async fn put_files(objects: &Objects, files: &[(&str, Bytes)]) -> Vec<ZipEntry> {
        let mut entries = Vec::new();
        for (name, data) in files {
            objects.put(&key(name), data.clone()).await.unwrap();
            entries.push(ZipEntry {
                key: key(name),
                name: format!("12_{name}"),
            });
        }
        entries
    }

    async fn collect(body: Body) -> Result<Vec<u8>, axum::Error> {
        Ok(body.collect().await?.to_bytes().to_vec())
    }

    /// Every entry of an archive: name, data (CRC-checked), compression.
    #[allow(deprecated)]
    async fn read_zip(bytes: Vec<u8>) -> Vec<(String, Vec<u8>, Compression)> {
        use async_zip::base::read::seek::ZipFileReader;
        let mut reader = ZipFileReader::new(futures::io::Cursor::new(bytes))
            .await
            .unwrap();
        let mut out = Vec::new();
        for i in 0..reader.file().entries().len() {
            let mut entry = reader.reader_with_entry(i).await.unwrap();
            let name = entry.entry().filename().as_str().unwrap().to_owned();
            let compression = entry.entry().compression();
            let mut data = Vec::new();
            entry.read_to_end_checked(&mut data).await.unwrap();
            out.push((name, data, compression));
        }
        out
    }

    /// `unzip -t` on the archive, when the system has `unzip`.
    fn system_unzip_test(bytes: &[u8]) {
        if std::process::Command::new("unzip")
            .arg("-v")
            .output()
            .is_err()
        {
            eprintln!("unzip is not installed: skipping its check");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("order.zip");
        std::fs::write(&path, bytes).unwrap();
        let out = std::process::Command::new("unzip")
            .arg("-t")
            .arg(&path)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "unzip -t failed: {text}");
        assert!(text.contains("No errors detected"), "{text}");
    }

    fn three_files() -> Vec<(&'static str, Bytes)> {
        vec![
            ("IMG_0001.jpg", content(1, 100_000)),
            ("IMG_0002.jpg", content(2, 1)),
            ("IMG_0003.jpg", content(3, 300_123)),
        ]
    }

    #[tokio::test]
    async fn zips_files_stored_with_valid_crcs() {
        let (_dir, objects) = store();
        let files = three_files();
        let entries = put_files(&objects, &files).await;
        let bytes = collect(zip_body(objects, entries)).await.unwrap();

        let read = read_zip(bytes.clone()).await;
        assert_eq!(read.len(), 3);
        for ((name, data), (got_name, got_data, compression)) in files.iter().zip(&read) {
            assert_eq!(got_name, &format!("12_{name}"));
            assert_eq!(got_data.as_slice(), &data[..]);
            assert_eq!(*compression, Compression::Stored);
        }
        // A classic archive: no ZIP64 end-of-central-directory record.
        assert!(!bytes.windows(4).any(|w| w == b"PK\x06\x06"));
        system_unzip_test(&bytes);
    }

    #[tokio::test]
    async fn zip64_archives_read_back() {
        let (_dir, objects) = store();
        let files = three_files();
        let entries = put_files(&objects, &files).await;
        let options = ZipOptions {
            force_zip64: true,
            ..ZipOptions::default()
        };
        let (stream, _) = zip_stream(objects, entries, options);
        let bytes = collect(Body::from_stream(stream)).await.unwrap();
        assert!(bytes.windows(4).any(|w| w == b"PK\x06\x06"));
        let read = read_zip(bytes.clone()).await;
        let names: Vec<_> = read.iter().map(|(n, _, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["12_IMG_0001.jpg", "12_IMG_0002.jpg", "12_IMG_0003.jpg"]
        );
        assert_eq!(read[2].1.as_slice(), &files[2].1[..]);
        system_unzip_test(&bytes);
    }

    #[tokio::test]
    async fn an_empty_order_is_an_empty_archive() {
        let (_dir, objects) = store();
        let bytes = collect(zip_body(objects, Vec::new())).await.unwrap();
        assert!(read_zip(bytes).await.is_empty());
    }

    #[test]
    fn names_are_made_unique_before_the_extension() {
        let names = unique_names(
            [
                "12_IMG_0001.jpg",
                "12_IMG_0001.jpg",
                "12_img_0001.JPG",
                "12_IMG_0001-2.jpg",
                "README",
                "README",
                "../etc/passwd",
                "..",
                "a:b?.jpg",
            ]
            .into_iter(),
        );
        assert_eq!(
            names,
            [
                "12_IMG_0001.jpg",
                // `-2` is another entry's own name.
                "12_IMG_0001-3.jpg",
                "12_img_0001-4.JPG",
                "12_IMG_0001-2.jpg",
                "README",
                "README-2",
                ".._etc_passwd",
                "file",
                "a_b_.jpg",
            ]
        );
    }

    #[tokio::test]
    async fn duplicate_names_are_numbered_in_the_archive() {
        let (_dir, objects) = store();
        let files = three_files();
        let mut entries = put_files(&objects, &files).await;
        for entry in &mut entries {
            entry.name = "ภาพ.jpg".to_owned();
        }
        let bytes = collect(zip_body(objects, entries)).await.unwrap();
        let read = read_zip(bytes.clone()).await;
        let names: Vec<_> = read.iter().map(|(n, _, _)| n.as_str()).collect();
        assert_eq!(names, ["ภาพ.jpg", "ภาพ-2.jpg", "ภาพ-3.jpg"]);
        system_unzip_test(&bytes);
    }

    #[tokio::test]
    async fn a_missing_file_fails_the_download() {
        let (_dir, objects) = store();
        let mut entries = put_files(&objects, &three_files()).await;
        entries.insert(
            1,
            ZipEntry {
                key: key("gone.jpg"),
                name: "gone.jpg".to_owned(),
            },
        );
        assert!(collect(zip_body(objects, entries)).await.is_err());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_file_lost_mid_way_fails_the_download() {
        let (_dir, objects) = store();
        let files = [
            ("a.jpg", content(1, 256 * 1024)),
            ("b.jpg", content(2, 256 * 1024)),
            ("c.jpg", content(3, 256 * 1024)),
        ];
        let entries = put_files(&objects, &files).await;
        let options = ZipOptions {
            pipe_capacity: 1024,
            ..ZipOptions::default()
        };
        let (stream, _) = zip_stream(objects.clone(), entries, options);
        let mut stream = Box::pin(stream);
        // The first bytes come once every size is known; the writer is still in `a.jpg`.
        let first = stream.next().await.unwrap().unwrap();
        assert!(first.starts_with(b"PK\x03\x04"));
        objects.delete(&key("c.jpg")).await.unwrap();
        let mut received = first.len();
        let mut failed = false;
        while let Some(chunk) = stream.next().await {
            match chunk {
                Ok(chunk) => received += chunk.len(),
                Err(_) => {
                    failed = true;
                    break;
                }
            }
        }
        assert!(failed, "the body ended without an error");
        assert!(received > 2 * 256 * 1024, "{received}");
    }

    /// Two hundred files of 256 KiB, read slowly: the writer never runs further ahead of
    /// the reader than the pipe holds, and no chunk exceeds it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn memory_stays_bounded() {
        let (_dir, objects) = store();
        let data = content(7, 256 * 1024);
        let mut entries = Vec::new();
        for i in 0..200 {
            let name = format!("p{i:03}.jpg");
            objects.put(&key(&name), data.clone()).await.unwrap();
            entries.push(ZipEntry {
                key: key(&name),
                name,
            });
        }
        let (stream, written) = zip_stream(objects, entries, ZipOptions::default());
        let mut stream = Box::pin(stream);
        let (mut consumed, mut ahead_max, mut chunk_max) = (0u64, 0u64, 0usize);
        let mut chunks = 0u32;
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.unwrap();
            consumed += chunk.len() as u64;
            chunk_max = chunk_max.max(chunk.len());
            chunks += 1;
            if chunks.is_multiple_of(32) {
                // Give the writer time to run ahead as far as it can.
                tokio::time::sleep(std::time::Duration::from_millis(2)).await;
            }
            let ahead = written.load(Ordering::Relaxed).saturating_sub(consumed);
            ahead_max = ahead_max.max(ahead);
        }
        assert!(consumed > 200 * 256 * 1024);
        assert_eq!(written.load(Ordering::Relaxed), consumed);
        assert!(ahead_max <= PIPE_CAPACITY as u64, "{ahead_max}");
        assert!(ahead_max > 0);
        assert!(chunk_max <= PIPE_CAPACITY, "{chunk_max}");
    }

    #[test]
    fn the_format_is_chosen_by_size_and_count() {
        let names = vec!["a.jpg".to_owned(); 2];
        assert!(!needs_zip64(&names, &[1 << 31, (1 << 31) - (2 << 20)]));
        assert!(needs_zip64(&names, &[1 << 31, 1 << 31]));
        assert!(needs_zip64(&["a".to_owned()], &[u64::MAX]));
        let many = vec!["a.jpg".to_owned(); 0xFFFF];
        assert!(needs_zip64(&many, &vec![0; 0xFFFF]));
        assert!(!needs_zip64(&many[1..], &vec![0; 0xFFFE]));
    }

    /// Past 4 GiB: a sparse file of 4 GiB + 1 MiB and a small one. Slow (it streams
    /// 4 GiB and writes the archive to disk): `cargo test -p raceshot-server --lib --
    /// --ignored zip64_past_4_gib`.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[ignore]
    async fn zip64_past_4_gib() {
        use tokio::io::AsyncWriteExt;
        let (dir, objects) = store();
        let big = (4u64 << 30) + (1 << 20);
        let path = dir.path().join("demo/original/big.jpg");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::File::create(&path).unwrap().set_len(big).unwrap();
        let small = content(9, 1000);
        objects.put(&key("small.jpg"), small.clone()).await.unwrap();
        let entries = vec![
            ZipEntry {
                key: key("big.jpg"),
                name: "big.jpg".to_owned(),
            },
            ZipEntry {
                key: key("small.jpg"),
                name: "small.jpg".to_owned(),
            },
        ];
        let out_dir = tempfile::tempdir().unwrap();
        let zip_path = out_dir.path().join("big.zip");
        let mut out = tokio::fs::File::create(&zip_path).await.unwrap();
        let mut stream = Box::pin(zip_body(objects, entries).into_data_stream());
        while let Some(chunk) = stream.next().await {
            out.write_all(&chunk.unwrap()).await.unwrap();
        }
        out.flush().await.unwrap();
        drop(out);

        #[allow(deprecated)]
        {
            use async_zip::base::read::seek::ZipFileReader;
            use tokio_util::compat::TokioAsyncReadCompatExt;
            let file = tokio::fs::File::open(&zip_path).await.unwrap();
            let mut reader = ZipFileReader::new(futures::io::BufReader::new(file.compat()))
                .await
                .unwrap();
            let entries = reader.file().entries();
            assert_eq!(entries[0].uncompressed_size(), big);
            assert_eq!(entries[1].header_offset(), 30 + 7 + 20 + big + 16);
            assert_eq!(entries[1].uncompressed_size(), 1000);
            let mut data = Vec::new();
            let mut small_reader = reader.reader_with_entry(1).await.unwrap();
            small_reader.read_to_end_checked(&mut data).await.unwrap();
            assert_eq!(data, small.to_vec());
        }
        system_unzip_test_path(&zip_path);
    }

    /// Past 65,535 entries: 65,600 one-byte files. Slow (a file each): `cargo test -p
    /// raceshot-server --lib -- --ignored zip64_past_65535_entries`.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[ignore]
    async fn zip64_past_65535_entries() {
        let (dir, objects) = store();
        let count = 65_600;
        let folder = dir.path().join("demo/original");
        std::fs::create_dir_all(&folder).unwrap();
        let mut entries = Vec::with_capacity(count);
        for i in 0..count {
            let name = format!("p{i}.jpg");
            std::fs::write(folder.join(&name), [i as u8]).unwrap();
            let key = key(&name);
            entries.push(ZipEntry {
                key,
                name: "same.jpg".to_owned(),
            });
        }
        let bytes = collect(zip_body(objects, entries)).await.unwrap();
        let read = read_zip(bytes.clone()).await;
        assert_eq!(read.len(), count);
        assert_eq!(read[count - 1].0, format!("same-{count}.jpg"));
        assert_eq!(read[count - 1].1, [(count - 1) as u8]);
        system_unzip_test(&bytes);
    }

    fn system_unzip_test_path(path: &std::path::Path) {
        let Ok(out) = std::process::Command::new("unzip")
            .arg("-t")
            .arg(path)
            .output()
        else {
            eprintln!("unzip is not installed: skipping its check");
            return;
        };
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "unzip -t failed: {text}");
    }

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(name.clone(), HeaderValue::from_str(value).unwrap());
        }
        map
    }

    async fn get(objects: &Objects, name: &str, request: HeaderMap) -> (Response, Vec<u8>) {
        let response = object_response(
            objects,
            &key(name),
            &request,
            "image/jpeg",
            Some("12_IMG 0001.jpg"),
            ETAG_KEY,
        )
        .await
        .unwrap();
        let (parts, body) = response.into_parts();
        let bytes = collect(body).await.unwrap();
        (Response::from_parts(parts, Body::empty()), bytes)
    }

    fn header_of(response: &Response, name: header::HeaderName) -> Option<&str> {
        response.headers().get(name).map(|v| v.to_str().unwrap())
    }

    const ETAG_KEY: &[u8] = b"etag test key";

    #[tokio::test]
    async fn etags_are_opaque_and_follow_the_file() {
        let (_dir, objects) = store();
        objects.put(&key("f.jpg"), content(5, 1000)).await.unwrap();
        let (_, stored) = objects.head(&key("f.jpg")).await.unwrap();
        let stored = stored.unwrap();
        let (whole, _) = get(&objects, "f.jpg", HeaderMap::new()).await;
        let etag = header_of(&whole, header::ETAG).unwrap().to_owned();
        // The local store's tag is `"{inode:x}-{mtime:x}-{size:x}"`: none of it is shown.
        let inner = stored.trim_matches('"');
        assert!(inner.split('-').count() == 3, "{stored}");
        for part in inner.split('-').filter(|p| p.len() >= 4) {
            assert!(!etag.contains(part), "{etag} shows {part} of {stored}");
        }
        assert_eq!(etag.len(), 34, "{etag}");
        let (again, _) = get(&objects, "f.jpg", HeaderMap::new()).await;
        assert_eq!(header_of(&again, header::ETAG), Some(etag.as_str()));
        let same = headers(&[(header::RANGE, "bytes=0-9"), (header::IF_RANGE, &etag)]);
        assert_eq!(
            get(&objects, "f.jpg", same).await.0.status(),
            StatusCode::PARTIAL_CONTENT
        );
        let raw = headers(&[(header::RANGE, "bytes=0-9"), (header::IF_RANGE, &stored)]);
        assert_eq!(get(&objects, "f.jpg", raw).await.0.status(), StatusCode::OK);

        // Another file under the same name: another tag, and the old one no longer
        // allows a range.
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        objects.put(&key("f.jpg"), content(6, 1200)).await.unwrap();
        let (changed, _) = get(&objects, "f.jpg", HeaderMap::new()).await;
        assert_ne!(header_of(&changed, header::ETAG), Some(etag.as_str()));
        let stale = headers(&[(header::RANGE, "bytes=0-9"), (header::IF_RANGE, &etag)]);
        let (full, bytes) = get(&objects, "f.jpg", stale).await;
        assert_eq!(full.status(), StatusCode::OK);
        assert_eq!(bytes.len(), 1200);
    }

    #[tokio::test]
    async fn serves_whole_files_and_single_ranges() {
        let (_dir, objects) = store();
        let data = content(5, 1000);
        objects.put(&key("f.jpg"), data.clone()).await.unwrap();

        let (whole, bytes) = get(&objects, "f.jpg", HeaderMap::new()).await;
        assert_eq!(whole.status(), StatusCode::OK);
        assert_eq!(bytes, data.to_vec());
        assert_eq!(header_of(&whole, header::CONTENT_LENGTH), Some("1000"));
        assert_eq!(header_of(&whole, header::ACCEPT_RANGES), Some("bytes"));
        assert_eq!(header_of(&whole, header::CONTENT_TYPE), Some("image/jpeg"));
        assert_eq!(
            header_of(&whole, header::CONTENT_DISPOSITION),
            Some("attachment; filename=\"12_IMG 0001.jpg\"; filename*=UTF-8''12_IMG%200001.jpg")
        );
        let etag = header_of(&whole, header::ETAG).unwrap().to_owned();
        assert!(etag.starts_with('"') && etag.ends_with('"'), "{etag}");

        let cases: [(&str, Range<usize>); 6] = [
            ("bytes=10-19", 10..20),
            ("bytes=990-", 990..1000),
            ("bytes=-100", 900..1000),
            ("bytes=-5000", 0..1000),
            ("bytes=900-5000", 900..1000),
            ("bytes=999-999", 999..1000),
        ];
        for (range, expected) in cases {
            let (partial, bytes) = get(&objects, "f.jpg", headers(&[(header::RANGE, range)])).await;
            assert_eq!(partial.status(), StatusCode::PARTIAL_CONTENT, "{range}");
            assert_eq!(bytes, data[expected.clone()].to_vec(), "{range}");
            assert_eq!(
                header_of(&partial, header::CONTENT_RANGE),
                Some(format!("bytes {}-{}/1000", expected.start, expected.end - 1).as_str())
            );
            assert_eq!(
                header_of(&partial, header::CONTENT_LENGTH),
                Some(expected.len().to_string().as_str())
            );
            assert_eq!(header_of(&partial, header::ETAG), Some(etag.as_str()));
        }

        for range in ["bytes=1000-", "bytes=5000-6000", "bytes=-0"] {
            let (refused, bytes) = get(&objects, "f.jpg", headers(&[(header::RANGE, range)])).await;
            assert_eq!(
                refused.status(),
                StatusCode::RANGE_NOT_SATISFIABLE,
                "{range}"
            );
            assert_eq!(
                header_of(&refused, header::CONTENT_RANGE),
                Some("bytes */1000")
            );
            assert!(bytes.is_empty());
        }

        for range in [
            "bytes=0-1,5-6",
            "bytes=0-1, 5-6",
            "bytes=5-1",
            "bytes=x-",
            "items=0-1",
            "bytes=-",
            "bytes 0-1",
        ] {
            let (full, bytes) = get(&objects, "f.jpg", headers(&[(header::RANGE, range)])).await;
            assert_eq!(full.status(), StatusCode::OK, "{range}");
            assert_eq!(bytes.len(), 1000, "{range}");
        }
        let two = headers(&[(header::RANGE, "bytes=0-1"), (header::RANGE, "bytes=2-3")]);
        assert_eq!(get(&objects, "f.jpg", two).await.0.status(), StatusCode::OK);

        // If-Range: the range only for the same file.
        let same = headers(&[(header::RANGE, "bytes=0-9"), (header::IF_RANGE, &etag)]);
        assert_eq!(
            get(&objects, "f.jpg", same).await.0.status(),
            StatusCode::PARTIAL_CONTENT
        );
        let other = headers(&[(header::RANGE, "bytes=0-9"), (header::IF_RANGE, "\"old\"")]);
        let (full, bytes) = get(&objects, "f.jpg", other).await;
        assert_eq!(full.status(), StatusCode::OK);
        assert_eq!(bytes.len(), 1000);
    }

    #[tokio::test]
    async fn a_missing_file_is_not_found() {
        let (_dir, objects) = store();
        for request in [HeaderMap::new(), headers(&[(header::RANGE, "bytes=0-1")])] {
            let error = object_response(
                &objects,
                &key("gone.jpg"),
                &request,
                "image/jpeg",
                None,
                ETAG_KEY,
            )
            .await
            .unwrap_err();
            assert_eq!(error.code(), ErrorCode::NotFound);
        }
    }

    #[test]
    fn download_names_have_an_ascii_fallback() {
        let value = content_disposition("ภาพ \"1\"/100%.jpg").unwrap();
        assert_eq!(
            value.to_str().unwrap(),
            "attachment; filename=\"_ _1__100_.jpg\"; \
             filename*=UTF-8''%E0%B8%A0%E0%B8%B2%E0%B8%9E%20_1__100%25.jpg"
        );
    }

    #[test]
    fn ranges_parse_strictly() {
        let parse = |raw: &str| requested_range(&headers(&[(header::RANGE, raw)]));
        assert_eq!(parse("bytes=0-0"), Some(ByteRange::FromTo(0, 0)));
        assert_eq!(parse("Bytes= 5 - "), Some(ByteRange::From(5)));
        assert_eq!(parse("bytes=-7"), Some(ByteRange::Last(7)));
        assert_eq!(
            parse("bytes=99999999999999999999999-"),
            Some(ByteRange::From(u64::MAX))
        );
        assert_eq!(parse("bytes=+1-2"), None);
        assert_eq!(ByteRange::From(u64::MAX).resolve(10), None);
        assert_eq!(ByteRange::FromTo(0, u64::MAX).resolve(10), Some(0..10));
        assert_eq!(ByteRange::Last(1).resolve(0), None);
    }

    /// Over a real connection: `Content-Length` reaches the client, and an archive whose
    /// file disappears is a failed download, not a short one.
    #[tokio::test]
    async fn over_http() {
        use axum::extract::State;
        use axum::routing::get;

        let (_dir, objects) = store();
        objects.put(&key("f.jpg"), content(5, 5000)).await.unwrap();
        async fn one(State(objects): State<Objects>, request: HeaderMap) -> Response {
            match object_response(
                &objects,
                &key("f.jpg"),
                &request,
                "image/jpeg",
                None,
                ETAG_KEY,
            )
            .await
            {
                Ok(r) => r,
                Err(e) => axum::response::IntoResponse::into_response(e),
            }
        }
        async fn zip(State(objects): State<Objects>) -> Body {
            let mut entries = Vec::new();
            for name in ["f.jpg", "gone.jpg"] {
                entries.push(ZipEntry {
                    key: key(name),
                    name: name.to_owned(),
                });
            }
            zip_body(objects, entries)
        }
        let app = axum::Router::new()
            .route("/one", get(one))
            .route("/zip", get(zip))
            .with_state(objects);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let server = tokio::spawn(async move { axum::serve(listener, app).await });

        let client = reqwest::Client::new();
        let one = client
            .get(format!("http://{address}/one"))
            .header("range", "bytes=100-")
            .send()
            .await
            .unwrap();
        assert_eq!(one.status(), 206);
        assert_eq!(one.content_length(), Some(4900));
        assert_eq!(one.bytes().await.unwrap().len(), 4900);

        let zip = client
            .get(format!("http://{address}/zip"))
            .send()
            .await
            .unwrap();
        assert_eq!(zip.status(), 200);
        assert!(zip.bytes().await.is_err());
        server.abort();
    }
}
