//! Bib and text reading: PaddleOCR's PP-OCR text detector (DB) and CTC recogniser, run
//! on the same runtime as the face engine (OpenVINO by default; see below), so a runner
//! can also be found by the number on their bib.
//!
//! A whole 24 MP frame is too large to read in one pass (the detector would need it at
//! thousands of pixels to see a small bib, seconds of CPU), so [`TextReader::read_photo`]
//! reads where bibs are: under each face ([`torso_region`]), at a scale set by the face's
//! size, with overlapping torsos merged into one crop; plus one whole-frame pass at a
//! moderate size for bibs whose face was not found (turned away, hidden, too small).
//! Detection runs on downscaled crops; recognition crops each text box from the full
//! image, so digits are read at the best resolution the photo has.
//!
//! Pre- and post-processing follow PaddleOCR's: detector input in BGR with sides a
//! multiple of 32, normalised with the ImageNet mean and deviation; boxes from the
//! probability map by [`db`] (axis-aligned, which suits upright bibs); recogniser input
//! 48 px high, `(x / 255 - 0.5) / 0.5`, BGR; greedy CTC decoding by [`ctc`] with the
//! character list stored in the recogniser's metadata. The recogniser is loaded with its
//! output layer cut to the Latin-script classes (`crate::model_file`), the only ones a bib needs.
//!
//! The two models run on the face engine's runtime (`runtime`, from `faces.runtime`):
//! OpenVINO by default (bf16 where the CPU computes it natively, else f32), or ONNX Runtime
//! in f32 (`onnxruntime`); the runtime in use is loaded once per process
//! ([`crate::engine`]). On a CPU with AMX, ONNX Runtime took 142 ms for a text detection
//! OpenVINO runs in 19 (docs/benchmarks.md, Decisions the figures made). [`TextReader`] is
//! `Send + Sync`.

pub mod ctc;
pub mod db;

use std::borrow::Cow;
use std::path::PathBuf;

use serde::Deserialize;

use crate::config::{
    DEFAULT_OPENVINO_LIBRARY, DEFAULT_RUNTIME_LIBRARY, FaceEngineConfig, FaceRuntime,
    OpenVinoPrecision, resolve,
};
use crate::detect::BBox;
use crate::error::{Error, Result};
use crate::image_io::{self, RgbImage};
use crate::model_file;
use crate::runtime::{RuntimeModel, RuntimeSetup, SessionThreads, existing, read_model};

use self::ctc::Charset;
use self::db::{DbParams, MapBox};

/// Height of the recogniser's input, fixed by the PP-OCR recognisers.
pub const REC_HEIGHT: u32 = 48;
/// Widest recogniser input: longer lines are squeezed (a bib number is far shorter).
const REC_MAX_WIDTH: u32 = 320;
/// Narrowest line image (a single "1" is several times taller than wide).
const REC_MIN_WIDTH: u32 = 16;
/// Narrowest recogniser input: shorter lines are padded to it. A lone digit read from a
/// 30 px wide input scores a third of what it scores with some margin (measured on the
/// bib set: "3" at 0.33 unpadded, 0.99 at 64; PaddleOCR pads every line to 320).
const REC_MIN_INPUT: u32 = 64;
/// Recogniser inputs are padded to a width that is a multiple of this, so the runtime sees
/// 9 input widths rather than 257. OpenVINO prepares and keeps buffers per input shape;
/// with widths to the pixel, reading the bib set took 5–13 % longer and race ingestion
/// with bib reading peaked 0.04–0.15 GB higher (docs/benchmarks.md, Decisions the figures
/// made). PaddleOCR pads every line to 320, so a few grey columns more read the same.
const REC_WIDTH_MULTIPLE: u32 = 32;
/// Lines per recogniser run. Measured on 2 cores: larger batches of padded lines cost
/// more per line than they save in per-run overhead.
const REC_BATCH: usize = 4;
/// Detector input sides are multiples of this (the network's total stride).
const DET_MULTIPLE: u32 = 32;
/// PaddleOCR's detector normalisation (ImageNet), applied in its BGR channel order.
const DET_MEAN: [f32; 3] = [0.485, 0.456, 0.406];
const DET_STD: [f32; 3] = [0.229, 0.224, 0.225];
/// Text boxes lower than this in the photo cannot be read and are not recognised.
const MIN_TEXT_PX: f32 = 8.0;
/// Two boxes are the same text when their intersection covers this much of the smaller.
const SAME_BOX_OVERLAP: f32 = 0.5;

