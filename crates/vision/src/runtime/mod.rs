//! The two inference runtimes behind one [`RuntimeModel`]: OpenVINO ([`ov`], the
//! default for the face models) and ONNX Runtime ([`onnx`]). Each model hands its
//! outputs back as shapes and `f32` slices, whatever runs it.

mod onnx;
mod ov;
mod shared;

use std::path::{Path, PathBuf};

use ort::value::TensorRef;

use self::onnx::SessionPool;
pub(crate) use self::onnx::environment;
use self::ov::OvModel;
pub(crate) use self::shared::{InputElement, ModelOutput, SessionThreads, existing, read_model};
use crate::config::{FaceRuntime, OpenVinoPrecision};
use crate::error::{Error, Result};

/// A model on the runtime the configuration names (`faces.runtime`): the face engine's
/// two and the text reader's two.
pub(crate) enum RuntimeModel {
    OnnxRuntime {
        sessions: SessionPool,
        input: String,
        input_dims: Vec<i64>,
    },
    OpenVino(OvModel),
}

/// What a [`RuntimeModel`] is loaded on: the runtime, its libraries and its threads.
pub(crate) struct RuntimeSetup {
    pub runtime: FaceRuntime,
    pub openvino_library: PathBuf,
    pub openvino_precision: OpenVinoPrecision,
    pub onnxruntime_library: PathBuf,
    pub threads: SessionThreads,
}

impl RuntimeModel {
    /// The ONNX model `model` (read from `path`, perhaps edited) on `on`'s runtime, which is
    /// loaded once per process; `what` names the model in errors.
    pub(crate) fn load(on: &RuntimeSetup, model: &[u8], path: &Path, what: &str) -> Result<Self> {
        match on.runtime {
            FaceRuntime::OpenVino => {
                let precision = on.openvino_precision;
                OvModel::load(&on.openvino_library, model, path, on.threads, precision)
                    .map(Self::OpenVino)
            }
            FaceRuntime::OnnxRuntime => {
                let env = environment(&on.onnxruntime_library)?;
                let sessions = SessionPool::from_memory(&env, model, path, on.threads)?;
                Self::onnx(sessions, what)
            }
        }
    }

    /// Wraps ONNX Runtime sessions, reading the input's name and dimensions.
    fn onnx(sessions: SessionPool, what: &str) -> Result<Self> {
        let (input, input_dims) = sessions.with(|s| {
            let input = s
                .inputs()
                .first()
                .ok_or_else(|| Error::Model(format!("{what} has no input")))?;
            let dims = input
                .dtype()
                .tensor_shape()
                .map(|sh| sh.iter().copied().collect())
                .unwrap_or_default();
            Ok((input.name().to_string(), dims))
        })?;
        Ok(Self::OnnxRuntime {
            sessions,
            input,
            input_dims,
        })
    }

    /// The input's dimensions as the file declares them; -1 (or less) where any size goes.
    pub(crate) fn input_dims(&self) -> &[i64] {
        match self {
            Self::OnnxRuntime { input_dims, .. } => input_dims,
            Self::OpenVino(m) => m.input_dims(),
        }
    }

    pub(crate) fn sessions(&self) -> usize {
        match self {
            Self::OnnxRuntime { sessions, .. } => sessions.len(),
            Self::OpenVino(m) => m.sessions(),
        }
    }

    /// The runtime and the precision it computes in, e.g. `openvino bf16`.
    pub(crate) fn runtime(&self) -> String {
        match self {
            Self::OnnxRuntime { .. } => "onnxruntime f32".to_owned(),
            Self::OpenVino(m) => format!("openvino {}", m.precision()),
        }
    }

    /// Runs the model on one input of `shape` (bytes or floats, as the model takes),
    /// written by `fill` into a buffer of exactly that many values, and hands its float
    /// outputs, in the file's order, to `f` while the runtime still holds them.
    pub(crate) fn run<T: InputElement, R>(
        &self,
        shape: &[usize],
        fill: impl FnOnce(&mut [T]),
        f: impl FnOnce(&[ModelOutput<'_>]) -> Result<R>,
    ) -> Result<R> {
        match self {
            Self::OpenVino(m) => m.run(shape, fill, f),
            Self::OnnxRuntime {
                sessions, input, ..
            } => {
                let mut data = vec![T::default(); shape.iter().product()];
                fill(&mut data);
                let tensor = TensorRef::from_array_view((shape.to_vec(), data.as_slice()))?;
                sessions.with(|s| {
                    let outputs = s.run(ort::inputs![input.as_str() => tensor])?;
                    let names: Vec<String> = outputs.keys().map(str::to_string).collect();
                    let mut all = Vec::with_capacity(names.len());
                    for name in &names {
                        let value = outputs
                            .get(name.as_str())
                            .ok_or_else(|| Error::Model(format!("output {name} missing")))?;
                        let (shape, values) = value
                            .try_extract_tensor::<f32>()
                            .map_err(|e| Error::Model(format!("output {name}: {e}")))?;
                        all.push(ModelOutput {
                            shape: shape.iter().copied().collect(),
                            values,
                        });
                    }
                    f(&all)
                })
            }
        }
    }
}
