//! The Markdown section this bench owns in docs/benchmarks.md, between two
//! marker comments; everything outside them is left as it is.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, bail};

use crate::{Line, Settings, Soak};

const BEGIN: &str = "<!-- http_stack:begin -->";
const END: &str = "<!-- http_stack:end -->";

/// The section, markers included.
pub fn section(settings: &Settings, lines: &[Line], soak: &Soak) -> anyhow::Result<String> {
    let mut out = String::new();
    let today = chrono::Utc::now().date_naive();
    writeln!(out, "{BEGIN}")?;
    writeln!(out, "## Through `sail serve`, against a bare axum server ({today})\n")?;
    writeln!(
        out,
        "Written by `cargo bench -p sail --bench http_stack` (this section and \
         the charts are replaced on every run; do not edit them by hand). \
         Release build of `sail serve`, the gateway calling its core in process, \
         on a fresh database, rate limits off; on PostgreSQL the fixtures' \
         tables are analyzed before any load, as autovacuum would have done \
         (this machine's server runs with it off). For every request type, a bare \
         axum server (a process of its own, `cli/benches/http_stack/bare.rs`) \
         answering the same request with the same status and JSON body from \
         memory, and Sail, in {} alternating rounds: the ceiling, then Sail, \
         each for {} s with wrk, 2 threads, 16 connections, everything on the \
         same {} ({} cores). A round's ratio is Sail's requests per second over \
         the ceiling's; the table gives the median round (its ratio, requests \
         per second and wrk's latencies, in ms) and the range of all rounds' \
         ratios, since this machine's throughput drifts from minute to minute. \
         Where the time goes: the CPU time of the median round per request, \
         read from `/proc` before and after it, split into Sail's process, \
         the PostgreSQL server's processes, and the rest of the machine's \
         busy time (wrk, and the kernel's work charged to no process).\n",
        settings.rounds,
        settings.seconds,
        cpu_model(),
        std::thread::available_parallelism().map_or(0, |n| n.get()),
    )?;
    writeln!(out, "![Requests per second as a share of the bare-axum ceiling](benchmarks/throughput.svg)\n")?;
    writeln!(
        out,
        "| request | database | Sail req/s | ceiling req/s | ratio (median) | rounds' range | Sail p50 / p99 / p99.9 | ceiling p50 / p99 / p99.9 | CPU µs a request: Sail / PostgreSQL / rest |"
    )?;
    writeln!(out, "|---|---|---|---|---|---|---|---|---|")?;
    for line in lines {
        let (lowest, highest) = line.ratio_range();
        writeln!(
            out,
            "| `{}` | {} | {:.0} | {:.0} | **{:.3}** | {:.3}–{:.3} | {:.2} / {:.2} / {:.2} | {:.2} / {:.2} / {:.2} | {:.0} / {:.0} / {:.0} |",
            line.label,
            line.database.title(),
            line.sail.per_second,
            line.ceiling.per_second,
            line.ratio(),
            lowest,
            highest,
            line.sail.p50_ms,
            line.sail.p99_ms,
            line.sail.p999_ms,
            line.ceiling.p50_ms,
            line.ceiling.p99_ms,
            line.ceiling.p999_ms,
            line.cpu.sail_us,
            line.cpu.postgres_us,
            line.cpu.rest_us,
        )?;
    }
    writeln!(out, "\n![Sail's latency percentiles per request type](benchmarks/latency.svg)\n")?;
    let before = soak.rss.first().map_or(0, |(_, kib)| *kib);
    let after = soak.rss.last().map_or(0, |(_, kib)| *kib);
    let peak = soak.rss.iter().map(|(_, kib)| *kib).max().unwrap_or(0);
    writeln!(out, "### Memory over a {}-second mixed-load soak ({})\n", soak.seconds, soak.database.title())?;
    writeln!(
        out,
        "A fresh `sail serve` with the same fixtures, then wrk (16 connections) \
         sending, per 1,000 requests, one 500-row push, 40 new users and the \
         rest spread over `GET /users/{{id}}`, `GET /merchants?search=`, `GET \
         /users/{{id}}/expenses`, `GET /administrators` and `GET /users?limit=25`; \
         10 s of that as warm-up, then the soak, the process's RSS read from \
         `/proc` every 5 s.\n"
    )?;
    writeln!(out, "| figure | value |")?;
    writeln!(out, "|---|---|")?;
    writeln!(out, "| requests (req/s) | {} ({:.0}/s) |", soak.load.requests, soak.load.per_second)?;
    writeln!(out, "| failed answers | {} |", soak.load.not_ok + soak.load.socket_errors)?;
    writeln!(
        out,
        "| p50 / p99 / p99.9 | {:.2} / {:.2} / {:.2} ms |",
        soak.load.p50_ms, soak.load.p99_ms, soak.load.p999_ms
    )?;
    writeln!(out, "| RSS idle, after start-up and fixtures | {} KiB |", soak.rss_idle_kib)?;
    writeln!(
        out,
        "| RSS before → after the soak | {before} → {after} KiB (**{:.3}**; peak {peak} KiB) |",
        after as f64 / before.max(1) as f64
    )?;
    // One sample at each end can land on a push's buffers: the medians of
    // the first and last minutes (fifths, for a shorter soak) are not.
    let window = (soak.seconds as f64 / 5.0).min(60.0);
    let (first, last) =
        (median_kib(&soak.rss, |t| t <= window), median_kib(&soak.rss, |t| t >= soak.seconds as f64 - window));
    writeln!(
        out,
        "| RSS median, first {window:.0} s → last {window:.0} s | {first} → {last} KiB (**{:.3}**) |",
        last as f64 / first.max(1) as f64
    )?;
    writeln!(out, "\n![RSS of sail serve over the soak](benchmarks/soak-rss.svg)\n")?;
    writeln!(out, "{END}")?;
    Ok(out)
}

/// Replaces the section between the markers in `file`.
pub fn write_into(file: &Path, section: &str) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let (Some(start), Some(end)) = (text.find(BEGIN), text.find(END)) else {
        bail!("{} has no {BEGIN} … {END} markers to write between", file.display());
    };
    let updated = format!("{}{}{}", &text[..start], section.trim_end(), &text[end + END.len()..]);
    std::fs::write(file, updated)?;
    Ok(())
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find_map(|l| l.strip_prefix("model name"))
                .map(|m| m.trim_start_matches([' ', '\t', ':']).to_string())
        })
        .unwrap_or_else(|| "machine".into())
}

/// The median RSS of the samples taken at a time `within` accepts.
fn median_kib(rss: &[(f64, u64)], within: impl Fn(f64) -> bool) -> u64 {
    let mut kib: Vec<u64> = rss.iter().filter(|(t, _)| within(*t)).map(|(_, kib)| *kib).collect();
    kib.sort_unstable();
    kib.get(kib.len() / 2).copied().unwrap_or(0)
}
