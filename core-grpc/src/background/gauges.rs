//! What the operator listener reads when Prometheus scrapes
//! (docs/operations.md#metrics): how deep each kind of background work's
//! queue is and how old its oldest item, how full the database pool is, and
//! the process's memory and CPU. Read at scrape time, so they are as fresh
//! as the scrape; every label value comes from a fixed list. And whether
//! the core is ready (`sail_core_ready`): not draining, its database
//! answering.

use chrono::{DateTime, Utc};
use entities::enums::{DeliveryStatus, JobKind, JobStatus};
use entities::{job, webhook_delivery};
use sea_orm::{ColumnTrait, DatabaseBackend, EntityTrait, QueryFilter, QuerySelect};

use crate::domain::time;
use crate::error::CoreError;
use crate::state::Core;

/// Sets every scrape-time gauge from `core`.
pub async fn observe(core: &Core) -> Result<(), CoreError> {
    observe_pool(core);
    observe_process();
    let queues = observe_queues(core).await;
    // Ready: not draining, and the database answered the queue queries.
    let ready = !core.readiness.is_draining() && queues.is_ok();
    metrics::gauge!("sail_core_ready").set(if ready { 1.0 } else { 0.0 });
    queues
}

fn set_queue(kind: &'static str, depth: i64, oldest: Option<DateTime<Utc>>) {
    metrics::gauge!("sail_queue_depth", "kind" => kind).set(depth as f64);
    let age = oldest.map(|at| (time::now() - at).num_milliseconds().max(0) as f64 / 1000.0).unwrap_or(0.0);
    metrics::gauge!("sail_queue_oldest_age_seconds", "kind" => kind).set(age);
}

async fn observe_queues(core: &Core) -> Result<(), CoreError> {
    let unfinished = [JobStatus::Queued, JobStatus::Processing];
    let rows: Vec<(JobKind, i64, Option<DateTime<Utc>>)> = job::Entity::find()
        .select_only()
        .column(job::Column::Kind)
        .column_as(job::Column::Id.count(), "depth")
        .column_as(job::Column::CreatedAt.min(), "oldest")
        .filter(job::Column::Status.is_in(unfinished))
        .group_by(job::Column::Kind)
        .into_tuple()
        .all(&core.db)
        .await?;
    for kind in JobKind::ALL {
        let found = rows.iter().find(|(k, _, _)| k == kind);
        set_queue(kind.as_str(), found.map_or(0, |f| f.1), found.and_then(|f| f.2));
    }
    let pending: Option<(i64, Option<DateTime<Utc>>)> = webhook_delivery::Entity::find()
        .select_only()
        .column_as(webhook_delivery::Column::Id.count(), "depth")
        .column_as(webhook_delivery::Column::CreatedAt.min(), "oldest")
        .filter(webhook_delivery::Column::Status.eq(DeliveryStatus::Pending))
        .into_tuple()
        .one(&core.db)
        .await?;
    let (depth, oldest) = pending.unwrap_or((0, None));
    set_queue("webhook_delivery", depth, oldest);
    Ok(())
}

fn observe_pool(core: &Core) {
    let (size, idle, max) = match core.db.get_database_backend() {
        DatabaseBackend::Sqlite => {
            let pool = core.db.get_sqlite_connection_pool();
            (pool.size(), pool.num_idle(), pool.options().get_max_connections())
        }
        _ => {
            let pool = core.db.get_postgres_connection_pool();
            (pool.size(), pool.num_idle(), pool.options().get_max_connections())
        }
    };
    let idle = idle as f64;
    metrics::gauge!("sail_db_pool_connections", "state" => "idle").set(idle);
    metrics::gauge!("sail_db_pool_connections", "state" => "in_use").set((size as f64 - idle).max(0.0));
    metrics::gauge!("sail_db_pool_max_connections").set(f64::from(max));
    metrics::gauge!("sail_db_write_waiting").set(crate::platform::db::writers_waiting() as f64);
}

/// Resident memory and CPU time, from `/proc/self` (Linux); absent
/// elsewhere.
fn observe_process() {
    let page = sysconf(libc::_SC_PAGESIZE).unwrap_or(4096.0);
    let ticks = sysconf(libc::_SC_CLK_TCK).unwrap_or(100.0);
    if let Some(pages) = std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|statm| statm.split_whitespace().nth(1).and_then(|v| v.parse::<f64>().ok()))
    {
        metrics::gauge!("sail_process_resident_memory_bytes").set(pages * page);
    }
    if let Ok(stat) = std::fs::read_to_string("/proc/self/stat") {
        // Fields after the command name (which may hold spaces, in parens).
        let after = stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or("");
        let fields: Vec<&str> = after.split_whitespace().collect();
        // utime and stime are fields 14 and 15 of the whole line: 12 and 13
        // after the name.
        let cpu: f64 = [11, 12].iter().filter_map(|i| fields.get(*i)?.parse::<f64>().ok()).sum();
        metrics::gauge!("sail_process_cpu_seconds").set(cpu / ticks);
    }
}

/// A constant of the system (page size, clock ticks per second).
fn sysconf(name: libc::c_int) -> Option<f64> {
    // SAFETY: sysconf takes an integer and reads a constant of the system;
    // it has no memory-safety preconditions.
    let value = unsafe { libc::sysconf(name) };
    (value > 0).then_some(value as f64)
}
