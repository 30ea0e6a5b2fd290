-- Which face model pair (`faces.model_pair`: 'insightface' or 'yunet-sface') made each
-- stored face template, so that no index or comparison mixes two recognisers. Until now
-- the pair was told by the template's length alone (512 floats: InsightFace, 128: SFace).
--
-- `events.model_pair` is the pair the event's search, privacy requests and alerts use
-- (NULL until its first photo is analysed: then the configured pair); `reindex_to` the pair
-- it is being moved to by `raceshot faces reindex` (its faces of both pairs are kept until
-- every photo has the new pair's and the event has switched; the old ones are deleted
-- moments later). `photos.faces_pair` is the newest pair that analysed the photo.
ALTER TABLE faces ADD COLUMN model_pair TEXT NOT NULL DEFAULT 'insightface';
UPDATE faces SET model_pair = 'yunet-sface' WHERE length(embedding) = 512;
DROP INDEX faces_event;
CREATE INDEX faces_event ON faces (event_id, model_pair, id);

ALTER TABLE privacy_requests ADD COLUMN model_pair TEXT;
UPDATE privacy_requests
SET model_pair = CASE WHEN length(embedding) = 512 THEN 'yunet-sface' ELSE 'insightface' END
WHERE embedding IS NOT NULL;

ALTER TABLE alerts ADD COLUMN model_pair TEXT NOT NULL DEFAULT 'insightface';
UPDATE alerts SET model_pair = 'yunet-sface' WHERE length(embedding) = 512;

ALTER TABLE events ADD COLUMN model_pair TEXT;
ALTER TABLE events ADD COLUMN reindex_to TEXT;
UPDATE events SET model_pair = (
    SELECT f.model_pair FROM faces f WHERE f.event_id = events.id ORDER BY f.id DESC LIMIT 1
);

ALTER TABLE photos ADD COLUMN faces_pair TEXT;
UPDATE photos SET faces_pair = (SELECT e.model_pair FROM events e WHERE e.id = photos.event_id)
WHERE state = 'ready';
