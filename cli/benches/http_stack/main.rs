//! The HTTP-stack benchmark: requests per second and p50/p99/p99.9 through
//! `sail serve` (the gateway calling its core in process) on SQLite and on
//! PostgreSQL, each request type against a bare axum server answering the
//! same request with the same JSON from memory, the two measured in
//! alternating rounds in the same run; then memory over a mixed-load soak.
//! It rewrites its own section of docs/benchmarks.md and the charts under
//! docs/benchmarks/.
//!
//! Why rounds: this machine's throughput drifts by 15-20% from one minute
//! to the next, so one ceiling measurement followed by one of Sail can
//! land on either side of a drift. Each round measures the ceiling, then
//! Sail, seconds apart; a line's ratio is the median of its rounds' ratios,
//! reported with their range.
//!
//! `cargo bench -p sail --bench http_stack` (needs wrk; about 15 minutes).
//! `BENCH_ROUNDS` (3) per line, `BENCH_SECONDS` (5) per measurement,
//! `BENCH_SOAK_SECONDS` (300),
//! `BENCH_DATABASES` (`sqlite,postgres`), `BENCH_POSTGRES_URL`
//! (`postgres://postgres@127.0.0.1:5432`, a fresh database is made and
//! dropped), `BENCH_WRITE=0` to print without writing the docs,
//! `BENCH_SAIL_BIN` to measure another build of `sail` than this bench's.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or benchmark: a failed step is the run failing, and says where"
)]

mod bare;
mod charts;
mod cpu;
mod report;
mod server;
mod wrk;

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use server::{Database, SailServe};
use wrk::{Load, Outcome, Wrk};

/// One request type measured on one database.
#[derive(Clone, Debug)]
pub struct Line {
    pub label: &'static str,
    pub database: Database,
    /// The round whose ratio is the median's.
    pub sail: Outcome,
    pub ceiling: Outcome,
    /// Every round's ratio, lowest first.
    pub ratios: Vec<f64>,
    /// Where the median round's CPU time went, per request.
    pub cpu: cpu::Split,
}

impl Line {
    /// Sail's throughput as a share of the ceiling's: the median round's.
    pub fn ratio(&self) -> f64 {
        self.sail.per_second / self.ceiling.per_second
    }

    /// The lowest and highest round's ratio.
    pub fn ratio_range(&self) -> (f64, f64) {
        (self.ratios.first().copied().unwrap_or(0.0), self.ratios.last().copied().unwrap_or(0.0))
    }
}

/// The resident memory of `sail serve` over the soak.
#[derive(Clone, Debug)]
pub struct Soak {
    pub database: Database,
    pub seconds: u64,
    pub load: Outcome,
    /// KiB right after start-up and the fixtures, before any load.
    pub rss_idle_kib: u64,
    /// (seconds into the soak, KiB), the first sample after the warm-up.
    pub rss: Vec<(f64, u64)>,
}

/// The run's settings, from the environment.
pub struct Settings {
    pub rounds: u64,
    pub seconds: u64,
    pub soak_seconds: u64,
    pub databases: Vec<Database>,
    pub write: bool,
}

