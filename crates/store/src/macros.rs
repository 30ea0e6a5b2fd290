//! The two macros that let one query text serve both SQL backends.

/// Runs `$body` with `$pool` bound to the store's pool, compiled once per backend.
macro_rules! on_pool {
    ($store:expr, $pool:ident => $body:expr) => {
        match &$store.pool {
            $crate::Pool::Sqlite($pool) => $body,
            $crate::Pool::Postgres($pool) => $body,
        }
    };
}

/// Runs `$body` inside a transaction bound to `$tx` and commits it; an early `?` return
/// drops the transaction, which rolls it back. SQLite transactions take the write lock up
/// front (`BEGIN IMMEDIATE`) so that two writers wait for each other instead of failing
/// halfway.
macro_rules! in_tx {
    ($store:expr, $tx:ident => $body:expr) => {
        match &$store.pool {
            $crate::Pool::Sqlite(pool) => {
                let mut $tx = pool.begin_with("BEGIN IMMEDIATE").await?;
                let out = $body;
                $tx.commit().await?;
                out
            }
            $crate::Pool::Postgres(pool) => {
                let mut $tx = pool.begin().await?;
                let out = $body;
                $tx.commit().await?;
                out
            }
        }
    };
}

pub(crate) use in_tx;
pub(crate) use on_pool;
