#!/usr/bin/env python3
"""Generates the bib set: photos of runners with labelled bib numbers, for the bib reader's
benchmark (crates/vision/examples/bibs.rs).

Usage: make_bibs.py OUT_DIR [--models DIR] [--seed 7] [--small 10] [--medium 10] [--large 6]

The people are the 16 players and officials of the shipped team photo (players.jpg,
1237x800); nine of them wear legible jersey numbers (4, 5, 9-15), whose places were
measured once on the photo (JERSEYS below). The set holds:

* `players.jpg` itself, labelled with its nine real jersey numbers (11 included: people
  read it, though its plain strokes look like "II");
* `--small` copies at the photo's own size, `--medium` at 3000x2000 and `--large` at
  6000x4000 (the photo enlarged to fit, on a blurred copy of itself), each with a paper
  bib pinned over every numbered jersey: white or pale coloured, a black (sometimes dark
  blue or red) number of 1-6 digits, a letter prefix (not I, O or Q) one time in six,
  one of five OpenCV Hershey fonts, bold; its digits 0.35-0.55 of a face height tall
  (a long number on a narrow runner shrinks to at most 3 face widths); tilted up to 8
  degrees with a slight perspective, a thin sponsor line above the number on 40 % of
  them; then the frame is blurred a little (sigma 0.3-1.0 px at the photo's scale, more
  on enlarged frames), given sensor-like noise and saved at JPEG quality 60-90.

`labels.json` lists per photo its file, size and bibs (text, box x1, y1, x2, y2 in the
photo's pixels). Every bib-like string a reader finds that is not a label of its photo is
a false positive; the team photo's coaches' accreditation cards and the word CHINA are
the distractors.

Deterministic for a given seed; skips the work when OUT_DIR already holds the same set.
"""

import argparse
import json
import math
import os
import string

import cv2
import numpy as np

STAMP = ".make_bibs-v2"

# Jersey numbers of players.jpg: (number, x1, y1, x2, y2) of the printed digits and the
# face height above them, in the photo's pixels (measured on the photo).
JERSEYS = [
    ("4", 879, 557, 919, 598, 40),
    ("5", 670, 554, 706, 590, 40),
    ("9", 331, 319, 376, 373, 44),
    ("10", 211, 335, 278, 397, 44),
    ("11", 572, 295, 621, 348, 46),
    ("12", 171, 537, 234, 584, 42),
    ("13", 706, 266, 778, 327, 48),
    ("14", 856, 287, 924, 343, 46),
    ("15", 437, 310, 501, 368, 46),
]

FONTS = [
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
]
PAPER = [(255, 255, 255), (250, 250, 245), (170, 230, 255), (200, 255, 200), (255, 220, 200)]
PREFIXES = [c for c in string.ascii_uppercase if c not in "IOQ"]
INK = [(0, 0, 0), (0, 0, 0), (0, 0, 0), (90, 30, 10), (20, 20, 170)]  # BGR


def bib_text(rng):
    digits = int(rng.integers(1, 7))
    first = str(int(rng.integers(1, 10)))
    rest = "".join(str(int(d)) for d in rng.integers(0, 10, digits - 1))
    # No I, O or Q: on a bib they cannot be told from 1 and 0, so organisers avoid them.
    prefix = rng.choice(PREFIXES) if rng.random() < 1 / 6 else ""
    return prefix + first + rest


