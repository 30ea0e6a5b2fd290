//! Small-face benchmark: how surely a selfie finds a runner whose face is small in a race
//! photo (35–110 px wide in a 3000×2000 frame, blurred, re-lit, JPEG 55–80).
//!
//! ```text
//! python scripts/bench/make_small_faces.py DIR          # the labelled set (bench venv)
//! cargo run --release -p raceshot-vision --example small_faces -- DIR [--models M]
//!     [--long-edge N] [--fine-long-edge N] [--with-fine-long-edge N] [--min-face-px F] [--min-score F]
//!     [--decode-edge N]
//! ```
//!
//! Method, as the shop ingests and searches:
//!
//! * Each photo is decoded as `ingest_photo` decodes it (DCT-scaled so its long edge stays
//!   at least `max(1600, FaceEngine::decode_long_edge)`; `--decode-edge` overrides) and
//!   analysed with
//!   [`FaceEngine::analyze`].
//! * Each person's selfie goes through [`FaceEngine::analyze_selfie`] and is compared with
//!   every face of every photo. A (person, photo) pair is found when the photo's best face
//!   reaches the threshold (`>=`, as [`raceshot_vision::FaceIndex::search`] does); it is a
//!   true positive when the labels put that person in that photo.
//! * Recall and precision are summed over all pairs. The report also splits recall by the
//!   face's width and tells where a missed face was lost: never detected, detected but
//!   dropped by the quality gate, or indexed but not similar enough.
//!
//! * A size-aware threshold is measured beside the fixed one: per width bin, a normal
//!   distribution is fitted to the similarities of every selfie with every face that is not
//!   that person's, and the bin's threshold is where it leaves one stranger in a million
//!   ([`STRANGER_RATE`]: about 0.1 false faces per search of a 100,000-face event). The
//!   tail is extrapolated from thousands of comparisons, not observed: the report prints
//!   each bin's fit beside its largest stranger similarity.
//! * When the set gives a person several selfies (`make_small_faces.py
//!   --selfies-per-person 2`), each selfie is first searched on its own, then the person's
//!   selfies together: a face matches when its best similarity to any of them reaches the
//!   threshold (`SEVERAL_SELFIES … together`), or when its similarity to their mean does
//!   (`… mean`); each rule at the fixed threshold and at its own size-aware one, fitted on
//!   its own strangers' scores (taking the best of two selfies raises strangers' scores
//!   too).
//! * The selfie seen from afar (`DISTANT_VIEW` lines): each search as the shop makes it,
//!   the sharp selfie or its distant view reaching its threshold, against the sharp selfie
//!   alone; at the shop's fixed thresholds, at size-aware ones fitted for each view on the
//!   labelled strangers, and (`per-search`) at each search's own, fitted as the shop fits
//!   them ([`raceshot_vision::StrangerFit`] on the set's faces by width class, the person's
//!   own appearances among them, between the pair's calibrated floor and the shop's
//!   threshold). The shop scores an evenly spread sample of an event's faces from their
//!   stored 8-bit codes; here every face's exact similarity.
//! * When the set is taken in bursts (`make_small_faces.py --burst 3`), matching by
//!   sequence (`raceshot_vision::sequence`, as the shop searches) is measured beside the
//!   thresholds alone (`SEQUENCE` lines), in the same three ways of setting thresholds.
//!
//! * Every false match of the shop's own search (`per-search`, both views) is listed
//!   (`false match (view): …`), with the labelled face it fell on: strangers who resemble
//!   the runner show up there. The shop's lookalike guard is measured on that search
//!   (`LOOKALIKE_GUARD` lines; see `lookalike_guard`).
//! * When the set's runners wear bibs (`make_small_faces.py --bibs`), every photo's bibs are
//!   read as ingestion reads them (see `read_bibs`) and each is given to the face it sits
//!   under ([`worn`]). The report tells how many appearances' bibs were read right,
//!   wrongly or not at all (`BIBS read`), and measures the guard with the runner's bib
//!   vouching too ([`Guarded::with_bibs`]; `LOOKALIKE_GUARD gate … with bibs` lines).
//!
//! The last line, `SMALL_FACES recall … precision …`, is what `make bench` collects.

mod common;

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::error::Error;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use raceshot_domain::{Bib, BibRule};
use raceshot_vision::calibration::CLASS_WIDTHS;
use raceshot_vision::lookalike::{Guarded, MOST_SURE, SURE_MARGIN};
use raceshot_vision::ocr::worn;
use raceshot_vision::{
    AnalyzedFace, BBox, DecodeOptions, Embedding, FaceEngine, Hit, ModelPair, StrangerFit,
    TextReader, TextReaderConfig, Thresholds, cosine, decode, sequence, size_class,
};
use serde::Deserialize;

type Result<T> = std::result::Result<T, Box<dyn Error>>;

/// One search: the person it is for and the selfies searched together (a face's score is
/// its best similarity to any of them).
type Query = (String, Vec<Embedding>);

/// The thresholds of each search, in the order of its queries.
type PerQuery = Vec<Thresholds>;

