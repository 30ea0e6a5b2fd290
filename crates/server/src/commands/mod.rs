//! Command-line tasks besides serving: importing events, ingesting photos, an operator's
//! hand in orders, and seeding the demo shop.

pub mod admin;
pub mod bibs;
pub mod demo;
pub mod import;
pub mod ingest;
pub mod orders;
