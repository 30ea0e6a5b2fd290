//! Bounds heavy requests: at most `max_concurrent` run at once and at most `max_waiting`
//! more wait; anything past that is answered 503 `busy` with `Retry-After` at once, so a
//! rush costs bounded memory and time. Face searches (`search.max_concurrent`,
//! `search.max_waiting`) and the console's photo uploads each have their own.

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Every slot and every place in line is taken: the caller answers `busy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("too many requests of this kind at once")]
pub struct Busy;

pub struct SearchSlots {
    admitted: Arc<Semaphore>,
    running: Arc<Semaphore>,
}

/// Held for the whole search; dropping it frees the slot.
pub struct SearchSlot {
    _admitted: OwnedSemaphorePermit,
    _running: OwnedSemaphorePermit,
}

impl SearchSlots {
    pub fn new(max_concurrent: usize, max_waiting: usize) -> Self {
        Self {
            admitted: Arc::new(Semaphore::new(max_concurrent + max_waiting)),
            running: Arc::new(Semaphore::new(max_concurrent)),
        }
    }

    /// A running slot, after waiting in line if there is room in the line.
    pub async fn acquire(&self) -> Result<SearchSlot, Busy> {
        let admitted = self
            .admitted
            .clone()
            .try_acquire_owned()
            .map_err(|_| Busy)?;
        let running = self
            .running
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| Busy)?;
        Ok(SearchSlot {
            _admitted: admitted,
            _running: running,
        })
    }
}
