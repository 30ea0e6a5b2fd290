-- One-time codes that open an order found through find-order, when the shop requires
-- them: at most one per order, kept as a keyed hash only, working once, for a short
-- while, and voided by a few wrong tries.
CREATE TABLE order_access_codes (
    order_id    BIGINT PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
    code_hash   TEXT NOT NULL,
    attempts    BIGINT NOT NULL DEFAULT 0,
    expires_at  BIGINT NOT NULL,
    created_at  BIGINT NOT NULL
);
