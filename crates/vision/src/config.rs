//! Configuration of the face engine: where the models are, how to feed them, what to keep.
//!
//! Everything a different model of the same family needs is a key here, so an operator
//! can swap the research-only InsightFace weights for licensed ones without a code change.
//! The server nests this struct under `faces`, so with its `RACESHOT__` environment prefix
//! the keys read as below (TOML: the same path under `[faces]`).
//!
//! | key (env form)                                   | default                              | meaning |
//! |--------------------------------------------------|--------------------------------------|---------|
//! | `RACESHOT__FACES__MODELS_DIR`                    | `./models`                           | directory the other defaults are relative to |
//! | `RACESHOT__FACES__MODEL_PAIR`                    | `insightface`                        | the detector and recogniser, chosen together: `insightface` (SCRFD-500M + w600k_mbf, non-commercial research only) or `yunet-sface` (OpenCV Zoo's YuNet, MIT, + SFace, Apache-2.0) |
//! | `RACESHOT__FACES__RUNTIME`                       | `openvino`                           | what runs the face models (and the server's bib reader): `openvino` or `onnxruntime` |
//! | `RACESHOT__FACES__OPENVINO_LIBRARY`              | `<models_dir>/openvino/libopenvino_c.so` | OpenVINO's C library (>= 2025.1), beside its core, CPU plugin and ONNX front end |
//! | `RACESHOT__FACES__OPENVINO_PRECISION`            | `auto`                               | `auto`: bf16 on CPUs that compute it natively, else f32; `f32`: always f32 |
//! | `RACESHOT__FACES__RUNTIME_LIBRARY`               | `<models_dir>/libonnxruntime.so`     | ONNX Runtime shared library (>= 1.20) |
//! | `RACESHOT__FACES__INTRA_THREADS`                 | `1`                                  | threads one inference may use (0 = the runtime's choice) |
//! | `RACESHOT__FACES__INTER_THREADS`                 | `1`                                  | threads for parallel graph branches (0 = ONNX Runtime's choice) |
//! | `RACESHOT__FACES__SESSIONS`                      | `0`                                  | sessions (OpenVINO: streams) per model, i.e. inferences that may run at once (0 = one per CPU core) |
//! | `RACESHOT__FACES__DETECTOR__PATH`                | the pair's, in `<models_dir>`        | another export of the pair's detector family (SCRFD *with* 5 keypoints, e.g. `scrfd_10g_bnkps`; or YuNet) |
//! | `RACESHOT__FACES__DETECTOR__LONG_EDGE`           | `1600`                               | event photos are scaled so their long edge is this for detection |
//! | `RACESHOT__FACES__DETECTOR__SELFIE_LONG_EDGE`    | `640`                                | the same for selfies, whose faces are large |
//! | `RACESHOT__FACES__DETECTOR__COARSE_LONG_EDGE`    | `640`                                | event photos get a second detection pass at this long edge for close-up faces, too large for the detector at `LONG_EDGE` (0 = off; never enlarges; skipped unless its input is at least 1.25x smaller than the main pass's) |
//! | `RACESHOT__FACES__DETECTOR__FINE_LONG_EDGE`      | `3000`                               | event photos decoded at least 1.25x larger than `LONG_EDGE` get a fine pass at this long edge (never enlarging) for the faces the main pass sees under 32 px: the distant runners of 24 MP frames (0 = off) |
//! | `RACESHOT__FACES__DETECTOR__WITH_FINE_LONG_EDGE` | `640`                                | the main pass's long edge on photos that get the fine pass (never above `LONG_EDGE`): the fine pass has the small faces, so the main one needs fewer pixels (and the coarse pass runs only if still 1.25x smaller) |
//! | `RACESHOT__FACES__DETECTOR__MAX_UPSCALE`         | `2.0`                                | smaller images are enlarged towards the long edge by at most this factor (1 = never) |
//! | `RACESHOT__FACES__DETECTOR__SCORE_THRESHOLD`     | `0.5`                                | detections below this score are dropped before NMS |
//! | `RACESHOT__FACES__DETECTOR__NMS_IOU`             | `0.4`                                | IoU above which the weaker of two boxes is suppressed |
//! | `RACESHOT__FACES__DETECTOR__MEAN` / `__STD`      | the pair's (SCRFD `127.5` / `128.0`, YuNet `0` / `1`) | input normalisation `(x - mean) / std`, NCHW (YuNet reads BGR) |
//! | `RACESHOT__FACES__RECOGNIZER__PATH`              | the pair's, in `<models_dir>`        | another recogniser of the pair (5-point aligned square crop in, embedding out) |
//! | `RACESHOT__FACES__RECOGNIZER__INPUT_SIZE`        | `112`                                | side of the square aligned crop; the ArcFace template is scaled to it |
//! | `RACESHOT__FACES__RECOGNIZER__MEAN` / `__STD`    | the pair's (w600k `127.5` / `127.5`, SFace `0` / `1`: it normalises itself) | input normalisation `(x - mean) / std`, RGB, NCHW |
//! | `RACESHOT__FACES__RECOGNIZER__EMBEDDING_DIM`     | the pair's (`512`, SFace `128`)      | length of the output vector (checked at load) |
//! | `RACESHOT__FACES__QUALITY__MIN_FACE_PX`          | `16`                                 | faces whose box's shorter side (in the decoded image's pixels, from which faces are aligned) is smaller are not kept |
//! | `RACESHOT__FACES__QUALITY__MIN_SCORE`            | the pair's (SCRFD `0.5`, YuNet `0.7`) | faces with a lower detector score are not kept |
//!
//! Explicit paths are used as given (relative ones against the working directory); only
//! the defaults are derived from `models_dir`.
//!
//! What is read from the model files rather than configured: input and output tensor
//! names; whether the detector accepts any input size (then images are scaled to the long
//! edge and padded only to a multiple of its largest stride) or one fixed size (then they
//! are fitted into it and padded); the detector's number of stride levels and anchors per
//! cell; whether the recogniser accepts batches. Detector outputs are told apart by shape,
//! so their names and order do not matter. Both models take RGB in NCHW layout.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::Deserialize;

