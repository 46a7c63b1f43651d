//! The durable job queue: jobs are rows, claimed by one worker at a time under
//! a lease. A worker that dies leaves its lease to expire and another worker
//! takes the job over, so accepted work is never lost; completion is
//! conditional on still holding the claim, so work is never applied twice.
//!
//! Claims go through `lease`, shared with webhook deliveries.

use std::time::Duration;

use entities::{job, pending_push};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter, Set, UpdateMany,
};

use crate::domain::{IdKind, new_id, time};
use crate::error::CoreError;
use crate::platform::db::{WriteTxn, begin_write};
use crate::platform::lease::{self, ClaimSpec};

/// How long a claim holds, by default, before another worker may take the
/// job over (`CoreConfig::job_lease`).
pub const DEFAULT_LEASE: Duration = Duration::from_secs(60);
/// Claims after which a job that keeps failing is given up.
pub const MAX_ATTEMPTS: i32 = 5;

pub use entities::enums::{JobKind, JobStatus};

/// A new queued job, written with the caller's connection (so it commits with
/// the state change that needs it).
pub struct NewJob<'a> {
    pub partner_id: &'a str,
    pub kind: JobKind,
    pub user_id: Option<&'a str>,
    pub connection_id: Option<&'a str>,
    pub accepted: i32,
    pub duplicates_updated: i32,
    /// The work itself, as JSON.
    pub payload: Option<String>,
}

/// Enqueues a job in the caller's write transaction; the workers wake when
/// it commits.
pub async fn enqueue(txn: &WriteTxn, new: NewJob<'_>) -> Result<job::Model, CoreError> {
    let model = job::ActiveModel {
        id: Set(new_id(IdKind::Job)),
        partner_id: Set(new.partner_id.to_string()),
        kind: Set(new.kind),
        status: Set(JobStatus::Queued),
        user_id: Set(new.user_id.map(str::to_string)),
        connection_id: Set(new.connection_id.map(str::to_string)),
        attempts: Set(0),
        lease_until_ms: Set(None),
        accepted: Set(new.accepted),
        duplicates_updated: Set(new.duplicates_updated),
        processed: Set(0),
        last_error: Set(None),
        payload: Set(new.payload),
        created_at: Set(time::now()),
        started_at: Set(None),
        completed_at: Set(None),
        failed: Set(0),
        failures_json: Set(None),
        // The run joins the trace of the request that queued it.
        trace_parent: Set(sail_api::trace_context::current()),
    };
    let queued = model.insert(&**txn).await?;
    txn.wake_workers_on_commit();
    Ok(queued)
}

/// The kinds of job one pool of workers claims. Receipt reading has a pool
/// of its own, so a slow or hostile file never holds up a push or a sync,
/// and a backlog of pushes never holds up a receipt
/// (docs/architecture.md#background-work).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobPool {
    /// Ingestion and connection syncs: short, bounded by their rows.
    Ingestion,
    /// Receipt reading: a child process per file, up to its timeout.
    Receipts,
}

impl JobPool {
    /// Jobs one claim takes: ingestion jobs claimed together commit
    /// together; a receipt is claimed alone, so no other partner's
    /// receipt waits behind it in the same worker.
    pub fn batch(self) -> u64 {
        match self {
            JobPool::Ingestion => 4,
            JobPool::Receipts => 1,
        }
    }

    fn claim_spec(self) -> &'static ClaimSpec {
        match self {
            JobPool::Ingestion => &INGESTION_CLAIM,
            JobPool::Receipts => &RECEIPTS_CLAIM,
        }
    }
}

/// The attempt is counted when a job is claimed, not when it ends, so a job
/// whose attempts die with their process is still counted.
const CLAIM_SET: &str =
    "status = 'processing', attempts = attempts + 1, lease_until_ms = $1, started_at = COALESCE(started_at, $3)";

/// Runnable ingestion and sync jobs: queued, or processing under an expired lease.
const INGESTION_CLAIM: ClaimSpec = ClaimSpec {
    table: "jobs",
    set: CLAIM_SET,
    runnable: "kind <> 'read_receipt' AND (status = 'queued' OR (status = 'processing' AND lease_until_ms < $2))",
    order: "id",
    pending: None,
};

/// Runnable receipt-reading jobs, likewise.
const RECEIPTS_CLAIM: ClaimSpec = ClaimSpec {
    table: "jobs",
    set: CLAIM_SET,
    runnable: "kind = 'read_receipt' AND (status = 'queued' OR (status = 'processing' AND lease_until_ms < $2))",
    order: "id",
    pending: None,
};

/// Claims up to the pool's batch of runnable jobs of its kinds, in partner
/// turns (each partner's oldest first), returned oldest first.
pub async fn claim(db: &DatabaseConnection, lease: Duration, pool: JobPool) -> Result<Vec<job::Model>, CoreError> {
    let limit = lease::ClaimLimit::up_to(pool.batch());
    let mut claimed = lease::claim::<job::Entity>(db, pool.claim_spec(), lease, limit).await?;
    claimed.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(claimed)
}

/// A claimed job that has used up its attempts: [`MAX_ATTEMPTS`] claims
/// came before this one and none finished (each failed, or its process
/// stopped while it ran). It is not run again.
pub fn exhausted(claimed: &job::Model) -> bool {
    claimed.attempts > MAX_ATTEMPTS
}

/// An update of `claimed` that applies only while this worker still holds
/// it: the job is processing, under the claim that counted this attempt.
fn while_held(claimed: &job::Model) -> UpdateMany<job::Entity> {
    job::Entity::update_many()
        .filter(job::Column::Id.eq(&claimed.id))
        .filter(job::Column::Status.eq(JobStatus::Processing))
        .filter(job::Column::Attempts.eq(claimed.attempts))
}

