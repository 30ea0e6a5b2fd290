//! A minimal SMTP server for tests: listens on 127.0.0.1 (a free port), speaks just
//! enough SMTP for a real client (EHLO/HELO, MAIL FROM, RCPT TO, DATA with dot-unstuffing,
//! RSET, NOOP, QUIT) and keeps every accepted message. It can refuse the next message to
//! test how the sender copes. It stops when dropped. [`parse`] reads a kept message as a
//! mail client does: unfolded headers, transfer encoding undone.

use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::{JoinHandle, JoinSet};

/// One accepted message: the envelope and the content as sent after `DATA`, with CRLF line
/// ends and the dot-stuffing undone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceivedMail {
    pub from: String,
    pub to: Vec<String>,
    pub data: String,
}

pub struct SmtpSink {
    port: u16,
    state: Arc<SinkState>,
    task: JoinHandle<()>,
}

struct SinkState {
    messages: Mutex<Vec<ReceivedMail>>,
    /// How many messages were accepted, for waiting.
    count: watch::Sender<usize>,
    /// The reply code for the next message's end of `DATA`; 0 to accept.
    fail_next: AtomicU16,
}

impl SmtpSink {
    pub async fn start() -> SmtpSink {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let state = Arc::new(SinkState {
            messages: Mutex::new(Vec::new()),
            count: watch::Sender::new(0),
            fail_next: AtomicU16::new(0),
        });
        let task = tokio::spawn(accept(listener, state.clone()));
        SmtpSink { port, state, task }
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The messages accepted so far.
    pub fn messages(&self) -> Vec<ReceivedMail> {
        self.state.messages.lock().unwrap().clone()
    }

    /// Waits until `n` messages were accepted, and returns them all; panics after
    /// `timeout`.
    pub async fn wait_for(&self, n: usize, timeout: Duration) -> Vec<ReceivedMail> {
        let mut count = self.state.count.subscribe();
        if tokio::time::timeout(timeout, count.wait_for(|c| *c >= n))
            .await
            .is_err()
        {
            panic!(
                "waited {timeout:?} for {n} mails, got {:?}",
                self.messages()
            );
        }
        self.messages()
    }

    /// Answers the next message's end of `DATA` with `code` (a 4xx or 5xx) and drops it.
    pub fn fail_next(&self, code: u16) {
        assert!((400..600).contains(&code), "{code} is not a failure");
        self.state.fail_next.store(code, Ordering::SeqCst);
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        // The connections live in the accept task's JoinSet and stop with it.
        self.task.abort();
    }
}

async fn accept(listener: TcpListener, state: Arc<SinkState>) {
    let mut connections = JoinSet::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                if let Ok((socket, _)) = accepted {
                    connections.spawn(serve(socket, state.clone()));
                }
            }
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
}

/// The envelope of the message being received.
#[derive(Default)]
struct Transaction {
    from: Option<String>,
    to: Vec<String>,
}

async fn serve(socket: TcpStream, state: Arc<SinkState>) -> std::io::Result<()> {
    let (read, mut write) = socket.into_split();
    let mut lines = BufReader::new(read);
    write.write_all(b"220 sink.test ESMTP ready\r\n").await?;
    let mut tx = Transaction::default();
    let mut line = String::new();
    loop {
        line.clear();
        if lines.read_line(&mut line).await? == 0 {
            return Ok(());
        }
        let command = line.trim_end_matches(['\r', '\n']);
        let (verb, argument) = command.split_once(' ').unwrap_or((command, ""));
        let reply: &[u8] = match verb.to_ascii_uppercase().as_str() {
            "EHLO" => {
                tx = Transaction::default();
                b"250-sink.test\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n"
            }
            "HELO" => {
                tx = Transaction::default();
                b"250 sink.test\r\n"
            }
            "MAIL" => match path(argument, "FROM:") {
                Some(from) => {
                    tx = Transaction {
                        from: Some(from),
                        to: Vec::new(),
                    };
                    b"250 2.1.0 OK\r\n"
                }
                None => b"501 5.5.4 syntax: MAIL FROM:<address>\r\n",
            },
            "RCPT" => match (&tx.from, path(argument, "TO:")) {
                (None, _) => b"503 5.5.1 MAIL first\r\n",
                (Some(_), Some(to)) => {
                    tx.to.push(to);
                    b"250 2.1.5 OK\r\n"
                }
                (Some(_), None) => b"501 5.5.4 syntax: RCPT TO:<address>\r\n",
            },
            "DATA" if tx.to.is_empty() => b"503 5.5.1 RCPT first\r\n",
            "DATA" => {
                write
                    .write_all(b"354 end data with <CR><LF>.<CR><LF>\r\n")
                    .await?;
                let Some(data) = read_data(&mut lines).await? else {
                    return Ok(());
                };
                let from = tx.from.take().unwrap_or_default();
                let to = std::mem::take(&mut tx.to);
                match state.fail_next.swap(0, Ordering::SeqCst) {
                    0 => {
                        let mut messages = state.messages.lock().unwrap();
                        messages.push(ReceivedMail { from, to, data });
                        state.count.send_replace(messages.len());
                        b"250 2.0.0 OK queued\r\n"
                    }
                    code => {
                        let reply = format!("{code} sink refuses this message\r\n");
                        write.write_all(reply.as_bytes()).await?;
                        continue;
                    }
                }
            }
            "RSET" => {
                tx = Transaction::default();
                b"250 2.0.0 OK\r\n"
            }
            "NOOP" => b"250 2.0.0 OK\r\n",
            "QUIT" => {
                write.write_all(b"221 2.0.0 bye\r\n").await?;
                return Ok(());
            }
            _ => b"500 5.5.2 command not recognised\r\n",
        };
        write.write_all(reply).await?;
    }
}

