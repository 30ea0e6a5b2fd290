#!/usr/bin/env python3
"""Generates 24-megapixel (6000x4000) JPEGs for the face-stage benchmarks.

Usage: make_24mp.py OUT_DIR [--models DIR] [--count 20] [--seed 7] [--quality 90]
                     [--mix crowd|race]

Each photo is a composition of upscaled crops of the shipped test photos players.jpg (a
team photo: 16 players and a crowd) and gdp.jpg (three players, large faces), in one of
four layouts taken in turn (a close-up of gdp.jpg over the whole frame; a gdp.jpg panel
beside a zoomed team crop; the whole team photo with its crowd and a gdp.jpg inset, like
a start line; a 2x2 grid of zoomed crops), with random crop, zoom, mirroring,
brightness and contrast, plus mild sensor-like noise so the JPEGs have a realistic size
(an upscaled image alone compresses far better than a camera photo). That is the default
mix, `crowd` (29 faces per photo on average). The `race` mix is course photos instead: a
zoomed crop of the team photo (zoom 1.6-5: from a few runners to a small group, 2-30
faces) in three photos of four, a close-up of gdp.jpg in the fourth. Deterministic for a
given seed. Skips the work when OUT_DIR already holds the same set (a stamp file records
the parameters).
"""

import argparse
import os
import sys

import cv2
import numpy as np

W, H = 6000, 4000
STAMP = ".make_24mp-v5"
RACE_GROUP = 4


def crop_to(rng, src, w, h, zoom, top=False):
    """A crop of src with aspect w:h covering 1/zoom of it, resized to w x h; with top,
    the crop starts near the top edge (where gdp.jpg's faces are)."""
    sh, sw = src.shape[:2]
    aspect = w / h
    cw = sw / zoom
    ch = cw / aspect
    if ch > sh / zoom:
        ch = sh / zoom
        cw = ch * aspect
    cw, ch = int(min(cw, sw)), int(min(ch, sh))
    x = int(rng.integers(0, sw - cw + 1))
    y = int(rng.integers(0, (sh - ch) // 10 + 1 if top else sh - ch + 1))
    part = src[y : y + ch, x : x + cw]
    if rng.random() < 0.5:
        part = part[:, ::-1]
    return cv2.resize(part, (w, h), interpolation=cv2.INTER_CUBIC)


def jitter(rng, img):
    alpha = rng.uniform(0.85, 1.15)  # contrast
    beta = rng.uniform(-20, 20)  # brightness
    return cv2.convertScaleAbs(img, alpha=alpha, beta=beta)


def compose(rng, players, gdp, layout):
    canvas = np.zeros((H, W, 3), dtype=np.uint8)
    if layout == RACE_GROUP:
        # A course photo: a few runners up to a small group, zoomed out of the team photo.
        canvas[:] = crop_to(rng, players, W, H, rng.uniform(1.6, 5.0))
    elif layout == 0:
        # Close-up: the top of gdp.jpg over the whole frame (two or three very large faces).
        canvas[:] = crop_to(rng, gdp, W, H, rng.uniform(1.0, 1.15), top=True)
    elif layout == 1:
        # A tall gdp.jpg panel beside a zoomed crop of the team photo.
        pw = int(rng.uniform(2400, 3000))
        panel = crop_to(rng, gdp, pw, H, rng.uniform(1.0, 1.2))
        rest = crop_to(rng, players, W - pw, H, rng.uniform(1.8, 2.5))
        if rng.random() < 0.5:
            canvas[:, :pw], canvas[:, pw:] = panel, rest
        else:
            canvas[:, : W - pw], canvas[:, W - pw :] = rest, panel
    elif layout == 2:
        # Start-line crowd: the whole team photo with its crowd, a gdp.jpg inset in a corner.
        canvas[:] = crop_to(rng, players, W, H, rng.uniform(1.0, 1.3))
        ih = int(rng.uniform(1400, 2000))
        iw = int(ih * 0.75)
        x = 0 if rng.random() < 0.5 else W - iw
        y = 0 if rng.random() < 0.5 else H - ih
        canvas[y : y + ih, x : x + iw] = crop_to(rng, gdp, iw, ih, 1.0)
    else:
        # A 2x2 grid of zoomed crops, each of either photo.
        for gy in range(2):
            for gx in range(2):
                src = players if rng.random() < 0.6 else gdp
                zoom = rng.uniform(1.8, 2.6) if src is players else 1.0
                tile = crop_to(rng, src, W // 2, H // 2, zoom)
                canvas[gy * H // 2 : (gy + 1) * H // 2, gx * W // 2 : (gx + 1) * W // 2] = tile
    canvas = jitter(rng, canvas)
    noise = rng.standard_normal(canvas.shape, dtype=np.float32) * np.float32(rng.uniform(5.0, 7.0))
    return np.clip(canvas.astype(np.float32) + noise, 0, 255).astype(np.uint8)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("out")
    ap.add_argument(
        "--models",
        default=os.environ.get("RACESHOT__FACES__MODELS_DIR", os.path.join(here, "..", "..", "models")),
    )
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--quality", type=int, default=90)
    ap.add_argument("--mix", choices=("crowd", "race"), default="crowd")
    args = ap.parse_args()

    stamp_text = f"count={args.count} seed={args.seed} quality={args.quality} mix={args.mix} size={W}x{H}\n"
    stamp = os.path.join(args.out, STAMP)
    if os.path.isfile(stamp) and open(stamp).read() == stamp_text:
        print(f"make_24mp: {args.count} photos already in {args.out}")
        return

    srcs = {}
    for name in ("players.jpg", "gdp.jpg"):
        path = os.path.join(args.models, "photos", name)
        img = cv2.imread(path, cv2.IMREAD_COLOR)
        if img is None:
            sys.exit(f"make_24mp: error: cannot read {path} (run scripts/fetch-models.sh)")
        srcs[name] = img

    os.makedirs(args.out, exist_ok=True)
    for f in os.listdir(args.out):
        if (f.startswith("race-") and f.endswith(".jpg")) or f.startswith(".make_24mp"):
            os.remove(os.path.join(args.out, f))
    total = 0
    for i in range(args.count):
        rng = np.random.default_rng([args.seed, i])
        if args.mix == "race":
            layout = 0 if i % 4 == 3 else RACE_GROUP
        else:
            layout = i % 4
        img = compose(rng, srcs["players.jpg"], srcs["gdp.jpg"], layout)
        path = os.path.join(args.out, f"race-{i:03d}.jpg")
        if not cv2.imwrite(path, img, [cv2.IMWRITE_JPEG_QUALITY, args.quality]):
            sys.exit(f"make_24mp: error: cannot write {path}")
        total += os.path.getsize(path)
    with open(stamp, "w") as f:
        f.write(stamp_text)
    print(
        f"make_24mp: wrote {args.count} photos {W}x{H} (JPEG quality {args.quality}, "
        f"{total / args.count / 1e6:.1f} MB on average) to {args.out}"
    )


if __name__ == "__main__":
    main()
