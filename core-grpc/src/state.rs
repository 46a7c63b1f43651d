//! `Core`: what a running core shares between its request handlers and its
//! background workers (database, settings, rate limits, the adjudication
//! engine, the webhook HTTP client). A low module: workers and webhook
//! delivery take a `Core` without importing the server that serves it.

use std::sync::Arc;

use sail_engine::{Engine, EngineError};
use sea_orm::DatabaseConnection;

use crate::config::CoreConfig;
use crate::layers::auth::{AddressLimits, KeyCache, RateLimits};
use crate::platform::directory_index::Directory;
use crate::platform::shared_limits::SharedBuckets;
use crate::platform::vault::Vault;
use crate::sandbox::SandboxProviders;
use crate::services::providers::Providers;

/// Everything a running core shares between requests and workers.
#[derive(Clone)]
pub struct Core {
    pub db: DatabaseConnection,
    pub config: Arc<CoreConfig>,
    pub limits: Arc<RateLimits>,
    /// The adjudication engine over the merchant directory.
    pub engine: Arc<Engine>,
    /// The HTTP client webhook deliveries go out through.
    pub http: reqwest::Client,
    /// Redeliveries per partner (each fans out to every subscribed endpoint).
    pub redeliver_limits: Arc<RateLimits>,
    /// API keys verified in the last `key_cache_ttl`.
    pub keys: Arc<KeyCache>,
    /// Requests without a verified key, per client address.
    pub address_limits: Arc<AddressLimits>,
    /// The merchant and administrator directories, indexed in memory.
    pub directory: Directory,
    /// The providers connections are linked through (the sandbox's).
    pub providers: Arc<dyn Providers>,
    /// Whether this core still takes new work (`/readyz`, grpc.health.v1).
    pub readiness: Readiness,
    /// The service keyring and the per-user data keys personal values are
    /// sealed under.
    pub vault: Arc<Vault>,
    /// This core's place in the fleet: its id and heartbeat, and which
    /// other cores are gone.
    pub liveness: Arc<crate::platform::liveness::Liveness>,
}

/// Whether a core takes new work: it does until its stop begins. A stop
/// begins before the listener closes (the CLI waits `--drain-s` between the
/// two), so a load balancer probing `/readyz` or grpc.health.v1 sees
/// `draining` and stops sending while calls in flight still finish.
#[derive(Clone)]
pub struct Readiness {
    draining: Arc<tokio::sync::watch::Sender<bool>>,
}

impl Default for Readiness {
    fn default() -> Self {
        Readiness { draining: Arc::new(tokio::sync::watch::channel(false).0) }
    }
}

impl Readiness {
    /// The stop has begun: from now on the core answers `draining`.
    pub fn begin_drain(&self) {
        self.draining.send_replace(true);
    }

    pub fn is_draining(&self) -> bool {
        *self.draining.borrow()
    }

    /// Resolves once the stop has begun.
    pub async fn drained(&self) {
        let mut draining = self.draining.subscribe();
        let _ = draining.wait_for(|d| *d).await;
    }
}

impl Core {
    /// A core over `db`. The engine's directory is the seeded one
    /// (`data/merchants.csv`), whose ids are deterministic, so `merchant.id`
    /// on an expense is the id `GET /merchants` shows.
    pub fn new(db: DatabaseConnection, config: CoreConfig) -> Result<Self, StartError> {
        let shared = config.redis_url.as_deref().map(SharedBuckets::new).transpose()?.map(Arc::new);
        let mut limits = RateLimits::new(config.rate_limit_rps, config.rate_limit_burst);
        let mut redeliver_limits = RateLimits::per_minute(crate::config::REDELIVERIES_PER_MINUTE)
            .counting("event redeliveries for this partner this minute");
        if let Some(buckets) = &shared {
            limits = limits.shared(buckets.clone(), "key");
            redeliver_limits = redeliver_limits.shared(buckets.clone(), "redeliver");
        }
        let (limits, redeliver_limits) = (Arc::new(limits), Arc::new(redeliver_limits));
        // Reference data loads loudly: a core that cannot read it refuses to start.
        let engine = Arc::new(Engine::seeded()?);
        crate::sandbox::generate::load_reference()?;
        // reqwest is built without a TLS provider of its own (one crypto
        // library, ring, for the whole binary): install it once.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::builder()
            .timeout(crate::config::WEBHOOK_ATTEMPT_TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            // Addresses are checked where connections are made (DNS
            // rebinding cannot slip past a separate earlier check).
            .dns_resolver(Arc::new(crate::platform::egress::resolver::PublicOnly {
                allow_private: config.webhook_allow_private,
            }))
            .user_agent(concat!("Sail-Webhooks/", env!("CARGO_PKG_VERSION")))
            .build()?;
        let keys = Arc::new(KeyCache::new(config.key_cache_ttl));
        let keyring = config.keyring.clone();
        let address_limits =
            Arc::new(AddressLimits::new(config.unauthenticated_rps, config.trusted_gateways.iter().copied()));
        Ok(Core {
            db,
            config: Arc::new(config),
            limits,
            engine,
            http,
            redeliver_limits,
            keys,
            address_limits,
            directory: Directory::new(SandboxProviders.card_issuers()),
            providers: Arc::new(SandboxProviders),
            readiness: Readiness::default(),
            vault: Arc::new(Vault::in_main_database(keyring)),
            liveness: Arc::default(),
        })
    }

    /// `new`, then the key store named by `config.key_store_url` connected
    /// (and its table made): what `sail serve`, `sail core` and the tests
    /// start. A store that cannot be reached stops the start.
    pub async fn connect(db: DatabaseConnection, config: CoreConfig) -> Result<Self, StartError> {
        let url = config.key_store_url.clone();
        let mut core = Core::new(db, config)?;
        if let Some(url) = url {
            let vault = Vault::connect(core.config.keyring.clone(), &url).await.map_err(StartError::KeyStore)?;
            core.vault = Arc::new(vault);
        }
        Ok(core)
    }
}

/// Why a core could not be built.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("adjudication engine: {0}")]
    Engine(#[from] EngineError),
    #[error("webhook HTTP client: {0}")]
    Http(#[from] reqwest::Error),
    #[error(transparent)]
    Reference(#[from] sail_engine::reference::ReferenceError),
    #[error("SAIL_REDIS_URL: {0}")]
    Redis(#[from] redis::RedisError),
    #[error("the key store (SAIL_KEY_STORE_URL): {0}")]
    KeyStore(sea_orm::DbErr),
}
