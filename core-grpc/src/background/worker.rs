//! The one claim-and-lease loop behind every kind of background work: a
//! worker claims a batch of due rows under a lease (`lease`), processes it,
//! and when there is nothing to claim waits for the process's work signal
//! (`signal`), its poll interval, or shutdown. Ingestion and sync jobs
//! (`job_worker`) and webhook deliveries (`background::delivery`) plug in by
//! implementing [`LeasedWork`]. A batch in hand when shutdown comes is
//! finished first.

use std::future::Future;
use std::time::Duration;

use tokio::sync::watch;

use crate::error::CoreError;
use crate::platform::signal;
use crate::state::Core;

/// A kind of background work claimed from the database under a lease.
pub trait LeasedWork: Send + Sync + 'static {
    /// What one claim hands over.
    type Item: Send + 'static;
    /// For the logs.
    const NAME: &'static str;
    /// How often an idle worker looks for work another process enqueued.
    const POLL_INTERVAL: Duration;

    /// Claims the next due batch (empty when nothing is due).
    fn claim(&self, core: &Core) -> impl Future<Output = Result<Vec<Self::Item>, CoreError>> + Send;

    /// Does the work and records its outcome; failures are the work's own
    /// to record (a lost lease hands the rows to another worker).
    fn process(&self, core: &Core, claimed: Vec<Self::Item>) -> impl Future<Output = ()> + Send;

    /// Resolves when this work may have become claimable for a reason of
    /// its own (webhook delivery: a send slot was freed); never, by default.
    fn woken(&self) -> impl Future<Output = ()> + Send {
        std::future::pending()
    }

    /// Called once when the worker stops: work still in flight (a pipeline
    /// such as webhook delivery) is finished and recorded here.
    fn finish(&self, _core: &Core) -> impl Future<Output = ()> + Send {
        std::future::ready(())
    }
}

/// Runs one worker of `work` until `stop` turns true.
pub async fn run<W: LeasedWork>(core: Core, work: W, mut stop: watch::Receiver<bool>) {
    loop {
        if *stop.borrow() {
            break;
        }
        match work.claim(&core).await {
            Ok(claimed) if !claimed.is_empty() => {
                work.process(&core, claimed).await;
                continue;
            }
            Ok(_) => {}
            Err(err) => tracing::error!(work = W::NAME, error = %err, "claiming failed"),
        }
        tokio::select! {
            _ = stop.changed() => {}
            _ = signal::work_arrived() => {}
            _ = work.woken() => {}
            _ = tokio::time::sleep(W::POLL_INTERVAL) => {}
        }
    }
    work.finish(&core).await;
}
