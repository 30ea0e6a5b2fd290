#!/usr/bin/env bash
# faces.sh — face-engine benchmarks: the Rust engine's detect + align + embed pipeline and
# the same pipeline written in Python (onnxruntime + numpy + OpenCV) on the same
# 24-megapixel photos, side by side, then selfie-search accuracy on the labelled dev set,
# then small-face recall and precision on generated race-condition photos, then bib-number
# recall, precision and cost on generated bib photos. Accuracy, small faces and the face
# stage's speed are measured for both model pairs (`faces.model_pair`): InsightFace's and
# OpenCV Zoo's YuNet + SFace.
#
# Usage: scripts/bench/faces.sh            (from anywhere; works on a clean checkout)
#
# Environment:
#   RACESHOT__FACES__MODELS_DIR  models directory (default <repo>/models; fetched if missing)
#   CARGO_TARGET_DIR             cargo's target directory (default <repo>/target)
#   BENCH_PHOTOS                 number of generated photos (default 20)
#   BENCH_ROUNDS                 alternating Rust/Python rounds (default 2; best of each used)
#   BENCH_EXTRAS                 1 (default) also runs Rust with 2 workers, Rust without the
#                                coarse detection pass (its cost by difference) and Python
#                                with OpenCV's 1/2-scale JPEG decode; 0 skips them
#   BENCH_DEV_DIR                labelled dev set (default <repo>/../shared/faces/dev);
#                                the accuracy step is skipped with a note when it is absent
#
# Writes nothing into the repository: the Python venv and the generated photos live under
# ${XDG_CACHE_HOME:-$HOME/.cache}/raceshot/, reports in a temporary directory.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
MODELS_DIR="${RACESHOT__FACES__MODELS_DIR:-$ROOT/models}"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/raceshot"
VENV="$CACHE/bench-venv"
PHOTOS="$CACHE/bench-photos-24mp"
COUNT="${BENCH_PHOTOS:-20}"
ROUNDS="${BENCH_ROUNDS:-2}"
EXTRAS="${BENCH_EXTRAS:-1}"
DEV_DIR="${BENCH_DEV_DIR:-$ROOT/../shared/faces/dev}"
REQS="$ROOT/scripts/bench/requirements.txt"

die() {
  echo "faces.sh: ERROR: $*" >&2
  exit 1
}
say() { printf '\n== %s\n' "$*"; }

command -v python3 >/dev/null || die "python3 is required"
command -v cargo >/dev/null || die "cargo is required"

say "models"
scripts/fetch-models.sh "$MODELS_DIR"
export RACESHOT__FACES__MODELS_DIR="$MODELS_DIR"

say "build (release)"
cargo build --release --locked -p raceshot-vision --example pipeline_bench --example accuracy --example small_faces --example bibs
RUST_BENCH="$TARGET_DIR/release/examples/pipeline_bench"
ACCURACY="$TARGET_DIR/release/examples/accuracy"
SMALL_FACES="$TARGET_DIR/release/examples/small_faces"
BIBS="$TARGET_DIR/release/examples/bibs"
[ -x "$RUST_BENCH" ] || die "no $RUST_BENCH after the build (is CARGO_TARGET_DIR right?)"

say "python venv ($VENV)"
# Rebuilt when requirements.txt changes (its hash is kept inside the venv).
REQ_HASH="$(python3 -c 'import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],"rb").read()).hexdigest())' "$REQS")"
if [ "$(cat "$VENV/.requirements-sha256" 2>/dev/null || true)" != "$REQ_HASH" ]; then
  rm -rf "$VENV"
  mkdir -p "$CACHE"
  python3 -m venv "$VENV" || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$REQS" \
    || die "pip install -r $REQS failed"
  echo "$REQ_HASH" >"$VENV/.requirements-sha256"
