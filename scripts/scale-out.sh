#!/usr/bin/env bash
# The shop spread over processes, as an operator runs it when one machine is not enough:
# PostgreSQL for all state and the job queue, an S3-compatible server (moto) for photos,
# two stateless `raceshot serve --no-jobs` replicas and one `raceshot worker`.
#
# Usage: scripts/scale-out.sh DIR
#   Starts everything in the background and returns once both replicas are ready. Writes
#   DIR/replica-a.url, DIR/replica-b.url, DIR/s3.url, DIR/env (the shared settings, for
#   `env $(cat DIR/env) raceshot …`), DIR/pids (every process) and DIR/NAME.pid for each of
#   s3, replica-a, replica-b and worker. Logs go to DIR/*.log.
#   Stop with: kill $(cat DIR/pids)
#
# Environment:
#   RACESHOT_BIN                 the binary (default: target/release/raceshot)
#   RACESHOT__DATABASE__URL      the PostgreSQL database, migrated here
#                                (default: postgres://postgres@127.0.0.1:5432/raceshot_scale,
#                                created when missing)
#   RACESHOT_TEST_S3_SERVER      moto_server (default: installed by scripts/test-tools.sh)
#   other RACESHOT__… variables   passed on to every process
set -euo pipefail
cd "$(dirname "$0")/.."

dir="${1:?usage: scripts/scale-out.sh DIR}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
bin="${RACESHOT_BIN:-target/release/raceshot}"
db="${RACESHOT__DATABASE__URL:-postgres://postgres@127.0.0.1:5432/raceshot_scale}"
moto="${RACESHOT_TEST_S3_SERVER:-$(scripts/test-tools.sh)}"
: > "$dir/pids"

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# METHOD URL: succeeds when the answer is a 2xx (Python, which the set-up needs anyway).
http() {
  python3 -c 'import sys, urllib.request as u
try:
    u.urlopen(u.Request(sys.argv[2], method=sys.argv[1]), timeout=2)
except Exception:
    sys.exit(1)' "$1" "$2"
}

wait_for() { # URL, what
  for _ in $(seq 1 600); do
    if http GET "$1"; then return 0; fi
    sleep 0.1
  done
  echo "scale-out: $2 did not come up ($1); see $dir/*.log" >&2
  exit 1
}

if [ -z "${RACESHOT__DATABASE__URL:-}" ] && command -v createdb >/dev/null; then
  createdb -h 127.0.0.1 -U postgres raceshot_scale 2>/dev/null || true
fi

s3_port="$(free_port)"
"$moto" -H 127.0.0.1 -p "$s3_port" > "$dir/s3.log" 2>&1 &
echo $! >> "$dir/pids"
echo $! > "$dir/s3.pid"
s3="http://127.0.0.1:$s3_port"
for _ in $(seq 1 150); do
  http PUT "$s3/photos" && break
  sleep 0.1
done
echo "$s3" > "$dir/s3.url"

cat > "$dir/env" <<EOF
RACESHOT__DATABASE__URL=$db
RACESHOT__STORAGE__ENDPOINT=$s3
RACESHOT__STORAGE__BUCKET=photos
RACESHOT__STORAGE__ACCESS_KEY_ID=scale-out
RACESHOT__STORAGE__SECRET_ACCESS_KEY=scale-out
RACESHOT__STORAGE__PATH_STYLE=true
RACESHOT__PAYMENTS__ALLOW_SANDBOX=true
RACESHOT__JOBS__POLL_INTERVAL_MS=100
EOF
run() { # name, extra env..., -- args...
  local name="$1"; shift
  local vars=()
  while [ "$1" != "--" ]; do vars+=("$1"); shift; done
  shift
  env $(cat "$dir/env") RACESHOT__DATA_DIR="$dir/$name" "${vars[@]}" "$bin" "$@" > "$dir/$name.log" 2>&1 &
  echo $! >> "$dir/pids"
  echo $! > "$dir/$name.pid"
}

env $(cat "$dir/env") RACESHOT__DATA_DIR="$dir/migrate" "$bin" migrate > "$dir/migrate.log" 2>&1
for replica in a b; do
  port="$(free_port)"
  run "replica-$replica" RACESHOT__SERVER__ADDR="127.0.0.1:$port" -- serve --no-jobs
  echo "http://127.0.0.1:$port" > "$dir/replica-$replica.url"
done
run worker -- worker
for replica in a b; do
  wait_for "$(cat "$dir/replica-$replica.url")/readyz" "replica $replica"
done
echo "scale-out: replicas $(cat "$dir/replica-a.url") and $(cat "$dir/replica-b.url"), one worker, S3 at $s3"
