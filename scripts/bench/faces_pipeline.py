#!/usr/bin/env python3
"""Face-stage throughput, written the way most people would: onnxruntime + numpy + OpenCV.

The same detect + align + embed pipeline as crates/vision (and its example
`pipeline_bench`), with the same models, parameters and report format, so the two can
be compared side by side (scripts/bench/faces.sh runs both on the same photos).

Usage: faces_pipeline.py PHOTO_DIR [--models DIR] [--threads N] [--decode full|reduced2]
                          [--runtime onnxruntime|openvino]
                          [--fine-long-edge N] [--coarse-long-edge N] [--dump FACES.jsonl]
                          [--compare OTHER.jsonl]

Per photo:
  decode       cv2.imread: full-size decode (BGR), or with --decode reduced2 OpenCV's
               1/2-scale JPEG decode (IMREAD_REDUCED_COLOR_2), like the engine's DCT scaling
  detect       resize so the long edge is 1600 (enlarging by at most 2x, the engine's
               rule), pad right/bottom to a multiple of 32, SCRFD forward, decode strides
               8/16/32 with 2 anchors, score >= 0.5, NMS at IoU 0.4, back to photo pixels;
               the engine's fine pass: the same at long edge 3000 without enlarging
               (skipped unless that input is >= 1.25x larger than at 1600), and where it
               runs the main pass is at long edge 640 instead of 1600 and the fine pass
               keeps the faces the main pass sees under 32 px (150 px in its input); then
               the engine's coarse pass: the same at long edge 640 without enlarging
               (skipped unless that input is >= 1.25x smaller than the main pass's, so
               never beside the fine pass), keeping its faces of >= 32 px (in its input);
               NMS over all passes (--fine-long-edge 0 and --coarse-long-edge 0 turn them
               off, --with-fine-long-edge sets the 640, as the Rust example's flags)
  align        quality gate (score >= 0.6, shorter box side >= 20 px), least-squares
               5-point similarity to the ArcFace template, cv2.warpAffine to 112x112
  embed        recogniser forward per face, L2 normalisation
The first photo is processed once, untimed, as a warm-up. Each stage is reported as wall
time and as CPU time of the thread running it (time.thread_time), the run as a whole also
as process CPU time, with photos per CPU-second beside photos/s. ONNX Runtime runs with the
Rust engine's settings: 1 intra-op and 1 inter-op thread, all graph optimisations, no
spinning (--threads changes the intra-op count; 0 = onnxruntime's default), and OpenCV
on one thread too when --threads is 1.

--runtime openvino runs the same ONNX files on OpenVINO's Python runtime (the release whose
C library the shop loads), bf16 where the CPU computes it natively as the shop's `auto`
precision does, else f32; its thread count is --threads (0 = OpenVINO's default).

--dump writes each photo's faces (box in photo pixels, score, embedding) as JSON lines,
the format of the Rust example's --dump; --compare matches this run's faces to another
dump's (box IoU >= 0.5) and prints how close the embeddings are.
"""

import argparse
import json
import os
import sys
import time

import cv2
import numpy as np
import onnxruntime as ort

# Parameters of crates/vision/src/config.rs (defaults).
LONG_EDGE = 1600
MAX_UPSCALE = 2.0
COARSE_LONG_EDGE = 640
COARSE_MIN_SHRINK = 1.25  # crates/vision/src/detect.rs COARSE_MIN_SHRINK
COARSE_MIN_FACE_PX = 32.0  # crates/vision/src/detect.rs COARSE_MIN_FACE_PX
FINE_LONG_EDGE = 3000
WITH_FINE_LONG_EDGE = 640
FINE_MIN_GROWTH = 1.25  # crates/vision/src/detect.rs FINE_MIN_GROWTH
FINE_MAIN_MAX_FACE_PX = 32.0  # crates/vision/src/detect.rs FINE_MAIN_MAX_FACE_PX
SCORE_THRESHOLD = 0.5
NMS_IOU = 0.4
DET_MEAN, DET_STD = 127.5, 128.0
REC_MEAN, REC_STD = 127.5, 127.5
REC_SIZE = 112
MIN_FACE_PX = 16.0
MIN_SCORE = 0.5
STRIDES = (8, 16, 32)
ANCHORS = 2

ARCFACE_TEMPLATE = np.array(
    [
        [38.2946, 51.6963],
        [73.5318, 51.5014],
        [56.0252, 71.7366],
        [41.5493, 92.3655],
        [70.7299, 92.2041],
    ],
    dtype=np.float32,
)


