//! An API key of a partner. Only the SHA-256 of the secret is stored; the
//! secret itself is shown once, at creation.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "api_keys")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub partner_id: String,
    pub name: Option<String>,
    /// Hex SHA-256 of the secret; unique, the lookup key on every request.
    #[sea_orm(unique)]
    pub secret_hash: String,
    /// The last four characters of the secret, to tell keys apart in listings.
    pub secret_last4: String,
    /// Comma-separated scope names.
    pub scopes: String,
    pub created_at: DateTimeUtc,
    pub revoked_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
