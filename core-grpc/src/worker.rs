//! Background workers: claim jobs from the database and run them until
//! shutdown. A job in hand when shutdown comes is finished first.

use std::time::Duration;

use entities::job;
use tokio::sync::watch;

use crate::jobs::{self, JobKind};
use crate::sandbox;
use crate::server::Core;

/// How often an idle worker looks for work enqueued by another process.
pub const POLL_INTERVAL: Duration = Duration::from_millis(250);

/// Runs one worker until `stop` turns true.
pub async fn run(core: Core, mut stop: watch::Receiver<bool>) {
    loop {
        if *stop.borrow() {
            break;
        }
        match jobs::claim(&core.db, core.config.job_lease).await {
            Ok(Some(claimed)) => {
                process(&core, claimed).await;
                continue;
            }
            Ok(None) => {}
            Err(err) => tracing::error!(error = %err, "claiming a job failed"),
        }
        tokio::select! {
            _ = stop.changed() => {}
            _ = core.work.notified() => {}
            _ = tokio::time::sleep(POLL_INTERVAL) => {}
        }
    }
}

async fn process(core: &Core, claimed: job::Model) {
    let span = tracing::info_span!("job", id = %claimed.id, kind = %claimed.kind, attempt = claimed.attempts);
    let _enter = span.enter();
    let result = match JobKind::parse(&claimed.kind) {
        Some(JobKind::SyncConnection) => sandbox::run_sync_job(&core.db, &core.engine, &claimed).await,
        Some(JobKind::IngestTransactions) => crate::ingest::run_ingest_job(&core.db, &core.engine, &claimed).await,
        None => Err(crate::CoreError::Internal(format!("unknown job kind {}", claimed.kind))),
    };
    match result {
        Ok(()) => tracing::info!("job completed"),
        Err(err) => {
            tracing::error!(error = %err, "job failed");
            if let Err(err) = jobs::record_failure(&core.db, &claimed, &err.to_string()).await {
                tracing::error!(error = %err, "recording the failure failed; the lease will expire");
            }
        }
    }
}
