#!/usr/bin/env bash
# Ingestion benchmark: `raceshot ingest --wait` of 24-megapixel JPEGs into a fresh SQLite
# shop, end to end (read, hash, store the original, queue, decode, faces, thumbnail,
# watermarked preview, storage, database) on this machine's cores. Prints photos/s and
# the mean time of each stage per photo.
#
# Usage: scripts/bench-ingest.sh [RACESHOT_BINARY]
# The photos are those scripts/bench/faces.sh generates (it runs first in `make bench`);
# BENCH_PHOTO_DIR overrides where they are read from.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="$(realpath "${1:-$ROOT/target/release/raceshot}")"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/raceshot"
PHOTOS="${BENCH_PHOTO_DIR:-$CACHE/bench-photos-24mp}"
ls "$PHOTOS"/*.jpg >/dev/null 2>&1 || { echo "bench-ingest: no photos in $PHOTOS (run scripts/bench/faces.sh)" >&2; exit 1; }

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
export RACESHOT__DATA_DIR="$WORK/data"
export RACESHOT__FACES__MODELS_DIR="${RACESHOT__FACES__MODELS_DIR:-$ROOT/models}"
TODAY="$(date +%F)"
cat > "$WORK/event.json" <<JSON
{"event_key": "bench", "title": "Ingest benchmark", "eventdate": "$TODAY",
 "on_sale_start": "$TODAY", "on_sale_end": "2099-12-31",
 "package": [{"name": "1", "name_en": "1", "number_of_photo": 1, "price": 60}]}
JSON
"$BIN" event import "$WORK/event.json" >/dev/null

COUNT="$(ls "$PHOTOS"/*.jpg | wc -l)"
echo "== ingest --wait of $COUNT photos from $PHOTOS on $(nproc) cores"
START="$(date +%s.%N)"
RACESHOT__LOG__FORMAT=json RACESHOT__LOG__FILTER="warn,raceshot_server::jobs=debug" \
  "$BIN" ingest --event bench --wait "$PHOTOS" 2> "$WORK/log.json"
END="$(date +%s.%N)"
python3 - "$WORK/log.json" "$START" "$END" <<'PY'
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
print("mean per photo (one worker's time; workers run in parallel):")
for k, label in [("decode_s", "decode"), ("faces_s", "detect+align+embed"), ("images_s", "preview+thumbnail"), ("store_s", "storage"), ("total_s", "total")]:
    print(f"  {label:20s} {mean(k):7.1f} ms")
PY
