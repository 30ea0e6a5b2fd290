-- Failed sign-ins with e-mail addresses that have no account, counted and locked exactly
-- like an account's own (operators.failed_logins, locked_until), so that the answers do
-- not tell which addresses are accounts. Forgotten a day after the last failure.
CREATE TABLE login_failures (
    email         TEXT PRIMARY KEY,
    failures      BIGINT NOT NULL,
    locked_until  BIGINT,
    updated_at    BIGINT NOT NULL
);
CREATE INDEX login_failures_age ON login_failures (updated_at);