impl Settings {
    fn from_env() -> anyhow::Result<Self> {
        let number = |name: &str, default: u64| -> anyhow::Result<u64> {
            std::env::var(name).map_or(Ok(default), |v| v.parse().with_context(|| format!("{name} must be a number")))
        };
        let postgres =
            std::env::var("BENCH_POSTGRES_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432".into());
        let databases = std::env::var("BENCH_DATABASES")
            .unwrap_or_else(|_| "sqlite,postgres".into())
            .split(',')
            .map(|name| match name.trim() {
                "sqlite" => Ok(Database::Sqlite),
                "postgres" => Ok(Database::Postgres { server: postgres.trim_end_matches('/').to_string() }),
                other => bail!("BENCH_DATABASES: unknown database {other:?} (sqlite, postgres)"),
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(Self {
            rounds: number("BENCH_ROUNDS", 3)?.max(1),
            seconds: number("BENCH_SECONDS", 5)?,
            soak_seconds: number("BENCH_SOAK_SECONDS", 300)?,
            databases,
            write: std::env::var("BENCH_WRITE").map_or(true, |v| v != "0"),
        })
    }
}

/// The requests measured, in order: reads first, then writes (the pushes
/// leave adjudication work behind, so they come last).
fn loads(fixture: &server::Fixture) -> Vec<(&'static str, Load)> {
    vec![
        ("GET /users/{id}", Load::Get(fixture.user_path.clone())),
        ("GET /users?limit=25", Load::Get("/api/v1/users?limit=25".into())),
        ("GET /merchants?search=walgren", Load::Get("/api/v1/merchants?search=walgren".into())),
        ("GET /administrators", Load::Get("/api/v1/administrators".into())),
        ("GET /users/{id}/expenses", Load::Get(format!("{}/expenses?limit=25", fixture.user_path))),
        ("POST /users", Load::CreateUsers),
        ("POST …/transactions (500 rows)", Load::Push(fixture.push_path.clone())),
    ]
}

fn measure(settings: &Settings, database: &Database, work: &Path, run: &str) -> anyhow::Result<Vec<Line>> {
    let serve = SailServe::start(database, &work.join(database.name()), run)?;
    let fixture = serve.fixture()?;
    database.analyze(&format!("sail_bench_{run}"))?;
    let wrk = Wrk::new(work, &serve.key, 16)?;
    let duration = Duration::from_secs(settings.seconds);
    let mut lines = Vec::new();
    for (label, load) in loads(&fixture) {
        let sample = serve.sample(&load)?;
        let bare = server::BareServer::start(work, &sample)?;
        let mut rounds = Vec::new();
        for round in 0..settings.rounds {
            let tag = format!("{}-{}-{round}", database.name(), lines.len());
            let ceiling = wrk.run(&bare.base, &load, duration, &format!("{run}-bare-{tag}"))?;
            let before = cpu::read(serve.pid())?;
            let sail = wrk.run(&serve.base, &load, duration, &format!("{run}-{tag}"))?;
            let split = cpu::per_request(before, cpu::read(serve.pid())?, sail.requests);
            if sail.not_ok + sail.socket_errors + ceiling.not_ok + ceiling.socket_errors > 0 {
                bail!(
                    "{label} on {}: failed answers (Sail {sail:?}, ceiling {ceiling:?}); see {}",
                    database.name(),
                    serve.log.display()
                );
            }
            rounds.push((sail, ceiling, split));
        }
        drop(bare);
        rounds.sort_by(|a, b| (a.0.per_second / a.1.per_second).total_cmp(&(b.0.per_second / b.1.per_second)));
        let ratios: Vec<f64> = rounds.iter().map(|(sail, ceiling, _)| sail.per_second / ceiling.per_second).collect();
        let (sail, ceiling, cpu) = rounds.swap_remove(rounds.len() / 2);
        eprintln!(
            "{label} on {}: {:.0}/s vs ceiling {:.0}/s = {:.3} (rounds {:.3?}); p50/p99/p99.9 {:.2}/{:.2}/{:.2} ms; \
             CPU µs a request: Sail {:.0}, PostgreSQL {:.0}, rest {:.0}",
            database.name(),
            sail.per_second,
            ceiling.per_second,
            sail.per_second / ceiling.per_second,
            ratios,
            sail.p50_ms,
            sail.p99_ms,
            sail.p999_ms,
            cpu.sail_us,
            cpu.postgres_us,
            cpu.rest_us
        );
        lines.push(Line { label, database: database.clone(), sail, ceiling, ratios, cpu });
    }
    Ok(lines)
}

/// Mixed load on a fresh `sail serve` for the soak, RSS read every 5 s.
fn soak(settings: &Settings, database: &Database, work: &Path, run: &str) -> anyhow::Result<Soak> {
    let serve = SailServe::start(database, &work.join(format!("soak-{}", database.name())), &format!("{run}_soak"))?;
    let fixture = serve.fixture()?;
    database.analyze(&format!("sail_bench_{run}_soak"))?;
    let rss_idle_kib = serve.rss_kib()?;
    let wrk = Wrk::new(work, &serve.key, 16)?;
    let load = Load::Mixed { user_path: fixture.user_path.clone(), push_path: fixture.push_path.clone() };
    wrk.run(&serve.base, &load, Duration::from_secs(10), &format!("{run}-warmup"))?;
    let started = Instant::now();
    let mut rss = vec![(0.0, serve.rss_kib()?)];
    let outcome = std::thread::scope(|scope| -> anyhow::Result<Outcome> {
        let driver = scope
            .spawn(|| wrk.run(&serve.base, &load, Duration::from_secs(settings.soak_seconds), &format!("{run}-soak")));
        while !driver.is_finished() {
            std::thread::sleep(Duration::from_millis(200));
            let at = started.elapsed().as_secs_f64();
            if at - rss.last().map_or(0.0, |(t, _)| *t) >= 5.0 {
                rss.push((at, serve.rss_kib()?));
            }
        }
        driver.join().map_err(|_| anyhow::anyhow!("the soak's wrk thread panicked"))?
    })?;
    rss.push((started.elapsed().as_secs_f64(), serve.rss_kib()?));
    if outcome.not_ok + outcome.socket_errors > 0 {
        bail!("soak: failed answers {outcome:?}; see {}", serve.log.display());
    }
    Ok(Soak { database: database.clone(), seconds: settings.soak_seconds, load: outcome, rss_idle_kib, rss })
}

fn main() -> anyhow::Result<()> {
    if let Ok(spec) = std::env::var(bare::BARE_ENV) {
        return Ok(bare::serve(&spec)?);
    }
    let settings = Settings::from_env()?;
    let work = tempdir()?;
    let run = format!("b{}", std::process::id());
    let result = (|| -> anyhow::Result<()> {
        let mut lines = Vec::new();
        for database in &settings.databases {
            lines.extend(measure(&settings, database, &work, &run)?);
        }
        let soak = soak(&settings, &Database::Sqlite, &work, &run)?;
        let section = report::section(&settings, &lines, &soak)?;
        println!("{section}");
        if settings.write {
            let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs");
            charts::draw(&docs.join("benchmarks"), &lines, &soak)?;
            report::write_into(&docs.join("benchmarks.md"), &section)?;
            eprintln!("wrote docs/benchmarks.md and docs/benchmarks/*.svg");
        }
        Ok(())
    })();
    for database in &settings.databases {
        database.drop_databases(&run);
    }
    let _ = std::fs::remove_dir_all(&work);
    result
}

fn tempdir() -> anyhow::Result<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!("sail-http-stack-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}
