//! The one typed configuration, loaded once at start-up: built-in defaults, then an
//! optional TOML file (`--config FILE`), then `RACESHOT__SECTION__KEY` environment
//! variables. Every problem is collected and reported at once; secrets never print.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use raceshot_payments::GatewayKind;
use raceshot_payments::promptpay::PromptPayId;
use raceshot_store::{Backend, DatabaseSettings, StorageSettings};
use raceshot_vision::FaceEngineConfig;
use serde::de::DeserializeOwned;

use crate::infra::channels::ChannelKind;
use crate::infra::channels::email::{SmtpSettings, SmtpTls};
use crate::infra::channels::line::LineSettings;
use crate::infra::channels::sms::SmsSettings;

mod declared;
pub use declared::{Initial, SETTINGS, Setting, console_settings, markdown_table};

const ENV_PREFIX: &str = "RACESHOT__";

#[derive(Debug, Clone)]
pub struct Config {
    pub data_dir: PathBuf,
    pub server: ServerConfig,
    pub database: DatabaseConfig,
    pub storage: StorageConfig,
    pub api: ApiConfig,
    pub log: LogConfig,
    pub faces: FaceEngineConfig,
    pub jobs: JobsConfig,
    pub search: SearchConfig,
    pub bibs: BibsConfig,
    pub privacy: PrivacyConfig,
    pub alerts: AlertsConfig,
    pub certificates: CertificatesConfig,
    pub payments: PaymentsConfig,
    pub orders: OrdersConfig,
    pub notify: NotifyConfig,
    pub admin: AdminConfig,
    pub ftp: FtpConfig,
    /// What this configuration was read from, so that operators' settings can be laid
    /// over it (`with_overrides`).
    sources: std::sync::Arc<BaseSources>,
}

/// The file text and `RACESHOT__` variables a configuration came from.
#[derive(Clone, Default)]
struct BaseSources {
    file: Option<(String, String)>,
    env: Vec<(String, String)>,
}

/// Never printed: the sources hold secrets.
impl fmt::Debug for BaseSources {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BaseSources { .. }")
    }
}

/// The operator console's sign-in rules.
/// The FTP server for cameras (`crate::ftp`).
#[derive(Debug, Clone)]
pub struct FtpConfig {
    /// Off when `None`.
    pub addr: Option<SocketAddr>,
    pub passive_ports: std::ops::RangeInclusive<u16>,
    /// Explicit FTPS: the certificate chain and key files.
    pub tls: Option<(PathBuf, PathBuf)>,
}

#[derive(Debug, Clone)]
pub struct AdminConfig {
    /// How long a sign-in lasts.
    pub session_ttl: Duration,
    /// Failed sign-ins allowed before the account locks.
    pub max_failed_logins: u32,
    /// The first lock's length; each further failure doubles it, up to an hour.
    pub lockout: Duration,
    /// Sign-in attempts per client address and minute, whatever the account.
    pub login_per_client_per_minute: u32,
}

/// Which payment gateway takes the shop's payments, with its credentials.
#[derive(Debug, Clone)]
pub struct PaymentsConfig {
    pub gateway: GatewayKind,
    /// `SANDBOX` takes no real money; `serve` refuses it unless this is set.
    pub allow_sandbox: bool,
    /// How long a PromptPay QR may be paid before its order expires.
    pub qr_ttl: Duration,
    /// How long a card order may wait for its payment.
    pub card_ttl: Duration,
    /// How long an all-photos request (AM) waits for an operator's approval.
    pub approval_ttl: Duration,
    /// The longest a call to a gateway may take.
    pub gateway_timeout: Duration,
    /// The shop's own PromptPay id (mobile, tax id or e-wallet) for `PROMPTPAY`.
    pub promptpay_id: Option<PromptPayId>,
    pub gbp: GbpConfig,
    pub opn: OpnConfig,
}

#[derive(Debug, Clone)]
pub struct GbpConfig {
    pub base_url: String,
    pub token: Option<Secret>,
    pub secret_key: Option<Secret>,
}

#[derive(Debug, Clone)]
pub struct OpnConfig {
    pub base_url: String,
    /// Given to the browser, which turns card details into a token with it.
    pub public_key: Option<String>,
    pub secret_key: Option<Secret>,
    /// When set, webhooks must carry a valid `Omise-Signature`.
    pub webhook_secret: Option<Secret>,
}

#[derive(Debug, Clone)]
pub struct OrdersConfig {
    /// The same order request within this window returns the first order.
    pub dedupe_window: Duration,
    /// Originals and logo copies are deleted this many days after the event's date.
    pub retention_days: u32,
    /// How long a signed download address works.
    pub download_link_ttl: Duration,
    /// Find-order searches one client address may make per minute (0: no limit).
    pub find_per_client_per_minute: u32,
    /// Orders one client address may create per minute (0: no limit).
    pub create_per_client_per_minute: u32,
    /// Wrong photo-pass codes one client address may try per minute (0: no limit).
    pub wrong_pass_codes_per_client_per_minute: u32,
}

/// How the shop tells a buyer that their photos are ready.
#[derive(Debug, Clone)]
pub struct NotifyConfig {
    /// `None`: e-mails are written to the log only.
    pub smtp: Option<SmtpSettings>,
    /// `None`: text messages are written to the log only.
    pub sms: Option<SmsSettings>,
    /// `None`: no "Send to my LINE", and LINE messages are written to the log only.
    pub line: Option<LineSettings>,
    /// Messages each channel sends per day at most (0: no cap).
    pub daily_caps: DailyCaps,
    /// LINE logins one client address may start or finish per minute (0: no limit).
    pub line_per_client_per_minute: u32,
}

/// Messages each channel sends per day at most, counted from midnight in Bangkok (0: no
/// cap): text and LINE messages cost money each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DailyCaps {
    pub email: u32,
    pub sms: u32,
    pub line: u32,
}

impl DailyCaps {
    pub fn of(self, channel: ChannelKind) -> u32 {
        match channel {
            ChannelKind::Email => self.email,
            ChannelKind::Sms => self.sms,
            ChannelKind::Line => self.line,
        }
    }
}

