//! The labelled sets the engine is measured on, read in one place for the
//! evaluation tests and the throughput benchmark. Compiled only with the
//! `evaluation` feature, which the crate's own tests and benches turn on.
//!
//! - The regression set (`tests/data/evaluation_set.csv`, generated from the
//!   reference data by `scripts/make_evaluation_set.py`): faithfulness to the
//!   reference data, not real-world accuracy.
//! - The held-out set (`tests/data/held_out_set.csv`, see
//!   `tests/data/HELD_OUT.md`): purchases as bank exports print them, labelled
//!   by hand before the engine saw them, split by a hash of the descriptor
//!   into a development third (whose misses may be studied) and a test
//!   two-thirds (only ever reported).

use sha2::{Digest, Sha256};

use crate::decision::{Outcome, Purchase};

/// One labelled purchase of the regression set.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Labelled {
    pub descriptor: String,
    pub merchant_name: String,
    pub mcc: String,
    pub amount: f64,
    pub expected_outcome: String,
    pub source: String,
}

impl Labelled {
    /// The purchase the engine sees: empty merchant name and MCC are absent.
    pub fn purchase(&self) -> Purchase<'_> {
        Purchase {
            description: &self.descriptor,
            merchant_name: Some(self.merchant_name.as_str()).filter(|n| !n.is_empty()),
            mcc: Some(self.mcc.as_str()).filter(|m| !m.is_empty()),
            amount_minor: (self.amount * 100.0).round() as i64,
            items: None,
        }
    }
}

/// Every labelled purchase of the regression set.
pub fn labelled_set() -> Result<Vec<Labelled>, csv::Error> {
    csv::Reader::from_reader(include_str!("../tests/data/evaluation_set.csv").as_bytes()).deserialize().collect()
}

/// Which part of the held-out set a purchase belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    /// May be studied while the rules are developed.
    Development,
    /// Only ever measured.
    Test,
}

/// One purchase of the held-out set, as labelled.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct HeldOut {
    pub descriptor: String,
    pub mcc: String,
    pub expected: String,
    /// `|`-separated outcomes a reviewer would accept.
    pub acceptable: String,
    pub justification: String,
}

impl HeldOut {
    pub fn purchase(&self) -> Purchase<'_> {
        Purchase {
            description: &self.descriptor,
            merchant_name: None,
            mcc: Some(self.mcc.as_str()).filter(|m| !m.is_empty()),
            amount_minor: 4_200,
            items: None,
        }
    }

    pub fn expected(&self) -> Option<Outcome> {
        Outcome::parse(&self.expected)
    }

    pub fn accepts(&self, outcome: Outcome) -> bool {
        self.acceptable.split('|').any(|o| o == outcome.as_str())
    }

    /// One third by a hash of the descriptor, fixed for ever.
    pub fn split(&self) -> Split {
        if Sha256::digest(self.descriptor.as_bytes())[0] % 3 == 0 { Split::Development } else { Split::Test }
    }
}

/// Every purchase of the held-out set.
pub fn held_out_set() -> Result<Vec<HeldOut>, csv::Error> {
    csv::Reader::from_reader(include_str!("../tests/data/held_out_set.csv").as_bytes()).deserialize().collect()
}

/// One labelled purchase of the 2026-11-26 sets (`tests/data/held_out_2026_11_26*/purchases.csv`).
#[derive(Debug, Clone, serde::Deserialize)]
pub struct LabelledPurchase {
    pub descriptor: String,
    pub mcc: String,
    pub amount: String,
    pub expected: String,
    /// `|`-separated outcomes a reviewer would accept.
    pub acceptable: String,
    pub reason: String,
}

impl LabelledPurchase {
    pub fn purchase(&self) -> Purchase<'_> {
        let amount_minor = self.amount.parse::<f64>().map(|a| (a * 100.0).round() as i64).unwrap_or(4_200);
        Purchase {
            description: &self.descriptor,
            merchant_name: None,
            mcc: Some(self.mcc.as_str()).filter(|m| !m.is_empty()),
            amount_minor,
            items: None,
        }
    }

    pub fn expected(&self) -> Option<Outcome> {
        Outcome::parse(&self.expected)
    }

    pub fn accepts(&self, outcome: Outcome) -> bool {
        self.acceptable.split('|').any(|o| o == outcome.as_str())
    }
}

