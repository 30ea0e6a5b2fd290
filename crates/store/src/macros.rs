//! The macros that let one query text serve both SQL backends.

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

/// The rows of a query with an `IN (…)` list of ids, 500 ids a query. `|list| sql` builds
/// the statement around the list's placeholders, which follow the leading binds `[…]`.
macro_rules! rows_with_ids {
    ($store:expr, $ids:expr, [$($lead:expr),*], |$list:ident| $sql:expr) => {{
        let mut out = Vec::with_capacity($ids.len());
        for chunk in $ids.chunks(500) {
            let leading: usize = 0 $(+ { let _ = &$lead; 1 })*;
            let $list = $crate::placeholders(leading + 1, chunk.len());
            let sql: String = $sql;
            let mut rows: Vec<_> = $crate::macros::on_pool!($store, pool => {
                let mut q = sqlx::query_as(sqlx::AssertSqlSafe(sql.clone()));
                $(q = q.bind($lead);)*
                for id in chunk {
                    q = q.bind(*id);
                }
                q.fetch_all(pool).await
            })?;
            out.append(&mut rows);
        }
        out
    }};
}

pub(crate) use in_tx;
pub(crate) use on_pool;
pub(crate) use rows_with_ids;
