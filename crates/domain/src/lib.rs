//! Pure shop rules with no I/O: identifiers, money, the sale calendar, prices, order
//! states and contact details, and the validated shapes of events that every other crate
//! works with.

pub mod bib;
pub mod event;
pub mod event_key;
pub mod flag;
pub mod money;
pub mod order;
pub mod paging;
pub mod pass;
pub mod pricing;
pub mod results;
#[cfg(feature = "testing")]
pub mod testing;
pub mod time;

pub use bib::{Bib, BibError, BibRule};
pub use event::{Banner, EventInput, EventSpec, FieldError, Package, SaleState, SaleStatus};
pub use event_key::EventKey;
pub use flag::Flag;
pub use money::Money;
pub use order::{
    Email, EndReason, GatewayKind, Mobile, OrderUuid, PaymentChannel, PaymentStatus, ReceiptRef,
};
pub use paging::PageRequest;
