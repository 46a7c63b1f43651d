//! The audit trail of personal data: one row per successful read of an
//! identity or account numbers, naming who read what, with which
//! credentials, when, and in which request. Never holds the data itself.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "pii_reads")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub partner_id: String,
    /// The workload key that read.
    pub key_id: String,
    /// The user token it presented.
    pub user_token_id: String,
    pub user_id: String,
    /// The REST operation, e.g. `GET /users/{user_id}/identity`.
    pub endpoint: String,
    /// The account read, for account numbers.
    pub account_id: Option<String>,
    pub request_id: Option<String>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
