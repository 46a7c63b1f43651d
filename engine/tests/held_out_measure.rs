//! The held-out measures of the knowledge work: the second and third pairs
//! of 2026-11-26 (`tests/data/held_out_2026_11_26_b/`, `_c/`), each run once
//! when a round of work was done, with every miss printed
//! (`cargo test -p sail-engine --test held_out_measure -- --nocapture`).
//! The figures of those runs are in docs/held-out-2026-11-26.md; this test
//! holds the engine to them so that nothing slips back. The frozen pair may
//! not be studied or tuned to: its rows stay out of every word list
//! (`tests/held_out_leaks.rs`); a measured pair is development data after.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or benchmark: a failed step is the run failing, and says where"
)]

use sail_engine::evaluation::{LabelledLine, LabelledPurchase, read_labelled};
use sail_engine::receipts::{classify_line, parse};
use sail_engine::{Engine, Outcome};

const OUTCOMES: [Outcome; 3] = [Outcome::Eligible, Outcome::Ineligible, Outcome::NeedsReview];

fn index(o: Outcome) -> usize {
    OUTCOMES.iter().position(|x| *x == o).unwrap()
}

fn print_matrix(matrix: &[[usize; 3]; 3]) {
    println!("| expected \\ engine | eligible | ineligible | needs_review |");
    println!("|---|---|---|---|");
    for (i, outcome) in OUTCOMES.iter().enumerate() {
        println!("| {} | {} | {} | {} |", outcome.as_str(), matrix[i][0], matrix[i][1], matrix[i][2]);
    }
}

/// Measures the purchases of a pair, prints the matrix and every miss, and
/// checks them against what its run measured.
fn purchases(pair: &str, run: &Run) {
    let engine = Engine::seeded().unwrap();
    let rows: Vec<LabelledPurchase> = read_labelled(&format!("{pair}/purchases.csv")).unwrap();
    let (mut exact, mut acceptable, mut matrix) = (0, 0, [[0usize; 3]; 3]);
    let (mut false_eligible, mut cosmetic_eligible, mut misses) = (Vec::new(), Vec::new(), Vec::new());
    for row in &rows {
        let expected = row.expected().unwrap();
        let got = engine.adjudicate(&row.purchase());
        matrix[index(expected)][index(got.outcome)] += 1;
        exact += usize::from(got.outcome == expected);
        acceptable += usize::from(row.accepts(got.outcome));
        if got.outcome != expected {
            misses.push(format!(
                "- {}`{}` (mcc {}) → {} by {} [{}]; expected {} ({})",
                if row.accepts(got.outcome) { "" } else { "UNACCEPTABLE " },
                row.descriptor,
                if row.mcc.is_empty() { "none" } else { &row.mcc },
                got.outcome.as_str(),
                got.rule,
                got.reason.code,
                row.expected,
                row.reason
            ));
        }
        if got.outcome == Outcome::Eligible && !row.accepts(Outcome::Eligible) {
            false_eligible.push(row.descriptor.clone());
        }
        // Cosmetic services at medical-looking businesses: never eligible.
        if got.outcome == Outcome::Eligible
            && !row.accepts(Outcome::Eligible)
            && row.reason.to_ascii_lowercase().contains("cosmetic")
        {
            cosmetic_eligible.push(row.descriptor.clone());
        }
    }
    let n = rows.len() as f64;
    println!("\n## {pair}, purchases: {} rows\n", rows.len());
    print_matrix(&matrix);
    println!(
        "\nexact {:.1}% ({exact}/{}), acceptable {:.1}% ({acceptable}/{}), false eligible {}\n",
        100.0 * exact as f64 / n,
        rows.len(),
        100.0 * acceptable as f64 / n,
        rows.len(),
        false_eligible.len()
    );
    for miss in &misses {
        println!("{miss}");
    }
    // The measuring run's false `eligible`s are named; any other fails.
    let new: Vec<&String> = false_eligible.iter().filter(|d| !run.false_eligible.contains(&d.as_str())).collect();
    assert!(new.is_empty(), "false eligible beyond the measured ones: {new:#?}");
    let cosmetic: Vec<&String> =
        cosmetic_eligible.iter().filter(|d| !run.false_eligible.contains(&d.as_str())).collect();
    assert!(cosmetic.is_empty(), "cosmetic services called eligible: {cosmetic:#?}");
    assert!(acceptable as f64 / n >= run.acceptable, "acceptable below its measured floor");
    assert!(exact as f64 / n >= run.exact, "exact below its measured floor");
}

