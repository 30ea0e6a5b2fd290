//! The time source: the system's clock, or a fixed instant in tests, so that what is
//! derived from "now" (sale states, expiries) is exact.

use chrono::{DateTime, Utc};

/// The time source; tests fix it so that derived sale fields are exact.
#[derive(Debug, Clone, Copy, Default)]
pub enum Clock {
    #[default]
    System,
    Fixed(DateTime<Utc>),
}

impl Clock {
    pub fn now(self) -> DateTime<Utc> {
        match self {
            Clock::System => Utc::now(),
            Clock::Fixed(t) => t,
        }
    }
}
