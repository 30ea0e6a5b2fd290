-- A finisher certificate sold in the cart: the bib whose certificate the order bought
-- (fixed when it is made) and its price in satang, included in the order's amounts.
ALTER TABLE orders ADD COLUMN certificate_bib TEXT;
ALTER TABLE orders ADD COLUMN certificate_price BIGINT NOT NULL DEFAULT 0;
