//! Building and running the HTTP application: connect storage, migrate, bind, serve
//! (within the connection limits of `listener.rs`), and drain in-flight requests on
//! SIGTERM (bounded by `server.shutdown_grace_secs`).

use std::future::Future;
use std::net::SocketAddr;
use std::sync::OnceLock;

use anyhow::Context;
use futures::FutureExt;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::sync::Arc;

use raceshot_store::{Objects, Store};
use raceshot_vision::testing::NoBibs;
use raceshot_vision::{BibReader, FaceAnalyzer, ModelPair, TextReader, TextReaderConfig};
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::app::faces::{FaceModels, load as load_engine};
use crate::app::live::{self, Live, LiveCell};
use crate::app::state::{AppState, Clock, Inner, RateLimits};
use crate::config::Config;
use crate::infra::cpu::CpuPool;
use crate::infra::gateways::PAYMENT_GATEWAY_SETTING;
use crate::infra::listener::{self, Limits};
use crate::infra::open_files;
use crate::infra::search_slots::SearchSlots;
use crate::infra::svg::Fonts;
use crate::jobs::queue::JobQueue;
use crate::services::alerts::watch::AlertTemplates;
use crate::services::catalogue::Catalogue;
use crate::services::links::Links;
use crate::services::search::index::FaceIndexes;
use crate::services::selfies;
use crate::{api, jobs};

pub struct Application {
    listener: TcpListener,
    /// The internal address of `/metrics`, when configured.
    metrics: Option<TcpListener>,
    router: axum::Router,
    state: AppState,
    run_jobs: bool,
    /// The public listener's connection limits.
    limits: Limits,
    /// Set once the startup warm-up has loaded the face indexes of the events on sale.
    warmed: watch::Sender<bool>,
}

pub use crate::app::faces::Models;

/// Connects storage (migrating when configured), loads the face engine and builds the
/// state shared by requests and jobs. `public_url` is the fallback base of links when
/// `server.public_url` is not configured.
pub async fn load_state(
    config: Config,
    clock: Clock,
    public_url: String,
) -> anyhow::Result<AppState> {
    load_state_with(config, clock, public_url, Models::Real).await
}

/// [`load_state`] with the models of `models`.
pub async fn load_state_with(
    config: Config,
    clock: Clock,
    public_url: String,
    models: Models,
) -> anyhow::Result<AppState> {
    // The models load (compile, for OpenVINO) while the database is connected and migrated.
    let vision = match models {
        Models::Real => {
            let faces = config.faces.clone();
            let reader = config.bibs.read.then(|| text_reader_config(&config));
            tokio::task::spawn_blocking(move || load_models(faces, reader))
        }
        Models::StandIns => {
            let stand_ins = Vision {
                engine: load_engine(&config.faces, Models::StandIns)?,
                reader: config
                    .bibs
                    .read
                    .then(|| Arc::new(NoBibs) as Arc<dyn BibReader>),
            };
            tokio::task::spawn_blocking(move || Ok(stand_ins))
        }
    };
    let store = Store::connect(&config.database_settings())
        .await
        .context("connecting to the database")?;
    if config.database.auto_migrate {
        store.migrate().await.context("applying migrations")?;
    }
    let objects = Objects::open(&config.storage.settings).context("opening object storage")?;
    let Vision { engine, reader } = vision.await??;
    let fresh_key = hex::encode(rand::random::<[u8; 32]>());
    let signing_key = store
        .setting_or_init(SIGNING_KEY_SETTING, &fresh_key, true, clock.now())
        .await?
        .into_bytes();
    let public_url = config
        .server
        .public_url
        .as_deref()
        .map_or(public_url, |u| u.trim_end_matches('/').to_owned());
    let media_url = config
        .storage
        .public_url
        .as_deref()
        .map(|u| u.trim_end_matches('/').to_owned())
        .unwrap_or_else(|| format!("{public_url}/media"));
    let faces = FaceModels::new(config.faces.clone(), models, engine);
    let alerts = AlertTemplates::default();
    let indexes = FaceIndexes::new(
        store.clone(),
        objects.clone(),
        config.search.index_memory,
        config.search.index_snapshot_faces,
    );
    let catalogue = Catalogue::new(store.clone(), config.server.catalogue_ttl);
    let search_slots = SearchSlots::new(config.search.max_concurrent, config.search.max_waiting);
    let upload_slots = SearchSlots::new(UPLOADS_AT_ONCE, UPLOADS_WAITING);
    let rate_limits = RateLimits::new(&config);
    let live = LiveCell::new(Live::build(&live::effective(&config, &store).await?)?);
    let links = Links::new(
        public_url.clone(),
        signing_key.clone(),
        config.payments.allow_sandbox,
    );
    let jobs = JobQueue::new(store.clone(), config.jobs.max_attempts, clock);
    let certificates = &config.certificates;
    let fonts = match Fonts::load(&certificates.fonts_dir, &certificates.font_family) {
        Ok(fonts) => Some(fonts),
        Err(e) => {
            tracing::warn!(error = %format!("{e:#}"), "certificates cannot be drawn without their fonts");
            None
        }
    };
    Ok(AppState::new(Inner {
        store,
        objects,
        config,
        clock,
        public_url,
        media_url,
        metrics: metrics_handle(),
        faces,
        reader,
        alerts,
        indexes,
        catalogue,
        search_slots,
        upload_slots,
        rate_limits,
        links,
        signing_key,
        live,
        cpu: CpuPool::per_core(),
        jobs,
        jobs_finished: tokio::sync::watch::Sender::new(0),
        fonts,
    }))
}

