//! A short-lived user token: the second credential personal data needs. Only
//! the SHA-256 of the token is stored; it is bound to one partner, one user
//! and a set of PII scopes.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "user_tokens")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub partner_id: String,
    pub user_id: String,
    /// The token_admin key that minted it.
    pub key_id: String,
    /// Hex SHA-256 of the token; unique, the lookup on every PII request.
    #[sea_orm(unique)]
    pub token_hash: String,
    /// Comma-separated PII scopes (`identity`, `account_numbers`).
    pub scopes: String,
    pub expires_at: DateTimeUtc,
    pub created_at: DateTimeUtc,
    pub revoked_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
