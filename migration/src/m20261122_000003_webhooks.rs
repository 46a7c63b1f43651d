//! Webhook endpoints, the deliveries of each event to each endpoint (the
//! transactional outbox, claimed by delivery workers under a lease like
//! jobs), and every delivery attempt.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(WebhookEndpoints::Table)
                    .col(string(WebhookEndpoints::Id).primary_key())
                    .col(string(WebhookEndpoints::PartnerId))
                    .col(string(WebhookEndpoints::Url))
                    .col(string(WebhookEndpoints::Events))
                    .col(string(WebhookEndpoints::Secret))
                    .col(string(WebhookEndpoints::Status))
                    .col(timestamp_with_time_zone(WebhookEndpoints::CreatedAt))
                    .col(timestamp_with_time_zone_null(WebhookEndpoints::DeletedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("webhook_endpoints_partner")
                    .table(WebhookEndpoints::Table)
                    .col(WebhookEndpoints::PartnerId)
                    .col(WebhookEndpoints::Id)
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(WebhookDeliveries::Table)
                    .col(string(WebhookDeliveries::Id).primary_key())
                    .col(string(WebhookDeliveries::PartnerId))
                    .col(string(WebhookDeliveries::EventId))
                    .col(string(WebhookDeliveries::EndpointId))
                    .col(string(WebhookDeliveries::Status))
                    .col(integer(WebhookDeliveries::Attempts).default(0))
                    .col(big_integer(WebhookDeliveries::NextAttemptAtMs))
                    .col(big_integer_null(WebhookDeliveries::LeaseUntilMs))
                    .col(timestamp_with_time_zone(WebhookDeliveries::CreatedAt))
                    .col(timestamp_with_time_zone_null(WebhookDeliveries::DeliveredAt))
                    .to_owned(),
            )
            .await?;
        // The delivery workers' claim: due pending deliveries, oldest first.
        manager
            .create_index(
                Index::create()
                    .name("webhook_deliveries_due")
                    .table(WebhookDeliveries::Table)
                    .col(WebhookDeliveries::Status)
                    .col(WebhookDeliveries::NextAttemptAtMs)
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("webhook_deliveries_event")
                    .table(WebhookDeliveries::Table)
                    .col(WebhookDeliveries::EventId)
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(WebhookAttempts::Table)
                    .col(string(WebhookAttempts::Id).primary_key())
                    .col(string(WebhookAttempts::DeliveryId))
                    .col(string(WebhookAttempts::EventId))
                    .col(string(WebhookAttempts::EndpointId))
                    .col(timestamp_with_time_zone(WebhookAttempts::AttemptedAt))
                    .col(integer_null(WebhookAttempts::StatusCode))
                    .col(big_integer(WebhookAttempts::LatencyMs))
                    .col(text_null(WebhookAttempts::Error))
                    .col(boolean(WebhookAttempts::Delivered))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("webhook_attempts_event")
                    .table(WebhookAttempts::Table)
                    .col(WebhookAttempts::EventId)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            WebhookAttempts::Table.into_iden(),
            WebhookDeliveries::Table.into_iden(),
            WebhookEndpoints::Table.into_iden(),
        ] {
            manager.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}

#[derive(DeriveIden)]
enum WebhookEndpoints {
    Table,
    Id,
    PartnerId,
    Url,
    Events,
    Secret,
    Status,
    CreatedAt,
    DeletedAt,
}

#[derive(DeriveIden)]
enum WebhookDeliveries {
    Table,
    Id,
    PartnerId,
    EventId,
    EndpointId,
    Status,
    Attempts,
    NextAttemptAtMs,
    LeaseUntilMs,
    CreatedAt,
    DeliveredAt,
}

#[derive(DeriveIden)]
enum WebhookAttempts {
    Table,
    Id,
    DeliveryId,
    EventId,
    EndpointId,
    AttemptedAt,
    StatusCode,
    LatencyMs,
    Error,
    Delivered,
}
