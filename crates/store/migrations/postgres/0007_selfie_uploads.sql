-- Upload addresses handed out for selfies, so that each is used once, none outlives its
-- lifetime and no client holds many at once. `expires_at` is when the address, and any
-- selfie behind it, must be gone; `client` is a hash of the client's address. A row stays
-- a while after its selfie is deleted, so that an upload still streaming then is deleted
-- again.
CREATE TABLE selfie_uploads (
    search_id   TEXT PRIMARY KEY,
    client      TEXT NOT NULL,
    state       TEXT NOT NULL CHECK (state IN ('signed', 'uploaded', 'used', 'swept')),
    expires_at  BIGINT NOT NULL,
    created_at  BIGINT NOT NULL
);
CREATE INDEX selfie_uploads_expiry ON selfie_uploads (expires_at);
CREATE INDEX selfie_uploads_client ON selfie_uploads (client, expires_at);
