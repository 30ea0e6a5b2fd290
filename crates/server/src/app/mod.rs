//! The wiring: the state every handler and job shares, the settings operators change
//! while the shop runs, and building and running the application.

pub mod faces;
pub mod live;
pub mod startup;
pub mod state;
