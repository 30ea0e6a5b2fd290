//! What both runtimes share: the pool of sessions a model runs on, its threads, the
//! element types it takes, the outputs it hands back, and loading a runtime's shared
//! library once per process.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use crate::error::{Error, Result};

/// How many sessions a [`Pool`] holds and how many threads each may use
/// (0 = ONNX Runtime's choice).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SessionThreads {
    pub sessions: usize,
    pub intra: usize,
    pub inter: usize,
}

/// One output of a model run: its shape and values, borrowed from the runtime.
pub(crate) struct ModelOutput<'a> {
    pub shape: Vec<i64>,
    pub values: &'a [f32],
}

/// The element types the face models take: bytes (the detector's RGB rows) and floats
/// (the recogniser's normalised crops).
pub(crate) trait InputElement:
    ort::value::PrimitiveTensorElementType + std::fmt::Debug + Copy + Default + 'static
{
    /// The same type for OpenVINO.
    const OPENVINO: openvino::ElementType;
}

impl InputElement for u8 {
    const OPENVINO: openvino::ElementType = openvino::ElementType::U8;
}

impl InputElement for f32 {
    const OPENVINO: openvino::ElementType = openvino::ElementType::F32;
}

/// Sessions of one model: ONNX Runtime sessions or OpenVINO inference requests, each of
/// which runs one inference at a time (`ort` needs `&mut Session`). A caller takes any
/// free one, or waits for one in turn. Shared by the face engine and the text reader.
pub(crate) struct Pool<T> {
    sessions: Vec<Mutex<T>>,
    next: AtomicUsize,
}

impl<T> Pool<T> {
    /// `n` sessions (at least one), each made by `create`.
    pub(crate) fn filled(n: usize, mut create: impl FnMut() -> Result<T>) -> Result<Self> {
        let n = n.max(1);
        let mut sessions = Vec::with_capacity(n);
        for _ in 0..n {
            sessions.push(Mutex::new(create()?));
        }
        Ok(Self {
            sessions,
            next: AtomicUsize::new(0),
        })
    }

    /// How many sessions the pool holds.
    pub(crate) fn len(&self) -> usize {
        self.sessions.len()
    }

    pub(crate) fn with<R>(&self, f: impl FnOnce(&mut T) -> Result<R>) -> Result<R> {
        for m in &self.sessions {
            if let Ok(mut s) = m.try_lock() {
                return f(&mut s);
            }
        }
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.sessions.len().max(1);
        let m = self
            .sessions
            .get(i)
            .ok_or_else(|| Error::Runtime("no sessions".into()))?;
        // A panic elsewhere while holding the lock leaves the session itself intact.
        let mut s = m.lock().unwrap_or_else(PoisonError::into_inner);
        f(&mut s)
    }
}

pub(crate) fn existing(path: PathBuf, what: &'static str) -> Result<PathBuf> {
    if path.is_file() {
        Ok(path)
    } else {
        Err(Error::ModelNotFound { what, path })
    }
}

/// A model file's bytes, for the models edited in memory before they are loaded.
pub(crate) fn read_model(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| Error::Runtime(format!("reading {}: {e}", path.display())))
}

/// What a process-wide runtime library gave when it was loaded, with its path.
pub(crate) type Loaded<T> = std::result::Result<(PathBuf, T), String>;

/// The runtime `what` made by `init` from the shared library `library` on the first call
/// with `cell`; later calls get the same one, and an error if they name another library
/// (a dynamically loaded runtime stays loaded for the life of the process).
pub(crate) fn once_per_process<'a, T>(
    cell: &'a OnceLock<Loaded<T>>,
    library: &Path,
    what: &'static str,
    init: impl FnOnce(&Path) -> std::result::Result<T, String>,
) -> Result<&'a T> {
    let library = existing(library.to_path_buf(), what)?;
    // Absolute, so the loader never has to resolve it against the executable's directory.
    let library = std::fs::canonicalize(&library)
        .map_err(|e| Error::Runtime(format!("{}: {e}", library.display())))?;
    match cell.get_or_init(|| Ok((library.clone(), init(&library)?))) {
        Ok((path, runtime)) if *path == library => Ok(runtime),
        Ok((path, _)) => Err(Error::Runtime(format!(
            "{what} is already loaded from {} in this process; cannot also load {}",
            path.display(),
            library.display()
        ))),
        Err(e) => Err(Error::Runtime(format!(
            "loading {what} from {}: {e}",
            library.display()
        ))),
    }
}