class _Named:
    def __init__(self, name):
        self.name = name


class OpenVinoSession:
    """An OpenVINO compiled model answering as an onnxruntime session does (`run`,
    `get_inputs`, `get_outputs`), so the pipeline is the same on both runtimes."""

    def __init__(self, path, threads):
        import openvino as ov

        core = ov.Core()
        config = {}
        if threads:
            config["INFERENCE_NUM_THREADS"] = threads
        if "BF16" in core.get_property("CPU", "OPTIMIZATION_CAPABILITIES"):
            config["INFERENCE_PRECISION_HINT"] = "bf16"
        else:
            config["INFERENCE_PRECISION_HINT"] = "f32"
        self.compiled = core.compile_model(path, "CPU", config)
        self.request = self.compiled.create_infer_request()
        self.output_names = [o.get_any_name() for o in self.compiled.outputs]

    def get_inputs(self):
        return [_Named(i.get_any_name()) for i in self.compiled.inputs]

    def get_outputs(self):
        return [_Named(n) for n in self.output_names]

    def run(self, names, feeds):
        result = self.request.infer(feeds)
        by_name = {o.get_any_name(): result[o] for o in self.compiled.outputs}
        return [by_name[n] for n in (names or self.output_names)]


def session(path, threads, runtime="onnxruntime"):
    if runtime == "openvino":
        return OpenVinoSession(path, threads)
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.add_session_config_entry("session.intra_op.allow_spinning", "0")
    so.add_session_config_entry("session.inter_op.allow_spinning", "0")
    return ort.InferenceSession(path, sess_options=so, providers=["CPUExecutionProvider"])


