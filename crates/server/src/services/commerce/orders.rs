//! Placing an order: from a cart the visitor sends (parsed at the edge) to a stored order
//! with its payment begun. The server prices the cart itself (with the photo pass given,
//! which pays for the whole cart or the order is refused); the amounts the visitor was
//! shown are only compared, and the payment channel must be one the event, the amount and
//! the gateway allow. The same request from the same client within the repeat window gets
//! the first order back.

use std::net::IpAddr;

use raceshot_domain::pass::PassCode;
use raceshot_domain::{
    Email, EventKey, GatewayKind, Mobile, Money, OrderUuid, PaymentChannel, PaymentStatus,
};
use raceshot_store::frames::EventFrame;
use raceshot_store::orders::{Created, NewOrder, Order, OrderFrame};
use sha2::{Digest, Sha256};

use super::Commerce;
use super::CommerceResult;
use super::{AskedCart, CommerceError, PassUse, find_event_on_sale, payment, price_with_pass};
use crate::infra::channels::{Channel as _, ChannelKind};
use crate::services::messages::MessageKind;

/// An order as a visitor asks for it, every field already parsed.
#[derive(Debug, Clone)]
pub struct PlaceOrder {
    pub event_key: EventKey,
    pub mobile: Mobile,
    pub email: Option<Email>,
    pub cart: AskedCart,
    /// The amount and paid amount the visitor was shown: compared, never used.
    pub shown: (Money, Money),
    /// The gateway the web app was told, when it says (older carts do not).
    pub gateway_seen: Option<String>,
    /// The channel asked for; `None` in older carts.
    pub channel: Option<PaymentChannel>,
    /// Who asks: the repeat window answers only the same client.
    pub client: IpAddr,
}

/// Why an order cannot be placed as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OrderRefused {
    #[error("the shop now takes payments through {active}; reload the gateway setting")]
    GatewayChanged { active: GatewayKind },
    #[error(
        "FREE orders are for free-download-keep-contract events with nothing to pay, and carts a photo pass pays for"
    )]
    FreeNotAllowed,
    #[error("there is nothing to pay; use FREE")]
    NothingToPay,
    #[error("the {active} gateway takes no cards")]
    NoCards { active: GatewayKind },
    #[error("the cart costs amount {amount} and paid_amount {paid_amount}; quote it again")]
    AmountMismatch { amount: Money, paid_amount: Money },
    #[error(
        "an all-photos request (AM) needs an earlier paid all-photos order of this mobile number for this event"
    )]
    NoEarlierDealOrder,
}

/// The gateway the visitor was told must still be the one in force.
pub fn check_gateway(seen: Option<&str>, active: GatewayKind) -> Result<(), OrderRefused> {
    match seen.map(str::trim).filter(|g| !g.is_empty()) {
        Some(seen) if seen.parse::<GatewayKind>().ok() != Some(active) => {
            Err(OrderRefused::GatewayChanged { active })
        }
        _ => Ok(()),
    }
}

/// Why an order may be FREE: nothing to pay on an event that gives its photos for the
/// buyer's contact, or a photo pass paying for the cart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FreeBecause {
    No,
    KeepContractEvent,
    PhotoPass,
}

/// The channel an order is paid through: the one asked for, if the amount, the event and
/// the gateway allow it; older carts that ask none get PromptPay (or FREE when nothing is
/// to pay).
pub fn choose_channel(
    asked: Option<PaymentChannel>,
    nothing_to_pay: bool,
    free_because: FreeBecause,
    active: GatewayKind,
) -> Result<PaymentChannel, OrderRefused> {
    let channel = match asked {
        Some(channel) => channel,
        None if nothing_to_pay => PaymentChannel::Free,
        None => PaymentChannel::PromptPay,
    };
    match channel {
        PaymentChannel::Free if !(nothing_to_pay && free_because != FreeBecause::No) => {
            Err(OrderRefused::FreeNotAllowed)
        }
        PaymentChannel::PromptPay | PaymentChannel::Card | PaymentChannel::Approval
            if nothing_to_pay =>
        {
            Err(OrderRefused::NothingToPay)
        }
        PaymentChannel::Card if !active.takes_cards() => Err(OrderRefused::NoCards { active }),
        _ => Ok(channel),
    }
}