fi
PY="$VENV/bin/python"
"$PY" -c 'import cv2, numpy, onnxruntime; print("python", __import__("sys").version.split()[0], "onnxruntime", onnxruntime.__version__, "numpy", numpy.__version__, "opencv", cv2.__version__)'

say "photos ($PHOTOS)"
"$PY" scripts/bench/make_24mp.py "$PHOTOS" --models "$MODELS_DIR" --count "$COUNT"

OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime; }
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) memory; load average now $(load)"

photos_per_s() { awk '/^photos\/s:/ {print $2}' "$1"; }
best() { sort -g | tail -1; }

for r in $(seq 1 "$ROUNDS"); do
  say "round $r/$ROUNDS: rust (load $(load))"
  "$RUST_BENCH" "$PHOTOS" --models "$MODELS_DIR" --dump "$OUT/rust.jsonl" | tee "$OUT/rust-$r.txt"
  say "round $r/$ROUNDS: python (load $(load))"
  "$PY" scripts/bench/faces_pipeline.py "$PHOTOS" --models "$MODELS_DIR" \
    --dump "$OUT/python.jsonl" --compare "$OUT/rust.jsonl" | tee "$OUT/python-$r.txt"
done

say "the other model pair: YuNet + SFace on the same photos (load $(load))"
RACESHOT__FACES__MODEL_PAIR=yunet-sface "$RUST_BENCH" "$PHOTOS" --models "$MODELS_DIR" | tee "$OUT/rust-yunet-sface.txt"

if [ "$EXTRAS" = "1" ]; then
  say "extra: rust with 2 workers (two photos at once, as the job runner on 2 cores; load $(load))"
  "$RUST_BENCH" "$PHOTOS" --models "$MODELS_DIR" --workers 2 | tee "$OUT/rust-w2.txt"
  say "extra: rust without the coarse detection pass (--coarse-long-edge 0; load $(load))"
  "$RUST_BENCH" "$PHOTOS" --models "$MODELS_DIR" --coarse-long-edge 0 | tee "$OUT/rust-nocoarse.txt"
  say "extra: python with OpenCV's 1/2-scale JPEG decode (load $(load))"
  "$PY" scripts/bench/faces_pipeline.py "$PHOTOS" --models "$MODELS_DIR" --decode reduced2 \
    --compare "$OUT/rust.jsonl" | tee "$OUT/python-reduced2.txt"
fi

say "side by side (best round of $ROUNDS each by photos/s; 1 ONNX Runtime thread per inference on both sides)"
"$PY" - "$OUT" "$ROUNDS" "$EXTRAS" <<'PY'
import os, sys
out, rounds, extras = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"

def report(path):
    r = {}
    for line in open(path):
        parts = line.split()
        if len(parts) == 4 and parts[2].endswith("%"):
            r[parts[0]] = (float(parts[1]), float(parts[3]))
        elif line.startswith("photos/s:"):
            r["pps"] = float(parts[1])
        elif line.startswith("photos per cpu-second:"):
            r["ppc"] = float(parts[3])
        elif line.startswith("faces:"):
            r["faces"] = line.split(":", 1)[1].strip()
    return r

def best(side):
    runs = [report(os.path.join(out, f"{side}-{i}.txt")) for i in range(1, rounds + 1)]
    print(f"{side:<7} photos/s by round: " + ", ".join(f"{x['pps']:.2f}" for x in runs)
          + "; photos per cpu-second: " + ", ".join(f"{x['ppc']:.2f}" for x in runs))
    return max(runs, key=lambda x: x["pps"])

r, p = best("rust"), best("python")
print()
print(f"{'stage':<13}{'wall ms/photo':>24}{'':>9}{'cpu ms/photo':>22}")
print(f"{'':<13}{'rust':>9}{'python':>9}{'py/rust':>9}{'rust':>11}{'python':>9}{'py/rust':>9}")
for k in ("decode", "detect", "align", "embed", "align+embed", "total"):
    (rw, rc), (pw, pc) = r[k], p[k]
    print(f"{k:<13}{rw:>9.1f}{pw:>9.1f}{pw / max(rw, 1e-9):>8.2f}x{rc:>11.1f}{pc:>9.1f}{pc / max(rc, 1e-9):>8.2f}x")
