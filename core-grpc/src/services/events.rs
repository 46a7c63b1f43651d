//! The partner's event log, read side: the event types, and listing and
//! reading events with their delivery history. Events are written by
//! `outbox`.

use std::collections::HashMap;

use entities::{event, webhook_attempt, webhook_delivery};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};

use crate::domain::{IdKind, Page, parse_id};
use crate::error::CoreError;
use crate::platform::db::fetch_page;

pub use entities::enums::EventType;

/// Every event type, for messages.
pub fn event_type_list() -> String {
    EventType::ALL.iter().map(|t| t.as_str()).collect::<Vec<_>>().join(", ")
}

/// A page of the partner's events, newest first, and the total.
pub async fn list_events(
    db: &impl ConnectionTrait,
    partner_id: &str,
    event_type: Option<&str>,
    page: Page,
) -> Result<(Vec<event::Model>, u64), CoreError> {
    let mut query = event::Entity::find().filter(event::Column::PartnerId.eq(partner_id));
    if let Some(event_type) = event_type {
        let Some(event_type) = EventType::parse(event_type) else {
            return Err(CoreError::invalid(
                "type",
                format!("Unknown event type '{event_type}'; known types: {}.", event_type_list()),
            ));
        };
        query = query.filter(event::Column::Type.eq(event_type));
    }
    let (found, total) = fetch_page(db, query.order_by_desc(event::Column::Id), page).await?;
    Ok((found, total))
}

/// One event of the partner, or `not_found`.
pub async fn get_event(db: &impl ConnectionTrait, partner_id: &str, event_id: &str) -> Result<event::Model, CoreError> {
    let not_found = || CoreError::not_found("event", "event_id", event_id);
    let id = parse_id(IdKind::Event, event_id).ok_or_else(not_found)?;
    event::Entity::find_by_id(id).filter(event::Column::PartnerId.eq(partner_id)).one(db).await?.ok_or_else(not_found)
}

/// The deliveries and attempts of some events, oldest first.
#[derive(Debug, Default)]
pub struct DeliveryHistory {
    pub deliveries: Vec<webhook_delivery::Model>,
    pub attempts: Vec<webhook_attempt::Model>,
}

/// Each event's deliveries and every attempt, in two queries for any number
/// of events (a page of `GET /events` shows them as `GET /events/{id}` does).
pub async fn delivery_histories(
    db: &impl ConnectionTrait,
    event_ids: &[String],
) -> Result<HashMap<String, DeliveryHistory>, CoreError> {
    let mut out: HashMap<String, DeliveryHistory> = HashMap::new();
    if event_ids.is_empty() {
        return Ok(out);
    }
    let deliveries = webhook_delivery::Entity::find()
        .filter(webhook_delivery::Column::EventId.is_in(event_ids.iter().cloned()))
        .order_by_asc(webhook_delivery::Column::Id)
        .all(db)
        .await?;
    let attempts = webhook_attempt::Entity::find()
        .filter(webhook_attempt::Column::EventId.is_in(event_ids.iter().cloned()))
        .order_by_asc(webhook_attempt::Column::Id)
        .all(db)
        .await?;
    for delivery in deliveries {
        out.entry(delivery.event_id.clone()).or_default().deliveries.push(delivery);
    }
    for attempt in attempts {
        out.entry(attempt.event_id.clone()).or_default().attempts.push(attempt);
    }
    Ok(out)
}
