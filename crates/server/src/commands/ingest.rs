//! `raceshot ingest --event KEY [--wait] PATH...`: adds photos (files, or directories
//! searched recursively for JPEG and PNG files) to an event. Each new file's original goes
//! to object storage and a processing job is queued with it; files the event already holds
//! (same content) are skipped, so re-running is safe. With `--wait` it also works on the
//! queue, from the first photo queued (so reading and storing the files overlaps with
//! processing them), and returns when the batch is processed, failing if any photo failed.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use raceshot_domain::EventKey;

use crate::app::state::AppState;
use crate::jobs;
use crate::services::photos::{FileAdded, add_file};

#[derive(Debug, Default)]
pub struct Report {
    pub queued: Vec<i64>,
    pub skipped: usize,
    /// Files refused before queueing: (path, reason).
    pub refused: Vec<(String, String)>,
    /// Photos that failed processing (with `--wait`): (file name, reason).
    pub failed: Vec<(String, String)>,
    pub ready: usize,
}

/// Every JPEG or PNG under `paths`, sorted; files named explicitly are taken as they are.
pub fn collect_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
        for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
            let path = entry?.path();
            if path.is_dir() {
                walk(&path, out)?;
            } else if path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| matches!(e.to_ascii_lowercase().as_str(), "jpg" | "jpeg" | "png"))
            {
                out.push(path);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out)?;
        } else if p.exists() {
            out.push(p.clone());
        } else {
            anyhow::bail!("{} does not exist", p.display());
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

fn bar(len: usize, what: &str, visible: bool) -> ProgressBar {
    let bar = if visible {
        ProgressBar::new(len as u64)
    } else {
        ProgressBar::hidden()
    };
    let style = ProgressStyle::with_template(&format!(
        "{what} [{{bar:30}}] {{pos}}/{{len}} {{per_sec}} ETA {{eta}}"
    ))
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}

/// Queues the files' photos on the event as `photographer_id`'s; with `wait`, processes
/// and waits for them.
pub async fn ingest(
    state: &AppState,
    event_key: &str,
    photographer_id: i64,
    files: &[PathBuf],
    wait: bool,
    show_progress: bool,
) -> anyhow::Result<Report> {
    let key = EventKey::parse(event_key)?;
    let event = state
        .store
        .event_by_key(&key)
        .await?
        .with_context(|| format!("no event {event_key}"))?;
    let workers = wait.then(|| jobs::Workers::start(state));
    let result = async {
        let mut report =
            queue(state, &key, event.id, photographer_id, files, show_progress).await?;
        if wait && !report.queued.is_empty() {
            wait_for(state, &mut report, show_progress).await?;
        }
        Ok(report)
    }
    .await;
    if let Some(w) = workers {
        w.stop().await;
    }
    result
}

/// Stores each file's original and queues its processing.
async fn queue(
    state: &AppState,
    key: &EventKey,
    event_id: i64,
    photographer_id: i64,
    files: &[PathBuf],
    show_progress: bool,
) -> anyhow::Result<Report> {
    let mut report = Report::default();
    let progress = bar(files.len(), "queueing  ", show_progress);
    for path in files {
        progress.inc(1);
        let bytes = tokio::fs::read(path)
            .await
            .with_context(|| format!("reading {}", path.display()))?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match add_file(state.intake(), key, event_id, &name, photographer_id, bytes).await? {
            FileAdded::Queued(id) => report.queued.push(id),
            FileAdded::Exists(_) => report.skipped += 1,
            FileAdded::Refused(reason) => {
                report
                    .refused
                    .push((path.display().to_string(), reason.to_owned()));
            }
        }
    }
    progress.finish();
    Ok(report)
}

/// Waits until every queued photo is ready or failed.
async fn wait_for(
    state: &AppState,
    report: &mut Report,
    show_progress: bool,
) -> anyhow::Result<()> {
    let progress = bar(report.queued.len(), "processing", show_progress);
    let started = Instant::now();
    let result = jobs::wait_until(&state.jobs_finished, || async {
        let p = state.store.photo_progress(&report.queued).await?;
        progress.set_position(p.finished() as u64);
        Ok::<_, raceshot_store::StoreError>(match p.pending() {
            0 => jobs::Waiting::Done(p),
            n => jobs::Waiting::Pending(n as u64),
        })
    })
    .await
    .map(|p| {
        report.ready = p.ready;
        report.failed = p
            .failed
            .into_iter()
            .map(|(_, name, reason)| (name, reason))
            .collect();
    })
    .map_err(anyhow::Error::from);
    progress.finish();
    tracing::info!(
        photos = report.queued.len(),
        seconds = started.elapsed().as_secs_f64(),
        "batch processed"
    );
    result
}
