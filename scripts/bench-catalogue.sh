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
source "$(dirname "$0")/bench/server.sh"
bench_events
bench_serve

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
