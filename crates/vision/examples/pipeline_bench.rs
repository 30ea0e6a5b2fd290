//! Face-stage throughput benchmark: decode -> detect -> align -> embed with the Rust engine
//! on a directory of photos, timed per stage. `scripts/bench/faces_pipeline.py` runs the
//! same pipeline in Python (onnxruntime + numpy + OpenCV) and prints the same report;
//! `scripts/bench/faces.sh` runs both on the same 24-megapixel photos.
//!
//! ```text
//! cargo run --release -p raceshot-vision --example pipeline_bench -- PHOTO_DIR \
//!     [--models MODELS_DIR] [--workers N] [--long-edge N] [--fine-long-edge N] \
//!     [--coarse-long-edge N] \
//!     [--runtime openvino|onnxruntime] [--dump FACES.jsonl]
//! ```
//!
//! * Every `*.jpg` / `*.jpeg` in `PHOTO_DIR` is processed once, in name order, after one
//!   untimed warm-up photo (the first).
//! * Stages, per photo: `decode` = read the file + decode with JPEG DCT scaling for the
//!   detector's long edge (as ingestion does); `detect` = [`FaceEngine::detect`]: scale to
//!   the long edge, pad to the stride, SCRFD, decode the strides, NMS, then the same at
//!   the coarse long edge and NMS over both passes; `align` = the quality gate and the
//!   5-point similarity warp to 112x112; `embed` = the recogniser (batched) and L2
//!   normalisation.
//! * Each stage is reported as wall time and as CPU time of the thread running it; the
//!   whole timed run also as process CPU time, and photos per CPU-second next to
//!   photos/s. On a machine shared with other work, CPU time is the steadier figure.
//!   OpenVINO (the default runtime) runs inferences on its own threads, so there a
//!   stage's thread CPU leaves the models out; the process CPU counts them.
//! * `--workers N` (default 1) runs N photos at once over one shared engine, as the job
//!   runner does; stage figures are then per-photo latencies under that load, and
//!   photos/s is photos / wall time. ONNX Runtime uses the engine's defaults (1 intra-op
//!   and 1 inter-op thread per inference, no spinning).
//! * `--long-edge N` sets `detector.long_edge` (default the engine's) and `--runtime` the
//!   runtime of the face models (`faces.runtime`, default the engine's).
//! * `--fine-long-edge N` sets `detector.fine_long_edge` (default the engine's, 3000; 0 =
//!   no fine pass) and `--with-fine-long-edge N` `detector.with_fine_long_edge`, the main
//!   pass's long edge beside it (default the engine's, 640).
//! * `--coarse-long-edge N` sets `detector.coarse_long_edge` (default the engine's, 640;
//!   0 = no coarse pass), so two runs give the coarse pass's cost by difference.
//! * `--min-score F` sets `quality.min_score` (default the engine's), to price the faces a
//!   lower gate adds.
//! * `--dump` writes one JSON line per photo with each embedded face's box (in the
//!   original photo's pixels), score and embedding, to compare with the Python run.

mod common;

use std::error::Error;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use raceshot_vision::{AnalyzedFace, DecodeOptions, FaceEngine, FaceRuntime, align, decode, probe};

type Result<T> = std::result::Result<T, Box<dyn Error + Send + Sync>>;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pipeline_bench: error: {e}");
            ExitCode::FAILURE
        }
    }
}

const USAGE: &str = "usage: pipeline_bench PHOTO_DIR [--models MODELS_DIR] [--workers N] \
                     [--long-edge N] [--fine-long-edge N] [--with-fine-long-edge N] [--coarse-long-edge N] [--min-score F] \
                     [--runtime openvino|onnxruntime] [--dump FACES.jsonl]";

struct Args {
    photos: PathBuf,
    models: PathBuf,
    workers: usize,
    /// `None`: the engine's default.
    long_edge: Option<u32>,
    /// `None`: the engine's default.
    fine_long_edge: Option<u32>,
    /// `None`: the engine's default.
    with_fine_long_edge: Option<u32>,
    /// `None`: the engine's default.
    coarse_long_edge: Option<u32>,
    runtime: Option<FaceRuntime>,
    min_score: Option<f32>,
    dump: Option<PathBuf>,
}

