//! The shop's rules, one module per capability: the catalogue, commerce (carts, orders,
//! payments, access to bought files), searching by face and by bib, selfies' lifetime,
//! adding photos and the upload tokens photographers send them with, moving an event to
//! another face model pair, hiding one's photos, race results, finisher certificates (and
//! the logo both they and sold copies carry: `branding`), photo passes,
//! telling runners (messages, and alerts of new photos of them), and operators' accounts. They take parsed domain types and answer error enums of
//! their own (refusals, and faults with their causes), never an error code: the HTTP edge
//! maps them to codes; the edges (`api`, `commands`, `jobs`) call them.
//!
//! A service takes what it uses, never the whole `AppState`: the store, the catalogue, a
//! limiter, a setting, or a context struct naming exactly what a flow needs, which the
//! state builds for the edges (`commerce::Commerce`, `messages::Outbox`,
//! `alerts::Alerting`, `search::SearchContext`, `privacy::Privacy`, `photos::Intake`,
//! `reindex::Reindexing`, `certificates::Certificates`, `operators::SignInContext`). Jobs are enqueued through the
//! [`crate::jobs::queue::JobQueue`] handle; addresses are signed by [`links::Links`].

pub mod alerts;
pub mod bibs;
pub mod branding;
pub mod catalogue;
pub mod certificates;
pub mod commerce;
pub mod frames;
pub mod links;
pub mod messages;
pub mod operators;
pub mod passes;
pub mod photos;
pub mod privacy;
pub mod raceday;
pub mod reindex;
pub mod results;
pub mod search;
pub mod selfies;
pub mod uploads;
