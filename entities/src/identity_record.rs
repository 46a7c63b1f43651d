//! The account owner's identity as one connection's provider reports it,
//! sealed (`data` is JSON of names, emails, phone numbers and addresses,
//! encrypted with the row id bound).
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "identity_records")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub partner_id: String,
    pub user_id: String,
    /// One record per connection; a re-sync replaces it.
    #[sea_orm(unique)]
    pub connection_id: String,
    pub data: String,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
