//! Database connections: SQLite (embedded default, WAL, immediate write
//! transactions) or PostgreSQL (production), chosen by the URL.

use std::collections::HashMap;
use std::ops::Deref;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use tokio::sync::OwnedMutexGuard;

use sea_orm::sea_query::Expr;
use sea_orm::sqlx::sqlite::{SqliteJournalMode, SqliteSynchronous};
use sea_orm::{
    ConnectOptions, ConnectionTrait, Database, DatabaseBackend, DatabaseTransaction, DbErr, EntityTrait,
    FromQueryResult, PaginatorTrait, PartialModelTrait, QueryResult, QuerySelect, QueryTrait, Select,
    SqliteTransactionMode, TransactionOptions, TransactionTrait,
};

use crate::domain::Page;

/// The pool type, re-exported so callers need not depend on sea-orm.
pub use sea_orm::DatabaseConnection;

/// How one process's pool is sized and bounded in time
/// (docs/operations.md#database-connections). A serving core and an
/// operator command are different roles with different defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolSettings {
    /// Most connections open at once. Across a fleet, cores × this must stay
    /// under the PostgreSQL server's `max_connections`.
    pub max_connections: u32,
    /// How long a caller waits for a free connection before its request is
    /// answered `503` (the pool is exhausted).
    pub acquire_timeout: Duration,
    /// PostgreSQL `statement_timeout`: a statement running longer is
    /// cancelled (`503`). `None`: no limit.
    pub statement_timeout: Option<Duration>,
    /// PostgreSQL `idle_in_transaction_session_timeout`: a session idle
    /// inside a transaction this long (a stalled process holding locks) is
    /// ended by the server. `None`: no limit.
    pub idle_in_transaction_timeout: Option<Duration>,
    /// A statement slower than this is logged at `warn`, inside the span of
    /// the request or job that ran it. `None`: never.
    pub slow_statement: Option<Duration>,
}

impl PoolSettings {
    /// A serving core: requests and background work share the pool, and no
    /// statement may hold a connection for long.
    pub fn serving(url: &str) -> PoolSettings {
        PoolSettings {
            // sea-orm would give SQLite a single connection; WAL lets readers
            // run beside the one writer.
            max_connections: if url.starts_with("sqlite:") { 8 } else { 20 },
            acquire_timeout: Duration::from_secs(10),
            statement_timeout: Some(Duration::from_secs(30)),
            idle_in_transaction_timeout: Some(Duration::from_secs(60)),
            slow_statement: Some(Duration::from_millis(500)),
        }
    }

    /// An operator command (migrate, retention, backup, keys): few
    /// connections, and no statement limit, since a migration or a sweep
    /// over a large table may rightly run for minutes.
    pub fn operator() -> PoolSettings {
        PoolSettings {
            max_connections: 4,
            acquire_timeout: Duration::from_secs(30),
            statement_timeout: None,
            idle_in_transaction_timeout: Some(Duration::from_secs(600)),
            slow_statement: Some(Duration::from_secs(5)),
        }
    }
}

/// Opens a pool for `url` (`sqlite://…` or `postgres://…`) as a serving
/// core's.
pub async fn connect(url: &str) -> Result<DatabaseConnection, DbErr> {
    connect_with(url, &PoolSettings::serving(url)).await
}

