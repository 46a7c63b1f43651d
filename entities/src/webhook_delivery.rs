//! The delivery of one event to one endpoint: written with the event (the
//! outbox), claimed by delivery workers under a lease, retried until it lands.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "webhook_deliveries")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub partner_id: String,
    pub event_id: String,
    pub endpoint_id: String,
    pub status: crate::enums::DeliveryStatus,
    pub attempts: i32,
    /// The next attempt is due at this instant (Unix ms).
    pub next_attempt_at_ms: i64,
    /// While a worker holds it: until this instant (Unix ms).
    pub lease_until_ms: Option<i64>,
    pub created_at: DateTimeUtc,
    pub delivered_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
