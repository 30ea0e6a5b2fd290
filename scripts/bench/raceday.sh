#!/usr/bin/env bash
# raceday.sh — race morning: photos arriving by a camera's FTP, a tus client and
# `raceshot upload --watch` together for 5 minutes while 50 runners search, timed from each
# upload's end to the photo being searchable; then 1,000 photos by `raceshot upload`
# through a link cut every 30 seconds, checked to arrive whole. See raceday.py for what
# is measured and how.
#
# Usage: scripts/bench/raceday.sh RACESHOT_BINARY [raceday.py options…]
# The race morning sends the race set of bench-ingest.sh (24-megapixel course photos,
# made here if missing); the cut link sends the same photos at 2400×1600, as a
# photographer's uploader sends JPEGs straight off a camera set to a smaller size.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BIN="$(realpath "${1:-$ROOT/target/release/raceshot}")"
shift || true
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/raceshot"
PY="$CACHE/bench-venv/bin/python"
[ -x "$PY" ] || { echo "raceday: no Python venv at $CACHE/bench-venv (run scripts/bench/faces.sh)" >&2; exit 1; }

RACE="$CACHE/bench-photos-race"
"$PY" "$ROOT/scripts/bench/make_24mp.py" "$RACE" --mix race --count 48 >/dev/null
SMALL="$CACHE/bench-photos-race-2400"
"$PY" - "$RACE" "$SMALL" <<'PY'
import os, sys, cv2
src, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
for name in sorted(os.listdir(src)):
    if name.lower().endswith(".jpg") and not os.path.exists(os.path.join(out, name)):
        img = cv2.resize(cv2.imread(os.path.join(src, name)), (2400, 1600), interpolation=cv2.INTER_AREA)
        cv2.imwrite(os.path.join(out, name), img, [cv2.IMWRITE_JPEG_QUALITY, 85])
PY

echo "== raceday.sh on $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
python3 "$ROOT/scripts/bench/raceday.py" --bin "$BIN" --photos "$RACE" --cut-photos "$SMALL" \
  --models "$ROOT/models" "$@"
