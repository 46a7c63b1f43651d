//! `/users/{user_id}/accounts`: list (filters `connection_id`, `type`) and detail.

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use sail_api::pb::{self, accounts_client::AccountsClient};
use tonic::transport::Channel;

use crate::context::CallContext;
use crate::error::ApiError;
use crate::extract::QueryParams;

pub fn router() -> Router<Channel> {
    Router::new()
        .route("/users/{user_id}/accounts", get(list_accounts))
        .route("/users/{user_id}/accounts/{account_id}", get(get_account))
}

async fn list_accounts(
    State(core): State<Channel>,
    ctx: CallContext,
    Path(user_id): Path<String>,
    mut query: QueryParams,
) -> Result<Json<pb::ListAccountsResponse>, ApiError> {
    let connection_id = query.string("connection_id");
    let r#type = query.string("type");
    let (limit, offset) = query.page()?;
    query.finish()?;
    let request = pb::ListAccountsRequest { user_id, connection_id, r#type, limit, offset };
    let reply = AccountsClient::new(core).list_accounts(ctx.request(request)).await?;
    Ok(Json(reply.into_inner()))
}

async fn get_account(
    State(core): State<Channel>,
    ctx: CallContext,
    Path((user_id, account_id)): Path<(String, String)>,
    query: QueryParams,
) -> Result<Json<pb::AccountDetail>, ApiError> {
    query.finish()?;
    let reply =
        AccountsClient::new(core).get_account(ctx.request(pb::GetAccountRequest { user_id, account_id })).await?;
    Ok(Json(reply.into_inner()))
}