/// Default file names inside the models directory (what `scripts/fetch-models.sh` writes).
pub const DEFAULT_RUNTIME_LIBRARY: &str = "libonnxruntime.so";
pub const DEFAULT_OPENVINO_LIBRARY: &str = "openvino/libopenvino_c.so";

/// The face detector and recogniser, chosen together (`faces.model_pair`): an embedding
/// is only comparable with embeddings of the same recogniser, and each recogniser is
/// aligned to its detector's landmarks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
pub enum ModelPair {
    /// InsightFace's SCRFD-500M detector and w600k_mbf (MobileFaceNet) recogniser, 512-d.
    /// Licensed for non-commercial research only.
    #[serde(rename = "insightface")]
    InsightFace,
    /// OpenCV Zoo's YuNet detector (MIT) and SFace recogniser (Apache-2.0), 128-d, from
    /// their block-quantised files ([`crate::model_file`] folds them to floats at load).
    #[serde(rename = "yunet-sface")]
    YuNetSFace,
}

/// How a detector's outputs are decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DetectorFamily {
    /// SCRFD: per stride, scores, box distances and keypoint offsets per anchor.
    Scrfd,
    /// YuNet: per stride, class and objectness scores, box centre offsets and log sizes,
    /// and keypoints, one prediction per cell (OpenCV's `FaceDetectorYN`).
    YuNet,
}

impl ModelPair {
    pub const ALL: [ModelPair; 2] = [ModelPair::InsightFace, ModelPair::YuNetSFace];

