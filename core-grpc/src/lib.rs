//! Sail's gRPC core. It authenticates every call, enforces the scopes declared
//! in `proto/`, keeps each partner's data invisible to every other partner,
//! validates input, and holds all business logic over the sea-orm entities.
//!
//! Layout, lowest first (modules import downwards only; the
//! `module_graph` test keeps it so): `domain` holds parsed value types;
//! `db`, `lease`, `signal` and `config` are plumbing; `state::Core` is what
//! handlers and workers share; `events` reads and `outbox` writes the event
//! log; the business modules (`users`, `connections`, `ingest`, `expenses`,
//! `sandbox`, `webhooks`…) are transport-free functions that own their
//! transactions; `worker` is the one claim-and-lease loop that `job_worker`
//! and `webhooks::delivery` plug into; `grpc` adapts the business modules
//! to the generated services; `auth` is the request path every call passes
//! through; `server::run`, imported by nobody, composes it all. The
//! adjudication engine is its own crate, `sail-engine`. See
//! `docs/architecture.md`.

pub mod accounts;
pub mod admin;
pub mod auth;
pub mod config;
pub mod connections;
pub mod crypto;
pub mod db;
pub mod directory;
pub mod directory_index;
pub mod domain;
pub mod egress;
pub mod error;
pub mod events;
pub mod expenses;
pub mod fuzzy;
pub mod grpc;
pub mod hosted_sessions;
pub mod idempotency;
pub mod ingest;
pub mod job_worker;
pub mod jobs;
pub mod lease;
pub mod memo;
pub mod outbox;
pub mod pii;
pub mod providers;
pub mod receipt_reader;
pub mod receipts;
pub mod rotation;
pub mod sandbox;
pub mod server;
pub mod shared_limits;
pub mod signal;
pub mod state;
pub mod user_tokens;
pub mod users;
pub mod webhooks;
pub mod worker;

pub use config::CoreConfig;
pub use error::CoreError;
pub use server::run;
pub use state::{Core, StartError};
