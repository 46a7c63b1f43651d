//! The outbox: events are written in the transaction that made the change
//! they announce, together with one delivery row for each of the partner's
//! endpoints that subscribes, so an event exists, and will be delivered,
//! exactly when its change committed. Redelivery and cancellation change the
//! same rows; `background::delivery` sends them.

use entities::{event, webhook_delivery, webhook_endpoint};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter, QuerySelect, Set,
};

use crate::domain::{IdKind, new_id, time};
use crate::error::{CoreError, is_retryable_conflict};
use crate::platform::db::{WriteTxn, begin_write};
use sail_api::pb;

use crate::services::events::{self, EventType};

pub use entities::enums::{DeliveryStatus, EndpointStatus};

/// An event to record: what happened, and for which partner.
pub struct NewEvent {
    pub partner_id: String,
    pub kind: EventType,
    pub data: serde_json::Value,
}

/// The data message of one event type (proto/sail/v1/events.proto). An
/// event's data is only ever built from its message, and its type follows
/// from the message, so what partners receive is what the OpenAPI
/// document's `webhooks` section (generated from the same messages) says.
pub trait EventData: serde::Serialize {
    const KIND: EventType;
}

/// Which message is the data of which event type.
macro_rules! event_data {
    ($($message:ident => $kind:ident),* $(,)?) => {
        $(impl EventData for pb::$message {
            const KIND: EventType = EventType::$kind;
        })*
        /// Every event type that has a data message (a test holds it to
        /// `EventType::ALL`).
        #[cfg(test)]
        const KINDS_WITH_DATA: &[EventType] = &[$(EventType::$kind),*];
    };
}

event_data! {
    TransactionsIngestedData => TransactionsIngested,
    ConnectionSyncedData => ConnectionSynced,
    ConnectionErrorData => ConnectionError,
    ConnectionRecoveredData => ConnectionRecovered,
    ExpenseReadjudicatedData => ExpenseReadjudicated,
    ReceiptUnreadableData => ReceiptUnreadable,
    JobFailedData => JobFailed,
    HostedSessionCompletedData => HostedSessionCompleted,
    HostedSessionLoginFailedData => HostedSessionLoginFailed,
    UserDeactivatedData => UserDeactivated,
    UserReactivatedData => UserReactivated,
    UserDeletedData => UserDeleted,
}

impl NewEvent {
    /// The event `data` announces, for a partner.
    pub fn of<D: EventData>(partner_id: &str, data: &D) -> Result<NewEvent, CoreError> {
        let data = serde_json::to_value(data).map_err(|err| CoreError::Internal(format!("event data: {err}")))?;
        Ok(NewEvent { partner_id: partner_id.to_string(), kind: D::KIND, data })
    }
}

/// Rows written by one multi-row `INSERT` at most: ten columns of a
/// delivery stay far below SQLite's 32,766 and PostgreSQL's 65,535 bound
/// parameters.
const ROWS_PER_INSERT: usize = 1_000;

/// Records the event `data` announces for a partner, and its deliveries.
pub async fn record<D: EventData>(txn: &WriteTxn, partner_id: &str, data: &D) -> Result<event::Model, CoreError> {
    let one = NewEvent::of(partner_id, data)?;
    record_all(txn, vec![one]).await?.pop().ok_or_else(|| CoreError::Internal("an event was not recorded".to_string()))
}

