//! Database connections: SQLite (embedded default, WAL, immediate write
//! transactions) or PostgreSQL (production), chosen by the URL.

use std::time::Duration;

use sea_orm::sqlx::sqlite::{SqliteJournalMode, SqliteSynchronous};
use sea_orm::{
    ConnectOptions, Database, DatabaseTransaction, DbErr, SqliteTransactionMode, TransactionOptions, TransactionTrait,
};

/// The pool type, re-exported so callers need not depend on sea-orm.
pub use sea_orm::DatabaseConnection;

/// Opens a pool for `url` (`sqlite://…` or `postgres://…`).
pub async fn connect(url: &str) -> Result<DatabaseConnection, DbErr> {
    let mut options = ConnectOptions::new(url.to_string());
    let sqlite = url.starts_with("sqlite:");
    options
        .sqlx_logging(false)
        // sea-orm would give SQLite a single connection; WAL lets readers run
        // beside the one writer.
        .max_connections(if sqlite { 8 } else { 20 })
        .min_connections(1)
        .acquire_timeout(Duration::from_secs(10))
        .map_sqlx_sqlite_opts(|opts| {
            opts.journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .busy_timeout(Duration::from_secs(10))
                .foreign_keys(true)
        });
    Database::connect(options).await
}

/// Starts a transaction that will write. On SQLite it is `BEGIN IMMEDIATE`,
/// taking the write lock up front so a read-then-write never fails to upgrade;
/// PostgreSQL ignores the mode.
pub async fn begin_write(db: &DatabaseConnection) -> Result<DatabaseTransaction, DbErr> {
    db.begin_with_options(TransactionOptions {
        sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
        ..Default::default()
    })
    .await
}
