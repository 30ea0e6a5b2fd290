-- A small picture of a privacy request's face (`face_crop`: its name under
-- `_shop/privacy/` in object storage; a JPEG of the face and a margin around it, at most
-- 256 px, without metadata), cut from the selfie when the request is filed, so that the
-- operator can compare the requester with the photos the request matches. It lives only
-- until the decision: approving or rejecting deletes the picture, then clears the column.
-- A request never decided loses it with its event's originals (`orders.retention_days`
-- after the event), in the hourly retention run, which also deletes any picture a
-- decision failed to delete. The column is set before the picture is written, so no
-- picture is ever stored that a request does not name.
ALTER TABLE privacy_requests ADD COLUMN face_crop TEXT;
