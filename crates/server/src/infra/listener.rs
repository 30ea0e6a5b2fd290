//! The accept loop in front of the routers, in place of `axum::serve`, which bounds
//! nothing: a connection that sends nothing, half a request head, or sits idle would be
//! held for ever, and enough of them use up the process's descriptors. Here a connection
//! must send a whole request head within the header timeout, a kept-alive one is closed
//! after the idle timeout without a new request, one client address holds at most its cap
//! of connections (past it new ones are closed at once), and all clients together at most
//! the total cap (sized from the open-file limit, `open_files.rs`; past it new connections
//! wait in the system's accept queue). Shutdown stops accepting, lets requests in flight
//! finish and closes idle connections.
//!
//! Both timeouts are kept here rather than by hyper's `header_read_timeout`: hyper runs
//! that timer while a kept-alive connection waits for its next request too, so idle
//! connections would be closed at the header timeout; nor does it cover HTTP/2 or the
//! bytes read before the protocol is known. HTTP/1.1 and HTTP/2 with prior knowledge are
//! served, as `axum::serve` did.

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::pin::{Pin, pin};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use bytes::Bytes;
use hyper::body::{Body as HttpBody, Frame, Incoming, SizeHint};
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto::Builder;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::time::Instant;
use tower::ServiceExt;

/// How one listener bounds its connections.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Named in logs and metrics (`public`, `metrics`).
    pub name: &'static str,
    /// From opening, or from the first byte of the next request, to a whole request head.
    pub header_read_timeout: Duration,
    /// From the end of an answer to the first byte of the next request.
    pub idle_timeout: Duration,
    /// Open connections per client address (an IPv6 /64); 0: no cap per address.
    pub per_client: usize,
    /// Open connections in all.
    pub total: usize,
    /// Peers the per-client cap does not apply to: a proxy carries many clients.
    pub exempt: Vec<IpAddr>,
}

/// The pause after an accept error that is not one client's (out of descriptors, most
/// often): retrying at once would spin while nothing changes.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// How often reaching the total cap is logged while it lasts.
const CAP_WARNING_EVERY: Duration = Duration::from_secs(60);

/// Serves `router` on `listener` within `limits` until `shutdown` completes, then until
/// the connections still open have finished their requests.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) {
    let limits = Arc::new(limits);
    let tally = Arc::new(watch::Sender::new(Tally::default()));
    let (stop, stopping) = watch::channel(false);
    let mut shutdown = pin!(shutdown);
    let mut warned_at: Option<Instant> = None;
    loop {
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            accepted = accept_below_cap(&listener, &tally, &limits, &mut warned_at) => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) if is_one_clients(&e) => continue,
            Err(e) => {
                tracing::warn!(listener = limits.name, error = %e, "cannot accept connections");
                tokio::time::sleep(ACCEPT_BACKOFF).await;
                continue;
            }
        };
        let Some(slot) = Slot::take(&tally, &limits, peer.ip()) else {
            // Closed before reading a byte: the client's other connections are its share.
            metrics::counter!("http_connections_refused_total", "listener" => limits.name)
                .increment(1);
            tracing::debug!(listener = limits.name, %peer, "too many connections from this address");
            drop(stream);
            continue;
        };
        tokio::spawn(serve_connection(
            stream,
            peer,
            router.clone(),
            limits.clone(),
            slot,
            stopping.clone(),
        ));
    }
    // New connections are refused from here; open ones finish what they are doing.
    drop(listener);
    stop.send_replace(true);
    let mut open = tally.subscribe();
    let _ = open.wait_for(|t| t.total == 0).await;
}

/// The next connection, once fewer than the total cap are open. Connections past the cap
/// wait in the system's accept queue, holding none of our descriptors, and are served
/// as soon as one closes.
async fn accept_below_cap(
    listener: &TcpListener,
    tally: &watch::Sender<Tally>,
    limits: &Limits,
    warned_at: &mut Option<Instant>,
) -> io::Result<(TcpStream, SocketAddr)> {
    let mut open = tally.subscribe();
    if open.borrow().total >= limits.total {
        if warned_at.is_none_or(|at| at.elapsed() >= CAP_WARNING_EVERY) {
            tracing::warn!(
                listener = limits.name,
                cap = limits.total,
                "connection cap reached; new connections wait to be accepted"
            );
            *warned_at = Some(Instant::now());
        }
        // This loop alone adds connections, so a free slot stays free until it is taken.
        let _ = open.wait_for(|t| t.total < limits.total).await;
    }
    listener.accept().await
}

/// Errors that concern the one connection being accepted, not the listener.
fn is_one_clients(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionRefused
    )
}

