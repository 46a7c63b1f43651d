//! An event of the partner's event log (e.g. `transactions.ingested`),
//! written in the same transaction as the change it announces.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "events")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub partner_id: String,
    pub r#type: crate::enums::EventType,
    /// The event's `data` object, as JSON text.
    pub data: String,
    pub created_at: DateTimeUtc,
    /// The W3C `traceparent` of the work that recorded the event, when
    /// traces are exported: its deliveries join that trace.
    pub trace_parent: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
