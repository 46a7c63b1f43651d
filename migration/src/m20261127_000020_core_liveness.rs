//! Which cores of a fleet are alive: a heartbeat row per running core, and
//! on each idempotency-key reservation the core that holds it, so a key
//! held by a core that died mid-call frees in seconds instead of waiting
//! out the reservation's age limit (docs/api-decisions.md#idempotency-keys-held-by-a-core-that-died).

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(CoreInstances::Table)
                    .col(ColumnDef::new(CoreInstances::Id).string().not_null().primary_key())
                    .col(ColumnDef::new(CoreInstances::HeartbeatAtMs).big_integer().not_null())
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(IdempotencyKeys::Table)
                    .add_column(ColumnDef::new(IdempotencyKeys::ReservedBy).string().null())
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter().table(IdempotencyKeys::Table).drop_column(IdempotencyKeys::ReservedBy).to_owned(),
            )
            .await?;
        manager.drop_table(Table::drop().table(CoreInstances::Table).to_owned()).await
    }
}

#[derive(DeriveIden)]
enum CoreInstances {
    Table,
    Id,
    HeartbeatAtMs,
}

#[derive(DeriveIden)]
enum IdempotencyKeys {
    Table,
    ReservedBy,
}
