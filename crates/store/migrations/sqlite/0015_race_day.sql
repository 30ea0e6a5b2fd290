-- Race day: when each photo became searchable (set once, the first time it is ready), and
-- face searches counted per event and five minutes. The console's race-day view charts
-- both beside the photos received (`created_at`); the event page asks how many photos
-- became searchable since a runner searched. Search counts older than 30 days are
-- deleted by the retention run.
ALTER TABLE photos ADD COLUMN ready_at BIGINT;
UPDATE photos SET ready_at = updated_at WHERE state = 'ready';
CREATE INDEX photos_event_ready ON photos (event_id, ready_at);
CREATE INDEX photos_ready ON photos (ready_at);
CREATE INDEX photos_event_created ON photos (event_id, created_at);

CREATE TABLE search_counts (
    event_id  BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    bucket    BIGINT NOT NULL,
    searches  BIGINT NOT NULL,
    PRIMARY KEY (event_id, bucket)
);