/// Configuration of the text reader. The server nests it like the face engine's
/// configuration (e.g. under `bibs`); every key has a default.
///
/// | key                 | default                         | meaning |
/// |---------------------|---------------------------------|---------|
/// | `models_dir`        | `models`                        | directory the file names are relative to |
/// | `detector_file`     | `ocr/PP-OCRv6_det_small.onnx`   | PaddleOCR DB text detector (absolute paths are used as given) |
/// | `recognizer_file`   | `ocr/PP-OCRv6_rec_small.onnx`   | PaddleOCR CTC recogniser with its `character` list in the metadata |
/// | `runtime`           | `openvino`                      | what runs the two models: `openvino` or `onnxruntime` (the server passes `faces.runtime`) |
/// | `openvino_library`  | `<models_dir>/openvino/libopenvino_c.so` | OpenVINO, a path used as given; must be the library the face engine loads |
/// | `openvino_precision`| `auto`                          | as the face engine's (`faces.openvino_precision`) |
/// | `runtime_library`   | `<models_dir>/libonnxruntime.so` | ONNX Runtime, a path used as given; must be the library the face engine loads |
/// | `intra_threads`     | `1`                             | threads per inference (0 = ONNX Runtime's choice) |
/// | `sessions`          | `0`                             | sessions per model (0 = one per CPU core) |
/// | `min_confidence`    | `0.8`                           | lines read with a lower mean probability of their characters (among the classes read) are dropped |
/// | `latin_only`        | `true`                          | read only Latin letters, digits and punctuation: the recogniser, which also knows CJK and reads bib borders as 日, is loaded with its classifier cut to those classes |
/// | `face_px`           | `32`                            | a torso crop is scaled so its face would be this tall (detector pixels) |
/// | `frame_max_side`    | `512`                           | long edge of the whole-frame pass (0 = no such pass) |
/// | `max_regions`       | `12`                            | torso crops per photo at most (largest faces first) |
/// | `max_lines`         | `40`                            | text boxes recognised per photo at most (best detector score first) |
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TextReaderConfig {
    pub models_dir: PathBuf,
    pub detector_file: String,
    pub recognizer_file: String,
    pub runtime: FaceRuntime,
    /// `None` means `<models_dir>/openvino/libopenvino_c.so`, as for the face engine.
    pub openvino_library: Option<PathBuf>,
    pub openvino_precision: OpenVinoPrecision,
    /// `None` means `<models_dir>/libonnxruntime.so`, as for the face engine.
    pub runtime_library: Option<PathBuf>,
    pub intra_threads: usize,
    pub sessions: usize,
    pub min_confidence: f32,
    /// Read only Latin-script classes: the recogniser is loaded with its classifier cut
    /// to them (`model_file::keep_classes`, [`ctc::Charset::latin_classes`]).
    pub latin_only: bool,
    /// Torso crops are scaled so the face above them would be this many pixels tall in
    /// the detector's input (never enlarged more than 2×): bib digits, about half a face
    /// tall, then stand 11–18 px high, which the detector still finds (measured on the
    /// bib set: 40 px reads 1 % more bibs for 70 % more detector time).
    pub face_px: f32,
    /// Long edge of the whole-frame pass (0 = none). On the bib set it finds a tenth of
    /// the bibs, those whose torso crop missed them; 512 finds as many as 640 for 60 %
    /// of the time.
    pub frame_max_side: u32,
    pub max_regions: usize,
    pub max_lines: usize,
}

impl Default for TextReaderConfig {
    fn default() -> Self {
        Self {
            models_dir: PathBuf::from("models"),
            detector_file: "ocr/PP-OCRv6_det_small.onnx".to_string(),
            recognizer_file: "ocr/PP-OCRv6_rec_small.onnx".to_string(),
            runtime: FaceRuntime::OpenVino,
            openvino_library: None,
            openvino_precision: OpenVinoPrecision::Auto,
            runtime_library: None,
            intra_threads: 1,
            sessions: 0,
            min_confidence: 0.8,
            latin_only: true,
            face_px: 32.0,
            frame_max_side: 512,
            max_regions: 12,
            max_lines: 40,
        }
    }
}

impl TextReaderConfig {
    /// A default configuration rooted at another models directory.
    pub fn with_models_dir(dir: impl Into<PathBuf>) -> Self {
        Self {
            models_dir: dir.into(),
            ..Self::default()
        }
    }

    /// The default reader beside the face engine `faces`: from its models directory, on
    /// its runtime (the libraries it loads, once per process) and with its threads.
    pub fn beside(faces: &FaceEngineConfig) -> Self {
        Self {
            runtime: faces.runtime,
            openvino_library: Some(faces.openvino_library_path()),
            openvino_precision: faces.openvino_precision,
            runtime_library: Some(faces.runtime_library_path()),
            intra_threads: faces.intra_threads,
            sessions: faces.effective_sessions(),
            ..Self::with_models_dir(&faces.models_dir)
        }
    }

    pub fn detector_path(&self) -> PathBuf {
        self.models_dir.join(&self.detector_file)
    }

    pub fn recognizer_path(&self) -> PathBuf {
        self.models_dir.join(&self.recognizer_file)
    }

    pub fn runtime_library_path(&self) -> PathBuf {
        let explicit = self.runtime_library.as_deref();
        resolve(&self.models_dir, explicit, DEFAULT_RUNTIME_LIBRARY)
    }

    pub fn openvino_library_path(&self) -> PathBuf {
        let explicit = self.openvino_library.as_deref();
        resolve(&self.models_dir, explicit, DEFAULT_OPENVINO_LIBRARY)
    }

