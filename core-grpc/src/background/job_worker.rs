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

use entities::job;
use sail_api::pb;
use sea_orm::DatabaseConnection;
use tokio::sync::watch;
use tracing::Instrument;

use crate::background::worker::LeasedWork;
use crate::error::CoreError;
use crate::platform::db::begin_write;
use crate::platform::jobs::{self, JobKind, JobPool};
use crate::services::{ingest, outbox, receipts};
use crate::state::Core;

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
    /// Runs `claimed` while holding their leases (see
    /// [`hold_leases_while`]); a receipt worker told to stop drops the
    /// reading (its child process is killed) and releases the jobs.
    async fn run_holding_leases(&self, core: &Core, claimed: Vec<job::Model>) {
        let held = claimed.clone();
        let mut stop = self.stop.clone();
        let interruptible = self.pool == JobPool::Receipts;
        let stopped = async move {
            if interruptible {
                let _ = stop.wait_for(|stop| *stop).await;
            } else {
                std::future::pending::<()>().await;
            }
        };
        let work = run_batch(core, claimed);
        if hold_leases_while(&core.db, &held, core.config.job_lease, work, stopped).await == Held::Finished {
            return;
        }
        // Stopped: the work, and with it the reading's process group, is
        // already dropped.
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

/// How [`hold_leases_while`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Held {
    /// The work ran to its end.
    Finished,
    /// `stop` came first; the work was dropped unfinished.
    Stopped,
}

/// Runs `work` and, beside it, extends the leases of `held` every third of
/// `lease`, until the work ends or `stop` resolves. The work is owned here,
/// so on stop it is dropped before this returns (and before the caller
/// releases the jobs).
///
/// The extensions run as a future of their own, polled together with the
/// work, never as a step that pauses it: the work may be inside a write
/// transaction, holding SQLite's writer turn or the job's row lock that an
/// extension waits for, and an extension that stopped the work from being
/// polled would wait for it forever (a receipt then stayed `processing`).
async fn hold_leases_while(
    db: &DatabaseConnection,
    held: &[job::Model],
    lease: Duration,
    work: impl Future<Output = ()>,
    stop: impl Future<Output = ()>,
) -> Held {
    let heartbeat = async {
        let mut beat = tokio::time::interval(lease / 3);
        beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        beat.tick().await;
        loop {
            beat.tick().await;
            for job in held {
                match jobs::extend_lease(db, job, lease).await {
                    Ok(true) => {}
                    Ok(false) => tracing::warn!(id = %job.id, "lost the claim on a running job"),
                    Err(err) => tracing::error!(id = %job.id, error = %err, "extending a job's lease failed"),
                }
            }
        }
    };
    tokio::select! {
        () = work => Held::Finished,
        () = heartbeat => Held::Finished,
        () = stop => Held::Stopped,
    }
}

