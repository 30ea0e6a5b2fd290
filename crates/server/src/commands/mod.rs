//! Command-line tasks besides serving: importing events, ingesting photos, moving an event
//! to another face model pair, an operator's
//! hand in orders, importing race results, seeding the demo shop, and the photographer's uploader (a client of a
//! shop over HTTP, the one command that needs no configuration).

pub mod admin;
pub mod bibs;
pub mod demo;
pub mod faces;
pub mod import;
pub mod ingest;
pub mod orders;
pub mod results;
pub mod upload;
