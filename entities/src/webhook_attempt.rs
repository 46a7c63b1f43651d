//! One attempt to deliver an event to an endpoint, kept for the partner to
//! debug with.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "webhook_attempts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub delivery_id: String,
    pub event_id: String,
    pub endpoint_id: String,
    pub attempted_at: DateTimeUtc,
    /// The receiver's HTTP status; None when no response came.
    pub status_code: Option<i32>,
    pub latency_ms: i64,
    /// Why it failed (timeout, refused connection, non-2xx).
    pub error: Option<String>,
    pub delivered: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
