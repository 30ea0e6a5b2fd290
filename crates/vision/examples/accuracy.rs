//! Accuracy benchmark: precision and recall of selfie search on the labelled dev set.
//!
//! ```text
//! cargo run --release -p raceshot-vision --example accuracy -- [DIR] [--models MODELS_DIR] [--min-score F]
//! ```
//!
//! `DIR` (default `<workspace>/../shared/faces/dev`) holds photos and `labels.tsv` with the
//! columns `file` and `identity`. `MODELS_DIR` defaults to `RACESHOT__FACES__MODELS_DIR`,
//! else `<workspace>/models`.
//!
//! Method, as the shop searches:
//!
//! * Every photo is ingested as an event photo: decoded for the detector's long edge and
//!   analysed with [`FaceEngine::analyze`] (detection at the long edge and, where it
//!   shrinks the photo enough, at the coarse long edge, merged; all faces passing the
//!   quality gate).
//! * Every photo with a single identity is also used as a selfie: decoded for the selfie
//!   long edge, [`FaceEngine::analyze_selfie`] picks its primary face, and that embedding
//!   is compared with the faces of all the *other* photos. A photo is found when its best
//!   face reaches the threshold (`>=`, as [`FaceIndex::search`] does).
//! * Rows whose identity is `group` are multi-person photos with no single identity: they
//!   are gallery photos only (never a selfie), and a hit on one is *unjudged*, neither a
//!   true nor a false positive; such hits are listed so a reader can check them by eye.
//! * Precision and recall are micro-averaged over the queries: TP, FP and FN are summed
//!   over all queries before dividing.
//!
//! The similarity figures use the exact `f32` embeddings; the result at the default
//! threshold is cross-checked against [`FaceIndex`] (int8 codes), which production uses.
//! A diagnostic at the end repeats the default-threshold figures with the main detection
//! pass alone (no coarse pass), to show what the coarse pass changes.
//!
//! The dev set is test material outside the repository, so this is an example, never part
//! of `cargo test`; a missing directory is an error with a clear message.

mod common;

use std::collections::BTreeSet;
use std::error::Error;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use raceshot_vision::{DecodeOptions, Embedding, FaceEngine, FaceIndex, cosine, decode};

type Result<T> = std::result::Result<T, Box<dyn Error>>;

/// The shop's default `face_threshold`. It mirrors
/// `raceshot_domain::event::DEFAULT_FACE_THRESHOLD` (not a dependency of this crate, so
/// the value is repeated here; keep the two equal).
const DEFAULT_FACE_THRESHOLD: f32 = 0.35;

/// Thresholds reported besides the default, to show the margin on either side.
const SWEEP: [f32; 5] = [0.25, 0.30, 0.35, 0.40, 0.45];

