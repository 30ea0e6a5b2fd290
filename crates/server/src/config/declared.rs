//! Every setting, declared once: its key, its default, whether it is a secret, whether an
//! operator may change it from the console, and what it means. The loader takes defaults
//! from here, the console's editable list is the `console` ones, and the README's
//! configuration table is [`markdown_table`] (a test fails when the README drifts).

/// Where a setting's value comes from when nothing sets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Initial {
    /// This text, read like a value from the environment.
    Value(&'static str),
    /// Unset: the feature it configures is off, or another rule applies (the meaning says).
    Unset,
    /// Worked out when the configuration is loaded, as this text says.
    Derived(&'static str),
    /// The face engine's own default (`crates/vision/src/config.rs`).
    FaceEngine,
}

/// One setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setting {
    /// Dotted: the TOML section path and key (`search.selfie_ttl_secs`).
    pub key: &'static str,
    pub default: Initial,
    /// Never printed, never shown again in the console once written.
    pub secret: bool,
    /// Operators may change it from the console while the shop runs.
    pub console: bool,
    pub meaning: &'static str,
}

const fn setting(key: &'static str, default: Initial, meaning: &'static str) -> Setting {
    Setting {
        key,
        default,
        secret: false,
        console: false,
        meaning,
    }
}

impl Setting {
    const fn secret(self) -> Self {
        Setting {
            secret: true,
            ..self
        }
    }

    const fn console(self) -> Self {
        Setting {
            console: true,
            ..self
        }
    }

    /// The environment variable that sets it (`RACESHOT__SEARCH__SELFIE_TTL_SECS`).
    pub fn env_name(&self) -> String {
        env_name(self.key)
    }
}

/// The environment variable of a dotted key.
pub fn env_name(key: &str) -> String {
    let parts: Vec<String> = key.split('.').map(str::to_uppercase).collect();
    format!("{}{}", super::ENV_PREFIX, parts.join("__"))
}

use Initial::{Derived, FaceEngine, Unset, Value};

