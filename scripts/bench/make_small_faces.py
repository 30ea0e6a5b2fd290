#!/usr/bin/env python3
"""Generates the small-face set: race-condition photos with labelled identities.

Usage: make_small_faces.py OUT_DIR [--models DIR] [--photos 40] [--seed 11] [--size 3000x2000]
                            [--selfies-from DEV_DIR [--selfies-per-person K] [--burst N]]
                            [--blur-scale F] [--face-scale F] [--jpeg-quality Q] [--bibs]

The people are the faces of the shipped test photos (the 16 players of players.jpg and
the three of gdp.jpg: 19 identities), found with the benchmark's
Python detector (faces_pipeline.py). Each person gets:

* a selfie, `selfies/<id>.jpg`: a head-and-shoulders crop of their source photo, enlarged
  so the face is ~200 px wide, mirrored, JPEG quality 92 (a clean, frontal selfie);
* appearances in the photos: the same crop shrunk so the face is 35-110 px wide (log-
  uniform), blurred (Gaussian, sigma 0.3-1.2 px after shrinking, as a distant runner
  seen through a long lens or with slight motion), re-lit (contrast 0.75-1.2, brightness
  -35..+25, gamma 0.8-1.25) and pasted with a feathered edge.

Each photo is 3000x2000 (`--size 6000x4000` makes 24-megapixel frames with the same face
sizes, so the faces are half as large relative to the frame): a background with sensor-like noise (every other photo the team
photo's crowd, zoomed, with the people of the set blurred out: its spectators are
distractor faces; the others a heavily blurred crop with no face), 6-10 distinct people
pasted at random places, and the whole frame saved at JPEG quality 55-80. `labels.json` lists, per
photo, each person's identity, the source photo the face was made from and the face box
(x1, y1, x2, y2 in photo pixels), and the selfies. The people absent from a photo are its
negatives, so precision is measured over every (person, photo) pair.

With `--selfies-from DEV_DIR` (the labelled dev set: `labels.tsv` and its photos) the set
does not flatter: its searched people are the dev set's people with two photos or more,
each selfie is one photo of the person and every appearance is made from *another* photo
of them, so the selfie never shares pixels with what it should find. Appearances are
also disguised at random: sunglasses (dark lenses over the eyes, a quarter of them), a cap
(a band over the forehead, a quarter) and a turned head (the face squeezed to 65-85 % of
its width, a cheap stand-in for a head turned away, three in ten). The shipped photos'
19 people are pasted beside them as strangers with no selfie.

`--selfies-per-person K` (with `--selfies-from`) gives each searched person K selfies,
their first K photos by name, and makes their appearances from the photos after those:
only the dev set's people with K + 1 photos or more are searched. The small-face benchmark
then measures the selfies alone and together ("add another photo of me").

`--burst N` (with `--selfies-from`) takes the photos in bursts of N frames, half a second
apart, by one camera: the same people in each frame of a burst, each moving (drifting by up
to half a face width a frame and coming closer, the face growing by 0-12 %), wearing the
same sunglasses or cap through the burst, with the head turned, the blur and the light
drawn anew for every frame; someone who would cover another is left out of that frame.
`labels.json` gives each photo its `burst`, `frame` and `taken_ms`. The small-face
benchmark then measures matching by sequence.

`--blur-scale F` multiplies each appearance's blur (0: none) and changes nothing else: the
same people, places, disguises and light, so a lever can be measured on faces only shrunk.

`--face-scale F` multiplies every appearance's face width and blur: with `--size 6000x4000
--face-scale 2`, the 3000x2000 sets' runners as a 24-megapixel camera sees them from the
same place (faces 70-220 px), where the plain 24 MP set puts them twice as far away.
`--jpeg-quality Q` saves every photo at quality Q instead of 55-80.

`--bibs` pins a paper bib on every appearance, as on a runner's chest: each person of the
set (searched or stranger) wears one number through the whole set (3-5 digits, no two
alike), drawn as make_bibs.py draws its bibs (white or pale paper, a dark number in a
Hershey font, its digits 0.35-0.55 of a face height tall, slightly tilted), centred under
the face 1.5-2.5 face heights below its chin and blurred as much as the face. A bib that
would leave the frame or cover a pasted face (or another bib) is left out. The bibs are
drawn after the people, before the frame is compressed, with a random generator of their
own (seeded from `--seed`), so everything else is the set without `--bibs`. `labels.json`
then gives each labelled face its `bib` (the number) and `bib_box` (x1, y1, x2, y2 in
photo pixels), both null when no bib was drawn.

Deterministic for a given seed; skips the work when OUT_DIR already holds the same set (a
stamp file records the parameters).
"""

