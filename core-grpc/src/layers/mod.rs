//! The tower layers every gRPC call passes before its handler, over the
//! network or in process: counting and timing (`call_metrics`),
//! authentication, rate limits and scopes (`auth`), then `Idempotency-Key`
//! for the methods proto declares idempotent (`idempotency`).

pub mod auth;
pub mod call_metrics;
pub mod idempotency;