/// The sponsor frame an order's photos carry (docs/shop-contract.md, Sponsor frames): a
/// free download carries it and is delivered only so, for it is what the sponsor pays
/// for; a bought photo (or one a pass pays for) gets a framed copy beside its original
/// and its logo copy when the event frames sold photos.
pub fn order_frame(
    frame: Option<&EventFrame>,
    free_because: FreeBecause,
    channel: PaymentChannel,
) -> Option<OrderFrame> {
    let frame = frame?;
    let free_download =
        channel == PaymentChannel::Free && free_because == FreeBecause::KeepContractEvent;
    (free_download || frame.on_sold).then(|| OrderFrame {
        name: frame.name.clone(),
        only: free_download,
    })
}

/// The amounts the visitor was shown must be the server's.
pub fn check_shown_amounts(
    shown: (Money, Money),
    priced: (Money, Money),
) -> Result<(), OrderRefused> {
    if shown == priced {
        return Ok(());
    }
    let (amount, paid_amount) = priced;
    Err(OrderRefused::AmountMismatch {
        amount,
        paid_amount,
    })
}

/// Places the order (or finds the same request's first order) and begins its payment.
pub async fn place_order(cx: &Commerce<'_>, ask: PlaceOrder) -> CommerceResult<Order> {
    let active = cx.live.get().gateways.active;
    check_gateway(ask.gateway_seen.as_deref(), active)?;
    let event = find_event_on_sale(cx.catalogue, cx.clock.now(), &ask.event_key).await?;
    let cart = price_with_pass(cx, &event, &ask.cart, ask.client).await?;
    // A pass given must pay: an order never half-uses one.
    let pass_id = match cart.pass {
        Some(PassUse { pays: Err(why), .. }) => return Err(CommerceError::PassDoesNotCover(why)),
        Some(PassUse { id, .. }) => Some(id),
        None => None,
    };
    let totals = cart.totals;
    let nothing_to_pay = totals.final_payment == Money::ZERO;
    let free_because = if pass_id.is_some() {
        FreeBecause::PhotoPass
    } else if event.spec.is_free_download_keep_contract {
        FreeBecause::KeepContractEvent
    } else {
        FreeBecause::No
    };
    let channel = choose_channel(ask.channel, nothing_to_pay, free_because, active)?;
    check_shown_amounts(ask.shown, (totals.amount, totals.final_payment))?;

    let now = cx.clock.now();
    let free = channel == PaymentChannel::Free;
    let ttl = match channel {
        PaymentChannel::PromptPay => Some(cx.payments.qr_ttl),
        PaymentChannel::Card => Some(cx.payments.card_ttl),
        PaymentChannel::Approval => Some(cx.payments.approval_ttl),
        PaymentChannel::Free => None,
    };
    // The AM flow (docs/shop-contract.md, Orders): extra photos after an all-photos
    // purchase, which an operator approves against that earlier order. Without one there
    // is nothing to approve.
    let am_order_ref = if channel == PaymentChannel::Approval {
        Some(
            cx.store
                .last_paid_deal_order(event.id, ask.mobile.as_str())
                .await?
                .ok_or(OrderRefused::NoEarlierDealOrder)?,
        )
    } else {
        None
    };
    let order = NewOrder {
        uuid: OrderUuid::new_random(),
        event_id: event.id,
        mobile: ask.mobile.as_str().to_owned(),
        email: ask.email.as_ref().map(|e| e.as_str().to_owned()),
        deal: cart.deal,
        wholesale: cart.wholesale,
        fingerprint: fingerprint(&ask, event.id, channel, active),
        photo_ids: cart.photo_ids,
        full_amount: totals.full,
        discount: totals.discount,
        amount: totals.amount,
        payment_fee: totals.fee,
        paid_amount: totals.final_payment,
        payment_gateway: active,
        payment_channel: channel,
        payment_status: if free {
            PaymentStatus::Paid
        } else {
            PaymentStatus::Initial
        },
        am_order_ref,
        expires_at: ttl
            .and_then(|t| chrono::Duration::from_std(t).ok())
            .map(|t| now + t),
        pass_id,
        frame: order_frame(
            cx.store.event_frame(event.id).await?.as_ref(),
            free_because,
            channel,
        ),
        certificate: cart.certificate,
    };
    let window = chrono::Duration::from_std(cx.orders.dedupe_window).unwrap_or_default();
    // A free order is paid as it is placed: its jobs are enqueued with it. Any other is
    // texted its link, when text messages reach people: the way back to it.
    let texts = cx.live.get().sms.delivers();
    let jobs = |id: i64| {
        if free {
            cx.jobs.paid_order(id)
        } else if texts {
            vec![
                cx.jobs
                    .message(MessageKind::OrderLink, &id.to_string(), ChannelKind::Sms),
            ]
        } else {
            Vec::new()
        }
    };
    let created = cx
        .store
        .create_order(&order, now - window, jobs, now)
        .await?;
    if let Created::New(o) = &created {
        metrics::counter!("orders_created_total", "channel" => o.payment_channel.as_str())
            .increment(1);
        if pass_id.is_some() {
            metrics::counter!("pass_orders_total").increment(1);
        }
    }
    let order = match created {
        Created::New(order) | Created::Repeated(order) => order,
        Created::PassTaken => return Err(CommerceError::PassUsed),
    };
    payment::start_payment(cx, &order).await?;
    Ok(order)
}

