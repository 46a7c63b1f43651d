//! The first pair of 2026-11-26 (`tests/data/held_out_2026_11_26/`),
//! development data since its figures were seen: purchases and receipt
//! lines measured with every miss printed
//! (`cargo test -p sail-engine --test development_sets -- --nocapture`),
//! and held as a regression guard: no false `eligible`, no non-medical line
//! called eligible, and floors a little under the figures when they were set.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or benchmark: a failed step is the run failing, and says where"
)]

use sail_engine::Engine;
use sail_engine::evaluation::{
    LabelledLine, LabelledPurchase, measure_lines, measure_purchases, read_labelled, read_retailer_codes,
};

#[test]
fn purchases_of_the_first_pair() {
    let engine = Engine::seeded().unwrap();
    let rows: Vec<LabelledPurchase> = read_labelled("held_out_2026_11_26/purchases.csv").unwrap();
    let measure = measure_purchases(&engine, &rows);
    println!("{}", measure.report("first pair, purchases"));
    assert!(measure.false_eligible.is_empty(), "false eligible: {:#?}", measure.false_eligible);
    // A regression guard on development data (95.2% and 99.8% when set;
    // since the thirteenth round, physicians' groups named by no field of
    // care, such as `TEAM HEALTH PHYSICIANS`, are reviews: 92% exact then).
    assert!(measure.labelled_share() >= 0.915 && measure.acceptable_share() >= 0.98, "below the development floor");
}

#[test]
fn receipt_lines_of_the_first_pair() {
    let engine = Engine::seeded().unwrap();
    let rows: Vec<LabelledLine> = read_labelled("held_out_2026_11_26/receipt_lines.csv").unwrap();
    let codes = read_retailer_codes("held_out_2026_11_26").unwrap();
    let measure = measure_lines(&engine, &rows, &codes);
    println!("{}", measure.report("first pair, receipt lines"));
    assert!(measure.false_eligible.is_empty(), "non-medical lines called eligible: {:#?}", measure.false_eligible);
    // A regression guard on development data (96.4% when set).
    assert!(measure.labelled_share() >= 0.94, "below the development floor");
}

/// Which term decides each line of `SAIL_LINES` (`|`-separated), for study:
/// `SAIL_LINES='A|B' cargo test -p sail-engine --test development_sets -- --ignored --nocapture`.
#[test]
#[ignore = "a study aid, run by hand"]
fn which_term_decides() {
    let lexicon = sail_engine::lexicon::ItemLexicon::shared().unwrap();
    for line in std::env::var("SAIL_LINES").unwrap_or_default().split('|') {
        let term = lexicon.classify(line);
        println!("{line} => {:?}", term.map(|t| (&t.term, t.outcome, &t.category, &t.source)));
    }
}
