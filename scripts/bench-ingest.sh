#!/usr/bin/env bash
# Ingestion benchmark: `raceshot ingest --wait` of 24-megapixel JPEGs into a fresh SQLite
# shop, end to end (read, hash, store the original, queue, decode, faces, thumbnail,
# watermarked preview, bib numbers, storage, database) on this machine's cores, and beside
# it, in the same run on the same photos, the Python peer (scripts/bench/ingest_peer.py),
# which reads no bibs: the ratio compares raceshot with bib reading off
# (`RACESHOT__BIBS__READ=false`), the same work. Two sets: `race` (48 course photos, 2-30
# faces) and `crowd` (start lines and grids, ~36 faces). Prints photos/s, the CPU time and
# the mean time of each stage per photo, the ratio, and what bib reading adds
# (`BIBS_COST`) and what 10,000 runners' alerts on the event add (`ALERTS_COST`: each photo
# matched against them all, `scripts/bench/seed_alerts.py`). The peer runs three ways: on
# ONNX Runtime (`RATIO`), on OpenVINO, the shop's runtime, with the same detection passes
# (`RATIO_OPENVINO`), and on OpenVINO with one pass at 1600 px, as a peer that does not
# look for small faces (`RATIO_OPENVINO_PLAIN`: it finds fewer faces and does less work). A run of 48 photos lasts
# seconds, and two runs of the same work differ by
# up to a tenth here, so raceshot runs BENCH_REPEAT times (default 3) with and without
# bib reading, and the peer as often, alternately, and the medians are compared.
#
# Usage: scripts/bench-ingest.sh [RACESHOT_BINARY]
# Needs the venv and crowd photos that scripts/bench/faces.sh makes (it runs first in
# `make bench`); BENCH_PHOTO_DIR overrides where the crowd photos are read from.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="$(realpath "${1:-$ROOT/target/release/raceshot}")"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/raceshot"
PY="$CACHE/bench-venv/bin/python"
export RACESHOT__FACES__MODELS_DIR="${RACESHOT__FACES__MODELS_DIR:-$ROOT/models}"
# shellcheck source=bench/event.sh
. "$ROOT/scripts/bench/event.sh"
[ -x "$PY" ] || { echo "bench-ingest: no Python venv at $CACHE/bench-venv (run scripts/bench/faces.sh)" >&2; exit 1; }

# The race mix: course photos of 2-30 faces; 48, so that start-up (migrations, loading the
# models: ~0.35 s) weighs little, as in a race of thousands.
RACE="$CACHE/bench-photos-race"
"$PY" "$ROOT/scripts/bench/make_24mp.py" "$RACE" --mix race --count 48 >/dev/null
CROWD="${BENCH_PHOTO_DIR:-$CACHE/bench-photos-24mp}"