/// What makes two order requests the same request: the same cart from the same client.
/// Another client sending the same cart (it may know the mobile number and the photo
/// ids) gets an order of its own, never the first one's uuid.
fn fingerprint(
    ask: &PlaceOrder,
    event_id: i64,
    channel: PaymentChannel,
    gateway: GatewayKind,
) -> String {
    let mut sorted = ask.cart.photo_ids.clone();
    sorted.sort_unstable();
    let key = serde_json::json!([
        event_id,
        ask.mobile.as_str(),
        ask.email
            .as_ref()
            .map(|e| e.as_str().to_lowercase())
            .unwrap_or_default(),
        sorted,
        ask.cart.deal,
        ask.cart.wholesale,
        channel.as_str(),
        gateway.as_str(),
        ask.client.to_string(),
        ask.cart
            .pass_code
            .as_deref()
            .and_then(PassCode::parse)
            .map(|c| c.as_str().to_owned()),
        ask.cart.certificate_bib.as_deref().map(str::trim),
    ]);
    hex::encode(Sha256::digest(key.to_string().as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn baht(satang: i64) -> Money {
        Money::from_satang(satang).unwrap_or(Money::ZERO)
    }

    #[test]
    fn the_gateway_seen_must_be_the_one_in_force() {
        assert_eq!(check_gateway(None, GatewayKind::Opn), Ok(()));
        assert_eq!(check_gateway(Some(""), GatewayKind::Opn), Ok(()));
        assert_eq!(check_gateway(Some("opn"), GatewayKind::Opn), Ok(()));
        assert_eq!(
            check_gateway(Some("GBP"), GatewayKind::Opn),
            Err(OrderRefused::GatewayChanged {
                active: GatewayKind::Opn
            })
        );
        assert_eq!(
            check_gateway(Some("PAYPAL"), GatewayKind::Gbp),
            Err(OrderRefused::GatewayChanged {
                active: GatewayKind::Gbp
            })
        );
    }

    #[test]
    fn channels_follow_the_amount_the_event_and_the_gateway() {
        use PaymentChannel::{Approval, Card, Free, PromptPay};
        let choose = |asked, nothing, keep: bool, gateway| {
            let because = if keep {
                FreeBecause::KeepContractEvent
            } else {
                FreeBecause::No
            };
            choose_channel(asked, nothing, because, gateway)
        };
        // Older carts ask no channel.
        assert_eq!(choose(None, false, false, GatewayKind::Gbp), Ok(PromptPay));
        assert_eq!(choose(None, true, true, GatewayKind::Gbp), Ok(Free));
        assert_eq!(
            choose(None, true, false, GatewayKind::Gbp),
            Err(OrderRefused::FreeNotAllowed)
        );
        assert_eq!(choose(Some(Card), false, false, GatewayKind::Opn), Ok(Card));
        assert_eq!(
            choose(Some(Card), false, false, GatewayKind::PromptPay),
            Err(OrderRefused::NoCards {
                active: GatewayKind::PromptPay
            })
        );
        assert_eq!(
            choose(Some(PromptPay), true, true, GatewayKind::Gbp),
            Err(OrderRefused::NothingToPay)
        );
        assert_eq!(
            choose(Some(Free), false, true, GatewayKind::Gbp),
            Err(OrderRefused::FreeNotAllowed)
        );
        assert_eq!(
            choose(Some(Approval), false, false, GatewayKind::Gbp),
            Ok(Approval)
        );
        assert_eq!(
            choose(Some(Approval), true, true, GatewayKind::Gbp),
            Err(OrderRefused::NothingToPay),
            "a free event has nothing to approve"
        );
        // A cart a photo pass pays for is FREE on any event.
        let pass = FreeBecause::PhotoPass;
        assert_eq!(choose_channel(None, true, pass, GatewayKind::Opn), Ok(Free));
        assert_eq!(
            choose_channel(Some(Free), true, pass, GatewayKind::Opn),
            Ok(Free)
        );
        assert_eq!(
            choose_channel(Some(PromptPay), true, pass, GatewayKind::Opn),
            Err(OrderRefused::NothingToPay)
        );
    }

    #[test]
    fn free_downloads_carry_only_the_frame_and_sales_carry_it_when_chosen() {
        use raceshot_store::StoredName;
        let frame = |on_sold| EventFrame {
            name: StoredName::parse("f0.png").unwrap_or_else(|| panic!("name")),
            on_sold,
            updated_at: chrono::DateTime::UNIX_EPOCH,
        };
        let only = |o: Option<OrderFrame>| o.map(|f| f.only);
        let keep = FreeBecause::KeepContractEvent;
        for on_sold in [false, true] {
            let f = frame(on_sold);
            assert_eq!(
                only(order_frame(Some(&f), keep, PaymentChannel::Free)),
                Some(true)
            );
            let sold = if on_sold { Some(false) } else { None };
            assert_eq!(
                only(order_frame(
                    Some(&f),
                    FreeBecause::No,
                    PaymentChannel::PromptPay
                )),
                sold
            );
            // A pass pays for the photos as a purchase would.
            let pass = FreeBecause::PhotoPass;
            assert_eq!(
                only(order_frame(Some(&f), pass, PaymentChannel::Free)),
                sold
            );
            // A priced photo of a keep-contract event is a sale.
            assert_eq!(
                only(order_frame(Some(&f), keep, PaymentChannel::Card)),
                sold
            );
        }
        assert_eq!(order_frame(None, keep, PaymentChannel::Free), None);
    }

    #[test]
    fn shown_amounts_are_compared_never_used() {
        let priced = (baht(12_000), baht(12_600));
        assert_eq!(check_shown_amounts(priced, priced), Ok(()));
        for shown in [(baht(10_000), baht(12_600)), (baht(12_000), baht(12_000))] {
            assert_eq!(
                check_shown_amounts(shown, priced),
                Err(OrderRefused::AmountMismatch {
                    amount: priced.0,
                    paid_amount: priced.1
                })
            );
        }
    }
}