/// Runs `update` in a write transaction of its own; the rows it changed.
async fn write_alone(db: &DatabaseConnection, update: UpdateMany<job::Entity>) -> Result<u64, CoreError> {
    let txn = begin_write(db).await?;
    let changed = update.exec(&*txn).await?.rows_affected;
    txn.commit().await?;
    Ok(changed)
}

/// Extends the lease of a job this worker still holds, while it runs;
/// false when the claim was lost.
pub async fn extend_lease(db: &DatabaseConnection, claimed: &job::Model, lease: Duration) -> Result<bool, CoreError> {
    let until = time::now().timestamp_millis() + lease.as_millis() as i64;
    let update = while_held(claimed).col_expr(job::Column::LeaseUntilMs, Some(until).into());
    Ok(write_alone(db, update).await? == 1)
}

/// Hands a job this worker holds back to the queue without counting the
/// attempt: the worker is stopping, and the job did not fail.
pub async fn release(db: &DatabaseConnection, claimed: &job::Model) -> Result<(), CoreError> {
    let update = while_held(claimed)
        .col_expr(job::Column::Status, JobStatus::Queued.into())
        .col_expr(job::Column::Attempts, (claimed.attempts - 1).max(0).into())
        .col_expr(job::Column::LeaseUntilMs, Option::<i64>::None.into());
    write_alone(db, update).await?;
    Ok(())
}

/// A row of a batch that failed on its own (the `JobRowFailure` of proto).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct RowFailure {
    pub index: usize,
    pub external_transaction_id: String,
    pub code: String,
    pub message: String,
}

/// Marks a claimed job completed, inside the transaction that applied its
/// effects. Fails (so the caller rolls back) when the claim was lost.
pub async fn complete(db: &impl ConnectionTrait, claimed: &job::Model, processed: i32) -> Result<(), CoreError> {
    complete_with_failures(db, claimed, processed, &[]).await
}

/// [`complete`], recording rows that failed on their own.
pub async fn complete_with_failures(
    db: &impl ConnectionTrait,
    claimed: &job::Model,
    processed: i32,
    failures: &[RowFailure],
) -> Result<(), CoreError> {
    let failures_json = if failures.is_empty() {
        None
    } else {
        Some(serde_json::to_string(failures).map_err(|err| CoreError::Internal(err.to_string()))?)
    };
    let result = while_held(claimed)
        .col_expr(job::Column::Status, JobStatus::Completed.into())
        .col_expr(job::Column::Processed, processed.into())
        .col_expr(job::Column::Failed, (failures.len() as i32).into())
        .col_expr(job::Column::FailuresJson, failures_json.into())
        .col_expr(job::Column::LeaseUntilMs, Option::<i64>::None.into())
        .col_expr(job::Column::Payload, Option::<String>::None.into())
        .col_expr(job::Column::CompletedAt, Some(time::now()).into())
        .exec(db)
        .await?;
    if result.rows_affected == 1 {
        forget_pending(db, claimed).await
    } else {
        Err(CoreError::Internal(format!("lost the claim on {} before completing it", claimed.id)))
    }
}

/// Whether a failed attempt leaves the job another: fewer than
/// [`MAX_ATTEMPTS`] claims so far.
pub fn may_retry(claimed: &job::Model) -> bool {
    claimed.attempts < MAX_ATTEMPTS
}

/// Records a failed attempt that leaves another: back to `queued`.
pub async fn record_failure(db: &DatabaseConnection, claimed: &job::Model, error: &str) -> Result<(), CoreError> {
    let update = while_held(claimed)
        .col_expr(job::Column::Status, JobStatus::Queued.into())
        .col_expr(job::Column::LastError, Some(error.to_string()).into())
        .col_expr(job::Column::LeaseUntilMs, Option::<i64>::None.into());
    write_alone(db, update).await?;
    Ok(())
}

/// Marks a job `failed` for good with its cause, in the caller's
/// transaction (which also records what the failure tells the partner);
/// false when this worker no longer holds it.
pub async fn fail_for_good(db: &impl ConnectionTrait, claimed: &job::Model, cause: &str) -> Result<bool, CoreError> {
    let result = while_held(claimed)
        .col_expr(job::Column::Status, JobStatus::Failed.into())
        .col_expr(job::Column::LastError, Some(cause.to_string()).into())
        .col_expr(job::Column::LeaseUntilMs, Option::<i64>::None.into())
        .col_expr(job::Column::CompletedAt, Some(time::now()).into())
        .exec(db)
        .await?;
    if result.rows_affected != 1 {
        return Ok(false);
    }
    forget_pending(db, claimed).await?;
    Ok(true)
}

/// A finished push's ids are no longer pending: stored (completed) or
/// never to be (failed for good). In the transaction that finishes it.
async fn forget_pending(db: &impl ConnectionTrait, finished: &job::Model) -> Result<(), CoreError> {
    if finished.kind == JobKind::IngestTransactions {
        pending_push::Entity::delete_many()
            .filter(pending_push::Column::JobId.eq(finished.id.as_str()))
            .exec(db)
            .await?;
    }
    Ok(())
}

/// A job of the partner, by id (tenant-bounded).
pub async fn get_job(
    db: &impl ConnectionTrait,
    partner_id: &str,
    job_id: &str,
    kind: JobKind,
) -> Result<job::Model, CoreError> {
    let not_found = || CoreError::not_found("job", "job_id", job_id);
    let id = crate::domain::parse_id(IdKind::Job, job_id).ok_or_else(not_found)?;
    job::Entity::find_by_id(id)
        .filter(job::Column::PartnerId.eq(partner_id))
        .filter(job::Column::Kind.eq(kind.as_str()))
        .one(db)
        .await?
        .ok_or_else(not_found)
}
