//! Ingestion, connection-sync and receipt-reading jobs as background work:
//! claimed through `jobs` by pool (ingestion and syncs in one, receipts in
//! their own) and run by the generic loop in `worker`. Ingestion jobs
//! claimed together are adjudicated and committed together (one SQLite
//! commit for several), falling back to one by one when a group fails.
//!
//! While a batch runs its leases are extended, so a long reading is not
//! taken over by another worker; a job claimed after [`jobs::MAX_ATTEMPTS`]
//! unfinished attempts is not run but failed for good, with an event that
//! says so. A receipt worker that is told to stop kills its reading and
//! hands the job back to the queue.

use std::time::Duration;

use entities::enums::EventType;
use entities::job;
use tokio::sync::watch;
use tracing::Instrument;

use crate::db::begin_write;
use crate::error::CoreError;
use crate::jobs::{self, JobKind, JobPool};
use crate::state::Core;
use crate::worker::LeasedWork;
use crate::{ingest, outbox, receipts, sandbox};

/// One pool's job queue as [`LeasedWork`].
pub struct Jobs {
    pool: JobPool,
    /// Turns true when the core stops: a receipt reading in hand is then
    /// abandoned and its job released (ingestion finishes its batch).
    stop: watch::Receiver<bool>,
}

impl Jobs {
    pub fn new(pool: JobPool, stop: watch::Receiver<bool>) -> Jobs {
        Jobs { pool, stop }
    }
}

impl LeasedWork for Jobs {
    type Item = job::Model;
    const NAME: &'static str = "jobs";
    const POLL_INTERVAL: Duration = Duration::from_millis(250);

    async fn claim(&self, core: &Core) -> Result<Vec<job::Model>, CoreError> {
        jobs::claim(&core.db, core.config.job_lease, self.pool).await
    }

    async fn process(&self, core: &Core, claimed: Vec<job::Model>) {
        let (exhausted, runnable): (Vec<job::Model>, Vec<job::Model>) = claimed.into_iter().partition(jobs::exhausted);
        for job in &exhausted {
            let cause = format!(
                "gave up after {} attempts: none finished (its process stopped, or it ran past its lease)",
                jobs::MAX_ATTEMPTS
            );
            give_up(core, job, &cause).await;
        }
        if !runnable.is_empty() {
            self.run_holding_leases(core, runnable).await;
        }
    }
}

impl Jobs {
    /// Runs `claimed`, extending their leases every third of a lease while
    /// the work goes on; a receipt worker told to stop drops the reading
    /// (its child process is killed) and releases the jobs.
    async fn run_holding_leases(&self, core: &Core, claimed: Vec<job::Model>) {
        let held = claimed.clone();
        let lease = core.config.job_lease;
        // Boxed, not pinned on the stack: dropping it on stop must drop the
        // work itself (and kill a reading's process group) before the jobs
        // are released, not at the end of this function.
        let mut work = Box::pin(run_batch(core, claimed));
        let mut beat = tokio::time::interval(lease / 3);
        beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        beat.tick().await;
        let mut stop = self.stop.clone();
        let stopped = async move {
            let _ = stop.wait_for(|stop| *stop).await;
        };
        tokio::pin!(stopped);
        let interruptible = self.pool == JobPool::Receipts;
        loop {
            tokio::select! {
                () = &mut work => return,
                _ = beat.tick() => {
                    for job in &held {
                        match jobs::extend_lease(&core.db, job, lease).await {
                            Ok(true) => {}
                            Ok(false) => tracing::warn!(id = %job.id, "lost the claim on a running job"),
                            Err(err) => tracing::error!(id = %job.id, error = %err, "extending a job's lease failed"),
                        }
                    }
                }
                () = &mut stopped, if interruptible => break,
            }
        }
        // Stopping: dropping the work kills the reading's process group.
        drop(work);
        for job in &held {
            match jobs::release(&core.db, job).await {
                Ok(()) => tracing::info!(id = %job.id, kind = %job.kind, "released a job on stop"),
                Err(err) => {
                    tracing::error!(id = %job.id, error = %err, "releasing a job failed; its lease will expire")
                }
            }
        }
    }
}