/// The `identity` of multi-person photos in `labels.tsv`.
const GROUP: &str = "group";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("accuracy: error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// One labelled photo after analysis.
struct Photo {
    file: String,
    /// `None` for a group photo.
    identity: Option<String>,
    /// Every face kept by the quality gate, as an event photo (all detection passes).
    faces: Vec<Embedding>,
    /// Diagnostic only: the faces kept with the main detection pass alone.
    main_pass_faces: Vec<Embedding>,
    /// Detections of the main pass alone, before the quality gate.
    main_pass_raw: usize,
    /// The main pass's long edge for this photo ([`FaceEngine::main_edge_for`]).
    main_edge: u32,
    /// The coarse pass's long edge for this photo (`None`: not run).
    coarse_edge: Option<u32>,
    /// Shorter side of the largest face kept, in pixels of the main pass's detector input
    /// (explains what the main pass alone misses: very large faces).
    largest_face: Option<f32>,
    /// The primary face when used as a selfie (group photos are not queries).
    selfie: Option<Embedding>,
    /// That face's distant view ([`raceshot_vision::FaceEngine::embed_distant`]).
    distant: Option<Embedding>,
}

impl Photo {
    /// Best similarity of `q` to any face of this photo (`None` without faces).
    fn best(&self, q: &Embedding) -> Option<f32> {
        self.faces.iter().map(|f| cosine(q, f)).reduce(f32::max)
    }

    /// [`Photo::best`] over the faces of the main detection pass alone (diagnostic).
    fn best_main_pass(&self, q: &Embedding) -> Option<f32> {
        self.main_pass_faces
            .iter()
            .map(|f| cosine(q, f))
            .reduce(f32::max)
    }
}

/// Summed confusion counts over all queries at one threshold.
#[derive(Default, Debug, Clone, Copy)]
struct Counts {
    tp: usize,
    fp: usize,
    fn_: usize,
    unjudged: usize,
}

impl Counts {
    fn precision(&self) -> Option<f64> {
        let found = self.tp + self.fp;
        (found > 0).then(|| self.tp as f64 / found as f64)
    }

    fn recall(&self) -> Option<f64> {
        let relevant = self.tp + self.fn_;
        (relevant > 0).then(|| self.tp as f64 / relevant as f64)
    }
}

fn run() -> Result<()> {
    let mut dir: Option<PathBuf> = None;
    let mut models: Option<PathBuf> = None;
    let mut min_score: Option<f32> = None;
    let mut args = std::env::args_os().skip(1);
    while let Some(a) = args.next() {
        if a == "--models" {
            models = Some(
                args.next()
                    .map(PathBuf::from)
                    .ok_or("--models needs a path")?,
            );
        } else if a == "--min-score" {
            let v = args.next().ok_or("--min-score needs a value")?;
            min_score = Some(v.to_string_lossy().parse()?);
        } else if a == "-h" || a == "--help" {
            println!("usage: accuracy [DIR] [--models MODELS_DIR] [--min-score F]");
            return Ok(());
        } else if dir.is_none() {
            dir = Some(PathBuf::from(a));
        } else {
            return Err(format!("unexpected argument {}", a.to_string_lossy()).into());
        }
    }
    let dir = dir.unwrap_or_else(|| common::workspace().join("../shared/faces/dev"));
    let models = common::models_dir(models);

    let labels_path = dir.join("labels.tsv");
    if !labels_path.is_file() {
        return Err(format!(
            "no labelled dev set at {} ({} is missing); pass the directory holding labels.tsv \
             and its photos as the first argument",
            dir.display(),
            labels_path.display()
        )
        .into());
    }
    let labels = read_labels(&labels_path)?;

    let mut config = common::engine_config(&models)?;
    if let Some(score) = min_score {
        config.quality.min_score = Some(score);
    }
    let engine = FaceEngine::load(config).map_err(|e| {
        format!(
            "loading the face engine from {}: {e} (run scripts/fetch-models.sh)",
            models.display()
        )
    })?;
    let cfg = engine.config().detector.clone();

    let started = Instant::now();
    let mut photos = Vec::with_capacity(labels.len());
    for (file, identity) in labels {
        photos.push(analyse(&engine, &dir, file, identity)?);
    }
    let analysis_s = started.elapsed().as_secs_f64();

    let queries: Vec<usize> = (0..photos.len())
        .filter(|&i| photos[i].identity.is_some())
        .collect();
    let identities: BTreeSet<&str> = photos
        .iter()
        .filter_map(|p| p.identity.as_deref())
        .collect();
    let groups = photos.len() - queries.len();

    println!("accuracy: selfie search on {}", dir.display());
    println!(
        "photos {} ({} with one identity across {} people, {} group photos: gallery only, hits on them unjudged)",
        photos.len(),
        queries.len(),
        identities.len(),
        groups
    );
    let coarse_runs = photos.iter().filter(|p| p.coarse_edge.is_some()).count();
    println!(
        "models {}; gallery faces: {} (the coarse pass run on {} of {} photos), selfies at {}; analysis took {:.1} s",
        models.display(),
        common::passes(&cfg),
        coarse_runs,
        photos.len(),
        cfg.selfie_long_edge,
        analysis_s
    );
    for p in &photos {
        let size = |s: Option<f32>| {
            s.map_or_else(String::new, |s| {
                format!(
                    ", largest ~{s:.0} px (shorter side) in the {}-px detector input",
                    p.main_edge
                )
            })
        };
        if p.faces.is_empty() {
            println!(
                "  note: no face kept in {} (main pass alone: {} raw detections; coarse pass {})",
                p.file,
                p.main_pass_raw,
                p.coarse_edge
                    .map_or_else(|| "not run".to_string(), |e| format!("at {e}"))
            );
        } else if p.main_pass_faces.is_empty() {
            println!(
                "  note: {}: the main pass at {} alone keeps no face ({} raw detections); with the other passes {} kept{}",
                p.file,
                p.main_edge,
                p.main_pass_raw,
                p.faces.len(),
                size(p.largest_face)
            );
        }
        if p.identity.is_some() && p.selfie.is_none() {
            println!(
                "  note: no selfie face in {} (its search finds nothing)",
                p.file
            );
        }
    }

    // Best similarity of each query to each other photo's faces.
    let mut same: Vec<(f32, usize, usize)> = Vec::new();
    let mut diff: Vec<(f32, usize, usize)> = Vec::new();
    // Same-person pairs that cannot be compared: the other photo has no face kept.
    let mut same_faceless = 0usize;
    for &q in &queries {
        let (Some(sel), Some(id)) = (&photos[q].selfie, &photos[q].identity) else {
            continue;
        };
        for (g, p) in photos.iter().enumerate() {
            if g == q {
                continue;
            }
            let Some(gid) = &p.identity else {
                continue;
            };
            let Some(s) = p.best(sel) else {
                same_faceless += usize::from(gid == id);
                continue;
            };
            if gid == id {
                same.push((s, q, g));
            } else {
                diff.push((s, q, g));
            }
        }
    }

    println!();
    println!(
        "default face_threshold {DEFAULT_FACE_THRESHOLD:.2} (the shop's default; events may set their own)"
    );
    let at_default = counts(&photos, &queries, DEFAULT_FACE_THRESHOLD);
    println!(
        "queries {}  precision {}  recall {}  (TP {}, FP {}, FN {}, unjudged group hits {})",
        queries.len(),
        pct(at_default.precision()),
        pct(at_default.recall()),
        at_default.tp,
        at_default.fp,
        at_default.fn_,
        at_default.unjudged
    );
    let distant_at = DEFAULT_FACE_THRESHOLD.max(engine.model_pair().distant_least_threshold());
    let with_distant = counts_with_distant(&photos, &queries, DEFAULT_FACE_THRESHOLD, distant_at);
    let closest_to_distant = queries
        .iter()
        .filter_map(|&q| {
            let d = photos[q].distant.as_ref()?;
            photos
                .iter()
                .filter(|p| p.identity.is_some() && p.identity != photos[q].identity)
                .filter_map(|p| p.best(d))
                .reduce(f32::max)
        })
        .reduce(f32::max);
    println!(
        "with the distant view at {distant_at:.2}, as the shop searches: precision {}  recall {}  (TP {}, FP {}, FN {}); closest stranger to a distant view {}",
        pct(with_distant.precision()),
        pct(with_distant.recall()),
        with_distant.tp,
        with_distant.fp,
        with_distant.fn_,
        closest_to_distant.map_or("n/a".to_owned(), |s| format!("{s:.3}"))
    );
    let name = |i: usize| photos[i].file.as_str();
    if let Some(&(s, q, g)) = same.iter().min_by(|a, b| a.0.total_cmp(&b.0)) {
        println!(
            "same-person similarity:      min {s:.3} ({} -> {}), over {} pairs ({same_faceless} more pairs not comparable: no face kept in the other photo)",
            name(q),
            name(g),
            same.len()
        );
    }
    if let Some(&(s, q, g)) = diff.iter().max_by(|a, b| a.0.total_cmp(&b.0)) {
        println!(
            "different-person similarity: max {s:.3} ({} -> {}), over {} pairs",
            name(q),
            name(g),
            diff.len()
        );
    }

    println!();
    println!("threshold  precision  recall    TP  FP  FN  unjudged");
    for t in SWEEP {
        let c = counts(&photos, &queries, t);
        println!(
            "{t:9.2}  {:>9}  {:>6}  {:4}{:4}{:4}  {:8}",
            pct(c.precision()),
            pct(c.recall()),
            c.tp,
            c.fp,
            c.fn_,
            c.unjudged
        );
    }

    println!();
    println!(
        "per query at {DEFAULT_FACE_THRESHOLD:.2} (similarity of each found photo's best face):"
    );
    for &q in &queries {
        let line = match &photos[q].selfie {
            None => "no selfie face".to_string(),
            Some(sel) => {
                let mut hits: Vec<(f32, usize)> = photos
                    .iter()
                    .enumerate()
                    .filter(|&(g, _)| g != q)
                    .filter_map(|(g, p)| p.best(sel).map(|s| (s, g)))
                    .filter(|&(s, _)| s >= DEFAULT_FACE_THRESHOLD)
                    .collect();
                hits.sort_by(|a, b| b.0.total_cmp(&a.0));
                let mut parts: Vec<String> = hits
                    .iter()
                    .map(|&(s, g)| {
                        let mark = match (&photos[g].identity, &photos[q].identity) {
                            (None, _) => "?",
                            (Some(a), Some(b)) if a == b => "",
                            _ => " FALSE",
                        };
                        format!("{} {s:.2}{mark}", photos[g].file)
                    })
                    .collect();
                let missed: Vec<&str> = photos
                    .iter()
                    .enumerate()
                    .filter(|&(g, p)| {
                        g != q
                            && p.identity == photos[q].identity
                            && !hits.iter().any(|&(_, h)| h == g)
                    })
                    .map(|(_, p)| p.file.as_str())
                    .collect();
                if !missed.is_empty() {
                    parts.push(format!("MISSED {}", missed.join(", ")));
                }
                if parts.is_empty() {
                    "nothing".to_string()
                } else {
                    parts.join("; ")
                }
            }
        };
        println!("  {}: {line}", photos[q].file);
    }
    println!("  (? = group photo, unjudged)");

    cross_check_index(&engine, &photos, &queries)?;

    // Diagnostic: the same searches with the main detection pass alone (no coarse pass).
    let one = counts_by(
        &photos,
        &queries,
        DEFAULT_FACE_THRESHOLD,
        Photo::best_main_pass,
    );
    let (mut same1, mut diff1) = (f32::INFINITY, f32::NEG_INFINITY);
    for &q in &queries {
        let (Some(sel), Some(id)) = (&photos[q].selfie, &photos[q].identity) else {
            continue;
        };
        for (g, p) in photos.iter().enumerate() {
            let (Some(gid), Some(s)) = (&p.identity, p.best_main_pass(sel)) else {
                continue;
            };
            if g == q {
                continue;
            }
            if gid == id {
                same1 = same1.min(s);
            } else {
                diff1 = diff1.max(s);
            }
        }
    }
    println!();
    println!(
        "diagnostic, not the shop's pipeline: event photos detected by the main pass alone (at {}, or {} beside a fine pass; no other pass):",
        cfg.long_edge,
        cfg.main_edge_beside_fine()
    );
    println!(
        "  at {DEFAULT_FACE_THRESHOLD:.2}: precision {}  recall {}  (TP {}, FP {}, FN {}, unjudged {}); same-person min {same1:.3}, different-person max {diff1:.3}",
        pct(one.precision()),
        pct(one.recall()),
        one.tp,
        one.fp,
        one.fn_,
        one.unjudged
    );
    Ok(())
}

/// Reads `labels.tsv`: a header naming `file` and `identity`, then one photo per line.
fn read_labels(path: &Path) -> Result<Vec<(String, Option<String>)>> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<&str> = lines
        .next()
        .ok_or_else(|| format!("{} is empty", path.display()))?
        .split('\t')
        .map(str::trim)
        .collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .ok_or_else(|| format!("{} has no `{name}` column", path.display()))
    };
    let (fc, ic) = (col("file")?, col("identity")?);
    let mut out = Vec::new();
    for (n, line) in lines.enumerate() {
        let cells: Vec<&str> = line.split('\t').map(str::trim).collect();
        let (Some(file), Some(id)) = (cells.get(fc), cells.get(ic)) else {
            return Err(format!("{} line {}: too few columns", path.display(), n + 2).into());
        };
        let identity = (*id != GROUP).then(|| id.to_string());
        out.push((file.to_string(), identity));
    }
    if out.is_empty() {
        return Err(format!("{} lists no photos", path.display()).into());
    }
    Ok(out)
}

