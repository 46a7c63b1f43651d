//! The user a kept idempotent reply belongs to (docs/pii.md#per-user-data-keys):
//! a reply that names a user (a created user's external id, a receipt's file
//! name) is sealed under that user's data key, and deleting the user
//! deletes it.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(IdempotencyKeys::Table)
                    .add_column(ColumnDef::new(IdempotencyKeys::UserId).string().null())
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idempotency_keys_user")
                    .table(IdempotencyKeys::Table)
                    .col(IdempotencyKeys::UserId)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(Index::drop().name("idempotency_keys_user").table(IdempotencyKeys::Table).to_owned())
            .await?;
        manager
            .alter_table(Table::alter().table(IdempotencyKeys::Table).drop_column(IdempotencyKeys::UserId).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum IdempotencyKeys {
    Table,
    UserId,
}
