//! Indexes for the filtered lists partners page through: a partner's users
//! by status, and a partner's events by type, newest first. Without them
//! `GET /users?status=…` and `GET /events?type=…` (and the `total` each
//! page counts) read all of a large partner's rows (tests/api/query_plans.rs
//! measures them at production row counts).

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_index(
                Index::create()
                    .name("users_partner_status")
                    .table(Users::Table)
                    .col(Users::PartnerId)
                    .col(Users::Status)
                    .col(Users::Id)
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("events_partner_type")
                    .table(Events::Table)
                    .col(Events::PartnerId)
                    .col(Events::Type)
                    .col(Events::Id)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_index(Index::drop().name("events_partner_type").table(Events::Table).to_owned()).await?;
        manager.drop_index(Index::drop().name("users_partner_status").table(Users::Table).to_owned()).await
    }
}

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
    PartnerId,
    Status,
}

#[derive(DeriveIden)]
enum Events {
    Table,
    Id,
    PartnerId,
    Type,
}
