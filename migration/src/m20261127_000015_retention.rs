//! Retention (docs/operations.md#retention): one row per kind of periodic
//! upkeep, claimed under a lease by one core at a time and due again after
//! its interval; and an index by age for idempotent replies, whose ids are
//! hashes (every other table retention sweeps is ordered by time through
//! its UUIDv7 ids).

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(MaintenanceRuns::Table)
                    .col(ColumnDef::new(MaintenanceRuns::Name).string().not_null().primary_key())
                    .col(ColumnDef::new(MaintenanceRuns::LeaseUntilMs).big_integer().null())
                    .col(ColumnDef::new(MaintenanceRuns::NextRunAtMs).big_integer().not_null())
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idempotency_keys_created_at")
                    .table(IdempotencyKeys::Table)
                    .col(IdempotencyKeys::CreatedAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(Index::drop().name("idempotency_keys_created_at").table(IdempotencyKeys::Table).to_owned())
            .await?;
        manager.drop_table(Table::drop().table(MaintenanceRuns::Table).to_owned()).await
    }
}

#[derive(DeriveIden)]
enum MaintenanceRuns {
    Table,
    Name,
    LeaseUntilMs,
    NextRunAtMs,
}

#[derive(DeriveIden)]
enum IdempotencyKeys {
    Table,
    CreatedAt,
}
