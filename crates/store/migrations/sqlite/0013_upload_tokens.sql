-- Upload tokens: what a camera (FTP), the photographer's uploader and other resumable
-- upload clients sign in with, beside the account's e-mail address. Only the SHA-256 of
-- the secret is kept; the secret itself is shown once, when the token is made. `hint`
-- (its last characters) tells an account's tokens apart in the console.
CREATE TABLE upload_tokens (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    operator_id   BIGINT NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
    token_hash    TEXT NOT NULL UNIQUE,
    label         TEXT NOT NULL,
    hint          TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    last_used_at  BIGINT,
    revoked_at    BIGINT
);
CREATE INDEX upload_tokens_operator ON upload_tokens (operator_id);
