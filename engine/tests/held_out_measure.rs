//! The held-out measures of the knowledge work: the second, third and
//! fourth pairs of 2026-11-26 (`tests/data/held_out_2026_11_26_b/`, `_c/`,
//! `_d/`), the fifth to eleventh of 2026-11-27
//! (`held_out_2026_11_27_e/` to `_k/`), the twelfth to twenty-second of
//! 2026-11-28 (`held_out_2026_11_28_l/` to `_v/`) and the twenty-third to
//! twenty-ninth of 2026-11-29 (`held_out_2026_11_29_w/` to `_z/`, `_za/` to `_zc/`), each run
//! once when a round of work was done, with every miss printed
//! (`cargo test -p sail-engine --test held_out_measure -- --nocapture`).
//! The figures of those runs are in docs/held-out-2026-11-26.md,
//! docs/held-out-2026-11-27.md, docs/held-out-2026-11-27-f.md to
//! `-k.md`, docs/held-out-2026-11-28-l.md to `-v.md` and
//! docs/held-out-2026-11-29-w.md to `-zc.md`; this test
//! holds the engine to them so that nothing slips back: what each run found
//! is kept as floors in `tests/data/measured_runs/<pair>.csv`. The frozen pair may
//! not be studied or tuned to: its rows stay out of every word list
//! (`tests/held_out_leaks.rs`); a measured pair is development data after.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or benchmark: a failed step is the run failing, and says where"
)]

use sail_engine::Engine;
use sail_engine::evaluation::{
    LabelledLine, LabelledPurchase, measure_lines, measure_purchases, read_labelled, read_retailer_codes,
};

/// What one measuring run found, held as floors just under it: its false
/// `eligible` purchases and non-medical lines called eligible are named, so
/// that no new one appears. Read from `tests/data/measured_runs/<pair>.csv`,
/// one `measure,value` row each: `exact`, `acceptable` and `lines` (shares),
/// and a `false_eligible` row per descriptor and an `eligible_line` row per
/// receipt line.
struct Run {
    exact: f64,
    acceptable: f64,
    false_eligible: Vec<String>,
    lines: f64,
    eligible_lines: Vec<String>,
}

#[derive(serde::Deserialize)]
struct RunRow {
    measure: String,
    value: String,
}

impl Run {
    fn of(pair: &str) -> Run {
        let rows: Vec<RunRow> = read_labelled(&format!("measured_runs/{pair}.csv")).unwrap();
        let share = |name: &str| {
            let row = rows.iter().find(|r| r.measure == name).unwrap_or_else(|| panic!("{pair}: no {name}"));
            row.value.parse::<f64>().unwrap()
        };
        let named = |name: &str| rows.iter().filter(|r| r.measure == name).map(|r| r.value.clone()).collect();
        let known = ["exact", "acceptable", "lines", "false_eligible", "eligible_line"];
        assert!(rows.iter().all(|r| known.contains(&r.measure.as_str())), "{pair}: a measure of another name");
        Run {
            exact: share("exact"),
            acceptable: share("acceptable"),
            false_eligible: named("false_eligible"),
            lines: share("lines"),
            eligible_lines: named("eligible_line"),
        }
    }
}

/// Measures the purchases of a pair, prints the matrix and every miss, and
/// checks them against what its run measured.
fn purchases(pair: &str) {
    let run = Run::of(pair);
    let engine = Engine::seeded().unwrap();
    let rows: Vec<LabelledPurchase> = read_labelled(&format!("{pair}/purchases.csv")).unwrap();
    let measure = measure_purchases(&engine, &rows);
    println!("{}", measure.report(&format!("{pair}, purchases")));
    // The measuring run's false `eligible`s are named; any other fails, and
    // a cosmetic service at a medical-looking business above all.
    let new: Vec<&(String, String)> =
        measure.false_eligible.iter().filter(|(d, _)| !run.false_eligible.contains(d)).collect();
    let cosmetic: Vec<&&(String, String)> = new.iter().filter(|(_, why)| why.contains("cosmetic")).collect();
    assert!(cosmetic.is_empty(), "cosmetic services called eligible: {cosmetic:#?}");
    assert!(new.is_empty(), "false eligible beyond the measured ones: {new:#?}");
    assert!(measure.acceptable_share() >= run.acceptable, "acceptable below its measured floor");
    assert!(measure.labelled_share() >= run.exact, "exact below its measured floor");
}

