//! `/merchants` and `/administrators`: the directories, with fuzzy `search`.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use sail_api::pb::{self, administrators_client::AdministratorsClient, merchants_client::MerchantsClient};
use tonic::transport::Channel;

use crate::context::CallContext;
use crate::error::ApiError;
use crate::extract::QueryParams;

pub fn router() -> Router<Channel> {
    Router::new().route("/merchants", get(list_merchants)).route("/administrators", get(list_administrators))
}

async fn list_merchants(
    State(core): State<Channel>,
    ctx: CallContext,
    mut query: QueryParams,
) -> Result<Json<pb::ListMerchantsResponse>, ApiError> {
    let search = query.string("search");
    let (limit, offset) = query.page()?;
    query.finish()?;
    let reply = MerchantsClient::new(core)
        .list_merchants(ctx.request(pb::ListMerchantsRequest { search, limit, offset }))
        .await?;
    Ok(Json(reply.into_inner()))
}

async fn list_administrators(
    State(core): State<Channel>,
    ctx: CallContext,
    mut query: QueryParams,
) -> Result<Json<pb::ListAdministratorsResponse>, ApiError> {
    let search = query.string("search");
    let (limit, offset) = query.page()?;
    query.finish()?;
    let reply = AdministratorsClient::new(core)
        .list_administrators(ctx.request(pb::ListAdministratorsRequest { search, limit, offset }))
        .await?;
    Ok(Json(reply.into_inner()))
}
