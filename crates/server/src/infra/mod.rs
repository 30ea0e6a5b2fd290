//! Plumbing the rules use, with no rules of the shop in it: the CPU pool, bounded slots
//! for heavy requests, rate limits, signatures, image files, the message channels
//! (e-mail, SMS, LINE), payment gateways, the connection listener and logging. Its
//! refusals are its own types (`rate_limit::Limited`, `gateways::GatewayMissing`), which
//! the HTTP edge maps to codes.

pub mod channels;
pub mod clock;
pub mod cpu;
pub mod framing;
pub mod gateways;
pub mod imaging;
pub mod listener;
pub mod open_files;
pub mod rate_limit;
pub mod search_slots;
pub mod signing;
pub mod svg;
pub mod telemetry;
