#!/usr/bin/env bash
# Catalogue load benchmark: POST /v1/events/pagination against a release build holding
# 1,000 events, 64 connections, measured with wrk. Prints requests/s and p50/p99.
#
# Usage: scripts/bench-catalogue.sh [RACESHOT_BINARY] (default target/release/raceshot)
# Environment: BENCH_DURATION (default 20s), BENCH_CONNECTIONS (64), BENCH_THREADS (2).
set -euo pipefail

BIN="${1:-target/release/raceshot}"
DURATION="${BENCH_DURATION:-20s}"
CONNECTIONS="${BENCH_CONNECTIONS:-64}"
THREADS="${BENCH_THREADS:-2}"
TOKEN="bench-client-token"

command -v wrk >/dev/null || { echo "bench: wrk is needed (apt-get install wrk)" >&2; exit 1; }
[ -x "$BIN" ] || { echo "bench: no binary at $BIN (make build)" >&2; exit 1; }

WORK="$(mktemp -d)"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

export RACESHOT__DATA_DIR="$WORK/data"
export RACESHOT__API__CLIENT_TOKEN="$TOKEN"
export RACESHOT__LOG__FILTER="warn"
export RACESHOT__PAYMENTS__ALLOW_SANDBOX=true
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
export RACESHOT__SERVER__ADDR="127.0.0.1:$PORT"

# 1,000 events on sale, a few pinned, four price tiers each.
python3 - "$WORK/events.json" <<'PY'
import json, sys, datetime
today = datetime.date.today()
events = []
for i in range(1000):
    events.append({
        "event_key": f"bench-{i:04d}",
        "title": f"งานวิ่งทดสอบ {i}",
        "coverurl": f"https://img.example/{i}.jpg",
        "event_date_text": "1 ธ.ค. 2569",
        "eventdate": str(today - datetime.timedelta(days=i % 30)),
        "province": "กรุงเทพมหานคร",
        "on_sale_start": str(today - datetime.timedelta(days=1)),
        "on_sale_end": str(today + datetime.timedelta(days=30 + i % 20)),
        "is_mhao": "Y", "mhao_price": 990,
        "pin": 1 if i % 100 == 0 else 0,
        "package": [
            {"name": f"{n} รูป", "name_en": f"{n} photos", "number_of_photo": n, "price": p}
            for n, p in [(1, 60), (5, 250), (10, 450), (20, 800)]
        ],
    })
json.dump(events, open(sys.argv[1], "w"), ensure_ascii=False)
PY
"$BIN" migrate >/dev/null
"$BIN" event import "$WORK/events.json" | tail -1

"$BIN" serve &
SERVER_PID=$!
for _ in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
  sleep 0.1
done

cat > "$WORK/post.lua" <<LUA
wrk.method = "POST"
wrk.body = '{"page": 2, "page_size": 18}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $TOKEN"
LUA

# Warm up, then measure.
wrk -t"$THREADS" -c"$CONNECTIONS" -d3s -s "$WORK/post.lua" "http://127.0.0.1:$PORT/v1/events/pagination" >/dev/null
echo "== POST /v1/events/pagination, 1,000 events, $CONNECTIONS connections, $DURATION"
wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$WORK/post.lua" \
  "http://127.0.0.1:$PORT/v1/events/pagination" | tee "$WORK/wrk.txt"
RSS_KB="$(awk '/VmHWM/ {print $2}' "/proc/$SERVER_PID/status")"
echo "== summary"
awk -v rss="$RSS_KB" '
  /Requests\/sec/ {rps=$2}
  /^ +50%/ {p50=$2}
  /^ +99%/ {p99=$2}
  /Non-2xx/ {errors=$NF}
  END {printf "requests/s %s  p50 %s  p99 %s  non-2xx %s  server peak RSS %.0f MiB\n", rps, p50, p99, (errors==""?0:errors), rss/1024}
' "$WORK/wrk.txt"
