//! The `/api/v1` routes, one module per resource. Each handler parses the
//! request, makes one gRPC call with the caller's context, and renders the
//! reply (proto messages serialize to the contract's JSON directly).

pub mod accounts;
pub mod connections;
pub mod directory;
pub mod health;
pub mod sandbox;
pub mod transactions;
pub mod users;
pub mod webhooks;

use axum::Router;
use tonic::transport::Channel;

/// Every `/api/v1` route.
pub fn api(core: Channel) -> Router {
    Router::new()
        .merge(users::router())
        .merge(directory::router())
        .merge(connections::router())
        .merge(accounts::router())
        .merge(sandbox::router())
        .merge(transactions::router())
        .merge(webhooks::router())
        .with_state(core)
}
