-- When the server last asked the gateway about an unpaid order (throttles re-checks),
-- and the index the expiry sweep reads.
ALTER TABLE orders ADD COLUMN last_checked_at BIGINT;
CREATE INDEX orders_expiry ON orders (payment_status, expires_at);
