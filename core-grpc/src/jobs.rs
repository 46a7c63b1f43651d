//! The durable job queue: jobs are rows, claimed by one worker at a time under
//! a lease. A worker that dies leaves its lease to expire and another worker
//! takes the job over, so accepted work is never lost; completion is
//! conditional on still holding the claim, so work is never applied twice.
//!
//! Claims go through `lease`, shared with webhook deliveries.

use std::time::Duration;

use entities::job;
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter, Set};

use crate::db::{WriteTxn, begin_write};
use crate::domain::{IdKind, new_id, time};
use crate::error::CoreError;
use crate::lease::{self, ClaimSpec};

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
    };
    let queued = model.insert(&**txn).await?;
    txn.wake_workers_on_commit();
    Ok(queued)
}

/// Runnable jobs: queued, or processing under an expired lease.
const JOB_CLAIM: ClaimSpec = ClaimSpec {
    table: "jobs",
    set: "status = 'processing', attempts = attempts + 1, lease_until_ms = $1, started_at = COALESCE(started_at, $3)",
    runnable: "status = 'queued' OR (status = 'processing' AND lease_until_ms < $2)",
    order: "id",
    pending: None,
};

/// Claims up to `max` runnable jobs, in partner turns (each partner's oldest
/// first), returned oldest first.
pub async fn claim(db: &DatabaseConnection, lease: Duration, max: u64) -> Result<Vec<job::Model>, CoreError> {
    let mut claimed = lease::claim::<job::Entity>(db, &JOB_CLAIM, lease, lease::ClaimLimit::up_to(max)).await?;
    claimed.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(claimed)
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
    let result = job::Entity::update_many()
        .col_expr(job::Column::Status, JobStatus::Completed.into())
        .col_expr(job::Column::Processed, processed.into())
        .col_expr(job::Column::Failed, (failures.len() as i32).into())
        .col_expr(job::Column::FailuresJson, failures_json.into())
        .col_expr(job::Column::LeaseUntilMs, Option::<i64>::None.into())
        .col_expr(job::Column::Payload, Option::<String>::None.into())
        .col_expr(job::Column::CompletedAt, Some(time::now()).into())
        .filter(job::Column::Id.eq(&claimed.id))
        .filter(job::Column::Status.eq(JobStatus::Processing))
        .filter(job::Column::Attempts.eq(claimed.attempts))
        .exec(db)
        .await?;
    if result.rows_affected == 1 {
        Ok(())
    } else {
        Err(CoreError::Internal(format!("lost the claim on {} before completing it", claimed.id)))
    }
}

/// Records a failed attempt: back to `queued` for another try, or `failed`
/// for good after [`MAX_ATTEMPTS`].
pub async fn record_failure(db: &DatabaseConnection, claimed: &job::Model, error: &str) -> Result<(), CoreError> {
    let give_up = claimed.attempts >= MAX_ATTEMPTS;
    let txn = begin_write(db).await?;
    let mut update = job::Entity::update_many()
        .col_expr(job::Column::Status, if give_up { JobStatus::Failed } else { JobStatus::Queued }.into())
        .col_expr(job::Column::LastError, Some(error.to_string()).into())
        .col_expr(job::Column::LeaseUntilMs, Option::<i64>::None.into());
    if give_up {
        update = update.col_expr(job::Column::CompletedAt, Some(time::now()).into());
    }
    update
        .filter(job::Column::Id.eq(&claimed.id))
        .filter(job::Column::Attempts.eq(claimed.attempts))
        .exec(&*txn)
        .await?;
    txn.commit().await?;
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