print(f"faces rust:   {r['faces']}")
print(f"faces python: {p['faces']}")
print()
print(f"RATIO rust/python photos/s:             {r['pps'] / p['pps']:.2f} (rust {r['pps']:.2f}, python {p['pps']:.2f})")
print(f"RATIO rust/python photos per cpu-second: {r['ppc'] / p['ppc']:.2f} (rust {r['ppc']:.2f}, python {p['ppc']:.2f})")
if extras:
    w2 = report(os.path.join(out, "rust-w2.txt"))
    red = report(os.path.join(out, "python-reduced2.txt"))
    print(f"rust, 2 workers: {w2['pps']:.2f} photos/s ({w2['ppc']:.2f} per cpu-second)")
    nc = report(os.path.join(out, "rust-nocoarse.txt"))
    print(f"rust, no coarse pass: {nc['pps']:.2f} photos/s ({nc['ppc']:.2f} per cpu-second); "
          f"detect cpu {nc['detect'][1]:.1f} ms/photo against {r['detect'][1]:.1f} with it "
          f"(the calling thread's: OpenVINO's own threads are left out, so compare photos/s): "
          f"the coarse pass costs ~{r['detect'][1] - nc['detect'][1]:.1f} ms of that thread's cpu per photo; "
          f"faces {nc['faces']}")
    print(f"python, 1/2-scale decode: {red['pps']:.2f} photos/s ({red['ppc']:.2f} per cpu-second)")
PY
echo "load average at the end: $(load)"

say "accuracy (dev set $DEV_DIR)"
if [ -f "$DEV_DIR/labels.tsv" ]; then
  for pair in insightface yunet-sface; do
    echo "-- model pair $pair"
    RACESHOT__FACES__MODEL_PAIR=$pair "$ACCURACY" "$DEV_DIR" --models "$MODELS_DIR"
  done
else
  echo "skipped: no labelled dev set at $DEV_DIR (set BENCH_DEV_DIR; it is not part of the repository)"
fi

say "small faces (race-condition photos made from the shipped ones: scripts/bench/make_small_faces.py)"
for size in 3000x2000 6000x4000; do
  "$PY" scripts/bench/make_small_faces.py "$CACHE/bench-small-faces-$size" --models "$MODELS_DIR" --size "$size"
done
echo "-- 3000x2000, the engine's defaults"
"$SMALL_FACES" "$CACHE/bench-small-faces-3000x2000" --models "$MODELS_DIR" | grep -v '^false match'
echo "-- 6000x4000 (the same faces in 24 MP frames), the engine's defaults (with the fine pass at 3000)"
"$SMALL_FACES" "$CACHE/bench-small-faces-6000x4000" --models "$MODELS_DIR" | grep -v '^false match'
echo "-- 6000x4000 without the fine pass (RACESHOT__FACES__DETECTOR__FINE_LONG_EDGE=0)"
"$SMALL_FACES" "$CACHE/bench-small-faces-6000x4000" --models "$MODELS_DIR" --fine-long-edge 0 | grep -v '^false match'

# small_face_sets NAME FILTER [make_small_faces.py options]: the set NAME in both frame
# sizes (or those SIZES lists), made with the options, measured with both model pairs, the
# report's lines kept by the extended regular expression FILTER.
small_face_sets() {
  local name="$1" filter="$2"
  shift 2
  for size in ${SIZES:-3000x2000 6000x4000}; do
    set_dir="$CACHE/bench-small-faces-$name-$size"
    "$PY" scripts/bench/make_small_faces.py "$set_dir" --models "$MODELS_DIR" --size "$size" "$@"
    for pair in insightface yunet-sface; do
      echo "-- $size, model pair $pair"
      RACESHOT__FACES__MODEL_PAIR=$pair "$SMALL_FACES" "$set_dir" --models "$MODELS_DIR" | grep -E "$filter"
    done
  done
}