import argparse
import json
import math
import os
import sys

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_bibs  # noqa: E402
from faces_pipeline import Pipeline  # noqa: E402

W, H = 3000, 2000  # --size sets these
STAMP = ".make_small_faces-v8"
# yaoming.jpg is left out: its player is also in players.jpg (one person, two identities,
# would count his every match as false).
SOURCES = ("players.jpg", "gdp.jpg")
# Only the source photos' sharp foreground faces are people of the set (players.jpg's crowd
# faces are 9-15 px and gdp.jpg's two background faces are blurred: neither gives a selfie).
MIN_SOURCE_FACE = 35
SELFIE_FACE = 200
FACE_MIN, FACE_MAX = 35.0, 110.0
BLUR_SCALE = 1.0  # --blur-scale sets it
FACE_SCALE = 1.0  # --face-scale sets it
JPEG_QUALITY = None  # --jpeg-quality sets it


def people(models_dir):
    """Every identity: its source image (with every other person of the set blurred out,
    so a crop around one face never shows another's) and its face box there; and the
    source photos with all of them blurred out, for backgrounds."""
    pipe = Pipeline(models_dir, 1)
    found, blank = [], []
    for name in SOURCES:
        img = cv2.imread(os.path.join(models_dir, "photos", name))
        if img is None:
            sys.exit(f"make_small_faces: cannot read {name} in {models_dir}/photos")
        boxes, scores, _ = pipe.detect(img)
        mine = [
            [float(v) for v in box]
            for box, score in zip(boxes, scores)
            if score >= 0.6 and min(box[2] - box[0], box[3] - box[1]) >= MIN_SOURCE_FACE
        ]
        for box in mine:
            others = [b for b in mine if b is not box]
            found.append((name, blur_out(img, others), box))
        blank.append(blur_out(img, mine))
    found.sort(key=lambda p: (p[0], p[2][0]))
    everyone = [
        {"id": f"p{i:02d}", "source": name, "img": img, "box": box}
        for i, (name, img, box) in enumerate(found)
    ]
    return everyone, blank


def dev_people(dev_dir, models_dir, least):
    """The dev set's people with `least` single-person photos or more: per identity, each
    photo's largest face (box and landmarks), photos in file-name order."""
    pipe = Pipeline(models_dir, 1)
    by_identity = {}
    with open(os.path.join(dev_dir, "labels.tsv")) as f:
        rows = [line.rstrip("\n").split("\t") for line in f][1:]
    for file, identity in sorted(rows):
        if identity == "group":
            continue
        img = cv2.imread(os.path.join(dev_dir, file))
        if img is None:
            sys.exit(f"make_small_faces: cannot read {file} in {dev_dir}")
        boxes, scores, kps = pipe.detect(img)
        if len(boxes) == 0:
            continue
        i = int(np.argmax((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])))
        by_identity.setdefault(identity, []).append(
            {"file": file, "img": img, "box": [float(v) for v in boxes[i]], "kps": kps[i].reshape(5, 2)}
        )
    return {who: shots for who, shots in by_identity.items() if len(shots) >= least}


def disguise(rng, shot):
    """A copy of a photo of a person, perhaps with sunglasses, a cap or the head turned
    (see the module's documentation), and the face box in it."""
    img, box = wear(rng, shot)
    return turn(rng, img, box)


