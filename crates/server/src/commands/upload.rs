//! `raceshot upload --server URL --event KEY --token T [--watch] PATH...`: the
//! photographer's uploader. It finds the JPEG and PNG files under the paths, asks the shop
//! which of them the event holds already (by SHA-256, `POST /api/uploads/known`), and
//! sends the rest over the resumable-upload protocol (tus 1.0, `/api/uploads`) in parts of
//! [`CHUNK_BYTES`]. A failed request is retried with a growing pause, from wherever the
//! server says the file stands; a file's upload address is kept in a small state file, so
//! a restart resumes a file half sent rather than sending it again. With `--watch` it
//! keeps looking for new files (a camera's tethering or FTP folder) until interrupted,
//! sending each once its size has stopped changing.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use base64::Engine as _;
use indicatif::{ProgressBar, ProgressStyle};
use reqwest::{Method, StatusCode};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::commands::ingest::collect_files;

/// The bytes of one request.
pub const CHUNK_BYTES: usize = 4 * 1024 * 1024;
/// Tries per file before it is given up (each after a pause of 1, 2, 4 … 30 s).
const MAX_TRIES: u32 = 8;
/// How often `--watch` looks for new files.
const WATCH_EVERY: Duration = Duration::from_secs(2);
/// Hashes asked about per call (the server takes up to 1,000).
const KNOWN_BATCH: usize = 500;

/// What the command was asked to do.
#[derive(Debug, Clone)]
pub struct UploadSettings {
    /// The shop's address, e.g. `https://photos.example.com`.
    pub server: String,
    pub event: String,
    pub token: String,
    /// Where the upload addresses of files half sent are kept.
    pub state_file: PathBuf,
    /// The first pause after a failure (tests shorten it).
    pub first_pause: Duration,
    pub progress: bool,
}

/// What a run did.
#[derive(Debug, Default)]
pub struct UploadReport {
    pub sent: Vec<PathBuf>,
    /// Files the event held already.
    pub skipped: usize,
    /// Files that could not be sent: (file, why).
    pub failed: Vec<(PathBuf, String)>,
}

/// A file's upload in progress, by its path, size and modification time: a file changed
/// since is sent anew.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
struct Pending {
    size: u64,
    modified: u64,
    url: String,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct StateFile {
    event: String,
    pending: BTreeMap<String, Pending>,
}

impl StateFile {
    fn load(path: &Path, event: &str) -> StateFile {
        std::fs::read(path)
            .ok()
            .and_then(|b| serde_json::from_slice::<StateFile>(&b).ok())
            .filter(|s| s.event == event)
            .unwrap_or_else(|| StateFile {
                event: event.to_owned(),
                pending: BTreeMap::new(),
            })
    }

    /// Written to a temporary file and renamed, so a crash never leaves half a state file.
    fn save(&self, path: &Path) -> anyhow::Result<()> {
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, serde_json::to_vec_pretty(self)?)
            .with_context(|| format!("writing {}", tmp.display()))?;
        std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))
    }
}

struct Client {
    http: reqwest::Client,
    settings: UploadSettings,
}

/// Why one request failed: worth another try (the network, the server busy or failing),
/// or not (the server refused the file).
enum Failure {
    Again(String),
    Refused(String),
}

impl From<reqwest::Error> for Failure {
    fn from(e: reqwest::Error) -> Self {
        Failure::Again(e.to_string())
    }
}

async fn refusal(resp: reqwest::Response) -> Failure {
    let status = resp.status();
    let body: serde_json::Value = resp.json().await.unwrap_or_default();
    let code = body["code"].as_str().unwrap_or("?");
    let message = body["message"].as_str().unwrap_or_default();
    let text = format!("{status} {code}: {message}");
    if status.is_server_error()
        || status == StatusCode::TOO_MANY_REQUESTS
        || status == StatusCode::REQUEST_TIMEOUT
    {
        Failure::Again(text)
    } else {
        Failure::Refused(text)
    }
}

