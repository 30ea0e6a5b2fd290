-- Operators of the console: admins do everything; photographers work only on the events
-- assigned to them. Passwords are argon2id PHC strings; repeated failures lock the
-- account for a growing while.
CREATE TABLE operators (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    email           TEXT NOT NULL UNIQUE,
    password_hash   TEXT NOT NULL,
    role            TEXT NOT NULL CHECK (role IN ('admin', 'photographer')),
    disabled        BOOLEAN NOT NULL DEFAULT FALSE,
    failed_logins   BIGINT NOT NULL DEFAULT 0,
    locked_until    BIGINT,
    last_login_at   BIGINT,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);

CREATE TABLE operator_events (
    operator_id  BIGINT NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
    event_id     BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    PRIMARY KEY (operator_id, event_id)
);

-- Signed-in browsers. Only the SHA-256 of the cookie's token is kept, so a copy of the
-- database opens no session.
CREATE TABLE operator_sessions (
    token_hash    TEXT PRIMARY KEY,
    operator_id   BIGINT NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
    created_at    BIGINT NOT NULL,
    expires_at    BIGINT NOT NULL,
    last_seen_at  BIGINT NOT NULL
);
CREATE INDEX operator_sessions_expiry ON operator_sessions (expires_at);

-- Face searches per event, for the console's dashboard.
CREATE TABLE event_searches (
    event_id  BIGINT PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
    searches  BIGINT NOT NULL DEFAULT 0
);