#[derive(Debug, Clone)]
pub struct SearchConfig {
    /// Selfies analysed at once; more wait.
    pub max_concurrent: usize,
    /// Searches allowed to wait for a slot; past that the answer is 503 `busy`.
    pub max_waiting: usize,
    /// Face searches one client address may make per minute (0: no limit).
    pub per_client_per_minute: u32,
    /// The longest a selfie upload address, and a selfie uploaded but never searched,
    /// lives; the sweep that deletes it runs every 5 seconds.
    pub selfie_ttl: Duration,
    /// Selfie upload addresses one client address may ask for per minute (0: no limit).
    pub sign_per_client_per_minute: u32,
    /// "New photos since I searched?" questions per client address and minute (0: no
    /// limit).
    pub arrivals_per_client_per_minute: u32,
    /// Live upload addresses one client address may hold at once.
    pub max_pending_uploads: u32,
    /// How long what a search found may be bought with the all-photos deal
    /// (`commerce::deal`).
    pub found_ttl: Duration,
    /// Bytes the face indexes of this process may hold; past it, the least recently
    /// searched events' indexes are dropped (and reloaded by their next search).
    pub index_memory: usize,
    /// Faces that arrive at an event after its face index's last snapshot before another
    /// is written (0: none is written).
    pub index_snapshot_faces: usize,
}

/// Runners' requests to hide their photos (`crate::services::privacy`).
#[derive(Debug, Clone)]
pub struct PrivacyConfig {
    /// Requests one client address may file per minute (0: no limit).
    pub per_client_per_minute: u32,
}

/// "Tell me when new photos of me arrive" (`crate::services::alerts`).
#[derive(Debug, Clone)]
pub struct AlertsConfig {
    /// The longest an alert lives, in days.
    pub days: u32,
    /// Alerts asked for and codes tried per client address and minute (0: no limit).
    pub per_client_per_minute: u32,
}

/// Finisher certificates (`crate::services::certificates`).
#[derive(Debug, Clone)]
pub struct CertificatesConfig {
    /// The fonts templates are set in.
    pub fonts_dir: PathBuf,
    /// The family of text that names none.
    pub font_family: String,
    /// Certificates per client address and minute (0: no limit).
    pub per_client_per_minute: u32,
}

/// Bib numbers read off photos (`crate::services::bibs`).
#[derive(Debug, Clone)]
pub struct BibsConfig {
    /// Whether ingestion reads bibs (the text models in `{faces.models_dir}/ocr`).
    pub read: bool,
    /// The least confidence (0–1) of a read that is kept.
    pub min_confidence: f32,
}

#[derive(Debug, Clone)]
pub struct JobsConfig {
    /// Photo-processing jobs run at once in this process (`serve` or `worker`): one more
    /// than the cores by default.
    pub workers: usize,
    /// Attempts before a job is given up, its last error kept.
    pub max_attempts: u32,
    /// How long a claimed job is a worker's before another may take it over.
    pub lease: Duration,
    /// How often an idle worker looks for new jobs.
    pub poll_interval: Duration,
}

#[derive(Debug, Clone)]
pub struct ServerConfig {
    pub addr: SocketAddr,
    /// Base of every link the server writes; `None` means `http://` + the bound address.
    pub public_url: Option<String>,
    pub request_timeout: Duration,
    /// How long shutdown waits for requests in flight.
    pub shutdown_grace: Duration,
    /// How long a connection may take to send a whole request head (from opening, or
    /// from the first byte of its next request).
    pub header_read_timeout: Duration,
    /// How long a kept-alive connection may wait for its next request.
    pub idle_timeout: Duration,
    /// Open connections per client address; 0: no cap per address.
    pub max_connections_per_client: usize,
    /// Open connections in all; `None`: sized from the open-file limit when serving starts.
    pub max_connections: Option<usize>,
    /// How stale the in-memory catalogue may get before it is reloaded.
    pub catalogue_ttl: Duration,
    /// Proxies whose `X-Forwarded-For` is believed when finding a client's address.
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// The built web app (`web/dist`), served for every address that is not the API's.
    pub web_dir: PathBuf,
    /// The internal address that serves `/metrics`; `None`: metrics are not served.
    pub metrics_addr: Option<SocketAddr>,
}

#[derive(Debug, Clone)]
pub struct DatabaseConfig {
    pub url: String,
    pub max_connections: u32,
    pub acquire_timeout: Duration,
    /// Apply pending migrations when `serve` starts.
    pub auto_migrate: bool,
}

#[derive(Debug, Clone)]
pub struct StorageConfig {
    pub settings: StorageSettings,
    /// Base address of previews and thumbnails when a CDN or public bucket serves them;
    /// `None` means this server's `/media`.
    pub public_url: Option<String>,
}

#[derive(Debug, Clone)]
pub struct ApiConfig {
    /// The fixed token the shop's web app sends with every call (docs/shop-contract.md,
    /// Visitors and roles).
    pub client_token: Secret,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Debug, Clone)]
pub struct LogConfig {
    pub format: LogFormat,
    pub filter: String,
}

/// A value that must never reach a log or an error message.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Secret(value.into())
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
}

/// Everything wrong with a configuration, one line each.
#[derive(Debug, thiserror::Error)]
#[error("invalid configuration:\n  - {}", .problems.join("\n  - "))]
pub struct ConfigError {
    pub problems: Vec<String>,
    /// The setting each problem is about, where it is about one.
    keys: Vec<Option<String>>,
}

impl ConfigError {
    fn one(problem: String) -> Self {
        ConfigError {
            problems: vec![problem],
            keys: vec![None],
        }
    }

    /// Each problem with the setting it is about (`""` for the file as a whole).
    pub fn by_key(&self) -> impl Iterator<Item = (&str, &str)> {
        self.keys
            .iter()
            .zip(&self.problems)
            .map(|(key, problem)| (key.as_deref().unwrap_or_default(), problem.as_str()))
    }
}

