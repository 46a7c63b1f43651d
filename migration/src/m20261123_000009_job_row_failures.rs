//! Rows of an ingestion job that failed on their own while the rest of the
//! batch was stored (docs/api-decisions.md#ingestion-jobs-and-expenses).

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // One column per statement: SQLite alters one column at a time.
        manager
            .alter_table(Table::alter().table(Jobs::Table).add_column(integer(Jobs::Failed).default(0)).to_owned())
            .await?;
        manager
            .alter_table(Table::alter().table(Jobs::Table).add_column(text_null(Jobs::FailuresJson)).to_owned())
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.alter_table(Table::alter().table(Jobs::Table).drop_column(Jobs::FailuresJson).to_owned()).await?;
        manager.alter_table(Table::alter().table(Jobs::Table).drop_column(Jobs::Failed).to_owned()).await
    }
}

#[derive(DeriveIden)]
enum Jobs {
    Table,
    Failed,
    FailuresJson,
}
