//! `GET /healthz`: 200 when the core answers and its database is reachable.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use http::StatusCode;
use sail_api::pb::{self, api_health_client::ApiHealthClient};
use sail_api::rest::CoreChannel as Channel;
use serde_json::{Value, json};

pub fn router(core: Channel) -> Router {
    Router::new().route("/healthz", get(healthz)).with_state(core)
}

async fn healthz(State(core): State<Channel>) -> (StatusCode, Json<Value>) {
    match ApiHealthClient::new(core).check(pb::CheckRequest {}).await {
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