impl Config {
    /// Reads the file (if given) and this process's environment.
    pub fn load(file: Option<&Path>) -> Result<Config, ConfigError> {
        let text =
            match file {
                Some(path) => Some(std::fs::read_to_string(path).map_err(|e| {
                    ConfigError::one(format!("cannot read {}: {e}", path.display()))
                })?),
                None => None,
            };
        let name = file.map(|p| p.display().to_string()).unwrap_or_default();
        Config::from_sources(
            text.as_deref().map(|t| (name.as_str(), t)),
            std::env::vars(),
        )
    }

    /// Builds the configuration from a TOML text and environment variables.
    pub fn from_sources(
        file: Option<(&str, &str)>,
        env: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Config, ConfigError> {
        Config::from_layers(file, env, &[])
    }

    /// The file, the environment and the operators' console settings (which win).
    fn from_layers(
        file: Option<(&str, &str)>,
        env: impl IntoIterator<Item = (String, String)>,
        overrides: &[(String, String)],
    ) -> Result<Config, ConfigError> {
        let env: Vec<(String, String)> = env
            .into_iter()
            .filter(|(k, _)| k.starts_with(ENV_PREFIX))
            .collect();
        let sources = std::sync::Arc::new(BaseSources {
            file: file.map(|(n, t)| (n.to_owned(), t.to_owned())),
            env: env.clone(),
        });
        let mut s = Sources::new(file, env, overrides);
        let data_dir: PathBuf = s.value("data_dir");
        // One more worker than cores: while one photo waits on storage or decodes, the
        // others' inferences keep every core busy (race ingestion +5-6 %;
        // docs/benchmarks.md, Decisions the figures made).
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let server = server(&mut s);
        let database = database(&mut s, &data_dir);
        let storage = storage(&mut s, &data_dir);
        let api = api(&mut s);
        let log = log(&mut s);
        let faces = faces(&mut s);
        let jobs = jobs(&mut s, cores + 1);
        let search = search(&mut s, cores);
        let bibs = bibs(&mut s);
        let privacy = PrivacyConfig {
            per_client_per_minute: s.value("privacy.per_client_per_minute"),
        };
        let alerts = AlertsConfig {
            days: s.value("alerts.days"),
            per_client_per_minute: s.value("alerts.per_client_per_minute"),
        };
        let certificates = CertificatesConfig {
            fonts_dir: s.value("certificates.fonts_dir"),
            font_family: s.value("certificates.font_family"),
            per_client_per_minute: s.value("certificates.per_client_per_minute"),
        };
        let payments = payments(&mut s);
        let orders = orders(&mut s);
        let notify = notify(&mut s);
        let admin = admin(&mut s);
        let ftp = ftp(&mut s);
        s.finish()?;
        Ok(Config {
            data_dir,
            server,
            database,
            storage,
            api,
            log,
            faces,
            jobs,
            search,
            bibs,
            privacy,
            alerts,
            certificates,
            payments,
            orders,
            notify,
            admin,
            ftp,
            sources,
        })
    }

    /// This configuration with `overrides` (`(key, value)`, console settings) laid over
    /// it, checked as a whole like the configuration itself.
    pub fn with_overrides(&self, overrides: &[(String, String)]) -> Result<Config, ConfigError> {
        let base = &self.sources;
        let file = base.file.as_ref().map(|(n, t)| (n.as_str(), t.as_str()));
        let mut config = Config::from_layers(file, base.env.iter().cloned(), overrides)?;
        config.sources = base.clone();
        Ok(config)
    }

    pub fn database_settings(&self) -> DatabaseSettings {
        DatabaseSettings {
            url: self.database.url.clone(),
            max_connections: self.database.max_connections,
            acquire_timeout: self.database.acquire_timeout,
        }
    }
}

fn server(s: &mut Sources) -> ServerConfig {
    let addr = s.value_or("server.addr", || SocketAddr::from(([127, 0, 0, 1], 8080)));
    let public_url: Option<String> = s.get("server.public_url");
    if let Some(url) = &public_url
        && !(url.starts_with("http://") || url.starts_with("https://"))
    {
        s.problem("server.public_url", "must start with http:// or https://");
    }
    let header_read_timeout = Duration::from_secs(s.value("server.header_read_timeout_secs"));
    if header_read_timeout.is_zero() {
        s.problem("server.header_read_timeout_secs", "must be at least 1");
    }
    let idle_timeout = Duration::from_secs(s.value("server.idle_timeout_secs"));
    if idle_timeout.is_zero() {
        s.problem("server.idle_timeout_secs", "must be at least 1");
    }
    let max_connections: Option<usize> = s.get("server.max_connections");
    if max_connections == Some(0) {
        s.problem("server.max_connections", "must be at least 1");
    }
    let proxies: String = s.value("server.trusted_proxies");
    let mut trusted_proxies = Vec::new();
    for p in proxies.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match p.parse() {
            Ok(ip) => trusted_proxies.push(ip),
            Err(_) => s.problem(
                "server.trusted_proxies",
                format!("'{p}' is not an IP address"),
            ),
        }
    }
    ServerConfig {
        addr,
        public_url,
        request_timeout: Duration::from_secs(s.value("server.request_timeout_secs")),
        shutdown_grace: Duration::from_secs(s.value("server.shutdown_grace_secs")),
        header_read_timeout,
        idle_timeout,
        max_connections_per_client: s.value("server.max_connections_per_client"),
        max_connections,
        catalogue_ttl: Duration::from_millis(s.value("server.catalogue_ttl_ms")),
        trusted_proxies,
        web_dir: s.value("server.web_dir"),
        metrics_addr: s.get("server.metrics_addr"),
    }
}

fn database(s: &mut Sources, data_dir: &Path) -> DatabaseConfig {
    let default_db = format!("sqlite://{}", data_dir.join("raceshot.db").display());
    let url: String = s.or("database.url", default_db);
    if let Err(e) = Backend::of_url(&url) {
        s.problem("database.url", e);
    }
    let max_connections: u32 = s.value("database.max_connections");
    if max_connections == 0 {
        s.problem("database.max_connections", "must be at least 1");
    }
    DatabaseConfig {
        url,
        max_connections,
        acquire_timeout: Duration::from_secs(s.value::<u64>("database.acquire_timeout_secs")),
        auto_migrate: s.value("database.auto_migrate"),
    }
}

