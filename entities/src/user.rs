//! An end user of a partner. The optional profile fields are kept for the
//! identity (PII) endpoint; they are never returned by the user endpoints.
//! The partner's id for the user and every profile field are sealed (core
//! `crypto`); the id is found through its blind index.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "users")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub partner_id: String,
    pub external_user_id: String,
    /// Keyed hash of the external user id within the partner: the lookup
    /// and uniqueness key, instead of the clear value.
    pub external_user_id_hash: Option<String>,
    pub status: crate::enums::UserStatus,
    pub email: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub phone: Option<String>,
    pub address_street: Option<String>,
    pub address_city: Option<String>,
    pub address_state: Option<String>,
    pub address_zip: Option<String>,
    pub address_country: Option<String>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
