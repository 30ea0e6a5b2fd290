//! Plumbing the rules use, with no rules of the shop in it: the CPU pool, bounded slots
//! for heavy requests, rate limits, signatures, image files, streamed deliveries from
//! storage, the message channels (e-mail, SMS, LINE), payment gateways, the connection listener and logging.

pub mod channels;
pub mod cpu;
pub mod delivery;
pub mod gateways;
pub mod imaging;
pub mod listener;
pub mod open_files;
pub mod rate_limit;
pub mod search_slots;
pub mod signing;
pub mod telemetry;