/// A way of setting thresholds ([`modes`]): its name, then each search's thresholds for
/// the sharp selfie and for its distant view.
type Mode = (&'static str, PerQuery, PerQuery);

/// The shop's default `face_threshold` (`raceshot_domain::event::DEFAULT_FACE_THRESHOLD`).
const DEFAULT_FACE_THRESHOLD: f32 = 0.35;
const SWEEP: [f32; 5] = [0.25, 0.30, 0.35, 0.40, 0.45];
/// `ingest_photo::PREVIEW_EDGE`: ingestion decodes for the preview as well as the detector.
const PREVIEW_EDGE: u32 = 1600;
/// The way of setting thresholds the shop searches with ([`modes`]): each search's own.
const SHOP_MODE: &str = "per-search";
/// The resemblances to the runner's surest appearances the lookalike guard is measured at.
const GUARD_GATES: [f32; 4] = [0.45, 0.50, 0.55, 0.60];
/// A labelled face counts as detected by a box overlapping it this much.
const MATCH_IOU: f32 = 0.3;
/// The stranger false-match rate per comparison the size-aware thresholds allow.
const STRANGER_RATE: f64 = 1e-6;
/// The stranger rate per comparison [`ModelPair::sequence_floor`] stands for; the report
/// prints the floor fitted at it beside the pair's.
const SEQUENCE_RATE: f64 = 1e-3;
/// Face widths (photo pixels) the recall is split by: the shop's width classes.
const WIDTH_BINS: [f32; 4] = CLASS_WIDTHS;
/// The least confidence of a bib read that ingestion keeps (the shop's
/// `bibs.min_confidence`).
const BIB_MIN_CONFIDENCE: f32 = 0.8;

#[derive(Deserialize)]
struct Labels {
    selfies: Vec<SelfieLabel>,
    photos: Vec<PhotoLabel>,
}

#[derive(Deserialize)]
struct SelfieLabel {
    file: String,
    identity: String,
}

#[derive(Deserialize)]
struct PhotoLabel {
    file: String,
    faces: Vec<FaceLabel>,
    /// The camera burst the photo belongs to, and when it was taken (`--burst` sets).
    #[serde(default)]
    burst: Option<u32>,
    #[serde(default)]
    taken_ms: Option<i64>,
}

#[derive(Deserialize)]
struct FaceLabel {
    identity: String,
    /// The photo the face was made from (sets made before it was recorded have none).
    #[serde(default)]
    source: Option<String>,
    /// x1, y1, x2, y2 in the photo's pixels.
    #[serde(rename = "box")]
    bbox: [f32; 4],
    /// The bib pinned under the face (`--bibs` sets; `None` where none was drawn).
    #[serde(default)]
    bib: Option<String>,
}

/// One photo after analysis, boxes in the photo's own pixels.
struct Photo {
    label: PhotoLabel,
    faces: Vec<AnalyzedFace>,
    /// Every detection before the quality gate.
    detections: Vec<BBox>,
    /// The bibs read on the photo and kept, as ingestion keeps them (sets with bibs).
    bibs: Vec<Bib>,
    /// The bib each of `faces` wears, by index (empty when no bib was read).
    worn: Vec<Option<Bib>>,
}

impl Photo {
    /// The bib the photo's face number `face` wears.
    fn worn_by(&self, face: usize) -> Option<&Bib> {
        self.worn.get(face)?.as_ref()
    }
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("small_faces: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<()> {
    let mut dir: Option<PathBuf> = None;
    let mut models: Option<PathBuf> = None;
    let mut long_edge: Option<u32> = None;
    let mut fine_long_edge: Option<u32> = None;
    let mut with_fine_long_edge: Option<u32> = None;
    let mut min_face_px: Option<f32> = None;
    let mut min_score: Option<f32> = None;
    let mut decode_edge: Option<u32> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--models" => models = Some(PathBuf::from(value()?)),
            "--long-edge" => long_edge = Some(value()?.parse()?),
            "--fine-long-edge" => fine_long_edge = Some(value()?.parse()?),
            "--with-fine-long-edge" => with_fine_long_edge = Some(value()?.parse()?),
            "--min-face-px" => min_face_px = Some(value()?.parse()?),
            "--min-score" => min_score = Some(value()?.parse()?),
            "--decode-edge" => decode_edge = Some(value()?.parse()?),
            "-h" | "--help" => {
                println!(
                    "usage: small_faces DIR [--models M] [--long-edge N] [--fine-long-edge N] [--with-fine-long-edge N] [--min-face-px F] [--min-score F] [--decode-edge N]"
                );
                return Ok(());
            }
            _ if dir.is_none() => dir = Some(PathBuf::from(a)),
            _ => return Err(format!("unexpected argument {a}").into()),
        }
    }
    let dir = dir.ok_or("the set's directory is required (scripts/bench/make_small_faces.py)")?;
    let models = common::models_dir(models);
    let labels: Labels = common::read_labels(&dir)?;

    let mut config = common::engine_config(&models)?;
    if let Some(edge) = long_edge {
        config.detector.long_edge = edge;
    }
    if let Some(edge) = fine_long_edge {
        config.detector.fine_long_edge = edge;
    }
    if let Some(edge) = with_fine_long_edge {
        config.detector.with_fine_long_edge = edge;
    }
    if let Some(px) = min_face_px {
        config.quality.min_face_px = px;
    }
    if let Some(score) = min_score {
        config.quality.min_score = Some(score);
    }
    let engine = FaceEngine::load(config)?;
    let cfg = engine.config();
    let decode_edge = decode_edge.unwrap_or(PREVIEW_EDGE.max(engine.decode_long_edge()));

    let started = Instant::now();
    let mut photos = Vec::with_capacity(labels.photos.len());
    for label in labels.photos {
        photos.push(analyse(&engine, &dir, label, decode_edge)?);
    }
    let per_photo_ms = started.elapsed().as_secs_f64() * 1000.0 / photos.len().max(1) as f64;
    let with_bibs = photos
        .iter()
        .any(|p| p.label.faces.iter().any(|l| l.bib.is_some()));
    let mut bib_reading = String::new();
    if with_bibs {
        // As the server loads it: beside the face engine, on its runtime and threads.
        let reader = TextReader::load(TextReaderConfig {
            min_confidence: BIB_MIN_CONFIDENCE,
            ..TextReaderConfig::beside(cfg)
        })?;
        let started = Instant::now();
        for p in &mut photos {
            read_bibs(&reader, &dir, p, decode_edge)?;
        }
        bib_reading = format!(
            "reader {}, confidence at least {BIB_MIN_CONFIDENCE}, {:.0} ms per photo",
            reader.runtime(),
            started.elapsed().as_secs_f64() * 1000.0 / photos.len().max(1) as f64
        );
    }

    let mut selfies: Vec<Query> = Vec::new();
    let mut distant: Vec<Query> = Vec::new();
    for s in &labels.selfies {
        let bytes = std::fs::read(dir.join(&s.file))?;
        let img = decode(
            &bytes,
            &DecodeOptions::default().with_target_long_edge(cfg.detector.selfie_long_edge),
        )?;
        let faces = engine
            .analyze_selfie_faces(&img)?
            .ok_or_else(|| format!("no face in the selfie {}", s.file))?;
        distant.push((
            s.identity.clone(),
            vec![engine.embed_distant(&img, &faces.primary)?],
        ));
        selfies.push((s.identity.clone(), vec![faces.primary.embedding]));
    }

    let faces: usize = photos.iter().map(|p| p.label.faces.len()).sum();
    println!(
        "small faces: {} photos, {} labelled faces, {} people; {}; {}, \
         decode edge {}, quality gate {} px / score {}; analysis {:.0} ms per photo",
        photos.len(),
        faces,
        selfies.len(),
        engine.runtime(),
        common::passes(&cfg.detector),
        decode_edge,
        cfg.quality.min_face_px,
        cfg.min_score(),
        per_photo_ms,
    );
    println!("threshold  precision  recall     TP   FP   FN");
    for t in SWEEP {
        let c = count(&photos, &selfies, t);
        let mark = if t == DEFAULT_FACE_THRESHOLD {
            "  <- default"
        } else {
            ""
        };
        println!(
            "{t:9.2}  {:>9}  {:>6}  {:5}{:5}{:5}{mark}",
            pct(c.precision()),
            pct(c.recall()),
            c.tp,
            c.fp,
            c.fn_
        );
    }
    explain_misses(&photos, &selfies);
    let calibrated = size_aware(&photos, &selfies, true);
    println!(
        "SIZE_AWARE recall {} precision {} ({} pairs found of {}, {} false)",
        pct(calibrated.recall()),
        pct(calibrated.precision()),
        calibrated.tp,
        calibrated.tp + calibrated.fn_,
        calibrated.fp
    );
    let c = count(&photos, &selfies, DEFAULT_FACE_THRESHOLD);
    println!(
        "SMALL_FACES recall {} precision {} (threshold {DEFAULT_FACE_THRESHOLD}, {} pairs found of {})",
        pct(c.recall()),
        pct(c.precision()),
        c.tp,
        c.tp + c.fn_
    );
    if with_bibs {
        bibs_read(&photos, &selfies, &bib_reading);
    }
    let modes = modes(&photos, &selfies, &distant, cfg.model_pair);
    if let Some((_, sharp_at, distant_at)) = modes.iter().find(|m| m.0 == SHOP_MODE) {
        let views = [
            ("sharp", &selfies[..], sharp_at),
            ("distant", &distant[..], distant_at),
        ];
        list_false_matches(&photos, &views);
        let (shop, gate) = (
            shop_threshold(cfg.model_pair),
            cfg.model_pair.lookalike_gate(),
        );
        lookalike_guard(&photos, &views, shop, gate, with_bibs);
    }
    sequence(&photos, &selfies, &distant, cfg.model_pair, &modes);
    distant_view(&photos, &selfies, &distant, &modes);
    several_selfies(&photos, &selfies)
}