    /// Sessions per model after resolving 0 to the number of CPU cores.
    pub fn effective_sessions(&self) -> usize {
        if self.sessions > 0 {
            self.sessions
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get().min(16))
        }
    }

    /// Every problem with the values (not the files: loading reports those).
    pub fn problems(&self) -> Vec<String> {
        let mut p = Vec::new();
        if !(0.0..=1.0).contains(&self.min_confidence) {
            p.push(format!(
                "bibs.min_confidence must be in [0, 1], got {}",
                self.min_confidence
            ));
        }
        if !(self.face_px.is_finite() && (8.0..=256.0).contains(&self.face_px)) {
            p.push(format!(
                "bibs.face_px must be between 8 and 256, got {}",
                self.face_px
            ));
        }
        if self.frame_max_side != 0 && !(64..=4096).contains(&self.frame_max_side) {
            p.push(format!(
                "bibs.frame_max_side must be 0 (off) or between 64 and 4096, got {}",
                self.frame_max_side
            ));
        }
        if self.sessions > 64 {
            p.push(format!(
                "bibs.sessions must be between 0 (one per core) and 64, got {}",
                self.sessions
            ));
        }
        if self.max_lines > 1000 {
            p.push(format!(
                "bibs.max_lines must be at most 1000, got {}",
                self.max_lines
            ));
        }
        p
    }
}

/// One line of text read in a photo. `bbox` is in the pixels of the image given to the
/// reader; `confidence` is the mean probability of its characters.
#[derive(Debug, Clone, PartialEq)]
pub struct TextLine {
    pub text: String,
    pub confidence: f32,
    pub bbox: BBox,
}

/// A detected text box in the photo's pixels, before recognition.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Found {
    bbox: BBox,
    score: f32,
}

/// The loaded text reader. Cheap to share (`Arc<TextReader>`); all methods take `&self`.
pub struct TextReader {
    config: TextReaderConfig,
    db: DbParams,
    detector: RuntimeModel,
    recognizer: RuntimeModel,
    charset: Charset,
}

impl std::fmt::Debug for TextReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextReader")
            .field("detector", &self.config.detector_path())
            .field("recognizer", &self.config.recognizer_path())
            .finish_non_exhaustive()
    }
}

impl TextReader {
    /// Validates the configuration, loads the runtime (once per process, shared with the
    /// face engine) and both models, reads the recogniser's character list, and checks
    /// with a dry run that the models answer in the expected shapes.
    pub fn load(config: TextReaderConfig) -> Result<Self> {
        let problems = config.problems();
        if !problems.is_empty() {
            return Err(Error::Config(problems));
        }
        let detector_path = existing(config.detector_path(), "text detector model")?;
        let recognizer_path = existing(config.recognizer_path(), "text recognizer model")?;
        let threads = SessionThreads {
            sessions: config.effective_sessions(),
            intra: config.intra_threads,
            inter: 1,
        };
        let on = RuntimeSetup {
            runtime: config.runtime,
            openvino_library: config.openvino_library_path(),
            openvino_precision: config.openvino_precision,
            onnxruntime_library: config.runtime_library_path(),
            threads,
        };
        let detector_model = read_model(&detector_path)?;
        let detector = RuntimeModel::load(&on, &detector_model, &detector_path, "text detector")?;
        let model = read_model(&recognizer_path)?;
        let list = model_file::metadata(&model, "character")?.ok_or_else(|| {
            Error::Model(
                "text recognizer has no `character` list in its metadata (a PaddleOCR export from rapidocr carries one)"
                    .into(),
            )
        })?;
        let charset = Charset::from_metadata(&list);
        let (model, charset) = if config.latin_only {
            let keep = charset.latin_classes();
            let cut = model_file::keep_classes(&model, charset.classes(), &keep)?;
            (cut, charset.only(&keep))
        } else {
            (model, charset)
        };
        let recognizer = RuntimeModel::load(&on, &model, &recognizer_path, "text recognizer")?;
        let reader = Self {
            db: DbParams::default(),
            detector,
            recognizer,
            charset,
            config,
        };
        reader.probe()?;
        tracing::info!(
            detector = %detector_path.display(),
            recognizer = %recognizer_path.display(),
            characters = reader.charset.classes() - 2,
            runtime = reader.recognizer.runtime(),
            sessions = reader.detector.sessions(),
            "text reader loaded"
        );
        Ok(reader)
    }

    pub fn config(&self) -> &TextReaderConfig {
        &self.config
    }

    /// The runtime running the text models and its precision, e.g. `openvino bf16`.
    pub fn runtime(&self) -> String {
        self.recognizer.runtime()
    }

    /// Dry runs on blank inputs: the detector must answer one map of its input's size,
    /// the recogniser one class per character (plus blank and space) per time step.
    fn probe(&self) -> Result<()> {
        let blank = RgbImage::filled(64, 64, [255, 255, 255]);
        self.detect(&blank, full(&blank), 64)?;
        let line = RgbImage::filled(96, REC_HEIGHT, [255, 255, 255]);
        self.recognize_batch(&[line]).map(|_| ())
    }

