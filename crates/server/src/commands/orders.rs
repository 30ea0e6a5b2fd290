//! `raceshot order …`: an operator's hand in an order's payment — confirming a PROMPTPAY
//! order against its bank slip, approving an all-photos (AM) order — each recorded in the
//! audit log and the payment trail, and each starting the order's delivery once.

use anyhow::Context;

use crate::api::orders::find_order;
use crate::commerce::payment;
use crate::state::AppState;

/// What an operator did to an order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Paid,
    /// The order was paid already: nothing changed.
    AlreadyPaid,
}

/// Confirms a PROMPTPAY order paid, the slip's last 4 characters becoming its receipt.
pub async fn confirm(
    state: &AppState,
    uuid: &str,
    slip_ref: &str,
    actor: &str,
) -> anyhow::Result<Outcome> {
    let order = find_order(state, uuid)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let changed = payment::confirm_by_slip(state, &order, slip_ref)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    audit(
        state,
        actor,
        "order.confirm",
        &order.uuid,
        serde_json::json!({ "slip_ref": slip_ref }),
    )
    .await?;
    Ok(if changed {
        Outcome::Paid
    } else {
        Outcome::AlreadyPaid
    })
}

/// Approves an all-photos (AM) order.
pub async fn approve(state: &AppState, uuid: &str, actor: &str) -> anyhow::Result<Outcome> {
    let order = find_order(state, uuid)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let changed = payment::approve(state, &order, actor)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    audit(
        state,
        actor,
        "order.approve",
        &order.uuid,
        serde_json::json!({}),
    )
    .await?;
    Ok(if changed {
        Outcome::Paid
    } else {
        Outcome::AlreadyPaid
    })
}

async fn audit(
    state: &AppState,
    actor: &str,
    action: &str,
    target: &str,
    detail: serde_json::Value,
) -> anyhow::Result<()> {
    state
        .store
        .audit(actor, action, target, &detail, state.now())
        .await
        .context("writing the audit log")
}
