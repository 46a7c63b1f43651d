//! The labelled evaluation set the engine is measured on
//! (`tests/data/evaluation_set.csv`, built from the reference data by
//! `scripts/make_evaluation_set.py`), read in one place for the evaluation
//! test and the throughput benchmark. Compiled only with the `evaluation`
//! feature, which the crate's own tests and benches turn on.

use crate::Purchase;

/// One labelled purchase.
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

/// Every labelled purchase of the set.
pub fn labelled_set() -> Result<Vec<Labelled>, csv::Error> {
    csv::Reader::from_reader(include_str!("../tests/data/evaluation_set.csv").as_bytes()).deserialize().collect()
}
