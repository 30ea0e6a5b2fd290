//! The `raceshot` server: configuration, the HTTP API, and the command-line tasks around
//! it. The only crate that depends on all the others.
//!
//! Its folders are its layers. The edges parse what comes in and answer: `api` (HTTP),
//! `ftp` (cameras), `commands` (the command line) and `jobs` (the background queue). `services` holds the
//! shop's rules, one module per capability. `infra` is plumbing the rules use (image
//! files, signatures, rate limits, messages, gateways, the connection listener). `app`
//! wires them together: the shared state, settings that change while running, startup.
//! `config` and `error` are shared by all.

pub mod api;
pub mod app;
pub mod commands;
pub mod config;
pub mod error;
pub mod ftp;
pub mod infra;
pub mod jobs;
pub mod services;