/// Serves one connection until it ends, times out, or has drained after shutdown.
async fn serve_connection(
    stream: TcpStream,
    peer: SocketAddr,
    router: Router,
    limits: Arc<Limits>,
    slot: Slot,
    mut stopping: watch::Receiver<bool>,
) {
    let activity = Arc::new(Activity::new());
    let io = TokioIo::new(Watched {
        stream,
        activity: activity.clone(),
    });
    let service = {
        let activity = activity.clone();
        hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            // What `into_make_service_with_connect_info` gave handlers: the peer's address
            // (rate limits and fingerprints are per client).
            request.extensions_mut().insert(ConnectInfo(peer));
            let busy = Busy::begin(&activity);
            let answer = router.clone().oneshot(request);
            async move {
                let response = answer.await.unwrap_or_else(|never| match never {});
                Ok::<_, Infallible>(response.map(|body| Tracked { body, _busy: busy }))
            }
        })
    };
    let mut builder = Builder::new(TokioExecutor::new());
    // Off: the header timeout is kept by `Activity` (see the module's comment).
    builder.http1().header_read_timeout(None);
    let mut connection = pin!(builder.serve_connection(io, service));
    let mut draining = false;
    // The phases change several times a request without waking this task: it looks at
    // the deadline at least every `check_every` and closes the connection at the deadline
    // itself (see `Activity`).
    let check_every = limits.header_read_timeout.min(limits.idle_timeout);
    let mut check = pin!(tokio::time::sleep(check_every));
    loop {
        tokio::select! {
            ended = connection.as_mut() => {
                if let Err(e) = ended {
                    tracing::debug!(listener = limits.name, %peer, error = %e, "connection ended with an error");
                }
                break;
            }
            () = check.as_mut() => {
                let now = Instant::now();
                match activity.deadline(&limits) {
                    Some((at, reason)) if at <= now => {
                        metrics::counter!(
                            "http_connections_timed_out_total",
                            "listener" => limits.name,
                            "reason" => reason,
                        )
                        .increment(1);
                        tracing::debug!(listener = limits.name, %peer, reason, "closing a connection");
                        // Dropping the connection closes the socket; nothing is in flight.
                        break;
                    }
                    Some((at, _)) => check.as_mut().reset(at.min(now + check_every)),
                    None => check.as_mut().reset(now + check_every),
                }
            }
            _ = stopping.wait_for(|stop| *stop), if !draining => {
                draining = true;
                // Idle connections close now; a request in flight is answered first.
                connection.as_mut().graceful_shutdown();
            }
        }
    }
    drop(slot);
}

/// Open connections, in all and per client address.
#[derive(Debug, Default)]
struct Tally {
    total: usize,
    by_client: HashMap<IpAddr, usize>,
}

/// One open connection's place in the tally, given back when it is dropped.
struct Slot {
    tally: Arc<watch::Sender<Tally>>,
    /// The client it counts against; `None` for an exempt peer or without a per-client cap.
    client: Option<IpAddr>,
    listener: &'static str,
}

