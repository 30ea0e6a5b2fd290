//! What the shop sees in a photo: faces and bib numbers. The face engine (SCRFD or YuNet
//! detection, 5-point alignment, ArcFace-style embeddings), the per-event in-memory face
//! index, and the bib reader ([`ocr`]: PaddleOCR text detection
//! and recognition on the same runtime as the faces: OpenVINO by default, ONNX Runtime as
//! `faces.runtime = onnxruntime`). Knows nothing of HTTP or SQL.
//!
//! Typical use:
//!
//! ```no_run
//! use raceshot_vision::{DecodeOptions, FaceEngine, FaceEngineConfig, FaceIndex, decode};
//!
//! # fn main() -> Result<(), raceshot_vision::Error> {
//! let engine = FaceEngine::load(FaceEngineConfig::default())?;
//! let photo = decode(&std::fs::read("photo.jpg").unwrap_or_default(),
//!                    &DecodeOptions::default().with_target_long_edge(1600))?;
//! let mut index = FaceIndex::new(engine.embedding_dim());
//! for (i, face) in engine.analyze(&photo)?.iter().enumerate() {
//!     index.insert(i as i64, 1, &face.embedding)?;
//! }
//! # Ok(())
//! # }
//! ```
//!
//! Two model pairs are fetched by `scripts/fetch-models.sh` (`faces.model_pair`,
//! [`ModelPair`]): InsightFace's SCRFD and w600k_mbf, licensed for non-commercial research
//! only, and OpenCV Zoo's YuNet (MIT) and SFace (Apache-2.0), which a shop may sell with.

pub mod align;
pub mod analyzer;
pub mod calibration;
pub mod config;
pub mod detect;
pub mod embed;
pub mod engine;
pub mod error;
pub mod image_io;
pub mod index;
pub mod lookalike;
mod model_file;
pub mod ocr;
mod runtime;
pub mod sequence;
pub mod testing;

pub use analyzer::{BibReader, FaceAnalyzer};
pub use calibration::{StrangerFit, Thresholds, size_class};
pub use config::{
    DetectorConfig, DetectorFamily, FaceEngineConfig, FaceRuntime, ModelPair, OpenVinoPrecision,
    QualityConfig, RecognizerConfig,
};
pub use detect::{BBox, Detection, Landmarks};
pub use embed::{Embedding, cosine};
pub use engine::{
    AnalyzedFace, DISTANT_FACE_PX, FaceEngine, PreparedModels, SelfieFaces, distant_view,
};
pub use error::{Error, Result};
pub use image_io::{
    DEFAULT_MAX_PIXELS, DateTaken, DecodeOptions, ImageFormat, ImageInfo, RgbImage, date_taken,
    decode, probe, resize_exact, resize_to_long_edge, sniff,
};
pub use index::{FaceIndex, Hit, best_per_photo};
pub use ocr::{TextLine, TextReader, TextReaderConfig, torso_region};
