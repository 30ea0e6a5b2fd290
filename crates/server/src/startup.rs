//! Building and running the HTTP application: connect storage, migrate, bind, serve, and
//! drain in-flight requests on SIGTERM (bounded by `server.shutdown_grace_secs`).

use std::future::Future;
use std::net::SocketAddr;
use std::sync::OnceLock;

use anyhow::Context;
use futures::FutureExt;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use raceshot_store::{Objects, Store};
use tokio::net::TcpListener;

use crate::api;
use crate::config::Config;
use crate::state::{AppState, Clock, Inner};

pub struct Application {
    listener: TcpListener,
    router: axum::Router,
    state: AppState,
}

impl Application {
    pub async fn build(config: Config, clock: Clock) -> anyhow::Result<Self> {
        let store = Store::connect(&config.database_settings())
            .await
            .context("connecting to the database")?;
        if config.database.auto_migrate {
            store.migrate().await.context("applying migrations")?;
        }
        let objects = Objects::open(&config.storage.settings).context("opening object storage")?;
        let listener = TcpListener::bind(config.server.addr)
            .await
            .with_context(|| format!("binding {}", config.server.addr))?;
        let addr = listener.local_addr()?;
        let public_url = config
            .server
            .public_url
            .as_deref()
            .map(|u| u.trim_end_matches('/').to_owned())
            .unwrap_or_else(|| format!("http://{}", reachable(addr)));
        let media_url = config
            .storage
            .public_url
            .as_deref()
            .map(|u| u.trim_end_matches('/').to_owned())
            .unwrap_or_else(|| format!("{public_url}/media"));
        let state = AppState::new(Inner {
            store,
            objects,
            config,
            clock,
            public_url,
            media_url,
            metrics: metrics_handle(),
        });
        let router = api::router(state.clone());
        Ok(Self {
            listener,
            router,
            state,
        })
    }

    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serves until `shutdown` completes, then lets requests in flight finish for at most
    /// the configured grace period.
    pub async fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let grace = self.state.config.server.shutdown_grace;
        let signal = shutdown.shared();
        let server = axum::serve(
            self.listener,
            self.router
                .into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(signal.clone());
        let result = tokio::select! {
            r = server => r,
            () = async { signal.await; tokio::time::sleep(grace).await } => {
                tracing::warn!(?grace, "requests still running after the grace period; stopping");
                Ok(())
            }
        };
        self.state.store.close().await;
        result
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
