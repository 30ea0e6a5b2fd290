//! Why commerce refuses, or fails: one enum for finding events and orders, pricing carts,
//! placing orders, paying and opening them. Each refusal's text is the English message a
//! visitor's answer shows; faults keep their cause as `source()`. The HTTP edge alone
//! turns these into codes and statuses (`api/error.rs`); the command line prints them
//! with their causes.

use raceshot_payments::PaymentError;
use raceshot_store::StoreError;

use super::deal::MAX_FOUND_REFS;
use super::orders::OrderRefused;
use super::{MAX_CART_PHOTOS, MIXED_EVENTS_MESSAGE};
use crate::infra::gateways::GatewayMissing;
use crate::services::certificates::CertificateError;

#[derive(Debug, thiserror::Error)]
pub enum CommerceError {
    // Finding what is asked for.
    #[error("no such event")]
    EventNotFound,
    #[error("the event is not on sale")]
    EventNotOnSale,
    #[error("no such order")]
    OrderNotFound,

    // Pricing a cart.
    #[error("must hold 1 to {MAX_CART_PHOTOS} photos")]
    CartSize,
    #[error("{MIXED_EVENTS_MESSAGE}")]
    MixedEvents,
    #[error("a photo is unknown or not on sale")]
    PhotoNotOnSale,
    #[error("the event has no wholesale deal")]
    WholesaleNotAvailable,
    #[error("the event has no all-photos deal")]
    DealNotAvailable,
    #[error("the all-photos deal covers photos your searches found: search again")]
    DealNeedsSearch,
    #[error("names at most {MAX_FOUND_REFS} searches")]
    TooManyFoundRefs,
    /// The `index`th search reference is not one a search hands out.
    #[error("must be a found_ref from a search answer")]
    MalformedFoundRef { index: usize },
    #[error("a finisher certificate is bought in the standard cart, not the wholesale one")]
    CertificateInWholesale,
    /// The certificate asked for is not sold (not offered, free, or no such result).
    #[error(transparent)]
    Certificate(CertificateError),

    // A photo pass.
    #[error("no pass of this event has this code")]
    PassNotFound,
    #[error("too many wrong pass codes from this address")]
    TooManyPassCodes { retry_after: u64 },
    #[error("this pass has paid for another order")]
    PassUsed,
    #[error("{0}")]
    PassDoesNotCover(PassShortfall),

    // Placing an order.
    #[error(transparent)]
    Refused(#[from] OrderRefused),

    // Opening an order with a code.
    #[error("the shop cannot reach this order's buyer; open it from its link")]
    NoContact,
    #[error("a code was sent a moment ago")]
    CodeSentRecently { retry_after: u64 },
    #[error("the shop sent all the messages it may send today")]
    MessageCap,
    #[error("the code could not be delivered")]
    CodeNotDelivered,
    #[error("the channel failed while sending an order code")]
    CodeSendFailed(#[source] anyhow::Error),
    #[error("the code is 6 digits")]
    MalformedCode,
    #[error("the code is not the one sent")]
    WrongCode,
    #[error("no code is waiting: ask for a new one")]
    NoCodeWaiting,

    // Paying.
    #[error("{0}")]
    NotPayable(&'static str),
    #[error("the {0} gateway takes no cards")]
    NoCards(raceshot_domain::GatewayKind),
    #[error("the card was declined: {code}: {message}")]
    Declined { code: String, message: String },
    #[error("needs at least 4 letters or digits")]
    MalformedSlipRef,
    #[error(transparent)]
    GatewayMissing(#[from] GatewayMissing),
    #[error("the payment gateway failed")]
    Gateway(#[from] PaymentError),

    // Faults.
    #[error("the store failed")]
    Store(#[from] StoreError),
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

pub type CommerceResult<T> = Result<T, CommerceError>;

/// Why a photo pass does not pay for a cart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PassShortfall {
    #[error("this pass covers {covers} photos; the cart holds more")]
    TooManyPhotos { covers: u32 },
    #[error("this pass covers the photos your searches found; the cart holds others")]
    NotFoundBySearch,
    #[error("a pass pays for the standard cart, not the wholesale one")]
    Wholesale,
    #[error("this event's photos are free")]
    FreeEvent,
    #[error("a pass pays for photos; the cart holds a finisher certificate")]
    Certificate,
}
