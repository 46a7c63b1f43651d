//! Where a measurement's CPU time went, per request: Sail's process, the
//! PostgreSQL server's processes (its backends, and whatever else the
//! server ran meanwhile), and the rest of the machine's busy time (wrk,
//! and the kernel's work charged to no process). Read from `/proc` before
//! and after each of Sail's rounds, so every run of the bench says, for
//! each request type, which of the three its time is spent in.

use anyhow::Context;

/// Linux reports process and machine times in clock ticks of 1/100 s
/// (`USER_HZ`, fixed at 100 for user space).
const TICKS_PER_SECOND: f64 = 100.0;

/// CPU seconds consumed so far.
#[derive(Clone, Copy, Debug)]
pub struct Reading {
    sail: f64,
    postgres: f64,
    machine_busy: f64,
}

/// One round's CPU time per request, in microseconds.
#[derive(Clone, Copy, Debug, Default)]
pub struct Split {
    pub sail_us: f64,
    pub postgres_us: f64,
    pub rest_us: f64,
}

/// The process's own name (without parentheses) and its user + system
/// ticks, from a `/proc/<pid>/stat` line.
fn name_and_ticks(stat: &str) -> Option<(&str, u64)> {
    let (head, tail) = stat.rsplit_once(") ")?;
    let name = head.split_once(" (")?.1;
    // After the name: state, ppid, … ; utime and stime are the 12th and
    // 13th fields from here (the 14th and 15th of the line).
    let mut fields = tail.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some((name, user + system))
}

/// Reads the clocks now; `sail` is the `sail serve` process.
pub fn read(sail: u32) -> anyhow::Result<Reading> {
    let own = std::fs::read_to_string(format!("/proc/{sail}/stat")).context("reading sail's /proc stat")?;
    let sail_ticks = name_and_ticks(&own).context("parsing sail's /proc stat")?.1;
    let mut postgres_ticks = 0;
    for entry in std::fs::read_dir("/proc")?.flatten() {
        let is_pid = entry.file_name().to_str().is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()));
        // A process may end between the listing and the read: skip it.
        if let (true, Ok(stat)) = (is_pid, std::fs::read_to_string(entry.path().join("stat")))
            && let Some(("postgres", ticks)) = name_and_ticks(&stat)
        {
            postgres_ticks += ticks;
        }
    }
    let machine = std::fs::read_to_string("/proc/stat")?;
    let cpu: Vec<u64> = machine
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("cpu "))
        .context("no cpu line in /proc/stat")?
        .split_whitespace()
        .filter_map(|n| n.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal: busy is all but idle
    // and iowait (guest time is already counted in user).
    let busy: u64 = cpu.iter().take(8).enumerate().filter(|(i, _)| *i != 3 && *i != 4).map(|(_, t)| t).sum();
    Ok(Reading {
        sail: sail_ticks as f64 / TICKS_PER_SECOND,
        postgres: postgres_ticks as f64 / TICKS_PER_SECOND,
        machine_busy: busy as f64 / TICKS_PER_SECOND,
    })
}

/// The CPU time between two readings, per request of `requests`.
pub fn per_request(before: Reading, after: Reading, requests: u64) -> Split {
    let per = |seconds: f64| seconds.max(0.0) * 1e6 / requests.max(1) as f64;
    let sail = after.sail - before.sail;
    let postgres = after.postgres - before.postgres;
    let busy = after.machine_busy - before.machine_busy;
    Split { sail_us: per(sail), postgres_us: per(postgres), rest_us: per(busy - sail - postgres) }
}
