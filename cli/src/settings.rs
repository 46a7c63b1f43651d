//! The `sail` command line (docs/contract.md#running): each command takes
//! only the settings it uses (server settings on the commands that run
//! servers, the database on the commands that use one), and every flag has an
//! environment variable of the same name.

use std::net::SocketAddr;
use std::time::Duration;

use clap::{ArgAction, Args, Parser, Subcommand};

use crate::encryption::EncryptionArgs;
pub use crate::logging::LogFormat;

#[derive(Debug, Parser)]
#[command(name = "sail", version, about = "Sail: the partner data service for health-spending accounts")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// Where the data lives.
#[derive(Debug, Clone, Args)]
pub struct DatabaseArgs {
    /// The database: sqlite://PATH?mode=rwc (embedded, the default) or
    /// postgres://USER@HOST:PORT/NAME (production). A relative SQLite path is
    /// relative to the working directory.
    #[arg(long, env = "SAIL_DATABASE_URL", default_value = "sqlite://sail.db?mode=rwc")]
    pub database_url: String,
}

/// The database of a production core: named explicitly, never the
/// embedded default.
#[derive(Debug, Clone, Args)]
pub struct ProductionDatabaseArgs {
    /// The database: postgres://USER@HOST:PORT/NAME (or sqlite://PATH);
    /// required, with no default.
    #[arg(long, env = "SAIL_DATABASE_URL")]
    pub database_url: String,
}

/// Operator commands use an existing database; `--create` makes a new one.
#[derive(Debug, Clone, Args)]
pub struct OperatorDatabaseArgs {
    #[command(flatten)]
    pub database: DatabaseArgs,
    /// Create the database (and apply migrations) when it does not exist
    /// yet, instead of refusing; `serve` and `migrate` always do.
    #[arg(long)]
    pub create: bool,
}

/// Who runs an operator command that changes something, as the operator
/// audit trail records it (docs/operations.md#operator-audit).
#[derive(Debug, Clone, Args)]
pub struct ActorArgs {
    /// Who is running this command, for `sail audit operator`. Default:
    /// the OS user and host (`$USER@hostname`).
    #[arg(long, env = "SAIL_ACTOR")]
    pub actor: Option<String>,
}

impl ActorArgs {
    /// The operator as recorded: the name given, or the OS user and host.
    pub fn operator(&self) -> Result<core_grpc::services::operator_audit::Operator, core_grpc::CoreError> {
        let name = match &self.actor {
            Some(name) => name.clone(),
            None => {
                let user =
                    std::env::var("USER").or_else(|_| std::env::var("LOGNAME")).unwrap_or_else(|_| "unknown".into());
                let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
                match host.trim() {
                    "" => user,
                    host => format!("{user}@{host}"),
                }
            }
        };
        core_grpc::services::operator_audit::Operator::parse(&name)
    }
}

/// How a server stops.
#[derive(Debug, Clone, Args)]
pub struct DrainArgs {
    /// Seconds between the start of a stop (SIGTERM, Ctrl-C) and closing the
    /// listeners: `/readyz` and grpc.health.v1 already answer `draining`
    /// while requests still get served, so a load balancer stops sending
    /// first. Set it to the probe's period times its failure threshold.
    #[arg(long, env = "SAIL_DRAIN_S", default_value_t = 0)]
    pub drain_s: u64,
}

/// Logs and metrics of the commands that run servers.
#[derive(Debug, Clone, Args)]
pub struct LogArgs {
    /// Log line format.
    #[arg(long, env = "SAIL_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// The operator listener: `GET /metrics` in Prometheus text format
    /// (docs/operations.md#metrics), never on the partner port. Unset: no
    /// metrics listener. Port 0 binds a free port.
    #[arg(long, env = "SAIL_METRICS_ADDR")]
    pub metrics_addr: Option<SocketAddr>,
    /// An OpenTelemetry collector's OTLP/gRPC address (e.g.
    /// http://127.0.0.1:4317): spans of requests, calls, jobs and webhook
    /// attempts are exported there, and W3C `traceparent` is read from
    /// callers and carried on (docs/operations.md#traces). Unset: no traces.
    #[arg(long, env = "SAIL_OTLP_ENDPOINT")]
    pub otlp_endpoint: Option<String>,
}