fn api(s: &mut Sources) -> ApiConfig {
    let client_token: String = s.value("api.client_token");
    if client_token.trim().len() < 8 {
        s.problem("api.client_token", "must be at least 8 characters");
    }
    ApiConfig {
        client_token: Secret::new(client_token),
    }
}

fn log(s: &mut Sources) -> LogConfig {
    let format = match s.value::<String>("log.format").as_str() {
        "text" => LogFormat::Text,
        "json" => LogFormat::Json,
        _ => {
            s.problem("log.format", "must be text or json");
            LogFormat::Text
        }
    };
    LogConfig {
        format,
        filter: s.value("log.filter"),
    }
}

/// `workers` is the default number of job workers.
fn jobs(s: &mut Sources, workers: usize) -> JobsConfig {
    let jobs = JobsConfig {
        workers: s.or("jobs.workers", workers),
        max_attempts: s.value("jobs.max_attempts"),
        lease: Duration::from_secs(s.value("jobs.lease_secs")),
        poll_interval: Duration::from_millis(s.value("jobs.poll_interval_ms")),
    };
    if jobs.workers == 0 {
        s.problem("jobs.workers", "must be at least 1");
    }
    if jobs.max_attempts == 0 {
        s.problem("jobs.max_attempts", "must be at least 1");
    }
    jobs
}

/// `cores` is the default number of searches at once.
fn search(s: &mut Sources, cores: usize) -> SearchConfig {
    let search = SearchConfig {
        max_concurrent: s.or("search.max_concurrent", cores),
        max_waiting: s.value("search.max_waiting"),
        per_client_per_minute: s.value("search.per_client_per_minute"),
        selfie_ttl: Duration::from_secs(s.value("search.selfie_ttl_secs")),
        sign_per_client_per_minute: s.value("search.sign_per_client_per_minute"),
        arrivals_per_client_per_minute: s.value("search.arrivals_per_client_per_minute"),
        max_pending_uploads: s.value("search.max_pending_uploads"),
        found_ttl: Duration::from_secs(s.value("search.found_ttl_secs")),
        index_memory: s
            .value::<usize>("search.index_memory_mb")
            .saturating_mul(1024 * 1024),
        index_snapshot_faces: s.value("search.index_snapshot_faces"),
    };
    if search.selfie_ttl.is_zero() {
        s.problem("search.selfie_ttl_secs", "must be at least 1");
    }
    if search.found_ttl.is_zero() {
        s.problem("search.found_ttl_secs", "must be at least 1");
    }
    if search.max_pending_uploads == 0 {
        s.problem("search.max_pending_uploads", "must be at least 1");
    }
    if search.max_concurrent == 0 {
        s.problem("search.max_concurrent", "must be at least 1");
    }
    search
}

fn bibs(s: &mut Sources) -> BibsConfig {
    let bibs = BibsConfig {
        read: s.value("bibs.read"),
        min_confidence: s.value("bibs.min_confidence"),
    };
    if !(0.0..=1.0).contains(&bibs.min_confidence) {
        s.problem("bibs.min_confidence", "must be 0 to 1");
    }
    bibs
}

fn orders(s: &mut Sources) -> OrdersConfig {
    OrdersConfig {
        dedupe_window: Duration::from_secs(s.value("orders.dedupe_window_secs")),
        retention_days: s.value("orders.retention_days"),
        download_link_ttl: Duration::from_secs(
            s.value::<u64>("orders.download_link_ttl_hours") * 3600,
        ),
        find_per_client_per_minute: s.value("orders.find_per_client_per_minute"),
        create_per_client_per_minute: s.value("orders.create_per_client_per_minute"),
        wrong_pass_codes_per_client_per_minute: s
            .value("orders.wrong_pass_codes_per_client_per_minute"),
    }
}

fn ftp(s: &mut Sources) -> FtpConfig {
    let addr: Option<SocketAddr> = s.get("ftp.addr");
    let raw: String = s.value("ftp.passive_ports");
    let ports = raw
        .split_once('-')
        .and_then(|(a, b)| Some((a.trim().parse::<u16>().ok()?, b.trim().parse::<u16>().ok()?)))
        .filter(|(a, b)| a <= b && *a > 0);
    let passive_ports = match ports {
        Some((a, b)) => a..=b,
        None => {
            s.problem(
                "ftp.passive_ports",
                "must be FIRST-LAST, two ports in order",
            );
            50000..=50100
        }
    };
    let cert: Option<PathBuf> = s.get("ftp.tls_cert");
    let key: Option<PathBuf> = s.get("ftp.tls_key");
    let tls = match (cert, key) {
        (Some(c), Some(k)) => Some((c, k)),
        (None, None) => None,
        _ => {
            s.problem("ftp.tls_cert", "needs ftp.tls_key, and the other way round");
            None
        }
    };
    FtpConfig {
        addr,
        passive_ports,
        tls,
    }
}

fn admin(s: &mut Sources) -> AdminConfig {
    let admin = AdminConfig {
        session_ttl: Duration::from_secs(s.value::<u64>("admin.session_ttl_hours") * 3600),
        max_failed_logins: s.value("admin.max_failed_logins"),
        lockout: Duration::from_secs(s.value("admin.lockout_secs")),
        login_per_client_per_minute: s.value("admin.login_per_client_per_minute"),
    };
    if admin.max_failed_logins == 0 {
        s.problem("admin.max_failed_logins", "must be at least 1");
    }
    admin
}

fn storage(s: &mut Sources, data_dir: &Path) -> StorageConfig {
    let root: PathBuf = s.or("storage.root", data_dir.join("objects"));
    let endpoint: Option<String> = s.get("storage.endpoint");
    let bucket: Option<String> = s.get("storage.bucket");
    let region: String = s.value("storage.region");
    let access_key_id: Option<String> = s.get("storage.access_key_id");
    let secret_access_key: Option<String> = s.get("storage.secret_access_key");
    let path_style: bool = s.value("storage.path_style");
    let public_url: Option<String> = s.get("storage.public_url");
    if endpoint.is_some() && bucket.is_none() {
        s.problem("storage.bucket", "is required when storage.endpoint is set");
    }
    if access_key_id.is_some() != secret_access_key.is_some() {
        s.problem(
            "storage.secret_access_key",
            "access_key_id and secret_access_key go together",
        );
    }
    let settings = match bucket {
        Some(bucket) => StorageSettings::S3 {
            endpoint,
            bucket,
            region,
            access_key_id,
            secret_access_key,
            path_style,
        },
        None => StorageSettings::Local { root },
    };
    StorageConfig {
        settings,
        public_url,
    }
}