impl Slot {
    /// A place for a connection from `peer`, unless its address has its cap already.
    fn take(tally: &Arc<watch::Sender<Tally>>, limits: &Limits, peer: IpAddr) -> Option<Slot> {
        let exempt = limits.exempt.contains(&peer) || limits.exempt.contains(&peer.to_canonical());
        let client = (limits.per_client > 0 && !exempt).then(|| client_key(peer));
        let mut open = 0;
        let taken = tally.send_if_modified(|t| {
            if let Some(client) = client {
                let count = t.by_client.entry(client).or_default();
                if *count >= limits.per_client {
                    return false;
                }
                *count += 1;
            }
            t.total += 1;
            open = t.total;
            true
        });
        if !taken {
            return None;
        }
        metrics::gauge!("http_connections_open", "listener" => limits.name).set(open as f64);
        Some(Slot {
            tally: tally.clone(),
            client,
            listener: limits.name,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = 0;
        self.tally.send_modify(|t| {
            t.total = t.total.saturating_sub(1);
            open = t.total;
            if let Some(client) = self.client
                && let Some(count) = t.by_client.get_mut(&client)
            {
                *count = count.saturating_sub(1);
                if *count == 0 {
                    t.by_client.remove(&client);
                }
            }
        });
        metrics::gauge!("http_connections_open", "listener" => self.listener).set(open as f64);
    }
}

/// The address a connection counts against: IPv4 as it is, IPv6 by its /64, which is
/// what one subscriber or one household is given (a client has all of it to pick from).
fn client_key(peer: IpAddr) -> IpAddr {
    match peer.to_canonical() {
        IpAddr::V6(v6) => {
            let mut segments = v6.segments();
            segments[4..].fill(0);
            IpAddr::V6(Ipv6Addr::from(segments))
        }
        v4 => v4,
    }
}

/// Where a connection is between requests, for its timeouts.
#[derive(Debug, Clone, Copy)]
enum Phase {
    /// Waiting for a whole request head: from opening, or from the first byte of the
    /// next request.
    Head { since: Instant },
    /// Requests being answered (several at once on HTTP/2); their own timeouts apply.
    Serving { requests: usize },
    /// Kept alive after an answer, nothing of a next request received.
    Idle { since: Instant },
}

/// A connection's phase, told by its socket (bytes received) and its service (requests
/// begun and answered), and read by the connection's task when its check timer fires.
///
/// No change wakes that task, yet every deadline is kept to the timer's precision: a
/// phase's deadline is at least `check_every` (the shorter timeout) after the phase
/// began, the task looks at least every `check_every`, and it sets its timer to the
/// deadline itself once that is nearer than its next look. So a phase that began after
/// one look is seen by the next, before its deadline.
struct Activity {
    phase: Mutex<Phase>,
}

impl Activity {
    fn new() -> Self {
        Activity {
            phase: Mutex::new(Phase::Head {
                since: Instant::now(),
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Phase> {
        // A phase is a plain value: a panic elsewhere cannot leave it half written.
        self.phase.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Bytes arrived: an idle connection has begun its next request. (Bytes a request
    /// sent ahead while the previous one was answered count as idle time, still bounded;
    /// on HTTP/2 any frame counts, so an idle HTTP/2 connection that keeps sending frames
    /// is held to the header timeout.)
    fn received(&self) {
        let mut phase = self.lock();
        if let Phase::Idle { .. } = *phase {
            *phase = Phase::Head {
                since: Instant::now(),
            };
        }
    }

    /// When the connection is to be closed unless it moves on, and why.
    fn deadline(&self, limits: &Limits) -> Option<(Instant, &'static str)> {
        match *self.lock() {
            Phase::Head { since } => Some((since + limits.header_read_timeout, "header_timeout")),
            Phase::Idle { since } => Some((since + limits.idle_timeout, "idle_timeout")),
            Phase::Serving { .. } => None,
        }
    }
}

/// A request being answered, from its whole head until its answer's body has been sent
/// (or dropped): the connection is neither waiting for a head nor idle meanwhile.
struct Busy(Arc<Activity>);

impl Busy {
    fn begin(activity: &Arc<Activity>) -> Busy {
        let mut phase = activity.lock();
        *phase = match *phase {
            Phase::Serving { requests } => Phase::Serving {
                requests: requests + 1,
            },
            Phase::Head { .. } | Phase::Idle { .. } => Phase::Serving { requests: 1 },
        };
        drop(phase);
        Busy(activity.clone())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        let mut phase = self.0.lock();
        if let Phase::Serving { requests } = *phase {
            *phase = if requests > 1 {
                Phase::Serving {
                    requests: requests - 1,
                }
            } else {
                Phase::Idle {
                    since: Instant::now(),
                }
            };
        }
    }
}

/// An answer's body that keeps its request [`Busy`] until hyper has sent it all and drops
/// it: a long download is not idle time.
struct Tracked {
    body: axum::body::Body,
    _busy: Busy,
}

impl HttpBody for Tracked {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// The socket, telling the connection's [`Activity`] when bytes arrive.
struct Watched {
    stream: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for Watched {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.stream).poll_read(cx, buf);
        if buf.filled().len() > before {
            this.activity.received();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_clients_count_by_their_64_and_mapped_ipv4_as_ipv4() {
        let ip = |s: &str| s.parse::<IpAddr>().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(client_key(ip("203.0.113.7")), ip("203.0.113.7"));
        assert_eq!(client_key(ip("::ffff:203.0.113.7")), ip("203.0.113.7"));
        assert_eq!(
            client_key(ip("2001:db8:1:2:aaaa:bbbb:cccc:dddd")),
            client_key(ip("2001:db8:1:2::1"))
        );
        assert_ne!(
            client_key(ip("2001:db8:1:2::1")),
            client_key(ip("2001:db8:1:3::1"))
        );
    }

    fn limits(per_client: usize, total: usize, exempt: &[&str]) -> Limits {
        Limits {
            name: "test",
            header_read_timeout: Duration::from_secs(1),
            idle_timeout: Duration::from_secs(1),
            per_client,
            total,
            exempt: exempt
                .iter()
                .map(|a| a.parse().unwrap_or_else(|e| panic!("{e}")))
                .collect(),
        }
    }

    #[test]
    fn slots_count_per_client_and_are_given_back() {
        let tally = Arc::new(watch::Sender::new(Tally::default()));
        let limits = limits(2, 100, &["10.0.0.1"]);
        let client: IpAddr = [192, 0, 2, 1].into();
        let first = Slot::take(&tally, &limits, client);
        let second = Slot::take(&tally, &limits, client);
        assert!(first.is_some() && second.is_some());
        assert!(
            Slot::take(&tally, &limits, client).is_none(),
            "past the cap"
        );
        assert!(
            Slot::take(&tally, &limits, [192, 0, 2, 2].into()).is_some_and(|s| {
                drop(s);
                true
            })
        );
        // A trusted proxy carries many clients: only the total counts it.
        let proxied: Vec<_> = (0..5)
            .filter_map(|_| Slot::take(&tally, &limits, [10, 0, 0, 1].into()))
            .collect();
        assert_eq!(proxied.len(), 5);
        assert_eq!(tally.borrow().total, 7);
        drop(first);
        assert!(
            Slot::take(&tally, &limits, client).is_some(),
            "a slot came back"
        );
        drop(second);
        drop(proxied);
        assert_eq!(tally.borrow().total, 0);
        assert!(tally.borrow().by_client.is_empty(), "nothing left behind");
    }
}
