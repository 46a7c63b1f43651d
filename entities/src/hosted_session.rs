//! A hosted session: a single-use URL (only the token's SHA-256 is kept),
//! bound on first open to one browser (the browser secret's SHA-256), with
//! the outcome it produced.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "hosted_sessions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub partner_id: String,
    pub user_id: String,
    pub flow: crate::enums::HostedFlow,
    /// The creation options as JSON.
    pub options_json: String,
    #[sea_orm(unique)]
    pub token_hash: String,
    pub browser_hash: Option<String>,
    /// Expiry is computed from `expires_at`.
    pub status: crate::enums::HostedSessionStatus,
    pub expires_at: DateTimeUtc,
    pub connection_id: Option<String>,
    pub expense_id: Option<String>,
    pub receipt_id: Option<String>,
    pub created_at: DateTimeUtc,
    pub opened_at: Option<DateTimeUtc>,
    pub completed_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
