-- Bib numbers. Each event says what its bibs look like (1 to 6 digits unless set, and
-- letters one of which may lead them); every bib is stored in the normal form of
-- `raceshot_domain::bib`.
ALTER TABLE events ADD COLUMN bib_min_digits BIGINT NOT NULL DEFAULT 1;
ALTER TABLE events ADD COLUMN bib_max_digits BIGINT NOT NULL DEFAULT 6;
ALTER TABLE events ADD COLUMN bib_prefix TEXT NOT NULL DEFAULT '';

-- When the photo was taken (EXIF DateTimeOriginal, Unix milliseconds, Bangkok time when the
-- camera gave no offset); NULL when the file does not say. Orders the manual search page.
ALTER TABLE photos ADD COLUMN taken_at BIGINT;
CREATE INDEX photos_event_taken ON photos (event_id, taken_at, id);

-- Bibs read on a photo at ingestion (or by `raceshot bibs`), with the read's confidence
-- and box in the original's pixels. Reading a photo again replaces its rows.
CREATE TABLE photo_bibs (
    photo_id    BIGINT NOT NULL REFERENCES photos (id) ON DELETE CASCADE,
    event_id    BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    bib         TEXT NOT NULL,
    confidence  DOUBLE PRECISION NOT NULL,
    box_x1      DOUBLE PRECISION NOT NULL,
    box_y1      DOUBLE PRECISION NOT NULL,
    box_x2      DOUBLE PRECISION NOT NULL,
    box_y2      DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (photo_id, bib)
);
CREATE INDEX photo_bibs_event ON photo_bibs (event_id, bib);

-- Operators' corrections: a bib added to a photo (present) or taken off it (not present).
-- They win over what was read, and reading the photo again leaves them alone.
CREATE TABLE bib_corrections (
    photo_id    BIGINT NOT NULL REFERENCES photos (id) ON DELETE CASCADE,
    event_id    BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    bib         TEXT NOT NULL,
    present     BOOLEAN NOT NULL,
    operator    TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (photo_id, bib)
);
CREATE INDEX bib_corrections_event ON bib_corrections (event_id, bib);
