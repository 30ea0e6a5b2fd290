#!/usr/bin/env python3
"""Adds N working alerts of strangers to an event of a SQLite shop, as runners who asked to
be told of new photos of them would leave them: each a random unit face template of the
recogniser's size (512), confirmed on LINE, ending in 2099. Random templates match no
real face, so every photo ingested after is matched against all of them and tells no one:
what alerts cost ingestion.

Usage: seed_alerts.py DATABASE EVENT_KEY N [--dim 512]
"""

import argparse
import os
import sqlite3
import time

import numpy as np


def main():
    p = argparse.ArgumentParser()
    p.add_argument("database")
    p.add_argument("event_key")
    p.add_argument("n", type=int)
    p.add_argument("--dim", type=int, default=512)
    args = p.parse_args()
    rng = np.random.default_rng(7)
    templates = rng.standard_normal((args.n, args.dim)).astype("<f4")
    templates /= np.linalg.norm(templates, axis=1, keepdims=True)
    now = int(time.time() * 1000)
    db = sqlite3.connect(args.database)
    (event_id,) = db.execute("SELECT id FROM events WHERE event_key = ?", (args.event_key,)).fetchone()
    rows = [
        (os.urandom(16).hex(), event_id, "active", "line", f"U{os.urandom(16).hex()}",
         templates[i].tobytes(), "bench", now, now, now + 2_000_000_000_000)
        for i in range(args.n)
    ]
    db.executemany(
        "INSERT INTO alerts (public_id, event_id, state, channel, line_user_id, embedding, "
        "client, consented_at, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    db.commit()
    print(f"{args.n} alerts on {args.event_key}")


if __name__ == "__main__":
    main()
