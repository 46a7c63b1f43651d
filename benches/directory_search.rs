//! Directory search at 100,000 merchants: the in-memory index
//! (`core_grpc::platform::fuzzy::NameIndex`, character-pair candidates then the
//! fuzzy score) against scoring every name (`fuzzy::rank`, what a search did
//! before the index), on the same generated directory in the same run; each
//! query timed as if new (`search_uncached`: no memory of recent searches).
//! Prints p50/p99 per query kind and their ratio, and checks that the
//! index's best match is the exhaustive ranking's best match.
//!
//! Run: `cargo bench --bench directory_search` (BENCH_MERCHANTS sets the
//! directory's size).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or benchmark: a failed step is the run failing, and says where"
)]

use std::time::{Duration, Instant};

use core_grpc::platform::fuzzy::{NameIndex, rank};

const REAL: &[&str] = &["Walgreens", "CVS Pharmacy", "Amazon", "Amazon Pharmacy", "Quest Diagnostics", "Sam's Club"];
const FIRST: &[&str] = &[
    "Sunrise",
    "Main Street",
    "Family",
    "City",
    "Valley",
    "Harbor",
    "Summit",
    "Riverside",
    "Oak",
    "Pine",
    "Lakeside",
    "Northgate",
    "Eastside",
    "Golden",
    "Liberty",
    "Cedar",
    "Maple",
    "Bayview",
    "Hilltop",
    "Meadow",
];
const KIND: &[&str] = &[
    "Dental",
    "Vision",
    "Pharmacy",
    "Clinic",
    "Market",
    "Hardware",
    "Bakery",
    "Pediatrics",
    "Optical",
    "Chiropractic",
    "Grocery",
    "Books",
    "Outfitters",
    "Urgent Care",
    "Labs",
    "Physical Therapy",
    "Pet Supply",
    "Florist",
    "Cafe",
    "Dermatology",
];

/// A deterministic directory of `n` names: the real ones, and generated
/// ones like `Sunrise Dental 4821`.
fn directory(n: usize) -> Vec<String> {
    let mut names: Vec<String> = REAL.iter().map(|s| s.to_string()).collect();
    let mut at = 0usize;
    while names.len() < n {
        let first = FIRST[at % FIRST.len()];
        let kind = KIND[(at / FIRST.len()) % KIND.len()];
        names.push(format!("{first} {kind} {}", at / (FIRST.len() * KIND.len())));
        at += 1;
    }
    names.sort();
    names
}

fn percentile(sorted: &[Duration], q: f64) -> Duration {
    sorted[((sorted.len() as f64 * q) as usize).min(sorted.len() - 1)]
}

fn time<F: FnMut()>(rounds: usize, mut f: F) -> Vec<Duration> {
    let mut took: Vec<Duration> = (0..rounds)
        .map(|_| {
            let at = Instant::now();
            f();
            at.elapsed()
        })
        .collect();
    took.sort();
    took
}

fn main() {
    let n: usize = std::env::var("BENCH_MERCHANTS").ok().and_then(|v| v.parse().ok()).unwrap_or(100_000);
    let names = directory(n);
    let built = Instant::now();
    let index = NameIndex::new(names.clone(), |s| s.as_str());
    let build = built.elapsed();
    let queries =
        [("typo", "walgren"), ("transposed", "amzaon"), ("two words", "sunrise dentl"), ("prefix", "quest diagnos")];
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;

    println!("## Directory search at {n} merchants");
    println!();
    println!("Index built in {:.0} ms. Baseline: scoring every name, in the same run.", ms(build));
    println!();
    println!("| query | index p50 / p99 | every name p50 / p99 | p50 ratio | same best match |");
    println!("|---|---|---|---|---|");
    let mut all_agree = true;
    let mut slowest_p50 = Duration::ZERO;
    for (kind, query) in queries {
        let indexed = time(200, || {
            std::hint::black_box(index.search_uncached(query));
        });
        let exhaustive = time(5, || {
            std::hint::black_box(rank(query, names.clone(), |s| s.as_str()));
        });
        let best_indexed = index.search(query).first().map(|s| s.to_string());
        let best_exhaustive = rank(query, names.clone(), |s| s.as_str()).first().cloned();
        let agree = best_indexed == best_exhaustive;
        all_agree &= agree;
        slowest_p50 = slowest_p50.max(percentile(&indexed, 0.5));
        println!(
            "| {kind} `{query}` | {:.3} / {:.3} ms | {:.1} / {:.1} ms | {:.4} | {} ({}) |",
            ms(percentile(&indexed, 0.5)),
            ms(percentile(&indexed, 0.99)),
            ms(percentile(&exhaustive, 0.5)),
            ms(percentile(&exhaustive, 0.99)),
            ms(percentile(&indexed, 0.5)) / ms(percentile(&exhaustive, 0.5)),
            if agree { "yes" } else { "NO" },
            best_indexed.unwrap_or_default(),
        );
    }
    if !all_agree || slowest_p50 >= Duration::from_millis(1) {
        eprintln!("FAILED: every best match the same, and p50 under 1 ms (slowest p50 {:.3} ms)", ms(slowest_p50));
        std::process::exit(1);
    }
}
