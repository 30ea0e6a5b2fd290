//! The process's open-file limit and the connection cap it allows. Every connection is a
//! descriptor, so `serve` raises the soft limit to the hard one, and caps connections so
//! that the database pool, the files requests send and the outgoing connections (object
//! storage, gateways, mail) always find descriptors left: when they ran out, accepting
//! failed and `/healthz` went unanswered.

/// Descriptors kept for everything but client connections: standard streams, listeners,
/// the runtime, logs, model and temporary files, outgoing connections (object storage,
/// gateways, mail) and the metrics address's few connections.
const RESERVED: u64 = 256;

/// SQLite holds the database, its WAL and its shared-memory file open for every pooled
/// connection (PostgreSQL one socket).
const PER_DATABASE_CONNECTION: u64 = 3;

/// The least cap, however low the limit: below it the shop could hardly serve one page.
const MIN_CONNECTIONS: usize = 32;

/// What an unlimited soft or hard limit counts as: far more connections than memory holds.
const UNLIMITED: u64 = 1 << 20;

/// Raises the soft open-file limit as far as the hard limit allows and answers the limit
/// in force; `None` when there is none (or, off Unix, none this can read).
#[cfg(unix)]
pub fn raise_limit() -> Option<u64> {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    let current = limit.current?;
    let Some(target) = raised(current, limit.maximum) else {
        return Some(current);
    };
    let wanted = Rlimit {
        current: Some(target),
        maximum: limit.maximum,
    };
    match setrlimit(Resource::Nofile, wanted) {
        Ok(()) => Some(target),
        Err(e) => {
            // Some systems refuse the hard limit itself (macOS caps it lower); the limit
            // in force still sizes the cap.
            tracing::warn!(current, target, error = %e, "cannot raise the open-file limit");
            Some(current)
        }
    }
}

#[cfg(not(unix))]
pub fn raise_limit() -> Option<u64> {
    None
}

/// The soft limit to ask for, when it is worth asking: the hard limit (bounded when
/// unlimited).
fn raised(current: u64, maximum: Option<u64>) -> Option<u64> {
    let target = maximum.unwrap_or(UNLIMITED);
    (target > current).then_some(target)
}

/// How many connections may be open at once with `open_files` descriptors (`None`:
/// unlimited) and a database pool of `database_pool`: `configured` where given, but never
/// more than the descriptors left after the reserve; by default half of those, since a
/// connection may hold a file it is sending (a preview, an original, a ZIP's part) besides
/// its socket.
pub fn connection_cap(
    open_files: Option<u64>,
    database_pool: u32,
    configured: Option<usize>,
) -> usize {
    let reserved = RESERVED + PER_DATABASE_CONNECTION * u64::from(database_pool);
    let spare = open_files.unwrap_or(UNLIMITED).saturating_sub(reserved);
    let ceiling = usize::try_from(spare)
        .unwrap_or(usize::MAX)
        .max(MIN_CONNECTIONS);
    match configured {
        Some(n) => n.min(ceiling),
        None => (ceiling / 2).max(MIN_CONNECTIONS),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_leaves_the_reserve_and_room_for_a_file_per_connection() {
        // The probe's machine: 1,024 descriptors, the default pool of 10.
        assert_eq!(connection_cap(Some(1024), 10, None), (1024 - 256 - 30) / 2);
        assert_eq!(connection_cap(Some(1024), 10, Some(100)), 100);
        // Never past what sockets alone would exhaust.
        assert_eq!(connection_cap(Some(1024), 10, Some(5000)), 1024 - 256 - 30);
        assert_eq!(connection_cap(Some(100), 10, None), MIN_CONNECTIONS);
        assert_eq!(connection_cap(None, 10, None), ((1 << 20) - 256 - 30) / 2);
    }

    #[test]
    fn the_soft_limit_is_raised_to_the_hard_one() {
        assert_eq!(raised(1024, Some(524_288)), Some(524_288));
        assert_eq!(raised(1024, None), Some(UNLIMITED));
        assert_eq!(raised(4096, Some(4096)), None);
        assert_eq!(raised(UNLIMITED * 2, None), None);
    }

    /// Linux lets any process raise its soft limit up to its hard one.
    #[cfg(target_os = "linux")]
    #[test]
    fn raising_the_limit_puts_the_hard_one_in_force() {
        use rustix::process::{Resource, getrlimit};
        let before = getrlimit(Resource::Nofile);
        let in_force = raise_limit();
        let after = getrlimit(Resource::Nofile);
        assert_eq!(
            in_force, after.current,
            "the limit answered is the one in force"
        );
        assert_eq!(
            after.maximum, before.maximum,
            "the hard limit is left alone"
        );
        match (before.current, before.maximum) {
            (Some(_), Some(hard)) => assert_eq!(after.current, Some(hard)),
            (Some(soft), None) => assert_eq!(after.current, Some(soft.max(UNLIMITED))),
            (None, _) => assert_eq!(after.current, None),
        }
    }
}
