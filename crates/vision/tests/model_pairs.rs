//! The commercial model pair (OpenCV Zoo's YuNet and SFace, `faces.model_pair =
//! yunet-sface`) against the real files fetched by `scripts/fetch-models.sh`: the folding
//! of their block-quantised weights, both runtimes, and the faces they find beside the
//! InsightFace pair's.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::PathBuf;

use raceshot_vision::{
    BBox, DecodeOptions, FaceEngine, FaceEngineConfig, FaceRuntime, ModelPair, PreparedModels,
    RgbImage, cosine, decode,
};
use sha2::{Digest, Sha256};

fn models_dir() -> PathBuf {
    common::models_dir_with(&[
        "face_detection_yunet_2023mar_int8bq.onnx",
        "face_recognition_sface_2021dec_int8bq.onnx",
        "scrfd_500m_bnkps.onnx",
        "libonnxruntime.so",
        "openvino/libopenvino_c.so",
        "photos/players.jpg",
    ])
}

fn engine(pair: ModelPair, runtime: FaceRuntime) -> FaceEngine {
    let mut config = FaceEngineConfig::with_models_dir(models_dir());
    config.model_pair = pair;
    config.runtime = runtime;
    FaceEngine::load(config).unwrap()
}

fn photo(name: &str) -> RgbImage {
    let bytes = std::fs::read(models_dir().join("photos").join(name)).unwrap();
    decode(&bytes, &DecodeOptions::default()).unwrap()
}

