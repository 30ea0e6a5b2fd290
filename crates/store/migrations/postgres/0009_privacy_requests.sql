-- Runners' requests to hide the photos that show them (the right to object, Thai PDPA
-- s.32). The selfie is never stored: only its face template (`embedding`, little-endian
-- f32), which lives while it is needed and no longer: a pending request keeps it until
-- an operator decides; a rejected one loses it at the decision; an approved one keeps it
-- to hide photos ingested later, until the event's originals are deleted (retention),
-- when the retention run clears it. `contact` (a mobile number or an e-mail address,
-- normal form) is how the requester is told; `client` a hash of their address.
CREATE TABLE privacy_requests (
    id          TEXT PRIMARY KEY,
    event_id    BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    contact     TEXT NOT NULL,
    embedding   BYTEA,
    state       TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'rejected')),
    client      TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    decided_at  BIGINT,
    decided_by  TEXT,
    notified    BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX privacy_requests_state ON privacy_requests (state, created_at);
CREATE INDEX privacy_requests_event ON privacy_requests (event_id, contact);

-- The photos an approved request hides. A held photo is hidden, and stays so: only its
-- buyers still reach it.
CREATE TABLE privacy_holds (
    request_id  TEXT NOT NULL REFERENCES privacy_requests (id) ON DELETE CASCADE,
    photo_id    BIGINT NOT NULL REFERENCES photos (id) ON DELETE CASCADE,
    PRIMARY KEY (request_id, photo_id)
);
CREATE INDEX privacy_holds_photo ON privacy_holds (photo_id);
