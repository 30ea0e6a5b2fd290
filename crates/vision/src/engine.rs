//! The face engine: loads the inference runtime and the two models of the configured pair
//! (`faces.model_pair`: SCRFD + w600k_mbf, or YuNet + SFace) once, and runs
//! detect -> quality gate -> align -> embed on decoded images. Both pairs align to the
//! same 5-point ArcFace template at 112 x 112; only the detector's decoding, input order
//! and normalisation, and the embedding's length differ ([`PreparedModels`]).
//!
//! Event photos are detected in at most two passes. An ordinary photo gets the configured
//! long edge (1600: the crowd) and a coarse pass (640: close-up faces, which SCRFD misses
//! when they are a few hundred pixels in its input). A photo decoded at least 1.25 times
//! larger than the long edge (a 24 MP frame is decoded at 3000) gets instead a fine pass
//! at up to 3000, never enlarged (the distant runners, too small at 1600), beside a main
//! pass at `detector.with_fine_long_edge` (640), which also finds the close-ups. Each pass
//! answers for the face sizes it sees best ([`crate::detect::Pass`]); they are merged by
//! NMS in the photo's pixels before the quality gate, so each face is embedded once. There
//! is no tiling: the fine pass is the whole frame. Selfies, whose faces are large, get one
//! pass at their own long edge; a face search also embeds the selfie's face seen from
//! afar ([`distant_view`], [`FaceEngine::embed_distant`]). Figures: docs/benchmarks.md,
//! Decisions the figures made.
//!
//! Two runtimes read the same ONNX files (`faces.runtime`): OpenVINO ([`crate::runtime`], the
//! default; bf16 on CPUs that compute it natively) and ONNX Runtime (f32). On ONNX Runtime
//! the recogniser is loaded with its `PRelu`s computed as `Max(x, slope * x)`
//! ([`crate::model_file`]; `recognizer.prelu_as_max`): the same embeddings, bit for bit,
//! at about half the CPU per face. Each [`RuntimeModel`] hands the engine its outputs as
//! shapes and `f32` slices, whatever runs it.
//!
//! Both runtimes are loaded dynamically from the models directory (their Python wheels
//! ship self-contained libraries; `ort`'s own download of binaries cannot work on our
//! machines), once per process and only when `faces.runtime` names them. Each lives in a
//! process-wide `OnceLock` shared with the text reader ([`crate::ocr`]), which runs on the
//! same runtime as the faces. A model runs one inference per session at a time (`ort`
//! needs `&mut Session`), so each keeps a small pool of sessions behind mutexes;
//! `FaceEngine` is `Send + Sync` and meant to be shared in an `Arc`.

use crate::align;
use crate::config::{DetectorFamily, FaceEngineConfig, FaceRuntime, ModelPair};
use crate::detect::{self, BBox, Detection, InputGeometry, Landmarks, LevelOutputs};
use crate::embed::{self, Embedding};
use crate::error::{Error, Result};
use crate::image_io::{RgbImage, resize_exact};
use crate::model_file;
use crate::runtime::{RuntimeModel, RuntimeSetup, SessionThreads, existing, read_model};

/// A face found, kept by the quality gate, and embedded. Coordinates are in the pixels of
/// the image given to [`FaceEngine::analyze`].
#[derive(Debug, Clone, PartialEq)]
pub struct AnalyzedFace {
    pub bbox: BBox,
    pub landmarks: Landmarks,
    pub score: f32,
    pub embedding: Embedding,
}

/// A selfie's faces: the primary one (the largest, most central), embedded, and the boxes
/// of all the faces kept by the quality gate, the primary's among them.
#[derive(Debug, Clone, PartialEq)]
pub struct SelfieFaces {
    pub primary: AnalyzedFace,
    pub boxes: Vec<BBox>,
}

/// How many pixels span a selfie's distant view ([`distant_view`]) for a 112 px crop: what
/// a face 35–45 px wide in a photo gives, the middle of the faces a sharp selfie misses
/// most (docs/benchmarks.md).
pub const DISTANT_FACE_PX: u32 = 40;

