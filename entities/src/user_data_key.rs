//! Each user's data key, sealed under the service key: the key that user's
//! personal fields, identity records, account numbers and receipt files are
//! sealed under (docs/pii.md#per-user-data-keys). Deleting a user destroys
//! this row first, so nothing sealed under the key opens again, in the
//! database or in any copy of it taken earlier. The table may live in a key
//! store of its own, apart from the database it protects.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "user_data_keys")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub user_id: String,
    pub partner_id: String,
    /// The key's 32 bytes, sealed under the service key with the user id
    /// bound.
    pub sealed_key: String,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