/// `FROM:<a@b> BODY=8BITMIME` → `a@b` (the prefix is matched ignoring case).
fn path(argument: &str, prefix: &str) -> Option<String> {
    let argument = argument.trim_start();
    if !argument
        .get(..prefix.len())
        .is_some_and(|p| p.eq_ignore_ascii_case(prefix))
    {
        return None;
    }
    let rest = argument[prefix.len()..].trim_start();
    let inner = rest.strip_prefix('<')?;
    let end = inner.find('>')?;
    Some(inner[..end].to_owned())
}

/// The lines after `354` up to the lone dot, with dot-stuffing undone; `None` if the
/// client hung up first.
async fn read_data<R: tokio::io::AsyncBufRead + Unpin>(
    lines: &mut R,
) -> std::io::Result<Option<String>> {
    let mut data = String::new();
    let mut line = String::new();
    loop {
        line.clear();
        if lines.read_line(&mut line).await? == 0 {
            return Ok(None);
        }
        let content = line.trim_end_matches(['\r', '\n']);
        if content == "." {
            return Ok(Some(data));
        }
        data.push_str(content.strip_prefix('.').unwrap_or(content));
        data.push_str("\r\n");
    }
}

/// A received message split into unfolded headers and the decoded text body.
pub struct Parsed {
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Parsed {
    pub fn header(&self, name: &str) -> &str {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("no {name} header in {:?}", self.headers))
    }
}

pub fn parse(data: &str) -> Parsed {
    let (head, body) = data.split_once("\r\n\r\n").expect("headers end");
    let mut headers: Vec<(String, String)> = Vec::new();
    for line in head.split("\r\n") {
        if line.starts_with([' ', '\t']) {
            let last = headers.last_mut().expect("a header to continue");
            last.1.push_str(line);
        } else {
            let (name, value) = line.split_once(':').expect("name: value");
            headers.push((name.to_owned(), value.trim_start().to_owned()));
        }
    }
    let encoding = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("Content-Transfer-Encoding"))
        .map(|(_, v)| v.trim().to_ascii_lowercase())
        .unwrap_or_else(|| "7bit".to_owned());
    let bytes = match encoding.as_str() {
        "base64" => base64::engine::general_purpose::STANDARD
            .decode(body.split_whitespace().collect::<String>())
            .expect("base64 body"),
        "quoted-printable" => quoted_printable(body, false),
        "7bit" | "8bit" => body.as_bytes().to_vec(),
        other => panic!("unexpected transfer encoding {other}"),
    };
    Parsed {
        headers,
        body: String::from_utf8(bytes).expect("utf-8 body"),
    }
}

/// Quoted-printable (RFC 2045), or with `underscores` the Q encoding of RFC 2047 words.
fn quoted_printable(text: &str, underscores: bool) -> Vec<u8> {
    let text = text.replace("=\r\n", "");
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'=' => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap();
                out.push(u8::from_str_radix(hex, 16).expect("=XX"));
                i += 3;
            }
            b'_' if underscores => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    out
}

/// A header value with its RFC 2047 encoded words (`=?utf-8?b?…?=`, `=?utf-8?q?…?=`)
/// decoded; the white space between two encoded words is dropped, and adjacent words are
/// joined as bytes (a character may be split between them).
pub fn decode_header(value: &str) -> String {
    let mut out: Vec<u8> = Vec::new();
    let mut rest = value;
    let mut after_word = false;
    while !rest.is_empty() {
        let start = rest.find("=?");
        let word = start.and_then(|s| {
            let inner = &rest[s + 2..];
            let (charset, inner) = inner.split_once('?')?;
            let (encoding, inner) = inner.split_once('?')?;
            let end = inner.find("?=")?;
            Some((s, charset, encoding, &inner[..end], &inner[end + 2..]))
        });
        let Some((s, charset, encoding, text, next)) = word else {
            out.extend_from_slice(rest.as_bytes());
            break;
        };
        let between = &rest[..s];
        if !(after_word && between.trim().is_empty()) {
            out.extend_from_slice(between.as_bytes());
        }
        assert!(charset.eq_ignore_ascii_case("utf-8"), "{charset}");
        match encoding.to_ascii_lowercase().as_str() {
            "b" => out.extend(
                base64::engine::general_purpose::STANDARD
                    .decode(text)
                    .expect("base64 word"),
            ),
            "q" => out.extend(quoted_printable(text, true)),
            other => panic!("unknown word encoding {other}"),
        }
        after_word = true;
        rest = next;
    }
    String::from_utf8(out).expect("utf-8 header")
}
