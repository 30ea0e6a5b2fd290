#!/usr/bin/env bash
# alerts.sh — alerts of new photos: the time from a photo's upload to the text telling the
# runner in it, with 10,000 other runners' alerts on the event, alone and among a race
# set's photos (alerts.py says how). What alerts add to ingestion is in bench-ingest.sh
# (`ALERTS_COST`).
#
# Usage: scripts/bench/alerts.sh RACESHOT_BINARY [alerts.py options…]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BIN="$(realpath "${1:-$ROOT/target/release/raceshot}")"
shift || true
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/raceshot"
PY="$CACHE/bench-venv/bin/python"
[ -x "$PY" ] || { echo "alerts: no Python venv at $CACHE/bench-venv (run scripts/bench/faces.sh)" >&2; exit 1; }
RACE="$CACHE/bench-photos-race"
"$PY" "$ROOT/scripts/bench/make_24mp.py" "$RACE" --mix race --count 48 >/dev/null

echo "== alerts.sh on $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
"$PY" "$ROOT/scripts/bench/alerts.py" --bin "$BIN" --models "$ROOT/models" --race "$RACE" "$@"
