-- Race results as the organiser published them, one row per finisher of an event, read
-- from a timing system's file; importing again replaces an event's rows in one
-- transaction. `name_key` is the name as searched (lower case, no spaces or punctuation).
-- Times are in hundredths of a second. Results are personal data: an operator may delete
-- one runner's row, and the retention run deletes an event's rows with its originals.
-- `result_maps` remembers, per event, which column of the file held which field.
CREATE TABLE results (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id   BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    bib        TEXT NOT NULL,
    name       TEXT NOT NULL,
    name_key   TEXT NOT NULL,
    gender     TEXT,
    category   TEXT,
    distance   TEXT,
    gun_time   BIGINT,
    chip_time  BIGINT,
    rank       BIGINT,
    UNIQUE (event_id, bib)
);
CREATE INDEX results_event_name ON results (event_id, name_key);

CREATE TABLE result_maps (
    event_id    BIGINT PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
    columns     TEXT NOT NULL,
    imported_at BIGINT NOT NULL,
    row_count   BIGINT NOT NULL
);
