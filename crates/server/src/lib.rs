//! The `raceshot` server: configuration, the HTTP API, and the command-line tasks around
//! it. The only crate that depends on all the others.

pub mod api;
pub mod bibs;
pub mod catalogue;
pub mod commands;
pub mod commerce;
pub mod config;
pub mod cpu;
pub mod delivery;
pub mod error;
pub mod face_index;
pub mod gateways;
pub mod imaging;
pub mod jobs;
pub mod listener;
pub mod live;
pub mod notify;
pub mod open_files;
pub mod operators;
pub mod photos;
pub mod privacy;
pub mod rate_limit;
pub mod search;
pub mod search_slots;
pub mod selfies;
pub mod signing;
pub mod startup;
pub mod state;
pub mod tasks;
pub mod telemetry;