/// Measures the receipt lines of a pair, prints the matrix and every miss,
/// and checks them against what its run measured.
fn receipt_lines(pair: &str) {
    let run = Run::of(pair);
    let engine = Engine::seeded().unwrap();
    let rows: Vec<LabelledLine> = read_labelled(&format!("{pair}/receipt_lines.csv")).unwrap();
    let codes = read_retailer_codes(pair).unwrap();
    let measure = measure_lines(&engine, &rows, &codes);
    println!("{}", measure.report(&format!("{pair}, receipt lines")));
    let new: Vec<&(String, String)> =
        measure.false_eligible.iter().filter(|(l, _)| !run.eligible_lines.contains(l)).collect();
    assert!(new.is_empty(), "non-medical lines called eligible beyond the measured ones: {new:#?}");
    assert!(measure.labelled_share() >= run.lines, "below the measured floor");
}

/// The two tests of one measured pair, its purchases and its receipt
/// lines, each held to that pair's run.
macro_rules! measured_pair {
    ($purchases:ident, $lines:ident, $folder:literal) => {
        #[test]
        fn $purchases() {
            purchases($folder);
        }

        #[test]
        fn $lines() {
            receipt_lines($folder);
        }
    };
}

measured_pair!(second_pair_purchases, second_pair_receipt_lines, "held_out_2026_11_26_b");
measured_pair!(third_pair_purchases, third_pair_receipt_lines, "held_out_2026_11_26_c");
measured_pair!(fourth_pair_purchases, fourth_pair_receipt_lines, "held_out_2026_11_26_d");
measured_pair!(fifth_pair_purchases, fifth_pair_receipt_lines, "held_out_2026_11_27_e");
measured_pair!(sixth_pair_purchases, sixth_pair_receipt_lines, "held_out_2026_11_27_f");
measured_pair!(seventh_pair_purchases, seventh_pair_receipt_lines, "held_out_2026_11_27_g");
measured_pair!(eighth_pair_purchases, eighth_pair_receipt_lines, "held_out_2026_11_27_h");
measured_pair!(ninth_pair_purchases, ninth_pair_receipt_lines, "held_out_2026_11_27_i");
measured_pair!(tenth_pair_purchases, tenth_pair_receipt_lines, "held_out_2026_11_27_j");
measured_pair!(eleventh_pair_purchases, eleventh_pair_receipt_lines, "held_out_2026_11_27_k");
measured_pair!(twelfth_pair_purchases, twelfth_pair_receipt_lines, "held_out_2026_11_28_l");
measured_pair!(thirteenth_pair_purchases, thirteenth_pair_receipt_lines, "held_out_2026_11_28_m");
measured_pair!(fourteenth_pair_purchases, fourteenth_pair_receipt_lines, "held_out_2026_11_28_n");
measured_pair!(fifteenth_pair_purchases, fifteenth_pair_receipt_lines, "held_out_2026_11_28_o");
measured_pair!(sixteenth_pair_purchases, sixteenth_pair_receipt_lines, "held_out_2026_11_28_p");
measured_pair!(seventeenth_pair_purchases, seventeenth_pair_receipt_lines, "held_out_2026_11_28_q");
measured_pair!(eighteenth_pair_purchases, eighteenth_pair_receipt_lines, "held_out_2026_11_28_r");
measured_pair!(nineteenth_pair_purchases, nineteenth_pair_receipt_lines, "held_out_2026_11_28_s");
measured_pair!(twentieth_pair_purchases, twentieth_pair_receipt_lines, "held_out_2026_11_28_t");
measured_pair!(twenty_first_pair_purchases, twenty_first_pair_receipt_lines, "held_out_2026_11_28_u");
measured_pair!(twenty_second_pair_purchases, twenty_second_pair_receipt_lines, "held_out_2026_11_28_v");
measured_pair!(twenty_third_pair_purchases, twenty_third_pair_receipt_lines, "held_out_2026_11_29_w");
measured_pair!(twenty_fourth_pair_purchases, twenty_fourth_pair_receipt_lines, "held_out_2026_11_29_x");
measured_pair!(twenty_fifth_pair_purchases, twenty_fifth_pair_receipt_lines, "held_out_2026_11_29_y");
measured_pair!(twenty_sixth_pair_purchases, twenty_sixth_pair_receipt_lines, "held_out_2026_11_29_z");
measured_pair!(twenty_seventh_pair_purchases, twenty_seventh_pair_receipt_lines, "held_out_2026_11_29_za");
measured_pair!(twenty_eighth_pair_purchases, twenty_eighth_pair_receipt_lines, "held_out_2026_11_29_zb");
measured_pair!(twenty_ninth_pair_purchases, twenty_ninth_pair_receipt_lines, "held_out_2026_11_29_zc");