    /// Its name in the configuration and in the store.
    pub fn name(self) -> &'static str {
        match self {
            Self::InsightFace => "insightface",
            Self::YuNetSFace => "yunet-sface",
        }
    }

    /// The models' licence, in words an operator reads.
    pub fn licence(self) -> &'static str {
        match self {
            Self::InsightFace => {
                "InsightFace SCRFD-500M + w600k_mbf: non-commercial research use only"
            }
            Self::YuNetSFace => {
                "OpenCV Zoo YuNet (MIT) + SFace (Apache-2.0): commercial use allowed"
            }
        }
    }

    /// Whether a shop that sells photos may run it.
    pub fn commercial(self) -> bool {
        matches!(self, Self::YuNetSFace)
    }

    /// The least similarity a search of this pair's faces may match at, whatever an event's
    /// threshold says: where strangers' similarities, fitted per face width on the
    /// small-face sets, leave about one in a million comparisons (0.1 false faces a search
    /// of a 100,000-face event; docs/benchmarks.md, "Face model pairs"). SFace spreads
    /// strangers widely (0.45–0.49 across widths and frame sizes); w600k_mbf's lie below
    /// the shop's default 0.35 (0.26–0.31), which stays the floor there.
    pub fn least_threshold(self) -> f32 {
        match self {
            Self::InsightFace => 0.0,
            Self::YuNetSFace => 0.47,
        }
    }

    /// The least similarity a search fitted on the event's own faces
    /// ([`crate::calibration`]) may lower a threshold to, for either view of the selfie:
    /// about where the thresholds that leave one stranger comparison in a million, fitted
    /// per face width on all of a small-face set's strangers together, begin
    /// (docs/benchmarks.md, "Thresholds fitted on the event's crowd": 0.235–0.27 for
    /// w600k_mbf, 0.443–0.47 for SFace, the least width class of each set and view). A fit
    /// on one selfie and one event goes no lower than the fits on many.
    pub fn calibrated_floor(self) -> f32 {
        match self {
            Self::InsightFace => 0.26,
            Self::YuNetSFace => 0.44,
        }
    }

    /// The least similarity a search matches a face at with the selfie's distant view
    /// ([`crate::FaceEngine::embed_distant`]), whatever an event's threshold says: where that
    /// view leaves about one stranger comparison in a million, fitted per face width on the
    /// small-face sets (docs/benchmarks.md, "The selfie seen from afar"): 0.26–0.30 for
    /// w600k_mbf, 0.44–0.51 for SFace. A blurred selfie resembles every small face a little
    /// more, strangers' too, so this stands above [`ModelPair::least_threshold`].
    pub fn distant_least_threshold(self) -> f32 {
        match self {
            Self::InsightFace => 0.30,
            Self::YuNetSFace => 0.49,
        }
    }

    /// The least similarity a face may have to be matched by sequence ([`crate::sequence`]):
    /// where about one stranger comparison in a thousand lands, fitted per face width on
    /// the small-face sets (docs/benchmarks.md, "Matching by sequence"): 0.16–0.20 for
    /// w600k_mbf, 0.32–0.34 for SFace.
    pub fn sequence_floor(self) -> f32 {
        match self {
            Self::InsightFace => 0.20,
            Self::YuNetSFace => 0.35,
        }
    }

    /// The least resemblance a weak match must have to one of the runner's surest
    /// appearances for the lookalike guard to keep it ([`crate::lookalike`]): on the
    /// small-face sets the runner's own weak matches resemble one at 0.57 and more, the
    /// lookalikes' at most 0.46 (w600k_mbf); SFace's cosines run higher: 0.58 and more,
    /// the lookalikes' up to 0.54 (0.65 on one set) (docs/benchmarks.md, "The lookalike
    /// guard in the shop").
    pub fn lookalike_gate(self) -> f32 {
        match self {
            Self::InsightFace => 0.50,
            Self::YuNetSFace => 0.55,
        }
    }

    /// What an operator running a pair a shop may not sell with is told to do.
    pub const NOT_FOR_SALE: &'static str =
        "not for a shop that sells photos: set faces.model_pair = yunet-sface";

    pub fn detector_family(self) -> DetectorFamily {
        match self {
            Self::InsightFace => DetectorFamily::Scrfd,
            Self::YuNetSFace => DetectorFamily::YuNet,
        }
    }

    pub fn detector_file(self) -> &'static str {
        match self {
            Self::InsightFace => "scrfd_500m_bnkps.onnx",
            Self::YuNetSFace => "face_detection_yunet_2023mar_int8bq.onnx",
        }
    }

    pub fn recognizer_file(self) -> &'static str {
        match self {
            Self::InsightFace => "w600k_mbf.onnx",
            Self::YuNetSFace => "face_recognition_sface_2021dec_int8bq.onnx",
        }
    }

    /// The detector's input normalisation `(mean, std)`: SCRFD's `(x - 127.5) / 128`;
    /// YuNet takes the pixel values as they are (OpenCV's `blobFromImage` defaults).
    pub fn detector_normalisation(self) -> (f32, f32) {
        match self {
            Self::InsightFace => (127.5, 128.0),
            Self::YuNetSFace => (0.0, 1.0),
        }
    }

    /// Whether the detector reads its channels in BGR order (OpenCV's), not RGB.
    pub fn detector_bgr(self) -> bool {
        matches!(self, Self::YuNetSFace)
    }

    /// The recogniser's input normalisation: ArcFace's `(x - 127.5) / 127.5`; SFace
    /// subtracts and scales inside its graph, so it takes RGB values as they are.
    pub fn recognizer_normalisation(self) -> (f32, f32) {
        match self {
            Self::InsightFace => (127.5, 127.5),
            Self::YuNetSFace => (0.0, 1.0),
        }
    }

    pub fn embedding_dim(self) -> usize {
        match self {
            Self::InsightFace => 512,
            Self::YuNetSFace => 128,
        }
    }

    /// The least detector score of a face worth indexing. YuNet scores the soft faces of
    /// a crowd higher than SCRFD does: at 0.5 it embedded 51 faces a 24 MP crowd photo
    /// against SCRFD's 31, making the face stage 15-20 % slower; at 0.7 it embeds 36, is
    /// faster than the InsightFace pair, and finds every runner it found at 0.5 on the
    /// small-face set whose selfies are other photos (docs/benchmarks.md).
    pub fn min_score(self) -> f32 {
        match self {
            Self::InsightFace => 0.5,
            Self::YuNetSFace => 0.7,
        }
    }
}

