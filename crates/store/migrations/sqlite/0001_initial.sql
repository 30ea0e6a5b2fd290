-- The shop's whole state. Money is integer satang; instants are unix milliseconds (UTC);
-- calendar dates are 'YYYY-MM-DD' text in Asia/Bangkok.

CREATE TABLE events (
    id                              INTEGER PRIMARY KEY AUTOINCREMENT,
    event_key                       TEXT NOT NULL UNIQUE,
    title                           TEXT NOT NULL,
    cover_url                       TEXT NOT NULL DEFAULT '',
    event_date_text                 TEXT NOT NULL DEFAULT '',
    event_date                      TEXT NOT NULL,
    province                        TEXT NOT NULL DEFAULT '',
    on_sale_start                   BIGINT NOT NULL,
    on_sale_end                     BIGINT NOT NULL,
    is_hybrid                       BOOLEAN NOT NULL DEFAULT FALSE,
    is_mhao                         BOOLEAN NOT NULL DEFAULT FALSE,
    mhao_price                      BIGINT,
    is_mhao_hybrid                  BOOLEAN NOT NULL DEFAULT FALSE,
    hybrid_mhao_price               BIGINT,
    is_event_stage                  BOOLEAN NOT NULL DEFAULT FALSE,
    is_free_download                BOOLEAN NOT NULL DEFAULT FALSE,
    is_free_download_keep_contract  BOOLEAN NOT NULL DEFAULT FALSE,
    caption_button_buy_all          TEXT NOT NULL DEFAULT '',
    face_threshold                  REAL NOT NULL,
    max_face_search                 BIGINT NOT NULL,
    pin                             BOOLEAN NOT NULL DEFAULT FALSE,
    sale_closed                     BOOLEAN NOT NULL DEFAULT FALSE,
    visible                         BOOLEAN NOT NULL DEFAULT TRUE,
    logo_key                        TEXT,
    created_at                      BIGINT NOT NULL,
    updated_at                      BIGINT NOT NULL
);
CREATE INDEX events_listing ON events (visible, on_sale_start, on_sale_end);

-- Price tiers; kind 'standard' is the spec's `package`, 'hybrid' its `package_hb`.
CREATE TABLE event_packages (
    event_id         BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    kind             TEXT NOT NULL CHECK (kind IN ('standard', 'hybrid')),
    position         BIGINT NOT NULL,
    name             TEXT NOT NULL,
    name_en          TEXT NOT NULL,
    number_of_photo  BIGINT NOT NULL,
    price            BIGINT NOT NULL,
    PRIMARY KEY (event_id, kind, position)
);

-- Home carousel slides; event_id NULL for shop-wide slides.
CREATE TABLE banners (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id   BIGINT REFERENCES events (id) ON DELETE CASCADE,
    position   BIGINT NOT NULL,
    image_url  TEXT NOT NULL,
    link_url   TEXT NOT NULL DEFAULT ''
);
CREATE INDEX banners_event ON banners (event_id, position);

CREATE TABLE photos (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id            BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    content_hash        TEXT NOT NULL,
    original_file_name  TEXT NOT NULL,
    storage_name        TEXT NOT NULL,
    photographer_id     BIGINT NOT NULL DEFAULT 0,
    state               TEXT NOT NULL CHECK (state IN ('queued', 'processing', 'ready', 'failed')),
    failure_reason      TEXT,
    width               BIGINT,
    height              BIGINT,
    face_count          BIGINT NOT NULL DEFAULT 0,
    hidden              BOOLEAN NOT NULL DEFAULT FALSE,
    highlight           BOOLEAN NOT NULL DEFAULT FALSE,
    original_purged     BOOLEAN NOT NULL DEFAULT FALSE,
    created_at          BIGINT NOT NULL,
    updated_at          BIGINT NOT NULL,
    UNIQUE (event_id, content_hash)
);
CREATE INDEX photos_event_state ON photos (event_id, state);

-- One detected face; embedding is little-endian f32, box and landmarks in original pixels.
CREATE TABLE faces (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    photo_id    BIGINT NOT NULL REFERENCES photos (id) ON DELETE CASCADE,
    event_id    BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    embedding   BLOB NOT NULL,
    box_x1      REAL NOT NULL,
    box_y1      REAL NOT NULL,
    box_x2      REAL NOT NULL,
    box_y2      REAL NOT NULL,
    landmarks   BLOB NOT NULL,
    score       REAL NOT NULL
);
CREATE INDEX faces_event ON faces (event_id, id);
CREATE INDEX faces_photo ON faces (photo_id);