# other_photo_sets NAME FILTER [make_small_faces.py options]: the same, each searched
# person's selfie one photo of them in the dev set and their appearances made from others.
other_photo_sets() {
  local name="$1" filter="$2"
  shift 2
  small_face_sets "$name" "$filter" --selfies-from "$DEV_DIR" "$@"
}

say "small faces, selfies from another photo (the dev set's people with two photos or more; disguised appearances)"
if [ -f "$DEV_DIR/labels.tsv" ]; then
  other_photo_sets other-photo '^([^f]|face width)' # all but the false matches listed
  say "several selfies of one runner (the dev set's people with three photos or more: two selfies each, appearances from the rest)"
  other_photo_sets two-selfies '^(several|SEVERAL|small faces)' --selfies-per-person 2
  say "matching by sequence (the same selfies; appearances in bursts of three frames of one camera)"
  other_photo_sets bursts '^(sequence|SEQUENCE|SIZE_AWARE|SMALL_FACES|DISTANT_VIEW|LOOKALIKE_GUARD|small faces)' --burst 3 --photos 60
  say "the selfie seen from afar on faces only shrunk (the other-photo sets without the appearances' blur)"
  other_photo_sets unblurred '^(SIZE_AWARE|SMALL_FACES|DISTANT_VIEW|LOOKALIKE_GUARD|small faces)' --blur-scale 0
  say "the runner's bib vouching for weak matches (the other-photo sets, each person wearing one bib)"
  other_photo_sets other-photo-bibs '^(BIBS|SMALL_FACES|LOOKALIKE_GUARD)' --bibs
  say "24 MP frames with the 3000x2000 sets' runners where they stood (faces 70-220 px: --face-scale 2)"
  SIZES=6000x4000 other_photo_sets other-photo-near '^(SIZE_AWARE|SMALL_FACES|DISTANT_VIEW|LOOKALIKE_GUARD|small faces)' --face-scale 2
  SIZES=6000x4000 other_photo_sets bursts-near '^(SEQUENCE|SIZE_AWARE|SMALL_FACES|DISTANT_VIEW|LOOKALIKE_GUARD|small faces)' --face-scale 2 --burst 3 --photos 60
  SIZES=6000x4000 other_photo_sets other-photo-near-bibs '^(BIBS|SMALL_FACES|LOOKALIKE_GUARD)' --face-scale 2 --bibs
  say "what heavy compression costs: the other-photo set at 3000x2000 saved at JPEG quality 92 instead of 55-80"
  SIZES=3000x2000 other_photo_sets other-photo-q92 '^(SIZE_AWARE|SMALL_FACES|DISTANT_VIEW|LOOKALIKE_GUARD|small faces)' --jpeg-quality 92
else
  echo "skipped: no labelled dev set at $DEV_DIR"
fi

say "the runner's bib among look-alike teammates (the shipped people's set, each wearing one bib)"
small_face_sets bibs '^(BIBS|SMALL_FACES|LOOKALIKE_GUARD)' --bibs

say "look-alike teammates in 24 MP frames where they stood (the shipped people's set, faces 70-220 px)"
SIZES=6000x4000 small_face_sets near '^(SMALL_FACES|DISTANT_VIEW|LOOKALIKE_GUARD)' --face-scale 2

say "bib numbers (paper bibs on the team photo's jerseys: scripts/bench/make_bibs.py)"
"$PY" scripts/bench/make_bibs.py "$CACHE/bench-bibs" --models "$MODELS_DIR"
"$BIBS" "$CACHE/bench-bibs" --models "$MODELS_DIR"
