//! An index that lets a delivery claim find the partners with pending
//! deliveries, and each partner's oldest due ones, without reading every due
//! row: one probe per partner and a range scan that stops at the claim's
//! limit (docs/architecture.md#background-work).

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_index(
                Index::create()
                    .name("webhook_deliveries_partner_due")
                    .table(WebhookDeliveries::Table)
                    .col(WebhookDeliveries::Status)
                    .col(WebhookDeliveries::PartnerId)
                    .col(WebhookDeliveries::NextAttemptAtMs)
                    .col(WebhookDeliveries::Id)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(Index::drop().name("webhook_deliveries_partner_due").table(WebhookDeliveries::Table).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum WebhookDeliveries {
    Table,
    Id,
    PartnerId,
    Status,
    NextAttemptAtMs,
}
