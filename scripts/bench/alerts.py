#!/usr/bin/env python3
"""Alerts of new photos, measured: the time from a photo's upload to the message telling
the runner in it.

Usage: alerts.py --bin RACESHOT --models DIR [--rounds 10] [--race DIR] [--alerts 10000]

A fresh shop (SQLite, `raceshot serve` with its job workers, the real face models) texts
through a local ThaiBulkSMS (its `POST /sms` contract: Basic credentials, a form; it
records when each message came). --alerts strangers' alerts are on the event first
(`seed_alerts.py`: every photo is matched against them all). Each round, a runner asks for
an SMS alert with a selfie (the models' `yaoming.jpg`), confirms it with the code texted,
and a photo showing them (`players.jpg`, made a distinct file each round) is uploaded by
tus with a photographer's upload token; measured is the time from the end of the upload
of the first photo found showing the runner to the "new photos" text reaching the
provider. Quiet rounds send that photo alone; busy rounds send --race's photos first (the
24-megapixel race set, whose faces are the models' photos' too, so the first photo found is
usually one of them) and that photo last: the photo queue and both cores are busy, as on
race morning. Each round starts with every earlier photo processed.
"""

import argparse
import json
import os
import re
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from raceday import CLIENT_TOKEN, Shop, free_port, request, summary, tus_send, with_comment  # noqa: E402


class Provider(ThreadingHTTPServer):
    """ThaiBulkSMS on 127.0.0.1: takes every message and notes when it came."""

    def __init__(self):
        super().__init__(("127.0.0.1", free_port()), Handler)
        self.received = []
        self.lock = threading.Condition()

    def wait_for(self, mobile, kind, after, timeout=300):
        deadline = time.time() + timeout
        with self.lock:
            while True:
                for at, number, text in self.received:
                    if number == mobile and kind in text and at >= after:
                        return at, text
                left = deadline - time.time()
                if left <= 0:
                    raise SystemExit(f"no {kind!r} message to {mobile} in {timeout} s")
                self.lock.wait(left)


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
        form = dict(p.split("=", 1) for p in body.split("&") if "=" in p)
        from urllib.parse import unquote_plus
        number = unquote_plus(form.get("msisdn", ""))
        text = unquote_plus(form.get("message", ""))
        with self.server.lock:
            self.server.received.append((time.time(), number, text))
            self.server.lock.notify_all()
        answer = json.dumps({"remaining_credit": 99, "total_use_credit": 1,
                             "credit_type": "standard",
                             "phone_number_list": [{"number": number, "message_id": "m",
                                                    "used_credit": 1}],
                             "bad_phone_number_list": []}).encode()
        self.send_response(201)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


def multipart(fields, file_bytes):
    boundary = uuid.uuid4().hex
    out = b""
    for k, v in fields.items():
        out += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n"
                f"{v}\r\n").encode()
    out += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
            f"filename=\"me.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n").encode()
    out += file_bytes + f"\r\n--{boundary}--\r\n".encode()
    return out, f"multipart/form-data; boundary={boundary}"


def ask_alert(shop, provider, mobile, selfie):
    asked_at = time.time()
    body, ctype = multipart({"event_key": "bench", "channel": "sms", "mobile": mobile,
                             "consent": "yes"}, selfie)
    s, _, answer = request(shop.url, "POST", "/api/alerts", body, {
        "Authorization": f"Bearer {CLIENT_TOKEN}", "Content-Type": ctype})
    if s != 201:
        raise SystemExit(f"asking for an alert: {s} {answer[:300]!r}")
    alert_id = json.loads(answer)["alert_id"]
    _, text = provider.wait_for(mobile, "alert", asked_at, timeout=60)
    code = re.search(r"\b(\d{6})\b", text).group(1)
    s, _, answer = request(shop.url, "POST", f"/api/alerts/{alert_id}/confirm",
                           json.dumps({"code": code}), {
                               "Authorization": f"Bearer {CLIENT_TOKEN}",
                               "Content-Type": "application/json"})
    if s != 200:
        raise SystemExit(f"confirming an alert: {s} {answer[:300]!r}")


