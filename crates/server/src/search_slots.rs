//! Bounds face search: at most `search.max_concurrent` selfies are analysed at once and at
//! most `search.max_waiting` more wait; anything past that is answered 503 `busy` with
//! `Retry-After` at once, so a rush of visitors costs bounded memory and time.

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::error::ApiError;

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
    pub async fn acquire(&self) -> Result<SearchSlot, ApiError> {
        let admitted = self
            .admitted
            .clone()
            .try_acquire_owned()
            .map_err(|_| ApiError::busy(1))?;
        let running = self
            .running
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| ApiError::busy(1))?;
        Ok(SearchSlot {
            _admitted: admitted,
            _running: running,
        })
    }
}