fn parse_args() -> Result<Args> {
    let mut photos = None;
    let mut models = None;
    let mut workers = 1usize;
    let mut long_edge = None;
    let mut fine_long_edge = None;
    let mut with_fine_long_edge = None;
    let mut coarse_long_edge = None;
    let mut runtime = None;
    let mut min_score = None;
    let mut dump = None;
    let mut args = std::env::args_os().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match a.to_str() {
            Some("--models") => models = Some(PathBuf::from(value("--models")?)),
            Some("--dump") => dump = Some(PathBuf::from(value("--dump")?)),
            Some("--workers") => {
                workers = value("--workers")?
                    .to_str()
                    .and_then(|s| s.parse().ok())
                    .filter(|&n: &usize| (1..=64).contains(&n))
                    .ok_or("--workers needs a number from 1 to 64")?;
            }
            Some("--long-edge") => long_edge = Some(parsed(value("--long-edge")?, "a number")?),
            Some("--fine-long-edge") => {
                fine_long_edge = Some(parsed(value("--fine-long-edge")?, "a number (0 = off)")?);
            }
            Some("--with-fine-long-edge") => {
                with_fine_long_edge = Some(parsed(value("--with-fine-long-edge")?, "a number")?);
            }
            Some("--runtime") => {
                runtime = Some(parsed(value("--runtime")?, "openvino or onnxruntime")?);
            }
            Some("--coarse-long-edge") => {
                coarse_long_edge =
                    Some(parsed(value("--coarse-long-edge")?, "a number (0 = off)")?);
            }
            Some("--min-score") => min_score = Some(parsed(value("--min-score")?, "a number")?),
            Some("-h" | "--help") => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            _ if photos.is_none() => photos = Some(PathBuf::from(a)),
            _ => return Err(format!("unexpected argument {}", a.to_string_lossy()).into()),
        }
    }
    Ok(Args {
        photos: photos.ok_or(USAGE)?,
        models: common::models_dir(models),
        workers,
        long_edge,
        fine_long_edge,
        with_fine_long_edge,
        coarse_long_edge,
        runtime,
        min_score,
        dump,
    })
}

/// An option's value parsed as `T`, or an error saying what it must be.
fn parsed<T: std::str::FromStr>(value: std::ffi::OsString, what: &str) -> Result<T> {
    value
        .to_str()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("{} is not {what}", value.to_string_lossy()).into())
}

/// Names of the timed stages, in pipeline order.
const STAGES: [&str; 4] = ["decode", "detect", "align", "embed"];

/// Wall and CPU time of each stage (indexed like [`STAGES`]), summed over photos.
#[derive(Default, Clone, Copy)]
struct Stages {
    wall: [Duration; 4],
    cpu: [Duration; 4],
    detected: usize,
    embedded: usize,
}

impl Stages {
    fn add(&mut self, o: &Stages) {
        for i in 0..STAGES.len() {
            self.wall[i] += o.wall[i];
            self.cpu[i] += o.cpu[i];
        }
        self.detected += o.detected;
        self.embedded += o.embedded;
    }
}

/// Measures consecutive stages of one photo on the current thread.
struct StageClock {
    wall: Instant,
    cpu: Duration,
}

impl StageClock {
    fn start() -> Self {
        Self {
            wall: Instant::now(),
            cpu: thread_cpu(),
        }
    }

    /// Records the time since the last lap as stage `i` and starts the next one.
    fn lap(&mut self, stages: &mut Stages, i: usize) {
        let (wall, cpu) = (Instant::now(), thread_cpu());
        stages.wall[i] += wall - self.wall;
        stages.cpu[i] += cpu.saturating_sub(self.cpu);
        self.wall = wall;
        self.cpu = cpu;
    }
}

/// CPU time of the calling thread (Linux: `/proc/thread-self/schedstat`, nanoseconds);
/// zero where unavailable. ONNX Runtime with 1 intra-op and 1 inter-op thread runs each
/// inference on the calling thread, so this covers the model runs too; OpenVINO runs them
/// on its own threads, so this leaves them out.
fn thread_cpu() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(Duration::ZERO, Duration::from_nanos)
}

/// CPU time (user + system) of the whole process, every thread included (Linux:
/// `/proc/self/stat`, in USER_HZ = 1/100 s ticks).
fn process_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name start with field 3 (state).
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// One photo's result: its stage times and faces (boxes scaled to the original photo).
struct Done {
    index: usize,
    stages: Stages,
    faces: Vec<AnalyzedFace>,
    size: (u32, u32),
}