class Pipeline:
    def __init__(self, models_dir, threads, coarse_long_edge=COARSE_LONG_EDGE, fine_long_edge=FINE_LONG_EDGE,
                 with_fine_long_edge=WITH_FINE_LONG_EDGE, runtime="onnxruntime"):
        self.coarse_long_edge = coarse_long_edge
        self.fine_long_edge = fine_long_edge
        self.with_fine_long_edge = with_fine_long_edge
        self.det = session(os.path.join(models_dir, "scrfd_500m_bnkps.onnx"), threads, runtime)
        self.rec = session(os.path.join(models_dir, "w600k_mbf.onnx"), threads, runtime)
        self.det_input = self.det.get_inputs()[0].name
        self.det_outputs = [o.name for o in self.det.get_outputs()]
        self.rec_input = self.rec.get_inputs()[0].name
        self.anchor_cache = {}

    def anchor_centers(self, height, width, stride):
        key = (height, width, stride)
        if key not in self.anchor_cache:
            centers = np.stack(np.mgrid[:height, :width][::-1], axis=-1).astype(np.float32)
            centers = (centers * stride).reshape(-1, 2)
            centers = np.stack([centers] * ANCHORS, axis=1).reshape(-1, 2)
            self.anchor_cache[key] = centers
        return self.anchor_cache[key]

    def detect(self, img):
        """Main pass, plus the fine and coarse passes where they change the scale enough;
        merged by NMS."""
        h, w = img.shape[:2]
        main = scaled_size(w, h, LONG_EDGE, MAX_UPSCALE)
        fine = scaled_size(w, h, self.fine_long_edge, 1.0) if self.fine_long_edge else None
        if fine is not None and max(fine) < max(main) * FINE_MIN_GROWTH:
            fine = None
        if fine is not None and self.with_fine_long_edge < LONG_EDGE:
            main = scaled_size(w, h, self.with_fine_long_edge, MAX_UPSCALE)
        boxes, scores, kps = self.detect_pass(img, main)
        passes = [(boxes, scores, kps)]
        if fine is not None:
            fb, fs, fk = self.detect_pass(img, fine)
            # Only the faces the main pass sees under 32 px count (boxes are in photo pixels).
            side = np.minimum(fb[:, 2] - fb[:, 0], fb[:, 3] - fb[:, 1]) * (main[0] / w)
            small = side < FINE_MAIN_MAX_FACE_PX
            passes.append((fb[small], fs[small], fk[small]))
        coarse = scaled_size(w, h, self.coarse_long_edge, 1.0) if self.coarse_long_edge else None
        if coarse is not None and max(coarse) * COARSE_MIN_SHRINK <= max(main):
            cb, cs, ck = self.detect_pass(img, coarse)
            # Only coarse faces of >= 32 px in the coarse input count (boxes are in photo pixels).
            side = np.minimum(cb[:, 2] - cb[:, 0], cb[:, 3] - cb[:, 1]) * (coarse[0] / w)
            big = side >= COARSE_MIN_FACE_PX
            passes.append((cb[big], cs[big], ck[big]))
        if len(passes) == 1:
            return boxes, scores, kps
        boxes, scores, kps = (np.concatenate([p[i] for p in passes]) for i in range(3))
        keep = nms(boxes, scores, NMS_IOU)
        return boxes[keep], scores[keep], kps[keep]

    def detect_pass(self, img, size):
        """One detector run with the photo resized to `size` (w, h); results in photo pixels."""
        h, w = img.shape[:2]
        sw, sh = size
        resized = cv2.resize(img, (sw, sh))
        iw, ih = -(-sw // 32) * 32, -(-sh // 32) * 32
        padded = np.zeros((ih, iw, 3), dtype=np.uint8)
        padded[:sh, :sw] = resized
        blob = cv2.dnn.blobFromImage(
            padded, 1.0 / DET_STD, (iw, ih), (DET_MEAN, DET_MEAN, DET_MEAN), swapRB=True
        )
        outs = self.det.run(self.det_outputs, {self.det_input: blob})
        # Outputs: scores for strides 8/16/32, then boxes, then keypoints.
        n = len(STRIDES)
        boxes_all, scores_all, kps_all = [], [], []
        for i, stride in enumerate(STRIDES):
            scores = outs[i].reshape(-1)
            dist = outs[i + n].reshape(-1, 4) * stride
            kps = outs[i + 2 * n].reshape(-1, 10) * stride
            centers = self.anchor_centers(ih // stride, iw // stride, stride)
            keep = np.where(scores >= SCORE_THRESHOLD)[0]
            c = centers[keep]
            d = dist[keep]
            boxes = np.stack(
                [c[:, 0] - d[:, 0], c[:, 1] - d[:, 1], c[:, 0] + d[:, 2], c[:, 1] + d[:, 3]],
                axis=-1,
            )
            k = kps[keep].reshape(-1, 5, 2) + c[:, None, :]
            boxes_all.append(boxes)
            scores_all.append(scores[keep])
            kps_all.append(k)
        boxes = np.concatenate(boxes_all)
        scores = np.concatenate(scores_all)
        kps = np.concatenate(kps_all)
        keep = nms(boxes, scores, NMS_IOU)
        boxes, scores, kps = boxes[keep], scores[keep], kps[keep]
        # Back to photo pixels; boxes clipped to the photo, as the engine does.
        sx, sy = w / sw, h / sh
        boxes = boxes * np.array([sx, sy, sx, sy], dtype=np.float32)
        boxes[:, [0, 2]] = boxes[:, [0, 2]].clip(0, w)
        boxes[:, [1, 3]] = boxes[:, [1, 3]].clip(0, h)
        kps = kps * np.array([sx, sy], dtype=np.float32)
        return boxes, scores, kps

    def align(self, img, boxes, scores, kps):
        side = np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
        good = (scores >= MIN_SCORE) & (side >= MIN_FACE_PX)
        crops, kept = [], []
        for i in np.where(good)[0]:
            m = similarity(kps[i], ARCFACE_TEMPLATE)
            if m is None:
                continue
            crops.append(cv2.warpAffine(img, m, (REC_SIZE, REC_SIZE), borderValue=0.0))
            kept.append(i)
        return crops, kept

    def embed(self, crops):
        out = []
        for crop in crops:
            blob = cv2.dnn.blobFromImage(
                crop, 1.0 / REC_STD, (REC_SIZE, REC_SIZE), (REC_MEAN, REC_MEAN, REC_MEAN),
                swapRB=True,
            )
            v = self.rec.run(None, {self.rec_input: blob})[0][0]
            out.append(v / np.linalg.norm(v))
        return out


def scaled_size(w, h, edge, max_upscale):
    """The engine's InputGeometry: long edge down to `edge`, or up by at most `max_upscale`."""
    long = max(h, w)
    if long >= edge:
        scale = edge / long
    else:
        scale = min(edge / long, max_upscale)
    return max(1, int(round(w * scale))), max(1, int(round(h * scale)))


def nms(boxes, scores, iou):
    """Greedy NMS; the IoU of two boxes without the +1 pixel convention, as the engine."""
    x1, y1, x2, y2 = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
    areas = np.maximum(x2 - x1, 0) * np.maximum(y2 - y1, 0)
    order = scores.argsort()[::-1]
    keep = []
    while order.size > 0:
        i = order[0]
        keep.append(i)
        xx1 = np.maximum(x1[i], x1[order[1:]])
        yy1 = np.maximum(y1[i], y1[order[1:]])
        xx2 = np.minimum(x2[i], x2[order[1:]])
        yy2 = np.minimum(y2[i], y2[order[1:]])
        inter = np.maximum(0.0, xx2 - xx1) * np.maximum(0.0, yy2 - yy1)
        union = areas[i] + areas[order[1:]] - inter
        ovr = np.where(union > 0, inter / np.maximum(union, 1e-12), 0.0)
        order = order[np.where(ovr <= iou)[0] + 1]
    return np.array(keep, dtype=np.int64)


def similarity(src, dst):
    """Least-squares similarity (Umeyama, 2-D) mapping src points onto dst, as a 2x3 matrix."""
    src = src.astype(np.float64)
    dst = dst.astype(np.float64)
    ms, md = src.mean(axis=0), dst.mean(axis=0)
    p, q = src - ms, dst - md
    norm = (p * p).sum()
    if not np.isfinite(norm) or norm <= 1e-12:
        return None
    a = (p * q).sum() / norm
    b = (p[:, 0] * q[:, 1] - p[:, 1] * q[:, 0]).sum() / norm
    tx = md[0] - (a * ms[0] - b * ms[1])
    ty = md[1] - (b * ms[0] + a * ms[1])
    return np.array([[a, -b, tx], [b, a, ty]], dtype=np.float64)


STAGES = ("decode", "detect", "align", "embed")


def process(pipe, path, flags=cv2.IMREAD_COLOR, box_scale=1.0):
    """Runs the pipeline on one photo; wall and thread CPU seconds per stage, faces, size."""
    marks = [(time.perf_counter(), time.thread_time())]

    def lap():
        marks.append((time.perf_counter(), time.thread_time()))

    img = cv2.imread(path, flags)
    if img is None:
        raise RuntimeError(f"cannot decode {path}")
    lap()
    boxes, scores, kps = pipe.detect(img)
    lap()
    crops, kept = pipe.align(img, boxes, scores, kps)
    lap()
    embeddings = pipe.embed(crops)
    lap()
    faces = [
        {
            "bbox": [float(v) * box_scale for v in boxes[i]],
            "score": float(scores[i]),
            "embedding": [float(v) for v in e],
        }
        for i, e in zip(kept, embeddings)
    ]
    stages = {"detected": len(scores), "embedded": len(faces)}
    for i, name in enumerate(STAGES):
        stages[name] = marks[i + 1][0] - marks[i][0]
        stages[name + "_cpu"] = marks[i + 1][1] - marks[i][1]
    size = (int(round(img.shape[1] * box_scale)), int(round(img.shape[0] * box_scale)))
    return stages, faces, size


def iou(a, b):
    iw = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    ih = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - iw * ih
    return iw * ih / union if union > 0 else 0.0


def compare(mine, other_path):
    """Matches faces between this run and another dump by box overlap; compares embeddings."""
    other = {}
    with open(other_path) as f:
        for line in f:
            d = json.loads(line)
            other[d["photo"]] = d["faces"]
    sims, only_mine, only_other = [], 0, 0
    for entry in mine:
        theirs = other.get(entry["photo"], [])
        used = set()
        for face in entry["faces"]:
            best, best_j = 0.0, None
            for j, t in enumerate(theirs):
                if j not in used:
                    v = iou(face["bbox"], t["bbox"])
                    if v > best:
                        best, best_j = v, j
            if best >= 0.5:
                used.add(best_j)
                sims.append(float(np.dot(face["embedding"], theirs[best_j]["embedding"])))
            else:
                only_mine += 1
        only_other += len(theirs) - len(used)
    if not sims:
        print(f"compare with {other_path}: no face matched")
        return
    s = np.array(sims)
    print(
        f"compare with {os.path.basename(other_path)}: {len(s)} faces matched (box IoU >= 0.5), "
        f"{only_other} only there, {only_mine} only here; embedding cosine "
        f"min {s.min():.3f} median {np.median(s):.3f} mean {s.mean():.3f}"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("photos")
    here = os.path.dirname(os.path.abspath(__file__))
    default_models = os.environ.get(
        "RACESHOT__FACES__MODELS_DIR", os.path.join(here, "..", "..", "models")
    )
    ap.add_argument("--models", default=default_models)
    ap.add_argument("--threads", type=int, default=1, help="intra-op threads (0 = default)")
    ap.add_argument("--decode", choices=("full", "reduced2"), default="full")
    ap.add_argument("--runtime", choices=("onnxruntime", "openvino"), default="onnxruntime")
    ap.add_argument("--coarse-long-edge", type=int, default=COARSE_LONG_EDGE,
                    help="long edge of the coarse detection pass (0 = off)")
    ap.add_argument("--fine-long-edge", type=int, default=FINE_LONG_EDGE,
                    help="long edge of the fine detection pass (0 = off)")
    ap.add_argument("--with-fine-long-edge", type=int, default=WITH_FINE_LONG_EDGE,
                    help="long edge of the main pass on photos that get the fine pass")
    ap.add_argument("--dump")
    ap.add_argument("--compare")
    args = ap.parse_args()

    photos = sorted(
        os.path.join(args.photos, f)
        for f in os.listdir(args.photos)
        if f.lower().endswith((".jpg", ".jpeg"))
    )
    if not photos:
        sys.exit(f"faces_pipeline: error: no JPEG photos in {args.photos}")
    for f in ("scrfd_500m_bnkps.onnx", "w600k_mbf.onnx"):
        if not os.path.isfile(os.path.join(args.models, f)):
            sys.exit(f"faces_pipeline: error: {f} missing in {args.models} (run scripts/fetch-models.sh)")
    if args.threads == 1:
        cv2.setNumThreads(1)
    flags, box_scale = cv2.IMREAD_COLOR, 1.0
    if args.decode == "reduced2":
        flags, box_scale = cv2.IMREAD_REDUCED_COLOR_2, 2.0

    pipe = Pipeline(args.models, args.threads, args.coarse_long_edge, args.fine_long_edge,
                    args.with_fine_long_edge, args.runtime)
    process(pipe, photos[0], flags, box_scale)  # warm-up

    totals = {"detected": 0, "embedded": 0}
    for name in STAGES:
        totals[name] = totals[name + "_cpu"] = 0.0
    dump, sizes = [], set()
    cpu_start = time.process_time()
    start = time.perf_counter()
    for p in photos:
        stages, faces, size = process(pipe, p, flags, box_scale)
        for k, v in stages.items():
            totals[k] += v
        sizes.add(size)
        dump.append({"photo": os.path.basename(p), "faces": faces})
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu_start

    n = len(photos)
    size_text = ", ".join(f"{w}x{h}" for w, h in sorted(sizes))
    print(
        f"pipeline: python (onnxruntime {ort.__version__}, numpy {np.__version__}, opencv {cv2.__version__}) "
        f"| {n} photos ({size_text}, decode {args.decode}) | detector long edge {LONG_EDGE}, "
        f"fine pass {args.fine_long_edge or 'off'} (main pass beside it {min(LONG_EDGE, args.with_fine_long_edge)}), coarse pass {args.coarse_long_edge or 'off'} | onnxruntime intra {args.threads} inter 1 "
        f"| workers 1"
    )
    rows = [(name, totals[name], totals[name + "_cpu"]) for name in STAGES]
    rows.append(
        (
            "align+embed",
            totals["align"] + totals["embed"],
            totals["align_cpu"] + totals["embed_cpu"],
        )
    )
    rows.append(("total", sum(r[1] for r in rows[:4]), sum(r[2] for r in rows[:4])))
    total = rows[-1][1]
    print("stage          ms/photo   share  cpu ms/photo")
    for name, w, c in rows:
        print(f"{name:<12} {w * 1000 / n:>10.1f} {100 * w / max(total, 1e-9):>6.1f}% {c * 1000 / n:>13.1f}")
    print(f"wall s: {wall:.2f}")
    print(f"cpu s: {cpu:.2f} (whole process, {100 * cpu / wall:.0f}% of wall)")
    print(f"photos/s: {n / wall:.2f}")
    print(f"photos per cpu-second: {n / max(cpu, 1e-9):.2f}")
    print(
        f"faces: {totals['embedded']} embedded of {totals['detected']} detected "
        f"({totals['embedded'] / n:.1f} per photo)"
    )
    if args.dump:
        with open(args.dump, "w") as f:
            for line in dump:
                f.write(json.dumps(line) + "\n")
    if args.compare:
        compare(dump, args.compare)


if __name__ == "__main__":
    main()
