//! What every request handler and job shares: storage handles, configuration, clock,
//! payment gateways and messengers.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use metrics_exporter_prometheus::PrometheusHandle;
use raceshot_store::{Objects, Store};
use raceshot_vision::BibReader;

use crate::app::faces::FaceModels;
use crate::app::live::{Live, LiveCell};
use crate::config::Config;
pub use crate::infra::clock::Clock;
use crate::infra::cpu::CpuPool;
use crate::infra::rate_limit::RateLimiter;
use crate::infra::search_slots::SearchSlots;
use crate::infra::svg::Fonts;
use crate::jobs::queue::JobQueue;
use crate::services::alerts::Alerting;
use crate::services::alerts::watch::AlertTemplates;
use crate::services::catalogue::Catalogue;
use crate::services::certificates::Certificates;
use crate::services::commerce::Commerce;
use crate::services::links::Links;
use crate::services::messages::Outbox;
use crate::services::photos::Intake;
use crate::services::privacy::Privacy;
use crate::services::reindex::Reindexing;
use crate::services::search::SearchContext;
use crate::services::search::index::FaceIndexes;

/// The per-address rate limits, each set by its own setting.
pub struct RateLimits {
    /// Face and bib searches (`search.per_client_per_minute`).
    pub search: RateLimiter,
    /// Selfie upload addresses (`search.sign_per_client_per_minute`).
    pub sign: RateLimiter,
    /// "New photos since I searched?" (`search.arrivals_per_client_per_minute`).
    pub arrivals: RateLimiter,
    /// Find-order searches (`orders.find_per_client_per_minute`).
    pub find: RateLimiter,
    /// Order creations (`orders.create_per_client_per_minute`).
    pub order: RateLimiter,
    /// Console sign-in attempts (`admin.login_per_client_per_minute`).
    pub login: RateLimiter,
    /// Requests to hide one's photos (`privacy.per_client_per_minute`).
    pub privacy: RateLimiter,
    /// LINE logins started and finished (`line.per_client_per_minute`).
    pub line: RateLimiter,
    /// Alerts asked for and their codes tried (`alerts.per_client_per_minute`).
    pub alerts: RateLimiter,
    /// Certificates drawn or downloaded (`certificates.per_client_per_minute`).
    pub certificates: RateLimiter,
    /// Photo-pass codes that match no pass (`orders.wrong_pass_codes_per_client_per_minute`).
    pub wrong_pass_codes: RateLimiter,
}

impl RateLimits {
    pub fn new(config: &Config) -> Self {
        Self {
            search: RateLimiter::new(config.search.per_client_per_minute),
            sign: RateLimiter::new(config.search.sign_per_client_per_minute),
            arrivals: RateLimiter::new(config.search.arrivals_per_client_per_minute),
            find: RateLimiter::new(config.orders.find_per_client_per_minute),
            order: RateLimiter::new(config.orders.create_per_client_per_minute),
            login: RateLimiter::new(config.admin.login_per_client_per_minute),
            privacy: RateLimiter::new(config.privacy.per_client_per_minute),
            line: RateLimiter::new(config.notify.line_per_client_per_minute),
            alerts: RateLimiter::new(config.alerts.per_client_per_minute),
            certificates: RateLimiter::new(config.certificates.per_client_per_minute),
            wrong_pass_codes: RateLimiter::new(
                config.orders.wrong_pass_codes_per_client_per_minute,
            ),
        }
    }
}

#[derive(Clone)]
pub struct AppState(Arc<Inner>);

