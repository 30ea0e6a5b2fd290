//! Command-line tasks besides serving: importing events and seeding the demo shop.

pub mod demo;
pub mod import;