impl LogArgs {
    /// Where this server's traces go, as `service`.
    pub fn trace_export(&self, service: &'static str) -> Option<crate::traces::TraceExport<'_>> {
        self.otlp_endpoint.as_deref().map(|endpoint| crate::traces::TraceExport { endpoint, service })
    }
}

/// Settings of the gRPC core.
#[derive(Debug, Clone, Args)]
pub struct CoreArgs {
    /// gRPC core address; port 0 binds a free port.
    #[arg(long, env = "SAIL_GRPC_ADDR", default_value = "127.0.0.1:50051")]
    pub grpc_addr: SocketAddr,
    /// Base of hosted-session URLs; defaults to http://<bound http addr>.
    #[arg(long, env = "SAIL_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Sandbox providers and /sandbox endpoints: on by default for `serve`
    /// (the embedded quickstart), off by default for `core` (production).
    #[arg(long, env = "SAIL_SANDBOX", action = ArgAction::Set)]
    pub sandbox: Option<bool>,
    /// Sustained requests per second per API key (0 disables limiting).
    #[arg(long, env = "SAIL_RATE_LIMIT_RPS", default_value_t = 100)]
    pub rate_limit_rps: u32,
    /// Burst allowance per API key.
    #[arg(long, env = "SAIL_RATE_LIMIT_BURST", default_value_t = 200)]
    pub rate_limit_burst: u32,
    /// First webhook retry delay in ms, doubling per attempt up to
    /// --webhook-retry-max-delay-s.
    #[arg(long, env = "SAIL_WEBHOOK_RETRY_BASE_MS", default_value_t = 10_000)]
    pub webhook_retry_base_ms: u64,
    /// Longest wait in seconds between two attempts of a delivery: a
    /// receiver back from an outage has its backlog due within this.
    #[arg(long, env = "SAIL_WEBHOOK_RETRY_MAX_DELAY_S", default_value_t = 3600,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub webhook_retry_max_delay_s: u64,
    /// Give up a webhook delivery after this many seconds.
    #[arg(long, env = "SAIL_WEBHOOK_RETRY_MAX_AGE_S", default_value_t = 259_200)]
    pub webhook_retry_max_age_s: u64,
    /// Lifetime of a hosted-session URL in seconds.
    #[arg(long, env = "SAIL_HOSTED_SESSION_TTL_S", default_value_t = 1800)]
    pub hosted_session_ttl_s: u64,
    /// Background workers for ingestion and syncs in a core process; 0
    /// serves the API only (no deliveries, no receipt reading either).
    #[arg(long, env = "SAIL_WORKERS", default_value_t = 2)]
    pub workers: usize,
    /// How long a worker's claim on a job holds; a crashed worker's jobs are
    /// taken over after this.
    #[arg(long, env = "SAIL_JOB_LEASE_S", default_value_t = 60)]
    pub job_lease_s: u64,
    /// Let webhooks go to loopback and private addresses (development only;
    /// cloud metadata and other special-purpose addresses are refused anyway).
    #[arg(long, env = "SAIL_WEBHOOK_ALLOW_PRIVATE", default_value_t = false, action = ArgAction::Set)]
    pub webhook_allow_private: bool,
    /// Requests a second per client address that bring no recently
    /// verified API key (each costs a database lookup); burst twice that.
    /// 0 disables the limit.
    #[arg(long, env = "SAIL_UNAUTHENTICATED_RPS", default_value_t = 20)]
    pub unauthenticated_rps: u32,
    /// Gateway addresses trusted to forward the client's address
    /// (comma-separated IPs); loopback always is.
    #[arg(long, env = "SAIL_TRUSTED_GATEWAYS", value_delimiter = ',')]
    pub trusted_gateways: Vec<std::net::IpAddr>,
    /// Redis holding the per-key rate-limit buckets every core shares
    /// (redis://host:port); without it each core limits on its own.
    #[arg(long, env = "SAIL_REDIS_URL")]
    pub redis_url: Option<String>,
    /// Background workers reading receipts (each reading is a child process
    /// under limits); apart from the ingestion workers.
    #[arg(long, env = "SAIL_RECEIPT_WORKERS", default_value_t = 1)]
    pub receipt_workers: usize,
    /// Seconds one receipt reading may take before its process is killed
    /// and the receipt is `unreadable` with `timeout`.
    #[arg(long, env = "SAIL_RECEIPT_TIMEOUT_S", default_value_t = 30)]
    pub receipt_timeout_s: u64,
    #[command(flatten)]
    pub encryption: EncryptionArgs,
    #[command(flatten)]
    pub retention: RetentionArgs,
    #[command(flatten)]
    pub pool: PoolArgs,
}

/// The serving core's database pool: its size and its time limits
/// (docs/operations.md#database-connections). Operator commands keep their
/// own defaults and do not read these.
#[derive(Debug, Clone, Args)]
pub struct PoolArgs {
    /// Most database connections this process opens (default 20 on
    /// PostgreSQL, 8 on SQLite). Across a fleet, keep cores × this under the
    /// server's `max_connections`.
    #[arg(long, env = "SAIL_DB_MAX_CONNECTIONS", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub db_max_connections: Option<u32>,
    /// Milliseconds a request waits for a free connection before it is
    /// answered 503.
    #[arg(long, env = "SAIL_DB_ACQUIRE_TIMEOUT_MS", default_value_t = 10_000)]
    pub db_acquire_timeout_ms: u64,
    /// PostgreSQL: milliseconds a statement may run before the server
    /// cancels it (the request is answered 503); 0: no limit.
    #[arg(long, env = "SAIL_DB_STATEMENT_TIMEOUT_MS", default_value_t = 30_000)]
    pub db_statement_timeout_ms: u64,
    /// PostgreSQL: milliseconds a session may sit idle inside a transaction
    /// before the server ends it; 0: no limit.
    #[arg(long, env = "SAIL_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS", default_value_t = 60_000)]
    pub db_idle_in_transaction_timeout_ms: u64,
    /// Statements slower than this many milliseconds are logged (warn,
    /// with the request or job they ran for); 0: never.
    #[arg(long, env = "SAIL_DB_SLOW_STATEMENT_MS", default_value_t = 500)]
    pub db_slow_statement_ms: u64,
}

impl PoolArgs {
    /// The pool settings for `url`: the serving defaults, overridden.
    pub fn settings(&self, url: &str) -> core_grpc::platform::db::PoolSettings {
        let defaults = core_grpc::platform::db::PoolSettings::serving(url);
        let limit = |ms: u64| (ms > 0).then(|| std::time::Duration::from_millis(ms));
        core_grpc::platform::db::PoolSettings {
            max_connections: self.db_max_connections.unwrap_or(defaults.max_connections),
            acquire_timeout: std::time::Duration::from_millis(self.db_acquire_timeout_ms.max(1)),
            statement_timeout: limit(self.db_statement_timeout_ms),
            idle_in_transaction_timeout: limit(self.db_idle_in_transaction_timeout_ms),
            slow_statement: limit(self.db_slow_statement_ms),
        }
    }
}

/// How long what grows without bound is kept (docs/operations.md#retention).
#[derive(Debug, Clone, Args)]
pub struct RetentionArgs {
    /// Days events are kept, with their deliveries and attempts.
    #[arg(long, env = "SAIL_RETENTION_EVENTS_DAYS", default_value_t = 30)]
    pub retention_events_days: u64,
    /// Days webhook delivery attempts are kept.
    #[arg(long, env = "SAIL_RETENTION_WEBHOOK_ATTEMPTS_DAYS", default_value_t = 30)]
    pub retention_webhook_attempts_days: u64,
    /// Hours replies are kept for Idempotency-Key replays (a key is
    /// honoured for 24 hours, so less than that shortens the window).
    #[arg(long, env = "SAIL_RETENTION_IDEMPOTENT_REPLIES_HOURS", default_value_t = 24)]
    pub retention_idempotent_replies_hours: u64,
    /// Days rows of the personal-data audit trail are kept.
    #[arg(long, env = "SAIL_RETENTION_AUDIT_DAYS", default_value_t = 2190)]
    pub retention_audit_days: u64,
    /// Days receipt files are kept (the receipt and its read lines stay).
    #[arg(long, env = "SAIL_RETENTION_RECEIPT_FILES_DAYS", default_value_t = 2555)]
    pub retention_receipt_files_days: u64,
    /// Seconds between retention sweeps (one core of the fleet runs each).
    #[arg(long, env = "SAIL_RETENTION_INTERVAL_S", default_value_t = 3600)]
    pub retention_interval_s: u64,
}

impl RetentionArgs {
    /// The policy the flags describe.
    pub fn policy(&self) -> core_grpc::config::RetentionPolicy {
        const DAY: u64 = 86_400;
        core_grpc::config::RetentionPolicy {
            events: Duration::from_secs(self.retention_events_days.saturating_mul(DAY)),
            webhook_attempts: Duration::from_secs(self.retention_webhook_attempts_days.saturating_mul(DAY)),
            idempotent_replies: Duration::from_secs(self.retention_idempotent_replies_hours.saturating_mul(3_600)),
            audit_rows: Duration::from_secs(self.retention_audit_days.saturating_mul(DAY)),
            receipt_files: Duration::from_secs(self.retention_receipt_files_days.saturating_mul(DAY)),
            interval: Duration::from_secs(self.retention_interval_s.max(1)),
            batch: core_grpc::config::RetentionPolicy::DEFAULT.batch,
        }
    }
}

/// Settings of the REST gateway.
#[derive(Debug, Clone, Args)]
pub struct GatewayArgs {
    /// REST gateway address; port 0 binds a free port.
    #[arg(long, env = "SAIL_HTTP_ADDR", default_value = "127.0.0.1:8080")]
    pub http_addr: SocketAddr,
    /// Largest API request body in bytes.
    #[arg(long, env = "SAIL_MAX_BODY_BYTES", default_value_t = 2_097_152)]
    pub max_body_bytes: usize,
}

impl CoreArgs {
    /// The core's configuration, every field from a flag (or its default)
    /// and the operator's keyring.
    pub fn core_config(
        &self,
        public_url: String,
        keyring: std::sync::Arc<core_grpc::platform::crypto::Keyring>,
        sandbox: bool,
    ) -> core_grpc::CoreConfig {
        core_grpc::CoreConfig {
            sandbox,
            rate_limit_rps: self.rate_limit_rps,
            rate_limit_burst: self.rate_limit_burst,
            public_url,
            webhook_retry_base: Duration::from_millis(self.webhook_retry_base_ms),
            webhook_retry_max_delay: Duration::from_secs(self.webhook_retry_max_delay_s),
            webhook_retry_max_age: Duration::from_secs(self.webhook_retry_max_age_s),
            hosted_session_ttl: Duration::from_secs(self.hosted_session_ttl_s),
            workers: self.workers,
            job_lease: Duration::from_secs(self.job_lease_s),
            webhook_allow_private: self.webhook_allow_private,
            unauthenticated_rps: self.unauthenticated_rps,
            trusted_gateways: self.trusted_gateways.clone(),
            redis_url: self.redis_url.clone(),
            receipt_workers: self.receipt_workers,
            receipt_reader: core_grpc::platform::receipt_reader::ReaderSettings {
                timeout: Duration::from_secs(self.receipt_timeout_s.max(1)),
                ..core_grpc::platform::receipt_reader::ReaderSettings::this_binary()
            },
            keyring,
            key_cache_ttl: core_grpc::config::KEY_CACHE_TTL,
            key_store_url: self.encryption.key_store_url.clone(),
            retention: self.retention.policy(),
        }
    }
}

impl GatewayArgs {
    pub fn gateway_config(&self) -> rest_gateway::GatewayConfig {
        rest_gateway::GatewayConfig { max_body_bytes: self.max_body_bytes, ..Default::default() }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// gRPC core and REST gateway in one process (creates the database and
    /// applies migrations first). The default for a newcomer.
    Serve {
        #[command(flatten)]
        database: DatabaseArgs,
        #[command(flatten)]
        core: CoreArgs,
        #[command(flatten)]
        gateway: GatewayArgs,
        #[command(flatten)]
        log: LogArgs,
        #[command(flatten)]
        drain: DrainArgs,
    },
    /// The gRPC core alone, for production (creates the database and
    /// applies migrations first). It names its database and encryption key
    /// explicitly and runs with sandbox off unless `--sandbox true`.
    Core {
        #[command(flatten)]
        database: ProductionDatabaseArgs,
        #[command(flatten)]
        core: CoreArgs,
        #[command(flatten)]
        log: LogArgs,
        #[command(flatten)]
        drain: DrainArgs,
    },
    /// The REST gateway alone, calling a core over gRPC; holds no database.
    Gateway {
        /// The core's gRPC address, e.g. http://127.0.0.1:50051.
        #[arg(long, env = "SAIL_CORE_URL")]
        core_url: String,
        #[command(flatten)]
        gateway: GatewayArgs,
        #[command(flatten)]
        log: LogArgs,
        #[command(flatten)]
        drain: DrainArgs,
    },
    /// Copies the embedded database while the service runs (a consistent
    /// copy as of one commit), with its key file beside it and a SHA-256
    /// checksum file. PostgreSQL: use pg_dump or point-in-time recovery.
    Backup {
        /// The copy to write; it (and FILE.key, FILE.sha256) must not exist.
        #[arg(long)]
        to: std::path::PathBuf,
        #[command(flatten)]
        database: DatabaseArgs,
    },
    /// Restores a backup made by `sail backup` into a database that does
    /// not exist yet, after checking its checksum and that the key opens it.
    Restore {
        /// The backup to restore (its FILE.key and FILE.sha256 are used when
        /// present).
        #[arg(long)]
        from: std::path::PathBuf,
        #[command(flatten)]
        database: DatabaseArgs,
        #[command(flatten)]
        encryption: EncryptionArgs,
    },
    /// Creates the database when it is missing, applies migrations, and exits.
    Migrate {
        #[command(flatten)]
        database: DatabaseArgs,
    },
    /// Partner accounts.
    #[command(subcommand)]
    Partners(PartnersCommand),
    /// API keys.
    #[command(subcommand)]
    Keys(KeysCommand),
    /// The audit trail of personal data: every read of an identity or of
    /// account numbers.
    #[command(subcommand)]
    Audit(AuditCommand),
    /// What retention removes, and when (docs/operations.md#retention).
    #[command(subcommand)]
    Retention(RetentionCommand),
    /// For developers: a sandbox partner and keys to try the API with.
    #[command(subcommand)]
    Dev(DevCommand),
    /// Webhook helpers.
    #[command(subcommand)]
    Webhooks(WebhooksCommand),
    /// For developers: forwards your events to a local URL, signed with a
    /// secret printed at start, without a public endpoint
    /// (docs/webhooks.md#local-development). Reads GET /events with your key.
    Listen {
        /// Where to post each event, e.g. http://localhost:3000/webhooks.
        #[arg(long)]
        forward_to: String,
        /// Only these event types (comma-separated); all by default.
        #[arg(long, value_delimiter = ',')]
        events: Vec<String>,
        /// The API's base URL.
        #[arg(long, env = "SAIL_URL", default_value = "http://127.0.0.1:8080/api/v1")]
        api_url: String,
        /// A data key of yours (sk_…).
        #[arg(long, env = "SAIL_KEY", hide_env_values = true)]
        api_key: String,
        /// How often to look for new events, in milliseconds.
        #[arg(long, default_value_t = 1000)]
        poll_ms: u64,
    },
    /// Prints the OpenAPI 3.1 document of the REST API (the one served at
    /// /api/v1/openapi.json and committed as docs/openapi.json).
    Openapi,
    /// Reads one receipt file from standard input and prints its text as
    /// JSON: the child process a core starts per receipt, under limits.
    #[command(hide = true)]
    ReceiptReader {
        /// The file's type, as the core sniffed it.
        content_type: String,
    },
    /// Prints a shell completion script, e.g. `sail completions bash > /etc/bash_completion.d/sail`.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
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
        /// The partner's display name.
        #[arg(long)]
        name: String,
        /// Print `{"id", "name"}` instead of the bare id.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        actor: ActorArgs,
        #[command(flatten)]
        database: OperatorDatabaseArgs,
    },
    /// Lists every partner account, with the origins allowed to embed its
    /// hosted pages.
    List {
        /// Print a JSON array instead of lines.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        database: OperatorDatabaseArgs,
    },
    /// Changes a partner's account: the origins allowed to show its hosted
    /// pages in an iframe (docs/hosted-sessions.md#embedding-in-an-iframe).
    Update {
        /// The partner (ptn_…).
        partner: String,
        /// An origin allowed to frame the partner's `modal` hosted pages:
        /// https://HOST[:PORT], or http:// for localhost, 127.0.0.1 and
        /// [::1]. Repeat it to add several; origins already registered are
        /// kept.
        #[arg(long = "embed-origin", value_name = "ORIGIN", value_parser = parse_embed_origin)]
        embed_origins: Vec<core_grpc::domain::EmbedOrigin>,
        /// Remove every registered origin first (with no --embed-origin,
        /// no site may frame the partner's pages).
        #[arg(long)]
        clear_embed_origins: bool,
        /// Print the partner as JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        actor: ActorArgs,
        #[command(flatten)]
        database: OperatorDatabaseArgs,
    },
}

fn parse_embed_origin(text: &str) -> Result<core_grpc::domain::EmbedOrigin, String> {
    core_grpc::domain::EmbedOrigin::parse(text).map_err(|why| why.to_string())
}

/// What each scope grants, for `keys create --help`.
const SCOPES_HELP: &str = "Comma-separated scopes:
  expenses         read expenses; link cards and stores
  benefit_account  link HSA/FSA administrators; read accounts and balances
  account_numbers  ACH account and routing numbers (with a user token)
  identity         personal information of users and account owners (with a user token)
  ingest           push transactions; read ingestion jobs
  connections      create external connections for pushed transactions
  token_admin      mint and revoke user tokens; may hold no other scope";

#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Issues an API key, printing its secret exactly once.
    Create {
        /// The partner the key belongs to (ptn_…).
        #[arg(long)]
        partner: String,
        #[arg(long, long_help = SCOPES_HELP)]
        /// Comma-separated scopes (see --help for what each grants).
        scopes: String,
        /// A label for the key, shown by `keys list`.
        #[arg(long)]
        name: Option<String>,
        /// Print `{"id", "key", "partner_id", "scopes"}`.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        actor: ActorArgs,
        #[command(flatten)]
        database: OperatorDatabaseArgs,
    },
    /// Lists a partner's keys (never their secrets).
    List {
        /// The partner whose keys to list (ptn_…).
        #[arg(long)]
        partner: String,
        /// Print a JSON array instead of lines.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        database: OperatorDatabaseArgs,
    },
    /// Prints a new random encryption key (32 bytes, base64) for
    /// SAIL_ENCRYPTION_KEY.
    GenerateEncryptionKey,
    /// Re-seals every encrypted value under the current encryption key, then
    /// retires the previous keys. Cores keep serving throughout while they
    /// hold the previous key for reading (SAIL_ENCRYPTION_KEY = the new key,
    /// SAIL_ENCRYPTION_KEY_PREVIOUS = the old one). Resumable: run it again
    /// after an interruption. See docs/pii.md.
    RotateEncryption {
        /// On the embedded database with its key file: make a new key, put
        /// it first in the key file (the old one stays for reading), and
        /// re-seal under it.
        #[arg(long)]
        new_key: bool,
        /// Rows re-sealed per transaction.
        #[arg(long, default_value_t = 500)]
        batch: u64,
        /// Print a JSON summary instead of a progress bar and lines.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        actor: ActorArgs,
        #[command(flatten)]
        database: OperatorDatabaseArgs,
        #[command(flatten)]
        encryption: EncryptionArgs,
    },
    /// Revokes a key at once.
    Revoke {
        /// The key's id (key_…), as `keys list` shows it.
        key_id: String,
        /// Print `{"id", "revoked_at"}`.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        actor: ActorArgs,
        #[command(flatten)]
        database: OperatorDatabaseArgs,
    },
}

