-- Public picture addresses name a photo by its stored name: finding the photo behind one
-- (is it still shown?) must not scan the table.
CREATE INDEX photos_storage_name ON photos (storage_name);