/// Opens a pool for `url` with `settings`.
pub async fn connect_with(url: &str, settings: &PoolSettings) -> Result<DatabaseConnection, DbErr> {
    let mut options = ConnectOptions::new(url.to_string());
    let sqlite = url.starts_with("sqlite:");
    if sqlite {
        // A SQLite connection is a file handle in this process: it cannot
        // go stale, so the pool's ping before every checkout (a round trip
        // to the connection's worker thread, as many as the queries
        // themselves) buys nothing.
        options.test_before_acquire(false);
    } else {
        // A PostgreSQL connection can be cut by the server, a proxy or a
        // firewall while it idles: ping those that idled, not the hot ones
        // (one round trip saved per query under load).
        options.test_before_acquire_if_idle_for(Duration::from_secs(10));
    }
    match settings.slow_statement {
        // Statements themselves are never logged (their text is ours, their
        // values are partners' data and are not in it); slow ones are.
        Some(threshold) => options
            .sqlx_logging(true)
            .sqlx_logging_level(tracing::log::LevelFilter::Off)
            .sqlx_slow_statements_logging_settings(tracing::log::LevelFilter::Warn, threshold),
        None => options.sqlx_logging(false),
    };
    if let Some(timeout) = settings.statement_timeout {
        options.statement_timeout(timeout);
    }
    let idle_in_transaction = settings.idle_in_transaction_timeout;
    options
        .max_connections(settings.max_connections)
        .min_connections(1)
        .acquire_timeout(settings.acquire_timeout)
        .map_sqlx_postgres_opts(move |opts| match idle_in_transaction {
            Some(timeout) => opts.options([("idle_in_transaction_session_timeout", timeout.as_millis().to_string())]),
            None => opts,
        })
        .map_sqlx_sqlite_opts(|opts| {
            opts.journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .busy_timeout(Duration::from_secs(10))
                .foreign_keys(true)
        })
        .map_sqlx_sqlite_pool_opts(|pool| {
            pool.after_connect(|conn, _| {
                Box::pin(async move {
                    let mut handle = conn.lock_handle().await?;
                    plan_without_bound_values(handle.as_raw_handle());
                    Ok(())
                })
            })
        });
    Database::connect(options).await
}

/// Whether a database error means the database could not be reached or
/// would not answer in time (the error layer's rule, where the answer to a
/// caller is decided).
pub use crate::error::is_unavailable;

/// Turns on SQLite's query planner stability guarantee for a connection:
/// plans no longer depend on the values bound to a statement.
///
/// Without it, SQLite peeks at a bound `LIMIT ?` (sea-orm binds every
/// limit and offset, and `.one()` is `LIMIT ?`) while planning, marks the
/// statement as depending on that value, and then re-parses and re-plans the
/// cached statement on every execution, because every execution binds its
/// parameters anew: about a sixth of a SQLite read's time went to that
/// (docs/benchmarks.md). Nothing here needs value-dependent plans: there are
/// no partial indexes and no `LIKE ?`.
fn plan_without_bound_values(db: std::ptr::NonNull<libsqlite3_sys::sqlite3>) {
    use libsqlite3_sys::{SQLITE_DBCONFIG_ENABLE_QPSG, sqlite3_db_config};
    // SAFETY: `db` is an open connection whose lock this thread holds (sqlx's
    // `lock_handle`), and this option takes an int and an optional int
    // pointer (null: the new value is not read back).
    let rc = unsafe { sqlite3_db_config(db.as_ptr(), SQLITE_DBCONFIG_ENABLE_QPSG, 1, std::ptr::null_mut::<i32>()) };
    if rc != libsqlite3_sys::SQLITE_OK {
        tracing::warn!(rc, "SQLite refused the query planner stability guarantee: reads re-plan on each execution");
    }
}

/// The writers of each SQLite file in this process, queued: SQLite admits
/// one writer at a time, and a writer that finds the lock taken sleeps in
/// SQLite's busy handler (1, 2, 5, 10… ms) while the lock may already be
/// free. Queued here, the next writer starts the moment the last one ends.
/// Writers in other processes still meet the busy timeout.
static SQLITE_WRITERS: LazyLock<std::sync::Mutex<HashMap<PathBuf, Arc<tokio::sync::Mutex<()>>>>> =
    LazyLock::new(Default::default);

fn sqlite_writer_queue(db: &DatabaseConnection) -> Option<Arc<tokio::sync::Mutex<()>>> {
    if db.get_database_backend() != DatabaseBackend::Sqlite {
        return None;
    }
    let file = db.get_sqlite_connection_pool().connect_options().get_filename().to_path_buf();
    let mut queues = SQLITE_WRITERS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    Some(queues.entry(file).or_default().clone())
}

/// Writers of this process waiting for their SQLite writer turn now: the
/// database's queue, as `sail_db_write_waiting` shows it (a PostgreSQL
/// pool's waiters are not counted by its driver).
static WRITERS_WAITING: AtomicI64 = AtomicI64::new(0);

/// Writers waiting for their turn at a SQLite file, in this process.
pub fn writers_waiting() -> i64 {
    WRITERS_WAITING.load(Ordering::Relaxed)
}

/// One writer counted in [`WRITERS_WAITING`] until its turn comes, or
/// until it gives up waiting (its future dropped).
struct WaitingForTurn(std::time::Instant);

