-- The face index of an event's faces of one pair written out as one object
-- (`_shop/face-index/{name}`), so a process's first search reads it in one piece instead
-- of every face row. It holds the faces with ids up to `up_to` (`faces` of them); a
-- snapshot whose count no longer matches the rows (a face deleted since) is not used and
-- is deleted by the next load or retention run. It goes with the event.
CREATE TABLE face_index_snapshots (
    event_id    BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    model_pair  TEXT NOT NULL,
    up_to       BIGINT NOT NULL,
    faces       BIGINT NOT NULL,
    object_name TEXT NOT NULL,
    bytes       BIGINT NOT NULL,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (event_id, model_pair)
);
