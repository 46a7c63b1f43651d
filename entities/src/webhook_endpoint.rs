//! A partner's webhook endpoint. The signing secret is kept (it must sign
//! every delivery) and shown to the partner once, at creation.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "webhook_endpoints")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub partner_id: String,
    pub url: String,
    /// Comma-separated event types; empty means every type.
    pub events: String,
    pub secret: String,
    pub status: crate::enums::EndpointStatus,
    pub created_at: DateTimeUtc,
    pub deleted_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