/// Matching by sequence ([`raceshot_vision::sequence`]), when the set is taken in bursts:
/// a face below the threshold but at the pair's floor is matched when a face of another
/// photo of the burst matched outright and this one continues it. Measured at the shop's
/// thresholds and at the size-aware ones fitted on strangers, first with the sharp selfie
/// alone, then (`…+distant`) with outright matches by either view, as the shop searches.
fn sequence(
    photos: &[Photo],
    selfies: &[Query],
    distant: &[Query],
    pair: ModelPair,
    modes: &[Mode],
) {
    if photos.iter().all(|p| p.label.burst.is_none()) {
        return;
    }
    let fitted = calibrate(photos, selfies, SEQUENCE_RATE, false).classes();
    let floor = pair.sequence_floor();
    println!(
        "sequence: floor {floor} (fitted on strangers at {SEQUENCE_RATE:e} here: {}), {} ms, gate {:?}",
        fitted
            .iter()
            .map(|t| format!("{t:.3}"))
            .collect::<Vec<_>>()
            .join("/"),
        sequence::WINDOW_MS,
        sequence::GATE
    );
    let sighting = |p: &Photo, f: &AnalyzedFace| {
        Some(sequence::Sighting {
            camera: i64::from(p.label.burst?),
            taken_ms: p.label.taken_ms?,
            bbox: [f.bbox.x1, f.bbox.y1, f.bbox.x2, f.bbox.y2],
        })
    };
    for (name, direct, distant_at) in modes {
        for views in [
            &[(selfies, direct)][..],
            &[(selfies, direct), (distant, distant_at)][..],
        ] {
            let (mut plain, mut with) = (Counts::default(), Counts::default());
            let (mut anchors, mut strangers_in_gate) = (0usize, 0usize);
            for p in photos {
                let present: HashSet<&str> =
                    p.label.faces.iter().map(|f| f.identity.as_str()).collect();
                for (i, (who, q)) in selfies.iter().enumerate() {
                    let outright =
                        |f: &AnalyzedFace| views.iter().any(|(qs, t)| reaches(&qs[i], &t[i], f));
                    let direct_hit = p.faces.iter().any(outright);
                    let mut found = direct_hit;
                    for other in photos.iter().filter(|o| !std::ptr::eq(*o, p)) {
                        for anchor in other.faces.iter().filter(|f| outright(f)) {
                            let Some(a) = sighting(other, anchor) else {
                                continue;
                            };
                            for f in &p.faces {
                                if !sighting(p, f).is_some_and(|s| sequence::continues(&a, &s)) {
                                    continue;
                                }
                                anchors += 1;
                                if !is_of(p, f, who) {
                                    strangers_in_gate += 1;
                                }
                                found |= score(q, f) >= floor.min(direct[i].of_class(class_of(f)));
                            }
                        }
                    }
                    let here = present.contains(who.as_str());
                    plain.add(direct_hit, here);
                    with.add(found, here);
                }
            }
            let label = if views.len() > 1 {
                format!("{name}+distant")
            } else {
                (*name).to_owned()
            };
            println!(
                "SEQUENCE {label:<10} recall {} -> {} precision {} -> {} ({} pairs found of {}, {} false; with sequence {}, {} false; {anchors} faces in an anchor's gate, {strangers_in_gate} of them strangers')",
                pct(plain.recall()),
                pct(with.recall()),
                pct(plain.precision()),
                pct(with.precision()),
                plain.tp,
                plain.tp + plain.fn_,
                plain.fp,
                with.tp,
                with.fp
            );
        }
    }
}

