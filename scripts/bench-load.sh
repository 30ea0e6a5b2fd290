#!/usr/bin/env bash
# Load on one release server, as on a race morning: 500 concurrent clients reading the
# catalogue, then 50 concurrent face searches (the demo event, selfie yaoming.jpg). Prints
# throughput, p50/p95/p99, the answers by status (503 `busy` past the search queue is the
# server protecting itself; anything else but 200 is an error) and the server's peak RSS.
#
# Usage: scripts/bench-load.sh [RACESHOT_BINARY] (default target/release/raceshot)
# Environment: BENCH_DURATION (default 20s), BENCH_THREADS (2).
set -euo pipefail
cd "$(dirname "$0")/.."

BIN="${1:-target/release/raceshot}"
DURATION="${BENCH_DURATION:-20s}"
THREADS="${BENCH_THREADS:-2}"
SELFIE="models/photos/yaoming.jpg"
[ -f "$SELFIE" ] || { echo "bench: no $SELFIE (make models)" >&2; exit 1; }
source scripts/bench/server.sh
# One load generator is one client address: lift the per-client limits (searches a
# minute, open connections), keep the queue.
export RACESHOT__SEARCH__PER_CLIENT_PER_MINUTE=100000000
export RACESHOT__SERVER__MAX_CONNECTIONS_PER_CLIENT=0
bench_events
"$BIN" seed-demo
bench_serve

# Counts answers by status in every wrk thread, and prints the percentiles wrk keeps.
cat > "$WORK/report.lua" <<'LUA'
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) statuses = {} end
function response(status, headers, body) statuses[status] = (statuses[status] or 0) + 1 end
function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  io.write(string.format("requests/s %.1f  p50 %.1f ms  p95 %.1f ms  p99 %.1f ms  socket errors %d\n",
    summary.requests / seconds, latency:percentile(50) / 1000, latency:percentile(95) / 1000,
    latency:percentile(99) / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
  local total = {}
  for _, t in ipairs(threads) do
    for status, n in pairs(t:get("statuses")) do total[status] = (total[status] or 0) + n end
  end
  for status, n in pairs(total) do io.write(string.format("status %d: %d\n", status, n)) end
end
LUA

cat "$WORK/report.lua" > "$WORK/catalogue.lua"
cat >> "$WORK/catalogue.lua" <<LUA
wrk.method = "POST"
wrk.body = '{"page": 2, "page_size": 18}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $TOKEN"
LUA

cat "$WORK/report.lua" > "$WORK/search.lua"
cat >> "$WORK/search.lua" <<LUA
local file = io.open("$SELFIE", "rb")
local selfie = file:read("*all")
file:close()
local boundary = "raceshotbench"
wrk.method = "POST"
wrk.headers["Content-Type"] = "multipart/form-data; boundary=" .. boundary
wrk.headers["Authorization"] = "Bearer $TOKEN"
wrk.body = "--" .. boundary .. "\r\nContent-Disposition: form-data; name=\"event_key\"\r\n\r\ndemo\r\n"
  .. "--" .. boundary .. "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"me.jpg\"\r\n"
  .. "Content-Type: image/jpeg\r\n\r\n" .. selfie .. "\r\n--" .. boundary .. "--\r\n"
LUA

wrk -t"$THREADS" -c500 -d3s -s "$WORK/catalogue.lua" "$URL/v1/events/pagination" >/dev/null
echo "== 500 concurrent catalogue clients: POST /v1/events/pagination (1,000 events), $DURATION"
wrk -t"$THREADS" -c500 -d"$DURATION" -s "$WORK/catalogue.lua" "$URL/v1/events/pagination" | sed -n '/requests\/s/,$p'

echo "== 50 concurrent face searches: POST /v1/facesearch (demo event), $DURATION"
wrk -t"$THREADS" -c50 -d"$DURATION" --timeout 30s -s "$WORK/search.lua" "$URL/v1/facesearch" | sed -n '/requests\/s/,$p'

echo "== server peak RSS $(awk '/VmHWM/ {printf "%.0f MiB", $2/1024}' "/proc/$SERVER_PID/status")"
