//! Where the process's log lines go: every thread that logs appends its
//! formatted line to one shared buffer, and a thread of its own writes that
//! buffer to stderr in batches, at most [`FLUSH_EVERY`] after the first line
//! of a batch. A request therefore never waits on the terminal or pipe, and
//! never wakes another thread for its line either: only the first line into
//! an empty buffer wakes the writer. (A queue handing each line to the
//! writer, as `tracing_appender::non_blocking` does, cost a wake-up of the
//! writer thread and a `write(2)` per line: about a seventh of a cheap
//! read's CPU under load; docs/benchmarks.md.)
//!
//! Nothing is dropped: a logger that finds [`MAX_PENDING`] bytes waiting
//! waits itself until the writer has taken them. Dropping the [`Flusher`]
//! writes what is pending and stops the writer, waiting at most a second
//! for a stderr that does not drain.

use std::io::Write;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

/// The longest a line waits in memory before it is written.
pub const FLUSH_EVERY: Duration = Duration::from_millis(10);
/// A batch this large is written without waiting out [`FLUSH_EVERY`].
const WRITE_AT: usize = 256 * 1024;
/// Loggers wait (rather than drop lines) above this many bytes pending.
pub const MAX_PENDING: usize = 8 * 1024 * 1024;

/// What the loggers and the writer share.
struct Shared {
    pending: Mutex<Pending>,
    /// The writer waits here for a first line, a full batch or the end.
    writer: Condvar,
    /// Loggers wait here for room when [`MAX_PENDING`] is reached.
    room: Condvar,
}

