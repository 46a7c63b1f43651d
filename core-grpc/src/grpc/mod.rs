//! Thin adapters from the generated tonic services to the business modules:
//! read the caller, turn proto fields into domain values, call, map back.

pub mod accounts;
pub mod connections;
pub mod directory;
pub mod health;
pub mod sandbox;
pub mod transactions;
pub mod users;
pub mod webhooks;
