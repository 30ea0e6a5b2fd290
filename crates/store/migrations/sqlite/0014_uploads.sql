-- Resumable uploads (tus 1.0) in progress: the photo's file arrives in parts, each stored
-- in object storage under `_shop/uploads/` and listed in `upload_parts` once its bytes are
-- all there; `received` is the offset the next part starts at. A finished upload names
-- the photo it became; an unfinished one is deleted, parts and all, at `expires_at`.
CREATE TABLE uploads (
    id           TEXT PRIMARY KEY,
    operator_id  BIGINT NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
    event_id     BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    file_name    TEXT NOT NULL,
    length       BIGINT NOT NULL,
    received     BIGINT NOT NULL DEFAULT 0,
    photo_id     BIGINT,
    created_at   BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL
);
CREATE INDEX uploads_expiry ON uploads (expires_at);

CREATE TABLE upload_parts (
    upload_id  TEXT NOT NULL REFERENCES uploads (id) ON DELETE CASCADE,
    start      BIGINT NOT NULL,
    size       BIGINT NOT NULL,
    name       TEXT NOT NULL,
    PRIMARY KEY (upload_id, start)
);
