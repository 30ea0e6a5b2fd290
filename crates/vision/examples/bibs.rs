//! Bib benchmark: how many runners' bib numbers the text reader reads in a photo, how
//! many of the numbers it reports are wrong, and what it costs on top of face analysis.
//!
//! ```text
//! python scripts/bench/make_bibs.py DIR            # the labelled set (bench venv)
//! cargo run --release -p raceshot-vision --example bibs -- DIR [--models M]
//!     [--frame-max-side N] [--face-px F] [--min-confidence F] [--max-regions N] [--verbose]
//! ```
//!
//! Method, as the shop ingests:
//!
//! * Each photo is decoded as `ingest_photo` decodes it (DCT-scaled so its long edge stays
//!   at least 1600) and analysed with [`FaceEngine::analyze`]; the faces' boxes go to
//!   [`TextReader::read_photo`].
//! * Every line read is normalised (spaces and dashes removed, upper case) and kept when it
//!   looks like a bib number, `^[A-Z]?[0-9]{1,6}$`.
//! * A (bib, photo) pair is found when the photo's labels hold that number; a number read
//!   that is not a label of its photo is a false positive. Recall and precision are summed
//!   over all photos.
//! * Time is per photo, faces and bib reading separately (decoding excluded): wall-clock,
//!   and the CPU time of the thread, which other load on the machine does not inflate.
//!
//! The last line, `BIBS recall … precision … ms_per_photo …`, is machine-readable;
//! `ms_per_photo` is the bib reading's.

mod common;

use std::collections::BTreeSet;
use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use raceshot_vision::{BBox, DecodeOptions, FaceEngine, TextReader, TextReaderConfig, decode};
use serde::Deserialize;

type Result<T> = std::result::Result<T, Box<dyn Error>>;

/// `ingest_photo::PREVIEW_EDGE`: ingestion decodes for the preview as well as the detector.
const PREVIEW_EDGE: u32 = 1600;

#[derive(Deserialize)]
struct Labels {
    photos: Vec<PhotoLabel>,
}

#[derive(Deserialize)]
struct PhotoLabel {
    file: String,
    bibs: Vec<BibLabel>,
}

#[derive(Deserialize)]
struct BibLabel {
    text: String,
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bibs: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The bib number a read line stands for, if it looks like one.
fn bib_number(text: &str) -> Option<String> {
    let t: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .collect::<String>()
        .to_uppercase();
    let mut chars = t.chars();
    let digits = match chars.next() {
        Some(c) if c.is_ascii_uppercase() => chars.as_str(),
        Some(c) if c.is_ascii_digit() => t.as_str(),
        _ => return None,
    };
    let ok = (1..=6).contains(&digits.len()) && digits.chars().all(|c| c.is_ascii_digit());
    ok.then_some(t)
}

/// CPU time this thread has run, in ms (from `/proc/thread-self/schedstat`, 0 where
/// there is none). With one intra-op thread ONNX Runtime runs inferences on the calling
/// thread, so this is the work a photo costs whatever else loads the machine.
fn cpu_ms() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e6)
}