/// Every setting the loader reads, in the README's order.
pub const SETTINGS: &[Setting] = &[
    setting("data_dir", Value("./data"), "where the embedded defaults keep their files"),
    setting("server.addr", Value("127.0.0.1:8080"), "address to listen on"),
    setting("server.public_url", Derived("`http://` + the address"), "base of links the server writes"),
    setting("server.web_dir", Value("web/dist"), "the built web app; every address outside the API gets its `index.html`"),
    setting("server.request_timeout_secs", Value("30"), "a request running longer is answered 408"),
    setting("server.header_read_timeout_secs", Value("10"), "a connection that has not sent a whole request head within this many seconds of opening, or of starting its next request, is closed"),
    setting("server.idle_timeout_secs", Value("60"), "a kept-alive connection with no new request within this many seconds is closed"),
    setting("server.max_connections_per_client", Value("128"), "open connections from one client address (an IPv6 /64; 0: no limit); past it new ones are closed at once: carrier-grade NAT puts many phones behind one address, each browser opening up to 6, so 128 leaves room for about twenty; peers in `server.trusted_proxies` are exempt"),
    setting("server.max_connections", Derived("half the open-file limit left after 3 per database connection and 256 for files and outgoing connections"), "open connections from all clients; past it new ones wait in the system's queue until one closes (never more than the open-file limit leaves room for)"),
    setting("server.shutdown_grace_secs", Value("20"), "how long SIGTERM waits for requests and jobs in flight"),
    setting("server.metrics_addr", Unset, "internal address serving Prometheus `/metrics` (e.g. `127.0.0.1:9090`); without it metrics are not served (never on the public address)"),
    setting("server.catalogue_ttl_ms", Value("1000"), "how long the in-memory catalogue (events, tiers, banners) is served before it is reloaded: changes made by another process show within this"),
    setting("server.trusted_proxies", Value(""), "comma-separated proxy addresses whose `X-Forwarded-For` names the client; otherwise the connection's address is the client"),
    setting("database.url", Derived("`sqlite://{data_dir}/raceshot.db`"), "`sqlite:…` or `postgres://…`"),
    setting("database.max_connections", Value("10"), "connection pool size"),
    setting("database.acquire_timeout_secs", Value("10"), "wait for a connection (and for SQLite's lock)"),
    setting("database.auto_migrate", Value("true"), "apply migrations when a command starts"),
    setting("storage.root", Derived("`{data_dir}/objects`"), "photo files, when no bucket is set"),
    setting("storage.bucket", Unset, "S3 bucket; setting it switches to S3-compatible storage"),
    setting("storage.endpoint", Derived("AWS"), "S3-compatible endpoint, e.g. `http://127.0.0.1:9000`"),
    setting("storage.region", Value("us-east-1"), "S3 region"),
    setting("storage.access_key_id", Unset, "S3 key id"),
    setting("storage.secret_access_key", Unset, "S3 secret").secret(),
    setting("storage.path_style", Value("false"), "path-style S3 addresses (most self-hosted servers)"),
    setting("storage.public_url", Derived("`{public_url}/media`"), "base of preview and thumbnail addresses (a CDN)"),
    setting("api.client_token", Value("demo-client-token"), "the fixed token the web app sends").secret(),
    setting("log.format", Value("text"), "`text` or `json` (one object per line)"),
    setting("log.filter", Value("info,sqlx=warn"), "tracing filter; `RUST_LOG` overrides it"),
    setting("jobs.workers", Derived("number of cores + 1"), "photo-processing jobs run at once per process"),
    setting("jobs.max_attempts", Value("5"), "attempts before a job is given up (its last error kept)"),
    setting("jobs.lease_secs", Value("300"), "after this, a job whose worker died is taken over"),
    setting("jobs.poll_interval_ms", Value("250"), "how often idle workers look for jobs"),
    setting("search.max_concurrent", Derived("number of cores"), "selfies analysed at once"),
    setting("search.max_waiting", Value("64"), "searches that may wait for a slot; past that, 503 `busy` with `Retry-After`"),
    setting("search.per_client_per_minute", Value("60"), "face searches, results searches and quotes naming a certificate's bib, per client address and minute (0: no limit); past it, 429 `rate_limited`"),
    setting("search.selfie_ttl_secs", Value("60"), "the longest a selfie upload address, and a selfie uploaded but never searched, lives; a sweep every 5 s deletes it (on local storage and S3, from any process)"),
    setting("search.found_ttl_secs", Value("7200"), "how long the photos a face, bib or group search found may be bought with the all-photos deal; the record (photo ids only) is deleted by the sweep after it"),
    setting("search.sign_per_client_per_minute", Value("30"), "selfie upload addresses per client address and minute"),
    setting("search.arrivals_per_client_per_minute", Value("120"), "questions \"new photos since I searched?\" per client address and minute (an event page asks once a minute; 0: no limit); past it, 429 `rate_limited`"),
    setting("search.max_pending_uploads", Value("3"), "upload addresses one client may hold unsearched at once (429 past it)"),
    setting("search.index_memory_mb", Value("1024"), "memory the face indexes of one process may hold; past it the least recently searched events' indexes are dropped and reloaded by their next search (`face_index_resident_bytes` in the metrics)"),
    setting("search.index_snapshot_faces", Value("20000"), "faces that arrive at an event after its face index was last written out as a snapshot (`_shop/face-index/`) before the process holding the index writes another; a first search reads the snapshot and the faces after it instead of every face (0: no snapshots)"),
    setting("bibs.read", Value("true"), "read bib numbers on photos at ingestion (the text models in `{faces.models_dir}/ocr`); `raceshot bibs --event KEY` reads an event's photos again"),
    setting("bibs.min_confidence", Value("0.8"), "the least confidence (0 to 1) of a bib read that is kept"),
    setting("privacy.per_client_per_minute", Value("2"), "requests to hide one's photos per client address and minute (0: no limit); past it, 429 `rate_limited`"),
    setting("alerts.days", Value("30"), "the longest a \"tell me when new photos of me arrive\" alert (and its face template) lives; it ends sooner when the event's sale ends or the runner stops it").console(),
    setting("alerts.per_client_per_minute", Value("3"), "alerts asked for, and their codes tried, per client address and minute (0: no limit); past it, 429 `rate_limited`"),
    setting("certificates.fonts_dir", Value("/usr/share/fonts/truetype/tlwg"), "the folder of TrueType/OpenType fonts certificates (and SVG sponsor frames) are set in (Debian's `fonts-thai-tlwg`: Thai and Latin letters, GPL with the font exception, so they may be embedded in the files the shop gives out); a template may name any family in it"),
    setting("certificates.font_family", Value("Laksaman"), "the family a certificate template's text is set in where it names none (or one the folder lacks)"),
    setting("certificates.per_client_per_minute", Value("20"), "certificates drawn or downloaded per client address and minute (0: no limit); past it, 429 `rate_limited`"),
    setting("payments.gateway", Value("SANDBOX"), "`GBP` (GB Prime Pay QR), `OPN` (OPN Payments: cards and PromptPay), `PROMPTPAY` (the shop's own PromptPay id, slips checked by an operator) or `SANDBOX` (no money moves)").console(),
    setting("payments.allow_sandbox", Value("false"), "`serve` refuses `SANDBOX` unless this is `true` (`make run` sets it)"),
    setting("payments.promptpay_id", Unset, "the shop's PromptPay mobile number, tax id or e-wallet id (`PROMPTPAY`)").console(),
    setting("payments.gbp.token", Unset, "GB Prime Pay token (`GBP`)").secret().console(),
    setting("payments.gbp.secret_key", Unset, "GB Prime Pay secret key (`GBP`)").secret().console(),
    setting("payments.gbp.base_url", Value(raceshot_payments::gbp::PRODUCTION_BASE_URL), "GB Prime Pay's API"),
    setting("payments.opn.public_key", Unset, "OPN public key, given to the browser for card tokens (`OPN`)").console(),
    setting("payments.opn.secret_key", Unset, "OPN secret key (`OPN`)").secret().console(),
    setting("payments.opn.webhook_secret", Unset, "required with `OPN`: webhooks are accepted only with a valid `Omise-Signature` made within 5 minutes of the server's clock").secret().console(),
    setting("payments.opn.base_url", Value(raceshot_payments::opn::BASE_URL), "OPN's API"),
    setting("payments.qr_ttl_minutes", Value("15"), "an unpaid PromptPay order expires after this"),
    setting("payments.card_ttl_minutes", Value("60"), "an unpaid card order expires after this"),
    setting("payments.approval_ttl_hours", Value("72"), "an all-photos request (AM) not approved within this expires"),
    setting("payments.gateway_timeout_secs", Value("15"), "longest call to a gateway; past it, 504 `payment_gateway_timeout`"),
    setting("orders.dedupe_window_secs", Value("60"), "the same order request within this returns the first order"),
    setting("orders.retention_days", Value("35"), "originals and logo copies are deleted this many days after the event").console(),
    setting("orders.download_link_ttl_hours", Value("24"), "how long a signed download address works"),
    setting("orders.find_per_client_per_minute", Value("10"), "find-order searches per client address and minute"),
    setting("orders.create_per_client_per_minute", Value("20"), "orders per client address and minute"),
    setting("orders.wrong_pass_codes_per_client_per_minute", Value("5"), "photo-pass codes that match no pass of the event, per client address and minute (0: no limit); past it, every code from that address is refused with 429 `rate_limited` until the bucket refills, right ones included"),
    setting("ftp.addr", Unset, "address of the FTP server for cameras (e.g. `0.0.0.0:2121`), inside `raceshot serve`; without it there is none. Login: the account's e-mail and an upload token"),
    setting("ftp.passive_ports", Value("50000-50100"), "the ports of passive data connections, `FIRST-LAST`"),
    setting("ftp.tls_cert", Unset, "PEM certificate chain for explicit FTPS (`AUTH TLS`), with `ftp.tls_key`"),
    setting("ftp.tls_key", Unset, "PEM private key for FTPS").secret(),
    setting("admin.session_ttl_hours", Value("12"), "how long a console sign-in lasts"),
    setting("admin.max_failed_logins", Value("5"), "failed sign-ins before an account locks"),
    setting("admin.lockout_secs", Value("60"), "the first lock, doubling with each further failure (at most an hour)"),
    setting("admin.login_per_client_per_minute", Value("20"), "sign-in attempts per client address and minute (429 past it)"),
    setting("notify.smtp.host", Unset, "SMTP server for order e-mails; without it e-mails are only logged (and not counted as sent)").console(),
    setting("notify.smtp.port", Value("587"), "SMTP port").console(),
    setting("notify.smtp.from", Unset, "sender of order e-mails (with `notify.smtp.host`)").console(),
    setting("notify.smtp.username", Unset, "SMTP login").console(),
    setting("notify.smtp.password", Unset, "SMTP password").secret().console(),
    setting("notify.smtp.tls", Value("starttls"), "`starttls`, `tls` or `none`").console(),
    setting("notify.smtp.timeout_secs", Value("20"), "longest SMTP conversation"),
    setting("sms.provider", Unset, "`thaibulksms` (ThaiBulkSMS's HTTP API): order links when ready and privacy decisions are texted, and find-order codes go by SMS to orders without a delivered e-mail; without it SMS are only logged (and not counted as sent)").console(),
    setting("sms.api_base", Value(crate::infra::channels::sms::THAIBULKSMS_API_BASE), "the SMS provider's API"),
    setting("sms.key", Unset, "the provider's API key (with `sms.provider`)").secret().console(),
    setting("sms.secret", Unset, "the provider's API secret (with `sms.provider`)").secret().console(),
    setting("sms.sender", Unset, "the sender name registered with the provider; without it, the account's default").console(),
    setting("sms.timeout_secs", Value("15"), "longest call to the SMS provider"),
    setting("line.login_channel_id", Unset, "the LINE Login channel's id: with the secret and the access token, \"Send to my LINE\" links orders to runners' LINE accounts").console(),
    setting("line.login_channel_secret", Unset, "the LINE Login channel's secret (signs its ID tokens)").secret().console(),
    setting("line.channel_access_token", Unset, "the Messaging API channel's long-lived access token (of the shop's Official Account, under the same provider as the login channel)").secret().console(),
    setting("line.access_base", Value(crate::infra::channels::line::LINE_ACCESS_BASE), "LINE Login's authorization host"),
    setting("line.api_base", Value(crate::infra::channels::line::LINE_API_BASE), "LINE's API host"),
    setting("line.timeout_secs", Value("15"), "longest call to LINE"),
    setting("line.per_client_per_minute", Value("20"), "LINE logins one client address may start or finish per minute (0: no limit); past it, 429 `rate_limited`"),
    setting("messages.daily_cap.email", Value("0"), "e-mails sent per day at most (Bangkok calendar; 0: no cap)").console(),
    setting("messages.daily_cap.sms", Value("1000"), "text messages sent per day at most (each costs money; 0: no cap)").console(),
    setting("messages.daily_cap.line", Value("1000"), "LINE messages pushed per day at most (past the plan's free messages each costs money; 0: no cap)").console(),
    setting("faces.models_dir", FaceEngine, "face models, ONNX Runtime and OpenVINO (`make models` fills it)"),
    setting("faces.model_pair", FaceEngine, "the face detector and recogniser, chosen together: `insightface` (the default; SCRFD-500M + w600k_mbf, non-commercial research use only) or `yunet-sface` (OpenCV Zoo's YuNet, MIT, + SFace, Apache-2.0; commercial use allowed): the pair of new events; an event keeps the pair that made its faces until `raceshot faces reindex --event KEY` moves it"),
    setting("faces.runtime", FaceEngine, "what runs the face and bib models: `openvino` or `onnxruntime`"),
    setting("faces.openvino_library", Derived("`{models_dir}/openvino/libopenvino_c.so`"), "OpenVINO's C library"),
    setting("faces.openvino_precision", FaceEngine, "`auto`: bf16 on CPUs that compute it natively, else f32; `f32`: always f32"),
    setting("faces.runtime_library", Derived("`{models_dir}/libonnxruntime.so`"), "ONNX Runtime's shared library"),
    setting("faces.intra_threads", FaceEngine, "threads per inference"),
    setting("faces.inter_threads", FaceEngine, "threads across a model's operators"),
    setting("faces.sessions", FaceEngine, "sessions per model (0: one per core): detections and embeddings run at once"),
    setting("faces.detector.path", Derived("the pair's, in `models_dir`"), "the detector (SCRFD or YuNet, as the pair says)"),
    setting("faces.detector.long_edge", FaceEngine, "long edge event photos are detected at"),
    setting("faces.detector.selfie_long_edge", FaceEngine, "long edge selfies are detected at"),
    setting("faces.detector.coarse_long_edge", FaceEngine, "long edge of the second, coarse pass for close-ups (0: none)"),
    setting("faces.detector.fine_long_edge", FaceEngine, "long edge of the fine pass for the small faces of large photos (0: none)"),
    setting("faces.detector.with_fine_long_edge", FaceEngine, "long edge of the main pass on photos that get the fine pass (at most `long_edge`)"),
    setting("faces.detector.max_upscale", FaceEngine, "most a small image is enlarged towards the long edge"),
    setting("faces.detector.score_threshold", FaceEngine, "least detection score"),
    setting("faces.detector.nms_iou", FaceEngine, "overlap above which two detections are one face"),
    setting("faces.detector.mean", Derived("the pair's"), "input normalisation: mean"),
    setting("faces.detector.std", Derived("the pair's"), "input normalisation: standard deviation"),
    setting("faces.recognizer.path", Derived("the pair's, in `models_dir`"), "the recogniser (w600k_mbf or SFace, as the pair says)"),
    setting("faces.recognizer.input_size", FaceEngine, "the recogniser's square input, in pixels"),
    setting("faces.recognizer.mean", Derived("the pair's"), "input normalisation: mean"),
    setting("faces.recognizer.std", Derived("the pair's"), "input normalisation: standard deviation"),
    setting("faces.recognizer.embedding_dim", Derived("the pair's"), "length of an embedding"),
    setting("faces.recognizer.prelu_as_max", FaceEngine, "on ONNX Runtime, run each PReLU as max(x, slope x): the same embeddings, faster (false: the file as it is)"),
    setting("faces.quality.min_face_px", FaceEngine, "smallest face that is indexed (shorter side, in the decoded photo's pixels)"),
    setting("faces.quality.min_score", Derived("the pair's: 0.5 (SCRFD), 0.7 (YuNet)"), "least detection score of an indexed face"),
];

/// The declaration of a key.
pub fn find(key: &str) -> Option<&'static Setting> {
    SETTINGS.iter().find(|s| s.key == key)
}

/// The settings operators may change from the console.
pub fn console_settings() -> impl Iterator<Item = &'static Setting> {
    SETTINGS.iter().filter(|s| s.console)
}

/// The README's configuration table.
pub fn markdown_table() -> String {
    let mut out = String::from("| environment variable | default | meaning |\n|---|---|---|\n");
    for s in SETTINGS {
        let default = match s.default {
            Value("") | Unset => "—".to_owned(),
            Value(text) => format!("`{text}`"),
            Derived(text) => text.to_owned(),
            FaceEngine => "engine default".to_owned(),
        };
        let mut marks = Vec::new();
        if s.secret {
            marks.push("secret");
        }
        if s.console {
            marks.push("console");
        }
        let marks = if marks.is_empty() {
            String::new()
        } else {
            format!(" ({})", marks.join(", "))
        };
        out.push_str(&format!(
            "| `{}` | {default} | {}{marks} |\n",
            s.env_name(),
            s.meaning
        ));
    }
    out
}
