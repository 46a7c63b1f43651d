//! A purchase on a connection, pushed by the partner (external) or synced from
//! a provider (card, store), together with its adjudication: each row is also
//! the user's expense `expense_id`. Amounts are positive minor units.
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
    /// `exp_…`: the id of this transaction's expense.
    pub expense_id: String,
    pub status: crate::enums::ExpenseStatus,
    pub category: Option<String>,
    pub reason_code: Option<String>,
    pub reason_message: Option<String>,
    /// The engine rule that decided the outcome.
    pub rule: Option<String>,
    /// A directory merchant (`mer_…`) when one was resolved.
    pub merchant_id: Option<String>,
    /// The resolved merchant's or provider's display name.
    pub merchant_display_name: Option<String>,
    /// The substantiated eligible part of the amount.
    pub eligible_amount_minor: Option<i64>,
    /// Per-item outcomes for item-level purchases (JSON).
    pub item_results_json: Option<String>,
    /// The evidence that decided the outcome (JSON array of
    /// `{kind, value, indicates}`).
    pub evidence_json: Option<String>,
    /// How many times the engine has adjudicated this row (re-pushes and
    /// receipts re-adjudicate; a crash never does it twice).
    pub adjudication_count: i32,
    pub adjudicated_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
