-- Messages to runners, one row per message and channel: at most one is ever sent under a
-- key (`{kind}:{subject}:{channel}`), however often its job runs; `retry_key` is what a
-- provider that deduplicates (LINE's `X-Line-Retry-Key`) is given on every attempt.
-- `state`: `sending` until an outcome, then `sent` (a provider took it), `logged` (no
-- provider set up), `capped` (the channel's daily cap was reached) or `failed` (for
-- good). No address, number, LINE id or text is kept here. Rows older than 30 days are
-- deleted by the retention run.
CREATE TABLE messages (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    dedupe_key  TEXT NOT NULL UNIQUE,
    channel     TEXT NOT NULL,
    kind        TEXT NOT NULL,
    retry_key   TEXT NOT NULL,
    state       TEXT NOT NULL,
    error       TEXT,
    created_at  BIGINT NOT NULL,
    sent_at     BIGINT
);
CREATE INDEX messages_channel_sent ON messages (channel, sent_at);
CREATE INDEX messages_created ON messages (created_at);

-- A LINE Login under way: kept by the SHA-256 of its `state`, with the nonce the ID token
-- must carry and the PKCE verifier, for ten minutes; taken (deleted) by the callback.
CREATE TABLE line_logins (
    state_hash  TEXT PRIMARY KEY,
    order_id    BIGINT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    nonce       TEXT NOT NULL,
    verifier    TEXT NOT NULL,
    expires_at  BIGINT NOT NULL
);
CREATE INDEX line_logins_expires ON line_logins (expires_at);

-- The LINE account an order's news goes to (the user id LINE Login answered). Deleted
-- with the event's files (retention), or when the order is linked to another account.
CREATE TABLE line_links (
    order_id      BIGINT PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
    line_user_id  TEXT NOT NULL,
    linked_at     BIGINT NOT NULL
);
