//! `/users`: list, create, read.

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use http::StatusCode;
use sail_api::pb::{self, users_client::UsersClient};
use serde::Deserialize;
use tonic::transport::Channel;

use crate::context::CallContext;
use crate::error::ApiError;
use crate::extract::{JsonBody, QueryParams};

pub fn router() -> Router<Channel> {
    Router::new().route("/users", get(list_users).post(create_user)).route("/users/{user_id}", get(get_user))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AddressBody {
    street: Option<String>,
    city: Option<String>,
    state: Option<String>,
    zip: Option<String>,
    country: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateUserBody {
    external_user_id: String,
    email: Option<String>,
    first_name: Option<String>,
    last_name: Option<String>,
    phone: Option<String>,
    address: Option<AddressBody>,
}

async fn list_users(
    State(core): State<Channel>,
    ctx: CallContext,
    mut query: QueryParams,
) -> Result<Json<pb::ListUsersResponse>, ApiError> {
    let status = query.string("status");
    let (limit, offset) = query.page()?;
    query.finish()?;
    let reply = UsersClient::new(core).list_users(ctx.request(pb::ListUsersRequest { status, limit, offset })).await?;
    Ok(Json(reply.into_inner()))
}

async fn create_user(
    State(core): State<Channel>,
    ctx: CallContext,
    JsonBody(body): JsonBody<CreateUserBody>,
) -> Result<(StatusCode, Json<pb::User>), ApiError> {
    let request = pb::CreateUserRequest {
        external_user_id: body.external_user_id,
        email: body.email,
        first_name: body.first_name,
        last_name: body.last_name,
        phone: body.phone,
        address: body.address.map(|a| pb::Address {
            street: a.street,
            city: a.city,
            state: a.state,
            zip: a.zip,
            country: a.country,
        }),
    };
    let reply = UsersClient::new(core).create_user(ctx.request(request)).await?;
    Ok((StatusCode::CREATED, Json(reply.into_inner())))
}

async fn get_user(
    State(core): State<Channel>,
    ctx: CallContext,
    Path(user_id): Path<String>,
    query: QueryParams,
) -> Result<Json<pb::User>, ApiError> {
    query.finish()?;
    let reply = UsersClient::new(core).get_user(ctx.request(pb::GetUserRequest { user_id })).await?;
    Ok(Json(reply.into_inner()))
}
