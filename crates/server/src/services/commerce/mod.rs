//! The shop's commerce between "add to cart" and "the runner has the files": finding the
//! event on sale, pricing a cart from the event's tiers (the one implementation, behind
//! both the quote and order creation), placing orders ([`orders`]), and the payment flows
//! in [`payment`]. Money is computed here from stored prices only; what the browser sends
//! is compared, never used. The HTTP handlers, the CLI and the jobs call in here.

pub mod access;
pub mod deal;
pub mod error;
pub mod operator;
pub mod orders;
pub mod pass;
pub mod payment;

use chrono::{DateTime, Utc};
use raceshot_domain::event::{SaleState, SaleStatus};
use raceshot_domain::pass::PassCover;
use raceshot_domain::pricing::{CartTotals, Deal, cart_totals};
use raceshot_domain::{EventKey, OrderUuid};
use raceshot_store::events::Event;
use raceshot_store::orders::{Order, OrderCertificate, OrderPhoto};
use raceshot_store::passes::StoredPass;
use raceshot_store::{ObjectKey, ObjectKind, Objects, Store, StoredName};

pub use self::error::{CommerceError, CommerceResult, PassShortfall};
use crate::app::live::LiveCell;
use crate::config::{OrdersConfig, PaymentsConfig};
use crate::infra::clock::Clock;
use crate::infra::rate_limit::RateLimiter;
use crate::jobs::queue::JobQueue;
use crate::services::catalogue::{Catalogue, Snapshot};
use crate::services::certificates::{self, CertificateError};
use crate::services::frames;
use crate::services::links::{Links, Variant};
use crate::services::messages::Outbox;
use crate::services::photos::derived_name;

/// What placing orders, paying them and opening found ones use: the orders' rows and QR
/// images, the catalogue they are priced from, the gateways and channels of the settings
/// in force, the server's addresses and signing key, the queue of their deliveries and
/// messages, the orders' and payments' settings, and each client's wrong photo-pass codes.
#[derive(Clone, Copy)]
pub struct Commerce<'a> {
    pub store: &'a Store,
    pub objects: &'a Objects,
    pub catalogue: &'a Catalogue,
    pub live: &'a LiveCell,
    pub links: &'a Links,
    /// Signs find-order lookups and the codes that open them.
    pub signing_key: &'a [u8],
    pub jobs: &'a JobQueue,
    pub orders: &'a OrdersConfig,
    pub payments: &'a PaymentsConfig,
    /// Photo-pass codes that matched no pass, per client.
    pub wrong_pass_codes: &'a RateLimiter,
    pub clock: Clock,
}

impl<'a> Commerce<'a> {
    /// The outbox the find-order codes go through.
    pub fn outbox(&self) -> Outbox<'a> {
        Outbox::new(self.store, self.live, self.links, self.clock)
    }
}

/// A visible event by key in a catalogue snapshot.
pub fn lookup<'a>(snapshot: &'a Snapshot, key: &EventKey) -> CommerceResult<&'a Event> {
    snapshot
        .by_key(key.as_str())
        .ok_or(CommerceError::EventNotFound)
}

/// An event key as a client sent it; a malformed one is an event that does not exist.
pub fn parse_event_key(raw: &str) -> CommerceResult<EventKey> {
    EventKey::parse(raw).map_err(|_| CommerceError::EventNotFound)
}

/// A visible event by key, from the catalogue.
pub async fn find_event(catalogue: &Catalogue, key: &EventKey) -> CommerceResult<Event> {
    let snapshot = catalogue.snapshot().await?;
    lookup(&snapshot, key).cloned()
}

/// A visible event that is on sale at `now`: what searches and orders need.
pub async fn find_event_on_sale(
    catalogue: &Catalogue,
    now: DateTime<Utc>,
    key: &EventKey,
) -> CommerceResult<Event> {
    let event = find_event(catalogue, key).await?;
    if !on_sale(&event, now) {
        return Err(CommerceError::EventNotOnSale);
    }
    Ok(event)
}

/// Whether the event's photos are on sale at `now`.
pub fn on_sale(event: &Event, now: DateTime<Utc>) -> bool {
    let s = &event.spec;
    SaleState::at(s.on_sale_start, s.on_sale_end, event.sale_closed, now).status
        == SaleStatus::OnSale
}

/// The most photos one cart may hold.
pub const MAX_CART_PHOTOS: usize = 2000;

/// The message the shop has always shown for a cart with photos of several events
/// (docs/shop-contract.md, Orders).
pub const MIXED_EVENTS_MESSAGE: &str = "Pls choose image from only once event";

/// The photos a visitor asks for and how they are priced, every field parsed.
#[derive(Debug, Clone, Default)]
pub struct AskedCart {
    /// In the visitor's order; repeats are ignored.
    pub photo_ids: Vec<i64>,
    /// The all-photos deal, for the photos the searches named by `found_refs` found.
    pub deal: bool,
    pub wholesale: bool,
    /// The `found_ref`s of the visitor's searches ([`deal`]).
    pub found_refs: Vec<String>,
    /// A photo pass's code as the visitor typed it: looked up, and a malformed one counted
    /// as a wrong code, by [`pass::find_pass`].
    pub pass_code: Option<String>,
    /// The bib whose finisher certificate the cart buys, as the visitor sent it.
    pub certificate_bib: Option<String>,
}