    /// Reads the text of a photo around its runners: one torso crop under each face
    /// (merged when they overlap) and one whole-frame pass at a moderate size for bibs
    /// whose face was not found. Boxes in `img` pixels; duplicates (same text,
    /// overlapping boxes) merged keeping the best confidence.
    pub fn read_photo(&self, img: &RgbImage, faces: &[BBox]) -> Result<Vec<TextLine>> {
        let mut found = Vec::new();
        for (region, face_h) in
            torso_regions(faces, img.width(), img.height(), self.config.max_regions)
        {
            let scale = (self.config.face_px / face_h.max(1.0)).min(2.0);
            let long = region.width().max(region.height());
            let max_side = (long * scale).round().clamp(32.0, 4096.0) as u32;
            found.extend(self.detect(img, region, max_side)?);
        }
        if self.config.frame_max_side > 0 {
            found.extend(self.detect(img, full(img), self.config.frame_max_side)?);
        }
        let boxes = dedupe_boxes(found, self.config.max_lines);
        self.recognize(img, &boxes)
    }

    /// Finds and reads text lines in `region` of `img`, the region scaled so its long
    /// edge is at most `max_side` (never upscaled more than 2×). Boxes in `img` pixels.
    pub fn read_region(
        &self,
        img: &RgbImage,
        region: BBox,
        max_side: u32,
    ) -> Result<Vec<TextLine>> {
        let found = self.detect(img, region, max_side)?;
        let boxes = dedupe_boxes(found, self.config.max_lines);
        self.recognize(img, &boxes)
    }

    /// Runs the detector on `region` (clamped to the image; empty gives nothing) scaled
    /// to at most `max_side`, and returns its text boxes in `img` pixels, best first.
    fn detect(&self, img: &RgbImage, region: BBox, max_side: u32) -> Result<Vec<Found>> {
        let Some((x0, y0, w, h)) = pixel_rect(&region, img.width(), img.height()) else {
            return Ok(Vec::new());
        };
        let long = w.max(h) as f32;
        let scale = (max_side.max(1) as f32 / long).min(2.0);
        let side = |v: u32| {
            let s = (v as f32 * scale / DET_MULTIPLE as f32).round() as u32;
            s.clamp(1, 4096 / DET_MULTIPLE) * DET_MULTIPLE
        };
        let (iw, ih) = (side(w), side(h));
        let crop = crop(img, x0, y0, w, h);
        let scaled = image_io::resize_exact(&crop, iw, ih);
        let shape = [1usize, 3, ih as usize, iw as usize];
        let fill = |input: &mut [f32]| det_tensor(&scaled, input);
        let boxes: Vec<MapBox> = self.detector.run(&shape, fill, |outputs| {
            let output = outputs
                .first()
                .ok_or_else(|| Error::Model("text detector has no output".into()))?;
            let (dims, map) = (&output.shape, output.values);
            // [1, 1, H, W]: one probability per input pixel.
            if dims.len() != 4 || dims[2] != i64::from(ih) || dims[3] != i64::from(iw) {
                return Err(Error::Model(format!(
                    "text detector answered shape {dims:?} for a {iw}x{ih} input; expected a DB probability map"
                )));
            }
            Ok(db::boxes_from_map(
                map,
                iw as usize,
                ih as usize,
                &self.db,
            ))
        })?;
        let (sx, sy) = (w as f32 / iw as f32, h as f32 / ih as f32);
        let (ox, oy) = (x0 as f32, y0 as f32);
        Ok(boxes
            .into_iter()
            .map(|b| Found {
                bbox: BBox {
                    x1: ox + b.x1 * sx,
                    y1: oy + b.y1 * sy,
                    x2: ox + b.x2 * sx,
                    y2: oy + b.y2 * sy,
                },
                score: b.score,
            })
            .filter(|f| f.bbox.height() >= MIN_TEXT_PX && f.bbox.width() >= MIN_TEXT_PX * 0.5)
            .collect())
    }

    /// Recognises each box, cropped from the full image; keeps lines with text and a
    /// confidence of at least `min_confidence`, then merges duplicates.
    fn recognize(&self, img: &RgbImage, boxes: &[Found]) -> Result<Vec<TextLine>> {
        let mut lines: Vec<(RgbImage, BBox)> = Vec::with_capacity(boxes.len());
        for f in boxes {
            let Some((x0, y0, w, h)) = pixel_rect(&f.bbox, img.width(), img.height()) else {
                continue;
            };
            let c = crop(img, x0, y0, w, h);
            let width = ((REC_HEIGHT as f32 * w as f32 / h as f32).ceil() as u32)
                .clamp(REC_MIN_WIDTH, REC_MAX_WIDTH);
            lines.push((image_io::resize_exact(&c, width, REC_HEIGHT), f.bbox));
        }
        // Similar widths together, so a batch pads little.
        lines.sort_by_key(|(l, _)| l.width());
        let mut out = Vec::new();
        for chunk in lines.chunks(REC_BATCH) {
            let crops: Vec<RgbImage> = chunk.iter().map(|(l, _)| l.clone()).collect();
            let read = self.recognize_batch(&crops)?;
            for ((text, confidence), (_, bbox)) in read.into_iter().zip(chunk) {
                let text = text.trim().to_string();
                if !text.is_empty() && confidence >= self.config.min_confidence {
                    out.push(TextLine {
                        text,
                        confidence,
                        bbox: *bbox,
                    });
                }
            }
        }
        Ok(dedupe_lines(out))
    }

