//! OpenVINO's CPU runtime for the face and bib models (`faces.runtime = "openvino"`, the
//! default).
//!
//! OpenVINO reads the same ONNX files as ONNX Runtime and compiles them for the CPU it
//! runs on. On CPUs that compute bfloat16 natively (AVX512-BF16, AMX) it runs the
//! convolutions in bf16 unless told otherwise (`faces.openvino_precision`): SCRFD at a
//! 1600-px edge in about half the time of ONNX Runtime, MobileFaceNet at about 0.6 of the
//! time per face, with embeddings at cosine ≥ 0.998 of the f32 ones (docs/benchmarks.md,
//! Decisions the figures made).
//!
//! The library comes from OpenVINO's Python wheel (`scripts/fetch-models.sh` unpacks its C
//! API, core, CPU plugin, ONNX front end and TBB into `<models_dir>/openvino`) and is
//! loaded at run time, once per process, like ONNX Runtime. Two OpenVINO `Core`s compile
//! the models, so that the detector and the recogniser compile at once; a compiled model
//! gets one stream per session (`faces.sessions`) of `faces.intra_threads` threads
//! (`faces.inter_threads` is ONNX Runtime's alone), and each session is an inference
//! request taken from a [`Pool`].

use std::path::Path;
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use openvino::{
    CompiledModel, Core, DeviceType, InferRequest, PropertyKey, RwPropertyKey, Shape, Tensor,
};

use super::shared::{InputElement, Loaded, ModelOutput, Pool, SessionThreads, once_per_process};
use crate::config::OpenVinoPrecision;
use crate::error::{Error, Result};

/// An inference request and the input tensor it was last given.
struct Session {
    request: InferRequest,
    input: Option<Tensor>,
}

/// One model compiled for the CPU, with an inference request per session.
pub(crate) struct OvModel {
    requests: Pool<Session>,
    /// Input dimensions as the file declares them; -1 where any size is accepted.
    input_dims: Vec<i64>,
    /// How many outputs the model has.
    outputs: usize,
    /// The precision OpenVINO chose or was told (`f32`, `bf16`).
    precision: String,
    /// Kept alive for the requests' sake; never used after they are made.
    _compiled: Mutex<CompiledModel>,
}

impl OvModel {
    /// Reads the ONNX model `model` (read from `path`, perhaps edited) and compiles it with
    /// `threads.sessions` streams of `threads.intra` threads each (0: OpenVINO's choice).
    pub(crate) fn load(
        library: &Path,
        model: &[u8],
        path: &Path,
        threads: SessionThreads,
        precision: OpenVinoPrecision,
    ) -> Result<Self> {
        let mut core = core(library)?;
        let failed = |e: &dyn std::fmt::Display| {
            Error::Runtime(format!("OpenVINO, loading {}: {e}", path.display()))
        };
        let model = core
            .read_model_from_buffer(model, None)
            .map_err(|e| failed(&e))?;
        let input = model.get_input_by_index(0).map_err(|e| failed(&e))?;
        let input_dims = input
            .get_partial_shape()
            .map_err(|e| failed(&e))?
            .get_dimensions()
            .iter()
            .map(|d| if d.is_dynamic() { -1 } else { d.get_min() })
            .collect();

        // Core properties apply to the models compiled after them; every one is set for
        // each model under the core's lock, so one model's settings never leak into another's.
        let cpu = DeviceType::CPU;
        let sessions = threads.sessions.max(1);
        let precision = match precision {
            OpenVinoPrecision::F32 => "f32",
            OpenVinoPrecision::Auto => {
                let capabilities = core
                    .get_property(&cpu, &PropertyKey::DeviceCapabilities)
                    .map_err(|e| failed(&e))?;
                if capabilities.split_whitespace().any(|c| c == "BF16") {
                    "bf16"
                } else {
                    "f32"
                }
            }
        };
        let properties = [
            (RwPropertyKey::NumStreams, sessions.to_string()),
            // 0 leaves the count to OpenVINO.
            (
                RwPropertyKey::InferenceNumThreads,
                (threads.intra * sessions).to_string(),
            ),
            // Pinning would tie the streams to cores the HTTP server and the jobs also use.
            (RwPropertyKey::HintEnableCpuPinning, "NO".to_owned()),
            (RwPropertyKey::HintInferencePrecision, precision.to_owned()),
        ];
        for (key, value) in &properties {
            core.set_property(&cpu, key, value)
                .map_err(|e| failed(&format!("{}={value}: {e}", key.as_ref())))?;
        }
        let mut compiled = core.compile_model(&model, cpu).map_err(|e| failed(&e))?;
        let outputs = compiled.get_output_size().map_err(|e| failed(&e))?;
        let precision = compiled
            .get_property(&PropertyKey::Rw(RwPropertyKey::HintInferencePrecision))
            .map_err(|e| failed(&e))?
            .into_owned();
        let requests = Pool::filled(sessions, || {
            Ok(Session {
                request: compiled.create_infer_request().map_err(|e| failed(&e))?,
                input: None,
            })
        })?;
        Ok(Self {
            requests,
            input_dims,
            outputs,
            precision,
            _compiled: Mutex::new(compiled),
        })
    }

