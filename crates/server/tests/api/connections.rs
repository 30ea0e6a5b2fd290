//! Connection limits on real sockets: a connection that sends nothing or half a request
//! head is closed after the header timeout, a kept-alive one after the idle timeout, one
//! client address holds at most its cap, and a flood of silent connections does not keep
//! `/healthz` from answering.

use std::time::{Duration, Instant};

use raceshot_store::Backend;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::helpers::TestApp;

/// Far beyond the timeouts these tests set: a connection still open by then was never
/// going to be closed.
const PATIENCE: Duration = Duration::from_secs(10);

/// Less than any timeout these tests set, so a close before it was not the timeout's.
const TOO_SOON: Duration = Duration::from_millis(500);

/// The shop with these `server.*` settings (`("IDLE_TIMEOUT_SECS", "1")`).
async fn app(settings: &[(&str, &str)]) -> TestApp {
    let mut builder = TestApp::builder(Backend::Sqlite);
    for (key, value) in settings {
        builder = builder.with_env(&format!("RACESHOT__SERVER__{key}"), value);
    }
    builder.spawn().await
}

async fn connect(app: &TestApp) -> TcpStream {
    TcpStream::connect(app.addr)
        .await
        .unwrap_or_else(|e| panic!("connecting: {e}"))
}

/// How long the server took to close `stream` (end of stream or reset), reading and
/// dropping whatever it sends meanwhile; `None` when it is still open after `within`.
async fn closed_within(stream: &mut TcpStream, within: Duration) -> Option<Duration> {
    let start = Instant::now();
    let mut buf = [0u8; 1024];
    let closed = async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    };
    tokio::time::timeout(within, closed)
        .await
        .ok()
        .map(|()| start.elapsed())
}

/// Sends `GET /healthz` on `stream` (kept alive) and reads the whole answer: its status.
async fn healthz_on(stream: &mut TcpStream) -> std::io::Result<u16> {
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: shop\r\n\r\n")
        .await?;
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = stream.read(&mut buf).await?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        got.extend_from_slice(&buf[..n]);
        let Some(end) = got.windows(4).position(|w| w == b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&got[..end]).to_ascii_lowercase();
        let length = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse::<usize>().ok())
            .unwrap_or(0);
        if got.len() >= end + 4 + length {
            let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok());
            return Ok(status.unwrap_or(0));
        }
    }
}

