//! `/users/{user_id}/connections`: create (external only), list, read, disconnect.

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use http::StatusCode;
use sail_api::pb::{self, connections_client::ConnectionsClient};
use serde::Deserialize;
use tonic::transport::Channel;

use crate::context::CallContext;
use crate::error::ApiError;
use crate::extract::{JsonBody, QueryParams};

pub fn router() -> Router<Channel> {
    Router::new()
        .route("/users/{user_id}/connections", get(list_connections).post(create_connection))
        .route("/users/{user_id}/connections/{connection_id}", get(get_connection).delete(delete_connection))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateConnectionBody {
    #[serde(rename = "type")]
    kind: Option<String>,
    provider_label: Option<String>,
    products: Option<Vec<String>>,
}

async fn create_connection(
    State(core): State<Channel>,
    ctx: CallContext,
    Path(user_id): Path<String>,
    JsonBody(body): JsonBody<CreateConnectionBody>,
) -> Result<(StatusCode, Json<pb::Connection>), ApiError> {
    let request = pb::CreateConnectionRequest {
        user_id,
        r#type: body.kind.unwrap_or_default(),
        provider_label: body.provider_label.unwrap_or_default(),
        products: body.products.unwrap_or_default(),
    };
    let reply = ConnectionsClient::new(core).create_connection(ctx.request(request)).await?;
    Ok((StatusCode::CREATED, Json(reply.into_inner())))
}

async fn list_connections(
    State(core): State<Channel>,
    ctx: CallContext,
    Path(user_id): Path<String>,
    mut query: QueryParams,
) -> Result<Json<pb::ListConnectionsResponse>, ApiError> {
    let (limit, offset) = query.page()?;
    query.finish()?;
    let reply = ConnectionsClient::new(core)
        .list_connections(ctx.request(pb::ListConnectionsRequest { user_id, limit, offset }))
        .await?;
    Ok(Json(reply.into_inner()))
}

async fn get_connection(
    State(core): State<Channel>,
    ctx: CallContext,
    Path((user_id, connection_id)): Path<(String, String)>,
    query: QueryParams,
) -> Result<Json<pb::Connection>, ApiError> {
    query.finish()?;
    let reply = ConnectionsClient::new(core)
        .get_connection(ctx.request(pb::GetConnectionRequest { user_id, connection_id }))
        .await?;
    Ok(Json(reply.into_inner()))
}

async fn delete_connection(
    State(core): State<Channel>,
    ctx: CallContext,
    Path((user_id, connection_id)): Path<(String, String)>,
    query: QueryParams,
) -> Result<Json<pb::Connection>, ApiError> {
    query.finish()?;
    let reply = ConnectionsClient::new(core)
        .delete_connection(ctx.request(pb::DeleteConnectionRequest { user_id, connection_id }))
        .await?;
    Ok(Json(reply.into_inner()))
}