/// The shop's threshold for the sharp selfie on an event at the default `face_threshold`.
fn shop_threshold(pair: ModelPair) -> f32 {
    DEFAULT_FACE_THRESHOLD.max(pair.least_threshold())
}

/// The thresholds each search is measured at, for the sharp selfie and its distant view:
/// the shop's fixed ones (the view's at least [`ModelPair::distant_least_threshold`]);
/// size-aware ones fitted on every search's strangers together, by the labels; and each
/// search's own, fitted as the shop fits them on the event's faces, its own appearances
/// among them ([`StrangerFit`], between [`ModelPair::calibrated_floor`] and the shop's).
fn modes(photos: &[Photo], selfies: &[Query], distant: &[Query], pair: ModelPair) -> [Mode; 3] {
    let shop = shop_threshold(pair);
    let shop_distant = shop.max(pair.distant_least_threshold());
    let same = |t: Thresholds| vec![t; selfies.len()];
    let pooled = |queries: &[Query]| same(calibrate(photos, queries, STRANGER_RATE, false));
    let own = |queries: &[Query], most: f32| -> PerQuery {
        queries
            .iter()
            .map(|(_, q)| {
                let scores = photos
                    .iter()
                    .flat_map(|p| &p.faces)
                    .map(|f| (class_of(f), score(q, f)));
                StrangerFit::from_scores(scores).thresholds(pair.calibrated_floor(), most)
            })
            .collect()
    };
    [
        (
            "shop",
            same(Thresholds::uniform(shop)),
            same(Thresholds::uniform(shop_distant)),
        ),
        ("size-aware", pooled(selfies), pooled(distant)),
        (SHOP_MODE, own(selfies, shop), own(distant, shop_distant)),
    ]
}

/// The selfie seen from afar ([`raceshot_vision::FaceEngine::embed_distant`]), as the shop
/// searches: a face matches when the sharp selfie reaches its threshold or the distant
/// view reaches its own; in each of [`modes`].
fn distant_view(photos: &[Photo], selfies: &[Query], distant: &[Query], modes: &[Mode]) {
    for (name, sharp_at, distant_at) in modes {
        let alone = count_any(photos, &[(selfies, sharp_at)]);
        let either = count_any(photos, &[(selfies, sharp_at), (distant, distant_at)]);
        println!(
            "DISTANT_VIEW {name:<10} recall {} -> {} precision {} -> {} ({} -> {} pairs of {}, {} -> {} false; thresholds {}, distant view {})",
            pct(alone.recall()),
            pct(either.recall()),
            pct(alone.precision()),
            pct(either.precision()),
            alone.tp,
            either.tp,
            alone.tp + alone.fn_,
            alone.fp,
            either.fp,
            span(sharp_at),
            span(distant_at)
        );
    }
}

/// The thresholds of every search and class: one value, or the least and the most.
fn span(thresholds: &[Thresholds]) -> String {
    let all = thresholds.iter().flat_map(|t| t.classes());
    let (lo, hi) = all.fold((f32::MAX, f32::MIN), |(lo, hi), t| (lo.min(t), hi.max(t)));
    if lo == hi {
        format!("{lo:.3}")
    } else {
        format!("{lo:.3}–{hi:.3}")
    }
}

/// One person's selfies searched alone and together (see the module's documentation),
/// when the set gives someone more than one.
fn several_selfies(photos: &[Photo], selfies: &[Query]) -> Result<()> {
    let mut together: BTreeMap<&str, Vec<Embedding>> = BTreeMap::new();
    for (who, q) in selfies {
        together.entry(who).or_default().extend(q.iter().cloned());
    }
    if together.values().all(|q| q.len() < 2) {
        return Ok(());
    }
    let together: Vec<Query> = together
        .into_iter()
        .filter(|(_, q)| q.len() >= 2)
        .map(|(who, q)| (who.to_owned(), q))
        .collect();
    let alone: Vec<Query> = selfies
        .iter()
        .filter(|(who, _)| together.iter().any(|(w, _)| w == who))
        .cloned()
        .collect();
    let mut mean = Vec::new();
    for (who, q) in &together {
        let dim = q[0].dim();
        let mut sum = vec![0.0f32; dim];
        for e in q {
            for (s, v) in sum.iter_mut().zip(e.as_slice()) {
                *s += v;
            }
        }
        mean.push((who.clone(), vec![Embedding::from_raw(sum, dim)?]));
    }
    println!(
        "several selfies ({} people, {} selfies): rule, then recall and precision at {DEFAULT_FACE_THRESHOLD} and size-aware",
        together.len(),
        alone.len()
    );
    for (rule, queries) in [("alone", &alone), ("together", &together), ("mean", &mean)] {
        let fixed = count(photos, queries, DEFAULT_FACE_THRESHOLD);
        let calibrated = size_aware(photos, queries, false);
        println!(
            "SEVERAL_SELFIES {rule:<8} recall {} precision {} ({}/{}) size-aware recall {} precision {} ({}/{}, {} false)",
            pct(fixed.recall()),
            pct(fixed.precision()),
            fixed.tp,
            fixed.tp + fixed.fn_,
            pct(calibrated.recall()),
            pct(calibrated.precision()),
            calibrated.tp,
            calibrated.tp + calibrated.fn_,
            calibrated.fp
        );
    }
    Ok(())
}