CREATE TABLE orders (
    id                         INTEGER PRIMARY KEY AUTOINCREMENT,
    uuid                       TEXT NOT NULL UNIQUE,
    event_id                   BIGINT NOT NULL REFERENCES events (id),
    mobile                     TEXT NOT NULL,
    email                      TEXT,
    is_mhao                    BOOLEAN NOT NULL DEFAULT FALSE,
    wholesale                  BOOLEAN NOT NULL DEFAULT FALSE,
    image_count                BIGINT NOT NULL,
    full_amount                BIGINT NOT NULL,
    discount                   BIGINT NOT NULL,
    amount                     BIGINT NOT NULL,
    payment_fee                BIGINT NOT NULL,
    paid_amount                BIGINT NOT NULL,
    payment_gateway            TEXT NOT NULL,
    payment_channel            TEXT NOT NULL CHECK (payment_channel IN ('PP', 'CC', 'AM', 'FREE')),
    payment_status             TEXT NOT NULL CHECK (payment_status IN ('INITIAL', 'PAID', 'EXPIRED', 'CANCELLED')),
    gateway_ref                TEXT,
    qrcode_url                 TEXT,
    api_response               TEXT,
    am_order_ref               TEXT,
    receipt_ref                TEXT,
    request_fingerprint        TEXT,
    is_original_image_created  BOOLEAN NOT NULL DEFAULT FALSE,
    is_logo_image_created      BOOLEAN NOT NULL DEFAULT FALSE,
    is_send_sms                BOOLEAN NOT NULL DEFAULT FALSE,
    is_send_email              BOOLEAN NOT NULL DEFAULT FALSE,
    created_at                 BIGINT NOT NULL,
    updated_at                 BIGINT NOT NULL,
    paid_at                    BIGINT,
    expires_at                 BIGINT
);
CREATE INDEX orders_mobile ON orders (mobile);
CREATE INDEX orders_receipt ON orders (receipt_ref);
CREATE INDEX orders_fingerprint ON orders (request_fingerprint, created_at);

CREATE TABLE order_images (
    order_id  BIGINT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    photo_id  BIGINT NOT NULL REFERENCES photos (id),
    position  BIGINT NOT NULL,
    PRIMARY KEY (order_id, photo_id)
);

-- The payment trail: every request to and message from a gateway, in order.
CREATE TABLE payments (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id      BIGINT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    gateway       TEXT NOT NULL,
    kind          TEXT NOT NULL,
    external_ref  TEXT,
    amount        BIGINT,
    status        TEXT NOT NULL,
    payload       TEXT NOT NULL DEFAULT '',
    created_at    BIGINT NOT NULL
);
CREATE INDEX payments_order ON payments (order_id, id);
CREATE UNIQUE INDEX payments_dedupe ON payments (gateway, kind, external_ref);

CREATE TABLE settings (
    name        TEXT PRIMARY KEY,
    value       TEXT NOT NULL,
    secret      BOOLEAN NOT NULL DEFAULT FALSE,
    updated_at  BIGINT NOT NULL
);

-- Durable jobs. A job is claimed by setting locked_until; a worker that dies lets the lock
-- lapse and the job runs again, so every job kind is idempotent.
CREATE TABLE jobs (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    queue         TEXT NOT NULL,
    kind          TEXT NOT NULL,
    payload       TEXT NOT NULL,
    dedupe_key    TEXT UNIQUE,
    state         TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
    attempts      BIGINT NOT NULL DEFAULT 0,
    max_attempts  BIGINT NOT NULL,
    run_at        BIGINT NOT NULL,
    locked_until  BIGINT,
    locked_by     TEXT,
    last_error    TEXT,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL
);
CREATE INDEX jobs_ready ON jobs (queue, state, run_at);

CREATE TABLE audit_log (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    at      BIGINT NOT NULL,
    actor   TEXT NOT NULL,
    action  TEXT NOT NULL,
    target  TEXT NOT NULL DEFAULT '',
    detail  TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_at ON audit_log (at);

-- Cart analytics sent by the shop (POST /v1/logs/).
CREATE TABLE cart_logs (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    at          BIGINT NOT NULL,
    service     TEXT NOT NULL,
    event_key   TEXT NOT NULL,
    cart_count  BIGINT NOT NULL,
    image_id    TEXT NOT NULL DEFAULT '',
    list        TEXT NOT NULL DEFAULT ''
);
