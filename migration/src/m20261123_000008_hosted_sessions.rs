//! Hosted sessions (docs/hosted-sessions.md).

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(HostedSessions::Table)
                    .col(string(HostedSessions::Id).primary_key())
                    .col(string(HostedSessions::PartnerId))
                    .col(string(HostedSessions::UserId))
                    .col(string(HostedSessions::Flow))
                    .col(text(HostedSessions::OptionsJson))
                    .col(string(HostedSessions::TokenHash).unique_key())
                    .col(string_null(HostedSessions::BrowserHash))
                    .col(string(HostedSessions::Status))
                    .col(timestamp_with_time_zone(HostedSessions::ExpiresAt))
                    .col(string_null(HostedSessions::ConnectionId))
                    .col(string_null(HostedSessions::ExpenseId))
                    .col(string_null(HostedSessions::ReceiptId))
                    .col(timestamp_with_time_zone(HostedSessions::CreatedAt))
                    .col(timestamp_with_time_zone_null(HostedSessions::OpenedAt))
                    .col(timestamp_with_time_zone_null(HostedSessions::CompletedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("hosted_sessions_partner")
                    .table(HostedSessions::Table)
                    .col(HostedSessions::PartnerId)
                    .col(HostedSessions::Id)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_table(Table::drop().table(HostedSessions::Table).to_owned()).await
    }
}

#[derive(DeriveIden)]
enum HostedSessions {
    Table,
    Id,
    PartnerId,
    UserId,
    Flow,
    OptionsJson,
    TokenHash,
    BrowserHash,
    Status,
    ExpiresAt,
    ConnectionId,
    ExpenseId,
    ReceiptId,
    CreatedAt,
    OpenedAt,
    CompletedAt,
}