def render_bib(rng, text, digit_px):
    """The bib as an image with its number `digit_px` tall (before warping), and the box of
    the number on it."""
    font = int(rng.choice(FONTS))
    thickness = max(2, round(digit_px / 9))
    scale = cv2.getFontScaleFromHeight(font, digit_px, thickness)
    (tw, th), base = cv2.getTextSize(text, font, scale, thickness)
    pad_x = int(digit_px * rng.uniform(0.35, 0.6))
    pad_top = int(digit_px * rng.uniform(0.5, 0.9))
    pad_bottom = int(digit_px * rng.uniform(0.35, 0.6))
    w, h = tw + 2 * pad_x, th + base + pad_top + pad_bottom
    paper = PAPER[int(rng.integers(len(PAPER)))]
    ink = INK[int(rng.integers(len(INK)))]
    bib = np.full((h, w, 3), paper, np.uint8)
    org = (pad_x, pad_top + th)
    cv2.putText(bib, text, org, font, scale, ink, thickness, cv2.LINE_AA)
    if rng.random() < 0.4:
        # A thin sponsor line above the number, as race bibs have.
        sponsor = "".join(rng.choice(list("RACE CITY MARATHON 2026"), 10))
        s = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX, max(4, pad_top // 3), 1)
        cv2.putText(bib, sponsor, (pad_x, max(5, pad_top // 2)), cv2.FONT_HERSHEY_SIMPLEX, s,
                    (60, 60, 60), 1, cv2.LINE_AA)
    cv2.rectangle(bib, (0, 0), (w - 1, h - 1), (120, 120, 120), max(1, thickness // 3))
    return bib


def bib_image(rng, text, face_h):
    """The bib of `text` for a runner whose face is `face_h` pixels tall (`render_bib`),
    and the width to paste it at: its digits 0.35-0.55 of the face's height tall, a long
    number on a narrow runner squeezed to at most 3 face widths (0.8 face height each),
    its digits getting smaller."""
    digit_px = face_h * rng.uniform(0.35, 0.55)
    render_px = max(24, int(digit_px * 3))
    bib = render_bib(rng, text, render_px)
    width = min(bib.shape[1] * digit_px / render_px, face_h * 0.8 * 3.0)
    return bib, width


def paste_bib(rng, img, bib, cx, cy, width):
    """Warps the bib onto `img`, centred at (cx, cy), `width` wide, tilted and in slight
    perspective. Returns the box (x1, y1, x2, y2) of the pasted bib."""
    h0, w0 = bib.shape[:2]
    s = width / w0
    w, h = w0 * s, h0 * s
    angle = math.radians(rng.uniform(-8, 8))
    corners = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    # Perspective: one side a little shorter than the other.
    k = rng.uniform(-0.08, 0.08)
    corners[:, 1] *= 1 + k * np.sign(corners[:, 0])
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    dst = corners @ rot.T + np.array([cx, cy])
    src = np.array([[0, 0], [w0, 0], [w0, h0], [0, h0]], np.float32)
    # Warp into the bib's own neighbourhood only (a 24 MP frame per bib is slow).
    H, W = img.shape[:2]
    rx1, ry1 = (max(0, int(v) - 2) for v in dst.min(axis=0))
    rx2, ry2 = min(W, int(dst[:, 0].max()) + 3), min(H, int(dst[:, 1].max()) + 3)
    if rx2 <= rx1 or ry2 <= ry1:
        return None
    m = cv2.getPerspectiveTransform(src, (dst - [rx1, ry1]).astype(np.float32))
    size = (rx2 - rx1, ry2 - ry1)
    warped = cv2.warpPerspective(bib, m, size, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((h0, w0), 255, np.uint8), m, size, flags=cv2.INTER_AREA)
    # Shade the bib like the body it is pinned to.
    shade = rng.uniform(0.75, 1.05)
    a = (mask.astype(np.float32) / 255.0)[..., None]
    roi = img[ry1:ry2, rx1:rx2]
    roi[:] = (roi * (1 - a) + np.clip(warped * shade, 0, 255) * a).astype(np.uint8)
    x1, y1 = dst.min(axis=0)
    x2, y2 = dst.max(axis=0)
    return [round(float(x1), 1), round(float(y1), 1), round(float(x2), 1), round(float(y2), 1)]


def canvas(rng, src, size):
    """The photo enlarged to fit `size` on a blurred, enlarged copy of itself; returns the
    canvas and the scale and offset of the photo on it."""
    W, H = size
    h, w = src.shape[:2]
    s = min(W / w, H / h)
    bg = cv2.resize(src, (W, H), interpolation=cv2.INTER_LINEAR)
    bg = cv2.GaussianBlur(bg, (0, 0), 25)
    fg = cv2.resize(src, (round(w * s), round(h * s)), interpolation=cv2.INTER_CUBIC)
    ox, oy = (W - fg.shape[1]) // 2, (H - fg.shape[0]) // 2
    bg[oy : oy + fg.shape[0], ox : ox + fg.shape[1]] = fg
    return bg, s, ox, oy


def make_photo(rng, src, size):
    if size is None:
        img, s, ox, oy = src.copy(), 1.0, 0, 0
    else:
        img, s, ox, oy = canvas(rng, src, size)
    bibs = []
    used = set()
    for _, x1, y1, x2, y2, face_h in JERSEYS:
        text = bib_text(rng)
        while text in used:
            text = bib_text(rng)
        used.add(text)
        fh = face_h * s
        bib, width = bib_image(rng, text, fh)
        cx = ox + (x1 + x2) / 2 * s + rng.uniform(-0.1, 0.1) * fh
        cy = oy + (y1 + y2) / 2 * s + rng.uniform(-0.1, 0.1) * fh
        box = paste_bib(rng, img, bib, cx, cy, width)
        if box is None:
            continue
        bibs.append({"text": text, "box": box})
    sigma = rng.uniform(0.3, 1.0) * max(1.0, s)
    img = cv2.GaussianBlur(img, (0, 0), sigma)
    noise = rng.normal(0, 3, img.shape)
    img = np.clip(img + noise, 0, 255).astype(np.uint8)
    return img, bibs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--models", default=os.path.join(here, "..", "..", "models"))
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--small", type=int, default=10)
    ap.add_argument("--medium", type=int, default=10)
    ap.add_argument("--large", type=int, default=6)
    a = ap.parse_args()

    stamp = os.path.join(a.out, STAMP)
    params = json.dumps(vars(a) | {"out": None, "models": None}, sort_keys=True)
    if os.path.exists(stamp) and open(stamp).read() == params:
        print(f"{a.out}: up to date")
        return
    os.makedirs(a.out, exist_ok=True)
    src_path = os.path.join(a.models, "photos", "players.jpg")
    src = cv2.imread(src_path)
    if src is None:
        raise SystemExit(f"{src_path} is missing: run scripts/fetch-models.sh")
    rng = np.random.default_rng(a.seed)

    photos = []
    original = os.path.join(a.out, "players.jpg")
    with open(src_path, "rb") as f, open(original, "wb") as g:
        g.write(f.read())
    photos.append(
        {
            "file": "players.jpg",
            "width": src.shape[1],
            "height": src.shape[0],
            "bibs": [{"text": t, "box": [x1, y1, x2, y2]} for t, x1, y1, x2, y2, _ in JERSEYS],
        }
    )
    plan = [("s", None)] * a.small + [("m", (3000, 2000))] * a.medium + [("l", (6000, 4000))] * a.large
    for i, (tag, size) in enumerate(plan):
        img, bibs = make_photo(rng, src, size)
        name = f"bibs_{tag}{i:03d}.jpg"
        quality = int(rng.integers(60, 91))
        cv2.imwrite(os.path.join(a.out, name), img, [cv2.IMWRITE_JPEG_QUALITY, quality])
        photos.append({"file": name, "width": img.shape[1], "height": img.shape[0], "bibs": bibs})
        print(f"{name}: {img.shape[1]}x{img.shape[0]}, q{quality}, {' '.join(b['text'] for b in bibs)}")

    with open(os.path.join(a.out, "labels.json"), "w") as f:
        json.dump({"photos": photos}, f, indent=1)
    with open(stamp, "w") as f:
        f.write(params)
    n = sum(len(p["bibs"]) for p in photos)
    print(f"{len(photos)} photos, {n} bibs in {a.out}")


if __name__ == "__main__":
    main()
