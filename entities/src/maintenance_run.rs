//! Periodic upkeep (retention sweeps): one row per kind, claimed under a
//! lease by one core at a time, due again at `next_run_at_ms`.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "maintenance_runs")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub name: String,
    /// Held until then by the core running it; `None` when idle.
    pub lease_until_ms: Option<i64>,
    /// When it is due again (milliseconds since the epoch).
    pub next_run_at_ms: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
