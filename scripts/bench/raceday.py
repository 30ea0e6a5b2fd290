#!/usr/bin/env python3
"""Race morning, measured: photos arriving by a camera's FTP, by a tus client and by
`raceshot upload --watch` together, at a steady rate, while runners search; then photos
sent by `raceshot upload` over a link cut every 30 seconds.

Usage: raceday.py --bin RACESHOT --photos DIR --models DIR [--minutes 5] [--rate 1.5]
                  [--runners 50] [--cut-files 1000] [--cut-every 30] [--part morning|cuts|both]

Part `morning`: a fresh shop (SQLite, local storage, `raceshot serve` with its own job
workers and FTP). Three senders share --rate photos a second for --minutes: an FTP client
(Python's ftplib, signed in with an upload token, STOR into /bench/), a tus 1.0 client
(POST, then one PATCH) and `raceshot upload --watch` on a folder files are moved into.
Each photo is a distinct file (a race photo with its own JPEG comment, so the hash dedupe
does not skip it, and the decoding work stays the real one). Meanwhile --runners runners
search by selfie (sign, PUT, search: each from its own address through
`server.trusted_proxies`, as behind a proxy), 5 to 15 s apart; 30 s of the same searches
with no photos arriving come first (the event empty), and 30 s more once every photo is in
(the same index as at the end, nothing arriving): the peers of the searches made while
photos arrive. Reported: the time from each upload's
end (the client's clock for FTP and tus; the photo row's creation for the watcher, which
is when its last byte arrived) to the photo being searchable (`photos.ready_at`), p50, p95
and max; search latency before and during; the server's peak memory (VmRSS); and that no
photo was lost or doubled.

Part `cuts`: a fresh shop with no job workers (`serve --no-jobs`: arrival only), and
`raceshot upload` sending --cut-files photos through a proxy that passes --cut-rate MB/s
upward (a 4G uplink) and cuts every connection every --cut-every seconds (a reset, bytes
in flight lost). Reported: the time, the cuts
that hit a transfer, and that every file arrived once, whole (the server's SHA-256 of what
it stored is the file's).
"""

import argparse
import base64
import hashlib
import http.client
import io
import json
import os
import random
import shutil
import socket
import sqlite3
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from ftplib import FTP

CLIENT_TOKEN = "demo-client-token"
PASSWORD = "bench-password-123"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def with_comment(jpeg: bytes, text: str) -> bytes:
    """The JPEG with a comment segment right after its start marker: another file, the
    same picture."""
    payload = text.encode()
    return jpeg[:2] + b"\xff\xfe" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


def pct(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, int(round(p / 100 * (len(values) - 1)))))
    return values[k]


def summary(values, unit="s"):
    if not values:
        return "none"
    return (f"p50 {pct(values, 50):.2f} {unit}, p95 {pct(values, 95):.2f} {unit}, "
            f"max {max(values):.2f} {unit} (n={len(values)})")


class Shop:
    """A fresh shop in a temporary folder, served by `raceshot serve`."""

    def __init__(self, args, jobs=True, ftp=True, public_url=None):
        self.args = args
        self.dir = tempfile.mkdtemp(prefix="raceday-")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = dict(os.environ)
        self.env.update({
            "RACESHOT__DATA_DIR": self.dir,
            "RACESHOT__SERVER__ADDR": f"127.0.0.1:{self.port}",
            "RACESHOT__SERVER__TRUSTED_PROXIES": "127.0.0.1",
            "RACESHOT__PAYMENTS__ALLOW_SANDBOX": "true",
            "RACESHOT__FACES__MODELS_DIR": args.models,
            "RACESHOT__LOG__FILTER": "warn",
        })
        if public_url:
            # The links the server writes (a tus upload's address) go through the network.
            self.env["RACESHOT__SERVER__PUBLIC_URL"] = public_url
        if ftp:
            self.ftp_port = free_port()
            first = random.randint(40000, 60000)
            self.env["RACESHOT__FTP__ADDR"] = f"127.0.0.1:{self.ftp_port}"
            self.env["RACESHOT__FTP__PASSIVE_PORTS"] = f"{first}-{first + 40}"
        self.run("migrate")
        today = time.strftime("%Y-%m-%d")
        event = os.path.join(self.dir, "event.json")
        with open(event, "w") as f:
            json.dump({"event_key": "bench", "title": "Race morning", "eventdate": today,
                       "on_sale_start": today, "on_sale_end": "2099-12-31",
                       "package": [{"name": "1", "name_en": "1", "number_of_photo": 1,
                                    "price": 60}]}, f)
        self.run("event", "import", event)
        cmd = [args.bin, "serve"] + ([] if jobs else ["--no-jobs"])
        self.proc = subprocess.Popen(cmd, env=self.env, stdout=subprocess.DEVNULL)
        for _ in range(600):
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        else:
            raise SystemExit("raceshot serve did not start")

    def run(self, *argv, stdin=None):
        out = subprocess.run([self.args.bin, *argv], env=self.env, input=stdin, check=True,
                             capture_output=True, text=True)
        return out.stdout

    def photographer(self, email):
        self.run("admin", "create-user", "--email", email, "--role", "photographer",
                 "--event", "bench", stdin=PASSWORD + "\n")
        return self.run("admin", "upload-token", "--email", email).strip().splitlines()[-1]

    def rows(self):
        db = sqlite3.connect(os.path.join(self.dir, "raceshot.db"))
        try:
            return db.execute(
                "SELECT content_hash, created_at, ready_at, state FROM photos").fetchall()
        finally:
            db.close()

    def rss_kib(self):
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return 0

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


