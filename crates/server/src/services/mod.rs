//! The shop's rules, one module per capability: the catalogue, commerce (carts, orders,
//! payments, access to bought files), searching by face and by bib, selfies' lifetime,
//! adding photos, hiding one's photos, and operators' accounts. They take parsed domain
//! types and answer `ShopError`s, which name an error code and keep their cause but know no
//! HTTP status; the edges (`api`, `commands`, `jobs`) call them.

pub mod bibs;
pub mod catalogue;
pub mod commerce;
pub mod operators;
pub mod photos;
pub mod privacy;
pub mod search;
pub mod selfies;