impl std::fmt::Display for ModelPair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ModelPair {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        from_name(s)
    }
}

/// Top-level face engine configuration. Every field has a default, so an empty TOML table
/// (or no table at all) gives a working engine once the models are fetched.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FaceEngineConfig {
    pub models_dir: PathBuf,
    /// The detector and recogniser: the defaults of their files, normalisation and
    /// embedding length, and how the detector is decoded.
    pub model_pair: ModelPair,
    /// What runs the face models.
    pub runtime: FaceRuntime,
    /// `None` means `<models_dir>/openvino/libopenvino_c.so`.
    pub openvino_library: Option<PathBuf>,
    pub openvino_precision: OpenVinoPrecision,
    /// `None` means `<models_dir>/libonnxruntime.so`.
    pub runtime_library: Option<PathBuf>,
    pub detector: DetectorConfig,
    pub recognizer: RecognizerConfig,
    pub quality: QualityConfig,
    /// Threads per inference. 1 by default: ingestion runs one photo per worker, and the
    /// cores are better spent on parallel photos than on one photo's convolutions
    /// (measured on 2 cores: 2 threads make SCRFD at 1600 px ~1.5x faster, not 2x).
    /// Raise it for a machine that serves searches but does not ingest.
    pub intra_threads: usize,
    pub inter_threads: usize,
    /// Sessions per model (0 = one per CPU core). `ort` needs exclusive access to a
    /// session per run, so this is how many detections (and embeddings) run at once.
    pub sessions: usize,
}

impl Default for FaceEngineConfig {
    fn default() -> Self {
        Self {
            models_dir: PathBuf::from("./models"),
            model_pair: ModelPair::InsightFace,
            runtime: FaceRuntime::OpenVino,
            openvino_library: None,
            openvino_precision: OpenVinoPrecision::Auto,
            runtime_library: None,
            detector: DetectorConfig::default(),
            recognizer: RecognizerConfig::default(),
            quality: QualityConfig::default(),
            intra_threads: 1,
            inter_threads: 1,
            sessions: 0,
        }
    }
}

/// The inference runtime of the face models (and of the text models, which the server runs
/// on the same one). Both read the same ONNX files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum FaceRuntime {
    /// OpenVINO's CPU runtime ([`crate::ov`]): on CPUs with native bf16 the face models
    /// take about half to 0.6 of ONNX Runtime's time (docs/benchmarks.md, Decisions the
    /// figures made).
    #[serde(rename = "openvino")]
    OpenVino,
    /// ONNX Runtime: exact f32 everywhere.
    #[serde(rename = "onnxruntime")]
    OnnxRuntime,
}

impl FromStr for FaceRuntime {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        from_name(s)
    }
}

/// The precision OpenVINO computes the face models in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OpenVinoPrecision {
    /// bf16 where the CPU computes it natively (AVX512-BF16, AMX), f32 elsewhere: what
    /// OpenVINO itself would choose. Embeddings agree with f32 ones at cosine ≥ 0.998.
    Auto,
    /// Always f32.
    F32,
}

