# Sourced by the HTTP benchmarks: a fresh SQLite shop in a temporary folder, the catalogue
# of 1,000 events on sale, and one `raceshot serve` on a free local port, stopped on exit.
#
# After sourcing: WORK, TOKEN, URL, and the functions bench_events (imports the 1,000
# events), bench_serve (starts the server, returns once it is ready; SERVER_PID).

command -v wrk >/dev/null || { echo "bench: wrk is needed (apt-get install wrk)" >&2; exit 1; }
[ -x "$BIN" ] || { echo "bench: no binary at $BIN (make build)" >&2; exit 1; }

TOKEN="bench-client-token"
WORK="$(mktemp -d)"
SERVER_PID=""
bench_cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap bench_cleanup EXIT

export RACESHOT__DATA_DIR="$WORK/data"
export RACESHOT__API__CLIENT_TOKEN="$TOKEN"
export RACESHOT__LOG__FILTER="warn"
export RACESHOT__PAYMENTS__ALLOW_SANDBOX=true
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
export RACESHOT__SERVER__ADDR="127.0.0.1:$PORT"
URL="http://127.0.0.1:$PORT"

# 1,000 events on sale, every hundredth pinned, four price tiers each.
bench_events() {
  python3 - "$WORK/events.json" <<'PY'
import json, sys, datetime
today = datetime.date.today()
tiers = [(1, 60), (5, 250), (10, 450), (20, 800)]
json.dump([{
    "event_key": f"bench-{i:04d}", "title": f"งานวิ่งทดสอบ {i}",
    "coverurl": f"https://img.example/{i}.jpg", "event_date_text": "1 ธ.ค. 2569",
    "eventdate": str(today - datetime.timedelta(days=i % 30)), "province": "กรุงเทพมหานคร",
    "on_sale_start": str(today - datetime.timedelta(days=1)),
    "on_sale_end": str(today + datetime.timedelta(days=30 + i % 20)),
    "is_mhao": "Y", "mhao_price": 990, "pin": 1 if i % 100 == 0 else 0,
    "package": [{"name": f"{n} รูป", "name_en": f"{n} photos", "number_of_photo": n, "price": p} for n, p in tiers],
} for i in range(1000)], open(sys.argv[1], "w"), ensure_ascii=False)
PY
  "$BIN" migrate >/dev/null
  "$BIN" event import "$WORK/events.json" | tail -1
}

bench_serve() {
  "$BIN" serve &
  SERVER_PID=$!
  python3 - "$URL/readyz" <<'PY'
import sys, time, urllib.request
for _ in range(600):
    try:
        urllib.request.urlopen(sys.argv[1], timeout=1); sys.exit(0)
    except Exception:
        time.sleep(0.1)
sys.exit("bench: the server did not come up")
PY
}
