//! The adjudication engine alone, on one core: transactions per second over
//! the labelled evaluation set (descriptor normalisation, merchant
//! resolution and rules; no I/O). Baseline in the same run: the cost of just
//! upper-casing and splitting each descriptor, the least any engine must do.
//! Run: `cargo bench -p sail-engine --bench engine_throughput`. Target: 200,000 tx/s.

use std::hint::black_box;
use std::time::Instant;

use sail_engine::{Engine, Purchase};

#[derive(serde::Deserialize)]
struct Labelled {
    descriptor: String,
    merchant_name: String,
    mcc: String,
    amount: f64,
}

fn main() {
    let set: Vec<Labelled> =
        csv::Reader::from_path(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/evaluation_set.csv"))
            .unwrap()
            .deserialize()
            .collect::<Result<_, _>>()
            .unwrap();
    let engine = Engine::seeded().unwrap();
    let purchases: Vec<Purchase> = set
        .iter()
        .map(|row| Purchase {
            description: &row.descriptor,
            merchant_name: Some(row.merchant_name.as_str()).filter(|n| !n.is_empty()),
            mcc: Some(row.mcc.as_str()).filter(|m| !m.is_empty()),
            amount_minor: (row.amount * 100.0) as i64,
            items: None,
        })
        .collect();

    let rounds = 1_000;
    let total = rounds * purchases.len();
    // Warm up.
    for purchase in &purchases {
        black_box(engine.adjudicate(purchase));
    }
    let started = Instant::now();
    for _ in 0..rounds {
        for purchase in &purchases {
            black_box(engine.adjudicate(black_box(purchase)));
        }
    }
    let engine_secs = started.elapsed().as_secs_f64();

    let started = Instant::now();
    for _ in 0..rounds {
        for purchase in &purchases {
            let upper = black_box(purchase.description).to_ascii_uppercase();
            black_box(upper.split_whitespace().count());
        }
    }
    let baseline_secs = started.elapsed().as_secs_f64();

    let engine_rate = total as f64 / engine_secs;
    let baseline_rate = total as f64 / baseline_secs;
    println!("engine, one thread, {total} adjudications ({} distinct purchases x {rounds})", purchases.len());
    println!("| measure | tx/s | ns per tx |");
    println!("|---|---|---|");
    println!("| engine.adjudicate | {engine_rate:.0} | {:.0} |", 1e9 / engine_rate);
    println!("| baseline: upper-case + split only | {baseline_rate:.0} | {:.0} |", 1e9 / baseline_rate);
    println!(
        "engine / baseline throughput: {:.3}; target 200,000 tx/s: {}",
        engine_rate / baseline_rate,
        if engine_rate >= 200_000.0 { "met" } else { "NOT met" }
    );
}