/// An aligned face crop as a face [`DISTANT_FACE_PX`] pixels across gives it: shrunk with
/// an antialiasing filter (each of a sensor's pixels gathers the light of its area) and
/// enlarged back bilinearly, as the alignment enlarges a small face.
pub fn distant_view(crop: &RgbImage) -> RgbImage {
    let span = |side: u32| (DISTANT_FACE_PX * side).div_ceil(112).max(1);
    let small = resize_exact(crop, span(crop.width()), span(crop.height()));
    resize_exact(&small, crop.width(), crop.height())
}

/// Faces embedded per recogniser run. Small batches are the fastest since the PReLU
/// rewrite: with MobileFaceNet, 1, 2 and 4 faces a run cost the same per face within
/// noise, 8 about 10 % more and 16 about 17 % more (their activations no longer fit the
/// cache); ingestion with 16 spent 8–9 % more CPU per photo than with 1
/// (docs/benchmarks.md, Decisions the figures made).
const EMBED_BATCH: usize = 2;

/// YuNet's image input, as OpenCV names it.
const YUNET_INPUT: &str = "input";

/// The two model files as the runtime gets them, edited in memory ([`crate::model_file`]):
/// on the YuNet/SFace pair, their block-quantised weights folded to floats and YuNet's
/// input freed to any size; the detector reading 8-bit RGB (or BGR) rows; on ONNX Runtime,
/// the recogniser's `PRelu`s as `Max`. The files on disk are never changed, so a file's
/// checksum and the edits' (tested) identify what runs.
pub struct PreparedModels {
    pub detector_path: std::path::PathBuf,
    pub detector: Vec<u8>,
    /// The detector image input's NCHW dimensions as declared (-1 where any size goes).
    pub detector_dims: Vec<i64>,
    pub recognizer_path: std::path::PathBuf,
    pub recognizer: Vec<u8>,
    /// `DequantizeLinear` nodes folded, detector and recogniser.
    pub folded: (usize, usize),
    pub prelus_rewritten: usize,
}

impl PreparedModels {
    /// Reads and edits the configured pair's files.
    pub fn read(config: &FaceEngineConfig) -> Result<Self> {
        let detector_path = existing(config.detector_path(), "face detector model")?;
        let recognizer_path = existing(config.recognizer_path(), "face recognizer model")?;
        let pair = config.model_pair;
        let mut detector = read_model(&detector_path)?;
        let mut recognizer = read_model(&recognizer_path)?;
        let mut folded = (0, 0);
        if pair == ModelPair::YuNetSFace {
            (detector, folded.0) = model_file::fold_dequantize(&detector)?;
            detector = model_file::free_image_size(&detector, YUNET_INPUT)?;
            (recognizer, folded.1) = model_file::fold_dequantize(&recognizer)?;
        }
        // The detector reads 8-bit rows and normalises them itself.
        let (mean, std) = config.detector_normalisation();
        let (detector, detector_dims) =
            model_file::rgb_u8_input(&detector, mean, std, pair.detector_bgr())?;
        let (recognizer, prelus_rewritten) =
            if config.runtime == FaceRuntime::OnnxRuntime && config.recognizer.prelu_as_max {
                model_file::prelu_as_max(&recognizer)?
            } else {
                (recognizer, 0)
            };
        Ok(Self {
            detector_path,
            detector,
            detector_dims,
            recognizer_path,
            recognizer,
            folded,
            prelus_rewritten,
        })
    }
}

/// The loaded engine. Cheap to share (`Arc<FaceEngine>`); all methods take `&self`.
pub struct FaceEngine {
    config: FaceEngineConfig,
    detector: RuntimeModel,
    /// Largest stride of the detector: input sides are padded to a multiple of it.
    detector_multiple: u32,
    /// `(width, height)` when the detector export only accepts one input size.
    detector_fixed: Option<(u32, u32)>,
    recognizer: RuntimeModel,
    /// Whether the recogniser accepts a batch dimension other than 1.
    recognizer_batches: bool,
    /// How many of the recogniser's `PRelu`s run as `Max(x, slope * x)`.
    prelus_rewritten: usize,
}

impl std::fmt::Debug for FaceEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FaceEngine")
            .field("detector", &self.config.detector_path())
            .field("recognizer", &self.config.recognizer_path())
            .finish_non_exhaustive()
    }
}

