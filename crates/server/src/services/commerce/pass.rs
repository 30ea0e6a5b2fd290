//! A photo pass at checkout: the code a runner types is looked up by its hash among the
//! event's passes. A code that matches none (mistyped, another event's, or guessed) counts
//! against the client's bucket of wrong codes and is audited; past the bucket, every code
//! from that client is refused before it is looked up, so a guesser learns nothing more.
//! Whether the pass covers the cart is the pricing's business ([`super::price_cart`]);
//! redeeming it, the order's ([`super::orders`]).

use std::net::IpAddr;

use raceshot_domain::pass::PassCode;
use raceshot_store::audit::event_target;
use raceshot_store::events::Event;
use raceshot_store::passes::StoredPass;

use super::{Commerce, CommerceError, CommerceResult};
use crate::infra::signing;
use crate::services::passes::code_hash;

/// The pass of `event` that `raw` (as the runner typed it) names, redeemed or not.
pub async fn find_pass(
    cx: &Commerce<'_>,
    event: &Event,
    raw: &str,
    client: IpAddr,
) -> CommerceResult<StoredPass> {
    cx.wrong_pass_codes
        .ready(client)
        .map_err(|l| CommerceError::TooManyPassCodes {
            retry_after: l.retry_after,
        })?;
    let found = match PassCode::parse(raw) {
        Some(code) => cx.store.pass_by_hash(&code_hash(&code)).await?,
        None => None,
    };
    match found {
        Some(pass) if pass.event_id == event.id => Ok(pass),
        _ => {
            // The bucket had room a moment ago; another request may have taken it since,
            // which changes nothing for this one.
            let _ = cx.wrong_pass_codes.check(client);
            cx.store
                .audit(
                    &client_actor(cx.signing_key, client),
                    "passes.wrong_code",
                    &event_target(&event.spec.key),
                    &serde_json::json!({}),
                    cx.clock.now(),
                )
                .await?;
            metrics::counter!("pass_codes_wrong_total").increment(1);
            Err(CommerceError::PassNotFound)
        }
    }
}

/// How the audit log names a visitor who typed a wrong code: a keyed hash of their
/// address, so that many wrong codes from one place stand out without the log keeping
/// the address.
pub fn client_actor(signing_key: &[u8], client: IpAddr) -> String {
    let hash = signing::sign(signing_key, "audit-pass-client", &[&client.to_string()]);
    format!("client:{}", hash.get(..16).unwrap_or(&hash))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_audit_names_a_client_by_a_keyed_hash() {
        let a: IpAddr = [203, 0, 113, 9].into();
        let b: IpAddr = [203, 0, 113, 10].into();
        let actor = client_actor(b"key", a);
        assert!(actor.starts_with("client:") && actor.len() == 23, "{actor}");
        assert!(!actor.contains("203"));
        assert_eq!(actor, client_actor(b"key", a));
        assert_ne!(actor, client_actor(b"key", b));
        assert_ne!(actor, client_actor(b"other key", a));
    }
}