/// `/healthz` on a fresh connection, tried until it answers or `within` passes.
async fn healthz_answers_within(app: &TestApp, within: Duration) -> bool {
    let until = Instant::now() + within;
    while Instant::now() < until {
        let mut stream = connect(app).await;
        let left = until.saturating_duration_since(Instant::now());
        if let Ok(Ok(200)) = tokio::time::timeout(left, healthz_on(&mut stream)).await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

#[tokio::test]
async fn half_a_request_head_or_nothing_is_closed_after_the_header_timeout() {
    let app = app(&[
        ("HEADER_READ_TIMEOUT_SECS", "1"),
        ("IDLE_TIMEOUT_SECS", "30"),
    ])
    .await;
    let mut half = connect(&app).await;
    half.write_all(b"GET /healthz HTTP/1.1\r\nHost: sh")
        .await
        .unwrap();
    let mut silent = connect(&app).await;

    let closed = tokio::join!(
        closed_within(&mut half, PATIENCE),
        closed_within(&mut silent, PATIENCE)
    );
    for (what, closed) in [("half a head", closed.0), ("nothing", closed.1)] {
        let after = closed.unwrap_or_else(|| panic!("a connection sending {what} stays open"));
        assert!(
            after >= TOO_SOON,
            "{what}: closed after {after:?}, before the timeout"
        );
    }
    // A whole request on a fresh connection is served.
    assert_eq!(healthz_on(&mut connect(&app).await).await.unwrap(), 200);
}

/// The idle timeout closes a kept-alive connection; the (shorter) header timeout is for a
/// request being sent, not for the wait between requests, so it does not cut one short.
#[tokio::test]
async fn an_idle_kept_alive_connection_is_closed_after_the_idle_timeout() {
    let app = app(&[
        ("HEADER_READ_TIMEOUT_SECS", "1"),
        ("IDLE_TIMEOUT_SECS", "3"),
    ])
    .await;
    let mut stream = connect(&app).await;
    // Keep-alive works: two requests on one connection.
    assert_eq!(healthz_on(&mut stream).await.unwrap(), 200);
    assert_eq!(healthz_on(&mut stream).await.unwrap(), 200);
    assert_eq!(
        closed_within(&mut stream, Duration::from_secs(2)).await,
        None,
        "closed while idle, after the header timeout but before the idle timeout"
    );
    assert_eq!(healthz_on(&mut stream).await.unwrap(), 200);
    let after = closed_within(&mut stream, PATIENCE)
        .await
        .unwrap_or_else(|| panic!("an idle kept-alive connection stays open"));
    assert!(
        after >= TOO_SOON,
        "closed after {after:?}, before the timeout"
    );
}

#[tokio::test]
async fn connections_past_the_per_address_cap_are_closed_at_once() {
    let app = app(&[
        ("MAX_CONNECTIONS_PER_CLIENT", "4"),
        ("HEADER_READ_TIMEOUT_SECS", "30"),
        ("IDLE_TIMEOUT_SECS", "30"),
    ])
    .await;
    // Four kept-alive connections from 127.0.0.1, each surely accepted: it has answered.
    let mut open = Vec::new();
    for _ in 0..4 {
        let mut stream = connect(&app).await;
        assert_eq!(healthz_on(&mut stream).await.unwrap(), 200);
        open.push(stream);
    }
    // The fifth is closed long before any timeout could close it.
    let mut fifth = connect(&app).await;
    assert!(
        closed_within(&mut fifth, PATIENCE).await.is_some(),
        "a connection past the cap stays open"
    );
    // The open ones still answer.
    for stream in &mut open {
        assert_eq!(healthz_on(stream).await.unwrap(), 200);
    }
    // Once one closes, a new connection is served again.
    drop(open.pop());
    assert!(
        healthz_answers_within(&app, PATIENCE).await,
        "no new connection is served after one closed"
    );
}

#[tokio::test]
async fn a_flood_of_silent_connections_does_not_keep_healthz_from_answering() {
    let cap = 20;
    let app = app(&[
        ("MAX_CONNECTIONS_PER_CLIENT", &cap.to_string()),
        ("HEADER_READ_TIMEOUT_SECS", "1"),
        ("IDLE_TIMEOUT_SECS", "30"),
    ])
    .await;
    let mut silent = Vec::new();
    for _ in 0..cap + 50 {
        silent.push(connect(&app).await);
    }
    let closed = futures::future::join_all(
        silent
            .iter_mut()
            .map(|stream| closed_within(stream, PATIENCE)),
    )
    .await;
    let open = closed.iter().filter(|c| c.is_none()).count();
    assert_eq!(open, 0, "{open} silent connections stay open");
    assert!(
        healthz_answers_within(&app, PATIENCE).await,
        "/healthz does not answer after the flood"
    );
}

/// Past the total cap new connections wait to be accepted until slots free up (here as the
/// silent ones time out), while the connections already open are served.
#[tokio::test]
async fn past_the_total_cap_connections_wait_for_a_free_slot() {
    let app = app(&[
        ("MAX_CONNECTIONS", "8"),
        ("MAX_CONNECTIONS_PER_CLIENT", "0"),
        ("HEADER_READ_TIMEOUT_SECS", "1"),
        ("IDLE_TIMEOUT_SECS", "60"),
    ])
    .await;
    let mut kept = connect(&app).await;
    assert_eq!(healthz_on(&mut kept).await.unwrap(), 200);
    let mut silent = Vec::new();
    for _ in 0..24 {
        silent.push(connect(&app).await);
    }
    // The connection kept alive before the flood is served at the cap.
    assert_eq!(healthz_on(&mut kept).await.unwrap(), 200);
    // A new one is served once the silent ones ahead of it are cut (three rounds of 7).
    let mut fresh = connect(&app).await;
    let answer = tokio::time::timeout(2 * PATIENCE, healthz_on(&mut fresh)).await;
    assert!(
        matches!(answer, Ok(Ok(200))),
        "a new connection past the cap is not served: {answer:?}"
    );
    let closed = futures::future::join_all(
        silent
            .iter_mut()
            .map(|stream| closed_within(stream, PATIENCE)),
    )
    .await;
    let open = closed.iter().filter(|c| c.is_none()).count();
    assert_eq!(open, 0, "{open} silent connections stay open");
}