    pub(crate) fn input_dims(&self) -> &[i64] {
        &self.input_dims
    }

    pub(crate) fn precision(&self) -> &str {
        &self.precision
    }

    pub(crate) fn sessions(&self) -> usize {
        self.requests.len()
    }

    /// Runs the model on one f32 input of `shape`, written by `fill` straight into the
    /// request's input tensor, and hands its outputs, in the file's order, to `f`.
    pub(crate) fn run<T: InputElement, R>(
        &self,
        shape: &[usize],
        fill: impl FnOnce(&mut [T]),
        f: impl FnOnce(&[ModelOutput<'_>]) -> Result<R>,
    ) -> Result<R> {
        let failed = |e: openvino::InferenceError| Error::Runtime(format!("OpenVINO: {e}"));
        let dims: Vec<i64> = shape
            .iter()
            .map(|&d| i64::try_from(d).unwrap_or(i64::MAX))
            .collect();
        self.requests.with(|session| {
            // The last input is reused while the shape stays (every photo of a camera),
            // which spares allocating and zeroing tens of megabytes a detection.
            let input = match session.input.take() {
                Some(t)
                    if t.get_element_type().map_err(failed)? == T::OPENVINO
                        && t.get_shape().map_err(failed)?.get_dimensions() == dims.as_slice() =>
                {
                    t
                }
                _ => {
                    Tensor::new(T::OPENVINO, &Shape::new(&dims).map_err(failed)?).map_err(failed)?
                }
            };
            let Session {
                request,
                input: slot,
            } = session;
            let tensor = slot.insert(input);
            fill(tensor.get_data_mut::<T>().map_err(failed)?);
            request.set_input_tensor(tensor).map_err(failed)?;
            request.infer().map_err(failed)?;
            let tensors = (0..self.outputs)
                .map(|i| request.get_output_tensor_by_index(i).map_err(failed))
                .collect::<Result<Vec<_>>>()?;
            let outputs = tensors
                .iter()
                .map(|t| {
                    Ok(ModelOutput {
                        shape: t.get_shape().map_err(failed)?.get_dimensions().to_vec(),
                        values: t.get_data::<f32>().map_err(failed)?,
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            f(&outputs)
        })
    }
}

/// OpenVINO cores of the process, so that models compile in parallel: a compilation holds
/// its core (`compile_model` takes it mutably in the `openvino` crate).
const CORES: usize = 2;

/// A free one of the process-wide OpenVINO cores (the first if none is free), loaded from
/// `library` on first use. Later calls must name the same library.
fn core(library: &Path) -> Result<MutexGuard<'static, Core>> {
    static CORES_LOADED: OnceLock<Loaded<Vec<Mutex<Core>>>> = OnceLock::new();
    let cores = once_per_process(&CORES_LOADED, library, "OpenVINO library", |library| {
        openvino_sys::library::load_from(library)?;
        (0..CORES)
            .map(|_| Core::new().map(Mutex::new).map_err(|e| e.to_string()))
            .collect()
    })?;
    let free = cores.iter().find_map(|core| core.try_lock().ok());
    let first = || {
        cores
            .first()
            .map(|c| c.lock().unwrap_or_else(PoisonError::into_inner))
    };
    free.or_else(first)
        .ok_or_else(|| Error::Runtime("no OpenVINO core".to_owned()))
}