/// What reads photos: the face engine and, when `bibs.read` is on, the bib reader.
struct Vision {
    engine: Arc<dyn FaceAnalyzer>,
    reader: Option<Arc<dyn BibReader>>,
}

/// The face engine and, when asked, the bib reader, loaded from the models directory.
fn load_models(
    faces: raceshot_vision::FaceEngineConfig,
    reader: Option<TextReaderConfig>,
) -> anyhow::Result<Vision> {
    let pair = faces.model_pair;
    let engine = load_engine(&faces, Models::Real)?;
    if pair.commercial() {
        tracing::info!(model_pair = %pair, licence = pair.licence(), "face models");
    } else {
        tracing::warn!(
            model_pair = %pair,
            licence = pair.licence(),
            "face models {}",
            ModelPair::NOT_FOR_SALE
        );
    }
    let reader = match reader {
        Some(config) => Some(Arc::new(
            TextReader::load(config)
                .context("loading the text models for bib numbers (run `make models`)")?,
        ) as Arc<dyn BibReader>),
        None => None,
    };
    Ok(Vision { engine, reader })
}

/// The bib reader runs beside the face engine ([`TextReaderConfig::beside`]), keeping what
/// it reads at the shop's confidence.
fn text_reader_config(config: &Config) -> TextReaderConfig {
    TextReaderConfig {
        min_confidence: config.bibs.min_confidence,
        ..TextReaderConfig::beside(&config.faces)
    }
}

/// Console uploads held in memory at once (each up to `MAX_PHOTO_BYTES`), and waiting:
/// a bound of about 1 GB however many browsers upload.
const UPLOADS_AT_ONCE: usize = 4;
const UPLOADS_WAITING: usize = 12;

/// The settings row holding the key that signs upload addresses.
const SIGNING_KEY_SETTING: &str = "URL_SIGNING_KEY";

impl Application {
    /// Binds the configured address and loads everything; `run_jobs` runs the job workers
    /// in this process too.
    pub async fn build(config: Config, clock: Clock, run_jobs: bool) -> anyhow::Result<Self> {
        Self::build_with(config, clock, run_jobs, Models::Real).await
    }

    /// [`Application::build`] with the models of `models`.
    pub async fn build_with(
        config: Config,
        clock: Clock,
        run_jobs: bool,
        models: Models,
    ) -> anyhow::Result<Self> {
        let limits = connection_limits(&config);
        let listener = TcpListener::bind(config.server.addr)
            .await
            .with_context(|| format!("binding {}", config.server.addr))?;
        let addr = listener.local_addr()?;
        let metrics = match config.server.metrics_addr {
            Some(at) => Some(
                TcpListener::bind(at)
                    .await
                    .with_context(|| format!("binding the metrics address {at}"))?,
            ),
            None => None,
        };
        let public_url = format!("http://{}", reachable(addr));
        let state = load_state_with(config, clock, public_url, models).await?;
        live::check_sandbox(state.live().gateways.active, &state.config)?;
        // The gateway this deployment runs is what the shop's pages are told.
        state
            .store
            .put_setting(
                PAYMENT_GATEWAY_SETTING,
                state.live().gateways.active.as_str(),
                false,
                state.now(),
            )
            .await?;
        let router = api::router(state.clone());
        Ok(Self {
            listener,
            metrics,
            router,
            state,
            run_jobs,
            limits,
            warmed: watch::Sender::new(false),
        })
    }

    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Where `/metrics` is served, when it is.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics.as_ref().and_then(|l| l.local_addr().ok())
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Turns `true` once [`Application::run_until`]'s warm-up has loaded the face indexes
    /// of the events on sale (searches are served meanwhile; a caller that stores faces
    /// and wants to know which of them the warm-up saw waits for it).
    pub fn warmed(&self) -> watch::Receiver<bool> {
        self.warmed.subscribe()
    }

