//! The origins a partner registers as allowed to frame its hosted pages
//! (docs/hosted-sessions.md#embedding-in-an-iframe): a JSON array of
//! `scheme://host[:port]` strings, empty for every partner until an
//! operator registers one, so every page stays unframable by default.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Partners::Table)
                    .add_column(ColumnDef::new(Partners::EmbedOrigins).text().not_null().default("[]"))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.alter_table(Table::alter().table(Partners::Table).drop_column(Partners::EmbedOrigins).to_owned()).await
    }
}

#[derive(DeriveIden)]
enum Partners {
    Table,
    EmbedOrigins,
}