fn analyse(engine: &FaceEngine, dir: &Path, label: PhotoLabel, decode_edge: u32) -> Result<Photo> {
    let bytes = std::fs::read(dir.join(&label.file))?;
    let img = decode(
        &bytes,
        &DecodeOptions::default().with_target_long_edge(decode_edge),
    )?;
    let (width, _) = raceshot_vision::image_io::probe(&bytes)?.display_size();
    let scale = width as f32 / img.width().max(1) as f32;
    let up = |b: BBox| BBox {
        x1: b.x1 * scale,
        y1: b.y1 * scale,
        x2: b.x2 * scale,
        y2: b.y2 * scale,
    };
    let detections = engine
        .detect(&img)?
        .into_iter()
        .map(|d| up(d.bbox))
        .collect();
    let faces = engine
        .analyze(&img)?
        .into_iter()
        .map(|mut f| {
            f.bbox = up(f.bbox);
            f
        })
        .collect();
    Ok(Photo {
        label,
        faces,
        detections,
        bibs: Vec::new(),
        worn: Vec::new(),
    })
}

/// Reads the bibs of an analysed photo as ingestion does (the server's `read_photo_bibs`,
/// as its `read_bibs` job calls it): the photo decoded as [`analyse`] decodes it, its
/// faces' boxes brought back into the decoded image's pixels for the reader, and each line
/// read kept when it is a bib of an event's default [`BibRule`], its box in the photo's
/// pixels. Then each bib goes to the face it sits under, as the server tells which bib a
/// face wears ([`worn`]).
fn read_bibs(reader: &TextReader, dir: &Path, p: &mut Photo, decode_edge: u32) -> Result<()> {
    let bytes = std::fs::read(dir.join(&p.label.file))?;
    let img = decode(
        &bytes,
        &DecodeOptions::default().with_target_long_edge(decode_edge),
    )?;
    let (width, _) = raceshot_vision::image_io::probe(&bytes)?.display_size();
    let scale = f64::from(width) / f64::from(img.width().max(1));
    let corners = |b: &BBox| [b.x1, b.y1, b.x2, b.y2].map(f64::from);
    let boxes: Vec<BBox> = p
        .faces
        .iter()
        .map(|f| {
            let [x1, y1, x2, y2] = corners(&f.bbox).map(|v| (v / scale) as f32);
            BBox { x1, y1, x2, y2 }
        })
        .collect();
    let faces: Vec<[f64; 4]> = p.faces.iter().map(|f| corners(&f.bbox)).collect();
    let rule = BibRule::default();
    let read: Vec<(Bib, Option<[f64; 4]>)> = reader
        .read_photo(&img, &boxes)?
        .into_iter()
        .filter_map(|line| {
            let bib = rule.parse(&line.text).ok()?;
            Some((bib, Some(corners(&line.bbox).map(|v| v * scale))))
        })
        .collect();
    p.bibs = read.iter().map(|(bib, _)| bib.clone()).collect();
    p.worn = worn(&faces, read);
    Ok(())
}

/// How well the bibs were read (`BIBS read`): per appearance wearing a bib, searched
/// people's and strangers' apart, whether the face found on it ([`label_of`]) wears that
/// bib, another, or none (an appearance with no face found on it wears none); then how many
/// bibs were read on the photos and how many of those are no bib of their photo.
fn bibs_read(photos: &[Photo], selfies: &[Query], reading: &str) {
    let searched: HashSet<&str> = selfies.iter().map(|(who, _)| who.as_str()).collect();
    let rule = BibRule::default();
    let label_bib = |l: &FaceLabel| l.bib.as_deref().and_then(|t| rule.parse(t).ok());
    // Per group: read right, read wrong, not read, of which on no analysed face.
    let mut counts = [[0usize; 4]; 2];
    let (mut read, mut foreign) = (0usize, 0usize);
    for p in photos {
        for l in &p.label.faces {
            let Some(bib) = label_bib(l) else {
                continue;
            };
            let row = &mut counts[usize::from(!searched.contains(l.identity.as_str()))];
            let face = p
                .faces
                .iter()
                .position(|f| label_of(p, f).is_some_and(|m| std::ptr::eq(m, l)));
            match face.map(|i| p.worn_by(i)) {
                Some(Some(worn)) if *worn == bib => row[0] += 1,
                Some(Some(_)) => row[1] += 1,
                Some(None) => row[2] += 1,
                None => {
                    row[2] += 1;
                    row[3] += 1;
                }
            }
        }
        read += p.bibs.len();
        foreign += p
            .bibs
            .iter()
            .filter(|b| {
                !p.label
                    .faces
                    .iter()
                    .any(|l| label_bib(l).as_ref() == Some(*b))
            })
            .count();
    }
    let [mine, strangers] = counts;
    println!(
        "BIBS read: searched people's appearances {} right, {} wrong, {} not read ({} on no analysed face); strangers' {} right, {} wrong, {} not read ({} on no analysed face); {read} bibs read, {foreign} of them no bib of their photo ({reading})",
        mine[0], mine[1], mine[2], mine[3], strangers[0], strangers[1], strangers[2], strangers[3]
    );
}

#[derive(Default)]
struct Counts {
    tp: usize,
    fp: usize,
    fn_: usize,
}

impl Counts {
    /// One (person, photo) pair: whether the search found the person there, and whether
    /// they are there.
    fn add(&mut self, found: bool, here: bool) {
        match (found, here) {
            (true, true) => self.tp += 1,
            (true, false) => self.fp += 1,
            (false, true) => self.fn_ += 1,
            (false, false) => {}
        }
    }

    fn precision(&self) -> Option<f64> {
        let all = self.tp + self.fp;
        (all > 0).then(|| self.tp as f64 / all as f64)
    }
    fn recall(&self) -> Option<f64> {
        let all = self.tp + self.fn_;
        (all > 0).then(|| self.tp as f64 / all as f64)
    }
}

/// A face's score for a search: its best similarity to the search's selfies.
fn score(q: &[Embedding], f: &AnalyzedFace) -> f32 {
    q.iter()
        .map(|e| cosine(e, &f.embedding))
        .fold(f32::MIN, f32::max)
}

/// Whether a search matches `f` outright with one view: the view's score reaches its
/// threshold for the face's width class.
fn reaches(q: &Query, t: &Thresholds, f: &AnalyzedFace) -> bool {
    score(&q.1, f) >= t.of_class(class_of(f))
}

fn best(photo: &Photo, q: &[Embedding]) -> Option<f32> {
    photo.faces.iter().map(|f| score(q, f)).reduce(f32::max)
}