#[derive(Debug, Subcommand)]
pub enum AuditCommand {
    /// Lists reads of personal data, newest first: when, which partner,
    /// key and user token, which user, which endpoint, and the request id.
    List {
        /// Only this partner's reads (ptn_…).
        #[arg(long)]
        partner: Option<String>,
        /// Only reads of this user (usr_…).
        #[arg(long)]
        user: Option<String>,
        /// At most this many rows.
        #[arg(long, default_value_t = 100)]
        limit: u64,
        /// Print a JSON array instead of lines.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        database: OperatorDatabaseArgs,
    },
    /// Lists what operators changed through this binary, newest first:
    /// partners created and updated, keys issued and revoked, encryption
    /// rotations, each with who ran it (docs/operations.md#operator-audit).
    Operator {
        /// Only actions on this partner (ptn_…).
        #[arg(long)]
        partner: Option<String>,
        /// Only actions by this actor.
        #[arg(long)]
        actor: Option<String>,
        /// At most this many rows.
        #[arg(long, default_value_t = 100)]
        limit: u64,
        /// Print a JSON array instead of lines.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        database: OperatorDatabaseArgs,
    },
}

#[derive(Debug, Subcommand)]
pub enum RetentionCommand {
    /// Shows, per kind, how long it is kept and how many rows are due now
    /// (older than that): what the next sweep removes.
    Status {
        /// Print JSON instead of lines.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        retention: RetentionArgs,
        #[command(flatten)]
        database: OperatorDatabaseArgs,
    },
    /// Sweeps now instead of waiting for a core's next sweep, and prints
    /// what it removed, in how many batches and the longest batch's time.
    Run {
        /// Print JSON instead of lines.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        retention: RetentionArgs,
        #[command(flatten)]
        database: OperatorDatabaseArgs,
    },
}

#[derive(Debug, Subcommand)]
pub enum DevCommand {
    /// Creates a sandbox partner and a key of every data scope (plus a
    /// token_admin key), and prints `export SAIL_KEY=…` lines to paste into
    /// a shell (`eval "$(sail dev bootstrap)"`).
    Bootstrap {
        /// The partner's display name.
        #[arg(long, default_value = "Sandbox partner")]
        name: String,
        /// The REST address the printed SAIL_URL points at.
        #[arg(long, env = "SAIL_HTTP_ADDR", default_value = "127.0.0.1:8080")]
        http_addr: SocketAddr,
        /// The gRPC address the printed SAIL_GRPC points at.
        #[arg(long, env = "SAIL_GRPC_ADDR", default_value = "127.0.0.1:50051")]
        grpc_addr: SocketAddr,
        /// Print a JSON object instead of export lines.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        actor: ActorArgs,
        #[command(flatten)]
        database: OperatorDatabaseArgs,
    },
}
