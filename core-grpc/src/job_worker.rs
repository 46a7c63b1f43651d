//! Ingestion and connection-sync jobs as background work: claimed through
//! `jobs` and run by the generic loop in `worker`. Ingestion jobs claimed
//! together are adjudicated and committed together (one SQLite commit for
//! several), falling back to one by one when a group fails.

use std::time::Duration;

use entities::job;
use tracing::Instrument;

use crate::error::CoreError;
use crate::jobs::{self, JobKind};
use crate::state::Core;
use crate::worker::LeasedWork;
use crate::{ingest, receipts, sandbox};

/// Jobs a worker claims at once: ingestion jobs claimed together commit
/// together, which spares SQLite's single writer a claim and a commit per job.
pub const CLAIM_BATCH: u64 = 4;

/// The job queue as [`LeasedWork`].
pub struct Jobs;

impl LeasedWork for Jobs {
    type Item = job::Model;
    const NAME: &'static str = "jobs";
    const POLL_INTERVAL: Duration = Duration::from_millis(250);

    async fn claim(&self, core: &Core) -> Result<Vec<job::Model>, CoreError> {
        jobs::claim(&core.db, core.config.job_lease, CLAIM_BATCH).await
    }

    async fn process(&self, core: &Core, claimed: Vec<job::Model>) {
        process(core, claimed).await
    }
}

async fn process(core: &Core, claimed: Vec<job::Model>) {
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
        JobKind::ReadReceipt => receipts::run_read_job(&core.db, &core.engine, &core.config.keyring, &claimed).await,
    };
    match result {
        Ok(()) => {
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
