#!/usr/bin/env python3
"""The Python peer of `raceshot ingest --wait`: the same ingestion written the way a Python
team would write it, for the side-by-side benchmark (scripts/bench-ingest.sh).

Usage: ingest_peer.py PHOTO_DIR [--models DIR] [--threads 0] [--decode full|reduced2]
                       [--runtime onnxruntime|openvino] [--plain]

One photo at a time, each through the whole pipeline:

1. read the file, SHA-256 it, store the original (a file under a temporary directory);
2. decode it (`cv2.imdecode`; `--decode reduced2` uses OpenCV's 1/2-scale JPEG decode);
3. faces: the benchmark's Python pipeline (faces_pipeline.py: the same SCRFD and ArcFace
   ONNX files through onnxruntime, the same detection passes, quality gate and alignment);
   `--threads` is the runtime's thread count (0, the default, lets it use every core, as
   a script that does not set it does); `--runtime openvino` runs the models on OpenVINO,
   the runtime the shop uses; `--plain` detects in one pass at 1600 px, as a peer that
   does not look for small faces would (no fine pass at 3000 px, no coarse pass);
4. images: a 1600-px preview (`cv2.resize` INTER_AREA) with a tiled, semi-transparent text
   watermark, a 400-px thumbnail from the preview, both JPEG-encoded (quality 82 and 80);
5. storage and database: both files written, the photo and its faces (embedding bytes,
   box, score) inserted into SQLite in one transaction.

Prints the same report as scripts/bench-ingest.sh: photos/s (from the first photo to the
last, models loaded) and the mean time of each stage per photo. bench-ingest.sh compares
whole-process wall times, as it does for `raceshot ingest --wait`.
"""

import argparse
import hashlib
import os
import sqlite3
import sys
import tempfile
import time

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from faces_pipeline import Pipeline  # noqa: E402

PREVIEW_EDGE = 1600
THUMBNAIL_EDGE = 400
MARK = "RACESHOT"


def shrink(img, edge):
    h, w = img.shape[:2]
    if max(h, w) <= edge:
        return img
    s = edge / max(h, w)
    return cv2.resize(img, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)


def watermark(img):
    """A tiled, semi-transparent text mark over the whole preview."""
    h, w = img.shape[:2]
    overlay = img.copy()
    scale = max(h, w) / 1600 * 1.2
    (tw, th), _ = cv2.getTextSize(MARK, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
    for row, y in enumerate(range(th * 2, h, th * 5)):
        offset = 0 if row % 2 == 0 else -(tw // 2)
        for x in range(offset, w, tw + th * 2):
            cv2.putText(overlay, MARK, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), 2, cv2.LINE_AA)
    return cv2.addWeighted(overlay, 0.4, img, 0.6, 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("photos")
    ap.add_argument(
        "--models",
        default=os.environ.get("RACESHOT__FACES__MODELS_DIR", os.path.join(here, "..", "..", "models")),
    )
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--decode", choices=("full", "reduced2"), default="full")
    ap.add_argument("--runtime", choices=("onnxruntime", "openvino"), default="onnxruntime")
    ap.add_argument("--plain", action="store_true", help="one detection pass at 1600 px")
    args = ap.parse_args()

    files = sorted(f for f in os.listdir(args.photos) if f.lower().endswith(".jpg"))
    if not files:
        sys.exit(f"ingest_peer: no photos in {args.photos}")
    passes = {"coarse_long_edge": 0, "fine_long_edge": 0} if args.plain else {}
    pipe = Pipeline(args.models, args.threads, runtime=args.runtime, **passes)
    flags = cv2.IMREAD_REDUCED_COLOR_2 if args.decode == "reduced2" else cv2.IMREAD_COLOR
    box_scale = 2.0 if args.decode == "reduced2" else 1.0

    with tempfile.TemporaryDirectory() as work:
        db = sqlite3.connect(os.path.join(work, "shop.db"))
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, sha256 TEXT UNIQUE, name TEXT, width INT, height INT)")
        db.execute("CREATE TABLE faces (photo_id INT, embedding BLOB, x1 REAL, y1 REAL, x2 REAL, y2 REAL, score REAL)")
        os.makedirs(os.path.join(work, "originals"))
        os.makedirs(os.path.join(work, "derived"))
        stages = {k: 0.0 for k in ("read", "decode", "faces", "images", "store")}
        faces_total = 0
        started = time.perf_counter()
        for name in files:
            t0 = time.perf_counter()
            data = open(os.path.join(args.photos, name), "rb").read()
            digest = hashlib.sha256(data).hexdigest()
            with open(os.path.join(work, "originals", digest + ".jpg"), "wb") as f:
                f.write(data)
            t1 = time.perf_counter()
            img = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
            t2 = time.perf_counter()
            boxes, scores, kps = pipe.detect(img)
            crops, kept = pipe.align(img, boxes, scores, kps)
            embeddings = pipe.embed(crops)
            t3 = time.perf_counter()
            preview = shrink(img, PREVIEW_EDGE)
            thumb = cv2.imencode(".jpg", shrink(preview, THUMBNAIL_EDGE), [cv2.IMWRITE_JPEG_QUALITY, 80])[1]
            prev = cv2.imencode(".jpg", watermark(preview), [cv2.IMWRITE_JPEG_QUALITY, 82])[1]
            t4 = time.perf_counter()
            for suffix, blob in (("-preview.jpg", prev), ("-thumb.jpg", thumb)):
                with open(os.path.join(work, "derived", digest + suffix), "wb") as f:
                    f.write(blob.tobytes())
            h, w = img.shape[:2]
            with db:
                cur = db.execute(
                    "INSERT INTO photos (sha256, name, width, height) VALUES (?, ?, ?, ?)",
                    (digest, name, int(w * box_scale), int(h * box_scale)),
                )
                db.executemany(
                    "INSERT INTO faces VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [
                        (cur.lastrowid, e.astype(np.float32).tobytes(), *(float(v) * box_scale for v in boxes[i]), float(scores[i]))
                        for i, e in zip(kept, embeddings)
                    ],
                )
            t5 = time.perf_counter()
            faces_total += len(embeddings)
            for k, (a, b) in zip(stages, ((t0, t1), (t1, t2), (t2, t3), (t3, t4), (t4, t5))):
                stages[k] += b - a
        wall = time.perf_counter() - started

    n = len(files)
    print(f"photos/s after loading: {n / wall:.2f}  ({n} photos in {wall:.1f} s, {faces_total / n:.1f} faces per photo)")
    print("mean per photo (one photo at a time):")
    for k, label in (("read", "read+hash+original"), ("decode", "decode"), ("faces", "detect+align+embed"), ("images", "preview+thumbnail"), ("store", "storage+database")):
        print(f"  {label:20s} {stages[k] / n * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
