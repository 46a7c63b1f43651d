//! The outbox: events are written in the transaction that made the change
//! they announce, together with one delivery row for each of the partner's
//! endpoints that subscribes, so an event exists, and will be delivered,
//! exactly when its change committed. Redelivery and cancellation change the
//! same rows; `webhooks::delivery` sends them.

use entities::{event, webhook_delivery, webhook_endpoint};
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter, Set};

use crate::db::{WriteTxn, begin_write};
use crate::domain::{IdKind, new_id, time};
use crate::error::CoreError;
use crate::events::{self, EventType};

pub use entities::enums::{DeliveryStatus, EndpointStatus};

/// Records an event of `kind` with `data` for a partner, and its deliveries.
pub async fn record(
    txn: &WriteTxn,
    partner_id: &str,
    kind: EventType,
    data: serde_json::Value,
) -> Result<event::Model, CoreError> {
    let recorded = event::Model {
        id: new_id(IdKind::Event),
        partner_id: partner_id.to_string(),
        r#type: kind,
        data: data.to_string(),
        created_at: time::now(),
    };
    // Inserted without reading the row back: every column is ours (the time
    // already at the database's precision), and sea-orm's read-back was a
    // second statement per event inside the caller's write transaction.
    event::Entity::insert(event::ActiveModel::from(recorded.clone())).exec_without_returning(&**txn).await?;
    if enqueue_for_event(&**txn, &recorded).await? > 0 {
        txn.wake_workers_on_commit();
    }
    Ok(recorded)
}

/// A due, pending delivery of `event` to `endpoint`.
fn new_delivery(
    event: &event::Model,
    endpoint: &webhook_endpoint::Model,
    now: chrono::DateTime<chrono::Utc>,
) -> webhook_delivery::ActiveModel {
    webhook_delivery::ActiveModel {
        id: Set(new_id(IdKind::Delivery)),
        partner_id: Set(event.partner_id.clone()),
        event_id: Set(event.id.clone()),
        endpoint_id: Set(endpoint.id.clone()),
        status: Set(DeliveryStatus::Pending),
        attempts: Set(0),
        next_attempt_at_ms: Set(now.timestamp_millis()),
        lease_until_ms: Set(None),
        created_at: Set(now),
        delivered_at: Set(None),
    }
}

/// The partner's enabled endpoints that subscribe to `event`'s type.
async fn subscribers(
    db: &impl ConnectionTrait,
    event: &event::Model,
) -> Result<Vec<webhook_endpoint::Model>, CoreError> {
    let endpoints = webhook_endpoint::Entity::find()
        .filter(webhook_endpoint::Column::PartnerId.eq(&event.partner_id))
        .filter(webhook_endpoint::Column::Status.eq(EndpointStatus::Enabled))
        .all(db)
        .await?;
    Ok(endpoints.into_iter().filter(|endpoint| subscribes(endpoint, event.r#type)).collect())
}

/// Writes a delivery of `event` to each of its partner's endpoints that
/// subscribe to its type, with the caller's connection.
async fn enqueue_for_event(db: &impl ConnectionTrait, event: &event::Model) -> Result<usize, CoreError> {
    let now = time::now();
    let rows: Vec<webhook_delivery::ActiveModel> =
        subscribers(db, event).await?.iter().map(|endpoint| new_delivery(event, endpoint, now)).collect();
    let count = rows.len();
    if count > 0 {
        webhook_delivery::Entity::insert_many(rows).exec_without_returning(db).await?;
    }
    Ok(count)
}

/// Sends one of the partner's events again, now, to its subscribed
/// endpoints, and returns it.
pub async fn redeliver_event(
    db: &DatabaseConnection,
    partner_id: &str,
    event_id: &str,
) -> Result<event::Model, CoreError> {
    let found = events::get_event(db, partner_id, event_id).await?;
    let txn = begin_write(db).await?;
    if redeliver(&*txn, &found).await? > 0 {
        txn.wake_workers_on_commit();
    }
    txn.commit().await?;
    Ok(found)
}

async fn redeliver(db: &impl ConnectionTrait, event: &event::Model) -> Result<usize, CoreError> {
    let now = time::now();
    // Existing deliveries are updated in id order, the order the delivery
    // worker records in, so the two never deadlock on PostgreSQL.
    let mut existing: Vec<webhook_delivery::Model> =
        webhook_delivery::Entity::find().filter(webhook_delivery::Column::EventId.eq(&event.id)).all(db).await?;
    existing.sort_by(|a, b| a.id.cmp(&b.id));
    let subscribed = subscribers(db, event).await?;
    let mut count = 0;
    for found in existing {
        if !subscribed.iter().any(|e| e.id == found.endpoint_id) {
            continue;
        }
        let mut again: webhook_delivery::ActiveModel = found.into();
        again.status = Set(DeliveryStatus::Pending);
        again.next_attempt_at_ms = Set(now.timestamp_millis());
        again.lease_until_ms = Set(None);
        again.update(db).await?;
        count += 1;
    }
    for endpoint in &subscribed {
        let has = webhook_delivery::Entity::find()
            .filter(webhook_delivery::Column::EventId.eq(&event.id))
            .filter(webhook_delivery::Column::EndpointId.eq(&endpoint.id))
            .one(db)
            .await?
            .is_some();
        if !has {
            new_delivery(event, endpoint, now).insert(db).await?;
            count += 1;
        }
    }
    Ok(count)
}

/// Stops every pending delivery to a deleted endpoint.
pub async fn cancel_for_endpoint(db: &impl ConnectionTrait, endpoint_id: &str) -> Result<(), CoreError> {
    webhook_delivery::Entity::update_many()
        .col_expr(webhook_delivery::Column::Status, Expr::value(DeliveryStatus::Cancelled))
        .filter(webhook_delivery::Column::EndpointId.eq(endpoint_id))
        .filter(webhook_delivery::Column::Status.eq(DeliveryStatus::Pending))
        .exec(db)
        .await?;
    Ok(())
}

/// Whether an endpoint subscribes to events of `event_type`.
pub fn subscribes(endpoint: &webhook_endpoint::Model, event_type: EventType) -> bool {
    endpoint.events.is_empty() || endpoint.events.split(',').any(|e| e == event_type.as_str())
}