impl WaitingForTurn {
    fn start() -> WaitingForTurn {
        WRITERS_WAITING.fetch_add(1, Ordering::Relaxed);
        WaitingForTurn(std::time::Instant::now())
    }

    /// The turn came: how long it took goes to `sail_db_write_wait_seconds`.
    fn end(self) {
        metrics::histogram!("sail_db_write_wait_seconds").record(self.0.elapsed().as_secs_f64());
    }
}

impl Drop for WaitingForTurn {
    fn drop(&mut self) {
        WRITERS_WAITING.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A write transaction; on SQLite it also holds this process's writer turn
/// for the file until it commits or is dropped.
pub struct WriteTxn {
    txn: DatabaseTransaction,
    _turn: Option<OwnedMutexGuard<()>>,
    /// Set when the transaction enqueued work; workers wake on commit.
    enqueued: AtomicBool,
}

impl WriteTxn {
    /// Commits; if work was enqueued in the transaction, wakes the workers
    /// (only now can they see it).
    pub async fn commit(self) -> Result<(), DbErr> {
        self.txn.commit().await?;
        if self.enqueued.load(Ordering::Relaxed) {
            crate::platform::signal::work_enqueued();
        }
        Ok(())
    }

    /// Records that this transaction enqueued work for the workers.
    pub fn wake_workers_on_commit(&self) {
        self.enqueued.store(true, Ordering::Relaxed);
    }
}

impl Deref for WriteTxn {
    type Target = DatabaseTransaction;

    fn deref(&self) -> &DatabaseTransaction {
        &self.txn
    }
}

/// Starts a transaction that will write. On SQLite it waits for this
/// process's turn at the file, then is `BEGIN IMMEDIATE`, taking the write
/// lock up front so a read-then-write never fails to upgrade; PostgreSQL
/// ignores both.
pub async fn begin_write(db: &DatabaseConnection) -> Result<WriteTxn, DbErr> {
    let turn = match sqlite_writer_queue(db) {
        Some(queue) => {
            let waiting = WaitingForTurn::start();
            let turn = queue.lock_owned().await;
            waiting.end();
            Some(turn)
        }
        None => None,
    };
    let txn = db
        .begin_with_options(TransactionOptions {
            sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
            ..Default::default()
        })
        .await?;
    Ok(WriteTxn { txn, _turn: turn, enqueued: AtomicBool::new(false) })
}

/// A row with the number of rows its query matches in all.
struct Counted<M> {
    row: M,
    total: i64,
}

impl<M: FromQueryResult> FromQueryResult for Counted<M> {
    fn from_query_result(res: &QueryResult, pre: &str) -> Result<Self, DbErr> {
        Ok(Counted { row: M::from_query_result(res, pre)?, total: res.try_get(pre, "page_total")? })
    }
}

/// One page of `query` (already filtered and ordered) and the total it
/// matches, in one statement rather than a page and a `COUNT`: every list
/// endpoint answers `pagination.total`, and a second query was a large part
/// of a list's cost on SQLite. A page past the end has no row to carry the
/// total, so only then is it counted on its own.
pub async fn fetch_page<E>(
    db: &impl ConnectionTrait,
    query: Select<E>,
    page: Page,
) -> Result<(Vec<E::Model>, u64), DbErr>
where
    E: EntityTrait,
    E::Model: FromQueryResult + Send + Sync,
{
    page_and_total(db, query, page).await
}

/// `fetch_page` reading only the columns of the partial model `M`: a list
/// that answers a few columns of a wide row does not copy and decode the
/// rest (on SQLite each column of each row is copied out of the statement).
pub async fn fetch_page_of<E, M>(
    db: &impl ConnectionTrait,
    query: Select<E>,
    page: Page,
) -> Result<(Vec<M>, u64), DbErr>
where
    E: EntityTrait,
    E::Model: FromQueryResult + Send + Sync,
    M: PartialModelTrait + Send + Sync,
{
    page_and_total(db, M::select_cols(QuerySelect::select_only(query)), page).await
}

async fn page_and_total<E, M>(db: &impl ConnectionTrait, query: Select<E>, page: Page) -> Result<(Vec<M>, u64), DbErr>
where
    E: EntityTrait,
    E::Model: FromQueryResult + Send + Sync,
    M: FromQueryResult + Send + Sync,
{
    // The count is an uncorrelated subquery, evaluated once and answered
    // from the filter's index; a `COUNT(*) OVER ()` window would read every
    // matching row in full, not just the page's.
    let mut count = query.clone().select_only().column_as(Expr::cust("COUNT(*)"), "n").into_query();
    count.clear_order_by();
    let rows = query
        .clone()
        .column_as(Expr::SubQuery(None, Box::new(count.into())), "page_total")
        .limit(page.limit)
        .offset(page.offset)
        .into_model::<Counted<M>>()
        .all(db)
        .await?;
    let total = match rows.first() {
        Some(first) => first.total.max(0) as u64,
        None if page.offset == 0 => 0,
        None => query.count(db).await?,
    };
    Ok((rows.into_iter().map(|counted| counted.row).collect(), total))
}

#[cfg(test)]
mod tests {
    use libsqlite3_sys::{SQLITE_DBCONFIG_ENABLE_QPSG, sqlite3_db_config};

    /// A SQLite database in a directory of its own, opened by `connect`.
    async fn scratch_sqlite() -> (super::DatabaseConnection, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("sail-db-{}", uuid::Uuid::now_v7().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = super::connect(&format!("sqlite://{}/sail.db?mode=rwc", dir.display())).await.unwrap();
        (db, dir)
    }

    /// Closes a `scratch_sqlite` database and removes its directory.
    async fn remove_scratch(db: super::DatabaseConnection, dir: std::path::PathBuf) {
        db.close().await.unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[tokio::test]
    async fn every_sqlite_connection_plans_without_bound_values() {
        let (db, dir) = scratch_sqlite().await;
        let pool = db.get_sqlite_connection_pool();
        // Two connections at once: the pool's first and one opened on demand.
        let (mut first, mut second) = (pool.acquire().await.unwrap(), pool.acquire().await.unwrap());
        for conn in [&mut first, &mut second] {
            let mut handle = conn.lock_handle().await.unwrap();
            let mut enabled = -1;
            // SAFETY: an open connection whose lock is held; -1 reads the
            // setting into `enabled`.
            let rc = unsafe {
                sqlite3_db_config(handle.as_raw_handle().as_ptr(), SQLITE_DBCONFIG_ENABLE_QPSG, -1, &mut enabled)
            };
            assert_eq!((rc, enabled), (libsqlite3_sys::SQLITE_OK, 1));
        }
        drop((first, second));
        remove_scratch(db, dir).await;
    }

    /// A read never overtakes work already handed to the connection's worker
    /// (a guard kept from when Sail ran SQLite reads on the caller's thread:
    /// any such shortcut must keep it):
    /// after a transaction is dropped, its rollback is queued, not yet run,
    /// and a read sent right after must see the rolled-back state. Repeated,
    /// since a read that jumped the queue would only sometimes be first.
    #[tokio::test]
    async fn a_read_on_the_callers_thread_never_overtakes_a_queued_rollback() {
        use sea_orm::sqlx::{self, Connection};
        let (db, dir) = scratch_sqlite().await;
        let mut conn = db.get_sqlite_connection_pool().acquire().await.unwrap();
        sqlx::query("CREATE TABLE t (v INTEGER)").execute(&mut *conn).await.unwrap();
        for _ in 0..300 {
            {
                let mut txn = conn.begin().await.unwrap();
                sqlx::query("INSERT INTO t VALUES (1)").execute(&mut *txn).await.unwrap();
                // Dropped without commit: sqlx queues a ROLLBACK.
            }
            let seen: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM t").fetch_one(&mut *conn).await.unwrap();
            assert_eq!(seen, 0, "a read ran inside a transaction that was already dropped");
        }
        drop(conn);
        remove_scratch(db, dir).await;
    }

    /// The bundled SQLite is built without memory statistics
    /// (`.cargo/config.toml`): with them, every allocation of every
    /// connection's thread queues on one process-wide mutex.
    #[tokio::test]
    async fn sqlite_counts_no_allocations() {
        use sea_orm::ConnectionTrait;
        let (db, dir) = scratch_sqlite().await;
        db.execute_unprepared("CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('a'), ('b');").await.unwrap();
        // SAFETY: a plain read of SQLite's global counter; with statistics
        // compiled out it is never written and reads as zero.
        let counted = unsafe { libsqlite3_sys::sqlite3_memory_used() };
        assert_eq!(counted, 0, "SQLite was built with memory statistics on");
        remove_scratch(db, dir).await;
    }
}
