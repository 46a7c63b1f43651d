//! The probes a load balancer or an orchestrator calls, outside `/api/v1`:
//!
//! - `GET /livez`: the gateway process answers (liveness; calls nothing).
//! - `GET /healthz`: `200` when the core answers and its database is
//!   reachable (the contract's health check).
//! - `GET /readyz`: `200` when this gateway and its core take new work: the
//!   core answers, its database is reachable, and neither has begun to stop;
//!   `503` with the reason otherwise (`draining`, `unavailable`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use http::StatusCode;
use sail_api::pb::{self, api_health_client::ApiHealthClient};
use sail_api::rest::CoreChannel as Channel;
use serde_json::{Value, json};

#[derive(Clone)]
struct Probes {
    core: Channel,
    draining: Arc<AtomicBool>,
}

pub fn router(core: Channel, draining: Arc<AtomicBool>) -> Router {
    Router::new()
        .route("/livez", get(livez))
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .with_state(Probes { core, draining })
}

async fn livez() -> Json<Value> {
    Json(json!({"status": "ok"}))
}

async fn healthz(State(probes): State<Probes>) -> (StatusCode, Json<Value>) {
    match ApiHealthClient::new(probes.core).check(pb::CheckRequest {}).await {
        Ok(reply) => {
            let reply = reply.into_inner();
            (StatusCode::OK, Json(json!({"status": reply.status, "database": reply.database})))
        }
        Err(status) => {
            tracing::warn!(grpc_code = ?status.code(), "health check failed");
            (StatusCode::SERVICE_UNAVAILABLE, Json(json!({"status": "unavailable"})))
        }
    }
}

async fn readyz(State(probes): State<Probes>) -> (StatusCode, Json<Value>) {
    if probes.draining.load(Ordering::SeqCst) {
        return (StatusCode::SERVICE_UNAVAILABLE, Json(json!({"status": "draining", "draining": "gateway"})));
    }
    match ApiHealthClient::new(probes.core).ready(pb::ReadyRequest {}).await {
        Ok(reply) => {
            let reply = reply.into_inner();
            let status = if reply.status == "ready" { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
            let mut body = json!({"status": reply.status, "database": reply.database});
            if reply.status == "draining" {
                body["draining"] = json!("core");
            }
            (status, Json(body))
        }
        Err(status) => {
            tracing::warn!(grpc_code = ?status.code(), "readiness check failed");
            (StatusCode::SERVICE_UNAVAILABLE, Json(json!({"status": "unavailable", "core": "unreachable"})))
        }
    }
}