impl FromStr for OpenVinoPrecision {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        from_name(s)
    }
}

/// A unit variant of `T` from its name in the configuration, as serde reads it from TOML.
fn from_name<T: serde::de::DeserializeOwned>(name: &str) -> Result<T, String> {
    use serde::de::IntoDeserializer;
    let name: serde::de::value::StrDeserializer<'_, serde::de::value::Error> =
        name.into_deserializer();
    T::deserialize(name).map_err(|e| e.to_string())
}

/// The detector (SCRFD or YuNet, as the model pair says).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DetectorConfig {
    /// `None` means the pair's file in `models_dir`.
    pub path: Option<PathBuf>,
    pub long_edge: u32,
    pub selfie_long_edge: u32,
    /// Long edge of the second, coarse detection pass on event photos (0 = no such pass).
    /// SCRFD misses faces of a few hundred pixels in its input (the dev set's close-up
    /// portraits, 326-583 px at 1600, gave no detection at all); at a smaller scale the
    /// same faces fit its largest anchors. The pass never enlarges the image.
    pub coarse_long_edge: u32,
    /// Long edge of the fine detection pass on event photos (0 = no such pass). At
    /// `long_edge` 1600 a 24 MP frame is shrunk 3.75 times, so a runner whose face is 35 px
    /// wide in it is 9 px to the detector and never found (66 % recall on the small-face
    /// set); at 3000 the same faces are found (97 %). Only the faces the main pass sees
    /// under `detect::FINE_MAIN_MAX_FACE_PX` count; the pass never enlarges the image and
    /// is skipped unless it sees the photo at least 1.25 times larger than a main pass at
    /// `long_edge`.
    pub fine_long_edge: u32,
    /// Long edge of the main pass on photos that get the fine pass (used when below
    /// `long_edge`). The fine pass answers for the small faces, so the main pass only
    /// needs the larger ones, and at 640 it also finds the close-ups the coarse pass is
    /// for (which then does not run): three passes become two, the main one a sixth of a
    /// pass at 1600, with the same small-face recall and more of the race bench photos'
    /// soft faces, which SCRFD finds better small.
    pub with_fine_long_edge: u32,
    /// Smaller images are enlarged towards the long edge by at most this factor.
    pub max_upscale: f32,
    pub score_threshold: f32,
    pub nms_iou: f32,
    /// `None`: the pair's ([`ModelPair::detector_normalisation`]).
    pub mean: Option<f32>,
    pub std: Option<f32>,
}

impl DetectorConfig {
    /// The main pass's long edge on photos that get the fine pass: `with_fine_long_edge`,
    /// never above `long_edge`.
    pub fn main_edge_beside_fine(&self) -> u32 {
        self.long_edge.min(self.with_fine_long_edge)
    }
}

impl Default for DetectorConfig {
    fn default() -> Self {
        Self {
            path: None,
            long_edge: 1600,
            selfie_long_edge: 640,
            coarse_long_edge: 640,
            fine_long_edge: 3000,
            with_fine_long_edge: 640,
            max_upscale: 2.0,
            score_threshold: 0.5,
            nms_iou: 0.4,
            mean: None,
            std: None,
        }
    }
}

/// The recogniser (ArcFace-style: an aligned square crop in, an embedding out).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RecognizerConfig {
    /// `None` means the pair's file in `models_dir`.
    pub path: Option<PathBuf>,
    pub input_size: u32,
    /// `None`: the pair's ([`ModelPair::recognizer_normalisation`]).
    pub mean: Option<f32>,
    pub std: Option<f32>,
    /// `None`: the pair's ([`ModelPair::embedding_dim`]).
    pub embedding_dim: Option<usize>,
    /// On ONNX Runtime, load the recogniser with each `PRelu` computed as
    /// `max(x, slope * x)`: the same numbers, which ONNX Runtime computes about 1.8x faster
    /// on MobileFaceNet (`model_file::prelu_as_max`). `false` runs the file as it is.
    /// OpenVINO runs `PRelu` fast as it is and ignores this.
    pub prelu_as_max: bool,
}

impl Default for RecognizerConfig {
    fn default() -> Self {
        Self {
            path: None,
            input_size: 112,
            mean: None,
            std: None,
            embedding_dim: None,
            prelu_as_max: true,
        }
    }
}

