//! `/webhook-endpoints` and `/events`.

use axum::extract::{Path, State};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use http::StatusCode;
use sail_api::pb::{self, events_client::EventsClient, webhook_endpoints_client::WebhookEndpointsClient};
use serde::Deserialize;
use tonic::transport::Channel;

use crate::context::CallContext;
use crate::error::ApiError;
use crate::extract::{JsonBody, QueryParams};

pub fn router() -> Router<Channel> {
    Router::new()
        .route("/webhook-endpoints", get(list_endpoints).post(create_endpoint))
        .route("/webhook-endpoints/{webhook_endpoint_id}", delete(delete_endpoint))
        .route("/events", get(list_events))
        .route("/events/{event_id}", get(get_event))
        .route("/events/{event_id}/redeliver", post(redeliver_event))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateEndpointBody {
    url: String,
    events: Option<Vec<String>>,
}

async fn create_endpoint(
    State(core): State<Channel>,
    ctx: CallContext,
    JsonBody(body): JsonBody<CreateEndpointBody>,
) -> Result<(StatusCode, Json<pb::WebhookEndpoint>), ApiError> {
    let request = pb::CreateWebhookEndpointRequest { url: body.url, events: body.events.unwrap_or_default() };
    let reply = WebhookEndpointsClient::new(core).create_webhook_endpoint(ctx.request(request)).await?;
    Ok((StatusCode::CREATED, Json(reply.into_inner())))
}

async fn list_endpoints(
    State(core): State<Channel>,
    ctx: CallContext,
    mut query: QueryParams,
) -> Result<Json<pb::ListWebhookEndpointsResponse>, ApiError> {
    let (limit, offset) = query.page()?;
    query.finish()?;
    let reply = WebhookEndpointsClient::new(core)
        .list_webhook_endpoints(ctx.request(pb::ListWebhookEndpointsRequest { limit, offset }))
        .await?;
    Ok(Json(reply.into_inner()))
}

async fn delete_endpoint(
    State(core): State<Channel>,
    ctx: CallContext,
    Path(webhook_endpoint_id): Path<String>,
    query: QueryParams,
) -> Result<Json<pb::WebhookEndpoint>, ApiError> {
    query.finish()?;
    let reply = WebhookEndpointsClient::new(core)
        .delete_webhook_endpoint(ctx.request(pb::DeleteWebhookEndpointRequest { webhook_endpoint_id }))
        .await?;
    Ok(Json(reply.into_inner()))
}

async fn list_events(
    State(core): State<Channel>,
    ctx: CallContext,
    mut query: QueryParams,
) -> Result<Json<pb::ListEventsResponse>, ApiError> {
    let r#type = query.string("type");
    let (limit, offset) = query.page()?;
    query.finish()?;
    let reply =
        EventsClient::new(core).list_events(ctx.request(pb::ListEventsRequest { r#type, limit, offset })).await?;
    Ok(Json(reply.into_inner()))
}

async fn get_event(
    State(core): State<Channel>,
    ctx: CallContext,
    Path(event_id): Path<String>,
    query: QueryParams,
) -> Result<Json<pb::Event>, ApiError> {
    query.finish()?;
    let reply = EventsClient::new(core).get_event(ctx.request(pb::GetEventRequest { event_id })).await?;
    Ok(Json(reply.into_inner()))
}

async fn redeliver_event(
    State(core): State<Channel>,
    ctx: CallContext,
    Path(event_id): Path<String>,
    query: QueryParams,
) -> Result<Json<pb::Event>, ApiError> {
    query.finish()?;
    let reply = EventsClient::new(core).redeliver_event(ctx.request(pb::RedeliverEventRequest { event_id })).await?;
    Ok(Json(reply.into_inner()))
}