/// Records events and their deliveries in a fixed number of statements,
/// however many there are: the events in multi-row inserts, the enabled
/// endpoints of their partners read once, a delivery for each endpoint that
/// subscribes in multi-row inserts. Recording 1,000 events one by one was
/// 3,000 statements, each a round trip to the database (docs/benchmarks.md).
pub async fn record_all(txn: &WriteTxn, new: Vec<NewEvent>) -> Result<Vec<event::Model>, CoreError> {
    // Every column is ours (the time already at the database's precision),
    // so rows are inserted without reading them back. Deliveries join the
    // trace of the work that recorded the event.
    let trace_parent = sail_api::trace_context::current();
    let recorded: Vec<event::Model> = new
        .into_iter()
        .map(|new| event::Model {
            id: new_id(IdKind::Event),
            partner_id: new.partner_id,
            r#type: new.kind,
            data: new.data.to_string(),
            created_at: time::now(),
            trace_parent: trace_parent.clone(),
        })
        .collect();
    for rows in recorded.chunks(ROWS_PER_INSERT) {
        let rows = rows.iter().cloned().map(event::ActiveModel::from);
        event::Entity::insert_many(rows).exec_without_returning(&**txn).await?;
    }

    let mut partners: Vec<&str> = recorded.iter().map(|event| event.partner_id.as_str()).collect();
    partners.sort_unstable();
    partners.dedup();
    let endpoints = if partners.is_empty() {
        Vec::new()
    } else {
        webhook_endpoint::Entity::find()
            .filter(webhook_endpoint::Column::PartnerId.is_in(partners))
            .filter(webhook_endpoint::Column::Status.eq(EndpointStatus::Enabled))
            .all(&**txn)
            .await?
    };
    let now = time::now();
    let deliveries: Vec<webhook_delivery::ActiveModel> = recorded
        .iter()
        .flat_map(|event| {
            endpoints
                .iter()
                .filter(|endpoint| endpoint.partner_id == event.partner_id && subscribes(endpoint, event.r#type))
                .map(move |endpoint| new_delivery(event, endpoint, now))
        })
        .collect();
    if !deliveries.is_empty() {
        txn.wake_workers_on_commit();
    }
    // Moved into their inserts, not copied: only the events are returned.
    let mut deliveries = deliveries.into_iter().peekable();
    while deliveries.peek().is_some() {
        let rows = deliveries.by_ref().take(ROWS_PER_INSERT);
        webhook_delivery::Entity::insert_many(rows).exec_without_returning(&**txn).await?;
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

/// How often a redelivery is tried when PostgreSQL rolls it back to break
/// a deadlock with a concurrent redelivery or the delivery workers.
const REDELIVERY_TRIES: usize = 3;

/// Sends one of the partner's events again, now, to its subscribed
/// endpoints, and returns it. Concurrent redeliveries of one event may
/// deadlock on PostgreSQL; the one it rolls back runs again.
pub async fn redeliver_event(
    db: &DatabaseConnection,
    partner_id: &str,
    event_id: &str,
) -> Result<event::Model, CoreError> {
    let found = events::get_event(db, partner_id, event_id).await?;
    let mut tries = 1;
    loop {
        match redeliver_in_one_transaction(db, &found).await {
            Err(CoreError::Database(err)) if is_retryable_conflict(&err) && tries < REDELIVERY_TRIES => tries += 1,
            done => return done.map(|()| found),
        }
    }
}

async fn redeliver_in_one_transaction(db: &DatabaseConnection, event: &event::Model) -> Result<(), CoreError> {
    let txn = begin_write(db).await?;
    if redeliver(&*txn, event).await? > 0 {
        txn.wake_workers_on_commit();
    }
    txn.commit().await?;
    Ok(())
}

async fn redeliver(db: &impl ConnectionTrait, event: &event::Model) -> Result<usize, CoreError> {
    let now = time::now();
    // Two redeliveries of one event at once would each find no delivery to
    // an endpoint added since the event, and each add one: the endpoint
    // would get the event twice per redelivery. On PostgreSQL the event's
    // row is locked first, so they run one after the other; SQLite's
    // writes already do (`BEGIN IMMEDIATE`).
    if db.get_database_backend() == sea_orm::DatabaseBackend::Postgres {
        event::Entity::find_by_id(&event.id).lock_exclusive().one(db).await?;
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_type_has_a_data_message() {
        let mut with_data: Vec<&str> = KINDS_WITH_DATA.iter().map(|k| k.as_str()).collect();
        let mut all: Vec<&str> = EventType::ALL.iter().map(|k| k.as_str()).collect();
        with_data.sort_unstable();
        all.sort_unstable();
        assert_eq!(with_data, all);
    }

    #[test]
    fn an_absent_failure_count_is_left_out_and_the_type_follows_the_message() {
        let data = pb::TransactionsIngestedData { failed: None, ..Default::default() };
        let event = NewEvent::of("ptn_1", &data).unwrap();
        assert_eq!(event.kind, EventType::TransactionsIngested);
        assert!(event.data.get("failed").is_none(), "{}", event.data);
        let failed = NewEvent::of("ptn_1", &pb::TransactionsIngestedData { failed: Some(2), ..data }).unwrap();
        assert_eq!(failed.data["failed"], 2);
    }
}
