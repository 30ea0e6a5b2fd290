//! The face engine's error type: one small enum for decoding, model and index failures.

use std::path::PathBuf;

/// Everything that can go wrong in this crate. Variants are coarse on purpose: callers map
/// them to stable API error codes (`UnsupportedFormat`, `TooManyPixels` and `Decode` are
/// the caller's fault; the rest are operator or programming problems).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The bytes are neither JPEG nor PNG (decided by content, never by file name).
    #[error("unsupported image format: only JPEG and PNG are accepted")]
    UnsupportedFormat,

    /// The header declares more pixels than the caller allows (decompression-bomb guard).
    #[error("image of {width}x{height} pixels exceeds the limit of {limit} pixels")]
    TooManyPixels { width: u64, height: u64, limit: u64 },

    /// The data claims to be JPEG/PNG but cannot be decoded (corrupt or truncated).
    #[error("cannot decode image: {0}")]
    Decode(String),

    /// A model or runtime file is missing; the message tells the operator how to get it.
    #[error(
        "{what} not found at {path}: run scripts/fetch-models.sh or set the path in the faces configuration"
    )]
    ModelNotFound { what: &'static str, path: PathBuf },

    /// ONNX Runtime or OpenVINO failed to load or run.
    #[error("inference runtime: {0}")]
    Runtime(String),

    /// A model answered with outputs this engine cannot interpret (wrong family or export).
    #[error("unexpected model output: {0}")]
    Model(String),

    /// The configuration is invalid; every problem is listed.
    #[error("invalid faces configuration: {}", .0.join("; "))]
    Config(Vec<String>),

    /// An embedding of the wrong dimension was given (e.g. index built for another model).
    #[error("embedding has {got} dimensions, expected {expected}")]
    Dimension { expected: usize, got: usize },

    /// A face index snapshot is damaged, of another version, or not what it claims.
    #[error("face index snapshot: {0}")]
    Snapshot(String),
}

/// Result alias used throughout the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl From<ort::Error> for Error {
    fn from(e: ort::Error) -> Self {
        Error::Runtime(e.to_string())
    }
}
