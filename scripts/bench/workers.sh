#!/usr/bin/env bash
# workers.sh — ingestion by separate `raceshot worker` processes on one PostgreSQL job
# queue: the same photos processed by 1 worker process, then by 2, each with
# jobs.workers=1 (one photo at a time per process), timed from the workers' start until
# every photo is ready. Prints photos/s for each.
#
# Usage: scripts/bench/workers.sh RACESHOT_BINARY PHOTO_DIR
# Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test); a
# schema of its own is created and dropped, so the database's other contents are untouched.
set -euo pipefail

BIN="$(realpath "$1")"
PHOTOS="$2"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BASE_URL="${BENCH_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
export RACESHOT__FACES__MODELS_DIR="${RACESHOT__FACES__MODELS_DIR:-$ROOT/models}"
# shellcheck source=event.sh
. "$ROOT/scripts/bench/event.sh"
COUNT="$(ls "$PHOTOS"/*.jpg | wc -l)"
if ! psql -q "$BASE_URL" -c "SELECT 1" >/dev/null 2>&1; then
  echo "workers.sh: skipped: no PostgreSQL at $BASE_URL (set BENCH_DATABASE_URL)"
  exit 0
fi
SCHEMA="bench_workers_$$"
WORK="$(mktemp -d)"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  psql -q "$BASE_URL" -c "DROP SCHEMA IF EXISTS $SCHEMA CASCADE" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

ready() { psql -tA "$BASE_URL" -c "SELECT count(*) FROM $SCHEMA.photos WHERE state = 'ready'"; }

for n in 1 2; do
  psql -q "$BASE_URL" -c "DROP SCHEMA IF EXISTS $SCHEMA CASCADE; CREATE SCHEMA $SCHEMA" >/dev/null 2>&1
  export RACESHOT__DATABASE__URL="${BASE_URL}?options=-csearch_path%3D${SCHEMA}"
  export RACESHOT__DATA_DIR="$WORK/data-$n"
  "$BIN" migrate >/dev/null 2>&1
  bench_event "$BIN"
  "$BIN" ingest --event bench "$PHOTOS" >/dev/null 2>&1
  start="$(date +%s.%N)"
  PIDS=()
  for _ in $(seq 1 "$n"); do
    RACESHOT__JOBS__WORKERS=1 RACESHOT__LOG__FILTER=warn "$BIN" worker 2>/dev/null &
    PIDS+=("$!")
  done
  until [ "$(ready)" -ge "$COUNT" ]; do sleep 0.2; done
  end="$(date +%s.%N)"
  for pid in "${PIDS[@]}"; do kill "$pid"; wait "$pid" 2>/dev/null || true; done
  PIDS=()
  python3 -c "import sys; n, c, s, e = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]); print(f'{n} worker process(es): {c / (e - s):.2f} photos/s ({c} photos in {e - s:.1f} s, start-up included)')" \
    "$n" "$COUNT" "$start" "$end"
done
