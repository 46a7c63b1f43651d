//! Per-user data keys (docs/pii.md#per-user-data-keys): one row per user
//! holding the key its personal data is sealed under, itself sealed under
//! the service key. Created here when the key store is the main database;
//! a key store of its own gets the same table from [`key_store_table`].

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The `user_data_keys` table, wherever the key store is.
pub fn key_store_table() -> TableCreateStatement {
    Table::create()
        .table(UserDataKeys::Table)
        .if_not_exists()
        .col(ColumnDef::new(UserDataKeys::UserId).string().not_null().primary_key())
        .col(ColumnDef::new(UserDataKeys::PartnerId).string().not_null())
        .col(ColumnDef::new(UserDataKeys::SealedKey).string().not_null())
        .col(ColumnDef::new(UserDataKeys::CreatedAt).timestamp_with_time_zone().not_null())
        .to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.create_table(key_store_table()).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(UserDataKeys::Table).to_owned()).await
    }
}

#[derive(DeriveIden)]
enum UserDataKeys {
    Table,
    UserId,
    PartnerId,
    SealedKey,
    CreatedAt,
}
