//! A purchase on a connection: pushed by the partner (external) or synced
//! from a provider (card, store). Amounts are positive minor units.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "transactions")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub partner_id: String,
    pub user_id: String,
    pub connection_id: String,
    /// The pusher's stable id; unique within the connection.
    pub external_transaction_id: String,
    /// The job that last queued it for adjudication.
    pub job_id: Option<String>,
    /// YYYY-MM-DD.
    pub date: String,
    pub amount_minor: i64,
    pub currency: String,
    pub description: String,
    pub merchant_name: Option<String>,
    pub mcc: Option<String>,
    /// Item-level purchase data (store connections): JSON array of
    /// `{description, amount_minor, quantity}`.
    pub items_json: Option<String>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