fn count(photos: &[Photo], selfies: &[Query], threshold: f32) -> Counts {
    count_at(photos, selfies, Thresholds::uniform(threshold))
}

/// Recall and precision over every (person, photo) pair, each face matched at its width
/// class's threshold, the same for every search.
fn count_at(photos: &[Photo], selfies: &[Query], thresholds: Thresholds) -> Counts {
    count_any(photos, &[(selfies, &vec![thresholds; selfies.len()])])
}

/// [`count_at`] for several views of the same people, each with each search's thresholds:
/// a face matches when any view of the person reaches its threshold.
fn count_any(photos: &[Photo], views: &[(&[Query], &PerQuery)]) -> Counts {
    let mut c = Counts::default();
    let Some((people, _)) = views.first() else {
        return c;
    };
    for p in photos {
        let present: HashSet<&str> = p.label.faces.iter().map(|f| f.identity.as_str()).collect();
        for (i, (who, _)) in people.iter().enumerate() {
            let found = p.faces.iter().any(|f| {
                views
                    .iter()
                    .any(|(queries, t)| reaches(&queries[i], &t[i], f))
            });
            c.add(found, present.contains(who.as_str()));
        }
    }
    c
}

fn iou(a: &BBox, b: &[f32; 4]) -> f32 {
    let w = (a.x2.min(b[2]) - a.x1.max(b[0])).max(0.0);
    let h = (a.y2.min(b[3]) - a.y1.max(b[1])).max(0.0);
    let inter = w * h;
    let union = (a.x2 - a.x1) * (a.y2 - a.y1) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
    if union > 0.0 { inter / union } else { 0.0 }
}

/// Recall by face width, and where each missed face was lost.
fn explain_misses(photos: &[Photo], selfies: &[Query]) {
    let query: BTreeMap<&str, &[Embedding]> = selfies
        .iter()
        .map(|(w, e)| (w.as_str(), e.as_slice()))
        .collect();
    // Per width bin: faces, found, never detected, dropped by the gate, not similar.
    let mut bins = [[0usize; 5]; WIDTH_BINS.len()];
    for p in photos {
        for f in &p.label.faces {
            let row = &mut bins[usize::from(size_class(f.bbox[2] - f.bbox[0]))];
            row[0] += 1;
            let Some(q) = query.get(f.identity.as_str()) else {
                continue;
            };
            let indexed = p.faces.iter().find(|a| iou(&a.bbox, &f.bbox) >= MATCH_IOU);
            let found = best(p, q).is_some_and(|s| s >= DEFAULT_FACE_THRESHOLD);
            if found {
                row[1] += 1;
            } else if !p.detections.iter().any(|d| iou(d, &f.bbox) >= MATCH_IOU) {
                row[2] += 1;
            } else if indexed.is_none() {
                row[3] += 1;
            } else {
                row[4] += 1;
            }
        }
    }
    println!(
        "face width (px)   faces  found  recall  never detected  dropped by gate  not similar"
    );
    for (i, row) in bins.iter().enumerate() {
        let range = bin_name(i);
        let recall = (row[0] > 0).then(|| row[1] as f64 / row[0] as f64);
        println!(
            "{range:<16}{:>7}{:>7}{:>8}{:>16}{:>17}{:>13}",
            row[0],
            row[1],
            pct(recall),
            row[2],
            row[3],
            row[4]
        );
    }
}

fn class_of(f: &AnalyzedFace) -> u8 {
    size_class(f.bbox.x2 - f.bbox.x1)
}

fn bin_name(i: usize) -> String {
    let low = if i == 0 { 0.0 } else { WIDTH_BINS[i - 1] };
    let high = WIDTH_BINS[i];
    if high.is_finite() {
        format!("{low:.0}–{high:.0}")
    } else {
        format!("{low:.0}+")
    }
}

/// Whether an analysed face is labelled as `who`.
fn is_of(p: &Photo, f: &AnalyzedFace, who: &str) -> bool {
    p.label
        .faces
        .iter()
        .any(|l| l.identity == who && iou(&f.bbox, &l.bbox) >= MATCH_IOU)
}

/// The upper tail of the standard normal at `z` (Abramowitz and Stegun 7.1.26, error
/// below 1.5e-7): enough to name the rate a threshold implies.
fn normal_tail(z: f64) -> f64 {
    let x = z.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erfc = poly * (-x * x).exp();
    if z >= 0.0 {
        erfc / 2.0
    } else {
        1.0 - erfc / 2.0
    }
}

