//! Sail's gRPC core. It authenticates every call, enforces the scopes declared
//! in `proto/`, keeps each partner's data invisible to every other partner,
//! validates input, and holds all business logic over the sea-orm entities.
//!
//! Layout, lowest first; each folder is a layer that imports only the ones
//! above it in this list (the `module_graph` test keeps it so, between the
//! layers and between the modules of each):
//!
//! - `error` and `domain`: the core's one error type and parsed value types;
//! - `platform`: what every service stands on: database connections and
//!   write transactions, the keyring and its rotation, the job queue and its
//!   leases, shared rate-limit buckets, the outbound network guard, the
//!   receipt reader's child process, the in-memory directory index;
//! - `config`: the settings a core runs with;
//! - `services`: the business, as transport-free functions that own their
//!   transactions: users, connections, accounts, expenses, ingestion,
//!   receipts, personal data, hosted sessions, webhook endpoints, the event
//!   log and its outbox, and `providers`, the trait providers are reached
//!   through;
//! - `sandbox`: the sandbox's providers, the one implementation of
//!   `services::providers::Providers`;
//! - `layers`: the tower layers every call passes: authentication, scopes and
//!   rate limits (`auth`), then `Idempotency-Key` (`idempotency`);
//! - `state`: `Core`, what handlers and workers share;
//! - `background`: the one claim-and-lease loop (`worker`), the jobs it runs
//!   (`job_worker`: ingestion, syncs, receipt readings) and webhook delivery;
//! - `grpc`: the adapters from the generated services to the services;
//! - `server`: imported by nobody, composes it all (`server::run`).
//!
//! The adjudication engine is its own crate, `sail-engine`. See
//! `docs/architecture.md`.

pub mod background;
pub mod config;
pub mod domain;
pub mod error;
pub mod grpc;
pub mod layers;
pub mod platform;
pub mod sandbox;
pub mod server;
pub mod services;
pub mod state;

pub use config::CoreConfig;
pub use error::CoreError;
pub use server::run;
pub use state::{Core, StartError};