pub struct Inner {
    pub store: Store,
    pub objects: Objects,
    pub config: Config,
    pub clock: Clock,
    /// Base of links this server writes, without a trailing slash.
    pub public_url: String,
    /// Base of preview and thumbnail addresses, without a trailing slash.
    pub media_url: String,
    pub metrics: PrometheusHandle,
    /// Finds and embeds faces, one engine per model pair: the face models, or stand-ins in
    /// tests not about them.
    pub faces: FaceModels,
    /// Reads bib numbers at ingestion; `None` when `bibs.read` is off.
    pub reader: Option<Arc<dyn BibReader>>,
    pub indexes: FaceIndexes,
    /// The templates of the events' alerts, matched against each new photo.
    pub alerts: AlertTemplates,
    pub catalogue: Catalogue,
    pub search_slots: SearchSlots,
    /// Photo uploads from the console, each held in memory until stored.
    pub upload_slots: SearchSlots,
    /// Requests per client address and minute, one limiter per kind of request.
    pub rate_limits: RateLimits,
    /// The server's signed addresses for orders (downloads, callbacks, the order page).
    pub links: Links,
    /// Key of the HMAC signatures on upload and download addresses and callback tokens,
    /// shared by replicas via the store.
    pub signing_key: Vec<u8>,
    /// The gateways, the mailer, the SMS provider and the retention window: what operators'
    /// settings change.
    pub live: LiveCell,
    /// CPU-heavy work of requests, off the async runtime and bounded.
    pub cpu: CpuPool,
    /// Where jobs are enqueued, and this process's idle workers woken.
    pub jobs: JobQueue,
    /// How many jobs this process's workers have finished: the commands waiting on their
    /// jobs (`ingest --wait`, `bibs --wait`) look again once it has grown by what they
    /// wait for ([`crate::jobs::wait_until`]).
    pub jobs_finished: tokio::sync::watch::Sender<u64>,
    /// The fonts certificates are set in; `None` when `certificates.fonts_dir` lacks the
    /// family (certificates then answer `unavailable`, and the start says why).
    pub fonts: Option<Fonts>,
}

impl AppState {
    pub fn new(inner: Inner) -> Self {
        AppState(Arc::new(inner))
    }

    /// The gateways, mailer and retention window in force now.
    pub fn live(&self) -> Arc<Live> {
        self.live.get()
    }

    pub fn now(&self) -> DateTime<Utc> {
        self.0.clock.now()
    }

    /// What searching an event uses.
    pub fn search(&self) -> SearchContext<'_> {
        SearchContext {
            store: &self.store,
            faces: &self.faces,
            indexes: &self.indexes,
            slots: &self.search_slots,
            clock: self.clock,
        }
    }

    /// What moving an event to another model pair uses.
    pub fn reindexing(&self) -> Reindexing<'_> {
        Reindexing {
            store: &self.store,
            faces: &self.faces,
            indexes: &self.indexes,
            alerts: &self.alerts,
            jobs: &self.jobs,
            clock: self.clock,
            old_faces_kept: self.config.server.catalogue_ttl * 2,
        }
    }

    /// What hiding one's photos uses.
    pub fn privacy(&self) -> Privacy<'_> {
        Privacy {
            store: &self.store,
            objects: &self.objects,
            faces: &self.faces,
            indexes: &self.indexes,
            slots: &self.search_slots,
            jobs: &self.jobs,
            clock: self.clock,
        }
    }

    /// What telling runners uses.
    pub fn outbox(&self) -> Outbox<'_> {
        Outbox::new(&self.store, &self.live, &self.links, self.clock)
    }

    /// What alerts of new photos, and LINE Login, use.
    pub fn alerting(&self) -> Alerting<'_> {
        Alerting {
            store: &self.store,
            templates: &self.alerts,
            faces: &self.faces,
            slots: &self.search_slots,
            live: &self.live,
            links: &self.links,
            signing_key: &self.signing_key,
            jobs: &self.jobs,
            clock: self.clock,
        }
    }

    /// What placing, paying and opening orders use.
    pub fn commerce(&self) -> Commerce<'_> {
        Commerce {
            store: &self.store,
            objects: &self.objects,
            catalogue: &self.catalogue,
            live: &self.live,
            links: &self.links,
            signing_key: &self.signing_key,
            jobs: &self.jobs,
            orders: &self.config.orders,
            payments: &self.config.payments,
            wrong_pass_codes: &self.rate_limits.wrong_pass_codes,
            clock: self.clock,
        }
    }

    /// What drawing certificates uses.
    pub fn certificates(&self) -> Certificates<'_> {
        Certificates {
            search: self.search(),
            objects: &self.objects,
            fonts: self.fonts.as_ref(),
            cpu: &self.cpu,
        }
    }

    /// What adding a photo uses.
    pub fn intake(&self) -> Intake<'_> {
        Intake {
            store: &self.store,
            objects: &self.objects,
            cpu: &self.cpu,
            jobs: &self.jobs,
            clock: self.clock,
        }
    }
}

impl std::ops::Deref for AppState {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}
