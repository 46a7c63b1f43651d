//! Idempotency keys (docs/contract.md#wire-conventions): a partner's key, what it was first used
//! for, and the response to replay for 24 hours.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(IdempotencyKeys::Table)
                    // Hex SHA-256 of "<partner id>:<key>": one row per key per partner.
                    .col(string(IdempotencyKeys::Id).primary_key())
                    .col(string(IdempotencyKeys::PartnerId))
                    .col(string(IdempotencyKeys::Method))
                    .col(string(IdempotencyKeys::Fingerprint))
                    .col(text_null(IdempotencyKeys::ResponseHex))
                    .col(timestamp_with_time_zone(IdempotencyKeys::CreatedAt))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(IdempotencyKeys::Table).to_owned()).await
    }
}

#[derive(DeriveIden)]
enum IdempotencyKeys {
    Table,
    Id,
    PartnerId,
    Method,
    Fingerprint,
    ResponseHex,
    CreatedAt,
}