/// A cart priced by the server.
#[derive(Debug, Clone)]
pub struct PricedCart {
    /// The photo ids, each once, in the visitor's order.
    pub photo_ids: Vec<i64>,
    pub totals: CartTotals,
    /// The visitor takes the all-photos deal.
    pub deal: bool,
    /// Priced with the event's wholesale packages and wholesale deal.
    pub wholesale: bool,
    pub free: bool,
    /// The photo pass the visitor gave, and whether it pays for the cart.
    pub pass: Option<PassUse>,
    /// The finisher certificate the cart buys, at the event's price (in `totals`).
    pub certificate: Option<OrderCertificate>,
}

/// A photo pass given with a cart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PassUse {
    pub id: i64,
    pub cover: PassCover,
    /// It paid for an order already (which may be this same request's, sent again).
    pub redeemed: bool,
    /// `Ok`: the pass pays for the whole cart (its totals are zero); else why not (the
    /// totals are the cart's own).
    pub pays: Result<(), PassShortfall>,
}

/// Prices the photos of `cart` (repeats ignored) of `event`: every photo must be a shown
/// photo of that event; the deal and the wholesale tiers only where the event offers them,
/// and the deal only for photos the visitor's own searches found (the rest by the tiers).
/// A photo `pass` of the event pays for the whole cart when it covers it: up to its
/// number of photos, or (the all-photos pass) only photos the visitor's searches found;
/// never a wholesale cart, nor a free event's, nor a cart with a certificate. A cart may
/// buy one runner's finisher certificate of the event ([`certificates::sold_line`]), with
/// photos or alone, at the certificate's price (which no discount touches).
pub async fn price_cart(
    store: &Store,
    event: &Event,
    cart: &AskedCart,
    pass: Option<&StoredPass>,
) -> CommerceResult<PricedCart> {
    let mut seen = std::collections::HashSet::with_capacity(cart.photo_ids.len());
    let photo_ids: Vec<i64> = cart
        .photo_ids
        .iter()
        .copied()
        .filter(|id| seen.insert(*id))
        .collect();
    let certificate = match cart.certificate_bib.as_deref() {
        Some(_) if cart.wholesale => return Err(CommerceError::CertificateInWholesale),
        Some(bib) => Some(certificates::sold_line(store, event, bib).await.map_err(
            |e| match e {
                CertificateError::Store(e) => CommerceError::Store(e),
                refused => CommerceError::Certificate(refused),
            },
        )?),
        None => None,
    };
    if (photo_ids.is_empty() && certificate.is_none()) || photo_ids.len() > MAX_CART_PHOTOS {
        return Err(CommerceError::CartSize);
    }
    let found = if photo_ids.is_empty() {
        Vec::new()
    } else {
        store.shown_photo_events(&photo_ids).await?
    };
    if found.iter().any(|(_, event_id)| *event_id != event.id) {
        return Err(CommerceError::MixedEvents);
    }
    if found.len() != photo_ids.len() {
        return Err(CommerceError::PhotoNotOnSale);
    }

    let s = &event.spec;
    if cart.wholesale && !s.wholesale {
        return Err(CommerceError::WholesaleNotAvailable);
    }
    let (tiers, deal_on, cap) = if cart.wholesale {
        (
            &s.wholesale_packages,
            s.wholesale_deal,
            s.wholesale_deal_price,
        )
    } else {
        (&s.packages, s.deal, s.deal_price)
    };
    if cart.deal && !deal_on {
        return Err(CommerceError::DealNotAvailable);
    }
    let free = s.is_free_download || s.is_free_download_keep_contract;
    let all_photos_pass = pass.is_some_and(|p| p.cover == PassCover::AllPhotos);
    let searched = if (cart.deal && !free) || all_photos_pass {
        deal::covered(store, event.id, &cart.found_refs).await?
    } else {
        Default::default()
    };
    let deal = if cart.deal && !free {
        let covered = photo_ids.iter().filter(|id| searched.contains(id)).count();
        if covered == 0 {
            return Err(CommerceError::DealNeedsSearch);
        }
        Some(Deal {
            covered: u32::try_from(covered).unwrap_or(u32::MAX),
            cap,
        })
    } else {
        None
    };
    let count = u32::try_from(photo_ids.len()).unwrap_or(u32::MAX);
    let totals = cart_totals(count, tiers, deal, free).ok_or_else(|| {
        CommerceError::Internal(anyhow::anyhow!("event {} has no 1-photo tier", s.key))
    })?;
    let pass = pass.map(|p| PassUse {
        id: p.id,
        cover: p.cover,
        redeemed: p.redeemed,
        pays: if free {
            Err(PassShortfall::FreeEvent)
        } else if cart.wholesale {
            Err(PassShortfall::Wholesale)
        } else if certificate.is_some() {
            Err(PassShortfall::Certificate)
        } else {
            match p.cover {
                PassCover::Photos(covers) if count > covers => {
                    Err(PassShortfall::TooManyPhotos { covers })
                }
                PassCover::AllPhotos if !photo_ids.iter().all(|id| searched.contains(id)) => {
                    Err(PassShortfall::NotFoundBySearch)
                }
                _ => Ok(()),
            }
        },
    });
    let totals = match (pass, &certificate) {
        (Some(PassUse { pays: Ok(()), .. }), _) => totals.paid_by_pass(),
        (_, Some(line)) => totals.with_line(line.price),
        _ => totals,
    };
    Ok(PricedCart {
        photo_ids,
        totals,
        deal: cart.deal,
        wholesale: cart.wholesale,
        free,
        pass,
        certificate,
    })
}