def wear(rng, shot):
    """A copy of a photo of a person, perhaps with sunglasses or a cap, and the face box."""
    img, box, kps = shot["img"].copy(), list(shot["box"]), shot["kps"]
    x1, y1, x2, y2 = box
    fw, fh = x2 - x1, y2 - y1
    (lx, ly), (rx, ry) = kps[0], kps[1]
    if rng.random() < 0.25:
        r = (int(fw * 0.15), int(fh * 0.09))
        for cx, cy in ((lx, ly), (rx, ry)):
            cv2.ellipse(img, (int(cx), int(cy)), r, 0, 0, 360, (20, 20, 25), -1, cv2.LINE_AA)
        cv2.line(img, (int(lx), int(ly)), (int(rx), int(ry)), (20, 20, 25), max(1, int(fw * 0.03)))
    if rng.random() < 0.25:
        colour = tuple(int(c) for c in rng.integers(20, 230, 3))
        eye = min(ly, ry)
        top, bottom = int(y1 - fh * 0.35), int(eye - fh * 0.14)
        left, right = int(x1 - fw * 0.12), int(x2 + fw * 0.12)
        cv2.rectangle(img, (left, max(0, top)), (right, max(0, bottom)), colour, -1)
        cv2.rectangle(img, (left, max(0, bottom - int(fh * 0.05))), (int(right + fw * 0.2), max(0, bottom)), colour, -1)
    return img, box


def turn(rng, img, box):
    """The picture with the head perhaps turned (the face squeezed), and its face box."""
    x1, y1, x2, y2 = box
    fw = x2 - x1
    if rng.random() < 0.3:
        squeeze = rng.uniform(0.65, 0.85)
        cx = (x1 + x2) / 2
        m = np.float32([[squeeze, 0, cx * (1 - squeeze)], [0, 1, 0]])
        img = cv2.warpAffine(img, m, (img.shape[1], img.shape[0]), borderMode=cv2.BORDER_REPLICATE)
        box = [cx - fw * squeeze / 2, y1, cx + fw * squeeze / 2, y2]
    return img, box


def blur_out(img, boxes):
    """A copy of img with each box (grown by half its size) blurred beyond recognition."""
    out = img.copy()
    h, w = img.shape[:2]
    for x1, y1, x2, y2 in boxes:
        gw, gh = (x2 - x1) / 2, (y2 - y1) / 2
        a, b = int(max(0, x1 - gw)), int(max(0, y1 - gh))
        c, d = int(min(w, x2 + gw)), int(min(h, y2 + gh))
        out[b:d, a:c] = cv2.GaussianBlur(out[b:d, a:c], (0, 0), max(gw, gh))
    return out


def portrait(person):
    """A head-and-shoulders crop around the face, and the face box inside the crop."""
    img, (x1, y1, x2, y2) = person["img"], person["box"]
    fw, fh = x2 - x1, y2 - y1
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    half = max(fw, fh) * 1.1
    h, w = img.shape[:2]
    left = int(max(0, math.floor(cx - half)))
    top = int(max(0, math.floor(cy - half * 0.9)))
    right = int(min(w, math.ceil(cx + half)))
    bottom = int(min(h, math.ceil(cy + half * 1.3)))
    crop = img[top:bottom, left:right]
    return crop, (x1 - left, y1 - top, x2 - left, y2 - top)


def feather_mask(h, w):
    """An elliptical mask with a soft edge, so a pasted crop blends into the background."""
    yy, xx = np.mgrid[:h, :w].astype(np.float32)
    d = ((xx - (w - 1) / 2) / (w / 2)) ** 2 + ((yy - (h - 1) / 2) / (h / 2)) ** 2
    return np.clip((1.0 - d) / 0.35, 0.0, 1.0)[..., None]


def relight(rng, img):
    alpha = rng.uniform(0.75, 1.2)
    beta = rng.uniform(-35, 25)
    gamma = rng.uniform(0.8, 1.25)
    out = np.clip(img.astype(np.float32) * alpha + beta, 0, 255) / 255.0
    return np.clip(out ** gamma * 255.0, 0, 255).astype(np.uint8)


