//! An operator's hand in an order's payment, from the command line or the console:
//! confirming a PROMPTPAY order against its bank slip, approving an all-photos (AM) order.
//! Each is recorded in the payment trail and the audit log, and starts delivery once.

use raceshot_store::orders::Order;

use super::Commerce;
use super::CommerceResult;
use super::payment;

/// What an operator did to an order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Paid,
    /// The order was paid already: nothing changed.
    AlreadyPaid,
}

impl Outcome {
    fn of(changed: bool) -> Self {
        if changed {
            Outcome::Paid
        } else {
            Outcome::AlreadyPaid
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Paid => "paid",
            Outcome::AlreadyPaid => "already_paid",
        }
    }
}

/// Confirms a PROMPTPAY order paid, the slip's last 4 characters becoming its receipt.
pub async fn confirm(
    cx: &Commerce<'_>,
    order: &Order,
    slip_ref: &str,
    actor: &str,
) -> CommerceResult<Outcome> {
    let changed = payment::confirm_by_slip(cx, order, slip_ref).await?;
    let detail = serde_json::json!({ "slip_ref": slip_ref });
    cx.store
        .audit(
            actor,
            "order.confirm",
            &order.uuid.to_string(),
            &detail,
            cx.clock.now(),
        )
        .await?;
    Ok(Outcome::of(changed))
}

/// Approves an all-photos (AM) order.
pub async fn approve(cx: &Commerce<'_>, order: &Order, actor: &str) -> CommerceResult<Outcome> {
    let changed = payment::approve(cx, order, actor).await?;
    cx.store
        .audit(
            actor,
            "order.approve",
            &order.uuid.to_string(),
            &serde_json::json!({}),
            cx.clock.now(),
        )
        .await?;
    Ok(Outcome::of(changed))
}
