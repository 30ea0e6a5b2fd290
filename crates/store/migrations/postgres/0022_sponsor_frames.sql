-- Sponsor frames: a picture (PNG with transparency; an uploaded SVG is stored drawn as
-- one) an organiser puts over an event's photos. `name` is its file in the event's
-- `frame/` folder. Free downloads carry it; sold photos get a framed copy beside the
-- original and the logo copy when `on_sold` is set.
CREATE TABLE event_frames (
    event_id   BIGINT PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    on_sold    BOOLEAN NOT NULL DEFAULT FALSE,
    updated_at BIGINT NOT NULL
);
-- The frame an order's photos carry (fixed when it is made, so a later change of frame
-- leaves what was bought as it was), whether that copy is all it delivers (a free
-- download), and whether those copies are made.
ALTER TABLE orders ADD COLUMN frame_name TEXT;
ALTER TABLE orders ADD COLUMN frame_only BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE orders ADD COLUMN is_frame_image_created BOOLEAN NOT NULL DEFAULT FALSE;
