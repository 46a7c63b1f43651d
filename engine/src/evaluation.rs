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
