//! How the `sail` binary talks to its operator: the log (format, filter,
//! the batched writer thread) and [`say`], a plain line among the log
//! lines. Beneath every other module of the binary but `log_writer`, so
//! that settings, the database and the keyring can all report what they do
//! without importing each other.

use clap::ValueEnum;

use crate::log_writer::{BatchedWriter, Flusher};

/// How log lines look.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line, for log pipelines.
    Json,
}

/// The log format in force, for [`say`].
static FORMAT: std::sync::OnceLock<LogFormat> = std::sync::OnceLock::new();
/// The process's log writer, once logging is set up, so that [`say`]'s
/// plain lines keep their place among the log lines.
static LOG: std::sync::OnceLock<BatchedWriter> = std::sync::OnceLock::new();

/// Tells the operator something on stderr: a plain line, or a JSON log
/// event when logs are JSON (so a log pipeline sees nothing else).
pub fn say(line: &str) {
    use std::io::Write;
    use tracing_subscriber::fmt::MakeWriter;
    match (FORMAT.get(), LOG.get()) {
        (Some(LogFormat::Json), _) => tracing::info!("{line}"),
        (_, Some(log)) => {
            let _ = log.make_writer().write_all(format!("{line}\n").as_bytes());
        }
        _ => eprintln!("{line}"),
    }
}

/// Logs to stderr; `RUST_LOG` overrides the default `info`. Lines are
/// written in batches by a thread of their own (`log_writer`), so a request
/// neither waits on the terminal or pipe nor wakes a thread for its line;
/// a logger waits rather than drops when the writer falls behind. Keep the
/// flusher until exit: dropping it writes what is pending.
#[must_use = "dropping the flusher stops the log writer"]
pub fn init_tracing(format: LogFormat) -> Flusher {
    let _ = FORMAT.set(format);
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| {
        tracing_subscriber::EnvFilter::new(
            "info,sqlx=warn,sea_orm=warn,sea_orm_migration=warn,h2=warn,tower=warn,hyper=warn",
        )
    });
    // Before anything is served: a process that cannot start one thread
    // cannot run at all, and there is no log yet to report it to.
    #[allow(clippy::expect_used, reason = "at start-up, before any request, with no log to write the failure to")]
    let (writer, flusher) = crate::log_writer::start(std::io::stderr()).expect("starting the log writer thread");
    let _ = LOG.set(writer.clone());
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(writer).with_target(false);
    match format {
        LogFormat::Json => builder.json().flatten_event(true).init(),
        LogFormat::Text => builder.with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr())).init(),
    }
    flusher
}