    /// Runs the recogniser on lines already `REC_HEIGHT` high, padded to the widest.
    fn recognize_batch(&self, lines: &[RgbImage]) -> Result<Vec<(String, f32)>> {
        let Some(width) = lines.iter().map(RgbImage::width).max() else {
            return Ok(Vec::new());
        };
        let width = rec_input_width(width);
        let shape = [lines.len(), 3, REC_HEIGHT as usize, width as usize];
        let fill = |input: &mut [f32]| rec_tensor(lines, width, input);
        self.recognizer.run(&shape, fill, |outputs| {
            let output = outputs
                .first()
                .ok_or_else(|| Error::Model("text recognizer has no output".into()))?;
            let (dims, probs) = (&output.shape, output.values);
            let classes = self.charset.classes();
            let ok = dims.len() == 3
                && dims[0] == lines.len() as i64
                && dims[2] == classes as i64
                && probs.len() == lines.len() * dims[1].max(0) as usize * classes;
            if !ok {
                return Err(Error::Model(format!(
                    "text recognizer answered shape {dims:?}; expected [{}, steps, {classes}] for its {} characters plus blank and space",
                    lines.len(),
                    classes - 2
                )));
            }
            let per_line = probs.len() / lines.len().max(1);
            Ok(probs
                .chunks_exact(per_line.max(1))
                .map(|p| ctc::decode(p, classes, &self.charset))
                .collect())
        })
    }
}

/// The recogniser's input width for a batch whose widest line is `widest` pixels wide:
/// at least [`REC_MIN_INPUT`], a multiple of [`REC_WIDTH_MULTIPLE`], never past
/// [`REC_MAX_WIDTH`] (lines are squeezed to it).
fn rec_input_width(widest: u32) -> u32 {
    widest
        .max(REC_MIN_INPUT)
        .next_multiple_of(REC_WIDTH_MULTIPLE)
        .min(REC_MAX_WIDTH)
}

/// Where a bib can be, for a face: below it, about 3 face-widths wide and a few
/// face-heights tall, clamped to the image.
///
/// From the chin down to 4 face heights below it (chest to shorts, where bibs are
/// pinned), 3 face widths centred on the face. `None` for an empty face or when the
/// region falls outside the image (a face at the very bottom).
pub fn torso_region(face: &BBox, width: u32, height: u32) -> Option<BBox> {
    let (fw, fh) = (face.width(), face.height());
    if !(fw > 0.0 && fh > 0.0 && fw.is_finite() && fh.is_finite()) {
        return None;
    }
    let (cx, _) = face.center();
    let (w, h) = (width as f32, height as f32);
    let r = BBox {
        x1: (cx - 1.5 * fw).clamp(0.0, w),
        y1: face.y2.clamp(0.0, h),
        x2: (cx + 1.5 * fw).clamp(0.0, w),
        y2: (face.y2 + 4.0 * fh).clamp(0.0, h),
    };
    (r.width() >= 1.0 && r.height() >= 1.0).then_some(r)
}

/// Which of a photo's `faces` (boxes x1, y1, x2, y2) wears the bib at `bib`, by its
/// index: among the faces the bib sits under (its centre below the face's chin, within
/// four face heights, and within one and a half face widths of the face's centre line:
/// inside [`torso_region`]), the nearest. A bib with no box (an operator put it on the
/// photo) is worn by the photo's only face, if it has one.
pub fn wearer(faces: &[[f64; 4]], bib: Option<[f64; 4]>) -> Option<usize> {
    let Some([x1, y1, x2, y2]) = bib else {
        return (faces.len() == 1).then_some(0);
    };
    let (cx, cy) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
    faces
        .iter()
        .enumerate()
        .filter_map(|(i, &[fx1, fy1, fx2, fy2])| {
            let (w, h) = (fx2 - fx1, fy2 - fy1);
            if !(w > 0.0 && h > 0.0) {
                return None;
            }
            let below = cy - fy2;
            let aside = (cx - (fx1 + fx2) / 2.0).abs();
            (below > 0.0 && below < 4.0 * h && aside < 1.5 * w).then_some((below / h, i))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, i)| i)
}

/// The bib each of a photo's `faces` wears, by index: each of `bibs` (a bib and its box)
/// goes to its [`wearer`]; a face two different bibs sit under wears neither.
pub fn worn<B: PartialEq>(
    faces: &[[f64; 4]],
    bibs: impl IntoIterator<Item = (B, Option<[f64; 4]>)>,
) -> Vec<Option<B>> {
    // Per face: no bib yet, its one bib, or two different ones (`Some(None)`).
    let mut under: Vec<Option<Option<B>>> = faces.iter().map(|_| None).collect();
    for (bib, at) in bibs {
        let Some(i) = wearer(faces, at) else {
            continue;
        };
        under[i] = match under[i].take() {
            None => Some(Some(bib)),
            Some(Some(one)) if one == bib => Some(Some(one)),
            Some(_) => Some(None),
        };
    }
    under.into_iter().map(Option::flatten).collect()
}