async fn run_batch(core: &Core, claimed: Vec<job::Model>) {
    let (ingest, other): (Vec<job::Model>, Vec<job::Model>) =
        claimed.into_iter().partition(|j| j.kind == JobKind::IngestTransactions);
    if ingest.len() > 1 {
        match ingest::run_ingest_jobs(&core.db, &core.engine, &ingest).await {
            Ok(()) => {
                for job in &ingest {
                    tracing::info!(id = %job.id, kind = %job.kind, attempt = job.attempts, "job completed");
                }
            }
            // One bad job must not hold the others back: run each alone.
            Err(err) => {
                tracing::warn!(error = %err, "a group of ingestion jobs failed; running them one by one");
                for job in ingest {
                    run_one(core, job).await;
                }
            }
        }
    } else {
        for job in ingest {
            run_one(core, job).await;
        }
    }
    for job in other {
        run_one(core, job).await;
    }
}

async fn run_one(core: &Core, claimed: job::Model) {
    // A span entered with `enter()` must not live across an await (the
    // subscriber's span registry panics); instrument the future instead.
    let span = tracing::info_span!("job", id = %claimed.id, kind = %claimed.kind, attempt = claimed.attempts);
    run_one_in_span(core, claimed).instrument(span).await
}

async fn run_one_in_span(core: &Core, claimed: job::Model) {
    let result = match claimed.kind {
        JobKind::SyncConnection => sandbox::run_sync_job(&core.db, &core.engine, &core.config.keyring, &claimed).await,
        JobKind::IngestTransactions => {
            match ingest::run_ingest_jobs(&core.db, &core.engine, std::slice::from_ref(&claimed)).await {
                Ok(()) => Ok(()),
                // One bad row must not cost the batch: store the others.
                Err(err) => {
                    tracing::warn!(error = %err, "the batch failed as a whole; storing it row by row");
                    ingest::run_ingest_job_row_by_row(&core.db, &core.engine, &claimed).await
                }
            }
        }
        JobKind::ReadReceipt => {
            receipts::run_read_job(&core.db, &core.engine, &core.config.keyring, &core.config.receipt_reader, &claimed)
                .await
        }
    };
    match result {
        Ok(()) => {
            tracing::info!("job completed");
        }
        Err(err) if jobs::may_retry(&claimed) => {
            tracing::error!(error = %err, "job failed");
            if let Err(err) = jobs::record_failure(&core.db, &claimed, &err.to_string()).await {
                tracing::error!(error = %err, "recording the failure failed; the lease will expire");
            }
        }
        Err(err) => {
            tracing::error!(error = %err, "job failed for the last time");
            give_up(core, &claimed, &format!("gave up after {} attempts: {err}", jobs::MAX_ATTEMPTS)).await;
        }
    }
}

/// Fails a job for good, with what it tells the partner: a receipt becomes
/// `unreadable` (`receipt.unreadable`); a push or sync raises `job.failed`.
async fn give_up(core: &Core, claimed: &job::Model, cause: &str) {
    let result = async {
        let txn = begin_write(&core.db).await?;
        if !jobs::fail_for_good(&*txn, claimed, cause).await? {
            // Another worker holds it now; it is that worker's to finish.
            return Ok::<(), CoreError>(());
        }
        match claimed.kind {
            JobKind::ReadReceipt => receipts::give_up_reading(&txn, &core.engine, claimed).await?,
            JobKind::IngestTransactions | JobKind::SyncConnection => {
                let data = serde_json::json!({
                    "job_id": claimed.id, "kind": claimed.kind.as_str(), "user_id": claimed.user_id,
                    "connection_id": claimed.connection_id, "attempts": jobs::MAX_ATTEMPTS,
                    "error": {"code": "attempts_exhausted", "message": format!(
                        "The job failed {} times; Sail stopped trying. Push the rows again to retry.",
                        jobs::MAX_ATTEMPTS
                    )},
                });
                outbox::record(&txn, &claimed.partner_id, EventType::JobFailed, data).await?;
            }
        }
        txn.commit().await?;
        Ok(())
    }
    .await;
    match result {
        Ok(()) => tracing::warn!(id = %claimed.id, kind = %claimed.kind, "job failed for good"),
        Err(err) => {
            tracing::error!(id = %claimed.id, error = %err, "failing a job for good failed; it will be claimed again")
        }
    }
}