/// Measures the receipt lines of a pair, prints the matrix and every miss,
/// and checks them against what its run measured.
fn receipt_lines(pair: &str, run: &Run) {
    let engine = Engine::seeded().unwrap();
    let rows: Vec<LabelledLine> = read_labelled(&format!("{pair}/receipt_lines.csv")).unwrap();
    let (mut labelled, mut matrix, mut false_eligible, mut misses) = (0, [[0usize; 3]; 3], Vec::new(), Vec::new());
    for row in &rows {
        let expected = row.expected().unwrap();
        // A line the parser reads as no item (a tender or loyalty line) can
        // neither cost nor clear anything: it counts as not eligible.
        let parsed = parse(&format!("RECEIPT\n{}\n", row.line));
        let got = parsed.lines.first().map(|line| classify_line(&engine, line));
        let outcome = got.as_ref().map_or(Outcome::Ineligible, |d| d.outcome);
        matrix[index(expected)][index(outcome)] += 1;
        labelled += usize::from(outcome == expected);
        if outcome != expected {
            misses.push(format!(
                "- [{}] `{}` → {}; expected {} ({})",
                row.retailer,
                row.line,
                got.as_ref().map_or("not an item".to_string(), |d| format!("{} ({})", d.outcome.as_str(), d.reason)),
                row.expected,
                row.reason
            ));
        }
        if outcome == Outcome::Eligible && !row.accepts(Outcome::Eligible) {
            false_eligible.push(row.line.clone());
        }
    }
    println!("\n## {pair}, receipt lines: {} rows\n", rows.len());
    print_matrix(&matrix);
    println!(
        "\nas labelled {:.1}% ({labelled}/{}), non-medical lines called eligible {}\n",
        100.0 * labelled as f64 / rows.len() as f64,
        rows.len(),
        false_eligible.len()
    );
    for miss in &misses {
        println!("{miss}");
    }
    let new: Vec<&String> = false_eligible.iter().filter(|l| !run.eligible_lines.contains(&l.as_str())).collect();
    assert!(new.is_empty(), "non-medical lines called eligible beyond the measured ones: {new:#?}");
    assert!(labelled as f64 / rows.len() as f64 >= run.lines, "below the measured floor");
}

/// What one measuring run found, held as floors just under it: its false
/// `eligible` purchases and non-medical lines called eligible are named, so
/// that no new one appears.
struct Run {
    exact: f64,
    acceptable: f64,
    false_eligible: &'static [&'static str],
    lines: f64,
    eligible_lines: &'static [&'static str],
}

/// The second pair's one run (docs/held-out-2026-11-26.md): purchases 80.3%
/// exact, 97.2% acceptable, 4 false `eligible` (cosmetic skin and laser
/// clinics under medical codes); receipt lines 88.0%, one non-medical line
/// (a moisturiser with SPF, labelled for review) called eligible. Targets
/// missed. The pair is development data since.
const SECOND_PAIR: Run = Run {
    exact: 0.80,
    acceptable: 0.97,
    false_eligible: &[
        "POS DEBIT 1218 RENEW LASER AND SKIN CLINIC TUCSON AZ",
        "CHECKCARD 0315 SUNSTONE SKIN AND LASER MD",
        "CONTOUR BODY CLINIC MEDICAL",
        "PURCHASE AUTHORIZED ON 02/15 LUMINOUS SKIN CLINIC DAYTON OH S731779367 CARD 2655",
    ],
    lines: 0.875,
    eligible_lines: &["811203 LACURA DAILY MOIST SPF15   4.99 B"],
};

/// The third pair's one run (docs/held-out-2026-11-26.md): purchases 85.7%
/// exact, 98.8% acceptable, 2 false `eligible` (a laser clinic and a vein
/// and laser clinic under medical codes); receipt lines 88.9%, two
/// non-medical lines (a denture cleaner, puppy pads) called eligible.
/// Targets missed but for acceptability.
const THIRD_PAIR: Run = Run {
    exact: 0.85,
    acceptable: 0.98,
    false_eligible: &["SKINSMART LASER CLINIC", "NORTHSIDE VEIN AND LASER"],
    lines: 0.885,
    eligible_lines: &["DDM DENTURE CLEANER 84       3.99 N", "MARCS PUPPY PADS 50              12.99 T"],
};

#[test]
fn second_pair_purchases() {
    purchases("held_out_2026_11_26_b", &SECOND_PAIR);
}

#[test]
fn second_pair_receipt_lines() {
    receipt_lines("held_out_2026_11_26_b", &SECOND_PAIR);
}

#[test]
fn third_pair_purchases() {
    purchases("held_out_2026_11_26_c", &THIRD_PAIR);
}

#[test]
fn third_pair_receipt_lines() {
    receipt_lines("held_out_2026_11_26_c", &THIRD_PAIR);
}