#[derive(Default)]
struct Pending {
    lines: Vec<u8>,
    closed: bool,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Pending> {
        // A logger that panicked mid-append left whole lines or a torn last
        // one; either is better than losing the log.
        self.pending.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The loggers' side: a `tracing_subscriber` writer (`MakeWriter`) that
/// appends each formatted line to the shared buffer.
#[derive(Clone)]
pub struct BatchedWriter {
    shared: Arc<Shared>,
}

/// The writer thread's handle: dropping it writes everything pending and
/// waits for the thread. Keep it until the process exits.
#[must_use = "dropping the flusher stops the log writer"]
pub struct Flusher {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

/// Starts the writer thread over `out` (stderr for the process).
pub fn start<W: Write + Send + 'static>(out: W) -> std::io::Result<(BatchedWriter, Flusher)> {
    let shared = Arc::new(Shared { pending: Mutex::default(), writer: Condvar::new(), room: Condvar::new() });
    let for_thread = shared.clone();
    let thread =
        std::thread::Builder::new().name("sail-log-writer".into()).spawn(move || write_batches(&for_thread, out))?;
    Ok((BatchedWriter { shared: shared.clone() }, Flusher { shared, thread: Some(thread) }))
}

/// The writer thread: waits for a first line, gathers for [`FLUSH_EVERY`]
/// (or until a batch is [`WRITE_AT`] bytes), and writes the batch with one
/// call, outside the lock, while loggers fill the other buffer.
fn write_batches<W: Write>(shared: &Shared, mut out: W) {
    let mut batch = Vec::new();
    loop {
        let mut pending = shared.lock();
        while pending.lines.is_empty() && !pending.closed {
            pending = shared.writer.wait(pending).unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        if pending.lines.is_empty() {
            // Closed, and everything is written.
            return;
        }
        if !pending.closed && pending.lines.len() < WRITE_AT {
            pending = shared
                .writer
                .wait_timeout_while(pending, FLUSH_EVERY, |p| !p.closed && p.lines.len() < WRITE_AT)
                .map(|(pending, _)| pending)
                .unwrap_or_else(|poisoned| poisoned.into_inner().0);
        }
        std::mem::swap(&mut pending.lines, &mut batch);
        drop(pending);
        shared.room.notify_all();
        // A log that cannot be written has nowhere to report it; the lines
        // are lost, the service goes on.
        let _ = out.write_all(&batch).and_then(|()| out.flush());
        batch.clear();
        if batch.capacity() > 4 * WRITE_AT {
            // A burst once grew it; do not hold its size for good.
            batch = Vec::new();
        }
    }
}

/// One line's writer, as `tracing_subscriber` asks for it per event.
pub struct LineWriter<'a> {
    shared: &'a Shared,
}

impl Write for LineWriter<'_> {
    fn write(&mut self, line: &[u8]) -> std::io::Result<usize> {
        let mut pending = self.shared.lock();
        // A line longer than the limit still goes into an empty buffer.
        while !pending.lines.is_empty() && pending.lines.len() + line.len() > MAX_PENDING && !pending.closed {
            self.shared.writer.notify_one();
            pending = self.shared.room.wait(pending).unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        let was_empty = pending.lines.is_empty();
        pending.lines.extend_from_slice(line);
        let full = pending.lines.len() >= WRITE_AT;
        drop(pending);
        if was_empty || full {
            self.shared.writer.notify_one();
        }
        Ok(line.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        // Lines reach `out` within FLUSH_EVERY; a caller's flush does not
        // force a write per line.
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for BatchedWriter {
    type Writer = LineWriter<'a>;

    fn make_writer(&'a self) -> Self::Writer {
        LineWriter { shared: &self.shared }
    }
}

/// How long exit waits for the pending lines to be written: a stderr nobody
/// reads (a full pipe) must not keep the process from ending.
const EXIT_WAIT: Duration = Duration::from_secs(1);

impl Drop for Flusher {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.writer.notify_one();
        self.shared.room.notify_all();
        let Some(thread) = self.thread.take() else { return };
        let deadline = std::time::Instant::now() + EXIT_WAIT;
        while !thread.is_finished() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
        }
        if thread.is_finished() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tracing_subscriber::fmt::MakeWriter;

    /// An `out` the test can read back, optionally slow to write.
    #[derive(Clone, Default)]
    struct Collected {
        bytes: Arc<Mutex<Vec<u8>>>,
        writes: Arc<Mutex<usize>>,
        delay: Duration,
    }

    impl Write for Collected {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            std::thread::sleep(self.delay);
            *self.writes.lock().unwrap() += 1;
            self.bytes.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn every_line_from_every_thread_arrives_whole_and_in_its_threads_order() {
        let out = Collected::default();
        let (writer, flusher) = start(out.clone()).unwrap();
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let writer = writer.clone();
                std::thread::spawn(move || {
                    for i in 0..5_000 {
                        writer.make_writer().write_all(format!("thread {t} line {i}\n").as_bytes()).unwrap();
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        drop(flusher);
        let text = String::from_utf8(out.bytes.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 20_000, "the flusher's drop wrote everything pending");
        for t in 0..4 {
            let prefix = format!("thread {t} line ");
            let order: Vec<usize> =
                lines.iter().filter_map(|l| l.strip_prefix(prefix.as_str())).map(|n| n.parse().unwrap()).collect();
            assert_eq!(order, (0..5_000).collect::<Vec<_>>(), "thread {t}");
        }
        let writes = *out.writes.lock().unwrap();
        assert!(writes < 1_000, "20,000 lines in {writes} writes: lines are batched");
    }

    #[test]
    fn a_line_is_written_soon_without_more_lines_or_a_drop() {
        let out = Collected::default();
        let (writer, _flusher) = start(out.clone()).unwrap();
        writer.make_writer().write_all(b"alone\n").unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while out.bytes.lock().unwrap().is_empty() {
            assert!(std::time::Instant::now() < deadline, "a lone line was never written");
            std::thread::sleep(FLUSH_EVERY / 2);
        }
        assert_eq!(&*out.bytes.lock().unwrap(), b"alone\n");
    }

    #[test]
    fn exit_does_not_wait_long_on_a_stderr_that_never_drains() {
        // Every write takes a minute: a pipe nobody reads.
        let out = Collected { delay: Duration::from_secs(60), ..Default::default() };
        let (writer, flusher) = start(out).unwrap();
        writer.make_writer().write_all(b"stuck\n").unwrap();
        std::thread::sleep(FLUSH_EVERY * 3);
        let started = std::time::Instant::now();
        drop(flusher);
        assert!(started.elapsed() < EXIT_WAIT + Duration::from_secs(2), "exit waited {:?}", started.elapsed());
    }

    #[test]
    fn a_logger_waits_for_room_instead_of_dropping_lines() {
        // A slow terminal: each write takes 20 ms. Lines of 1 MiB fill the
        // pending buffer's limit many times over.
        let out = Collected { delay: Duration::from_millis(20), ..Default::default() };
        let (writer, flusher) = start(out.clone()).unwrap();
        let line = vec![b'x'; 1024 * 1024];
        for _ in 0..40 {
            writer.make_writer().write_all(&line).unwrap();
            assert!(writer.shared.lock().lines.len() <= MAX_PENDING, "never more than the limit pending");
        }
        drop(flusher);
        assert_eq!(out.bytes.lock().unwrap().len(), 40 * line.len(), "nothing dropped");
    }
}
