//! An encryption key the database depends on (docs/pii.md), by id only: the
//! key itself lives with the operator. A core refuses to start unless it has
//! every key not yet retired; the verifier proves it is the same key.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "encryption_keys")]
pub struct Model {
    /// The key's id, derived from the key (16 hex characters).
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    /// A constant sealed under the key, bound to its id.
    pub verifier: String,
    pub created_at: DateTimeUtc,
    /// Set when a rotation re-sealed everything the key had sealed.
    pub retired_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
