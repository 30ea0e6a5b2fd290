//! The bounded pool for CPU-heavy work inside requests (password hashing, hashing an
//! uploaded photo): it runs on tokio's blocking threads, at most one task per core at
//! once, so no request holds a runtime thread (and with it `/healthz` and every other
//! request on that thread) and a burst of such requests queues instead of growing the
//! blocking pool without bound.

use std::sync::Arc;

use anyhow::Context;
use tokio::sync::Semaphore;

#[derive(Clone)]
pub struct CpuPool {
    permits: Arc<Semaphore>,
}

impl CpuPool {
    /// A pool running at most `tasks` (at least 1) at once.
    pub fn new(tasks: usize) -> Self {
        Self {
            permits: Arc::new(Semaphore::new(tasks.max(1))),
        }
    }

    /// One per core of this machine.
    pub fn per_core() -> Self {
        Self::new(std::thread::available_parallelism().map_or(2, usize::from))
    }

    /// Runs `work` off the async runtime once a slot is free.
    pub async fn run<T, F>(&self, work: F) -> anyhow::Result<T>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let permit = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .context("the CPU pool is closed")?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work()
        })
        .await
        .context("CPU task panicked")
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    #[tokio::test]
    async fn runs_at_most_its_size_at_once() {
        let pool = CpuPool::new(2);
        let running = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        let tasks: Vec<_> = (0..8)
            .map(|_| {
                let (pool, running, peak) = (pool.clone(), running.clone(), peak.clone());
                tokio::spawn(async move {
                    pool.run(move || {
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        peak.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(20));
                        running.fetch_sub(1, Ordering::SeqCst);
                    })
                    .await
                })
            })
            .collect();
        for t in tasks {
            assert!(matches!(t.await, Ok(Ok(()))));
        }
        assert_eq!(peak.load(Ordering::SeqCst), 2);
    }
}