impl FaceEngine {
    /// Validates the configuration, loads the runtime (once per process) and both models,
    /// and checks with a dry run that the models answer in the expected shapes, so a wrong
    /// file fails at start-up rather than on the first photo.
    pub fn load(config: FaceEngineConfig) -> Result<Self> {
        let problems = config.problems();
        if !problems.is_empty() {
            return Err(Error::Config(problems));
        }
        let threads = SessionThreads {
            sessions: config.effective_sessions(),
            intra: config.intra_threads,
            inter: config.inter_threads,
        };
        let PreparedModels {
            detector_path,
            detector: detector_model,
            detector_dims,
            recognizer_path,
            recognizer: recognizer_model,
            prelus_rewritten,
            ..
        } = PreparedModels::read(&config)?;
        let on = RuntimeSetup {
            runtime: config.runtime,
            openvino_library: config.openvino_library_path(),
            openvino_precision: config.openvino_precision,
            onnxruntime_library: config.runtime_library_path(),
            threads,
        };
        // Both load at once (on OpenVINO, each compiles on its own core).
        let (detector, recognizer) = std::thread::scope(|s| {
            let recognizer = s.spawn(|| {
                RuntimeModel::load(&on, &recognizer_model, &recognizer_path, "recognizer")
            });
            let detector = RuntimeModel::load(&on, &detector_model, &detector_path, "detector");
            (detector, recognizer.join())
        });
        let recognizer =
            recognizer.map_err(|_| Error::Runtime("loading the recognizer panicked".into()))??;
        let detector = detector?;
        // NCHW as the file declares it; a positive H and W mean the export is fixed-size.
        let detector_fixed = match detector_dims.get(2..4) {
            Some(&[h, w]) if h > 0 && w > 0 => u32::try_from(w).ok().zip(u32::try_from(h).ok()),
            _ => None,
        };
        let recognizer_batches = recognizer.input_dims().first() != Some(&1);

        let mut engine = Self {
            config,
            detector,
            detector_multiple: 32,
            detector_fixed,
            recognizer,
            recognizer_batches,
            prelus_rewritten,
        };
        engine.detector_multiple = engine.probe_detector()?;
        engine.probe_recognizer()?;
        tracing::info!(
            model_pair = %engine.config.model_pair,
            licence = engine.config.model_pair.licence(),
            detector = %detector_path.display(),
            recognizer = %recognizer_path.display(),
            pad_multiple = engine.detector_multiple,
            batched_embeddings = engine.recognizer_batches,
            prelus_rewritten = engine.prelus_rewritten,
            runtime = engine.runtime(),
            sessions = engine.detector.sessions(),
            intra_threads = engine.config.intra_threads,
            "face engine loaded"
        );
        Ok(engine)
    }

    pub fn config(&self) -> &FaceEngineConfig {
        &self.config
    }

    /// How many of the recogniser's `PRelu`s were rewritten as `Max(x, slope * x)` at
    /// load (`recognizer.prelu_as_max`; 0 when it is off or the model has none).
    pub fn prelus_rewritten(&self) -> usize {
        self.prelus_rewritten
    }

    /// The runtime running the face models and its precision, e.g. `openvino bf16` or
    /// `onnxruntime f32` (`faces.runtime`, `faces.openvino_precision`).
    pub fn runtime(&self) -> String {
        self.recognizer.runtime()
    }

    /// Embedding dimension this engine produces (what a [`crate::FaceIndex`] must use).
    pub fn embedding_dim(&self) -> usize {
        self.config.embedding_dim()
    }

    /// The detector and recogniser this engine runs: what its embeddings are comparable
    /// with.
    pub fn model_pair(&self) -> ModelPair {
        self.config.model_pair
    }

    /// Runs the detector on a blank image to learn how many stride levels it has.
    fn probe_detector(&self) -> Result<u32> {
        let img = RgbImage::filled(128, 128, [0, 0, 0]);
        let geo = match self.detector_fixed {
            Some((w, h)) => InputGeometry::fixed(128, 128, w, h, 1.0),
            None => InputGeometry::new(128, 128, 128, 128, 1.0),
        };
        let levels = self.run_detector(&img, &geo, |levels| Ok(levels.len()))?;
        Ok(8 << (levels.saturating_sub(1)))
    }

    fn probe_recognizer(&self) -> Result<()> {
        let size = self.config.recognizer.input_size;
        let crop = RgbImage::filled(size, size, [128, 128, 128]);
        self.embed_crops(&[crop]).map(|_| ())
    }