/// One labelled receipt line of the 2026-11-26 sets, as its retailer prints it.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct LabelledLine {
    pub retailer: String,
    pub line: String,
    pub expected: String,
    pub acceptable: String,
    pub reason: String,
}

impl LabelledLine {
    pub fn expected(&self) -> Option<Outcome> {
        Outcome::parse(&self.expected)
    }

    pub fn accepts(&self, outcome: Outcome) -> bool {
        self.acceptable.split('|').any(|o| o == outcome.as_str())
    }
}

/// Reads a labelled CSV file of the engine's test data by its path under
/// `tests/data/` (read when measured, never compiled in).
pub fn read_labelled<T: serde::de::DeserializeOwned>(relative: &str) -> Result<Vec<T>, csv::Error> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(relative);
    csv::Reader::from_path(path)?.deserialize().collect()
}

/// A pair's `retailers.csv`: each retailer's category code, the one its
/// card purchases carry, by the slug its receipt lines are filed under.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct RetailerCode {
    pub retailer: String,
    pub name: String,
    pub mcc: String,
}

/// The category code of each retailer of the pair in folder `pair` under
/// `tests/data/`, by slug; empty for a pair written before retailers had
/// codes (its lines are read with nothing known of their store).
pub fn read_retailer_codes(pair: &str) -> Result<std::collections::HashMap<String, String>, csv::Error> {
    let relative = format!("{pair}/retailers.csv");
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(&relative);
    if !path.exists() {
        return Ok(std::collections::HashMap::new());
    }
    let rows: Vec<RetailerCode> = read_labelled(&relative)?;
    Ok(rows.into_iter().map(|row| (row.retailer, row.mcc)).collect())
}

/// The outcomes in the order a confusion matrix lists them.
pub const OUTCOMES: [Outcome; 3] = [Outcome::Eligible, Outcome::Ineligible, Outcome::NeedsReview];

fn position(outcome: Outcome) -> usize {
    match outcome {
        Outcome::Eligible => 0,
        Outcome::Ineligible => 1,
        Outcome::NeedsReview => 2,
    }
}

/// What a labelled set came to on the engine: rows decided as labelled and
/// acceptably, the confusion matrix (label by engine, in `OUTCOMES` order),
/// every miss as a report line, and the rows called eligible that may not
/// be, each with its label's reason.
#[derive(Debug, Default)]
pub struct Measure {
    pub rows: usize,
    pub as_labelled: usize,
    pub acceptable: usize,
    pub matrix: [[usize; 3]; 3],
    pub misses: Vec<String>,
    pub false_eligible: Vec<(String, String)>,
}

impl Measure {
    fn count(&mut self, expected: Outcome, got: Outcome, acceptable: bool) {
        self.rows += 1;
        self.matrix[position(expected)][position(got)] += 1;
        self.as_labelled += usize::from(got == expected);
        self.acceptable += usize::from(acceptable);
    }

    /// The share of rows decided as labelled.
    pub fn labelled_share(&self) -> f64 {
        self.as_labelled as f64 / self.rows.max(1) as f64
    }

    /// The share of rows decided acceptably.
    pub fn acceptable_share(&self) -> f64 {
        self.acceptable as f64 / self.rows.max(1) as f64
    }