fn secret(s: &mut Sources, key: &str) -> Option<Secret> {
    s.get::<String>(key)
        .filter(|v| !v.trim().is_empty())
        .map(Secret::new)
}

/// The gateway and its credentials; each gateway's own keys are required when it is chosen.
fn payments(s: &mut Sources) -> PaymentsConfig {
    let gateway = match s.value::<String>("payments.gateway").parse() {
        Ok(g) => g,
        Err(_) => {
            s.problem("payments.gateway", "must be GBP, OPN, PROMPTPAY or SANDBOX");
            GatewayKind::Sandbox
        }
    };
    let allow_sandbox = s.value("payments.allow_sandbox");
    let qr_ttl = Duration::from_secs(s.value::<u64>("payments.qr_ttl_minutes") * 60);
    let card_ttl = Duration::from_secs(s.value::<u64>("payments.card_ttl_minutes") * 60);
    let approval_ttl = Duration::from_secs(
        s.value::<u64>("payments.approval_ttl_hours")
            .saturating_mul(3600),
    );
    let gateway_timeout = Duration::from_secs(s.value("payments.gateway_timeout_secs"));
    let promptpay_raw: Option<String> = s.get("payments.promptpay_id");
    let promptpay_id = promptpay_raw.as_deref().and_then(PromptPayId::parse);
    if promptpay_raw.is_some() && promptpay_id.is_none() {
        s.problem(
            "payments.promptpay_id",
            "must be a mobile number, a 13-digit tax id or a 15-digit e-wallet id",
        );
    }
    let gbp = GbpConfig {
        base_url: s.value("payments.gbp.base_url"),
        token: secret(s, "payments.gbp.token"),
        secret_key: secret(s, "payments.gbp.secret_key"),
    };
    let opn = OpnConfig {
        base_url: s.value("payments.opn.base_url"),
        public_key: s.get("payments.opn.public_key"),
        secret_key: secret(s, "payments.opn.secret_key"),
        webhook_secret: secret(s, "payments.opn.webhook_secret"),
    };
    match gateway {
        GatewayKind::PromptPay if promptpay_id.is_none() => s.problem(
            "payments.promptpay_id",
            "is required when payments.gateway is PROMPTPAY",
        ),
        GatewayKind::Gbp if gbp.token.is_none() || gbp.secret_key.is_none() => s.problem(
            "payments.gbp.token",
            "payments.gbp.token and payments.gbp.secret_key are required for GBP",
        ),
        GatewayKind::Opn if opn.secret_key.is_none() || opn.public_key.is_none() => s.problem(
            "payments.opn.secret_key",
            "payments.opn.public_key and payments.opn.secret_key are required for OPN",
        ),
        _ => {}
    }
    if gateway == GatewayKind::Opn && opn.webhook_secret.is_none() {
        s.problem(
            "payments.opn.webhook_secret",
            "is required for OPN: webhooks are accepted only when signed with it",
        );
    }
    PaymentsConfig {
        gateway,
        allow_sandbox,
        qr_ttl,
        card_ttl,
        approval_ttl,
        gateway_timeout,
        promptpay_id,
        gbp,
        opn,
    }
}

fn notify(s: &mut Sources) -> NotifyConfig {
    let host: Option<String> = s.get("notify.smtp.host");
    let port: u16 = s.value("notify.smtp.port");
    let username: Option<String> = s.get("notify.smtp.username");
    let password: Option<String> = s.get("notify.smtp.password");
    let from: Option<String> = s.get("notify.smtp.from");
    let tls = match s.value::<String>("notify.smtp.tls").as_str() {
        "starttls" => SmtpTls::StartTls,
        "tls" => SmtpTls::Tls,
        "none" => SmtpTls::None,
        _ => {
            s.problem("notify.smtp.tls", "must be starttls, tls or none");
            SmtpTls::StartTls
        }
    };
    let timeout = Duration::from_secs(s.value("notify.smtp.timeout_secs"));
    if username.is_some() != password.is_some() {
        s.problem("notify.smtp.password", "username and password go together");
    }
    let smtp = match (host, from) {
        (Some(host), Some(from)) => Some(SmtpSettings {
            host,
            port,
            username,
            password,
            from,
            tls,
            timeout,
        }),
        (None, None) => None,
        _ => {
            s.problem(
                "notify.smtp.from",
                "notify.smtp.host and notify.smtp.from go together",
            );
            None
        }
    };
    let sms = sms(s);
    let line = line(s);
    let daily_caps = DailyCaps {
        email: s.value("messages.daily_cap.email"),
        sms: s.value("messages.daily_cap.sms"),
        line: s.value("messages.daily_cap.line"),
    };
    NotifyConfig {
        smtp,
        sms,
        line,
        daily_caps,
        line_per_client_per_minute: s.value("line.per_client_per_minute"),
    }
}

/// LINE's channels: the login channel's id and secret and the Messaging API's token go
/// together.
fn line(s: &mut Sources) -> Option<LineSettings> {
    let id: Option<String> = s
        .get::<String>("line.login_channel_id")
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty());
    let secret_value = secret(s, "line.login_channel_secret");
    let token = secret(s, "line.channel_access_token");
    let access_base: String = s.value("line.access_base");
    let api_base: String = s.value("line.api_base");
    let timeout = Duration::from_secs(s.value("line.timeout_secs"));
    match (id, secret_value, token) {
        (Some(id), Some(secret), Some(token)) => {
            if !id.bytes().all(|b| b.is_ascii_digit()) {
                s.problem("line.login_channel_id", "is the channel's number");
            }
            Some(LineSettings {
                login_channel_id: id,
                login_channel_secret: secret.expose().to_owned(),
                channel_access_token: token.expose().to_owned(),
                access_base: access_base.trim_end_matches('/').to_owned(),
                api_base: api_base.trim_end_matches('/').to_owned(),
                timeout,
            })
        }
        (None, None, None) => None,
        _ => {
            s.problem(
                "line.login_channel_id",
                "line.login_channel_id, line.login_channel_secret and line.channel_access_token go together",
            );
            None
        }
    }
}