impl Client {
    fn new(settings: UploadSettings) -> anyhow::Result<Client> {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .timeout(Duration::from_secs(120))
            .build()?;
        Ok(Client { http, settings })
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.settings.server.trim_end_matches('/'))
    }

    fn tus(&self, method: Method, url: &str) -> reqwest::RequestBuilder {
        self.http
            .request(method, url)
            .header("tus-resumable", "1.0.0")
            .bearer_auth(&self.settings.token)
    }

    /// The hashes among `hashes` the event holds already.
    async fn known(&self, hashes: &[String]) -> anyhow::Result<HashSet<String>> {
        let mut known = HashSet::new();
        for batch in hashes.chunks(KNOWN_BATCH) {
            let resp = self
                .http
                .post(self.url("/api/uploads/known"))
                .bearer_auth(&self.settings.token)
                .json(&serde_json::json!({ "event": self.settings.event, "hashes": batch }))
                .send()
                .await?;
            if !resp.status().is_success() {
                let (Failure::Again(why) | Failure::Refused(why)) = refusal(resp).await;
                bail!("the shop refused to list the event's files: {why}");
            }
            let body: serde_json::Value = resp.json().await?;
            for h in body["known"].as_array().into_iter().flatten() {
                if let Some(h) = h.as_str() {
                    known.insert(h.to_owned());
                }
            }
        }
        Ok(known)
    }

    async fn create(&self, name: &str, size: u64) -> Result<String, Failure> {
        let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
        let resp = self
            .tus(Method::POST, &self.url("/api/uploads"))
            .header("upload-length", size.to_string())
            .header(
                "upload-metadata",
                format!("event {},filename {}", b64(&self.settings.event), b64(name)),
            )
            .send()
            .await?;
        if resp.status() != StatusCode::CREATED {
            return Err(refusal(resp).await);
        }
        resp.headers()
            .get("location")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
            .ok_or_else(|| Failure::Refused("no Location in the answer".to_owned()))
    }

    /// Where the server stands on an upload; `None` when it is gone (start again).
    async fn offset(&self, url: &str) -> Result<Option<u64>, Failure> {
        let resp = self.tus(Method::HEAD, url).send().await?;
        match resp.status() {
            StatusCode::OK => Ok(resp
                .headers()
                .get("upload-offset")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse().ok())),
            StatusCode::NOT_FOUND | StatusCode::GONE => Ok(None),
            _ => Err(refusal(resp).await),
        }
    }

    /// Sends `bytes[offset..]` part by part; answers where the upload stands.
    async fn send_from(
        &self,
        url: &str,
        bytes: &[u8],
        mut offset: u64,
        bar: &ProgressBar,
    ) -> Result<u64, Failure> {
        while (offset as usize) < bytes.len() {
            let start = offset as usize;
            let end = (start + CHUNK_BYTES).min(bytes.len());
            let resp = self
                .tus(Method::PATCH, url)
                .header("content-type", "application/offset+octet-stream")
                .header("upload-offset", offset.to_string())
                .body(bytes[start..end].to_vec())
                .send()
                .await?;
            match resp.status() {
                StatusCode::NO_CONTENT => {
                    let now = resp
                        .headers()
                        .get("upload-offset")
                        .and_then(|v| v.to_str().ok())
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(end as u64);
                    bar.inc(now.saturating_sub(offset));
                    offset = now;
                }
                StatusCode::CONFLICT => {
                    return Err(Failure::Again("out of step with the server".to_owned()));
                }
                _ => return Err(refusal(resp).await),
            }
        }
        Ok(offset)
    }
}

/// The seconds since the epoch a file was last changed (0 when unknown).
fn modified(meta: &std::fs::Metadata) -> u64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs())
}

