//! The reference data the core reasons with, parsed once from the checked-in
//! copies in `data/` (verbatim from `../shared/data/`, see
//! `data/PROVENANCE.md`): raw card descriptors with their merchants and
//! expected outcomes, and the medical merchant category codes.

use std::sync::LazyLock;

/// `data/descriptors.csv`: raw card descriptors as banks show them.
pub const DESCRIPTORS_CSV: &str = include_str!("../../data/descriptors.csv");
/// `data/mcc_medical.csv`: merchant category codes with a default outcome.
pub const MCC_CSV: &str = include_str!("../../data/mcc_medical.csv");

/// One row of `descriptors.csv`.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct DescriptorRow {
    pub raw_descriptor: String,
    pub example_mcc: String,
    pub normalized_merchant: String,
    pub merchant_url: String,
    pub expected_outcome: String,
}

/// One row of `mcc_medical.csv`.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct MccRow {
    pub mcc: String,
    pub description: String,
    pub default_outcome: String,
    pub rationale_source: String,
}

fn parse<T: serde::de::DeserializeOwned>(name: &str, text: &str) -> Vec<T> {
    csv::Reader::from_reader(text.as_bytes())
        .deserialize()
        .filter_map(|row| match row {
            Ok(row) => Some(row),
            Err(err) => {
                tracing::error!(file = name, error = %err, "reference data row does not parse");
                None
            }
        })
        .collect()
}

pub static DESCRIPTORS: LazyLock<Vec<DescriptorRow>> = LazyLock::new(|| parse("descriptors.csv", DESCRIPTORS_CSV));
pub static MCCS: LazyLock<Vec<MccRow>> = LazyLock::new(|| parse("mcc_medical.csv", MCC_CSV));

#[cfg(test)]
mod tests {
    #[test]
    fn every_row_parses() {
        let descriptors = csv::Reader::from_reader(super::DESCRIPTORS_CSV.as_bytes()).records().count();
        assert_eq!(super::DESCRIPTORS.len(), descriptors);
        assert!(descriptors >= 44);
        let mccs = csv::Reader::from_reader(super::MCC_CSV.as_bytes()).records().count();
        assert_eq!(super::MCCS.len(), mccs);
        assert!(mccs >= 47);
    }
}
