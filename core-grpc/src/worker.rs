//! Background workers: claim jobs from the database and run them until
//! shutdown. A job in hand when shutdown comes is finished first.

use std::time::Duration;

use entities::job;
use tokio::sync::watch;
use tracing::Instrument;

use crate::jobs::{self, JobKind};
use crate::server::Core;
use crate::{ingest, sandbox};

/// How often an idle worker looks for work enqueued by another process.
pub const POLL_INTERVAL: Duration = Duration::from_millis(250);

/// Jobs a worker claims at once: ingestion jobs claimed together commit
/// together, which spares SQLite's single writer a claim and a commit per job.
pub const CLAIM_BATCH: u64 = 4;

/// Runs one worker until `stop` turns true.
pub async fn run(core: Core, mut stop: watch::Receiver<bool>) {
    loop {
        if *stop.borrow() {
            break;
        }
        match jobs::claim(&core.db, core.config.job_lease, CLAIM_BATCH).await {
            Ok(claimed) if !claimed.is_empty() => {
                process(&core, claimed).await;
                continue;
            }
            Ok(_) => {}
            Err(err) => tracing::error!(error = %err, "claiming jobs failed"),
        }
        tokio::select! {
            _ = stop.changed() => {}
            _ = core.work.notified() => {}
            _ = tokio::time::sleep(POLL_INTERVAL) => {}
        }
    }
}

async fn process(core: &Core, claimed: Vec<job::Model>) {
    let (ingest, other): (Vec<job::Model>, Vec<job::Model>) =
        claimed.into_iter().partition(|j| JobKind::parse(&j.kind) == Some(JobKind::IngestTransactions));
    if ingest.len() > 1 {
        match ingest::run_ingest_jobs(&core.db, &core.engine, &ingest).await {
            Ok(()) => {
                // Their events are committed: let the delivery worker go.
                core.wake_workers();
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
    let result = match JobKind::parse(&claimed.kind) {
        Some(JobKind::SyncConnection) => sandbox::run_sync_job(&core.db, &core.engine, &claimed).await,
        Some(JobKind::IngestTransactions) => {
            ingest::run_ingest_jobs(&core.db, &core.engine, std::slice::from_ref(&claimed)).await
        }
        None => Err(crate::CoreError::Internal(format!("unknown job kind {}", claimed.kind))),
    };
    match result {
        Ok(()) => {
            core.wake_workers();
            tracing::info!("job completed");
        }
        Err(err) => {
            tracing::error!(error = %err, "job failed");
            if let Err(err) = jobs::record_failure(&core.db, &claimed, &err.to_string()).await {
                tracing::error!(error = %err, "recording the failure failed; the lease will expire");
            }
        }
    }
}