/// Sends one file, resuming what the state file remembers; retries with a growing pause.
async fn send_file(
    client: &Client,
    state: &mut StateFile,
    path: &Path,
    bytes: &[u8],
    bar: &ProgressBar,
) -> Result<(), String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    let (size, changed) = (bytes.len() as u64, modified(&meta));
    let key = path.display().to_string();
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("photo.jpg");
    let mut pause = client.settings.first_pause;
    let mut last = String::new();
    for _ in 0..MAX_TRIES {
        let attempt = async {
            let known = state
                .pending
                .get(&key)
                .filter(|p| p.size == size && p.modified == changed)
                .map(|p| p.url.clone());
            let (url, offset) = match known {
                Some(url) => match client.offset(&url).await? {
                    Some(offset) => (url, offset),
                    None => (client.create(name, size).await?, 0),
                },
                None => (client.create(name, size).await?, 0),
            };
            state.pending.insert(
                key.clone(),
                Pending {
                    size,
                    modified: changed,
                    url: url.clone(),
                },
            );
            state
                .save(&client.settings.state_file)
                .map_err(|e| Failure::Refused(e.to_string()))?;
            bar.inc(offset);
            client.send_from(&url, bytes, offset, bar).await
        };
        match attempt.await {
            Ok(_) => {
                state.pending.remove(&key);
                if let Err(e) = state.save(&client.settings.state_file) {
                    tracing::warn!(error = %e, "the state file was not written");
                }
                return Ok(());
            }
            Err(Failure::Refused(why)) => return Err(why),
            Err(Failure::Again(why)) => {
                bar.println(format!(
                    "{}: {why}; trying again in {pause:?}",
                    path.display()
                ));
                last = why;
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(30));
            }
        }
    }
    Err(format!("gave up after {MAX_TRIES} tries: {last}"))
}

fn hash(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Sends the files the event does not hold yet.
async fn send_all(
    client: &Client,
    files: &[PathBuf],
    report: &mut UploadReport,
) -> anyhow::Result<()> {
    let mut read = Vec::with_capacity(files.len());
    for path in files {
        match std::fs::read(path) {
            Ok(bytes) => read.push((path.clone(), hash(&bytes))),
            Err(e) => report.failed.push((path.clone(), e.to_string())),
        }
    }
    let hashes: Vec<String> = read.iter().map(|(_, h)| h.clone()).collect();
    let known = client.known(&hashes).await?;
    let todo: Vec<&PathBuf> = read
        .iter()
        .filter(|(_, h)| !known.contains(h))
        .map(|(p, _)| p)
        .collect();
    report.skipped += read.len() - todo.len();
    let total: u64 = todo
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    let bar = if client.settings.progress {
        ProgressBar::new(total)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {bytes}/{total_bytes} {bytes_per_sec} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut state = StateFile::load(&client.settings.state_file, &client.settings.event);
    for path in todo {
        bar.set_message(
            path.file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_owned(),
        );
        // Read again: the hash was of these bytes, and they are held one file at a time.
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) => {
                report.failed.push((path.clone(), e.to_string()));
                continue;
            }
        };
        match send_file(client, &mut state, path, &bytes, &bar).await {
            Ok(()) => {
                if client.settings.progress {
                    bar.println(format!("sent {}", path.display()));
                } else {
                    println!("sent {}", path.display());
                }
                report.sent.push(path.clone());
            }
            Err(why) => report.failed.push((path.clone(), why)),
        }
    }
    bar.finish_and_clear();
    Ok(())
}

/// Sends the files under `paths`; with `watch`, then keeps sending new ones until
/// `stop` resolves.
pub async fn upload(
    settings: UploadSettings,
    paths: &[PathBuf],
    watch: bool,
    stop: impl std::future::Future<Output = ()>,
) -> anyhow::Result<UploadReport> {
    let client = Client::new(settings)?;
    let mut report = UploadReport::default();
    let files = collect_files(paths)?;
    send_all(&client, &files, &mut report).await?;
    if !watch {
        return Ok(report);
    }
    let mut seen: HashSet<PathBuf> = files.into_iter().collect();
    // A file is sent once two looks in a row found it the same size: a camera or a copy
    // may still be writing it.
    let mut growing: BTreeMap<PathBuf, u64> = BTreeMap::new();
    tokio::pin!(stop);
    loop {
        tokio::select! {
            () = &mut stop => return Ok(report),
            () = tokio::time::sleep(WATCH_EVERY) => {}
        }
        let mut ready = Vec::new();
        for path in collect_files(paths)? {
            if seen.contains(&path) {
                continue;
            }
            let Ok(size) = std::fs::metadata(&path).map(|m| m.len()) else {
                continue;
            };
            if growing.get(&path) == Some(&size) && size > 0 {
                growing.remove(&path);
                seen.insert(path.clone());
                ready.push(path);
            } else {
                growing.insert(path, size);
            }
        }
        if !ready.is_empty() {
            send_all(&client, &ready, &mut report).await?;
        }
    }
}
