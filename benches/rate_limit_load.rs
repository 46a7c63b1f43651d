//! The per-key rate limit under load: one key driven at twice its limit by
//! 64 concurrent clients for 60 seconds while a second key makes ordinary
//! calls. Checks, and prints for docs/benchmarks.md: no `5xx`; every refused
//! request a `429` with `Retry-After` and the `RateLimit-*` headers; the
//! admitted rate within 10% of the limit; the second key never refused, its
//! latency against its own quiet baseline measured in the same run; the
//! process's memory (RSS) over the run.
//!
//! Run: `cargo bench --bench rate_limit_load` (BENCH_SECONDS shortens it;
//! SAIL_TEST_DATABASE_URL=postgres://… measures on PostgreSQL). It exits
//! non-zero when a check fails.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or benchmark: a failed step is the run failing, and says where"
)]

use sail_test_support as helpers;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use core_grpc::CoreConfig;
use helpers::{Options, TestApp};

/// The limit under test: the defaults of docs/contract.md#running.
const LIMIT_RPS: u32 = 100;
const BURST: u32 = 200;
/// Concurrent clients of the driven key.
const CLIENTS: usize = 64;

fn seconds() -> u64 {
    std::env::var("BENCH_SECONDS").ok().and_then(|v| v.parse().ok()).unwrap_or(60)
}

/// The resident memory of this process (core, gateway and clients), in KiB.
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

#[derive(Default)]
struct Tally {
    admitted: AtomicU64,
    limited: AtomicU64,
    limited_without_headers: AtomicU64,
    server_errors: AtomicU64,
    other: AtomicU64,
}

fn percentile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() as f64 * q) as usize).min(sorted.len() - 1)]
}

/// The ordinary key's calls at a steady 20 a second until `until`; every
/// latency, and every status that was not 200.
async fn ordinary_calls(app: Arc<TestApp>, key: String, path: String, until: Instant) -> (Vec<Duration>, Vec<u16>) {
    let mut latencies = Vec::new();
    let mut refusals = Vec::new();
    let mut tick = tokio::time::interval(Duration::from_millis(50));
    while Instant::now() < until {
        tick.tick().await;
        let at = Instant::now();
        let status = app.client.get(app.url(&path)).bearer_auth(&key).send().await.map(|r| r.status().as_u16());
        latencies.push(at.elapsed());
        match status {
            Ok(200) => {}
            Ok(other) => refusals.push(other),
            Err(_) => refusals.push(0),
        }
    }
    latencies.sort();
    (latencies, refusals)
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let failed = runtime.block_on(run());
    if failed {
        std::process::exit(1);
    }
}

