//! An account behind a connection. Money is in integer minor units.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "accounts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub partner_id: String,
    pub user_id: String,
    pub connection_id: String,
    pub external_id: String,
    pub name: String,
    pub r#type: crate::enums::AccountType,
    /// YYYY-MM-DD.
    pub start_date: String,
    pub end_date: Option<String>,
    pub cash_minor: Option<i64>,
    /// None when the account holds no investments.
    pub invested_minor: Option<i64>,
    pub tax_year: Option<i32>,
    pub contributions_ytd_minor: Option<i64>,
    pub contribution_limit_minor: Option<i64>,
    /// `self_only` | `family` (HSAs).
    pub coverage: Option<String>,
    /// JSON array of `{name, symbol, value_minor}`.
    pub holdings_json: Option<String>,
    pub last_sync_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
    /// The ACH account number, sealed (core `crypto`); None for accounts
    /// that take no deposits by ACH.
    pub ach_account_number: Option<String>,
    /// The ABA routing number, sealed.
    pub ach_routing_number: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
