//! Command-line tasks besides serving: importing events, ingesting photos and seeding the
//! demo shop.

pub mod demo;
pub mod import;
pub mod ingest;
