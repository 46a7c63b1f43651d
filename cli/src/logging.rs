//! How the `sail` binary talks to its operator: the log (format, filter,
//! the batched writer thread, and for servers the trace layer beside it)
//! and [`say`], a plain line among the log lines. Beneath every other
//! module of the binary but `log_writer` and `traces`, so that settings,
//! the database and the keyring can all report what they do without
//! importing each other.

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

/// What keeps logging (and trace export) running: keep it until exit.
/// Dropping it sends the traces still batched, then writes the log lines
/// still pending.
#[must_use = "dropping it stops the log writer"]
pub struct Logging {
    // Dropped in this order: traces first, so their exporter's own
    // complaints still reach the log.
    _traces: Option<crate::traces::Exporter>,
    _flusher: Flusher,
}

/// Logs to stderr; `RUST_LOG` overrides the default `info`. Lines are
/// written in batches by a thread of their own (`log_writer`), so a request
/// neither waits on the terminal or pipe nor wakes a thread for its line;
/// a logger waits rather than drops when the writer falls behind.
pub fn init_tracing(format: LogFormat) -> Logging {
    install(format, None)
}

/// [`init_tracing`] for a server, which also exports traces when told
/// where to (docs/operations.md#traces).
pub fn init_with_traces(format: LogFormat, traces: Option<crate::traces::TraceExport<'_>>) -> anyhow::Result<Logging> {
    let traces = traces.map(|export| crate::traces::start(&export)).transpose()?;
    Ok(install(format, traces))
}

/// The subscriber beneath the trace layer: the registry, filtered.
type Filtered = tracing_subscriber::layer::Layered<tracing_subscriber::EnvFilter, tracing_subscriber::Registry>;

fn install(
    format: LogFormat,
    traces: Option<(crate::traces::SpanLayer<Filtered>, crate::traces::Exporter)>,
) -> Logging {
    use tracing_subscriber::Layer as _;
    use tracing_subscriber::layer::SubscriberExt as _;
    use tracing_subscriber::util::SubscriberInitExt as _;

    let _ = FORMAT.set(format);
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| {
        tracing_subscriber::EnvFilter::new(
            "info,sqlx=warn,sea_orm=warn,sea_orm_migration=warn,h2=warn,tower=warn,hyper=warn",
        )
    });
    let (spans, exporter) = traces.unzip();
    // Before anything is served: a process that cannot start one thread
    // cannot run at all, and there is no log yet to report it to.
    #[allow(clippy::expect_used, reason = "at start-up, before any request, with no log to write the failure to")]
    let (writer, flusher) = crate::log_writer::start(std::io::stderr()).expect("starting the log writer thread");
    let _ = LOG.set(writer.clone());
    let lines = tracing_subscriber::fmt::layer().with_writer(writer).with_target(false);
    let lines = match format {
        LogFormat::Json => lines.json().flatten_event(true).boxed(),
        LogFormat::Text => lines.with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr())).boxed(),
    };
    tracing_subscriber::registry().with(filter).with(spans).with(lines).init();
    Logging { _traces: exporter, _flusher: flusher }
}
