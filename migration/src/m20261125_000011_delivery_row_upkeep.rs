//! Less work for every write of a webhook delivery, which is written three
//! times in its short life (recorded, claimed, closed):
//!
//! - The index on `(status, next_attempt_at_ms)` goes: the claim has read
//!   the partner-first index of the previous migration since it came, on
//!   both databases, and nothing else reads it; each write that moved a row
//!   paid for an entry in it.
//! - On PostgreSQL, room on each page, so that a claim (which sets only the
//!   lease, a column no index holds) rewrites the row on its own page: a
//!   heap-only (HOT) update, which adds no index entry at all. Packed full,
//!   as PostgreSQL packs a table by default, every claim added an entry to
//!   every index, and the next claim's scan walked past the dead ones
//!   (docs/benchmarks.md). Only pages written after the change keep the
//!   room, which for a table of short-lived rows is soon most of them.
//!   SQLite rewrites rows in place and has no such setting.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, DatabaseBackend};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(Index::drop().name("webhook_deliveries_due").table(WebhookDeliveries::Table).to_owned())
            .await?;
        if manager.get_database_backend() == DatabaseBackend::Postgres {
            manager.get_connection().execute_unprepared("ALTER TABLE webhook_deliveries SET (fillfactor = 50)").await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        if manager.get_database_backend() == DatabaseBackend::Postgres {
            manager.get_connection().execute_unprepared("ALTER TABLE webhook_deliveries RESET (fillfactor)").await?;
        }
        manager
            .create_index(
                Index::create()
                    .name("webhook_deliveries_due")
                    .table(WebhookDeliveries::Table)
                    .col(WebhookDeliveries::Status)
                    .col(WebhookDeliveries::NextAttemptAtMs)
                    .to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum WebhookDeliveries {
    Table,
    Status,
    NextAttemptAtMs,
}
