//! `raceshot order …`: confirming a PROMPTPAY order against its bank slip and approving an
//! all-photos (AM) order from the command line (`commerce::operator` does the work). A
//! refusal or fault comes back as commerce's `CommerceError`, which `main` prints with its
//! causes.

use crate::app::state::AppState;
use crate::services::commerce::operator;
pub use crate::services::commerce::operator::Outcome;
use crate::services::commerce::{find_order, parse_order_uuid};

/// Confirms a PROMPTPAY order paid, the slip's last 4 characters becoming its receipt.
pub async fn confirm(
    state: &AppState,
    uuid: &str,
    slip_ref: &str,
    actor: &str,
) -> anyhow::Result<Outcome> {
    let order = find_order(&state.store, parse_order_uuid(uuid)?).await?;
    Ok(operator::confirm(&state.commerce(), &order, slip_ref, actor).await?)
}

/// Approves an all-photos (AM) order.
pub async fn approve(state: &AppState, uuid: &str, actor: &str) -> anyhow::Result<Outcome> {
    let order = find_order(&state.store, parse_order_uuid(uuid)?).await?;
    Ok(operator::approve(&state.commerce(), &order, actor).await?)
}
