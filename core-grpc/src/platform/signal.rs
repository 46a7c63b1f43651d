//! The process-wide signal that work is waiting: a transaction that enqueues
//! a job or writes an event's deliveries raises it when it commits (see
//! `db::WriteTxn`), and idle workers wait on it (and poll, for work other
//! processes enqueue). A wake-up is a hint: a worker that finds nothing
//! simply waits again.

use std::sync::LazyLock;

use tokio::sync::Notify;

static WORK: LazyLock<Notify> = LazyLock::new(Notify::new);

/// Wakes every idle worker of this process, and the next one to wait.
pub fn work_enqueued() {
    WORK.notify_waiters();
    WORK.notify_one();
}

/// Resolves at the next wake-up.
pub async fn work_arrived() {
    WORK.notified().await
}
