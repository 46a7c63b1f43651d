//! Claiming rows under a lease: the one mechanism behind job workers and
//! webhook delivery workers. A claim marks up to `max` runnable rows as held
//! until an instant; a holder that dies lets the lease run out and another
//! worker takes the rows over. Completing is conditional on still holding
//! the claim (the caller's job).
//!
//! On PostgreSQL the candidate rows are locked with `FOR UPDATE SKIP LOCKED`,
//! so many workers in many processes claim disjoint rows at once. On SQLite
//! the claim runs in a `BEGIN IMMEDIATE` transaction, which already admits one
//! writer at a time; the locking clause is left out rather than written and
//! silently dropped.

use std::time::Duration;

use sea_orm::{DatabaseBackend, DatabaseConnection, EntityTrait, FromQueryResult, Statement};

use crate::db::begin_write;
use crate::domain::time;
use crate::error::CoreError;

/// What to claim from a table. The SQL fragments may use `$1` (the lease's
/// end, Unix ms), `$2` (now, Unix ms) and `$3` (now, a timestamp; bound only
/// when used, since PostgreSQL refuses parameters it cannot type).
pub struct ClaimSpec {
    pub table: &'static str,
    /// Assignments made on claim, e.g. `lease_until_ms = $1`.
    pub set: &'static str,
    /// Which rows are runnable now.
    pub runnable: &'static str,
    /// Claim order, oldest work first.
    pub order: &'static str,
}

/// Claims up to `max` runnable rows of `spec.table` for `lease`.
pub async fn claim<E>(
    db: &DatabaseConnection,
    spec: &ClaimSpec,
    lease: Duration,
    max: u64,
) -> Result<Vec<E::Model>, CoreError>
where
    E: EntityTrait,
    E::Model: FromQueryResult + Send + Sync,
{
    let backend = db.get_database_backend();
    let now = time::now();
    let now_ms = now.timestamp_millis();
    let lock = if backend == DatabaseBackend::Postgres { " FOR UPDATE SKIP LOCKED" } else { "" };
    let sql = format!(
        "UPDATE {table} SET {set} WHERE id IN (SELECT id FROM {table} WHERE {runnable} ORDER BY {order} LIMIT {max}{lock}) RETURNING *",
        table = spec.table,
        set = spec.set,
        runnable = spec.runnable,
        order = spec.order,
    );
    // SQLite takes numbered parameters as ?1, ?2…; PostgreSQL as $1, $2….
    let sql = if backend == DatabaseBackend::Postgres { sql } else { sql.replace('$', "?") };
    let mut values: Vec<sea_orm::Value> = vec![(now_ms + lease.as_millis() as i64).into(), now_ms.into()];
    if spec.set.contains("$3") || spec.runnable.contains("$3") {
        values.push(now.into());
    }
    let txn = begin_write(db).await?;
    let claimed = E::find().from_raw_sql(Statement::from_sql_and_values(backend, sql, values)).all(&*txn).await?;
    txn.commit().await?;
    Ok(claimed)
}
