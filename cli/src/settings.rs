//! Commands and settings of docs/contract.md#running. Every flag has an environment
//! variable of the same name.

use std::net::SocketAddr;
use std::time::Duration;

use clap::{ArgAction, Args, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(name = "sail", version, about = "Sail: the partner data service for health-spending accounts")]
pub struct Cli {
    #[command(flatten)]
    pub settings: Settings,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Args)]
pub struct Settings {
    /// sqlite://… (embedded) or postgres://… (production).
    #[arg(long, env = "SAIL_DATABASE_URL", default_value = "sqlite://sail.db?mode=rwc", global = true)]
    pub database_url: String,
    /// REST gateway address; port 0 binds a free port.
    #[arg(long, env = "SAIL_HTTP_ADDR", default_value = "127.0.0.1:8080", global = true)]
    pub http_addr: SocketAddr,
    /// gRPC core address; port 0 binds a free port.
    #[arg(long, env = "SAIL_GRPC_ADDR", default_value = "127.0.0.1:50051", global = true)]
    pub grpc_addr: SocketAddr,
    /// Base of hosted-session URLs; defaults to http://<bound http addr>.
    #[arg(long, env = "SAIL_PUBLIC_URL", global = true)]
    pub public_url: Option<String>,
    /// Sandbox providers and /sandbox endpoints (`--sandbox false` for production).
    #[arg(long, env = "SAIL_SANDBOX", default_value_t = true, action = ArgAction::Set, global = true)]
    pub sandbox: bool,
    /// Sustained requests per second per API key (0 disables limiting).
    #[arg(long, env = "SAIL_RATE_LIMIT_RPS", default_value_t = 100, global = true)]
    pub rate_limit_rps: u32,
    /// Burst allowance per API key.
    #[arg(long, env = "SAIL_RATE_LIMIT_BURST", default_value_t = 200, global = true)]
    pub rate_limit_burst: u32,
    /// First webhook retry delay in ms, doubling per attempt (capped at 1 h).
    #[arg(long, env = "SAIL_WEBHOOK_RETRY_BASE_MS", default_value_t = 10_000, global = true)]
    pub webhook_retry_base_ms: u64,
    /// Give up a webhook delivery after this many seconds.
    #[arg(long, env = "SAIL_WEBHOOK_RETRY_MAX_AGE_S", default_value_t = 259_200, global = true)]
    pub webhook_retry_max_age_s: u64,
    /// Lifetime of a hosted-session URL in seconds.
    #[arg(long, env = "SAIL_HOSTED_SESSION_TTL_S", default_value_t = 1800, global = true)]
    pub hosted_session_ttl_s: u64,
    /// Background workers (jobs, webhook deliveries) in a core process.
    #[arg(long, env = "SAIL_WORKERS", default_value_t = 2, global = true)]
    pub workers: usize,
    /// How long a worker's claim on a job holds; a crashed worker's jobs are
    /// taken over after this.
    #[arg(long, env = "SAIL_JOB_LEASE_S", default_value_t = 60, global = true)]
    pub job_lease_s: u64,
    /// Largest API request body in bytes.
    #[arg(long, env = "SAIL_MAX_BODY_BYTES", default_value_t = 2_097_152, global = true)]
    pub max_body_bytes: usize,
}

impl Settings {
    pub fn core_config(&self, public_url: String) -> core_grpc::CoreConfig {
        core_grpc::CoreConfig {
            sandbox: self.sandbox,
            rate_limit_rps: self.rate_limit_rps,
            rate_limit_burst: self.rate_limit_burst,
            public_url,
            webhook_retry_base: Duration::from_millis(self.webhook_retry_base_ms),
            webhook_retry_max_age: Duration::from_secs(self.webhook_retry_max_age_s),
            hosted_session_ttl: Duration::from_secs(self.hosted_session_ttl_s),
            workers: self.workers,
            job_lease: Duration::from_secs(self.job_lease_s),
        }
    }

    pub fn gateway_config(&self) -> rest_gateway::GatewayConfig {
        rest_gateway::GatewayConfig { max_body_bytes: self.max_body_bytes, ..Default::default() }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// gRPC core and REST gateway in one process (applies migrations first).
    Serve,
    /// The gRPC core alone (applies migrations first).
    Core,
    /// The REST gateway alone, calling a core over gRPC; holds no database.
    Gateway {
        /// The core's gRPC address, e.g. http://127.0.0.1:50051.
        #[arg(long, env = "SAIL_CORE_URL")]
        core_url: String,
    },
    /// Applies migrations and exits.
    Migrate,
    /// Partner accounts.
    #[command(subcommand)]
    Partners(PartnersCommand),
    /// API keys.
    #[command(subcommand)]
    Keys(KeysCommand),
    /// Webhook helpers.
    #[command(subcommand)]
    Webhooks(WebhooksCommand),
    /// Prints the OpenAPI 3.1 document of the REST API (the one served at
    /// /api/v1/openapi.json and committed as docs/openapi.json).
    Openapi,
}

#[derive(Debug, Subcommand)]
pub enum WebhooksCommand {
    /// Checks a Sail-Signature header against a saved request body; exits 0
    /// when it verifies, 1 when it does not.
    Verify {
        /// The endpoint's signing secret (whsec_…).
        #[arg(long)]
        secret: String,
        /// The Sail-Signature header value (t=…,v1=…).
        #[arg(long)]
        header: String,
        /// A file holding the raw request body, byte for byte.
        #[arg(long)]
        body_file: std::path::PathBuf,
        /// How old a signature may be, in seconds.
        #[arg(long, default_value_t = 300)]
        tolerance_s: i64,
    },
}

#[derive(Debug, Subcommand)]
pub enum PartnersCommand {
    /// Creates a partner account and prints its id.
    Create {
        #[arg(long)]
        name: String,
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Issues an API key, printing its secret exactly once.
    Create {
        #[arg(long)]
        partner: String,
        /// Comma-separated: expenses, benefit_account, account_numbers, identity, ingest, token_admin, connections.
        #[arg(long)]
        scopes: String,
        #[arg(long)]
        name: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Lists a partner's keys (never their secrets).
    List {
        #[arg(long)]
        partner: String,
        #[arg(long)]
        json: bool,
    },
    /// Revokes a key at once.
    Revoke {
        key_id: String,
        #[arg(long)]
        json: bool,
    },
}

/// Logs to stderr; `RUST_LOG` overrides the default `info`.
pub fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| {
        tracing_subscriber::EnvFilter::new(
            "info,sqlx=warn,sea_orm=warn,sea_orm_migration=warn,h2=warn,tower=warn,hyper=warn",
        )
    });
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(ansi)
        .with_target(false)
        .init();
}