/// The SMS provider and its credentials, required when a provider is chosen.
fn sms(s: &mut Sources) -> Option<SmsSettings> {
    let provider: Option<String> = s.get("sms.provider");
    let api_base: String = s.value("sms.api_base");
    let key = secret(s, "sms.key");
    let secret_value = secret(s, "sms.secret");
    let sender: Option<String> = s
        .get::<String>("sms.sender")
        .filter(|v| !v.trim().is_empty());
    let timeout = Duration::from_secs(s.value("sms.timeout_secs"));
    match provider.as_deref().map(str::trim) {
        None | Some("") => None,
        Some("thaibulksms") => match (key, secret_value) {
            (Some(key), Some(secret)) => Some(SmsSettings {
                api_base: api_base.trim_end_matches('/').to_owned(),
                key: key.expose().to_owned(),
                secret: secret.expose().to_owned(),
                sender,
                timeout,
            }),
            _ => {
                s.problem(
                    "sms.key",
                    "sms.key and sms.secret are required with sms.provider",
                );
                None
            }
        },
        Some(_) => {
            s.problem("sms.provider", "must be thaibulksms");
            None
        }
    }
}

/// The face engine's keys (documented in `raceshot_vision::config`), under `faces.`.
fn faces(s: &mut Sources) -> FaceEngineConfig {
    let d = FaceEngineConfig::default();
    let mut c = FaceEngineConfig {
        models_dir: s.or("faces.models_dir", d.models_dir),
        model_pair: s.or("faces.model_pair", d.model_pair),
        runtime: s.or("faces.runtime", d.runtime),
        openvino_library: s.get("faces.openvino_library"),
        openvino_precision: s.or("faces.openvino_precision", d.openvino_precision),
        runtime_library: s.get("faces.runtime_library"),
        intra_threads: s.or("faces.intra_threads", d.intra_threads),
        inter_threads: s.or("faces.inter_threads", d.inter_threads),
        sessions: s.or("faces.sessions", d.sessions),
        ..d
    };
    let (det, rec, q) = (&mut c.detector, &mut c.recognizer, &mut c.quality);
    det.path = s.get("faces.detector.path");
    det.long_edge = s.or("faces.detector.long_edge", det.long_edge);
    det.selfie_long_edge = s.or("faces.detector.selfie_long_edge", det.selfie_long_edge);
    det.coarse_long_edge = s.or("faces.detector.coarse_long_edge", det.coarse_long_edge);
    det.fine_long_edge = s.or("faces.detector.fine_long_edge", det.fine_long_edge);
    det.with_fine_long_edge = s.or(
        "faces.detector.with_fine_long_edge",
        det.with_fine_long_edge,
    );
    det.max_upscale = s.or("faces.detector.max_upscale", det.max_upscale);
    det.score_threshold = s.or("faces.detector.score_threshold", det.score_threshold);
    det.nms_iou = s.or("faces.detector.nms_iou", det.nms_iou);
    det.mean = s.get("faces.detector.mean");
    det.std = s.get("faces.detector.std");
    rec.path = s.get("faces.recognizer.path");
    rec.input_size = s.or("faces.recognizer.input_size", rec.input_size);
    rec.mean = s.get("faces.recognizer.mean");
    rec.std = s.get("faces.recognizer.std");
    rec.embedding_dim = s.get("faces.recognizer.embedding_dim");
    rec.prelu_as_max = s.or("faces.recognizer.prelu_as_max", rec.prelu_as_max);
    q.min_face_px = s.or("faces.quality.min_face_px", q.min_face_px);
    q.min_score = s.get("faces.quality.min_score");
    for problem in c.problems() {
        s.problems.push((None, problem));
    }
    c
}

/// The layered sources, read key by key so each bad value is reported on its own:
/// operators' console settings, then `RACESHOT__` variables, then the file, then the
/// declared defaults.
struct Sources {
    file_name: String,
    file: toml::Table,
    env: BTreeMap<String, String>,
    overrides: BTreeMap<String, String>,
    seen: BTreeSet<String>,
    problems: Vec<(Option<String>, String)>,
}

impl Sources {
    fn new(
        file: Option<(&str, &str)>,
        env: impl IntoIterator<Item = (String, String)>,
        overrides: &[(String, String)],
    ) -> Self {
        let mut problems = Vec::new();
        let (file_name, file) = match file {
            Some((name, text)) => match text.parse::<toml::Table>() {
                Ok(table) => (name.to_owned(), table),
                Err(e) => {
                    problems.push((None, format!("{name}: {e}")));
                    (name.to_owned(), toml::Table::new())
                }
            },
            None => (String::new(), toml::Table::new()),
        };
        let env = env
            .into_iter()
            .filter_map(|(k, v)| {
                let rest = k.strip_prefix(ENV_PREFIX)?;
                let key = rest
                    .split("__")
                    .map(str::to_lowercase)
                    .collect::<Vec<_>>()
                    .join(".");
                Some((key, v))
            })
            .collect();
        Sources {
            file_name,
            file,
            env,
            overrides: overrides.iter().cloned().collect(),
            seen: BTreeSet::new(),
            problems,
        }
    }

    fn problem(&mut self, key: &str, message: impl fmt::Display) {
        let text = format!("{key} ({}): {message}", declared::env_name(key));
        self.problems.push((Some(key.to_owned()), text));
    }

    fn file_value(&self, key: &str) -> Option<&toml::Value> {
        let mut parts = key.split('.');
        let first = parts.next()?;
        parts.try_fold(self.file.get(first)?, |v, part| v.get(part))
    }

