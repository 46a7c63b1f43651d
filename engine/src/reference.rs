//! The reference data, read from one place for the engine, the directory
//! seeding in `migration` and the sandbox: the checked-in copies in `data/`
//! (see `data/PROVENANCE.md`). Every loader fails loudly, naming the file and
//! row, rather than leaving something out: a half-loaded directory would
//! adjudicate wrongly without a word.

use sha2::{Digest, Sha256};

/// `data/descriptors.csv`: raw card descriptors as banks show them.
pub const DESCRIPTORS_CSV: &str = include_str!("../../data/descriptors.csv");
/// `data/mcc_medical.csv`: merchant category codes with a default outcome.
pub const MCC_CSV: &str = include_str!("../../data/mcc_medical.csv");
/// `data/mcc_stores_without_care.csv`: category codes of stores whose stock
/// holds nothing for medical care.
pub const STORES_WITHOUT_CARE_CSV: &str = include_str!("../../data/mcc_stores_without_care.csv");
/// `data/merchants.csv`: the merchant directory.
pub const MERCHANTS_CSV: &str = include_str!("../../data/merchants.csv");
/// `data/administrators.csv`: the HSA/FSA administrator directory.
pub const ADMINISTRATORS_CSV: &str = include_str!("../../data/administrators.csv");
/// `data/merchant_knowledge.csv`: national chains and common merchants
/// outside the directory, with their usual outcome and the fact behind it.
pub const KNOWLEDGE_CSV: &str = include_str!("../../data/merchant_knowledge.csv");

/// A reference file that does not parse.
#[derive(Debug, thiserror::Error)]
#[error("reference data {file}: {reason}")]
pub struct ReferenceError {
    pub file: &'static str,
    pub reason: String,
}

/// Parses every row of `text`, or says which one does not parse.
pub(crate) fn parse<T: serde::de::DeserializeOwned>(file: &'static str, text: &str) -> Result<Vec<T>, ReferenceError> {
    let rows = csv::Reader::from_reader(text.as_bytes())
        .deserialize()
        .collect::<Result<Vec<T>, _>>()
        .map_err(|err| ReferenceError { file, reason: err.to_string() })?;
    if rows.is_empty() {
        return Err(ReferenceError { file, reason: "no rows".into() });
    }
    Ok(rows)
}

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

/// One row of `mcc_stores_without_care.csv`.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct StoreWithoutCareRow {
    pub mcc: String,
    pub description: String,
    pub basis: String,
}

/// 2025-01-01T00:00:00Z, the timestamp part of every directory id.
const DIRECTORY_EPOCH_MS: u64 = 1_735_689_600_000;

/// A stable `prefix` + UUIDv7 id for a directory entry named `name`: the
/// timestamp is fixed and the random bits come from a hash of the name, so
/// `mer_…`, `adm_…` and `fin_…` ids are the same in every database and
/// partners may keep them.
pub fn directory_id(prefix: &str, name: &str) -> String {
    let digest = Sha256::digest(format!("{prefix}{name}").as_bytes());
    let mut random = [0u8; 10];
    random.copy_from_slice(&digest[..10]);
    let uuid = uuid::Builder::from_unix_timestamp_millis(DIRECTORY_EPOCH_MS, &random).into_uuid();
    format!("{prefix}{}", uuid.simple())
}

/// One merchant row of the directory.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct MerchantSeed {
    pub name: String,
    pub main_url: String,
    /// `yes` | `no` | `unknown`.
    pub iias_certified: String,
    pub typical_outcome: String,
    pub notes: String,
}

impl MerchantSeed {
    pub fn id(&self) -> String {
        directory_id("mer_", &self.name)
    }

    /// A store that runs an IIAS (certified inventory approval at checkout)
    /// marks eligible items per line, so its store connection can supply
    /// item-level purchase data.
    pub fn item_level_receipts(&self) -> bool {
        self.iias_certified == "yes"
    }
}

/// One administrator row of the directory.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct AdministratorSeed {
    pub name: String,
    pub main_url: String,
    /// `|`-separated: `hsa`, `fsa`, `hra`.
    pub account_types: String,
    pub notes: String,
}

impl AdministratorSeed {
    pub fn id(&self) -> String {
        directory_id("adm_", &self.name)
    }
}

/// One row of `merchant_knowledge.csv`.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct KnowledgeRow {
    pub name: String,
    /// `|`-separated, in canonical words (`normalize::canonical_words`).
    pub aliases: String,
    pub outcome: String,
    /// A category slug of `categories::CATEGORIES`.
    pub category: String,
    /// The fact the outcome rests on (Publication 502, an MCC row of `data/`).
    pub basis: String,
    /// Where what the business sells can be seen.
    pub url: String,
}

/// The merchants of `merchant_knowledge.csv`.
pub fn knowledge() -> Result<Vec<KnowledgeRow>, ReferenceError> {
    parse("data/merchant_knowledge.csv", KNOWLEDGE_CSV)
}

/// The raw descriptors of `descriptors.csv`.
pub fn descriptors() -> Result<Vec<DescriptorRow>, ReferenceError> {
    parse("data/descriptors.csv", DESCRIPTORS_CSV)
}

/// The merchant category codes of `mcc_medical.csv`.
pub fn mccs() -> Result<Vec<MccRow>, ReferenceError> {
    parse("data/mcc_medical.csv", MCC_CSV)
}

/// The category codes of `mcc_stores_without_care.csv`.
pub fn stores_without_care() -> Result<Vec<StoreWithoutCareRow>, ReferenceError> {
    parse("data/mcc_stores_without_care.csv", STORES_WITHOUT_CARE_CSV)
}

/// The merchant directory of `merchants.csv`.
pub fn merchants() -> Result<Vec<MerchantSeed>, ReferenceError> {
    parse("data/merchants.csv", MERCHANTS_CSV)
}

/// The administrator directory of `administrators.csv`.
pub fn administrators() -> Result<Vec<AdministratorSeed>, ReferenceError> {
    parse("data/administrators.csv", ADMINISTRATORS_CSV)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_loads_every_row() {
        let count = |text: &str| csv::Reader::from_reader(text.as_bytes()).records().count();
        assert_eq!(descriptors().unwrap().len(), count(DESCRIPTORS_CSV));
        assert_eq!(mccs().unwrap().len(), count(MCC_CSV));
        assert_eq!(merchants().unwrap().len(), count(MERCHANTS_CSV));
        assert_eq!(administrators().unwrap().len(), count(ADMINISTRATORS_CSV));
        assert_eq!(knowledge().unwrap().len(), count(KNOWLEDGE_CSV));
        assert_eq!(stores_without_care().unwrap().len(), count(STORES_WITHOUT_CARE_CSV));
        assert!(descriptors().unwrap().len() >= 44 && mccs().unwrap().len() >= 47);
    }

    #[test]
    fn a_bad_row_is_an_error_naming_the_file() {
        let err = parse::<MccRow>("data/mcc_medical.csv", "mcc,description\n5912").unwrap_err();
        assert_eq!(err.file, "data/mcc_medical.csv");
        assert!(parse::<MccRow>("x.csv", "mcc,description,default_outcome,rationale_source\n").is_err());
    }

    #[test]
    fn directory_ids_are_stable_uuidv7() {
        let id = directory_id("mer_", "CVS Pharmacy");
        assert_eq!(id, directory_id("mer_", "CVS Pharmacy"));
        assert_eq!(id.len(), 4 + 32);
        assert_eq!(&id[4 + 12..4 + 13], "7", "version nibble");
        assert_ne!(id, directory_id("mer_", "Walgreens"));
    }
}
