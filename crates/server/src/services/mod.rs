//! The shop's rules, one module per capability: the catalogue, commerce (carts, orders,
//! payments, access to bought files), searching by face and by bib, selfies' lifetime,
//! adding photos and the upload tokens photographers send them with, moving an event to
//! another face model pair, hiding one's photos,
//! telling runners (messages, and alerts of new photos of them), and operators' accounts. They take parsed domain types and answer `ShopError`s (a code
//! and a cause, no HTTP status) or, where callers tell refusals apart, their own error
//! enums; the edges (`api`, `commands`, `jobs`) call them.

pub mod alerts;
pub mod bibs;
pub mod catalogue;
pub mod commerce;
pub mod messages;
pub mod operators;
pub mod photos;
pub mod privacy;
pub mod raceday;
pub mod reindex;
pub mod search;
pub mod selfies;
pub mod uploads;