fn run() -> Result<()> {
    let args = parse_args()?;
    let photos = list_photos(&args.photos)?;
    let mut config = common::engine_config(&args.models)?;
    if let Some(score) = args.min_score {
        config.quality.min_score = Some(score);
    }
    if let Some(edge) = args.long_edge {
        config.detector.long_edge = edge;
    }
    if let Some(edge) = args.fine_long_edge {
        config.detector.fine_long_edge = edge;
    }
    if let Some(edge) = args.with_fine_long_edge {
        config.detector.with_fine_long_edge = edge;
    }
    if let Some(runtime) = args.runtime {
        config.runtime = runtime;
    }
    if let Some(edge) = args.coarse_long_edge {
        config.detector.coarse_long_edge = edge;
    }
    let engine = FaceEngine::load(config).map_err(|e| {
        format!(
            "loading the face engine from {}: {e} (run scripts/fetch-models.sh)",
            args.models.display()
        )
    })?;

    // Warm-up: session start-up costs and first-touch allocations are not the steady state.
    if let Some(first) = photos.first() {
        process(&engine, first, 0)?;
    }

    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Done>> = Mutex::new(Vec::with_capacity(photos.len()));
    let cpu_before = process_cpu();
    let started = Instant::now();
    std::thread::scope(|scope| -> Result<()> {
        let workers: Vec<_> = (0..args.workers)
            .map(|_| {
                scope.spawn(|| -> Result<()> {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(path) = photos.get(i) else {
                            return Ok(());
                        };
                        let done = process(&engine, path, i)?;
                        results.lock().map_err(|_| "a worker panicked")?.push(done);
                    }
                })
            })
            .collect();
        for w in workers {
            w.join().map_err(|_| "a worker panicked")??;
        }
        Ok(())
    })?;
    let wall = started.elapsed();
    let cpu = process_cpu()
        .zip(cpu_before)
        .map(|(after, before)| after.saturating_sub(before));
    let mut results = results.into_inner().map_err(|_| "a worker panicked")?;
    results.sort_by_key(|d| d.index);

    let mut sum = Stages::default();
    for d in &results {
        sum.add(&d.stages);
    }
    let sizes: std::collections::BTreeSet<(u32, u32)> = results.iter().map(|d| d.size).collect();
    let size_text = sizes
        .iter()
        .map(|(w, h)| format!("{w}x{h}"))
        .collect::<Vec<_>>()
        .join(", ");
    let cfg = engine.config();
    println!(
        "pipeline: rust (raceshot-vision, {}) | {} photos ({size_text}, decode DCT-scaled) | {} | intra threads {} inter {} | workers {}",
        engine.runtime(),
        results.len(),
        common::passes(&cfg.detector),
        cfg.intra_threads,
        cfg.inter_threads,
        args.workers
    );
    print_report(&sum, results.len(), wall, cpu);

    if let Some(path) = &args.dump {
        write_dump(path, &photos, &results)?;
    }
    Ok(())
}

/// The report format shared with `scripts/bench/faces_pipeline.py`.
fn print_report(sum: &Stages, n: usize, wall: Duration, cpu: Option<Duration>) {
    let per = |d: Duration| d.as_secs_f64() * 1000.0 / n.max(1) as f64;
    let total_wall: Duration = sum.wall.iter().sum();
    let total_cpu: Duration = sum.cpu.iter().sum();
    let share = |d: Duration| 100.0 * d.as_secs_f64() / total_wall.as_secs_f64().max(1e-9);
    println!("stage          ms/photo   share  cpu ms/photo");
    let mut rows: Vec<(&str, Duration, Duration)> = STAGES
        .iter()
        .enumerate()
        .map(|(i, name)| (*name, sum.wall[i], sum.cpu[i]))
        .collect();
    rows.push((
        "align+embed",
        sum.wall[2] + sum.wall[3],
        sum.cpu[2] + sum.cpu[3],
    ));
    rows.push(("total", total_wall, total_cpu));
    for (name, w, c) in rows {
        println!(
            "{name:<12} {:>10.1} {:>6.1}% {:>13.1}",
            per(w),
            share(w),
            per(c)
        );
    }
    let wall_s = wall.as_secs_f64().max(1e-9);
    println!("wall s: {wall_s:.2}");
    match cpu {
        Some(cpu) => {
            let cpu_s = cpu.as_secs_f64().max(1e-9);
            println!(
                "cpu s: {cpu_s:.2} (whole process, {:.0}% of wall)",
                100.0 * cpu_s / wall_s
            );
            println!("photos/s: {:.2}", n as f64 / wall_s);
            println!("photos per cpu-second: {:.2}", n as f64 / cpu_s);
        }
        None => println!("photos/s: {:.2}", n as f64 / wall_s),
    }
    println!(
        "faces: {} embedded of {} detected ({:.1} per photo)",
        sum.embedded,
        sum.detected,
        sum.embedded as f64 / n.max(1) as f64
    );
}