    /// Detects faces in an event photo: at [`FaceEngine::main_edge_for`]; where
    /// [`FaceEngine::fine_edge_for`] says it adds anything, again at
    /// `detector.fine_long_edge` (only the faces the main pass sees under
    /// [`detect::FINE_MAIN_MAX_FACE_PX`] count); and where [`FaceEngine::coarse_edge_for`]
    /// says so, at `detector.coarse_long_edge` (only its faces of at least
    /// [`detect::COARSE_MIN_FACE_PX`] count). Duplicates across the passes are suppressed
    /// by NMS, the higher score winning ([`detect::merge_passes`]). Coordinates in `img`'s
    /// pixels, best score first.
    pub fn detect(&self, img: &RgbImage) -> Result<Vec<Detection>> {
        let cfg = &self.config.detector;
        let (w, h) = (img.width(), img.height());
        let main = self.geometry(img, self.main_edge_for(w, h));
        let fine = self
            .fine_edge_for(w, h)
            .map(|edge| detect::coarse_geometry(w, h, edge, self.detector_multiple));
        let coarse = self
            .coarse_edge_for(w, h)
            .map(|edge| detect::coarse_geometry(w, h, edge, self.detector_multiple));
        let main_dets = self.detect_pass(img, &main)?;
        let fine_dets = fine.map(|g| self.detect_pass(img, &g)).transpose()?;
        let coarse_dets = coarse.map(|g| self.detect_pass(img, &g)).transpose()?;
        let mut passes = vec![detect::Pass::main(main, &main_dets)];
        if let (Some(g), Some(dets)) = (fine, &fine_dets) {
            passes.push(detect::Pass::fine(g, dets, &main));
        }
        if let (Some(g), Some(dets)) = (coarse, &coarse_dets) {
            passes.push(detect::Pass::coarse(g, dets));
        }
        Ok(detect::merge_passes(&passes, cfg.nms_iou))
    }

    /// The long edge of the fine pass [`FaceEngine::detect`] runs on a `width` x `height`
    /// image, or `None` when it runs none: switched off, a fixed-size detector export, or
    /// an image the fine pass would not see at least [`detect::FINE_MIN_GROWTH`] times
    /// larger than the main pass.
    pub fn fine_edge_for(&self, width: u32, height: u32) -> Option<u32> {
        let cfg = &self.config.detector;
        self.extra_pass_edge(
            width,
            height,
            cfg.long_edge,
            cfg.fine_long_edge,
            detect::fine_pass_worthwhile,
        )
    }

    /// The long edge of the main pass [`FaceEngine::detect`] runs on a `width` x `height`
    /// image: `detector.long_edge`, or `detector.with_fine_long_edge` where that is lower
    /// and the image gets the fine pass, which answers for the small faces.
    pub fn main_edge_for(&self, width: u32, height: u32) -> u32 {
        let cfg = &self.config.detector;
        match self.fine_edge_for(width, height) {
            Some(_) => cfg.main_edge_beside_fine(),
            None => cfg.long_edge,
        }
    }

    /// The long edge event photos should be decoded at (at least) so that every detection
    /// pass sees the pixels it asks for: the larger of the main and the fine pass's.
    pub fn decode_long_edge(&self) -> u32 {
        let cfg = &self.config.detector;
        cfg.long_edge.max(cfg.fine_long_edge)
    }

    /// The long edge of the coarse pass [`FaceEngine::detect`] runs on a `width` x
    /// `height` image, or `None` when it runs none: switched off, a fixed-size detector
    /// export (every pass would get the same input, so a second one would repeat the
    /// first), or a coarse input not at least [`detect::COARSE_MIN_SHRINK`] times smaller
    /// than the main one ([`FaceEngine::main_edge_for`]).
    pub fn coarse_edge_for(&self, width: u32, height: u32) -> Option<u32> {
        let cfg = &self.config.detector;
        self.extra_pass_edge(
            width,
            height,
            self.main_edge_for(width, height),
            cfg.coarse_long_edge,
            detect::coarse_pass_worthwhile,
        )
    }