/// The torso regions of `faces`, overlapping ones merged into their bounding box, each
/// with the median height of its faces (which sets its scale). The `max_regions` largest
/// faces count; smaller ones are left to the whole-frame pass.
fn torso_regions(faces: &[BBox], width: u32, height: u32, max_regions: usize) -> Vec<(BBox, f32)> {
    let mut sorted: Vec<&BBox> = faces.iter().collect();
    sorted.sort_by(|a, b| b.height().total_cmp(&a.height()));
    let mut groups: Vec<(BBox, Vec<f32>)> = sorted
        .into_iter()
        .take(max_regions)
        .filter_map(|f| torso_region(f, width, height).map(|r| (r, vec![f.height()])))
        .collect();
    // Merge until no two regions overlap; a handful of regions, so quadratic is fine.
    let mut merged = true;
    while merged {
        merged = false;
        'outer: for i in 0..groups.len() {
            for j in i + 1..groups.len() {
                if intersection(&groups[i].0, &groups[j].0) > 0.0 {
                    let (b, hs) = groups.swap_remove(j);
                    let g = &mut groups[i];
                    g.0 = union(&g.0, &b);
                    g.1.extend(hs);
                    merged = true;
                    break 'outer;
                }
            }
        }
    }
    groups
        .into_iter()
        .map(|(b, mut hs)| {
            hs.sort_by(f32::total_cmp);
            let median = hs.get(hs.len() / 2).copied().unwrap_or(1.0);
            (b, median)
        })
        .collect()
}

fn full(img: &RgbImage) -> BBox {
    BBox {
        x1: 0.0,
        y1: 0.0,
        x2: img.width() as f32,
        y2: img.height() as f32,
    }
}

fn intersection(a: &BBox, b: &BBox) -> f32 {
    let w = (a.x2.min(b.x2) - a.x1.max(b.x1)).max(0.0);
    let h = (a.y2.min(b.y2) - a.y1.max(b.y1)).max(0.0);
    w * h
}

fn union(a: &BBox, b: &BBox) -> BBox {
    BBox {
        x1: a.x1.min(b.x1),
        y1: a.y1.min(b.y1),
        x2: a.x2.max(b.x2),
        y2: a.y2.max(b.y2),
    }
}

/// Whether two boxes hold the same text: their intersection covers most of the smaller.
fn same_place(a: &BBox, b: &BBox) -> bool {
    let smaller = a.area().min(b.area());
    smaller > 0.0 && intersection(a, b) >= SAME_BOX_OVERLAP * smaller
}

/// Boxes found by several passes, each place kept once (the best detector score wins),
/// at most `max` of them, best first.
fn dedupe_boxes(mut found: Vec<Found>, max: usize) -> Vec<Found> {
    found.sort_by(|a, b| b.score.total_cmp(&a.score));
    let mut keep: Vec<Found> = Vec::new();
    for f in found {
        if keep.len() >= max {
            break;
        }
        if !keep.iter().any(|k| same_place(&k.bbox, &f.bbox)) {
            keep.push(f);
        }
    }
    keep
}

/// Lines with the same text at overlapping places, kept once with the best confidence;
/// best confidence first.
fn dedupe_lines(mut lines: Vec<TextLine>) -> Vec<TextLine> {
    lines.sort_by(|a, b| b.confidence.total_cmp(&a.confidence));
    let mut keep: Vec<TextLine> = Vec::new();
    for l in lines {
        if !keep
            .iter()
            .any(|k| k.text == l.text && intersection(&k.bbox, &l.bbox) > 0.0)
        {
            keep.push(l);
        }
    }
    keep
}

/// The integer pixel rectangle `(x, y, w, h)` covering `b` within a `width` x `height`
/// image, or `None` when nothing of it is inside (or it is not finite).
fn pixel_rect(b: &BBox, width: u32, height: u32) -> Option<(u32, u32, u32, u32)> {
    if ![b.x1, b.y1, b.x2, b.y2].iter().all(|v| v.is_finite()) {
        return None;
    }
    let (w, h) = (width as f32, height as f32);
    let x0 = b.x1.floor().clamp(0.0, w) as u32;
    let y0 = b.y1.floor().clamp(0.0, h) as u32;
    let x1 = b.x2.ceil().clamp(0.0, w) as u32;
    let y1 = b.y2.ceil().clamp(0.0, h) as u32;
    (x1 > x0 && y1 > y0).then(|| (x0, y0, x1 - x0, y1 - y0))
}

/// A copy of the `w` x `h` rectangle at (`x`, `y`), which must lie inside `img`
/// ([`pixel_rect`] makes sure of it); the whole image is borrowed, not copied.
fn crop(img: &RgbImage, x: u32, y: u32, w: u32, h: u32) -> Cow<'_, RgbImage> {
    if (x, y, w, h) == (0, 0, img.width(), img.height()) {
        return Cow::Borrowed(img);
    }
    // The rectangle is inside the image, so it is never empty; a plain fill is the
    // harmless answer if it ever were.
    Cow::Owned(
        img.crop(x, y, w, h)
            .unwrap_or_else(|| RgbImage::filled(w, h, [0, 0, 0])),
    )
}

