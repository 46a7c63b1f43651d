//! A connection of a user to a data source.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "connections")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub partner_id: String,
    pub user_id: String,
    pub r#type: crate::enums::ConnectionType,
    pub status: crate::enums::ConnectionStatus,
    /// Comma-separated products.
    pub products: String,
    /// `administrator` | `financial_institution` | `merchant` | `external`.
    pub provider_kind: String,
    pub provider_id: Option<String>,
    /// The directory name, or the partner's `provider_label` for external.
    pub provider_name: String,
    pub provider_icon_url: Option<String>,
    /// The sandbox username it was linked with (drives the sandbox sync).
    pub sandbox_username: Option<String>,
    pub error_code: Option<String>,
    pub error_message: Option<String>,
    pub error_recoverable: Option<bool>,
    pub last_sync_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
