//! What the benchmark examples share: the workspace they run in, where the models fetched
//! by `scripts/fetch-models.sh` are, the model pair to run, a generated set's `labels.json`, and how a report
//! names the detection passes.

// Each example uses part of this module.
#![allow(dead_code)]

use std::error::Error;
use std::path::{Path, PathBuf};

use raceshot_vision::{DetectorConfig, FaceEngineConfig, ModelPair};
use serde::de::DeserializeOwned;

/// The workspace's root directory.
pub fn workspace() -> PathBuf {
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    workspace.canonicalize().unwrap_or(workspace)
}

/// The models directory: `given` (`--models`), else `RACESHOT__FACES__MODELS_DIR`, else
/// `<workspace>/models`.
pub fn models_dir(given: Option<PathBuf>) -> PathBuf {
    given
        .or_else(|| std::env::var_os("RACESHOT__FACES__MODELS_DIR").map(PathBuf::from))
        .unwrap_or_else(|| workspace().join("models"))
}

/// A default engine configuration at `models`, for the model pair
/// `RACESHOT__FACES__MODEL_PAIR` names (`insightface` when unset), as the server reads it.
pub fn engine_config(models: &Path) -> Result<FaceEngineConfig, String> {
    let mut config = FaceEngineConfig::with_models_dir(models);
    if let Ok(pair) = std::env::var("RACESHOT__FACES__MODEL_PAIR") {
        config.model_pair = pair
            .parse::<ModelPair>()
            .map_err(|e| format!("RACESHOT__FACES__MODEL_PAIR: {e}"))?;
    }
    Ok(config)
}

/// The `labels.json` a set's generating script wrote into `dir`.
pub fn read_labels<T: DeserializeOwned>(dir: &Path) -> Result<T, Box<dyn Error>> {
    let path = dir.join("labels.json");
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(serde_json::from_slice(&bytes)?)
}

/// The detection passes of `cfg`, for a report's header: "detector long edge 1600, fine
/// pass 3000 (main pass beside it 640), coarse pass 640".
pub fn passes(cfg: &DetectorConfig) -> String {
    let edge = |e: u32| match e {
        0 => "off".to_string(),
        e => e.to_string(),
    };
    format!(
        "detector long edge {}, fine pass {} (main pass beside it {}), coarse pass {}",
        cfg.long_edge,
        edge(cfg.fine_long_edge),
        cfg.main_edge_beside_fine(),
        edge(cfg.coarse_long_edge),
    )
}
