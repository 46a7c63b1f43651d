//! Settings of the core, filled by the `sail` binary from flags and env.

use std::sync::Arc;
use std::time::Duration;

use crate::platform::crypto::Keyring;

/// HTTP/2 limits of the core's gRPC server, explicit rather than inherited
/// (docs/architecture.md#the-connection-between-gateway-and-core). Every
/// partner's REST calls share one gateway connection, so its flow-control
/// windows are sized for many streams at once: one large body cannot take
/// the whole connection's window from small calls beside it.
pub mod http2 {
    use std::time::Duration;

    /// Bytes a stream may send before the core has read them.
    pub const STREAM_WINDOW: u32 = 2 * 1024 * 1024;
    /// Bytes all streams of a connection may send before the core has read them.
    pub const CONNECTION_WINDOW: u32 = 16 * 1024 * 1024;
    /// Streams open at once on one connection; a client queues beyond it.
    pub const MAX_CONCURRENT_STREAMS: u32 = 1024;
    /// Largest header section (metadata) of a call. The gateway forwards at
    /// most a few hundred bytes of it; direct callers get room to spare. A
    /// larger one fails that call alone.
    pub const MAX_HEADER_LIST_BYTES: u32 = 32 * 1024;
    /// Pings on an idle connection, so a dead peer is noticed.
    pub const KEEPALIVE_INTERVAL: Duration = Duration::from_secs(20);
    /// A ping unanswered this long closes the connection.
    pub const KEEPALIVE_TIMEOUT: Duration = Duration::from_secs(20);
}

/// How long an `Idempotency-Key` replays its first success
/// (docs/contract.md#wire-conventions); retention keeps replies this long.
pub const IDEMPOTENCY_WINDOW: Duration = Duration::from_secs(24 * 3600);

/// How long one webhook delivery attempt may take (docs/contract.md#webhooks-and-events).
pub const WEBHOOK_ATTEMPT_TIMEOUT: Duration = Duration::from_secs(10);

/// Enabled webhook endpoints a partner may have (docs/webhooks.md).
pub const MAX_WEBHOOK_ENDPOINTS: u64 = 16;

/// Redeliveries a partner may ask for per minute: each sends the event to
/// every subscribed endpoint again.
pub const REDELIVERIES_PER_MINUTE: u32 = 10;

/// How long a verified API key is used without reading it again.
pub const KEY_CACHE_TTL: Duration = Duration::from_secs(1);

/// What a running core needs to know beyond its database. It has no
/// `Default`: the `sail` binary builds the one production configuration
/// from its flags, naming every field, so a setting nobody gave cannot
/// quietly become a sandbox or a throwaway key; tests build theirs from
/// `sail_test_support::serve_defaults()`.
#[derive(Debug, Clone)]
pub struct CoreConfig {
    /// Sandbox providers and the `/sandbox` operations are on.
    pub sandbox: bool,
    /// Sustained requests per second allowed per API key; 0 turns limiting off.
    pub rate_limit_rps: u32,
    /// Requests a key may burst above the sustained rate.
    pub rate_limit_burst: u32,
    /// Base of hosted-session URLs.
    pub public_url: String,
    /// First webhook retry delay; doubles per attempt up to
    /// `webhook_retry_max_delay`.
    pub webhook_retry_base: Duration,
    /// Longest wait between two attempts of a delivery: after an outage
    /// of the receiver, its backlog is due again within this.
    pub webhook_retry_max_delay: Duration,
    /// Webhook deliveries give up after this age.
    pub webhook_retry_max_age: Duration,
    /// Lifetime of a hosted-session URL.
    pub hosted_session_ttl: Duration,
    /// Background workers claiming ingestion and sync jobs in this process;
    /// 0 makes an API-only core that runs no background work at all.
    pub workers: usize,
    /// How long a worker's claim on a job holds; a worker that dies holding
    /// one leaves the job to another worker after this.
    pub job_lease: Duration,
    /// Webhooks may go to loopback and private addresses (development and
    /// tests only; never implied by sandbox mode). Metadata and other
    /// special-purpose addresses are refused regardless.
    pub webhook_allow_private: bool,
    /// The keys personal data and secrets are sealed with (docs/pii.md):
    /// the operator's, for `sail serve` and `sail core`.
    pub keyring: Arc<Keyring>,
    /// Requests a second, per client address, that bring no valid API key
    /// (0 disables the limit): unknown, revoked or malformed keys, no key,
    /// and hosted page lookups. A request whose key is valid is never
    /// charged here, so junk from an address a partner shares cannot
    /// refuse that partner's calls.
    pub unauthenticated_rps: u32,
    /// Peers trusted to forward the client's address (`sail-client-addr`
    /// metadata): gateways. Loopback peers always are.
    pub trusted_gateways: Vec<std::net::IpAddr>,
    /// How long a verified key is used without reading it again: the most
    /// a revocation or scope change takes to reach every core.
    pub key_cache_ttl: Duration,
    /// Redis holding the per-key rate-limit buckets every core shares
    /// (`redis://host:port`); without it each core limits on its own.
    pub redis_url: Option<String>,
    /// The program that reads receipt files in a child process, and its
    /// limits (docs/receipts.md#reading-in-isolation).
    pub receipt_reader: crate::platform::receipt_reader::ReaderSettings,
    /// Background workers reading receipts in this process, apart from the
    /// ingestion workers: a slow file never holds up a push.
    pub receipt_workers: usize,
    /// Where per-user data keys are kept (docs/pii.md#per-user-data-keys):
    /// a database of their own, or `None` for the main database.
    pub key_store_url: Option<String>,
    /// How long what grows without bound is kept (docs/operations.md#retention).
    pub retention: RetentionPolicy,
}

/// How long Sail keeps what would otherwise grow forever, and how it
/// sweeps (docs/operations.md#retention).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetentionPolicy {
    /// Events, with their deliveries and attempts.
    pub events: Duration,
    /// Webhook delivery attempts.
    pub webhook_attempts: Duration,
    /// Replies kept for `Idempotency-Key` replays (the replay window).
    pub idempotent_replies: Duration,
    /// Rows of the personal-data audit trail.
    pub audit_rows: Duration,
    /// Receipt files (the receipt and its read lines stay).
    pub receipt_files: Duration,
    /// How often a sweep runs (one core of the fleet runs each).
    pub interval: Duration,
    /// Rows per write transaction of a sweep.
    pub batch: u64,
}

impl RetentionPolicy {
    /// The documented defaults: `sail`'s flags start from these.
    pub const DEFAULT: RetentionPolicy = RetentionPolicy {
        events: Duration::from_secs(30 * 86_400),
        webhook_attempts: Duration::from_secs(30 * 86_400),
        idempotent_replies: IDEMPOTENCY_WINDOW,
        audit_rows: Duration::from_secs(2_190 * 86_400),
        receipt_files: Duration::from_secs(2_555 * 86_400),
        interval: Duration::from_secs(3_600),
        batch: 1_000,
    };
}