# One run of `raceshot ingest --wait` into a fresh SQLite shop; prints the report.
ingest() {
  local photos="$1" work
  work="$(mktemp -d)"
  RACESHOT__DATA_DIR="$work/data" bench_event "$BIN"
  if [ -n "${BENCH_ALERTS:-}" ]; then
    "$PY" "$ROOT/scripts/bench/seed_alerts.py" "$work/data/raceshot.db" bench "$BENCH_ALERTS" >/dev/null
  fi
  local start end cpu
  start="$(date +%s.%N)"
  # The process's CPU time (user + system, all threads), which other load on the
  # machine inflates less than the wall clock.
  cpu="$(RACESHOT__DATA_DIR="$work/data" RACESHOT__LOG__FORMAT=json \
    RACESHOT__LOG__FILTER="warn,raceshot_server::jobs=debug" python3 -c '
import resource, subprocess, sys
with open(sys.argv[1], "wb") as log:
    subprocess.run(sys.argv[2:], stderr=log, stdout=subprocess.DEVNULL, check=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(r.ru_utime + r.ru_stime)' "$work/log.json" "$BIN" ingest --event bench --wait "$photos")"
  end="$(date +%s.%N)"
  python3 - "$work/log.json" "$start" "$end" "$cpu" <<'PY'
import json, sys
rows = []
for line in open(sys.argv[1]):
    try:
        r = json.loads(line)
    except ValueError:
        continue
    if r.get("message") == "photo ingested":
        rows.append(r)
wall = float(sys.argv[3]) - float(sys.argv[2])
n = len(rows)
if n == 0:
    sys.exit("no photo was ingested")
mean = lambda k: sum(float(r[k]) for r in rows) / n * 1000
faces = sum(int(r["faces"]) for r in rows) / n
print(f"photos/s end to end: {n / wall:.2f}  ({n} photos in {wall:.1f} s, {faces:.1f} faces per photo)")
print(f"cpu per photo: {float(sys.argv[4]) / n * 1000:.0f} ms  (the whole process's user + system time)")
print("mean per photo (one worker's time; workers run in parallel):")
for k, label in [("decode_s", "decode"), ("faces_s", "detect+align+embed"), ("bibs_s", "bib numbers"), ("images_s", "preview+thumbnail"), ("store_s", "storage"), ("alerts_s", "alerts"), ("total_s", "total")]:
    if k not in rows[0]:
        continue
    print(f"  {label:20s} {mean(k):7.1f} ms")
PY
  rm -rf "$work"
}

pps() { awk '/^photos\/s end to end:/ {print $5}' "$@"; }
cpu() { awk '/^cpu per photo:/ {print $4}' "$@"; }
median() { python3 -c 'import statistics, sys; print(statistics.median(float(v) for v in sys.argv[1:]))' "$@"; }
# Photos/s of a whole process: its photo count over its wall time.
wall_pps() { python3 -c "import sys; print(f'{int(sys.argv[1]) / (float(sys.argv[3]) - float(sys.argv[2])):.2f}')" "$@"; }
pct() { python3 -c "import sys; print(f'{float(sys.argv[1]) / float(sys.argv[2]) * 100 - 100:+.0f} %')" "$@"; }

REPEAT="${BENCH_REPEAT:-3}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
for set in race crowd; do
  if [ "$set" = race ]; then photos="$RACE"; else photos="$CROWD"; fi
  ls "$photos"/*.jpg >/dev/null 2>&1 || { echo "bench-ingest: no photos in $photos (run scripts/bench/faces.sh)" >&2; exit 1; }
  count="$(ls "$photos"/*.jpg | wc -l)"
  for i in $(seq "$REPEAT"); do
    echo "== $set, run $i of $REPEAT: raceshot ingest --wait of $count photos from $photos on $(nproc) cores"
    ingest "$photos" | tee "$OUT/bibs-$set-$i.txt"
    echo "== $set, run $i of $REPEAT: the same with 10,000 runners' alerts on the event"
    BENCH_ALERTS=10000 ingest "$photos" | tee "$OUT/alerts-$set-$i.txt"
    echo "== $set, run $i of $REPEAT: the same with bib reading off (and no alerts)"
    RACESHOT__BIBS__READ=false ingest "$photos" | tee "$OUT/rust-$set-$i.txt"
    echo "== $set, run $i of $REPEAT: the Python peer (scripts/bench/ingest_peer.py, one photo at a time) on the same photos"
    start="$(date +%s.%N)"
    "$PY" "$ROOT/scripts/bench/ingest_peer.py" "$photos" 2>/dev/null
    echo "python peer, whole process: $(wall_pps "$count" "$start" "$(date +%s.%N)") photos/s" | tee "$OUT/python-$set-$i.txt"
    echo "== $set, run $i of $REPEAT: the Python peer on OpenVINO, the same passes"
    start="$(date +%s.%N)"
    "$PY" "$ROOT/scripts/bench/ingest_peer.py" "$photos" --runtime openvino 2>/dev/null
    echo "python peer on openvino, whole process: $(wall_pps "$count" "$start" "$(date +%s.%N)") photos/s" | tee "$OUT/python_ov-$set-$i.txt"
    echo "== $set, run $i of $REPEAT: the plain Python peer on OpenVINO, one detection pass at 1600 px"
    start="$(date +%s.%N)"
    "$PY" "$ROOT/scripts/bench/ingest_peer.py" "$photos" --runtime openvino --plain 2>/dev/null
    echo "plain python peer on openvino, whole process: $(wall_pps "$count" "$start" "$(date +%s.%N)") photos/s" | tee "$OUT/python_ov_plain-$set-$i.txt"
  done
  python_pps="$(median $(awk '{print $(NF-1)}' "$OUT"/python-"$set"-*.txt))"
  python_ov_pps="$(median $(awk '{print $(NF-1)}' "$OUT"/python_ov-"$set"-*.txt))"
  python_ov_plain_pps="$(median $(awk '{print $(NF-1)}' "$OUT"/python_ov_plain-"$set"-*.txt))"
  rust_pps="$(median $(pps "$OUT"/rust-"$set"-*.txt))"
  bibs_pps="$(median $(pps "$OUT"/bibs-"$set"-*.txt))"
  rust_cpu="$(median $(cpu "$OUT"/rust-"$set"-*.txt))"
  bibs_cpu="$(median $(cpu "$OUT"/bibs-"$set"-*.txt))"
  alerts_pps="$(median $(pps "$OUT"/alerts-"$set"-*.txt))"
  alerts_cpu="$(median $(cpu "$OUT"/alerts-"$set"-*.txt))"
  echo "ALERTS_COST $set: $(pct "$bibs_pps" "$alerts_pps") time per photo with 10,000 alerts (median photos/s of $REPEAT runs: $alerts_pps with them, $bibs_pps without); $(pct "$alerts_cpu" "$bibs_cpu") CPU per photo ($alerts_cpu against $bibs_cpu ms)"
  echo "BIBS_COST $set: $(pct "$rust_pps" "$bibs_pps") time per photo (median photos/s of $REPEAT runs: $bibs_pps with bib reading, $rust_pps without); $(pct "$bibs_cpu" "$rust_cpu") CPU per photo ($bibs_cpu against $rust_cpu ms)"
  ratio() { python3 -c "import sys; print(f'{float(sys.argv[1]) / float(sys.argv[2]):.2f}')" "$@"; }
  echo "RATIO $set raceshot/python photos/s (whole processes): $(ratio "$rust_pps" "$python_pps") (medians of $REPEAT runs: raceshot $rust_pps, python $python_pps)"
  echo "RATIO_OPENVINO $set raceshot/python on OpenVINO, the same passes: $(ratio "$rust_pps" "$python_ov_pps") (raceshot $rust_pps, python $python_ov_pps)"
  echo "RATIO_OPENVINO_PLAIN $set raceshot/plain python on OpenVINO, one pass at 1600 px: $(ratio "$rust_pps" "$python_ov_plain_pps") (raceshot $rust_pps, python $python_ov_plain_pps)"
done
