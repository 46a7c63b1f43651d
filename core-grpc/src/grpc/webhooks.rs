//! `sail.v1.WebhookEndpoints` and `sail.v1.Events`.

use entities::{event, webhook_endpoint};
use sail_api::pb::{self, events_server::Events, webhook_endpoints_server::WebhookEndpoints};
use tonic::{Request, Response, Status};

use crate::domain::{Page, time};
use crate::grpc::accept;
use crate::services::events;
use crate::services::outbox::{self, DeliveryStatus};
use crate::services::webhooks;
use crate::state::Core;

pub struct WebhooksService {
    pub core: Core,
}

fn endpoint_to_pb(e: webhook_endpoint::Model, secret: Option<String>) -> pb::WebhookEndpoint {
    pb::WebhookEndpoint {
        id: e.id,
        url: e.url,
        events: e.events.split(',').filter(|t| !t.is_empty()).map(str::to_string).collect(),
        secret,
        status: e.status.to_string(),
        created_at: time::rfc3339(&e.created_at),
    }
}

fn event_to_pb(e: event::Model) -> pb::Event {
    pb::Event {
        id: e.id,
        r#type: e.r#type.to_string(),
        created_at: time::rfc3339(&e.created_at),
        data: e.data,
        deliveries: Vec::new(),
        delivery_attempts: Vec::new(),
    }
}

/// Events with their deliveries and attempts, as `GET /events/{id}` shows one.
async fn events_with_history(core: &Core, found: Vec<event::Model>) -> Result<Vec<pb::Event>, crate::CoreError> {
    let ids: Vec<String> = found.iter().map(|e| e.id.clone()).collect();
    let mut histories = events::delivery_histories(&core.db, &ids).await?;
    let at = |ms: i64| chrono::DateTime::from_timestamp_millis(ms).map(|t| time::rfc3339(&t));
    Ok(found
        .into_iter()
        .map(|e| {
            let history = histories.remove(&e.id).unwrap_or_default();
            let mut out = event_to_pb(e);
            out.deliveries = history
                .deliveries
                .into_iter()
                .map(|d| pb::EventDelivery {
                    endpoint_id: d.endpoint_id,
                    next_attempt_at: (d.status == DeliveryStatus::Pending).then(|| at(d.next_attempt_at_ms)).flatten(),
                    status: d.status.to_string(),
                    attempts: i64::from(d.attempts),
                    delivered_at: d.delivered_at.as_ref().map(time::rfc3339),
                })
                .collect();
            out.delivery_attempts = history
                .attempts
                .into_iter()
                .map(|a| pb::DeliveryAttempt {
                    endpoint_id: a.endpoint_id,
                    attempted_at: time::rfc3339(&a.attempted_at),
                    status_code: a.status_code.map(i64::from),
                    latency_ms: a.latency_ms,
                    error: a.error,
                    delivered: a.delivered,
                })
                .collect();
            out
        })
        .collect())
}

pub(crate) async fn event_detail(core: &Core, found: event::Model) -> Result<pb::Event, crate::CoreError> {
    let mut one = events_with_history(core, vec![found]).await?;
    one.pop().ok_or_else(|| crate::CoreError::Internal("an event vanished while rendering".into()))
}

#[tonic::async_trait]
impl WebhookEndpoints for WebhooksService {
    async fn create_webhook_endpoint(
        &self,
        request: Request<pb::CreateWebhookEndpointRequest>,
    ) -> Result<Response<pb::WebhookEndpoint>, Status> {
        let caller = accept(&request)?;
        let req = request.into_inner();
        let core = &self.core;
        let allow_private = core.config.webhook_allow_private;
        let (created, secret) = webhooks::create_endpoint(
            &core.db,
            &core.config.keyring,
            &caller.partner_id,
            &req.url,
            &req.events,
            allow_private,
        )
        .await?;
        // The secret is shown in this reply only (`shown_once` in proto).
        Ok(Response::new(endpoint_to_pb(created, Some(secret))))
    }

    async fn list_webhook_endpoints(
        &self,
        request: Request<pb::ListWebhookEndpointsRequest>,
    ) -> Result<Response<pb::ListWebhookEndpointsResponse>, Status> {
        let caller = accept(&request)?;
        let req = request.into_inner();
        let page = Page::parse(req.limit, req.offset)?;
        let (found, total) = webhooks::list_endpoints(&self.core.db, &caller.partner_id, page).await?;
        Ok(Response::new(pb::ListWebhookEndpointsResponse {
            data: found.into_iter().map(|e| endpoint_to_pb(e, None)).collect(),
            pagination: Some(page.pagination(total)),
        }))
    }

    async fn delete_webhook_endpoint(
        &self,
        request: Request<pb::DeleteWebhookEndpointRequest>,
    ) -> Result<Response<pb::WebhookEndpoint>, Status> {
        let caller = accept(&request)?;
        let deleted =
            webhooks::delete_endpoint(&self.core.db, &caller.partner_id, &request.get_ref().webhook_endpoint_id)
                .await?;
        Ok(Response::new(endpoint_to_pb(deleted, None)))
    }
}

#[tonic::async_trait]
impl Events for WebhooksService {
    async fn list_events(
        &self,
        request: Request<pb::ListEventsRequest>,
    ) -> Result<Response<pb::ListEventsResponse>, Status> {
        let caller = accept(&request)?;
        let req = request.into_inner();
        let page = Page::parse(req.limit, req.offset)?;
        let (found, total) =
            events::list_events(&self.core.db, &caller.partner_id, req.r#type.as_deref(), page).await?;
        Ok(Response::new(pb::ListEventsResponse {
            data: events_with_history(&self.core, found).await?,
            pagination: Some(page.pagination(total)),
        }))
    }

    async fn get_event(&self, request: Request<pb::GetEventRequest>) -> Result<Response<pb::Event>, Status> {
        let caller = accept(&request)?;
        let found = events::get_event(&self.core.db, &caller.partner_id, &request.get_ref().event_id).await?;
        Ok(Response::new(event_detail(&self.core, found).await?))
    }

    async fn redeliver_event(
        &self,
        request: Request<pb::RedeliverEventRequest>,
    ) -> Result<Response<pb::Event>, Status> {
        let caller = accept(&request)?;
        self.core.redeliver_limits.check(&caller.partner_id).await?;
        let found = outbox::redeliver_event(&self.core.db, &caller.partner_id, &request.get_ref().event_id).await?;
        Ok(Response::new(event_detail(&self.core, found).await?))
    }
}
