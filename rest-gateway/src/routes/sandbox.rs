//! `/sandbox/connections`: link any provider kind without a browser.

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use http::StatusCode;
use sail_api::pb::{self, sandbox_client::SandboxClient};
use serde::Deserialize;
use tonic::transport::Channel;

use crate::context::CallContext;
use crate::error::ApiError;
use crate::extract::JsonBody;

pub fn router() -> Router<Channel> {
    Router::new().route("/sandbox/connections", post(create_sandbox_connection))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SandboxConnectionBody {
    user_id: String,
    #[serde(rename = "type")]
    kind: Option<String>,
    provider_id: Option<String>,
    username: Option<String>,
}

async fn create_sandbox_connection(
    State(core): State<Channel>,
    ctx: CallContext,
    JsonBody(body): JsonBody<SandboxConnectionBody>,
) -> Result<(StatusCode, Json<pb::Connection>), ApiError> {
    let request = pb::CreateSandboxConnectionRequest {
        user_id: body.user_id,
        r#type: body.kind.unwrap_or_default(),
        provider_id: body.provider_id,
        username: body.username,
    };
    let reply = SandboxClient::new(core).create_sandbox_connection(ctx.request(request)).await?;
    Ok((StatusCode::CREATED, Json(reply.into_inner())))
}
