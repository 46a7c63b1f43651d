//! The trace a job or an event was made in (docs/operations.md#traces): a
//! W3C `traceparent`, written when traces are exported, so the job's run
//! and the event's webhook deliveries join the trace of the request that
//! caused them. Null when traces are off.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Jobs::Table)
                    .add_column(ColumnDef::new(Jobs::TraceParent).string().null())
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Events::Table)
                    .add_column(ColumnDef::new(Events::TraceParent).string().null())
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.alter_table(Table::alter().table(Events::Table).drop_column(Events::TraceParent).to_owned()).await?;
        manager.alter_table(Table::alter().table(Jobs::Table).drop_column(Jobs::TraceParent).to_owned()).await
    }
}

#[derive(DeriveIden)]
enum Jobs {
    Table,
    TraceParent,
}

#[derive(DeriveIden)]
enum Events {
    Table,
    TraceParent,
}