def request(url, method, path, body=None, headers=None, timeout=60):
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


def tus_send(url, token, name, data):
    meta = ",".join(f"{k} {base64.b64encode(v.encode()).decode()}"
                    for k, v in (("event", "bench"), ("filename", name)))
    status, headers, body = request(url, "POST", "/api/uploads", headers={
        "Tus-Resumable": "1.0.0", "Upload-Length": str(len(data)), "Upload-Metadata": meta,
        "Authorization": f"Bearer {token}"})
    if status != 201:
        raise RuntimeError(f"tus create: {status} {body[:200]!r}")
    location = urllib.parse.urlsplit(headers["location"]).path
    status, _, body = request(url, "PATCH", location, body=data, headers={
        "Tus-Resumable": "1.0.0", "Upload-Offset": "0",
        "Content-Type": "application/offset+octet-stream", "Authorization": f"Bearer {token}"})
    if status != 204:
        raise RuntimeError(f"tus patch: {status} {body[:200]!r}")


class Runner(threading.Thread):
    """One runner searching by selfie again and again, from an address of its own."""

    def __init__(self, shop, n, selfie, event_id, stop, record):
        super().__init__(daemon=True)
        self.shop, self.selfie, self.event_id = shop, selfie, event_id
        self.stop, self.record = stop, record
        self.addr = f"10.{n // 250}.{n % 250}.{n % 200 + 1}"
        self.rng = random.Random(n)

    def headers(self, extra=None):
        h = {"Authorization": f"Bearer {CLIENT_TOKEN}", "X-Forwarded-For": self.addr}
        h.update(extra or {})
        return h

    def run(self):
        self.stop.wait(self.rng.uniform(0, 5))
        while not self.stop.is_set():
            start = time.monotonic()
            try:
                s, _, body = request(self.shop.url, "POST", "/v2/facesearch/sign",
                                     json.dumps({"event_key": "bench", "file_name": "me.jpg",
                                                 "file_type": "image/jpeg"}),
                                     self.headers({"Content-Type": "application/json"}))
                signed = json.loads(body)
                if s != 200 or "url" not in signed:
                    raise RuntimeError(f"sign: {s} {body[:200]!r}")
                put = urllib.parse.urlsplit(signed["url"])
                path = put.path + ("?" + put.query if put.query else "")
                s, _, body = request(self.shop.url, "PUT", path, self.selfie,
                                     self.headers({"Content-Type": "image/jpeg"}))
                if s not in (200, 201, 204):
                    raise RuntimeError(f"put: {s} {body[:200]!r}")
                searched = time.monotonic()
                s, _, body = request(self.shop.url, "POST", "/v2/facesearch", json.dumps({
                    "search_id": signed["search_id"], "file_location": signed["file_location"],
                    "event_id": self.event_id, "event_key": "bench", "face_threshold": 0.6,
                    "mhao_price": 0, "max_face_search": 50}),
                    self.headers({"Content-Type": "application/json"}))
                if s != 200 or json.loads(body).get("status") != "success":
                    raise RuntimeError(f"search: {s} {body[:200]!r}")
                done = time.monotonic()
                self.record(done - start, done - searched, None)
            except Exception as e:  # a failed search is counted, not fatal
                self.record(None, None, str(e)[:200])
            self.stop.wait(self.rng.uniform(5, 15))


