//! Receipts (docs/receipts.md): the sealed file, what was read from it, and
//! what it decided for its expense.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Receipts::Table)
                    .col(string(Receipts::Id).primary_key())
                    .col(string(Receipts::PartnerId))
                    .col(string(Receipts::UserId))
                    .col(string(Receipts::ExpenseId))
                    .col(string(Receipts::Status))
                    .col(string(Receipts::ContentType))
                    .col(big_integer(Receipts::SizeBytes))
                    .col(string(Receipts::Sha256))
                    .col(string_null(Receipts::FileName))
                    .col(text(Receipts::Content))
                    .col(string_null(Receipts::Merchant))
                    .col(string_null(Receipts::Date))
                    .col(big_integer_null(Receipts::TotalMinor))
                    .col(text_null(Receipts::LineItemsJson))
                    .col(big_integer_null(Receipts::EligibleMinor))
                    .col(string_null(Receipts::ReasonCode))
                    .col(text_null(Receipts::ReasonMessage))
                    .col(timestamp_with_time_zone(Receipts::CreatedAt))
                    .col(timestamp_with_time_zone_null(Receipts::ReadAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create().name("receipts_expense").table(Receipts::Table).col(Receipts::ExpenseId).to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(Receipts::Table).to_owned()).await
    }
}

#[derive(DeriveIden)]
enum Receipts {
    Table,
    Id,
    PartnerId,
    UserId,
    ExpenseId,
    Status,
    ContentType,
    SizeBytes,
    Sha256,
    FileName,
    Content,
    Merchant,
    Date,
    TotalMinor,
    LineItemsJson,
    EligibleMinor,
    ReasonCode,
    ReasonMessage,
    CreatedAt,
    ReadAt,
}
