//! A running core of the fleet and its latest heartbeat: how one core tells
//! that another, which holds an idempotency key, has died.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "core_instances")]
pub struct Model {
    /// Made when the core starts (`core_…`); a restarted core is another.
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    /// The core's latest heartbeat (Unix ms, its own clock).
    pub heartbeat_at_ms: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
