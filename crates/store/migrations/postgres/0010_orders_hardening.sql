-- What a face, bib or group search answered a client: the photos the all-photos deal may
-- cover when that client buys. `id` is the SHA-256 (hex) of the reference handed out with
-- the search answer; the reference itself is never stored. No selfie, face or template:
-- photo ids only. A row is used until `expires_at` (`search.found_ttl_mins`) and deleted
-- by the selfie sweep afterwards.
CREATE TABLE search_finds (
    id          TEXT PRIMARY KEY,
    event_id    BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    photo_ids   TEXT NOT NULL,
    expires_at  BIGINT NOT NULL,
    created_at  BIGINT NOT NULL
);
CREATE INDEX search_finds_expiry ON search_finds (expires_at);

-- Why an order ended unpaid when the shop ended it (`photo_withdrawn`: a photo in it was
-- hidden at the request of the person in it before it was paid), and money that reached
-- an order the shop had ended, in satang: an operator refunds it.
ALTER TABLE orders ADD COLUMN end_reason TEXT;
ALTER TABLE orders ADD COLUMN refund_due BIGINT;

-- Which orders hold a photo: a hold cancels the unpaid ones at once.
CREATE INDEX order_images_photo ON order_images (photo_id);

-- The event a selfie upload address was signed for: its search must name that event.
ALTER TABLE selfie_uploads ADD COLUMN event_id BIGINT;