/// Which detections are worth an embedding. Tiny or doubtful faces give embeddings that
/// match strangers, so they are dropped rather than indexed. The defaults (16 px, and the
/// pair's least score: [`ModelPair::min_score`]) are chosen by measured recall on the
/// small-face sets (`examples/small_faces.rs`, docs/benchmarks.md): for SCRFD, the former
/// 20 px / 0.6 dropped a third of the detected faces of 35-40 px runners in 24 MP photos,
/// and lowering them cost no precision there nor on the dev set.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct QualityConfig {
    pub min_face_px: f32,
    /// `None`: the pair's ([`ModelPair::min_score`]).
    pub min_score: Option<f32>,
}

impl Default for QualityConfig {
    fn default() -> Self {
        Self {
            min_face_px: 16.0,
            min_score: None,
        }
    }
}

impl FaceEngineConfig {
    /// A default configuration rooted at another models directory.
    pub fn with_models_dir(dir: impl Into<PathBuf>) -> Self {
        Self {
            models_dir: dir.into(),
            ..Self::default()
        }
    }

    /// This configuration for `pair`: itself for its own pair; for another, the same
    /// runtime, threads and passes with that pair's own files, normalisation, embedding
    /// length and least score (the keys that override them speak of the configured pair).
    pub fn for_pair(&self, pair: ModelPair) -> Self {
        let mut config = self.clone();
        if pair != self.model_pair {
            config.model_pair = pair;
            config.detector.path = None;
            config.detector.mean = None;
            config.detector.std = None;
            config.recognizer.path = None;
            config.recognizer.mean = None;
            config.recognizer.std = None;
            config.recognizer.embedding_dim = None;
            config.quality.min_score = None;
        }
        config
    }