    /// `edge` when `worthwhile` says a pass at it adds to a main pass at `main_edge` on a
    /// `width` x `height` image, and the detector takes any input size (with a fixed-size
    /// export every pass would get the same input, so another one would repeat the first).
    fn extra_pass_edge(
        &self,
        width: u32,
        height: u32,
        main_edge: u32,
        edge: u32,
        worthwhile: fn(u32, u32, u32, u32, f32) -> bool,
    ) -> Option<u32> {
        let cfg = &self.config.detector;
        let runs = self.detector_fixed.is_none()
            && worthwhile(width, height, main_edge, edge, cfg.max_upscale);
        runs.then_some(edge)
    }

    /// Detects faces in one pass, with the image scaled so its long edge is at most
    /// `long_edge` (no coarse pass). Coordinates come back in `img`'s pixels.
    pub fn detect_at(&self, img: &RgbImage, long_edge: u32) -> Result<Vec<Detection>> {
        let geo = self.geometry(img, long_edge);
        let dets = self.detect_pass(img, &geo)?;
        Ok(dets.iter().map(|d| geo.to_original(d)).collect())
    }

    /// How `img` is fitted into the detector input for a pass at `long_edge`.
    fn geometry(&self, img: &RgbImage, long_edge: u32) -> InputGeometry {
        let cfg = &self.config.detector;
        match self.detector_fixed {
            Some((w, h)) => InputGeometry::fixed(img.width(), img.height(), w, h, cfg.max_upscale),
            None => InputGeometry::new(
                img.width(),
                img.height(),
                long_edge,
                self.detector_multiple,
                cfg.max_upscale,
            ),
        }
    }

    /// One detector run with `geo`: the detections after NMS, still in network-input
    /// pixels so that several passes can be merged.
    fn detect_pass(&self, img: &RgbImage, geo: &InputGeometry) -> Result<Vec<Detection>> {
        let cfg = &self.config.detector;
        let decode = match self.config.model_pair.detector_family() {
            DetectorFamily::Scrfd => detect::decode_level,
            DetectorFamily::YuNet => detect::decode_yunet_level,
        };
        let raw = self.run_detector(img, geo, |levels| {
            Ok(levels
                .iter()
                .flat_map(|l| decode(l, cfg.score_threshold))
                .collect::<Vec<_>>())
        })?;
        Ok(detect::nms(raw, cfg.nms_iou))
    }

