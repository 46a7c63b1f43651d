//! The partner's event log, read side: the event types, and listing and
//! reading events with their delivery history. Events are written by
//! `outbox`.

use entities::{event, webhook_attempt, webhook_delivery};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect};

use crate::domain::{IdKind, Page, parse_id};
use crate::error::CoreError;

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
    let total = query.clone().count(db).await?;
    let found = query.order_by_desc(event::Column::Id).limit(page.limit).offset(page.offset).all(db).await?;
    Ok((found, total))
}

/// One event of the partner, or `not_found`.
pub async fn get_event(db: &impl ConnectionTrait, partner_id: &str, event_id: &str) -> Result<event::Model, CoreError> {
    let not_found = || CoreError::not_found("event", "event_id", event_id);
    let id = parse_id(IdKind::Event, event_id).ok_or_else(not_found)?;
    event::Entity::find_by_id(id).filter(event::Column::PartnerId.eq(partner_id)).one(db).await?.ok_or_else(not_found)
}

/// An event's deliveries and every attempt, oldest first.
pub async fn delivery_history(
    db: &impl ConnectionTrait,
    event_id: &str,
) -> Result<(Vec<webhook_delivery::Model>, Vec<webhook_attempt::Model>), CoreError> {
    let deliveries = webhook_delivery::Entity::find()
        .filter(webhook_delivery::Column::EventId.eq(event_id))
        .order_by_asc(webhook_delivery::Column::Id)
        .all(db)
        .await?;
    let attempts = webhook_attempt::Entity::find()
        .filter(webhook_attempt::Column::EventId.eq(event_id))
        .order_by_asc(webhook_attempt::Column::Id)
        .all(db)
        .await?;
    Ok((deliveries, attempts))
}
