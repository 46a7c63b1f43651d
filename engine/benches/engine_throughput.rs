//! The adjudication engine alone, on one core: transactions per second over
//! both labelled sets, the regression set and the held-out set (descriptor
//! normalisation, merchant resolution, evidence and rules; no I/O).
//! Baseline in the same run: the cost of just upper-casing and splitting each
//! descriptor, the least any engine must do.
//! Run: `cargo bench -p sail-engine --bench engine_throughput`. Target: 500,000 tx/s.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or benchmark: a failed step is the run failing, and says where"
)]

use std::hint::black_box;
use std::time::Instant;

use sail_engine::evaluation::{held_out_set, labelled_set};
use sail_engine::{Engine, Purchase};

fn main() {
    let set = labelled_set().unwrap();
    let held_out = held_out_set().unwrap();
    let engine = Engine::seeded().unwrap();
    let purchases: Vec<Purchase> =
        set.iter().map(|row| row.purchase()).chain(held_out.iter().map(|row| row.purchase())).collect();

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
        "engine / baseline throughput: {:.3}; target 500,000 tx/s: {}",
        engine_rate / baseline_rate,
        if engine_rate >= 500_000.0 { "met" } else { "NOT met" }
    );
}
