//! The operator audit trail (docs/operations.md#operator-audit): who
//! created partners, issued and revoked keys, and rotated the encryption
//! key. Ids are UUIDv7, so the primary key orders rows by time; the
//! partner index serves `sail audit operator --partner`.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(OperatorActions::Table)
                    .if_not_exists()
                    .col(ColumnDef::new(OperatorActions::Id).string().not_null().primary_key())
                    .col(ColumnDef::new(OperatorActions::Actor).string().not_null())
                    .col(ColumnDef::new(OperatorActions::Action).string().not_null())
                    .col(ColumnDef::new(OperatorActions::PartnerId).string().null())
                    .col(ColumnDef::new(OperatorActions::Subject).string().null())
                    .col(ColumnDef::new(OperatorActions::Detail).text().null())
                    .col(ColumnDef::new(OperatorActions::CreatedAt).timestamp_with_time_zone().not_null())
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("operator_actions_partner")
                    .table(OperatorActions::Table)
                    .col(OperatorActions::PartnerId)
                    .col(OperatorActions::Id)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(OperatorActions::Table).to_owned()).await
    }
}

#[derive(DeriveIden)]
enum OperatorActions {
    Table,
    Id,
    Actor,
    Action,
    PartnerId,
    Subject,
    Detail,
    CreatedAt,
}