    /// The key's value where something sets it.
    fn get<T>(&mut self, key: &str) -> Option<T>
    where
        T: FromStr + DeserializeOwned,
        T::Err: fmt::Display,
    {
        self.seen.insert(key.to_owned());
        if declared::find(key).is_none() {
            self.problem(key, "read but not declared in config/declared.rs");
        }
        let text = self.overrides.get(key).or_else(|| self.env.get(key));
        if let Some(raw) = text.cloned() {
            return match raw.parse::<T>() {
                Ok(v) => Some(v),
                Err(e) => {
                    self.problem(key, format!("invalid value: {e}"));
                    None
                }
            };
        }
        let value = self.file_value(key)?.clone();
        match T::deserialize(value) {
            Ok(v) => Some(v),
            Err(e) => {
                let file = self.file_name.clone();
                self.problem(key, format!("invalid value in {file}: {e}"));
                None
            }
        }
    }

    /// The key's value, or its declared default.
    fn value<T>(&mut self, key: &str) -> T
    where
        T: FromStr + DeserializeOwned + std::default::Default,
        T::Err: fmt::Display,
    {
        self.value_or(key, T::default)
    }

    /// The key's value, or its declared default; `fallback` only where the declared
    /// default is broken, which is reported.
    fn value_or<T>(&mut self, key: &str, fallback: impl FnOnce() -> T) -> T
    where
        T: FromStr + DeserializeOwned,
        T::Err: fmt::Display,
    {
        if let Some(value) = self.get(key) {
            return value;
        }
        let declared = declared::find(key).map(|s| s.default);
        let parsed = match declared {
            Some(Initial::Value(text)) => text.parse::<T>().map_err(|e| e.to_string()),
            _ => Err("no declared default value".to_owned()),
        };
        parsed.unwrap_or_else(|e| {
            self.problem(key, format!("built-in default: {e}"));
            fallback()
        })
    }

    /// The key's value, or one worked out by the loader (a declared `Derived` or
    /// `FaceEngine` default).
    fn or<T>(&mut self, key: &str, derived: T) -> T
    where
        T: FromStr + DeserializeOwned,
        T::Err: fmt::Display,
    {
        if let Some(Initial::Value(_)) = declared::find(key).map(|s| s.default) {
            self.problem(key, "has a declared default: read it with value()");
        }
        self.get(key).unwrap_or(derived)
    }

    /// Reports settings nobody reads (usually a typo) and declared settings the loader
    /// forgot, then every problem at once.
    fn finish(mut self) -> Result<(), ConfigError> {
        let unknown_env: Vec<String> = self
            .env
            .keys()
            .filter(|k| !self.seen.contains(*k))
            .cloned()
            .collect();
        for key in unknown_env {
            let text = format!("{}: unknown setting", declared::env_name(&key));
            self.problems.push((None, text));
        }
        let mut leaves = Vec::new();
        collect_leaves(&self.file, "", &mut leaves);
        for key in leaves.into_iter().filter(|k| !self.seen.contains(k)) {
            let text = format!("{key} in {}: unknown setting", self.file_name);
            self.problems.push((None, text));
        }
        for setting in SETTINGS.iter().filter(|s| !self.seen.contains(s.key)) {
            let text = format!("{}: declared but never read", setting.key);
            self.problems.push((Some(setting.key.to_owned()), text));
        }
        if self.problems.is_empty() {
            Ok(())
        } else {
            let (keys, problems) = self.problems.into_iter().unzip();
            Err(ConfigError { problems, keys })
        }
    }
}