def searches(shop, args, selfie, seconds, stop_event=None):
    """Runs the runners for `seconds` (or until stop_event); answers (total, search-only,
    failures)."""
    _, _, body = request(shop.url, "GET", "/v1/events/bench",
                         headers={"Authorization": f"Bearer {CLIENT_TOKEN}"})
    event_id = json.loads(body)["event_id"]
    totals, only, failures = [], [], []
    lock = threading.Lock()

    def record(total, search, failure):
        with lock:
            if failure is None:
                totals.append(total)
                only.append(search)
            else:
                failures.append(failure)

    stop = stop_event or threading.Event()
    runners = [Runner(shop, i, selfie, event_id, stop, record) for i in range(args.runners)]
    for r in runners:
        r.start()
    if stop_event is None:
        time.sleep(seconds)
        stop.set()
    return runners, totals, only, failures


def morning(args):
    bases = sorted(os.path.join(args.photos, f) for f in os.listdir(args.photos)
                   if f.lower().endswith(".jpg"))
    if not bases:
        raise SystemExit(f"no photos in {args.photos}")
    base_bytes = [open(p, "rb").read() for p in bases]
    selfie = open(os.path.join(args.models, "photos", "yaoming.jpg"), "rb").read()
    per_path = int(args.rate * args.minutes * 60 / 3)
    every = 3 / args.rate

    shop = Shop(args)
    try:
        tokens = {p: shop.photographer(f"{p}@bench.example") for p in ("ftp", "tus", "cli")}
        watch = os.path.join(shop.dir, "camera")
        staging = os.path.join(shop.dir, "staging")
        os.makedirs(watch)
        os.makedirs(staging)
        watcher = subprocess.Popen(
            [args.bin, "upload", "--server", shop.url, "--event", "bench", "--token",
             tokens["cli"], "--watch", "--state", os.path.join(shop.dir, "upload-state.json"),
             watch], env=shop.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

        peak = [0]
        sampling = threading.Event()

        def sample():
            while not sampling.is_set():
                peak[0] = max(peak[0], shop.rss_kib())
                sampling.wait(0.5)

        threading.Thread(target=sample, daemon=True).start()

        print(f"== baseline: {args.runners} runners search for 30 s, no photos arriving "
              f"(the event empty)", flush=True)
        _, base_total, base_only, base_fail = searches(shop, args, selfie, 30)
        time.sleep(2)

        sent = {}  # hash -> (path, client end time or None)
        sent_lock = threading.Lock()
        errors = []

        def photo(path, i):
            data = with_comment(base_bytes[i % len(base_bytes)], f"raceday {path} {i}")
            return data, hashlib.sha256(data).hexdigest()

        def pace(i, t0):
            delay = t0 + i * every - time.time()
            if delay > 0:
                time.sleep(delay)

        def ftp_sender(t0):
            ftp = FTP()
            ftp.connect("127.0.0.1", shop.ftp_port, timeout=60)
            ftp.login("ftp@bench.example", tokens["ftp"])
            ftp.cwd("/bench")
            for i in range(per_path):
                pace(i, t0)
                data, digest = photo("ftp", i)
                try:
                    ftp.storbinary(f"STOR DSC_{i:05d}.JPG", io.BytesIO(data))
                    with sent_lock:
                        sent[digest] = ("ftp", time.time())
                except Exception as e:
                    errors.append(f"ftp {i}: {e}")
            ftp.quit()

        def tus_sender(t0):
            for i in range(per_path):
                pace(i, t0)
                data, digest = photo("tus", i)
                try:
                    tus_send(shop.url, tokens["tus"], f"TUS_{i:05d}.JPG", data)
                    with sent_lock:
                        sent[digest] = ("tus", time.time())
                except Exception as e:
                    errors.append(f"tus {i}: {e}")

        def watch_sender(t0):
            for i in range(per_path):
                pace(i, t0)
                data, digest = photo("cli", i)
                tmp = os.path.join(staging, f"CAM_{i:05d}.JPG")
                with open(tmp, "wb") as f:
                    f.write(data)
                os.rename(tmp, os.path.join(watch, f"CAM_{i:05d}.JPG"))
                with sent_lock:
                    sent[digest] = ("watch", None)

        print(f"== race morning: {3 * per_path} photos ({args.rate}/s: FTP, tus and "
              f"`raceshot upload --watch` a third each) for {args.minutes} min, "
              f"{args.runners} runners searching", flush=True)
        stop_runners = threading.Event()
        _, run_total, run_only, run_fail = searches(shop, args, selfie, 0, stop_runners)
        t0 = time.time() + 1
        senders = [threading.Thread(target=f, args=(t0 + k * every / 3,))
                   for k, f in enumerate((ftp_sender, tus_sender, watch_sender))]
        for s in senders:
            s.start()
        for s in senders:
            s.join()
        sending_done = time.time()
        # Wait for every photo to arrive and be searchable (the watcher may still be sending).
        deadline = time.time() + 600
        while time.time() < deadline:
            rows = shop.rows()
            if len(rows) >= len(sent) and all(r[3] in ("ready", "failed") for r in rows):
                break
            time.sleep(1)
        stop_runners.set()
        watcher.terminate()
        watcher.wait(30)
        print(f"senders done {sending_done - t0:.0f} s after the start; every photo "
              f"searchable {time.time() - t0:.0f} s after it", flush=True)
        time.sleep(16)  # the runners' last searches end
        print(f"== after: {args.runners} runners search for 30 s, every photo in, none arriving",
              flush=True)
        _, after_total, after_only, after_fail = searches(shop, args, selfie, 30)
        sampling.set()

        rows = {r[0]: r for r in shop.rows()}
        lost = [h for h in sent if h not in rows]
        extra = [h for h in rows if h not in sent]
        failed = [h for h, r in rows.items() if r[3] != "ready"]
        by_path = {"ftp": [], "tus": [], "watch": []}
        for digest, (path, end) in sent.items():
            row = rows.get(digest)
            if row is None or row[2] is None:
                continue
            start = end if end is not None else row[1] / 1000
            by_path[path].append(row[2] / 1000 - start)
        every_one = [v for vs in by_path.values() for v in vs]
        print(f"RESULT photos sent {len(sent)}, stored {len(rows)}, lost {len(lost)}, "
              f"doubled or unknown {len(extra)}, not ready {len(failed)}, sender errors "
              f"{len(errors)}")
        for e in errors[:5]:
            print(f"  {e}")
        print(f"RESULT upload end -> searchable, all: {summary(every_one)}")
        for path, values in by_path.items():
            print(f"RESULT upload end -> searchable, {path}: {summary(values)}")
        print(f"RESULT search (sign + PUT + search), before, the event empty: "
              f"{summary(base_total)}; failures {len(base_fail)}")
        print(f"RESULT search (sign + PUT + search), photos arriving: {summary(run_total)}; "
              f"failures {len(run_fail)}")
        print(f"RESULT search (sign + PUT + search), after, every photo in: "
              f"{summary(after_total)}; failures {len(after_fail)}")
        print(f"RESULT the search call alone: before {summary(base_only)}; during "
              f"{summary(run_only)}; after {summary(after_only)}")
        for f in (base_fail + run_fail + after_fail)[:5]:
            print(f"  search failure: {f}")
        print(f"RESULT server peak memory (VmRSS): {peak[0] / 1024:.0f} MiB")
        ok = not lost and not extra and not failed and not errors and pct(every_one, 95) <= 60
        print("GOAL p95 <= 60 s, nothing lost or doubled: " + ("met" if ok else "MISSED"))
    finally:
        shop.stop()


class CuttingProxy(threading.Thread):
    """Forwards 127.0.0.1:port to the shop, and every `every` seconds resets every open
    connection (both ends), as a mobile link that drops."""

    def __init__(self, every, bytes_per_second):
        super().__init__(daemon=True)
        self.target_port, self.every = None, every
        self.bytes_per_second = bytes_per_second
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(64)
        self.port = self.server.getsockname()[1]
        self.lock = threading.Lock()
        self.open = []  # [client, upstream, bytes_up]
        self.cuts = 0
        self.cut_in_flight = 0
        self.stopped = threading.Event()

    def run(self):
        threading.Thread(target=self.cutter, daemon=True).start()
        while not self.stopped.is_set():
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
            pair = [client, upstream, 0]
            with self.lock:
                self.open.append(pair)
            threading.Thread(target=self.pipe, args=(pair, 0, 1, True), daemon=True).start()
            threading.Thread(target=self.pipe, args=(pair, 1, 0, False), daemon=True).start()

    def pipe(self, pair, src, dst, up):
        try:
            while True:
                data = pair[src].recv(65536)
                if not data:
                    break
                if up:
                    pair[2] += len(data)
                    # A mobile uplink's pace (the uploader sends one request at a time).
                    time.sleep(len(data) / self.bytes_per_second)
                pair[dst].sendall(data)
        except OSError:
            pass
        finally:
            for s in pair[:2]:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            with self.lock:
                if pair in self.open:
                    self.open.remove(pair)

    def cutter(self):
        while not self.stopped.wait(self.every):
            with self.lock:
                pairs, self.open = self.open, []
            self.cuts += 1
            for pair in pairs:
                if pair[2] > 0:
                    self.cut_in_flight += 1
                for s in pair[:2]:
                    # A reset; shutdown first wakes the pipe blocked in recv (a close alone
                    # would not, and the socket would live on, silent, until it returns).
                    try:
                        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                        s.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                    s.close()

    def stop(self):
        self.stopped.set()
        self.server.close()


def cuts(args):
    bases = sorted(os.path.join(args.photos, f) for f in os.listdir(args.photos)
                   if f.lower().endswith(".jpg"))
    base_bytes = [open(p, "rb").read() for p in bases]
    proxy = CuttingProxy(args.cut_every, args.cut_rate * 1e6)
    shop = Shop(args, jobs=False, ftp=False, public_url=f"http://127.0.0.1:{proxy.port}")
    proxy.target_port = shop.port
    try:
        token = shop.photographer("cam@bench.example")
        folder = os.path.join(shop.dir, "card")
        os.makedirs(folder)
        digests = set()
        total = 0
        for i in range(args.cut_files):
            data = with_comment(base_bytes[i % len(base_bytes)], f"cut {i}")
            digests.add(hashlib.sha256(data).hexdigest())
            total += len(data)
            with open(os.path.join(folder, f"IMG_{i:05d}.JPG"), "wb") as f:
                f.write(data)
        proxy.start()
        print(f"== {args.cut_files} photos ({total / 1e9:.2f} GB) by `raceshot upload` over tus "
              f"through a link of {args.cut_rate} MB/s cut every {args.cut_every} s", flush=True)
        start = time.time()
        up = subprocess.run([args.bin, "upload", "--server", f"http://127.0.0.1:{proxy.port}",
                             "--event", "bench", "--token", token, "--state",
                             os.path.join(shop.dir, "state.json"), folder],
                            env=shop.env, capture_output=True, text=True)
        took = time.time() - start
        rows = shop.rows()
        stored = {r[0] for r in rows}
        whole = digests == stored and len(rows) == len(digests)
        print(f"RESULT uploader exit {up.returncode} after {took:.0f} s; {proxy.cuts} cuts, "
              f"{proxy.cut_in_flight} of them through a transfer")
        if up.returncode != 0:
            print(up.stderr[-2000:])
        print(f"RESULT files {len(digests)}, stored {len(rows)}, every one whole and once: "
              f"{'yes' if whole else 'NO'} (missing {len(digests - stored)}, "
              f"unknown {len(stored - digests)})")
        print("GOAL all arrive whole: " + ("met" if whole and up.returncode == 0 else "MISSED"))
    finally:
        proxy.stop()
        shop.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--photos", required=True)
    ap.add_argument("--models", required=True)
    ap.add_argument("--minutes", type=float, default=5)
    ap.add_argument("--rate", type=float, default=1.5)
    ap.add_argument("--runners", type=int, default=50)
    ap.add_argument("--cut-files", type=int, default=1000)
    ap.add_argument("--cut-photos", help="photos for the cut link (default: --photos)")
    ap.add_argument("--cut-every", type=float, default=30)
    ap.add_argument("--cut-rate", type=float, default=2, help="the link's MB/s upward")
    ap.add_argument("--part", choices=["morning", "cuts", "both"], default="both")
    args = ap.parse_args()
    args.bin = os.path.realpath(args.bin)
    args.models = os.path.realpath(args.models)
    print(f"raceday.py on {os.cpu_count()} cores", flush=True)
    if args.part in ("morning", "both"):
        morning(args)
    if args.part in ("cuts", "both"):
        if args.cut_photos:
            args.photos = args.cut_photos
        cuts(args)


if __name__ == "__main__":
    sys.exit(main())