/// Detector input, written into `t` (3 planes of `img`'s size): NCHW, channels in BGR
/// order, ImageNet-normalised.
fn det_tensor(img: &RgbImage, t: &mut [f32]) {
    let plane = img.width() as usize * img.height() as usize;
    let (b, rest) = t.split_at_mut(plane);
    let (g, r) = rest.split_at_mut(plane);
    let norm = |v: u8, c: usize| (f32::from(v) / 255.0 - DET_MEAN[c]) / DET_STD[c];
    for (i, px) in img.data().chunks_exact(3).enumerate() {
        b[i] = norm(px[2], 0);
        g[i] = norm(px[1], 1);
        r[i] = norm(px[0], 2);
    }
}

/// Recogniser input, written into `t` (3 planes of `width` x `REC_HEIGHT` per line):
/// NCHW, BGR, `(x / 255 - 0.5) / 0.5`, each line left-aligned and padded on the right with
/// zeros (mid-grey after normalisation, as PaddleOCR pads).
fn rec_tensor(lines: &[RgbImage], width: u32, t: &mut [f32]) {
    let (w, h) = (width as usize, REC_HEIGHT as usize);
    let plane = w * h;
    // The runtime may hand back the last run's input.
    t.fill(0.0);
    for (line, out) in lines.iter().zip(t.chunks_exact_mut(plane * 3)) {
        let lw = line.width() as usize;
        let (b, rest) = out.split_at_mut(plane);
        let (g, r) = rest.split_at_mut(plane);
        for (y, row) in line.data().chunks_exact(lw * 3).enumerate().take(h) {
            for (x, px) in row.chunks_exact(3).enumerate().take(w) {
                let i = y * w + x;
                b[i] = f32::from(px[2]) / 127.5 - 1.0;
                g[i] = f32::from(px[1]) / 127.5 - 1.0;
                r[i] = f32::from(px[0]) / 127.5 - 1.0;
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn bb(x1: f32, y1: f32, x2: f32, y2: f32) -> BBox {
        BBox { x1, y1, x2, y2 }
    }

    #[test]
    fn each_face_wears_the_one_bib_under_it() {
        let faces = [[100.0, 100.0, 150.0, 160.0], [400.0, 90.0, 450.0, 150.0]];
        let chest = |x: f64| Some([x - 30.0, 220.0, x + 30.0, 260.0]);
        // One bib on each chest; a misread second bib on the right runner's: neither.
        let bibs = [
            ("12", chest(125.0)),
            ("34", chest(425.0)),
            ("84", chest(430.0)),
        ];
        assert_eq!(worn(&faces, bibs), vec![Some("12"), None]);
        // The same bib read twice stays; one between the two runners is nobody's.
        let bibs = [
            ("12", chest(125.0)),
            ("12", chest(126.0)),
            ("56", chest(275.0)),
        ];
        assert_eq!(worn(&faces, bibs), vec![Some("12"), None]);
        // A bib with no box is the only face's, and nobody's among two.
        assert_eq!(worn(&faces[..1], [("78", None)]), vec![Some("78")]);
        assert_eq!(worn(&faces, [("78", None)]), vec![None, None]);
    }

    #[test]
    fn torso_is_below_the_face_three_widths_wide_and_clamped() {
        let face = bb(100.0, 50.0, 140.0, 100.0);
        let t = torso_region(&face, 1000, 1000).unwrap();
        assert_eq!(t, bb(60.0, 100.0, 180.0, 300.0));
        let t = torso_region(&face, 150, 200).unwrap();
        assert_eq!(t, bb(60.0, 100.0, 150.0, 200.0));
        assert!(torso_region(&bb(0.0, 190.0, 10.0, 200.0), 100, 200).is_none());
        assert!(torso_region(&bb(5.0, 5.0, 5.0, 9.0), 100, 100).is_none());
        assert!(torso_region(&bb(f32::NAN, 5.0, 9.0, 9.0), 100, 100).is_none());
    }

    #[test]
    fn overlapping_torsos_merge_and_keep_the_median_face_height() {
        let faces = [
            bb(100.0, 50.0, 140.0, 100.0),
            bb(150.0, 60.0, 180.0, 90.0),
            bb(600.0, 50.0, 640.0, 90.0),
        ];
        let mut regions = torso_regions(&faces, 1000, 1000, 10);
        regions.sort_by(|a, b| a.0.x1.total_cmp(&b.0.x1));
        assert_eq!(regions.len(), 2, "{regions:?}");
        assert_eq!(regions[0].0, bb(60.0, 90.0, 210.0, 300.0));
        assert_eq!(regions[0].1, 50.0);
        assert_eq!(regions[1].1, 40.0);
        assert_eq!(torso_regions(&faces, 1000, 1000, 1).len(), 1);
        assert!(torso_regions(&[], 1000, 1000, 10).is_empty());
    }

    #[test]
    fn duplicate_boxes_and_lines_are_kept_once() {
        let f = |x: f32, score: f32| Found {
            bbox: bb(x, 0.0, x + 40.0, 20.0),
            score,
        };
        let kept = dedupe_boxes(vec![f(0.0, 0.7), f(5.0, 0.9), f(100.0, 0.8)], 10);
        assert_eq!(kept.iter().map(|k| k.score).collect::<Vec<_>>(), [0.9, 0.8]);
        assert_eq!(dedupe_boxes(vec![f(0.0, 0.7), f(100.0, 0.8)], 1).len(), 1);
        let l = |text: &str, x: f32, confidence: f32| TextLine {
            text: text.to_string(),
            confidence,
            bbox: bb(x, 0.0, x + 40.0, 20.0),
        };
        let kept = dedupe_lines(vec![
            l("123", 0.0, 0.8),
            l("123", 30.0, 0.95),
            l("128", 10.0, 0.9),
            l("123", 500.0, 0.6),
        ]);
        let got: Vec<(&str, f32)> = kept
            .iter()
            .map(|k| (k.text.as_str(), k.confidence))
            .collect();
        assert_eq!(got, [("123", 0.95), ("128", 0.9), ("123", 0.6)]);
    }

    #[test]
    fn pixel_rects_are_clamped_and_crops_copy_the_right_pixels() {
        assert_eq!(
            pixel_rect(&bb(-5.0, 1.5, 3.2, 9.0), 4, 4),
            Some((0, 1, 4, 3))
        );
        assert_eq!(pixel_rect(&bb(5.0, 0.0, 9.0, 2.0), 4, 4), None);
        assert_eq!(pixel_rect(&bb(f32::NAN, 0.0, 9.0, 2.0), 4, 4), None);
        let data: Vec<u8> = (0..4 * 3 * 3).map(|v| v as u8).collect();
        let img = RgbImage::new(4, 3, data).unwrap();
        let c = crop(&img, 1, 1, 2, 2);
        assert_eq!(c.pixel(0, 0), img.pixel(1, 1));
        assert_eq!(c.pixel(1, 1), img.pixel(2, 2));
        assert!(matches!(crop(&img, 0, 0, 4, 3), Cow::Borrowed(_)));
    }

    #[test]
    fn tensors_are_bgr_and_padded_with_grey() {
        let img = RgbImage::filled(2, 1, [255, 0, 0]);
        let mut t = vec![f32::NAN; 6];
        det_tensor(&img, &mut t);
        // B plane first: blue 0 -> -mean/std.
        assert!((t[0] - (-0.485 / 0.229)).abs() < 1e-5);
        assert!((t[4] - (1.0 - 0.406) / 0.225).abs() < 1e-5);
        let line = RgbImage::filled(1, REC_HEIGHT, [255, 0, 0]);
        let plane = 2 * REC_HEIGHT as usize;
        // Whatever the buffer held (a reused input), the padding is grey.
        let mut t = vec![f32::NAN; 3 * plane];
        rec_tensor(&[line], 2, &mut t);
        assert_eq!((t[0], t[1]), (-1.0, 0.0));
        assert_eq!(t[2 * plane], 1.0);
    }

    #[test]
    fn recogniser_widths_come_in_steps_of_32_from_64_to_320() {
        let widths: Vec<u32> = [1, 64, 65, 96, 97, 300, REC_MAX_WIDTH]
            .map(rec_input_width)
            .to_vec();
        assert_eq!(widths, [64, 64, 96, 96, 128, 320, 320]);
        let all: std::collections::BTreeSet<u32> = (REC_MIN_WIDTH..=REC_MAX_WIDTH)
            .map(rec_input_width)
            .collect();
        assert_eq!(all.len(), 9);
    }

    #[test]
    fn config_defaults_and_problems() {
        let c = TextReaderConfig::with_models_dir("/m");
        assert_eq!(
            c.detector_path(),
            PathBuf::from("/m/ocr/PP-OCRv6_det_small.onnx")
        );
        assert_eq!(
            c.runtime_library_path(),
            PathBuf::from("/m/libonnxruntime.so")
        );
        assert_eq!(
            c.openvino_library_path(),
            PathBuf::from("/m/openvino/libopenvino_c.so")
        );
        // The face engine's convention: a path given is used as it is, not under models_dir.
        let given = TextReaderConfig {
            openvino_library: Some(PathBuf::from("./models/openvino/libopenvino_c.so")),
            runtime_library: Some(PathBuf::from("/opt/ort/libonnxruntime.so")),
            ..c.clone()
        };
        assert_eq!(
            given.openvino_library_path(),
            PathBuf::from("./models/openvino/libopenvino_c.so")
        );
        assert_eq!(
            given.runtime_library_path(),
            PathBuf::from("/opt/ort/libonnxruntime.so")
        );
        assert!(c.problems().is_empty());
        let bad = TextReaderConfig {
            min_confidence: 2.0,
            face_px: 0.0,
            frame_max_side: 10,
            ..c
        };
        assert_eq!(bad.problems().len(), 3);
        let c: TextReaderConfig = serde_json::from_str(r#"{"frame_max_side": 0}"#).unwrap();
        assert_eq!(c.frame_max_side, 0);
        assert!(serde_json::from_str::<TextReaderConfig>(r#"{"frame": 1}"#).is_err());
    }

    #[test]
    fn reader_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<TextReader>();
    }
}
