//! Per-client rate limits (a token bucket per client address) and the client address
//! itself: the connection's peer, or — only when that peer is a configured trusted proxy —
//! the nearest address in `X-Forwarded-For` that is not one of the trusted proxies.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::http::HeaderMap;

/// The address a request comes from, as far as this shop can trust it.
pub fn client_address(peer: SocketAddr, headers: &HeaderMap, trusted_proxies: &[IpAddr]) -> IpAddr {
    let peer = peer.ip();
    if !trusted_proxies.contains(&peer) {
        return peer;
    }
    // Each proxy appends the address it received from: read from the right, past our
    // own proxies, to the first address they did not add themselves.
    let forwarded = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|a| a.trim().parse::<IpAddr>().ok())
        .collect::<Vec<_>>();
    forwarded
        .into_iter()
        .rev()
        .find(|a| !trusted_proxies.contains(a))
        .unwrap_or(peer)
}

/// A client asked too often: it may ask again after `retry_after` seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("too many requests from this address")]
pub struct Limited {
    pub retry_after: u64,
}

/// `per_minute` requests per client, in bursts of up to `per_minute`; 0 turns it off.
pub struct RateLimiter {
    per_minute: u32,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

/// Buckets kept before idle ones are forgotten.
const PRUNE_AT: usize = 100_000;

impl RateLimiter {
    pub fn new(per_minute: u32) -> Self {
        Self {
            per_minute,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one request from the client's bucket, or says when to come back.
    pub fn check(&self, client: IpAddr) -> Result<(), Limited> {
        self.take(client, 1.0)
    }

    /// Whether the client's bucket holds a request, taking none: for limits that count
    /// only failures (a wrong code), asked before the attempt so that a client past the
    /// limit learns nothing from trying.
    pub fn ready(&self, client: IpAddr) -> Result<(), Limited> {
        self.take(client, 0.0)
    }

    fn take(&self, client: IpAddr, cost: f64) -> Result<(), Limited> {
        if self.per_minute == 0 {
            return Ok(());
        }
        let capacity = f64::from(self.per_minute);
        let per_second = capacity / 60.0;
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() >= PRUNE_AT {
            // A bucket idle for a minute is full again: forgetting it changes nothing.
            buckets.retain(|_, (_, at)| now.duration_since(*at) < Duration::from_secs(60));
        }
        let (tokens, at) = buckets.entry(client).or_insert((capacity, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * per_second).min(capacity);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= cost;
            Ok(())
        } else {
            let wait = ((1.0 - *tokens) / per_second).ceil().max(1.0) as u64;
            Err(Limited { retry_after: wait })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap_or(IpAddr::from([0, 0, 0, 0]))
    }

    #[test]
    fn forwarded_addresses_count_only_behind_a_trusted_proxy() {
        let mut headers = HeaderMap::new();
        headers.insert(
            "x-forwarded-for",
            "203.0.113.9, 10.0.0.2"
                .parse()
                .unwrap_or_else(|_| unreachable!()),
        );
        let peer = SocketAddr::from(([10, 0, 0, 1], 5000));
        assert_eq!(
            client_address(peer, &headers, &[]),
            ip("10.0.0.1"),
            "untrusted peer: header ignored"
        );
        let trusted = [ip("10.0.0.1"), ip("10.0.0.2")];
        assert_eq!(client_address(peer, &headers, &trusted), ip("203.0.113.9"));
        assert_eq!(
            client_address(peer, &HeaderMap::new(), &trusted),
            ip("10.0.0.1")
        );
    }

    #[test]
    fn a_bucket_empties_and_other_clients_are_apart() {
        let limiter = RateLimiter::new(3);
        let (a, b) = (ip("192.0.2.1"), ip("192.0.2.2"));
        for _ in 0..3 {
            assert!(limiter.check(a).is_ok());
        }
        let refused = limiter.check(a).err().map(|e| e.retry_after);
        assert_eq!(refused, Some(20), "one request comes back every 20 s");
        assert!(limiter.check(b).is_ok());
        assert!((0..1000).all(|_| RateLimiter::new(0).check(a).is_ok()));
    }

    #[test]
    fn ready_takes_nothing_from_the_bucket() {
        let limiter = RateLimiter::new(2);
        let a = ip("192.0.2.1");
        assert!((0..10).all(|_| limiter.ready(a).is_ok()));
        assert!(limiter.check(a).is_ok() && limiter.check(a).is_ok());
        assert_eq!(limiter.ready(a).err().map(|e| e.retry_after), Some(30));
    }
}
