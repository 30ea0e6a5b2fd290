#!/usr/bin/env python3
"""The int8 recogniser experiment: quantises w600k_mbf.onnx with ONNX Runtime's own tools
(static, QDQ, per-channel weights, calibrated on aligned faces of the shipped photos) and
compares it with the fp32 model on this machine: milliseconds per face at batch 1 and 16
(one intra-op thread, as the engine runs) and the cosine agreement of the embeddings.

Usage: quantize_recognizer.py OUT_DIR [--models DIR]     (the bench venv: requirements.txt pins onnx)

Measured here it does not pay (docs/benchmarks.md, "Levers tried and not kept"), so the
shop does not ship it; this script keeps the measurement repeatable on other CPUs.
"""

import argparse
import os
import sys
import time

import cv2
import numpy as np
import onnx
from onnx import version_converter
from onnxruntime.quantization import (
    CalibrationDataReader,
    CalibrationMethod,
    QuantFormat,
    QuantType,
    quantize_static,
)
from onnxruntime.quantization.shape_inference import quant_pre_process

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from faces_pipeline import REC_MEAN, REC_SIZE, REC_STD, Pipeline, session  # noqa: E402


def faces(pipe, models_dir):
    """Aligned faces of the shipped photos at three scales."""
    crops = []
    for name in ("players.jpg", "gdp.jpg", "yaoming.jpg"):
        img = cv2.imread(os.path.join(models_dir, "photos", name))
        for scale in (1.0, 1.5, 2.0):
            im = cv2.resize(img, None, fx=scale, fy=scale) if scale != 1.0 else img
            crops += pipe.align(im, *pipe.detect(im))[0]
    return crops


def blob(crops):
    return np.concatenate(
        [
            cv2.dnn.blobFromImage(c, 1.0 / REC_STD, (REC_SIZE, REC_SIZE), (REC_MEAN,) * 3, swapRB=True)
            for c in crops
        ]
    )


class Faces(CalibrationDataReader):
    def __init__(self, crops, name):
        rng = np.random.default_rng(1)
        varied = []
        for c in crops:
            varied += [c, c[:, ::-1].copy(), cv2.convertScaleAbs(c, alpha=rng.uniform(0.7, 1.3), beta=rng.uniform(-30, 30))]
        self.items = iter(varied)
        self.name = name

    def get_next(self):
        c = next(self.items, None)
        return None if c is None else {self.name: blob([c])}


def per_face_ms(path, data, batch):
    s = session(path, 1)
    name = s.get_inputs()[0].name
    out = []
    started = time.perf_counter()
    for _ in range(3):
        out = [s.run(None, {name: data[i : i + batch]})[0] for i in range(0, len(data), batch)]
    ms = (time.perf_counter() - started) / 3 / len(data) * 1000
    e = np.concatenate(out)
    return ms, e / np.linalg.norm(e, axis=1, keepdims=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("out")
    ap.add_argument(
        "--models",
        default=os.environ.get("RACESHOT__FACES__MODELS_DIR", os.path.join(here, "..", "..", "models")),
    )
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    fp32 = os.path.join(args.models, "w600k_mbf.onnx")
    op13 = os.path.join(args.out, "w600k_mbf_op13.onnx")
    pre = os.path.join(args.out, "w600k_mbf_pre.onnx")
    int8 = os.path.join(args.out, "w600k_mbf_int8.onnx")

    pipe = Pipeline(args.models, 1)
    crops = faces(pipe, args.models)
    # The export is opset 11, whose DequantizeLinear has no per-channel axis.
    onnx.save(version_converter.convert_version(onnx.load(fp32), 13), op13)
    quant_pre_process(op13, pre, skip_symbolic_shape=True)
    quantize_static(
        pre,
        int8,
        Faces(crops, pipe.rec_input),
        quant_format=QuantFormat.QDQ,
        per_channel=True,
        activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8,
        calibrate_method=CalibrationMethod.MinMax,
        op_types_to_quantize=["Conv", "Gemm"],
    )
    data = blob(crops[:32])
    print(f"{len(crops)} calibration faces (x3 with flips and lighting); timing on {len(data)} faces")
    results = {}
    for label, path in (("fp32", fp32), ("int8", int8)):
        for batch in (1, 16):
            ms, e = per_face_ms(path, data, batch)
            results[label] = e
            print(f"{label} batch {batch:2d}: {ms:6.2f} ms per face")
    cos = (results["fp32"] * results["int8"]).sum(axis=1)
    print(f"cosine fp32 vs int8: min {cos.min():.3f}, median {np.median(cos):.3f}, mean {cos.mean():.3f}")


if __name__ == "__main__":
    main()