    /// Sessions per model after resolving 0 to the number of CPU cores.
    pub fn effective_sessions(&self) -> usize {
        if self.sessions > 0 {
            self.sessions
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get().min(16))
        }
    }

    pub fn openvino_library_path(&self) -> PathBuf {
        resolve(
            &self.models_dir,
            self.openvino_library.as_deref(),
            DEFAULT_OPENVINO_LIBRARY,
        )
    }

    pub fn runtime_library_path(&self) -> PathBuf {
        resolve(
            &self.models_dir,
            self.runtime_library.as_deref(),
            DEFAULT_RUNTIME_LIBRARY,
        )
    }

    pub fn detector_path(&self) -> PathBuf {
        resolve(
            &self.models_dir,
            self.detector.path.as_deref(),
            self.model_pair.detector_file(),
        )
    }

    pub fn recognizer_path(&self) -> PathBuf {
        resolve(
            &self.models_dir,
            self.recognizer.path.as_deref(),
            self.model_pair.recognizer_file(),
        )
    }

    /// The detector's `(mean, std)`: as configured, else the pair's.
    pub fn detector_normalisation(&self) -> (f32, f32) {
        let (mean, std) = self.model_pair.detector_normalisation();
        (
            self.detector.mean.unwrap_or(mean),
            self.detector.std.unwrap_or(std),
        )
    }

    /// The recogniser's `(mean, std)`: as configured, else the pair's.
    pub fn recognizer_normalisation(&self) -> (f32, f32) {
        let (mean, std) = self.model_pair.recognizer_normalisation();
        (
            self.recognizer.mean.unwrap_or(mean),
            self.recognizer.std.unwrap_or(std),
        )
    }

    /// The least detector score of an indexed face: as configured, else the pair's.
    pub fn min_score(&self) -> f32 {
        self.quality
            .min_score
            .unwrap_or(self.model_pair.min_score())
    }

    /// The embedding length: as configured, else the pair's.
    pub fn embedding_dim(&self) -> usize {
        self.recognizer
            .embedding_dim
            .unwrap_or(self.model_pair.embedding_dim())
    }

    /// Every problem with the values (not the files: loading reports those), so start-up
    /// can list them all at once.
    pub fn problems(&self) -> Vec<String> {
        let mut p = Vec::new();
        let d = &self.detector;
        for (name, edge) in [
            ("detector.long_edge", d.long_edge),
            ("detector.selfie_long_edge", d.selfie_long_edge),
            ("detector.with_fine_long_edge", d.with_fine_long_edge),
        ] {
            if !(32..=8192).contains(&edge) {
                p.push(format!(
                    "faces.{name} must be between 32 and 8192, got {edge}"
                ));
            }
        }
        // 0 switches the pass off; an edge at or above `long_edge` is allowed (the pass is
        // then simply skipped) so lowering `long_edge` alone never fails start-up.
        if d.coarse_long_edge != 0 && !(32..=8192).contains(&d.coarse_long_edge) {
            p.push(format!(
                "faces.detector.coarse_long_edge must be 0 (off) or between 32 and 8192, got {}",
                d.coarse_long_edge
            ));
        }
        if d.fine_long_edge != 0 && !(32..=8192).contains(&d.fine_long_edge) {
            p.push(format!(
                "faces.detector.fine_long_edge must be 0 (off) or between 32 and 8192, got {}",
                d.fine_long_edge
            ));
        }
        if !(0.0..=1.0).contains(&d.score_threshold) {
            p.push(format!(
                "faces.detector.score_threshold must be in [0, 1], got {}",
                d.score_threshold
            ));
        }
        if !(d.max_upscale.is_finite() && (1.0..=8.0).contains(&d.max_upscale)) {
            p.push(format!(
                "faces.detector.max_upscale must be in [1, 8], got {}",
                d.max_upscale
            ));
        }
        if !(d.nms_iou > 0.0 && d.nms_iou <= 1.0) {
            p.push(format!(
                "faces.detector.nms_iou must be in (0, 1], got {}",
                d.nms_iou
            ));
        }
        let r = &self.recognizer;
        let ((det_mean, det_std), (rec_mean, rec_std)) = (
            self.detector_normalisation(),
            self.recognizer_normalisation(),
        );
        for (name, std) in [("detector.std", det_std), ("recognizer.std", rec_std)] {
            if !std.is_finite() || std == 0.0 {
                p.push(format!("faces.{name} must be a non-zero number, got {std}"));
            }
        }
        for (name, mean) in [("detector.mean", det_mean), ("recognizer.mean", rec_mean)] {
            if !mean.is_finite() {
                p.push(format!("faces.{name} must be a number, got {mean}"));
            }
        }
        if !(16..=1024).contains(&r.input_size) {
            p.push(format!(
                "faces.recognizer.input_size must be between 16 and 1024, got {}",
                r.input_size
            ));
        }
        if !(1..=4096).contains(&self.embedding_dim()) {
            p.push(format!(
                "faces.recognizer.embedding_dim must be between 1 and 4096, got {}",
                self.embedding_dim()
            ));
        }
        let q = &self.quality;
        if !(q.min_face_px.is_finite() && q.min_face_px >= 0.0) {
            p.push(format!(
                "faces.quality.min_face_px must be >= 0, got {}",
                q.min_face_px
            ));
        }
        if !(0.0..=1.0).contains(&self.min_score()) {
            p.push(format!(
                "faces.quality.min_score must be in [0, 1], got {}",
                self.min_score()
            ));
        }
        if self.sessions > 64 {
            p.push(format!(
                "faces.sessions must be between 0 (one per core) and 64, got {}",
                self.sessions
            ));
        }
        p
    }
}

