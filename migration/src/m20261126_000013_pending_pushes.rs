//! The external transaction ids of pushes still queued or running, one row
//! per id and job (docs/contract.md#ingestion-jobs-and-expenses). A push
//! counts an id as a duplicate when it is stored or pending under an
//! earlier push, so a batch pushed again before the first has run answers
//! `duplicates_updated`, not `accepted` a second time. Rows are written
//! with their job and removed in the transaction that completes or fails
//! it for good.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(PendingPushes::Table)
                    .col(ColumnDef::new(PendingPushes::ConnectionId).string().not_null())
                    .col(ColumnDef::new(PendingPushes::ExternalTransactionId).string().not_null())
                    .col(ColumnDef::new(PendingPushes::JobId).string().not_null())
                    .primary_key(
                        Index::create()
                            .col(PendingPushes::ConnectionId)
                            .col(PendingPushes::ExternalTransactionId)
                            .col(PendingPushes::JobId),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("pending_pushes_job")
                    .table(PendingPushes::Table)
                    .col(PendingPushes::JobId)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(PendingPushes::Table).to_owned()).await
    }
}

#[derive(DeriveIden)]
enum PendingPushes {
    Table,
    ConnectionId,
    ExternalTransactionId,
    JobId,
}
