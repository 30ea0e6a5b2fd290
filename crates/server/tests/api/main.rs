//! The API test binary: the real application on port 0, real storage (SQLite and
//! PostgreSQL), driven over HTTP.

// Tests fail by panicking.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

/// Counts allocations per thread, so that tests can bound what a call holds.
#[global_allocator]
static ALLOCATOR: raceshot_domain::testing::CountingAllocator =
    raceshot_domain::testing::CountingAllocator;

mod helpers;
mod smtp_sink;

mod abuse;
mod admin;
mod alerts;
mod bibs;
mod cart;
mod catalogue;
mod certificates;
mod cli;
mod conformance;
mod connections;
mod contract;
mod crash;
mod crowd_thresholds;
mod distant;
mod face_snapshots;
mod facesearch;
mod frames;
mod ftp;
mod gateways;
mod hardening;
mod hostile_json;
mod leaks;
mod line;
mod lookalike;
mod model_pairs;
mod notify;
mod ops;
mod orders;
mod passes;
mod people;
mod raceday;
mod results;
mod scale;
mod selfies;
mod sequence;
mod sms;
mod uploads;
mod web;
