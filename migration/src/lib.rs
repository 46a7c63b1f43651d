//! Schema migrations for SQLite (the embedded default) and PostgreSQL, and the
//! directory seed that every start keeps in step with `data/`.

use sea_orm_migration::prelude::*;

mod m20261122_000001_foundation;
mod m20261122_000002_connections;
mod m20261122_000003_webhooks;
mod m20261122_000004_idempotency;
mod m20261123_000005_expense_evidence;
mod m20261123_000006_personal_data;
mod m20261123_000007_receipts;
mod m20261123_000008_hosted_sessions;
mod m20261123_000009_job_row_failures;
mod m20261125_000010_delivery_claim_index;
mod m20261125_000011_delivery_row_upkeep;
mod m20261126_000012_partner_embed_origins;
mod m20261126_000013_pending_pushes;
mod m20261127_000014_user_data_keys;
mod m20261127_000015_retention;
mod m20261127_000016_idempotent_reply_owner;
mod m20261127_000017_trace_parent;
mod m20261127_000018_operator_actions;
mod m20261127_000019_filtered_list_indexes;
mod m20261127_000020_core_liveness;
pub mod seed;

pub use sea_orm_migration::MigratorTrait;

/// Every migration, oldest first.
pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20261122_000001_foundation::Migration),
            Box::new(m20261122_000002_connections::Migration),
            Box::new(m20261122_000003_webhooks::Migration),
            Box::new(m20261122_000004_idempotency::Migration),
            Box::new(m20261123_000005_expense_evidence::Migration),
            Box::new(m20261123_000006_personal_data::Migration),
            Box::new(m20261123_000007_receipts::Migration),
            Box::new(m20261123_000008_hosted_sessions::Migration),
            Box::new(m20261123_000009_job_row_failures::Migration),
            Box::new(m20261125_000010_delivery_claim_index::Migration),
            Box::new(m20261125_000011_delivery_row_upkeep::Migration),
            Box::new(m20261126_000012_partner_embed_origins::Migration),
            Box::new(m20261126_000013_pending_pushes::Migration),
            Box::new(m20261127_000014_user_data_keys::Migration),
            Box::new(m20261127_000015_retention::Migration),
            Box::new(m20261127_000016_idempotent_reply_owner::Migration),
            Box::new(m20261127_000017_trace_parent::Migration),
            Box::new(m20261127_000018_operator_actions::Migration),
            Box::new(m20261127_000019_filtered_list_indexes::Migration),
            Box::new(m20261127_000020_core_liveness::Migration),
        ]
    }
}

/// Applies pending migrations, then upserts the merchant and administrator
/// directories from `data/`. Safe to run on every start and from several
/// processes: migrations are recorded, and the seed is idempotent.
pub async fn apply(db: &sea_orm_migration::sea_orm::DatabaseConnection) -> Result<(), DbErr> {
    Migrator::up(db, None).await?;
    seed::sync_directories(db).await
}

/// Prepares a key store kept apart from the main database
/// (`--key-store-url`): only the `user_data_keys` table, created when
/// missing. Safe to run on every start and from several processes.
pub async fn apply_key_store(db: &sea_orm_migration::sea_orm::DatabaseConnection) -> Result<(), DbErr> {
    use sea_orm_migration::sea_orm::ConnectionTrait;
    let statement = m20261127_000014_user_data_keys::key_store_table();
    db.execute(&statement).await.map(|_| ())
}
