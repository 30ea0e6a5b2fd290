-- "Tell me when new photos of me arrive": a runner asks, after a face search, to be told
-- of new photos of them at one event, by SMS (`mobile`, proven by a one-time code) or
-- LINE (`line_user_id`, from LINE Login). The alert keeps a face template
-- (`embedding`, little-endian f32), so it is asked for with its own consent
-- (`consented_at`), and it lives until `expires_at`: the event's sale end or a
-- setting's number of days (`alerts.days`), whichever comes first. The retention run
-- deletes it then, and with it its matches; the runner's "stop" deletes it at once; an
-- alert never confirmed (`pending`: the code not entered, LINE Login not finished)
-- expires ten minutes after it was asked for. `public_id` is what links name;
-- `client` a hash of the asker's address. `last_message_at` is the moment the last
-- message counted to, `message_due_at` when the next is due (at most one per quarter
-- hour).
CREATE TABLE alerts (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    public_id        TEXT NOT NULL UNIQUE,
    event_id         BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    state            TEXT NOT NULL CHECK (state IN ('pending', 'active')),
    channel          TEXT NOT NULL CHECK (channel IN ('sms', 'line')),
    mobile           TEXT,
    line_user_id     TEXT,
    embedding        BLOB NOT NULL,
    code_hash        TEXT,
    code_tries       BIGINT NOT NULL DEFAULT 0,
    client           TEXT NOT NULL,
    consented_at     BIGINT NOT NULL,
    created_at       BIGINT NOT NULL,
    expires_at       BIGINT NOT NULL,
    last_message_at  BIGINT,
    message_due_at   BIGINT
);
CREATE INDEX alerts_event ON alerts (event_id, state);
CREATE INDEX alerts_expires ON alerts (expires_at);
CREATE INDEX alerts_mobile ON alerts (mobile, created_at);

-- The new photos an alert's face was found on, as they were ingested; `told` once a
-- message told of them (or was given up).
CREATE TABLE alert_matches (
    alert_id    BIGINT NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
    photo_id    BIGINT NOT NULL REFERENCES photos (id) ON DELETE CASCADE,
    similarity  REAL NOT NULL,
    created_at  BIGINT NOT NULL,
    told        BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (alert_id, photo_id)
);
CREATE INDEX alert_matches_photo ON alert_matches (photo_id);

-- A LINE Login now links an order or confirms an alert: one of the two. Logins live ten
-- minutes, so those under way are let go with the old table.
DROP TABLE line_logins;
CREATE TABLE line_logins (
    state_hash  TEXT PRIMARY KEY,
    order_id    BIGINT REFERENCES orders (id) ON DELETE CASCADE,
    alert_id    BIGINT REFERENCES alerts (id) ON DELETE CASCADE,
    nonce       TEXT NOT NULL,
    verifier    TEXT NOT NULL,
    expires_at  BIGINT NOT NULL,
    CHECK ((order_id IS NULL) <> (alert_id IS NULL))
);
CREATE INDEX line_logins_expires ON line_logins (expires_at);