/// Prices a cart as [`price_cart`] does, with the photo pass the visitor gave, if any,
/// looked up for `client` ([`pass::find_pass`]).
pub async fn price_with_pass(
    cx: &Commerce<'_>,
    event: &Event,
    cart: &AskedCart,
    client: std::net::IpAddr,
) -> CommerceResult<PricedCart> {
    let code = cart
        .pass_code
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty());
    let pass = match code {
        Some(raw) => Some(pass::find_pass(cx, event, raw, client).await?),
        None => None,
    };
    price_cart(cx.store, event, cart, pass.as_ref()).await
}

/// The stored file of a sold photo (by its stored name): its original, or its copy with
/// the logo (a JPEG named like its preview). A framed copy is named by its frame too
/// ([`order_photo_key`]).
pub fn sold_photo_key(
    event: &EventKey,
    storage_name: &str,
    variant: Variant,
) -> anyhow::Result<ObjectKey> {
    let (kind, stored) = match variant {
        Variant::Original => (ObjectKind::Original, storage_name.to_owned()),
        Variant::Logo => (ObjectKind::WithLogo, derived_name(storage_name)),
        Variant::Frame => anyhow::bail!("a framed copy is named by its frame"),
    };
    let name = StoredName::parse(&stored).ok_or_else(|| anyhow::anyhow!("stored name {stored}"))?;
    Ok(ObjectKey::new(event, kind, &name))
}

/// The stored file of one of an order's photos: the framed copy of the order's frame, or
/// as [`sold_photo_key`].
pub fn order_photo_key(
    order: &Order,
    storage_name: &str,
    variant: Variant,
) -> anyhow::Result<ObjectKey> {
    match (variant, &order.frame) {
        (Variant::Frame, Some(frame)) => {
            frames::framed_object(&order.event_key, storage_name, &frame.name)
        }
        (Variant::Frame, None) => anyhow::bail!("order {} carries no frame", order.uuid),
        _ => sold_photo_key(&order.event_key, storage_name, variant),
    }
}

/// The files an order gives of each of its photos (docs/shop-contract.md, Sponsor
/// frames): the original and the logo copy, with the framed copy beside them when the
/// order carries a frame, or that copy alone for a free download.
pub fn order_variants(order: &Order) -> &'static [Variant] {
    match &order.frame {
        None => &[Variant::Original, Variant::Logo],
        Some(frame) if frame.only => &[Variant::Frame],
        Some(_) => &[Variant::Original, Variant::Logo, Variant::Frame],
    }
}

/// Whether the order's files of `variant` are made: originals are there once it is paid,
/// copies once the delivery job has made them.
pub fn variant_ready(order: &Order, variant: Variant) -> bool {
    order.is_deliverable()
        && match variant {
            Variant::Original => true,
            Variant::Logo => order.is_logo_image_created,
            Variant::Frame => order.is_frame_image_created,
        }
}

/// The name a sold photo is saved as (docs/shop-contract.md, Delivery and retention):
/// `photographerId_originalName`, with `logo_` (or `frame_`) first and a `.jpg` ending
/// for the copies.
pub fn download_name(photo: &OrderPhoto, variant: Variant) -> String {
    let base = format!("{}_{}", photo.photographer_id, photo.original_file_name);
    let prefix = match variant {
        Variant::Original => return base,
        Variant::Logo => "logo_",
        Variant::Frame => "frame_",
    };
    let lower = base.to_ascii_lowercase();
    if lower.ends_with(".jpg") || lower.ends_with(".jpeg") {
        format!("{prefix}{base}")
    } else {
        format!("{prefix}{}", derived_name(&base))
    }
}

/// An order id as a client sent it; a malformed one is an order that does not exist.
pub fn parse_order_uuid(raw: &str) -> CommerceResult<OrderUuid> {
    OrderUuid::parse(raw).map_err(|_| CommerceError::OrderNotFound)
}

/// An order by its id.
pub async fn find_order(store: &Store, uuid: OrderUuid) -> CommerceResult<Order> {
    store
        .order_by_uuid(uuid)
        .await?
        .ok_or(CommerceError::OrderNotFound)
}
