//! The merchant directory, seeded from `data/merchants.csv`.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "merchants")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub name: String,
    pub main_url: String,
    pub logo_url: Option<String>,
    pub item_level_receipts: bool,
    /// `yes` | `no` | `unknown`: whether the store runs an IIAS at checkout.
    pub iias_certified: String,
    /// `eligible` | `ineligible` | `needs_review`: the usual outcome of a purchase.
    pub typical_outcome: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