fn analyse(
    engine: &FaceEngine,
    dir: &Path,
    file: String,
    identity: Option<String>,
) -> Result<Photo> {
    let path = dir.join(&file);
    let bytes = std::fs::read(&path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let cfg = &engine.config().detector;
    let what = |e: raceshot_vision::Error| format!("{}: {e}", path.display());
    let gallery = decode(
        &bytes,
        &DecodeOptions::default().with_target_long_edge(engine.decode_long_edge()),
    )
    .map_err(what)?;
    let analysed = engine.analyze(&gallery).map_err(what)?;
    // The scale the main pass's input gets (enlarging included).
    let main_edge = engine.main_edge_for(gallery.width(), gallery.height());
    let long = gallery.long_edge().max(1) as f32;
    let scale = (main_edge as f32 / long).min(cfg.max_upscale.max(1.0));
    let largest_face = analysed
        .iter()
        .map(|f| f.bbox.min_side() * scale)
        .reduce(f32::max);
    let faces = analysed.into_iter().map(|f| f.embedding).collect();
    let main_pass_raw = engine.detect_at(&gallery, main_edge).map_err(what)?.len();
    let main_pass_faces = engine
        .analyze_at(&gallery, main_edge)
        .map_err(what)?
        .into_iter()
        .map(|f| f.embedding)
        .collect();
    let coarse_edge = engine.coarse_edge_for(gallery.width(), gallery.height());
    let (selfie, distant) = match identity {
        None => (None, None),
        Some(_) => {
            let img = decode(
                &bytes,
                &DecodeOptions::default().with_target_long_edge(cfg.selfie_long_edge),
            )
            .map_err(what)?;
            match engine.analyze_selfie_faces(&img).map_err(what)? {
                Some(f) => {
                    let distant = engine.embed_distant(&img, &f.primary).map_err(what)?;
                    (Some(f.primary.embedding), Some(distant))
                }
                None => (None, None),
            }
        }
    };
    Ok(Photo {
        file,
        identity,
        faces,
        main_pass_faces,
        main_pass_raw,
        main_edge,
        coarse_edge,
        largest_face,
        selfie,
        distant,
    })
}

fn counts(photos: &[Photo], queries: &[usize], threshold: f32) -> Counts {
    counts_by(photos, queries, threshold, Photo::best)
}

fn counts_by(
    photos: &[Photo],
    queries: &[usize],
    threshold: f32,
    best: fn(&Photo, &Embedding) -> Option<f32>,
) -> Counts {
    counts_where(photos, queries, |query, p| {
        query
            .selfie
            .as_ref()
            .and_then(|sel| best(p, sel))
            .is_some_and(|s| s >= threshold)
    })
}

/// The counts when a query finds a photo as the shop's search does: the sharp selfie at
/// `threshold` or its distant view at `distant_at`.
fn counts_with_distant(
    photos: &[Photo],
    queries: &[usize],
    threshold: f32,
    distant_at: f32,
) -> Counts {
    let reaches = |e: &Option<Embedding>, p: &Photo, t: f32| {
        e.as_ref().and_then(|e| p.best(e)).is_some_and(|s| s >= t)
    };
    counts_where(photos, queries, |query, p| {
        reaches(&query.selfie, p, threshold) || reaches(&query.distant, p, distant_at)
    })
}

/// Every (query, other photo) pair judged by `found(query, photo)`.
fn counts_where(
    photos: &[Photo],
    queries: &[usize],
    found: impl Fn(&Photo, &Photo) -> bool,
) -> Counts {
    let mut c = Counts::default();
    for &q in queries {
        let id = &photos[q].identity;
        for (g, p) in photos.iter().enumerate() {
            if g == q {
                continue;
            }
            match (&p.identity, found(&photos[q], p)) {
                (None, true) => c.unjudged += 1,
                (None, false) => {}
                (Some(gid), true) if Some(gid) == id.as_ref() => c.tp += 1,
                (Some(gid), false) if Some(gid) == id.as_ref() => c.fn_ += 1,
                (Some(_), true) => c.fp += 1,
                (Some(_), false) => {}
            }
        }
    }
    c
}

/// Runs the default-threshold searches through [`FaceIndex`] (what production uses) and
/// reports whether it finds exactly the photos the exact `f32` comparison finds.
fn cross_check_index(engine: &FaceEngine, photos: &[Photo], queries: &[usize]) -> Result<()> {
    let mut index = FaceIndex::new(engine.embedding_dim());
    let mut face_id = 0i64;
    for (g, p) in photos.iter().enumerate() {
        for f in &p.faces {
            index.insert(face_id, i64::try_from(g)?, f)?;
            face_id += 1;
        }
    }
    let mut differences = 0usize;
    for &q in queries {
        let Some(sel) = &photos[q].selfie else {
            continue;
        };
        let by_index: BTreeSet<usize> = index
            .search(sel, DEFAULT_FACE_THRESHOLD, photos.len())?
            .into_iter()
            .filter_map(|h| usize::try_from(h.photo_id).ok())
            .filter(|&g| g != q)
            .collect();
        let exact: BTreeSet<usize> = photos
            .iter()
            .enumerate()
            .filter(|&(g, p)| g != q && p.best(sel).is_some_and(|s| s >= DEFAULT_FACE_THRESHOLD))
            .map(|(g, _)| g)
            .collect();
        differences += by_index.symmetric_difference(&exact).count();
    }
    println!();
    println!(
        "FaceIndex cross-check at {DEFAULT_FACE_THRESHOLD:.2}: {} ({} faces indexed, max quantisation error {:.4})",
        if differences == 0 {
            "same photos found as the exact f32 comparison".to_string()
        } else {
            format!("{differences} photo(s) differ from the exact f32 comparison")
        },
        index.len(),
        index.max_quantisation_error()
    );
    Ok(())
}

fn pct(v: Option<f64>) -> String {
    v.map_or_else(|| "n/a".to_string(), |v| format!("{:.1}%", v * 100.0))
}
