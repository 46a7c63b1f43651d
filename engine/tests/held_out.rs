//! The engine against the held-out set (`tests/data/held_out_set.csv`, see
//! `tests/data/HELD_OUT.md`): fails on any false `eligible`, below 95%
//! acceptable or below 85% exact on the test split, and when a descriptor of
//! the set has leaked into the engine's tables. Prints the confusion matrix
//! and every miss (`cargo test -p sail-engine --test held_out -- --nocapture`);
//! `docs/adjudication.md` keeps the latest figures.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or benchmark: a failed step is the run failing, and says where"
)]

use sail_engine::evaluation::{HeldOut, LabelledPurchase, Split, held_out_set, measure_purchases};
use sail_engine::normalize::canonical_words;
use sail_engine::{Engine, known_aliases};

/// The set's rows as the measure reads labelled purchases.
fn labelled(rows: &[&HeldOut]) -> Vec<LabelledPurchase> {
    rows.iter()
        .map(|r| LabelledPurchase {
            descriptor: r.descriptor.clone(),
            mcc: r.mcc.clone(),
            amount: "42.00".to_string(),
            expected: r.expected.clone(),
            acceptable: r.acceptable.clone(),
            reason: r.justification.clone(),
        })
        .collect()
}

#[test]
fn the_held_out_set_has_no_false_eligible_and_meets_its_targets() {
    let set = held_out_set().unwrap();
    let engine = Engine::seeded().unwrap();
    let dev: Vec<&HeldOut> = set.iter().filter(|r| r.split() == Split::Development).collect();
    let test: Vec<&HeldOut> = set.iter().filter(|r| r.split() == Split::Test).collect();
    assert!(test.len() >= 400, "the test split has {} purchases", test.len());
    let (dev_score, test_score) =
        (measure_purchases(&engine, &labelled(&dev)), measure_purchases(&engine, &labelled(&test)));
    println!("{}", dev_score.report("development split"));
    println!("{}", test_score.report("test split"));

    let false_eligible: Vec<_> = dev_score.false_eligible.iter().chain(&test_score.false_eligible).collect();
    assert!(false_eligible.is_empty(), "false eligible:\n{false_eligible:#?}");
    let (acceptable, exact) = (test_score.acceptable_share(), test_score.labelled_share());
    assert!(acceptable >= 0.95, "acceptable {:.1}% on the test split is below 95%", 100.0 * acceptable);
    assert!(exact >= 0.85, "exact {:.1}% on the test split is below 85%", 100.0 * exact);
}

#[test]
fn no_descriptor_of_the_held_out_set_is_in_the_engines_tables() {
    let aliases = known_aliases().unwrap();
    let leaked: Vec<String> = held_out_set()
        .unwrap()
        .into_iter()
        .map(|row| canonical_words(&row.descriptor))
        .filter(|words| aliases.iter().any(|alias| alias == words))
        .collect();
    assert!(leaked.is_empty(), "held-out descriptors in the engine's tables: {leaked:?}");
}
