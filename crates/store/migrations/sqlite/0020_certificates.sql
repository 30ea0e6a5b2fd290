-- Finisher certificates, per event: whether runners with a result are offered one, its
-- price in satang (0: free), and the operator's templates, SVG documents with `{{field}}`
-- placeholders: `image_svg` for the 1080 × 1350 picture, `print_svg` for the A4 page
-- (NULL: the shop's own). The rendered files are cached in object storage under
-- `{event_key}/certificate/`, named by a hash of everything drawn.
CREATE TABLE certificates (
    event_id     BIGINT PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
    offered      BOOLEAN NOT NULL,
    price_satang BIGINT NOT NULL,
    image_svg    TEXT,
    print_svg    TEXT,
    updated_at   BIGINT NOT NULL
);