/// The path given, as it is, or the file `default_name` under `dir`.
pub(crate) fn resolve(dir: &Path, explicit: Option<&Path>, default_name: &str) -> PathBuf {
    match explicit {
        Some(p) => p.to_path_buf(),
        None => dir.join(default_name),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn defaults_derive_paths_from_models_dir() {
        let c = FaceEngineConfig::with_models_dir("/m");
        assert_eq!(
            c.runtime_library_path(),
            PathBuf::from("/m/libonnxruntime.so")
        );
        assert_eq!(
            c.openvino_library_path(),
            PathBuf::from("/m/openvino/libopenvino_c.so")
        );
        assert_eq!(c.detector_path(), PathBuf::from("/m/scrfd_500m_bnkps.onnx"));
        assert_eq!(c.recognizer_path(), PathBuf::from("/m/w600k_mbf.onnx"));
        assert!(c.problems().is_empty());
        let c = FaceEngineConfig {
            model_pair: ModelPair::YuNetSFace,
            ..c
        };
        assert_eq!(
            c.detector_path(),
            PathBuf::from("/m/face_detection_yunet_2023mar_int8bq.onnx")
        );
        assert_eq!(
            c.recognizer_path(),
            PathBuf::from("/m/face_recognition_sface_2021dec_int8bq.onnx")
        );
        assert_eq!(c.embedding_dim(), 128);
        assert_eq!(c.detector_normalisation(), (0.0, 1.0));
        assert!(c.problems().is_empty());
    }

    #[test]
    fn model_pairs_parse_from_their_names() {
        for pair in ModelPair::ALL {
            assert_eq!(pair.name().parse(), Ok(pair));
            assert_eq!(pair.to_string(), pair.name());
        }
        assert!("yunet".parse::<ModelPair>().is_err());
        let c: FaceEngineConfig = serde_json::from_str(r#"{"model_pair": "yunet-sface"}"#).unwrap();
        assert_eq!(c.model_pair, ModelPair::YuNetSFace);
        assert!(ModelPair::YuNetSFace.commercial() && !ModelPair::InsightFace.commercial());
    }

    #[test]
    fn explicit_paths_win_and_bad_values_are_all_listed() {
        let mut c = FaceEngineConfig::default();
        c.detector.path = Some(PathBuf::from("/opt/scrfd_10g_bnkps.onnx"));
        assert_eq!(
            c.detector_path(),
            PathBuf::from("/opt/scrfd_10g_bnkps.onnx")
        );
        c.detector.std = Some(0.0);
        c.detector.long_edge = 8;
        c.quality.min_score = Some(2.0);
        assert_eq!(c.problems().len(), 3);
        c.detector.coarse_long_edge = 16;
        assert_eq!(c.problems().len(), 4);
        c.detector.fine_long_edge = 9000;
        assert_eq!(c.problems().len(), 5);
        c.detector.with_fine_long_edge = 0;
        assert_eq!(c.problems().len(), 6);
    }

    #[test]
    fn coarse_pass_can_be_switched_off_or_set_above_the_long_edge() {
        let mut c = FaceEngineConfig::default();
        for edge in [0, 32, 640, 1600, 4000] {
            c.detector.coarse_long_edge = edge;
            assert!(c.problems().is_empty(), "{edge}: {:?}", c.problems());
        }
        c.detector.coarse_long_edge = 31;
        assert_eq!(c.problems().len(), 1, "{:?}", c.problems());
        assert!(c.problems()[0].contains("coarse_long_edge"));
    }

    #[test]
    fn deserialises_partial_tables_over_defaults() {
        let c: FaceEngineConfig = serde_json::from_str("{}").unwrap();
        assert_eq!(c, FaceEngineConfig::default());
        let c: FaceEngineConfig = serde_json::from_str(
            r#"{"models_dir": "/srv/models", "detector": {"long_edge": 1280}, "recognizer": {"std": 128.0}}"#,
        )
        .unwrap();
        assert_eq!(c.detector.long_edge, 1280);
        assert_eq!(c.detector.nms_iou, 0.4);
        assert_eq!(c.recognizer.std, Some(128.0));
        assert_eq!(c.recognizer_normalisation(), (127.5, 128.0));
        assert_eq!(
            c.recognizer_path(),
            PathBuf::from("/srv/models/w600k_mbf.onnx")
        );
        assert!(serde_json::from_str::<FaceEngineConfig>(r#"{"detectr": {}}"#).is_err());
        let c: FaceEngineConfig =
            serde_json::from_str(r#"{"runtime": "onnxruntime", "openvino_precision": "f32"}"#)
                .unwrap();
        assert_eq!(c.runtime, FaceRuntime::OnnxRuntime);
        assert_eq!(c.openvino_precision, OpenVinoPrecision::F32);
        assert!(serde_json::from_str::<FaceEngineConfig>(r#"{"runtime": "tensorrt"}"#).is_err());
    }

    #[test]
    fn runtime_and_precision_parse_from_their_names_only() {
        assert_eq!("openvino".parse(), Ok(FaceRuntime::OpenVino));
        assert_eq!("onnxruntime".parse(), Ok(FaceRuntime::OnnxRuntime));
        assert!("OpenVINO".parse::<FaceRuntime>().is_err());
        assert_eq!("auto".parse(), Ok(OpenVinoPrecision::Auto));
        assert_eq!("f32".parse(), Ok(OpenVinoPrecision::F32));
        assert_eq!(
            "bf16".parse::<OpenVinoPrecision>(),
            Err("unknown variant `bf16`, expected `auto` or `f32`".to_owned())
        );
    }
}