def settle(shop, timeout=600):
    """Waits until every photo of the shop is processed."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        db = sqlite3.connect(os.path.join(shop.dir, "raceshot.db"))
        try:
            (pending,) = db.execute(
                "SELECT COUNT(*) FROM photos WHERE state NOT IN ('ready', 'failed')").fetchone()
        finally:
            db.close()
        if pending == 0:
            return
        time.sleep(0.5)
    raise SystemExit("photos still processing")


def first_match(shop, mobile):
    """The file name of the first photo an alert's face was found on."""
    db = sqlite3.connect(os.path.join(shop.dir, "raceshot.db"))
    try:
        (name,) = db.execute(
            "SELECT p.original_file_name FROM alert_matches m JOIN photos p ON p.id = m.photo_id "
            "JOIN alerts a ON a.id = m.alert_id WHERE a.mobile = ? "
            "ORDER BY m.created_at, m.photo_id LIMIT 1", (mobile,)).fetchone()
        return name
    finally:
        db.close()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bin", required=True)
    p.add_argument("--models", required=True)
    p.add_argument("--rounds", type=int, default=10)
    p.add_argument("--race", help="race photos sent before the photo in busy rounds")
    p.add_argument("--alerts", type=int, default=10000)
    args = p.parse_args()
    provider = Provider()
    threading.Thread(target=provider.serve_forever, daemon=True).start()
    os.environ.update({
        "RACESHOT__SMS__PROVIDER": "thaibulksms",
        "RACESHOT__SMS__API_BASE": f"http://127.0.0.1:{provider.server_address[1]}",
        "RACESHOT__SMS__KEY": "bench", "RACESHOT__SMS__SECRET": "bench",
        "RACESHOT__ALERTS__PER_CLIENT_PER_MINUTE": "0",
        "RACESHOT__MESSAGES__DAILY_CAP__SMS": "0",
    })
    shop = Shop(args, ftp=False)
    try:
        if args.alerts:
            subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "seed_alerts.py"),
                            os.path.join(shop.dir, "raceshot.db"), "bench", str(args.alerts)],
                           check=True, stdout=subprocess.DEVNULL)
        token = shop.photographer("alerts@bench.example")
        photos = os.path.join(args.models, "photos")
        selfie = open(os.path.join(photos, "yaoming.jpg"), "rb").read()
        photo = open(os.path.join(photos, "players.jpg"), "rb").read()
        race = []
        if args.race:
            race = [open(os.path.join(args.race, n), "rb").read()
                    for n in sorted(os.listdir(args.race)) if n.endswith(".jpg")]
        kinds = ["quiet"] * args.rounds + (["busy"] * args.rounds if race else [])
        times = {"quiet": [], "busy": []}
        # When each file's upload ended: the race set's faces come from the same photos,
        # so the first photo found may be one of them.
        ended = {}
        for i, kind in enumerate(kinds):
            # Each round starts with the queue empty: its alert is asked for before any of
            # its photos arrives.
            settle(shop)
            mobile = f"08{i:08d}"
            ask_alert(shop, provider, mobile, selfie)
            start = time.time()
            for j, data in enumerate(race if kind == "busy" else []):
                name = f"race-{i}-{j}.jpg"
                tus_send(shop.url, token, name, with_comment(data, f"race {i} {j}"))
                ended[name] = time.time()
            name = f"players-{i}.jpg"
            tus_send(shop.url, token, name, with_comment(photo, f"round {i}"))
            ended[name] = time.time()
            told, _ = provider.wait_for(mobile, "new photo", start)
            first = first_match(shop, mobile)
            times[kind].append(told - ended[first])
            print(f"round {i + 1} ({kind}{f', among {len(race)} race photos arriving' if kind == 'busy' else ''}): "
                  f"upload end of {first} -> text {told - ended[first]:.2f} s", flush=True)
        print(f"ALERT_LATENCY quiet: {summary(times['quiet'])}; with {args.alerts} alerts on the event")
        if times["busy"]:
            print(f"ALERT_LATENCY busy (among {len(race)} race photos of 24 MP arriving): {summary(times['busy'])}")
    finally:
        shop.stop()
        provider.shutdown()


if __name__ == "__main__":
    main()