fn list_photos(dir: &Path) -> Result<Vec<PathBuf>> {
    let rd = std::fs::read_dir(dir).map_err(|e| format!("reading {}: {e}", dir.display()))?;
    let mut photos = Vec::new();
    for entry in rd {
        let p = entry?.path();
        let ext = p
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        if matches!(ext.as_deref(), Some("jpg" | "jpeg")) {
            photos.push(p);
        }
    }
    photos.sort();
    if photos.is_empty() {
        return Err(format!("no JPEG photos in {}", dir.display()).into());
    }
    Ok(photos)
}

/// Runs the pipeline on one photo, stage by stage, as `FaceEngine::analyze` does.
fn process(engine: &FaceEngine, path: &Path, index: usize) -> Result<Done> {
    let cfg = engine.config();
    let what = |e: raceshot_vision::Error| format!("{}: {e}", path.display());

    let mut stages = Stages::default();
    let mut clock = StageClock::start();
    let bytes = std::fs::read(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let img = decode(
        &bytes,
        &DecodeOptions::default().with_target_long_edge(engine.decode_long_edge()),
    )
    .map_err(what)?;
    clock.lap(&mut stages, 0);

    let dets = engine.detect(&img).map_err(what)?;
    clock.lap(&mut stages, 1);

    let size = cfg.recognizer.input_size;
    let mut kept = Vec::with_capacity(dets.len());
    let mut crops = Vec::with_capacity(dets.len());
    for d in dets.iter().filter(|d| engine.passes_quality(d)) {
        if let Some(crop) = align::align_face(&img, &d.landmarks, size) {
            crops.push(crop);
            kept.push(*d);
        }
    }
    clock.lap(&mut stages, 2);

    let embeddings = engine.embed_crops(&crops).map_err(what)?;
    clock.lap(&mut stages, 3);
    stages.detected = dets.len();
    stages.embedded = embeddings.len();

    // Boxes back to the original photo's pixels (decoding may have scaled it down).
    let (ow, oh) = probe(&bytes).map_err(what)?.display_size();
    let (sx, sy) = (
        ow as f32 / img.width() as f32,
        oh as f32 / img.height() as f32,
    );
    let faces = kept
        .into_iter()
        .zip(embeddings)
        .map(|(d, embedding)| {
            let mut bbox = d.bbox;
            bbox.x1 *= sx;
            bbox.x2 *= sx;
            bbox.y1 *= sy;
            bbox.y2 *= sy;
            AnalyzedFace {
                bbox,
                landmarks: d.landmarks.map(|[x, y]| [x * sx, y * sy]),
                score: d.score,
                embedding,
            }
        })
        .collect::<Vec<_>>();
    Ok(Done {
        index,
        stages,
        faces,
        size: (ow, oh),
    })
}

fn write_dump(path: &Path, photos: &[PathBuf], results: &[Done]) -> Result<()> {
    let mut out = String::new();
    for d in results {
        let name = photos
            .get(d.index)
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let faces: Vec<serde_json::Value> = d
            .faces
            .iter()
            .map(|f| {
                serde_json::json!({
                    "bbox": [f.bbox.x1, f.bbox.y1, f.bbox.x2, f.bbox.y2],
                    "score": f.score,
                    "embedding": f.embedding.as_slice(),
                })
            })
            .collect();
        out.push_str(&serde_json::json!({ "photo": name, "faces": faces }).to_string());
        out.push('\n');
    }
    std::fs::write(path, out).map_err(|e| format!("writing {}: {e}", path.display()))?;
    Ok(())
}
