//! What the integration tests against the real models share: where the models fetched by
//! `scripts/fetch-models.sh` are (`RACESHOT__FACES__MODELS_DIR`, else `<workspace>/models`).

use std::path::PathBuf;

/// The models directory, after checking that `files` (paths inside it) are there.
pub fn models_dir_with(files: &[&str]) -> PathBuf {
    let dir = std::env::var_os("RACESHOT__FACES__MODELS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models"));
    for f in files {
        assert!(
            dir.join(f).is_file(),
            "{} is missing: run scripts/fetch-models.sh (or set RACESHOT__FACES__MODELS_DIR)",
            dir.join(f).display()
        );
    }
    dir
}
