//! The API test binary: the real application on port 0, real storage (SQLite and
//! PostgreSQL), driven over HTTP.

// Tests fail by panicking.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

mod helpers;
mod smtp_sink;

mod admin;
mod cart;
mod catalogue;
mod cli;
mod contract;
mod crash;
mod facesearch;
mod gateways;
mod hostile_json;
mod notify;
mod ops;
mod orders;
mod scale;
mod web;