    /// The matrix, the figures and every miss, as Markdown.
    pub fn report(&self, title: &str) -> String {
        let mut out = format!("\n## {title}: {} rows\n\n", self.rows);
        out.push_str("| expected \\ engine | eligible | ineligible | needs_review |\n|---|---|---|---|\n");
        for (i, outcome) in OUTCOMES.iter().enumerate() {
            let [a, b, c] = self.matrix[i];
            out.push_str(&format!("| {} | {a} | {b} | {c} |\n", outcome.as_str()));
        }
        out.push_str(&format!(
            "\nas labelled {:.1}% ({}/{}), acceptable {:.1}% ({}/{}), called eligible and may not be {}\n\n",
            100.0 * self.labelled_share(),
            self.as_labelled,
            self.rows,
            100.0 * self.acceptable_share(),
            self.acceptable,
            self.rows,
            self.false_eligible.len()
        ));
        for miss in &self.misses {
            out.push_str(miss);
            out.push('\n');
        }
        out
    }
}

/// Every labelled purchase of `rows` through the engine.
pub fn measure_purchases(engine: &crate::Engine, rows: &[LabelledPurchase]) -> Measure {
    let mut measure = Measure::default();
    for row in rows {
        let Some(expected) = row.expected() else { continue };
        let got = engine.adjudicate(&row.purchase());
        measure.count(expected, got.outcome, row.accepts(got.outcome));
        if got.outcome != expected {
            measure.misses.push(format!(
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
            measure.false_eligible.push((row.descriptor.clone(), row.reason.clone()));
        }
    }
    measure
}

/// Every labelled receipt line of `rows`, read as the one item line of a
/// receipt and classified. A line the parser reads as no item (a tender or
/// loyalty line) can neither cost nor clear anything: it counts as
/// `ineligible`. `codes` gives each retailer's category code, as its
/// purchase would carry it (`read_retailer_codes`); when it names any
/// retailer it must name every one.
///
/// # Panics
/// When `codes` names some retailers of `rows` and not others: a pair's
/// `retailers.csv` is whole or absent.
pub fn measure_lines(
    engine: &crate::Engine,
    rows: &[LabelledLine],
    codes: &std::collections::HashMap<String, String>,
) -> Measure {
    let mut measure = Measure::default();
    // Each line as its own receipt parses it; each retailer's lines
    // together are read as that retailer's receipt, as the receipts path
    // reads them (`receipts::classify_lines`: a store's prefix is set
    // aside).
    let parsed: Vec<Option<crate::receipts::ParsedLine>> = rows
        .iter()
        .map(|row| crate::receipts::parse(&format!("RECEIPT\n{}\n", row.line)).lines.into_iter().next())
        .collect();
    let mut decided: Vec<Option<crate::receipts::LineDecision>> = vec![None; rows.len()];
    let mut retailers: Vec<&str> = rows.iter().map(|row| row.retailer.as_str()).collect();
    retailers.dedup();
    for retailer in retailers {
        let at: Vec<usize> = (0..rows.len()).filter(|&i| rows[i].retailer == retailer && parsed[i].is_some()).collect();
        let lines: Vec<crate::receipts::ParsedLine> = at.iter().filter_map(|&i| parsed[i].clone()).collect();
        let code = codes.get(retailer).map(String::as_str);
        assert!(codes.is_empty() || code.is_some(), "retailers.csv has no code for {retailer}");
        let store = crate::receipts::Store::of(engine, code);
        for (i, decision) in at.into_iter().zip(crate::receipts::classify_lines(engine, &lines, store)) {
            decided[i] = Some(decision);
        }
    }
    for (row, got) in rows.iter().zip(decided) {
        let Some(expected) = row.expected() else { continue };
        let outcome = got.as_ref().map_or(Outcome::Ineligible, |d| d.outcome);
        measure.count(expected, outcome, row.accepts(outcome));
        if outcome != expected {
            measure.misses.push(format!(
                "- [{}] `{}` → {}; expected {} ({})",
                row.retailer,
                row.line,
                got.as_ref().map_or("not an item".to_string(), |d| format!(
                    "{} ({})",
                    d.outcome.as_str(),
                    d.category.as_str()
                )),
                row.expected,
                row.reason
            ));
        }
        if outcome == Outcome::Eligible && !row.accepts(Outcome::Eligible) {
            measure.false_eligible.push((row.line.clone(), row.reason.clone()));
        }
    }
    measure
}
