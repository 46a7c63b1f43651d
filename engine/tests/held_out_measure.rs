//! The one measure of the knowledge work: the frozen held-out pair of
//! 2026-11-26 (`tests/data/held_out_2026_11_26_b/README.md`), 432
//! purchases and 631 receipt lines, run once when the work was done, with
//! every miss printed (`cargo test -p sail-engine --test held_out_measure
//! -- --nocapture`). The figures of that run are in `docs/adjudication.md`;
//! this test holds the engine to them so that nothing slips back. The
//! pair may not be studied or tuned to: its rows stay out of every word
//! list (`tests/held_out_leaks.rs`).

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

#[test]
fn held_out_purchases() {
    let engine = Engine::seeded().unwrap();
    let rows: Vec<LabelledPurchase> = read_labelled("held_out_2026_11_26_b/purchases.csv").unwrap();
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
    println!("\n## Held-out purchases: {} rows\n", rows.len());
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
    let new: Vec<&String> = false_eligible.iter().filter(|d| !KNOWN_FALSE_ELIGIBLE.contains(&d.as_str())).collect();
    assert!(new.is_empty(), "false eligible beyond the measured ones: {new:#?}");
    let cosmetic: Vec<&String> =
        cosmetic_eligible.iter().filter(|d| !KNOWN_FALSE_ELIGIBLE.contains(&d.as_str())).collect();
    assert!(cosmetic.is_empty(), "cosmetic services called eligible: {cosmetic:#?}");
    assert!(acceptable as f64 / n >= ACCEPTABLE_AT_LEAST, "acceptable below its measured floor");
    assert!(exact as f64 / n >= EXACT_AT_LEAST, "exact below its measured floor");
}

#[test]
fn held_out_receipt_lines() {
    let engine = Engine::seeded().unwrap();
    let rows: Vec<LabelledLine> = read_labelled("held_out_2026_11_26_b/receipt_lines.csv").unwrap();
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
    println!("\n## Held-out receipt lines: {} rows\n", rows.len());
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
    let new: Vec<&String> = false_eligible.iter().filter(|l| !KNOWN_ELIGIBLE_LINES.contains(&l.as_str())).collect();
    assert!(new.is_empty(), "non-medical lines called eligible beyond the measured one: {new:#?}");
    assert!(labelled as f64 / rows.len() as f64 >= LINES_AT_LEAST, "below the measured floor");
}

// The one measuring run (2026-11-26, docs/adjudication.md): purchases
// 80.3% exact, 97.2% acceptable, 4 false `eligible` (cosmetic skin and
// laser clinics under medical codes); receipt lines 88.0% as labelled, one
// non-medical line (a moisturiser with SPF, labelled for review) called
// eligible. The targets were 88% exact, 95% acceptable, none false; 90% of
// lines and none eligible: missed. The floors sit just under the run.
const ACCEPTABLE_AT_LEAST: f64 = 0.97;
const EXACT_AT_LEAST: f64 = 0.80;
const LINES_AT_LEAST: f64 = 0.875;
/// The false `eligible`s of the measuring run, by descriptor.
const KNOWN_FALSE_ELIGIBLE: [&str; 4] = [
    "POS DEBIT 1218 RENEW LASER AND SKIN CLINIC TUCSON AZ",
    "CHECKCARD 0315 SUNSTONE SKIN AND LASER MD",
    "CONTOUR BODY CLINIC MEDICAL",
    "PURCHASE AUTHORIZED ON 02/15 LUMINOUS SKIN CLINIC DAYTON OH S731779367 CARD 2655",
];
/// The non-medical line the measuring run called eligible.
const KNOWN_ELIGIBLE_LINES: [&str; 1] = ["811203 LACURA DAILY MOIST SPF15   4.99 B"];
