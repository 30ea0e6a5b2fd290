#!/usr/bin/env bash
# Catalogue load benchmark: POST /v1/events/pagination against a release build holding
# 1,000 events, 64 connections, measured with wrk. Prints requests/s and p50/p99. Beside it
# the peer: nginx serving the same answer (the bytes the shop sent) as a file to the same
# POST, on the same cores, measured the same way. The two are measured in turn, round after
# round, so that a shared machine's slow spell falls on both; the ratio is the median of
# the shop's requests/s over the median of nginx's (goal >= 0.9, p99 no worse).
#
# Usage: scripts/bench-catalogue.sh [RACESHOT_BINARY] (default target/release/raceshot)
# Environment: BENCH_DURATION (default 10s a measurement), BENCH_ROUNDS (3),
# BENCH_CONNECTIONS (64), BENCH_THREADS (2).
set -euo pipefail

BIN="${1:-target/release/raceshot}"
DURATION="${BENCH_DURATION:-10s}"
ROUNDS="${BENCH_ROUNDS:-3}"
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

# wrk's figures: requests/s, p50, p99, non-2xx.
figures() {
  awk '
    /Requests\/sec/ {rps=$2}
    /^ +50%/ {p50=$2}
    /^ +99%/ {p99=$2}
    /Non-2xx/ {errors=$NF}
    END {printf "%s %s %s %s\n", rps, p50, p99, (errors==""?0:errors)}
  ' "$1"
}

# Warm up, then measure.
measure() {
  local url="$1" out="$2"
  wrk -t"$THREADS" -c"$CONNECTIONS" -d3s -s "$WORK/post.lua" "$url" >/dev/null
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$WORK/post.lua" "$url" | tee "$out"
}

# The peer: nginx with the shop's answer as a file, answering the same POST with it
# (its static module refuses POST with 405, turned back into the file), keep-alive without
# a request cap as the shop's, one worker per core, no logs.
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
PEER_PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
mkdir -p "$WORK/peer/root/v1/events" "$WORK/peer/tmp"
curl -sf -X POST -H "Content-Type: application/json" -H "Authorization: Bearer $TOKEN" \
  -d '{"page": 2, "page_size": 18}' "$URL/v1/events/pagination" >"$WORK/peer/root/v1/events/pagination"
cat >"$WORK/peer/nginx.conf" <<CONF
worker_processes $(nproc);
pid $WORK/peer/nginx.pid;
error_log $WORK/peer/error.log warn;
daemon off;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $WORK/peer/tmp;
  proxy_temp_path $WORK/peer/tmp;
  fastcgi_temp_path $WORK/peer/tmp;
  uwsgi_temp_path $WORK/peer/tmp;
  scgi_temp_path $WORK/peer/tmp;
  keepalive_requests 10000000;
  server {
    listen 127.0.0.1:$PEER_PORT;
    root $WORK/peer/root;
    default_type application/json;
    error_page 405 =200 \$uri;
  }
}
CONF
# nginx's workers drop to an unprivileged user when it is started as root: they must read it.
chmod a+x "$WORK"
chmod -R a+rX "$WORK/peer"
"$NGINX" -c "$WORK/peer/nginx.conf" -e "$WORK/peer/error.log" &
PEER_PID=$!
trap 'kill "$PEER_PID" 2>/dev/null || true; wait "$PEER_PID" 2>/dev/null || true; bench_cleanup' EXIT
for _ in $(seq 50); do curl -sf -o /dev/null -X POST "http://127.0.0.1:$PEER_PORT/v1/events/pagination" && break; sleep 0.1; done
SIZE="$(stat -c %s "$WORK/peer/root/v1/events/pagination")"

# The median of a column of numbers (wrk's own units: requests/s, or a latency such as
# 1.21ms or 830.00us, compared in microseconds and printed as wrk printed it).
median() {
  python3 -c '
import sys
def us(v):
    for unit, scale in (("us", 1), ("ms", 1e3), ("s", 1e6)):
        if v.endswith(unit):
            return float(v[: -len(unit)]) * scale
    return float(v)
values = sorted(sys.argv[1:], key=us)
print(values[len(values) // 2])' "$@"
}

declare -a RPS_ALL P50_ALL P99_ALL PEER_RPS_ALL PEER_P50_ALL PEER_P99_ALL
ERRORS=0
PEER_ERRORS=0
for round in $(seq "$ROUNDS"); do
  echo "== round $round of $ROUNDS: raceshot, POST /v1/events/pagination, 1,000 events, $CONNECTIONS connections, $DURATION"
  measure "$URL/v1/events/pagination" "$WORK/wrk.txt"
  read -r rps p50 p99 errors < <(figures "$WORK/wrk.txt")
  RPS_ALL+=("$rps"); P50_ALL+=("$p50"); P99_ALL+=("$p99"); ERRORS=$((ERRORS + errors))
  echo "== round $round of $ROUNDS: nginx, the same answer as a file ($SIZE bytes)"
  measure "http://127.0.0.1:$PEER_PORT/v1/events/pagination" "$WORK/peer.txt"
  read -r rps p50 p99 errors < <(figures "$WORK/peer.txt")
  PEER_RPS_ALL+=("$rps"); PEER_P50_ALL+=("$p50"); PEER_P99_ALL+=("$p99"); PEER_ERRORS=$((PEER_ERRORS + errors))
  printf 'round %s: raceshot %s requests/s, nginx %s: %.2fx\n' "$round" "${RPS_ALL[-1]}" "$rps" \
    "$(python3 -c "print(${RPS_ALL[-1]} / $rps)")"
done
RSS_KB="$(awk '/VmHWM/ {print $2}' "/proc/$SERVER_PID/status")"
RPS="$(median "${RPS_ALL[@]}")"; P50="$(median "${P50_ALL[@]}")"; P99="$(median "${P99_ALL[@]}")"
PEER_RPS="$(median "${PEER_RPS_ALL[@]}")"; PEER_P50="$(median "${PEER_P50_ALL[@]}")"; PEER_P99="$(median "${PEER_P99_ALL[@]}")"

echo "== summary: medians of $ROUNDS rounds"
printf 'raceshot requests/s %s  p50 %s  p99 %s  non-2xx %s  server peak RSS %.0f MiB\n' \
  "$RPS" "$P50" "$P99" "$ERRORS" "$(python3 -c "print($RSS_KB / 1024)")"
printf 'nginx    requests/s %s  p50 %s  p99 %s  non-2xx %s\n' "$PEER_RPS" "$PEER_P50" "$PEER_P99" "$PEER_ERRORS"
printf 'ratio %.2fx nginx (goal >= 0.9x, p99 no worse)\n' "$(python3 -c "print($RPS / $PEER_RPS)")"