fn collect_leaves(table: &toml::Table, prefix: &str, out: &mut Vec<String>) {
    for (k, v) in table {
        let key = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            toml::Value::Table(t) => collect_leaves(t, &key, out),
            _ => out.push(key),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn defaults_give_the_embedded_shop() {
        let c = Config::from_sources(None, env(&[])).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.server.addr.to_string(), "127.0.0.1:8080");
        assert_eq!(c.database.url, "sqlite://./data/raceshot.db");
        assert_eq!(c.api.client_token.expose(), "demo-client-token");
        assert!(
            matches!(c.storage.settings, StorageSettings::Local { ref root } if root == Path::new("./data/objects"))
        );
    }

    #[test]
    fn connection_limits_have_defaults_and_refuse_zero() {
        let c = Config::from_sources(None, env(&[])).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.server.header_read_timeout, Duration::from_secs(10));
        assert_eq!(c.server.idle_timeout, Duration::from_secs(60));
        assert_eq!(c.server.max_connections_per_client, 128);
        assert_eq!(
            c.server.max_connections, None,
            "sized from the open-file limit"
        );

        let c = Config::from_sources(
            None,
            env(&[
                ("RACESHOT__SERVER__MAX_CONNECTIONS", "500"),
                ("RACESHOT__SERVER__MAX_CONNECTIONS_PER_CLIENT", "0"),
            ]),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.server.max_connections, Some(500));
        assert_eq!(
            c.server.max_connections_per_client, 0,
            "0: no cap per address"
        );

        let problems = Config::from_sources(
            None,
            env(&[
                ("RACESHOT__SERVER__HEADER_READ_TIMEOUT_SECS", "0"),
                ("RACESHOT__SERVER__IDLE_TIMEOUT_SECS", "0"),
                ("RACESHOT__SERVER__MAX_CONNECTIONS", "0"),
            ]),
        )
        .err()
        .map(|e| e.problems)
        .unwrap_or_default();
        assert_eq!(problems.len(), 3, "{problems:?}");
    }

    #[test]
    fn environment_beats_file_beats_defaults() {
        let file = "data_dir = \"/srv/shop\"\n[server]\naddr = \"0.0.0.0:9000\"\n[api]\nclient_token = \"from-the-file\"\n";
        let c = Config::from_sources(
            Some(("shop.toml", file)),
            env(&[
                ("RACESHOT__API__CLIENT_TOKEN", "from-the-env"),
                ("PATH", "/bin"),
            ]),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.server.addr.to_string(), "0.0.0.0:9000");
        assert_eq!(c.api.client_token.expose(), "from-the-env");
        assert_eq!(c.database.url, "sqlite:///srv/shop/raceshot.db");
    }

    #[test]
    fn s3_when_a_bucket_is_named() {
        let c = Config::from_sources(
            None,
            env(&[
                ("RACESHOT__STORAGE__BUCKET", "photos"),
                ("RACESHOT__STORAGE__ENDPOINT", "http://127.0.0.1:9000"),
                ("RACESHOT__STORAGE__PATH_STYLE", "true"),
                ("RACESHOT__STORAGE__ACCESS_KEY_ID", "key"),
                ("RACESHOT__STORAGE__SECRET_ACCESS_KEY", "very-secret"),
            ]),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(
            c.storage.settings,
            StorageSettings::S3 {
                path_style: true,
                ..
            }
        ));
    }

    #[test]
    fn every_problem_is_listed_at_once_without_secrets() {
        let err = Config::from_sources(
            Some((
                "shop.toml",
                "[server]\nrequest_timeout_secs = \"soon\"\ncolour = 1\n",
            )),
            env(&[
                ("RACESHOT__SERVER__ADDR", "not-an-address"),
                ("RACESHOT__DATABASE__URL", "mysql://x"),
                ("RACESHOT__API__CLIENT_TOKEN", "short"),
                ("RACESHOT__DATABSE__URL", "typo"),
                ("RACESHOT__LOG__FORMAT", "xml"),
            ]),
        )
        .err()
        .map(|e| e.problems)
        .unwrap_or_default();
        let text = err.join("\n");
        for needle in [
            "RACESHOT__SERVER__ADDR",
            "server.request_timeout_secs",
            "RACESHOT__DATABASE__URL",
            "RACESHOT__API__CLIENT_TOKEN",
            "RACESHOT__DATABSE__URL: unknown setting",
            "server.colour in shop.toml: unknown setting",
            "log.format",
        ] {
            assert!(text.contains(needle), "missing {needle} in:\n{text}");
        }
        assert_eq!(err.len(), 7, "{text}");
        assert!(
            !text.contains("short\""),
            "the token itself is never printed"
        );
        assert_eq!(format!("{:?}", Secret::new("hunter2")), "Secret(***)");
    }

    #[test]
    fn each_gateway_needs_its_own_keys() {
        let problems = |pairs: &[(&str, &str)]| {
            Config::from_sources(None, env(pairs))
                .err()
                .map(|e| e.problems.join("\n"))
                .unwrap_or_default()
        };
        let gbp = problems(&[("RACESHOT__PAYMENTS__GATEWAY", "GBP")]);
        assert!(gbp.contains("payments.gbp.token"), "{gbp}");
        let opn = problems(&[
            ("RACESHOT__PAYMENTS__GATEWAY", "OPN"),
            ("RACESHOT__PAYMENTS__OPN__SECRET_KEY", "skey_test_x"),
        ]);
        assert!(opn.contains("payments.opn.public_key"), "{opn}");
        assert!(opn.contains("payments.opn.webhook_secret"), "{opn}");
        assert!(!opn.contains("skey_test_x"), "secrets never print");
        let promptpay = problems(&[
            ("RACESHOT__PAYMENTS__GATEWAY", "PROMPTPAY"),
            ("RACESHOT__PAYMENTS__PROMPTPAY_ID", "12345"),
        ]);
        assert!(promptpay.contains("payments.promptpay_id"), "{promptpay}");
        let unknown = problems(&[("RACESHOT__PAYMENTS__GATEWAY", "PAYPAL")]);
        assert!(
            unknown.contains("GBP, OPN, PROMPTPAY or SANDBOX"),
            "{unknown}"
        );
        let c = Config::from_sources(
            None,
            env(&[
                ("RACESHOT__PAYMENTS__GATEWAY", "PROMPTPAY"),
                ("RACESHOT__PAYMENTS__PROMPTPAY_ID", "080-123-4567"),
            ]),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.payments.gateway, GatewayKind::PromptPay);
        assert!(!c.payments.allow_sandbox);
    }

    #[test]
    fn the_readme_lists_every_declared_setting() {
        let readme = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"));
        let table = readme
            .split_once("declared.rs -->\n")
            .and_then(|(_, rest)| rest.split_once("<!-- end of settings -->"))
            .map(|(table, _)| table);
        assert_eq!(
            table,
            Some(markdown_table().as_str()),
            "README.md's configuration table differs from config/declared.rs: replace it with \
             the output of `cargo run --bin raceshot -- settings`"
        );
    }

    #[test]
    fn every_declared_setting_is_read_and_every_default_parses() {
        // `finish` reports a declared setting the loader never reads, a read one nobody
        // declared, and a declared default that does not parse: none here.
        let c = Config::from_sources(None, env(&[]));
        assert!(c.is_ok(), "{:?}", c.err());
        for setting in SETTINGS {
            assert!(
                setting.env_name().starts_with(ENV_PREFIX),
                "{}",
                setting.key
            );
        }
        let console: Vec<&str> = console_settings().map(|s| s.key).collect();
        assert!(console.contains(&"payments.gateway"), "{console:?}");
        assert!(!console.contains(&"api.client_token"), "{console:?}");
    }

    #[test]
    fn console_settings_are_a_layer_over_file_and_environment() {
        let base = Config::from_sources(
            Some(("shop.toml", "[orders]\nretention_days = 20\n")),
            env(&[("RACESHOT__NOTIFY__SMTP__PORT", "2525")]),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let layered = base
            .with_overrides(&[("orders.retention_days".to_owned(), "40".to_owned())])
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(layered.orders.retention_days, 40);
        assert_eq!(base.orders.retention_days, 20);
        let refused = base
            .with_overrides(&[("payments.gateway".to_owned(), "PAYPAL".to_owned())])
            .err()
            .map(|e| {
                e.by_key()
                    .map(|(key, problem)| (key.to_owned(), problem.to_owned()))
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        assert_eq!(refused.len(), 1, "{refused:?}");
        assert_eq!(refused[0].0, "payments.gateway");
        assert!(
            refused[0].1.contains("GBP, OPN, PROMPTPAY or SANDBOX"),
            "{refused:?}"
        );
    }
}