def background(rng, blank, crowd):
    """A race-photo background: with `crowd`, a zoomed crop of the team photo with its
    people blurred out (the spectators' faces stay, 20-60 px wide here: distractors the
    detector finds); otherwise a heavily blurred crop of any source (no face at all)."""
    src = blank[0] if crowd else blank[int(rng.integers(len(blank)))]
    sh, sw = src.shape[:2]
    zoom = rng.uniform(1.0, 1.6) if crowd else rng.uniform(1.7, 3.3)
    cw, ch = int(sw / zoom), int(sw / zoom * H / W)
    ch = min(ch, sh)
    x, y = int(rng.integers(0, sw - cw + 1)), int(rng.integers(0, sh - ch + 1))
    part = src[y : y + ch, x : x + cw]
    if not crowd:
        part = cv2.GaussianBlur(cv2.resize(part, (W // 8, H // 8), interpolation=cv2.INTER_AREA), (0, 0), 6)
    bg = cv2.resize(part, (W, H), interpolation=cv2.INTER_CUBIC)
    noise = rng.normal(0, 6, bg.shape).astype(np.float32)
    return np.clip(bg.astype(np.float32) + noise, 0, 255).astype(np.uint8)


def paste(rng, canvas, person, taken, place=None):
    """Pastes a person at a random place and face width, or at `place` (the face's top-left
    corner and width); answers the face's box and the blur the person was given (sigma,
    photo pixels), or None when they would cover someone already there."""
    crop, (fx1, fy1, fx2, fy2) = portrait(person)
    face_w = math.exp(rng.uniform(math.log(FACE_MIN), math.log(FACE_MAX))) * FACE_SCALE if place is None else place[2]
    scale = face_w / (fx2 - fx1)
    ch, cw = crop.shape[:2]
    nw, nh = max(2, int(round(cw * scale))), max(2, int(round(ch * scale)))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
    small = cv2.resize(crop, (nw, nh), interpolation=interp)
    sigma = rng.uniform(0.3, 1.2) * BLUR_SCALE * FACE_SCALE
    if sigma > 0:
        small = cv2.GaussianBlur(small, (0, 0), sigma)
    small = relight(rng, small)
    for _ in range(50 if place is None else 1):
        if place is None:
            x = int(rng.integers(0, W - nw))
            y = int(rng.integers(0, H - nh))
        else:
            x, y = int(place[0] - fx1 * scale), int(place[1] - fy1 * scale)
            if not (0 <= x <= W - nw and 0 <= y <= H - nh):
                return None
        box = (x + fx1 * scale, y + fy1 * scale, x + fx2 * scale, y + fy2 * scale)
        # Keep faces apart (and their shoulders from covering each other's faces).
        if all(not overlaps(box, t, margin=1.2) for t in taken):
            break
    else:
        return None
    mask = feather_mask(nh, nw)
    region = canvas[y : y + nh, x : x + nw].astype(np.float32)
    canvas[y : y + nh, x : x + nw] = (small * mask + region * (1 - mask)).astype(np.uint8)
    return [round(v, 1) for v in box], sigma


def bib_numbers(brng, identities):
    """One bib number for each of `identities` (in that order): 3-5 digits, no two alike."""
    numbers, used = {}, set()
    for who in identities:
        text = None
        while text is None or text in used:
            digits = int(brng.integers(3, 6))
            text = str(int(brng.integers(10 ** (digits - 1), 10**digits)))
        used.add(text)
        numbers[who] = text
    return numbers


def pin_bibs(bibs, canvas, faces, blurs):
    """Pins each face's bib (`bibs`: the bibs' random generator and each person's number)
    under it, `blurs` being how much each face was blurred, and labels the face with it."""
    brng, numbers = bibs
    avoid = [f["box"] for f in faces]
    for face, sigma in zip(faces, blurs):
        text = numbers[face["identity"]]
        box = pin_bib(brng, canvas, text, face["box"], sigma, avoid)
        face["bib"], face["bib_box"] = (text, box) if box is not None else (None, None)
        if box is not None:
            avoid.append(box)


def pin_bib(brng, canvas, text, face, sigma, avoid):
    """Pins a paper bib reading `text` (make_bibs.py's) on the chest of the runner whose face
    box is `face`: centred under the face, 1.5-2.5 face heights below its chin, blurred by
    `sigma` as the face was. Answers its box, or None (nothing drawn) when it would leave
    the frame or overlap a box of `avoid`."""
    x1, y1, x2, y2 = face
    fh = y2 - y1
    bib, width = make_bibs.bib_image(brng, text, fh)
    cx = (x1 + x2) / 2 + brng.uniform(-0.1, 0.1) * fh
    cy = y2 + brng.uniform(1.5, 2.5) * fh
    # A patch of the frame holding the bib however it is tilted, and its blur's reach.
    reach = math.hypot(width, width * bib.shape[0] / bib.shape[1] * 1.1) / 2 + 4 * sigma + 3
    px1, py1 = max(0, int(cx - reach)), max(0, int(cy - reach))
    px2, py2 = min(W, int(cx + reach) + 1), min(H, int(cy + reach) + 1)
    if px2 <= px1 or py2 <= py1:
        return None
    patch = canvas[py1:py2, px1:px2].copy()
    box = make_bibs.paste_bib(brng, patch, bib, cx - px1, cy - py1, width)
    if box is None:
        return None
    box = [round(v + o, 1) for v, o in zip(box, (px1, py1, px1, py1))]
    outside = box[0] < 0 or box[1] < 0 or box[2] > W or box[3] > H
    if outside or any(overlaps(box, b, margin=0) for b in avoid):
        return None
    if sigma > 0:
        # The blurred patch replaces the bib and its edge only (a feathered rectangle).
        edge = 2 * sigma
        mask = np.zeros(patch.shape[:2], np.float32)
        top, bottom = max(0, int(box[1] - py1 - edge)), int(box[3] - py1 + edge) + 1
        left, right = max(0, int(box[0] - px1 - edge)), int(box[2] - px1 + edge) + 1
        mask[top:bottom, left:right] = 1.0
        mask = cv2.GaussianBlur(mask, (0, 0), sigma)[..., None]
        blurred = cv2.GaussianBlur(patch, (0, 0), sigma).astype(np.float32)
        patch = np.clip(blurred * mask + patch * (1 - mask) + 0.5, 0, 255).astype(np.uint8)
    canvas[py1:py2, px1:px2] = patch
    return box


def overlaps(a, b, margin):
    """Whether two boxes, each grown by `margin` times its size, intersect."""

    def grow(r):
        w, h = r[2] - r[0], r[3] - r[1]
        return (r[0] - w * margin, r[1] - h * margin, r[2] + w * margin, r[3] + h * margin)

    a, b = grow(a), grow(b)
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def selfie(person, out_dir):
    crop, (fx1, _, fx2, _) = portrait(person)
    scale = SELFIE_FACE / (fx2 - fx1)
    big = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    big = big[:, ::-1]
    name = f"selfies/{person['id']}.jpg"
    cv2.imwrite(os.path.join(out_dir, name), big, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return name


def cast_of(rng, everyone, searched, per, dress):
    """The people of a photo (or a burst): 6-10 of the shipped people, and, with `searched`,
    two or more searched people in some of their places, each from one of their photos
    after the first `per`, `dress`ed (see `disguise` and `wear`) and marked `searched`."""
    count = int(rng.integers(6, 11))
    chosen = rng.choice(len(everyone), size=min(count, len(everyone)), replace=False)
    cast = [dict(everyone[int(k)]) for k in chosen]
    if searched:
        names = sorted(searched)
        picked = rng.choice(len(names), size=int(rng.integers(2, len(names) + 1)), replace=False)
        for k in picked:
            shots = searched[names[int(k)]][per:]
            shot = shots[int(rng.integers(len(shots)))]
            img, box = dress(rng, shot)
            cast[int(rng.integers(len(cast)))] = {
                "id": names[int(k)], "source": shot["file"], "img": img, "box": box, "searched": True
            }
    return cast


def save(rng, out_dir, name, canvas, faces):
    """Writes a photo at a JPEG quality of 55-80 (or `--jpeg-quality`'s) and answers its label."""
    # Drawn even under --jpeg-quality, so the rest of the set is drawn as without it.
    quality = int(rng.integers(55, 81))
    quality = JPEG_QUALITY or quality
    cv2.imwrite(os.path.join(out_dir, name), canvas, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return {"file": name, "jpeg_quality": quality, "faces": faces}


def frames(rng, args, everyone, blank, searched, bibs):
    """Independent photos: each its own background and its own people at random places
    (with `bibs`, each wearing their bib: see `pin_bibs`)."""
    photos = []
    for i in range(args.photos):
        canvas = background(rng, blank, crowd=i % 2 == 0)
        cast = cast_of(rng, everyone, searched, args.selfies_per_person, disguise)
        faces, taken, blurs = [], [], []
        for person in cast:
            pasted = paste(rng, canvas, person, taken)
            if pasted is not None:
                box, sigma = pasted
                taken.append(box)
                blurs.append(sigma)
                faces.append({"identity": person["id"], "source": person["source"], "box": box})
        if bibs:
            pin_bibs(bibs, canvas, faces, blurs)
        photos.append(save(rng, args.out_dir, f"race-{i:03d}.jpg", canvas, faces))
    return photos


def bursts(rng, args, everyone, blank, searched, bibs):
    """Photos in bursts of `args.burst` frames of one camera (see the module's documentation),
    with `bibs` each person wearing their bib (see `pin_bibs`)."""
    photos = []
    for b in range(args.photos // args.burst):
        base = background(rng, blank, crowd=b % 2 == 0)
        cast = cast_of(rng, everyone, searched, args.selfies_per_person, wear)
        for person in cast:
            width = math.exp(rng.uniform(math.log(FACE_MIN), math.log(FACE_MAX / 1.25))) * FACE_SCALE
            person["start"] = (float(rng.uniform(0, W - 4 * width)), float(rng.uniform(0, H - 6 * width)), width)
            person["step"] = (float(rng.uniform(-0.5, 0.5)), float(rng.uniform(-0.15, 0.15)), float(rng.uniform(1.0, 1.12)))
        for k in range(args.burst):
            noise = rng.normal(0, 3, base.shape).astype(np.float32)
            canvas = np.clip(base.astype(np.float32) + noise, 0, 255).astype(np.uint8)
            faces, taken, blurs = [], [], []
            for person in cast:
                (x, y, w), (dx, dy, grow) = person["start"], person["step"]
                width = w * grow**k
                place = (x + k * dx * w, y + k * dy * w, width)
                view = person
                if person.get("searched"):
                    img, box = turn(rng, person["img"], person["box"])
                    view = {"id": person["id"], "img": img, "box": box}
                    # A turned head is narrower, not larger: the same scale, centred.
                    narrow = width * (box[2] - box[0]) / (person["box"][2] - person["box"][0])
                    place = (place[0] + (width - narrow) / 2, place[1], narrow)
                pasted = paste(rng, canvas, view, taken, place)
                if pasted is not None:
                    box, sigma = pasted
                    taken.append(box)
                    blurs.append(sigma)
                    faces.append({"identity": person["id"], "source": person["source"], "box": box})
            if bibs:
                pin_bibs(bibs, canvas, faces, blurs)
            label = save(rng, args.out_dir, f"burst-{b:03d}-{k}.jpg", canvas, faces)
            photos.append({**label, "burst": b, "frame": k, "taken_ms": b * 60_000 + k * 500})
    return photos


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out_dir")
    ap.add_argument("--models", default=os.environ.get("RACESHOT__FACES__MODELS_DIR", "models"))
    ap.add_argument("--photos", type=int, default=40)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--size", default="3000x2000")
    ap.add_argument("--selfies-from", help="the labelled dev set: selfies and appearances from different photos")
    ap.add_argument("--selfies-per-person", type=int, default=1, help="with --selfies-from: each person's first K photos are selfies")
    ap.add_argument("--burst", type=int, default=1, help="with --selfies-from: frames a burst of one camera")
    ap.add_argument("--blur-scale", type=float, default=1.0, help="multiplies each appearance's blur (0: none); the same set otherwise")
    ap.add_argument("--face-scale", type=float, default=1.0, help="multiplies every appearance's width and blur; the same set otherwise")
    ap.add_argument("--jpeg-quality", type=int, help="every photo at this JPEG quality; the same set otherwise")
    ap.add_argument("--bibs", action="store_true", help="pins each person's bib under every appearance; the same set otherwise")
    args = ap.parse_args()
    global W, H, BLUR_SCALE, FACE_SCALE, JPEG_QUALITY
    W, H = (int(v) for v in args.size.split("x"))
    BLUR_SCALE = args.blur_scale
    FACE_SCALE = args.face_scale
    JPEG_QUALITY = args.jpeg_quality

    stamp = os.path.join(args.out_dir, STAMP)
    per = args.selfies_per_person
    if per < 1:
        sys.exit("make_small_faces: --selfies-per-person must be at least 1")
    params = f"photos={args.photos} seed={args.seed} size={W}x{H} selfies_from={args.selfies_from} per_person={per}"
    if args.burst > 1:
        if not args.selfies_from:
            sys.exit("make_small_faces: --burst needs --selfies-from")
        params += f" burst={args.burst}"
    if args.blur_scale != 1.0:
        params += f" blur_scale={args.blur_scale}"
    if args.face_scale != 1.0:
        params += f" face_scale={args.face_scale}"
    if args.jpeg_quality:
        params += f" jpeg_quality={args.jpeg_quality}"
    if args.bibs:
        params += " bibs=1"
    if os.path.exists(stamp) and open(stamp).read() == params:
        print(f"make_small_faces: {args.out_dir} is up to date ({params})")
        return
    os.makedirs(os.path.join(args.out_dir, "selfies"), exist_ok=True)

    rng = np.random.default_rng(args.seed)
    everyone, blank = people(args.models)
    searched = dev_people(args.selfies_from, args.models, per + 1) if args.selfies_from else {}
    if args.selfies_from and not searched:
        sys.exit(f"make_small_faces: nobody in {args.selfies_from} has {per + 1} photos")
    if searched:
        # The first `per` photos of each are selfies; the others are what the search should find.
        selfies = []
        for who, shots in sorted(searched.items()):
            for k, shot in enumerate(shots[:per]):
                view = {"id": f"{who}-{k}" if per > 1 else who, "img": shot["img"], "box": shot["box"]}
                name = selfie(view, args.out_dir)
                selfies.append({"file": name, "identity": who, "from": shot["file"]})
    else:
        selfies = [{"file": selfie(p, args.out_dir), "identity": p["id"]} for p in everyone]
    bibs = None
    if args.bibs:
        # A generator of their own, so the bibs change nothing else of the set.
        brng = np.random.default_rng([args.seed, 0xB1B])
        bibs = (brng, bib_numbers(brng, sorted(p["id"] for p in everyone) + sorted(searched)))
    if args.burst > 1:
        photos = bursts(rng, args, everyone, blank, searched, bibs)
    else:
        photos = frames(rng, args, everyone, blank, searched, bibs)

    labels = {"people": len(everyone), "selfies": selfies, "photos": photos}
    with open(os.path.join(args.out_dir, "labels.json"), "w") as f:
        json.dump(labels, f, indent=1)
    with open(stamp, "w") as f:
        f.write(params)
    widths = [f["box"][2] - f["box"][0] for p in photos for f in p["faces"]]
    pinned = f", {sum(f['bib'] is not None for p in photos for f in p['faces'])} bibs" if bibs else ""
    print(
        f"make_small_faces: {len(everyone)} people, {len(photos)} photos, {len(widths)} faces "
        f"({min(widths):.0f}-{max(widths):.0f} px wide){pinned} in {args.out_dir}"
    )


if __name__ == "__main__":
    main()