    /// Runs the detector and hands the per-level outputs to `f` while the session's
    /// output buffers are still borrowed.
    fn run_detector<R>(
        &self,
        img: &RgbImage,
        geo: &InputGeometry,
        f: impl FnOnce(&[LevelOutputs<'_>]) -> Result<R>,
    ) -> Result<R> {
        let shape = [
            1usize,
            geo.input_height as usize,
            geo.input_width as usize,
            3,
        ];
        let fill = |input: &mut [u8]| detect::prepare_input_into(img, geo, input);
        self.detector.run(&shape, fill, |outputs| {
            let tensors: Vec<(usize, &[f32])> = outputs
                .iter()
                .map(|o| {
                    let last = o.shape.last().copied().unwrap_or(0);
                    (usize::try_from(last).unwrap_or(0), o.values)
                })
                .collect();
            let levels = group_levels(
                &tensors,
                geo.input_width as usize,
                geo.input_height as usize,
                self.config.model_pair.detector_family(),
            )?;
            f(&levels)
        })
    }

    /// Embeds aligned crops (each `input_size` square), in batches when the model allows.
    pub fn embed_crops(&self, crops: &[RgbImage]) -> Result<Vec<Embedding>> {
        let cfg = &self.config.recognizer;
        let size = cfg.input_size;
        if let Some(bad) = crops
            .iter()
            .find(|c| c.width() != size || c.height() != size)
        {
            return Err(Error::Model(format!(
                "aligned crop is {}x{}, recognizer wants {size}x{size}",
                bad.width(),
                bad.height()
            )));
        }
        let batch = if self.recognizer_batches {
            EMBED_BATCH
        } else {
            1
        };
        let mut out = Vec::with_capacity(crops.len());
        for chunk in crops.chunks(batch) {
            let (mean, std) = self.config.recognizer_normalisation();
            let data = embed::prepare_batch(chunk, mean, std);
            let shape = [chunk.len(), 3, size as usize, size as usize];
            let fill = |input: &mut [f32]| input.copy_from_slice(&data);
            let raw: Vec<f32> = self.recognizer.run(&shape, fill, |outputs| {
                let first = outputs
                    .first()
                    .ok_or_else(|| Error::Model("recognizer has no output".into()))?;
                Ok(first.values.to_vec())
            })?;
            let dim = self.embedding_dim();
            if raw.len() != dim * chunk.len() {
                return Err(Error::Dimension {
                    expected: dim,
                    got: raw.len() / chunk.len().max(1),
                });
            }
            for v in raw.chunks_exact(dim) {
                out.push(Embedding::from_raw(v.to_vec(), dim)?);
            }
        }
        Ok(out)
    }

    /// Whether a detection is good enough to embed and index.
    pub fn passes_quality(&self, d: &Detection) -> bool {
        let q = &self.config.quality;
        d.score >= self.config.min_score() && d.bbox.min_side() >= q.min_face_px
    }

    /// Every face of an event photo: detect at both scales ([`FaceEngine::detect`]), drop
    /// faces failing the quality gate, align and embed the rest, each face once. Best
    /// detector score first.
    pub fn analyze(&self, img: &RgbImage) -> Result<Vec<AnalyzedFace>> {
        let dets = self.detect(img)?;
        self.gate_and_embed(img, dets)
    }

    /// [`FaceEngine::analyze`] with a single detection pass at an explicit long edge (no
    /// coarse pass), for comparisons and diagnostics.
    pub fn analyze_at(&self, img: &RgbImage, long_edge: u32) -> Result<Vec<AnalyzedFace>> {
        let dets = self.detect_at(img, long_edge)?;
        self.gate_and_embed(img, dets)
    }

    fn gate_and_embed(&self, img: &RgbImage, dets: Vec<Detection>) -> Result<Vec<AnalyzedFace>> {
        let kept: Vec<Detection> = dets
            .into_iter()
            .filter(|d| self.passes_quality(d))
            .collect();
        self.embed_detections(img, kept)
    }

    /// The face a selfie is about: detection at the selfie long edge (its faces are large,
    /// and SCRFD's largest anchors are meant for faces of a few hundred pixels), quality
    /// gate, then the largest, most central face; only that one is embedded.
    pub fn analyze_selfie(&self, img: &RgbImage) -> Result<Option<AnalyzedFace>> {
        Ok(self.analyze_selfie_faces(img)?.map(|s| s.primary))
    }

    /// [`FaceEngine::analyze_selfie`], also answering the box of every face the quality
    /// gate kept, so that a caller can tell a selfie from a group photo. Only the primary
    /// face is embedded.
    pub fn analyze_selfie_faces(&self, img: &RgbImage) -> Result<Option<SelfieFaces>> {
        let dets: Vec<Detection> = self
            .detect_at(img, self.config.detector.selfie_long_edge)?
            .into_iter()
            .filter(|d| self.passes_quality(d))
            .collect();
        let boxes: Vec<BBox> = dets.iter().map(|d| d.bbox).collect();
        let Some(i) = detect::primary_index(&boxes, img.width(), img.height()) else {
            return Ok(None);
        };
        let primary = self
            .embed_detections(img, vec![dets[i]])?
            .into_iter()
            .next();
        Ok(primary.map(|primary| SelfieFaces { primary, boxes }))
    }

    /// A selfie's face (found in `img`) as a camera sees a runner far off: its aligned crop
    /// made a [`distant_view`], embedded. The small, soft faces of distant runners resemble
    /// it more than the sharp selfie; a face search compares both (docs/benchmarks.md,
    /// "The selfie seen from afar").
    pub fn embed_distant(&self, img: &RgbImage, face: &AnalyzedFace) -> Result<Embedding> {
        let size = self.config.recognizer.input_size;
        let crop = align::align_face(img, &face.landmarks, size)
            .ok_or_else(|| Error::Model("the face's landmarks cannot be aligned".into()))?;
        self.embed_crops(&[distant_view(&crop)])?
            .pop()
            .ok_or_else(|| Error::Model("the recognizer answered no face".into()))
    }

    fn embed_detections(&self, img: &RgbImage, dets: Vec<Detection>) -> Result<Vec<AnalyzedFace>> {
        let size = self.config.recognizer.input_size;
        let mut kept = Vec::with_capacity(dets.len());
        let mut crops = Vec::with_capacity(dets.len());
        for d in dets {
            // Collinear landmarks cannot be aligned; such a detection is not a usable face.
            if let Some(crop) = align::align_face(img, &d.landmarks, size) {
                crops.push(crop);
                kept.push(d);
            }
        }
        let embeddings = self.embed_crops(&crops)?;
        Ok(kept
            .into_iter()
            .zip(embeddings)
            .map(|(d, embedding)| AnalyzedFace {
                bbox: d.bbox,
                landmarks: d.landmarks,
                score: d.score,
                embedding,
            })
            .collect())
    }
}

/// Sorts the detector's outputs into levels by shape, whatever their names and order: the
/// last dimension tells scores (1), boxes (4) and keypoints (10) apart; within each kind
/// the level with the most rows has the smallest stride. Strides are 8, 16, 32, ... and
/// the anchors per cell follow from the first level's row count. YuNet answers two
/// score tensors per level, its class and objectness scores: both go with the level of
/// their length, in either order, since a face's score is the geometric mean of the two.
fn group_levels<'a>(
    tensors: &[(usize, &'a [f32])],
    width: usize,
    height: usize,
    family: DetectorFamily,
) -> Result<Vec<LevelOutputs<'a>>> {
    let mut kinds: [Vec<&'a [f32]>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    for &(last, values) in tensors {
        match last {
            1 => kinds[0].push(values),
            4 => kinds[1].push(values),
            10 => kinds[2].push(values),
            other => {
                return Err(Error::Model(format!(
                    "detector output with last dimension {other}; expected an SCRFD model with keypoints (1, 4, 10)"
                )));
            }
        }
    }
    for k in &mut kinds {
        k.sort_by_key(|v| std::cmp::Reverse(v.len()));
    }
    let [mut scores, boxes, kps] = kinds;
    let mut objectness = Vec::new();
    if family == DetectorFamily::YuNet {
        if scores.len() != 2 * boxes.len() {
            return Err(Error::Model(format!(
                "detector answered {} score tensors for {} box tensors; expected two (class and objectness) per level (a YuNet model)",
                scores.len(),
                boxes.len()
            )));
        }
        // Sorted by length, each level's two tensors are neighbours.
        objectness = scores.iter().skip(1).step_by(2).copied().collect();
        scores = scores.into_iter().step_by(2).collect();
    }
    let levels = scores.len();
    if levels == 0 || boxes.len() != levels || kps.len() != levels {
        return Err(Error::Model(format!(
            "detector answered {} score, {} box and {} keypoint tensors; expected equal non-zero counts (an SCRFD *_kps model)",
            scores.len(),
            boxes.len(),
            kps.len()
        )));
    }
    let cells8 = (width / 8) * (height / 8);
    let anchors = scores[0].len().checked_div(cells8).unwrap_or(0);
    if anchors == 0 {
        return Err(Error::Model(
            "detector scores do not fit a stride-8 grid".into(),
        ));
    }
    let mut out = Vec::with_capacity(levels);
    for l in 0..levels {
        let stride = 8u32 << l;
        let (fw, fh) = (width / stride as usize, height / stride as usize);
        let rows = fw * fh * anchors;
        let objectness = objectness.get(l).copied();
        if scores[l].len() != rows
            || boxes[l].len() != rows * 4
            || kps[l].len() != rows * 10
            || objectness.is_some_and(|o| o.len() != rows)
        {
            return Err(Error::Model(format!(
                "detector level {l} (stride {stride}) has {} scores, expected {rows}",
                scores[l].len()
            )));
        }
        out.push(LevelOutputs {
            stride,
            width: fw,
            height: fh,
            anchors,
            scores: scores[l],
            objectness,
            boxes: boxes[l],
            keypoints: kps[l],
        });
    }
    Ok(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn the_distant_view_keeps_the_crop_size_and_loses_its_fine_detail() {
        // One-pixel stripes: a face 40 px across cannot show them.
        let data: Vec<u8> = (0..112 * 112)
            .flat_map(|i| if i % 2 == 0 { [255; 3] } else { [0; 3] })
            .collect();
        let stripes = RgbImage::new(112, 112, data).unwrap();
        let far = distant_view(&stripes);
        assert_eq!((far.width(), far.height()), (112, 112));
        let mean = |img: &RgbImage| {
            img.data().iter().map(|&v| f64::from(v)).sum::<f64>() / img.data().len() as f64
        };
        let far_mean = mean(&far);
        let spread = far
            .data()
            .iter()
            .map(|&v| (f64::from(v) - far_mean).abs())
            .fold(0.0, f64::max);
        assert!((far_mean - mean(&stripes)).abs() < 2.0, "{far_mean}");
        assert!(spread < 20.0, "stripes survived: {spread}");
        // A flat crop stays as it is.
        let flat = RgbImage::filled(112, 112, [90, 120, 150]);
        assert_eq!(distant_view(&flat), flat);
    }

    #[test]
    fn groups_outputs_by_shape_whatever_their_order() {
        // A 64x32 input: stride 8 -> 8x4 cells, 16 -> 4x2, 32 -> 2x1; 2 anchors each.
        let (s8, s16, s32) = (vec![0.0f32; 64], vec![0.0f32; 16], vec![0.0f32; 4]);
        let (b8, b16, b32) = (vec![0.0f32; 256], vec![0.0f32; 64], vec![0.0f32; 16]);
        let (k8, k16, k32) = (vec![0.0f32; 640], vec![0.0f32; 160], vec![0.0f32; 40]);
        let shuffled: Vec<(usize, &[f32])> = vec![
            (10, &k16),
            (1, &s32),
            (4, &b8),
            (1, &s8),
            (10, &k8),
            (4, &b32),
            (1, &s16),
            (4, &b16),
            (10, &k32),
        ];
        let levels = group_levels(&shuffled, 64, 32, DetectorFamily::Scrfd).unwrap();
        assert_eq!(levels.len(), 3);
        assert_eq!(
            levels
                .iter()
                .map(|l| (l.stride, l.width, l.height, l.anchors))
                .collect::<Vec<_>>(),
            vec![(8, 8, 4, 2), (16, 4, 2, 2), (32, 2, 1, 2)]
        );
        assert_eq!(levels[1].keypoints.len(), 160);
    }

    #[test]
    fn rejects_models_without_keypoints() {
        let (s, b) = (vec![0.0f32; 64], vec![0.0f32; 256]);
        let outs: Vec<(usize, &[f32])> = vec![(1, &s), (4, &b)];
        let scrfd = DetectorFamily::Scrfd;
        assert!(matches!(
            group_levels(&outs, 64, 32, scrfd),
            Err(Error::Model(_))
        ));
        let weird: Vec<(usize, &[f32])> = vec![(7, &s)];
        assert!(matches!(
            group_levels(&weird, 64, 32, scrfd),
            Err(Error::Model(_))
        ));
    }

    #[test]
    fn pairs_yunet_class_and_objectness_scores_by_level() {
        // A 64x32 input, one prediction per cell: 32, 8 and 2 cells.
        let (c8, c16, c32) = (vec![0.1f32; 32], vec![0.2f32; 8], vec![0.3f32; 2]);
        let (o8, o16, o32) = (vec![0.4f32; 32], vec![0.5f32; 8], vec![0.6f32; 2]);
        let (b8, b16, b32) = (vec![0.0f32; 128], vec![0.0f32; 32], vec![0.0f32; 8]);
        let (k8, k16, k32) = (vec![0.0f32; 320], vec![0.0f32; 80], vec![0.0f32; 20]);
        let outputs: Vec<(usize, &[f32])> = vec![
            (1, &c8),
            (1, &c16),
            (1, &c32),
            (1, &o8),
            (1, &o16),
            (1, &o32),
            (4, &b8),
            (4, &b16),
            (4, &b32),
            (10, &k8),
            (10, &k16),
            (10, &k32),
        ];
        let levels = group_levels(&outputs, 64, 32, DetectorFamily::YuNet).unwrap();
        let pairs: Vec<(u32, usize, f32, f32)> = levels
            .iter()
            .map(|l| {
                let o = l.objectness.unwrap();
                (l.stride, l.anchors, l.scores[0] + o[0], l.scores[0] * o[0])
            })
            .collect();
        assert_eq!(
            pairs,
            vec![
                (8, 1, 0.1 + 0.4, 0.1 * 0.4),
                (16, 1, 0.2 + 0.5, 0.2 * 0.5),
                (32, 1, 0.3 + 0.6, 0.3 * 0.6)
            ]
        );
        // Without the objectness tensors it is not a YuNet answer.
        assert!(group_levels(&outputs[3..], 64, 32, DetectorFamily::YuNet).is_err());
    }

    #[test]
    fn engine_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<FaceEngine>();
    }
}
