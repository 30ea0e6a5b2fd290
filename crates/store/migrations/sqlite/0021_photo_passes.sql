-- Photo passes: codes an organiser hands runners with their entry, so that the entry fee
-- pays for their photos. Each covers `photos` photos of one event (NULL: every photo the
-- runner's searches found, the all-photos deal) and works once: `order_id` is the order
-- it paid, set in the transaction that makes that order. A code is kept only as the
-- SHA-256 of its normal form; the codes themselves leave once, in the file the console
-- exports when it makes a batch.
CREATE TABLE photo_passes (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id    BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    batch       TEXT NOT NULL,
    code_hash   TEXT NOT NULL UNIQUE,
    photos      BIGINT,
    created_at  BIGINT NOT NULL,
    redeemed_at BIGINT,
    order_id    BIGINT REFERENCES orders (id) ON DELETE SET NULL
);
CREATE INDEX photo_passes_event ON photo_passes (event_id, batch);
