//! ONNX Runtime (`faces.runtime = "onnxruntime"`, and always the text reader's): the
//! process-wide environment, loaded from the models directory on first use, and pools of
//! its sessions.

use std::path::Path;
use std::sync::OnceLock;

use ort::environment::Environment;
use ort::session::Session;
use ort::session::builder::{GraphOptimizationLevel, SessionBuilder};

use super::shared::{Loaded, Pool, SessionThreads, once_per_process};
use crate::error::{Error, Result};

/// ONNX Runtime sessions of one model.
pub(crate) type SessionPool = Pool<Session>;

impl SessionPool {
    /// Sessions of a model held in memory (one edited after reading, see
    /// [`crate::model_file`]); `path` names it in errors.
    pub(crate) fn from_memory(
        env: &Environment,
        model: &[u8],
        path: &Path,
        threads: SessionThreads,
    ) -> Result<Self> {
        Pool::filled(threads.sessions, || {
            session_builder(env, threads)?
                .commit_from_memory(model)
                .map_err(|e| Error::Runtime(format!("loading {}: {e}", path.display())))
        })
    }
}

fn session_builder(env: &Environment, threads: SessionThreads) -> Result<SessionBuilder> {
    let rt = |e: ort::Error<SessionBuilder>| Error::Runtime(e.to_string());
    let mut b = Session::builder(env)?
        .with_optimization_level(GraphOptimizationLevel::All)
        .map_err(rt)?
        // Spinning threads would burn the cores other sessions and jobs need.
        .with_intra_op_spinning(false)
        .map_err(rt)?
        .with_inter_op_spinning(false)
        .map_err(rt)?;
    if threads.intra > 0 {
        b = b.with_intra_threads(threads.intra).map_err(rt)?;
    }
    if threads.inter > 0 {
        b = b.with_inter_threads(threads.inter).map_err(rt)?;
    }
    Ok(b)
}

/// The process-wide ONNX Runtime environment, loaded from `library` on first use. Later
/// calls must name the same library: a process cannot hold two ONNX Runtimes.
pub(crate) fn environment(library: &Path) -> Result<Environment> {
    static ENV: OnceLock<Loaded<Environment>> = OnceLock::new();
    let env = once_per_process(&ENV, library, "ONNX Runtime library", |library| {
        ort::init_from(library)
            .map_err(|e| e.to_string())?
            .with_name("raceshot-vision")
            .with_telemetry(false)
            .build()
            .map_err(|e| e.to_string())
    })?;
    Ok(env.clone())
}