    /// Serves until `shutdown` completes, then lets requests in flight and running jobs
    /// finish for at most the configured grace period.
    pub async fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let grace = self.state.config.server.shutdown_grace;
        let signal = shutdown.shared();
        let (state, warmed) = (self.state.clone(), self.warmed);
        tokio::spawn(async move {
            warm_indexes(state).await;
            warmed.send_replace(true);
        });
        let fresh = tokio::spawn(keep_settings_fresh(self.state.clone()));
        let (stop_jobs, stop_rx) = watch::channel(false);
        let sweep = tokio::spawn(selfies::sweep_until(
            self.state.store.clone(),
            self.state.objects.clone(),
            self.state.config.search.selfie_ttl,
            stop_rx.clone(),
        ));
        let workers = self
            .run_jobs
            .then(|| tokio::spawn(jobs::run_workers(self.state.clone(), stop_rx)));
        let metrics = self.metrics.map(|listener| {
            let router = api::metrics_router(self.state.clone());
            let limits = Limits {
                name: "metrics",
                per_client: 0,
                total: METRICS_CONNECTIONS,
                exempt: Vec::new(),
                ..self.limits.clone()
            };
            tokio::spawn(listener::serve(listener, router, limits, signal.clone()))
        });
        // Cameras' FTP, when `ftp.addr` is set; it stops with the process.
        let ftp = match crate::ftp::spawn(&self.state, &self.state.config.ftp) {
            Ok(ftp) => ftp,
            Err(e) => return Err(std::io::Error::other(e.to_string())),
        };
        let server = listener::serve(self.listener, self.router, self.limits, signal.clone());
        let drained = async {
            server.await;
            let _ = stop_jobs.send(true);
            if let Some(workers) = workers {
                let _ = workers.await;
            }
            let _ = sweep.await;
            Ok(())
        };
        let result = tokio::select! {
            r = drained => r,
            () = async { signal.await; tokio::time::sleep(grace).await } => {
                tracing::warn!(?grace, "work still running after the grace period; stopping");
                Ok(())
            }
        };
        fresh.abort();
        if let Some(metrics) = metrics {
            metrics.abort();
        }
        if let Some(ftp) = ftp {
            ftp.abort();
        }
        self.state.store.close().await;
        result
    }
}

/// Connections the metrics address serves at once: a scraper or two, and an operator.
/// They come out of the open-file reserve (`open_files.rs`), not the public cap.
const METRICS_CONNECTIONS: usize = 16;

/// Raises the open-file limit (every connection is a descriptor) and bounds the public
/// listener's connections by it and by the settings.
fn connection_limits(config: &Config) -> Limits {
    let server = &config.server;
    let open_files = open_files::raise_limit();
    let total = open_files::connection_cap(
        open_files,
        config.database.max_connections,
        server.max_connections,
    );
    if let Some(configured) = server.max_connections
        && configured > total
    {
        tracing::warn!(
            configured,
            cap = total,
            "server.max_connections is more than the open-file limit leaves room for; lowered"
        );
    }
    tracing::info!(
        open_files = open_files.map_or_else(|| "unlimited".to_owned(), |n| n.to_string()),
        max_connections = total,
        max_connections_per_client = server.max_connections_per_client,
        "connection limits"
    );
    Limits {
        name: "public",
        header_read_timeout: server.header_read_timeout,
        idle_timeout: server.idle_timeout,
        per_client: server.max_connections_per_client,
        total,
        exempt: server.trusted_proxies.clone(),
    }
}

/// Loads the faces of every event on sale, so that no visitor waits for the first search
/// of an event (300,000 faces take seconds to read).
async fn warm_indexes(state: AppState) {
    let events = match state.catalogue.snapshot().await {
        Ok(snapshot) => snapshot
            .in_status(raceshot_domain::SaleStatus::OnSale, state.now())
            .into_iter()
            .filter_map(|e| Some((e.id, state.faces.pairs_of(e).ok()?.pair)))
            .collect::<Vec<_>>(),
        Err(e) => {
            tracing::warn!(error = %e, "cannot list events to warm their face indexes");
            return;
        }
    };
    for (id, pair) in events {
        if let Err(e) = state.indexes.warm(id, pair).await {
            tracing::warn!(event = id, error = %e, "cannot warm the face index");
        }
    }
}

/// An address a browser on this machine can open (a wildcard bind means loopback too).
fn reachable(addr: SocketAddr) -> SocketAddr {
    if addr.ip().is_unspecified() {
        SocketAddr::from(([127, 0, 0, 1], addr.port()))
    } else {
        addr
    }
}

/// SIGTERM or Ctrl-C.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
    tracing::info!("shutting down");
}

/// The process-wide Prometheus recorder (one per process, shared by every app in it).
fn metrics_handle() -> PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let builder = PrometheusBuilder::new()
                .set_buckets_for_metric(
                    Matcher::Suffix("duration_seconds".to_owned()),
                    &[
                        0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                        10.0,
                    ],
                )
                .unwrap_or_else(|_| PrometheusBuilder::new());
            match builder.install_recorder() {
                Ok(handle) => handle,
                Err(_) => PrometheusBuilder::new().build_recorder().handle(),
            }
        })
        .clone()
}

/// How soon a change made in another process takes effect here.
const RELOAD_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

/// Reloads the settings every minute until the process ends (replicas and workers catch
/// up with a change made through another process). A failed reload keeps what is live.
pub async fn keep_settings_fresh(state: AppState) {
    loop {
        tokio::time::sleep(RELOAD_EVERY).await;
        if let Err(e) = live::reload(&state.config, &state.store, &state.live).await {
            tracing::warn!(error = %format!("{e:#}"), "settings not reloaded");
        }
    }
}