async fn run() -> bool {
    let options = Options {
        core: CoreConfig { rate_limit_rps: LIMIT_RPS, rate_limit_burst: BURST, ..Options::default().core },
        hang_limit: None,
        ..Default::default()
    };
    let app = Arc::new(TestApp::spawn_with(options).await);
    let (_, driven) = app.partner_key("expenses").await;
    let (_, ordinary) = app.partner_key("expenses").await;
    let user = app.create_user(&ordinary, "ordinary").await;
    let ordinary_path = format!("/users/{user}");
    let seconds = seconds();

    // The ordinary key alone first: its baseline in this run.
    let (quiet, quiet_refusals) =
        ordinary_calls(app.clone(), ordinary.clone(), ordinary_path.clone(), Instant::now() + Duration::from_secs(5))
            .await;

    // 64 clients, each sending at 2 × limit / 64 per second, open loop.
    let tally = Arc::new(Tally::default());
    let started = Instant::now();
    let until = started + Duration::from_secs(seconds);
    let per_client_interval = Duration::from_secs_f64(CLIENTS as f64 / (2.0 * LIMIT_RPS as f64));
    let mut clients = Vec::new();
    for n in 0..CLIENTS {
        let (app, key, tally) = (app.clone(), driven.clone(), tally.clone());
        clients.push(tokio::spawn(async move {
            // Spread the clients' ticks over one interval.
            tokio::time::sleep(per_client_interval.mul_f64(n as f64 / CLIENTS as f64)).await;
            let mut tick = tokio::time::interval(per_client_interval);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            while Instant::now() < until {
                tick.tick().await;
                let Ok(response) =
                    app.client.get(app.url("/merchants?search=walgreens")).bearer_auth(&key).send().await
                else {
                    tally.other.fetch_add(1, Ordering::Relaxed);
                    continue;
                };
                let status = response.status().as_u16();
                let headers = response.headers().clone();
                let _ = response.bytes().await;
                match status {
                    200 => tally.admitted.fetch_add(1, Ordering::Relaxed),
                    429 => {
                        let complete = ["retry-after", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"]
                            .iter()
                            .all(|h| headers.contains_key(*h));
                        if !complete {
                            tally.limited_without_headers.fetch_add(1, Ordering::Relaxed);
                        }
                        tally.limited.fetch_add(1, Ordering::Relaxed)
                    }
                    500..=599 => tally.server_errors.fetch_add(1, Ordering::Relaxed),
                    _ => tally.other.fetch_add(1, Ordering::Relaxed),
                };
            }
        }));
    }
    let sampler = tokio::spawn(async move {
        let mut samples = Vec::new();
        while Instant::now() < until {
            samples.push((started.elapsed().as_secs(), rss_kib()));
            tokio::time::sleep(Duration::from_secs(5)).await;
        }
        samples.push((started.elapsed().as_secs(), rss_kib()));
        samples
    });
    let (loaded, loaded_refusals) = ordinary_calls(app.clone(), ordinary, ordinary_path, until).await;
    for client in clients {
        client.await.unwrap();
    }
    let elapsed = started.elapsed().as_secs_f64();
    let samples = sampler.await.unwrap();

    let admitted = tally.admitted.load(Ordering::Relaxed);
    let limited = tally.limited.load(Ordering::Relaxed);
    let offered =
        admitted + limited + tally.server_errors.load(Ordering::Relaxed) + tally.other.load(Ordering::Relaxed);
    // The bucket starts full: the burst is admitted on top of the rate.
    let admitted_rate = admitted.saturating_sub(BURST as u64) as f64 / elapsed;
    let rate_ratio = admitted_rate / LIMIT_RPS as f64;
    // Memory after the first 10 seconds (allocator and pools warmed) vs the end.
    let warm = samples.iter().find(|(at, _)| *at >= 10).or(samples.first()).map(|s| s.1).unwrap_or(0);
    let last = samples.last().map(|s| s.1).unwrap_or(0);
    let memory_ratio = last as f64 / warm.max(1) as f64;

    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let backend = if app.test_db.is_postgres() { "PostgreSQL" } else { "SQLite" };
    println!("## Rate limit under load ({seconds} s, {backend})");
    println!();
    println!("Limit {LIMIT_RPS}/s, burst {BURST}; {CLIENTS} clients offering {} requests/s in all.", 2 * LIMIT_RPS);
    println!();
    println!("| figure | value |");
    println!("|---|---|");
    println!("| offered (driven key) | {offered} ({:.1}/s) |", offered as f64 / elapsed);
    println!("| admitted | {admitted} ({:.1}/s beyond the burst; {:.3} of the limit) |", admitted_rate, rate_ratio);
    println!(
        "| refused with 429 | {limited} ({} without all headers) |",
        tally.limited_without_headers.load(Ordering::Relaxed)
    );
    println!("| 5xx | {} |", tally.server_errors.load(Ordering::Relaxed));
    println!("| other outcomes | {} |", tally.other.load(Ordering::Relaxed));
    println!(
        "| second key, quiet: p50 / p99 | {:.2} / {:.2} ms ({} calls, {} refused) |",
        ms(percentile(&quiet, 0.5)),
        ms(percentile(&quiet, 0.99)),
        quiet.len(),
        quiet_refusals.len()
    );
    println!(
        "| second key, under load: p50 / p99 | {:.2} / {:.2} ms ({} calls, {} refused); p50 ratio {:.2} |",
        ms(percentile(&loaded, 0.5)),
        ms(percentile(&loaded, 0.99)),
        loaded.len(),
        loaded_refusals.len(),
        ms(percentile(&loaded, 0.5)) / ms(percentile(&quiet, 0.5)).max(0.001)
    );
    println!("| RSS at 10 s → end | {} → {} KiB ({memory_ratio:.3}) |", warm, last);
    println!();
    println!("RSS samples (s, KiB): {samples:?}");

    let mut failed = false;
    let mut check = |ok: bool, what: &str| {
        if !ok {
            eprintln!("FAILED: {what}");
            failed = true;
        }
    };
    check(tally.server_errors.load(Ordering::Relaxed) == 0, "no 5xx");
    check(tally.limited_without_headers.load(Ordering::Relaxed) == 0, "every 429 has Retry-After and RateLimit-*");
    check(tally.other.load(Ordering::Relaxed) == 0, "only 200s and 429s for the driven key");
    check((0.9..=1.1).contains(&rate_ratio), "the admitted rate within 10% of the limit");
    check(loaded_refusals.is_empty() && quiet_refusals.is_empty(), "the second key is never refused");
    check(memory_ratio <= 1.10, "memory flat (within 10%)");
    failed
}