fn run() -> Result<()> {
    let mut dir: Option<PathBuf> = None;
    let mut models: Option<PathBuf> = None;
    let mut frame_max_side: Option<u32> = None;
    let mut face_px: Option<f32> = None;
    let mut min_confidence: Option<f32> = None;
    let mut max_regions: Option<usize> = None;
    let mut verbose = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--models" => models = Some(PathBuf::from(value()?)),
            "--frame-max-side" => frame_max_side = Some(value()?.parse()?),
            "--face-px" => face_px = Some(value()?.parse()?),
            "--min-confidence" => min_confidence = Some(value()?.parse()?),
            "--max-regions" => max_regions = Some(value()?.parse()?),
            "--verbose" | "-v" => verbose = true,
            "-h" | "--help" => {
                println!(
                    "usage: bibs DIR [--models M] [--frame-max-side N] [--face-px F] [--min-confidence F] [--max-regions N] [--verbose]"
                );
                return Ok(());
            }
            _ if dir.is_none() => dir = Some(PathBuf::from(a)),
            _ => return Err(format!("unexpected argument {a}").into()),
        }
    }
    let dir = dir.ok_or("the set's directory is required (scripts/bench/make_bibs.py)")?;
    let models = common::models_dir(models);
    let labels: Labels = common::read_labels(&dir)?;

    let engine = FaceEngine::load(common::engine_config(&models)?)?;
    let mut config = TextReaderConfig::with_models_dir(&models);
    if let Some(v) = frame_max_side {
        config.frame_max_side = v;
    }
    if let Some(v) = face_px {
        config.face_px = v;
    }
    if let Some(v) = min_confidence {
        config.min_confidence = v;
    }
    if let Some(v) = max_regions {
        config.max_regions = v;
    }
    let reader = TextReader::load(config)?;
    let decode_edge = PREVIEW_EDGE.max(engine.decode_long_edge());

    let (mut tp, mut fp, mut fn_) = (0usize, 0usize, 0usize);
    let (mut face_ms, mut bib_ms) = (0.0f64, 0.0f64);
    let (mut face_cpu, mut bib_cpu) = (0.0f64, 0.0f64);
    let mut faces_total = 0usize;
    println!("photo                 size        faces  bibs  read  wrong  faces ms  bibs ms");
    for p in &labels.photos {
        let bytes = std::fs::read(dir.join(&p.file))?;
        let img = decode(
            &bytes,
            &DecodeOptions::default().with_target_long_edge(decode_edge),
        )?;
        let (t, c) = (Instant::now(), cpu_ms());
        let faces: Vec<BBox> = engine.analyze(&img)?.iter().map(|f| f.bbox).collect();
        let (f_ms, f_cpu) = (t.elapsed().as_secs_f64() * 1000.0, cpu_ms() - c);
        let (t, c) = (Instant::now(), cpu_ms());
        let lines = reader.read_photo(&img, &faces)?;
        let (b_ms, b_cpu) = (t.elapsed().as_secs_f64() * 1000.0, cpu_ms() - c);
        face_ms += f_ms;
        bib_ms += b_ms;
        face_cpu += f_cpu;
        bib_cpu += b_cpu;
        faces_total += faces.len();

        let truth: BTreeSet<String> = p.bibs.iter().map(|b| b.text.to_uppercase()).collect();
        let read: BTreeSet<String> = lines.iter().filter_map(|l| bib_number(&l.text)).collect();
        let hits = read.intersection(&truth).count();
        let wrong: Vec<&String> = read.difference(&truth).collect();
        let missed: Vec<&String> = truth.difference(&read).collect();
        tp += hits;
        fp += wrong.len();
        fn_ += missed.len();
        println!(
            "{:<20}  {:>4}x{:<5}  {:>5}  {:>4}  {:>4}  {:>5}  {:>8.0}  {:>7.0}",
            p.file,
            img.width(),
            img.height(),
            faces.len(),
            truth.len(),
            hits,
            wrong.len(),
            f_ms,
            b_ms
        );
        if verbose {
            println!("    missed {missed:?}, wrong {wrong:?}");
            for l in &lines {
                println!(
                    "    {:?} {:.2} at {:.0},{:.0} {:.0}x{:.0}",
                    l.text,
                    l.confidence,
                    l.bbox.x1,
                    l.bbox.y1,
                    l.bbox.width(),
                    l.bbox.height()
                );
            }
        }
    }
    let n = labels.photos.len().max(1) as f64;
    let recall = tp as f64 / (tp + fn_).max(1) as f64;
    let precision = tp as f64 / (tp + fp).max(1) as f64;
    println!(
        "{} photos, {} faces, {} bibs: read {tp}, missed {fn_}, wrong {fp}; faces {:.0} ms per photo, bibs {:.0} ms per photo (+{:.0} %)",
        labels.photos.len(),
        faces_total,
        tp + fn_,
        face_ms / n,
        bib_ms / n,
        100.0 * bib_ms / face_ms.max(1e-9)
    );
    println!(
        "CPU time (this thread; the bib models run single-threaded in it, the face models on OpenVINO's own threads unless on ONNX Runtime): faces {:.0} ms per photo, bibs {:.0} ms per photo (+{:.0} %)",
        face_cpu / n,
        bib_cpu / n,
        100.0 * bib_cpu / face_cpu.max(1e-9)
    );
    println!(
        "BIBS recall {:.3} precision {:.3} ms_per_photo {:.0}",
        recall,
        precision,
        bib_ms / n
    );
    Ok(())
}