async fn run_batch(core: &Core, claimed: Vec<job::Model>) {
    let (ingest, other): (Vec<job::Model>, Vec<job::Model>) =
        claimed.into_iter().partition(|j| j.kind == JobKind::IngestTransactions);
    if ingest.len() > 1 {
        // Several pushes stored in one transaction: a span of its own,
        // linked to the trace of each push (a span has one parent).
        let span = tracing::info_span!("jobs", kind = %JobKind::IngestTransactions, count = ingest.len());
        for job in &ingest {
            sail_api::trace_context::link_stored(&span, job.trace_parent.as_deref());
        }
        match ingest::run_ingest_jobs(&core.db, &core.engine, &ingest).instrument(span).await {
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
    // The run joins the trace of the request that queued the job.
    sail_api::trace_context::adopt_stored(&span, claimed.trace_parent.as_deref());
    run_one_in_span(core, claimed).instrument(span).await
}

async fn run_one_in_span(core: &Core, claimed: job::Model) {
    let result = match claimed.kind {
        JobKind::SyncConnection => core.providers.sync(&core.db, &core.engine, &core.vault, &claimed).await,
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
            receipts::run_read_job(&core.db, &core.engine, &core.vault, &core.config.receipt_reader, &claimed).await
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
                let data = pb::JobFailedData {
                    job_id: claimed.id.clone(),
                    kind: claimed.kind.as_str().to_string(),
                    user_id: claimed.user_id.clone(),
                    connection_id: claimed.connection_id.clone(),
                    attempts: jobs::MAX_ATTEMPTS.into(),
                    error: Some(pb::EventReason {
                        code: "attempts_exhausted".to_string(),
                        message: format!(
                            "The job failed {} times; Sail stopped trying. Push the rows again to retry.",
                            jobs::MAX_ATTEMPTS
                        ),
                    }),
                };
                outbox::record(&txn, &claimed.partner_id, &data).await?;
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use entities::job;
    use sea_orm::{ActiveModelTrait, ConnectionTrait, EntityTrait, Schema, Set};

    use super::{Held, hold_leases_while};
    use crate::domain::{IdKind, new_id, time};
    use crate::platform::db::begin_write;
    use crate::platform::jobs::{JobKind, JobStatus};

    /// A SQLite file of its own with the jobs table, and one job claimed
    /// under `lease`.
    async fn one_claimed_job(
        lease: Duration,
    ) -> (crate::platform::db::DatabaseConnection, std::path::PathBuf, job::Model) {
        let dir = std::env::temp_dir().join(format!("sail-jobs-{}", uuid::Uuid::now_v7().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = crate::platform::db::connect(&format!("sqlite://{}/sail.db?mode=rwc", dir.display())).await.unwrap();
        let backend = db.get_database_backend();
        db.execute(&Schema::new(backend).create_table_from_entity(job::Entity)).await.unwrap();
        let claimed = job::ActiveModel {
            id: Set(new_id(IdKind::Job)),
            partner_id: Set("ptn_test".into()),
            kind: Set(JobKind::ReadReceipt),
            status: Set(JobStatus::Processing),
            user_id: Set(None),
            connection_id: Set(None),
            attempts: Set(1),
            lease_until_ms: Set(Some(time::now().timestamp_millis() + lease.as_millis() as i64)),
            accepted: Set(1),
            duplicates_updated: Set(0),
            processed: Set(0),
            last_error: Set(None),
            payload: Set(None),
            created_at: Set(time::now()),
            started_at: Set(Some(time::now())),
            completed_at: Set(None),
            failed: Set(0),
            failures_json: Set(None),
            trace_parent: Set(None),
        }
        .insert(&db)
        .await
        .unwrap();
        (db, dir, claimed)
    }

    async fn lease_of(db: &crate::platform::db::DatabaseConnection, id: &str) -> i64 {
        job::Entity::find_by_id(id).one(db).await.unwrap().unwrap().lease_until_ms.unwrap()
    }

    /// The work sits inside a write transaction while several extensions
    /// fall due: it must still finish (an extension that paused the work
    /// waited for the writer turn the work held, for ever).
    #[tokio::test]
    async fn leases_are_extended_beside_work_that_holds_a_write_transaction() {
        let lease = Duration::from_millis(60);
        let (db, dir, claimed) = one_claimed_job(lease).await;
        let first_lease = claimed.lease_until_ms.unwrap();
        let extended = std::sync::Mutex::new(None);
        let work = async {
            // Outside any transaction, extensions go through.
            tokio::time::sleep(lease * 3).await;
            *extended.lock().unwrap() = Some(lease_of(&db, &claimed.id).await);
            // Inside one, across several due extensions.
            let txn = begin_write(&db).await.unwrap();
            tokio::time::sleep(lease * 3).await;
            txn.execute_unprepared("UPDATE jobs SET processed = 1").await.unwrap();
            txn.commit().await.unwrap();
        };
        let held = tokio::time::timeout(
            Duration::from_secs(10),
            hold_leases_while(&db, std::slice::from_ref(&claimed), lease, work, std::future::pending()),
        )
        .await;
        assert_eq!(held, Ok(Held::Finished), "the work never finished: an extension blocked it");
        let extended = extended.lock().unwrap().expect("the work read the lease");
        assert!(extended > first_lease, "the lease was extended while the work ran ({extended} <= {first_lease})");
        let stored = job::Entity::find_by_id(claimed.id.as_str()).one(&db).await.unwrap().unwrap();
        assert_eq!(stored.processed, 1, "the work's transaction committed");
        db.close().await.unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// On stop the work is dropped unfinished, before the caller hears of it.
    #[tokio::test]
    async fn a_stop_drops_the_work_before_returning() {
        let lease = Duration::from_millis(60);
        let (db, dir, claimed) = one_claimed_job(lease).await;
        let dropped = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        struct OnDrop(std::sync::Arc<std::sync::atomic::AtomicBool>);
        impl Drop for OnDrop {
            fn drop(&mut self) {
                self.0.store(true, std::sync::atomic::Ordering::SeqCst);
            }
        }
        let guard = OnDrop(dropped.clone());
        let work = async move {
            let _guard = guard;
            std::future::pending::<()>().await;
        };
        let stop = tokio::time::sleep(lease);
        let held = hold_leases_while(&db, std::slice::from_ref(&claimed), lease, work, stop).await;
        assert_eq!(held, Held::Stopped);
        assert!(dropped.load(std::sync::atomic::Ordering::SeqCst), "the work outlived the stop");
        db.close().await.unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