/// The z at which [`normal_tail`] falls to `rate` (bisection).
fn normal_quantile(rate: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 10.0);
    for _ in 0..60 {
        let mid = (lo + hi) / 2.0;
        if normal_tail(mid) > rate {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// The size-aware threshold: each width bin's where strangers' scores, fitted by a
/// normal, leave [`STRANGER_RATE`]; then recall and precision with it (each fit printed
/// when `report`).
fn size_aware(photos: &[Photo], selfies: &[Query], report: bool) -> Counts {
    count_at(
        photos,
        selfies,
        calibrate(photos, selfies, STRANGER_RATE, report),
    )
}

/// Each width bin's threshold where strangers' scores, fitted by a normal, leave `rate`
/// per comparison (each fit printed when `report`).
fn calibrate(photos: &[Photo], selfies: &[Query], rate: f64, report: bool) -> Thresholds {
    let mut strangers: Vec<Vec<f64>> = vec![Vec::new(); WIDTH_BINS.len()];
    for p in photos {
        for (who, q) in selfies {
            for f in p.faces.iter().filter(|f| !is_of(p, f, who)) {
                strangers[usize::from(class_of(f))].push(f64::from(score(q, f)));
            }
        }
    }
    let z = normal_quantile(rate);
    if report {
        println!(
            "size-aware threshold (strangers fitted by a normal per bin, {rate:e} per comparison):"
        );
        println!(
            "face width (px)  strangers    mean     sd     max  threshold  rate at {DEFAULT_FACE_THRESHOLD}"
        );
    }
    let mut thresholds = [DEFAULT_FACE_THRESHOLD; WIDTH_BINS.len()];
    for (i, sims) in strangers.iter().enumerate() {
        if sims.len() < 2 {
            continue;
        }
        let n = sims.len() as f64;
        let mean = sims.iter().sum::<f64>() / n;
        let sd = (sims.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        let max = sims.iter().copied().fold(f64::MIN, f64::max);
        let t = mean + z * sd;
        thresholds[i] = t as f32;
        let rate = normal_tail((f64::from(DEFAULT_FACE_THRESHOLD) - mean) / sd.max(1e-9));
        if report {
            println!(
                "{:<16}{:>10}{mean:>8.3}{sd:>7.3}{max:>8.3}{t:>11.3}{rate:>12.1e}",
                bin_name(i),
                sims.len()
            );
        }
    }
    Thresholds::new(thresholds)
}

/// Every false match of a way of setting thresholds (the shop's own: each search's, both
/// views), with the view that made it, so a reader can look at it.
fn list_false_matches(photos: &[Photo], views: &[(&str, &[Query], &PerQuery)]) {
    for p in photos {
        for (view, queries, thresholds) in views {
            for ((who, q), t) in queries.iter().zip(thresholds.iter()) {
                if p.label.faces.iter().any(|f| &f.identity == who) {
                    continue;
                }
                for f in &p.faces {
                    let (s, at) = (score(q, f), t.of_class(class_of(f)));
                    if s < at {
                        continue;
                    }
                    let b = f.bbox;
                    let near = label_of(p, f).map_or("no labelled face", |l| l.identity.as_str());
                    println!(
                        "false match ({view}): {who} in {} at cosine {s:.3} (threshold {at:.3}), box {:.0},{:.0} {:.0}x{:.0} ({near})",
                        p.label.file,
                        b.x1,
                        b.y1,
                        b.width(),
                        b.height()
                    );
                }
            }
        }
    }
}

fn pct(v: Option<f64>) -> String {
    v.map_or_else(|| "n/a".to_owned(), |v| format!("{:.1}%", v * 100.0))
}

/// The lookalike guard of the shop's search ([`raceshot_vision::lookalike`]): a photo the
/// sharp selfie finds at the shop's threshold `shop` is kept; one found only below it (by
/// each search's fitted thresholds or the distant view: weak matches) is kept only when
/// one of its weak matches resembles one of the runner's surest appearances (the sharp
/// selfie scores them [`SURE_MARGIN`] above `shop`) in another photo, at least the gate.
/// A lookalike's faces resemble each other more than they resemble the runner's. Every
/// weak-only pair's resemblance is reported, the true ones' least and the false ones'
/// most, then recall and precision at each of [`GUARD_GATES`], `shop_gate` marked.
///
/// A runner's appearances in a set are made from few photos of the person, so two of them
/// made from the same photo resemble each other more than two photos taken across a course
/// would. Recall is therefore given twice: counting every surest appearance, and counting
/// only those made from another photo of the person than the weak match (`cross-source`;
/// a person whose appearances all come from one photo then has no support at all, so this
/// one errs the other way). Lookalikes are other people, counted the same in both.
///
/// `with_bibs` (the photos' bibs read) measures the guard as the shop runs it with bibs: a
/// weak-only pair is also kept when one of its weak matches wears the runner's bib, the
/// one most of the same surest appearances wear ([`Guarded::with_bibs`]), at each gate from
/// the shop's up. A bib read under a face does not rest on the face's pixels, so with
/// bibs the cross-source recall is the fair one.
fn lookalike_guard(
    photos: &[Photo],
    views: &[(&str, &[Query], &PerQuery)],
    shop: f32,
    shop_gate: f32,
    with_bibs: bool,
) {
    let Some((_, sharp, _)) = views.first() else {
        return;
    };
    let sure_at = shop + SURE_MARGIN;
    // Every (person, photo) pair, person by person.
    let mut pairs: Vec<Seen> = Vec::new();
    // For each runner whose appearances are made from two photos or more: the weak-only
    // true pairs, and how many the shop's gate keeps counting any surest appearance and
    // only those of another source photo. These runners are where `cross-source` is fair.
    let mut several: Vec<(&str, usize, usize, Vec<f32>)> = Vec::new();
    for (i, (who, selfie)) in sharp.iter().enumerate() {
        let sources: BTreeSet<&str> = photos
            .iter()
            .flat_map(|p| &p.label.faces)
            .filter(|l| &l.identity == who)
            .filter_map(|l| l.source.as_deref())
            .collect();
        let first = pairs.len();
        // As the shop: the best face of each photo the sharp selfie scores at `sure_at`,
        // the [`MOST_SURE`] surest.
        let mut surest: Vec<(usize, usize, &AnalyzedFace)> = photos
            .iter()
            .enumerate()
            .filter_map(|(pi, p)| {
                let (fi, best) = p
                    .faces
                    .iter()
                    .enumerate()
                    .max_by(|a, b| score(selfie, a.1).total_cmp(&score(selfie, b.1)))?;
                (score(selfie, best) >= sure_at).then_some((pi, fi, best))
            })
            .collect();
        surest.sort_by(|a, b| score(selfie, b.2).total_cmp(&score(selfie, a.2)));
        surest.truncate(MOST_SURE);
        let mut weak_faces: Vec<(usize, usize, &AnalyzedFace)> = Vec::new();
        for (pi, p) in photos.iter().enumerate() {
            let here = p.label.faces.iter().any(|l| &l.identity == who);
            let matched = p
                .faces
                .iter()
                .enumerate()
                .filter(|(_, f)| views.iter().any(|(_, q, t)| reaches(&q[i], &t[i], f)));
            let (mut plain, mut weak) = (false, None::<[f32; 2]>);
            for (fi, f) in matched {
                if score(selfie, f) >= shop {
                    plain = true;
                    continue;
                }
                weak_faces.push((pi, fi, f));
                let made_from = label_of(p, f);
                let mut most = [f32::MIN; 2];
                for (other, _, s) in surest.iter().filter(|(other, _, _)| *other != pi) {
                    let resemblance = cosine(&s.embedding, &f.embedding);
                    most[0] = most[0].max(resemblance);
                    if !same_source(made_from, label_of(&photos[*other], s)) {
                        most[1] = most[1].max(resemblance);
                    }
                }
                weak = Some(weak.map_or(most, |w| [w[0].max(most[0]), w[1].max(most[1])]));
            }
            pairs.push(Seen {
                here,
                plain,
                weak,
                bib: false,
            });
        }
        if with_bibs {
            // The shop's vote: the surest appearances' bibs tell the runner's, and each weak
            // match wearing it stays (the faces numbered in `seen`, the surest first).
            let seen: Vec<(usize, usize, &AnalyzedFace)> =
                surest.iter().copied().chain(weak_faces).collect();
            let hit = |id: usize| {
                let (pi, _, f) = seen[id];
                Hit::new(pi as i64, id as i64, score(selfie, f))
            };
            let guarded = Guarded {
                kept: Vec::new(),
                unvouched: (surest.len()..seen.len()).map(hit).collect(),
                sure: (0..surest.len()).map(hit).collect(),
            };
            let worn = |id: i64| {
                let (pi, fi, _) = seen[id as usize];
                photos[pi].worn_by(fi)
            };
            for h in guarded.with_bibs(worn) {
                pairs[first + h.photo_id as usize].bib = true;
            }
        }
        if sources.len() >= 2 {
            let weak: Vec<[f32; 2]> = pairs[first..]
                .iter()
                .filter(|p| p.here && !p.plain)
                .filter_map(|p| p.weak)
                .collect();
            let kept = weak.iter().filter(|w| w[0] >= shop_gate).count();
            let cross = weak.iter().map(|w| w[1]).collect();
            several.push((who.as_str(), sources.len(), kept, cross));
        }
    }
    let weak_only = |true_ones: bool| {
        pairs
            .iter()
            .filter(move |p| !p.plain && p.here == true_ones)
            .filter_map(|p| p.weak.map(|w| w[0]))
    };
    let (trues, falses) = (weak_only(true).count(), weak_only(false).count());
    let least_true = weak_only(true).reduce(f32::min);
    let most_false = weak_only(false).reduce(f32::max);
    let show = |v: Option<f32>| v.map_or_else(|| "none".to_owned(), |v| format!("{v:.2}"));
    println!(
        "LOOKALIKE_GUARD kept at {shop:.2}, sure at {sure_at:.2}: weak-only pairs {trues} true (least resemblance {}), {falses} false (most {})",
        show(least_true),
        show(most_false)
    );
    if with_bibs {
        let by_bib = |true_ones: bool| {
            pairs
                .iter()
                .filter(|p| !p.plain && p.bib && p.here == true_ones)
                .count()
        };
        println!(
            "LOOKALIKE_GUARD bibs: the runner's bib is worn under {} of the {trues} true weak-only pairs and {} of the {falses} false ones",
            by_bib(true),
            by_bib(false)
        );
    }
    // Recall and precision keeping, beside the pairs found at the threshold, the weak-only
    // ones `keep` keeps (given the pair's resemblances and whether it wears the bib).
    let count = |keep: &dyn Fn(&Option<[f32; 2]>, bool) -> bool| {
        let mut c = Counts::default();
        for p in &pairs {
            c.add(p.plain || keep(&p.weak, p.bib), p.here);
        }
        c
    };
    let without = count(&|weak, _| weak.is_some());
    for gate in GUARD_GATES {
        let with = count(&|weak, _| weak.is_some_and(|w| w[0] >= gate));
        let cross = count(&|weak, _| weak.is_some_and(|w| w[1] >= gate));
        let shops = if gate == shop_gate {
            " (the shop's)"
        } else {
            ""
        };
        println!(
            "LOOKALIKE_GUARD gate {gate:.2}{shops}: recall {} -> {} (cross-source {}) precision {} -> {} ({} -> {} false)",
            pct(without.recall()),
            pct(with.recall()),
            pct(cross.recall()),
            pct(without.precision()),
            pct(with.precision()),
            without.fp,
            with.fp
        );
        if with_bibs && gate >= shop_gate {
            let with = count(&|weak, bib| bib || weak.is_some_and(|w| w[0] >= gate));
            let cross = count(&|weak, bib| bib || weak.is_some_and(|w| w[1] >= gate));
            println!(
                "LOOKALIKE_GUARD gate {gate:.2} with bibs: recall {} (cross-source {}) precision {} ({} false)",
                pct(with.recall()),
                pct(cross.recall()),
                pct(with.precision()),
                with.fp
            );
        }
    }
    for (who, sources, kept, resemblances) in several {
        let weak = resemblances.len();
        let cross = resemblances.iter().filter(|&&r| r >= shop_gate).count();
        let resemblances: Vec<String> = resemblances.iter().map(|r| format!("{r:.2}")).collect();
        println!(
            "LOOKALIKE_GUARD {who} ({sources} source photos): {weak} true pairs found only by weak matches, the shop's gate keeps {kept}, {cross} on another source photo's surest appearance (resemblance to those: {})",
            resemblances.join(" ")
        );
    }
}

/// What [`lookalike_guard`] saw of one (person, photo) pair.
struct Seen {
    /// The person is in the photo.
    here: bool,
    /// The sharp selfie finds the photo at the shop's threshold.
    plain: bool,
    /// The most a weak match on the photo resembles one of the person's surest faces on
    /// another photo: any of them, and those made from another source photo (`None`: no
    /// weak match).
    weak: Option<[f32; 2]>,
    /// A weak match on the photo wears the runner's bib.
    bib: bool,
}

/// The labelled face a detected face of `p` falls on, if any.
fn label_of<'a>(p: &'a Photo, f: &AnalyzedFace) -> Option<&'a FaceLabel> {
    p.label
        .faces
        .iter()
        .find(|l| iou(&f.bbox, &l.bbox) >= MATCH_IOU)
}

/// Whether two labelled faces are the same person made from the same photo.
fn same_source(a: Option<&FaceLabel>, b: Option<&FaceLabel>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => {
            a.identity == b.identity && a.source.is_some() && a.source == b.source
        }
        _ => false,
    }
}
