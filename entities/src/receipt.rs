//! A receipt attached to an expense: the file (sealed, core `crypto`), what
//! was read from it and what it decided. Money in minor units.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "receipts")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub partner_id: String,
    pub user_id: String,
    /// `exp_…`: the expense (`transactions.expense_id`).
    pub expense_id: String,
    pub status: crate::enums::ReceiptStatus,
    /// Sniffed from the bytes.
    pub content_type: String,
    pub size_bytes: i64,
    /// Hex SHA-256 of the file.
    pub sha256: String,
    /// The uploaded file name, for messages only.
    pub file_name: Option<String>,
    /// The file, sealed; receipts name people and prescriptions.
    #[sea_orm(column_type = "Text")]
    pub content: String,
    pub merchant: Option<String>,
    /// YYYY-MM-DD.
    pub date: Option<String>,
    pub total_minor: Option<i64>,
    /// JSON array of `{description, amount_minor, status, reason}`.
    pub line_items_json: Option<String>,
    pub eligible_minor: Option<i64>,
    pub reason_code: Option<String>,
    pub reason_message: Option<String>,
    pub created_at: DateTimeUtc,
    pub read_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