fn sha256(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// The files as shipped are pinned by `fetch-models.sh`; what the runtime loads is pinned
/// here: every `DequantizeLinear` folded (64 in YuNet, 29 in SFace), YuNet's input free
/// in size and reading BGR bytes, SFace's unread and constant inputs gone. A change to the
/// edits that changes a single weight changes these sums. (Checked once against ONNX
/// Runtime's own `DequantizeLinear` on the original SFace: the same embedding within
/// 4e-7 per component.)
#[test]
fn the_quantised_pair_is_folded_into_the_pinned_float_models() {
    let mut config = FaceEngineConfig::with_models_dir(models_dir());
    config.model_pair = ModelPair::YuNetSFace;
    let prepared = PreparedModels::read(&config).unwrap();
    assert_eq!(prepared.folded, (64, 29));
    assert_eq!(prepared.detector_dims, vec![1, 3, -1, -1]);
    assert_eq!(prepared.prelus_rewritten, 0, "OpenVINO runs PRelu as it is");
    assert_eq!(
        (sha256(&prepared.detector), sha256(&prepared.recognizer)),
        (DETECTOR_SHA256.to_owned(), RECOGNIZER_SHA256.to_owned())
    );
}

const DETECTOR_SHA256: &str = "97a8234db82a830beac6d2407d4b372ecd2ecf41ee4ef0e9d6416b5c9492aa4f";
const RECOGNIZER_SHA256: &str = "2da6c13636cb03626b92d025ae9d8087631e0fe99c3aa07fe32b961eec4652a9";

/// OpenCV 5.0's own `FaceDetectorYN` on the original YuNet file, each photo at its own
/// size (score threshold 0.5, NMS 0.4): `(x, y, w, h)` and the five landmarks.
#[rustfmt::skip]
const OPENCV_FACES: &[(&str, [f32; 14])] = &[
    ("yaoming.jpg", [70.5, 67.4, 105.8, 144.7, 99.5, 122.1, 150.6, 120.2, 123.9, 150.6, 104.3, 175.3, 146.5, 174.7]),
    ("gdp.jpg", [351.7, 122.3, 60.8, 83.3, 368.2, 152.7, 395.3, 152.5, 381.2, 170.0, 369.5, 183.0, 392.2, 182.8]),
    ("gdp.jpg", [130.1, 35.5, 62.3, 81.9, 148.9, 66.7, 175.9, 68.2, 161.4, 84.1, 147.1, 92.8, 169.6, 97.6]),
    ("gdp.jpg", [266.5, 61.0, 62.8, 91.9, 302.9, 96.4, 325.1, 96.8, 323.6, 114.1, 301.9, 129.1, 319.2, 130.4]),
    ("gdp.jpg", [2.1, 277.2, 28.1, 40.1, 8.0, 295.0, 20.7, 295.3, 14.0, 302.7, 10.0, 311.3, 19.6, 309.3]),
    ("gdp.jpg", [0.3, 230.5, 23.2, 41.8, -0.6, 246.5, 11.0, 247.1, 4.3, 255.8, 1.5, 263.5, 9.4, 263.5]),
    ("gdp.jpg", [373.0, 46.0, 40.3, 50.2, 387.2, 62.0, 401.9, 62.0, 397.0, 72.6, 390.9, 83.4, 400.4, 83.5]),
    ("gdp.jpg", [186.0, 107.7, 43.6, 54.3, 195.3, 128.9, 210.5, 129.3, 198.1, 140.0, 196.8, 145.5, 207.5, 147.3]),
    ("gdp.jpg", [60.9, 48.3, 36.4, 50.1, 72.4, 66.6, 85.5, 67.1, 79.1, 75.5, 73.6, 84.5, 83.2, 86.2]),
];

/// YuNet decoded here finds, on both runtimes, the boxes and landmarks OpenCV's detector
/// finds on the same photos at the same scale, and nothing else: in f32 (ONNX Runtime)
/// within rounding, in OpenVINO's bf16 (where the CPU has it) within a tenth of the face.
#[test]
fn yunet_finds_the_faces_opencv_finds() {
    for (runtime, least_iou, off_per_width) in [
        (FaceRuntime::OnnxRuntime, 0.95, 0.0),
        (FaceRuntime::OpenVino, 0.85, 0.1),
    ] {
        let yunet = engine(ModelPair::YuNetSFace, runtime);
        for name in ["yaoming.jpg", "gdp.jpg"] {
            let img = photo(name);
            let found = yunet
                .detect_at(&img, img.width().max(img.height()))
                .unwrap();
            let expected: Vec<&[f32; 14]> = OPENCV_FACES
                .iter()
                .filter(|(n, _)| *n == name)
                .map(|(_, f)| f)
                .collect();
            assert_eq!(found.len(), expected.len(), "{name} on {runtime:?}");
            for e in expected {
                let want = BBox {
                    x1: e[0],
                    y1: e[1],
                    x2: e[0] + e[2],
                    y2: e[1] + e[3],
                };
                let same = found
                    .iter()
                    .max_by(|a, b| a.bbox.iou(&want).total_cmp(&b.bbox.iou(&want)))
                    .unwrap();
                assert!(
                    same.bbox.iou(&want) > least_iou,
                    "{name} on {runtime:?}: {:?} against {want:?}",
                    same.bbox
                );
                for (got, want) in same.landmarks.iter().zip(e[4..].chunks_exact(2)) {
                    let off = (got[0] - want[0]).hypot(got[1] - want[1]);
                    assert!(
                        off < (off_per_width * e[2]).max(1.5),
                        "{name} on {runtime:?}: landmark {got:?} against {want:?}"
                    );
                }
            }
        }
    }
}

/// The whole pair on both runtimes: the team photo's 16 players found at the default
/// passes, each a 128-d embedding, OpenVINO's agreeing with ONNX Runtime's; and a
/// different photo of player 13 (yaoming.jpg) finds him and nobody else.
#[test]
fn sface_finds_the_player_from_another_photo_on_both_runtimes() {
    let onnx = engine(ModelPair::YuNetSFace, FaceRuntime::OnnxRuntime);
    let ov = engine(ModelPair::YuNetSFace, FaceRuntime::OpenVino);
    assert_eq!(
        (onnx.embedding_dim(), onnx.model_pair()),
        (128, ModelPair::YuNetSFace)
    );
    let team = photo("players.jpg");
    let selfie = photo("yaoming.jpg");
    let mut per_runtime = Vec::new();
    for e in [&onnx, &ov] {
        let faces = e.analyze(&team).unwrap();
        let players = faces.iter().filter(|f| f.bbox.min_side() >= 30.0).count();
        assert_eq!(players, 16, "{}", e.runtime());
        assert!(faces.iter().all(|f| f.embedding.dim() == 128));
        let me = e.analyze_selfie(&selfie).unwrap().unwrap();
        let mut scores: Vec<f32> = faces
            .iter()
            .map(|f| cosine(&f.embedding, &me.embedding))
            .collect();
        scores.sort_by(|a, b| b.total_cmp(a));
        println!(
            "{}: best {:.3}, second {:.3}",
            e.runtime(),
            scores[0],
            scores[1]
        );
        assert!(scores[0] > 0.6 && scores[1] < 0.4, "{scores:?}");
        per_runtime.push(faces);
    }
    let (a, b) = (&per_runtime[0], &per_runtime[1]);
    for f in a.iter().filter(|f| f.bbox.min_side() >= 30.0) {
        let same = b
            .iter()
            .max_by(|x, y| x.bbox.iou(&f.bbox).total_cmp(&y.bbox.iou(&f.bbox)))
            .unwrap();
        assert!(same.bbox.iou(&f.bbox) > 0.9);
        assert!(cosine(&same.embedding, &f.embedding) > 0.97);
    }
}
