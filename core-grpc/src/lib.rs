//! Sail's gRPC core. It authenticates every call, enforces the scopes declared
//! in `proto/`, keeps each partner's data invisible to every other partner,
//! validates input, and holds all business logic over the sea-orm entities.
//!
//! Layout: `domain` holds parsed value types; the business modules (`users`,
//! `directory`, `admin`) are transport-free functions over
//! `&impl ConnectionTrait`; `grpc` adapts them to the generated services;
//! `auth` is the request path every call passes through; `server::run` serves.

pub mod accounts;
pub mod admin;
pub mod auth;
pub mod config;
pub mod connections;
pub mod db;
pub mod directory;
pub mod domain;
pub mod engine;
pub mod error;
pub mod events;
pub mod expenses;
pub mod fuzzy;
pub mod grpc;
pub mod idempotency;
pub mod ingest;
pub mod jobs;
pub mod lease;
pub mod reference;
pub mod sandbox;
pub mod server;
pub mod users;
pub mod webhooks;
pub mod worker;

pub use config::CoreConfig;
pub use error::CoreError;
pub use server::{Core, run};
