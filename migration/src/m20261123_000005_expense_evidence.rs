//! The evidence behind each adjudication (docs/adjudication.md): the merchant,
//! words or category code that decided an expense, kept beside its rule and
//! reason so a reviewer and a partner see why.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter().table(Transactions::Table).add_column(text_null(Transactions::EvidenceJson)).to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(Table::alter().table(Transactions::Table).drop_column(Transactions::EvidenceJson).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum Transactions {
    Table,
    EvidenceJson,
}
