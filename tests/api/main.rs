//! Gateway-to-core integration tests: every test starts a real core and a real
//! gateway on port 0 over a fresh database (a temp SQLite file, or a fresh
//! PostgreSQL database when `SAIL_TEST_DATABASE_URL` is a postgres:// URL) and
//! talks HTTP to the gateway, which talks gRPC to the core.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or benchmark: a failed step is the run failing, and says where"
)]

/// The shared test support, under the name the suite has always used.
mod helpers {
    pub use sail_test_support::*;
}

mod accounts;
mod connections;
mod database;
mod directory;
mod errors;
mod expenses;
mod fairness;
mod grpc;
mod hosted_sessions;
mod hostile_files;
mod idempotency;
mod ingestion;
mod isolation;
mod openapi;
mod pii;
mod probes;
mod query_plans;
mod receipts;
mod reference_data;
mod retention;
mod sandbox;
mod user_erasure;
mod user_lifecycle;
mod users;
mod webhooks;
