//! The engine against the labelled evaluation set
//! (`tests/data/evaluation_set.csv`, built from the reference data by
//! `scripts/make_evaluation_set.py`): accuracy per outcome and the confusion
//! matrix, failing below 95% overall.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or benchmark: a failed step is the run failing, and says where"
)]

use sail_engine::evaluation::labelled_set;
use sail_engine::{Engine, Outcome};

const OUTCOMES: [Outcome; 3] = [Outcome::Eligible, Outcome::Ineligible, Outcome::NeedsReview];

fn engine() -> Engine {
    Engine::seeded().unwrap()
}

#[test]
fn accuracy_on_the_evaluation_set_is_at_least_95_percent() {
    let set = labelled_set().unwrap();
    assert!(set.len() >= 300, "the set has {} transactions", set.len());
    let engine = engine();
    // matrix[expected][got]
    let mut matrix = [[0usize; 3]; 3];
    let mut misses = Vec::new();
    for row in &set {
        let expected = Outcome::parse(&row.expected_outcome).unwrap();
        let got = engine.adjudicate(&row.purchase());
        let (e, g) = (
            OUTCOMES.iter().position(|o| *o == expected).unwrap(),
            OUTCOMES.iter().position(|o| *o == got.outcome).unwrap(),
        );
        matrix[e][g] += 1;
        if e != g {
            misses.push(format!(
                "{} | {} | mcc {} → {} by {} (expected {}, {})",
                row.descriptor,
                row.merchant_name,
                row.mcc,
                got.outcome.as_str(),
                got.rule,
                row.expected_outcome,
                row.source
            ));
        }
    }

    let total = set.len();
    let correct: usize = (0..3).map(|i| matrix[i][i]).sum();
    println!("\nconfusion matrix on {total} labelled transactions (rows: expected, columns: engine)\n");
    println!("| expected \\ engine | eligible | ineligible | needs_review | accuracy |");
    println!("|---|---|---|---|---|");
    for (i, outcome) in OUTCOMES.iter().enumerate() {
        let row_total: usize = matrix[i].iter().sum();
        println!(
            "| {} | {} | {} | {} | {:.1}% ({}/{}) |",
            outcome.as_str(),
            matrix[i][0],
            matrix[i][1],
            matrix[i][2],
            100.0 * matrix[i][i] as f64 / row_total.max(1) as f64,
            matrix[i][i],
            row_total
        );
    }
    let accuracy = correct as f64 / total as f64;
    println!("\noverall accuracy: {:.1}% ({correct}/{total})", 100.0 * accuracy);
    for miss in &misses {
        println!("miss: {miss}");
    }
    assert!(accuracy >= 0.95, "accuracy {:.1}% is below 95%", 100.0 * accuracy);
}
