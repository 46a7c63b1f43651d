//! The merchant and administrator directories, loaded from the reference data
//! in `data/merchants.csv` and `data/administrators.csv` (verbatim copies of
//! `../shared/data/`, see `data/PROVENANCE.md`).
//!
//! Directory ids are deterministic: a UUIDv7 whose timestamp is fixed and whose
//! random bits come from a hash of the name, so `mer_…` and `adm_…` ids are the
//! same in every database and partners may keep them.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::ConnectionTrait;
use sha2::{Digest, Sha256};

/// The merchants CSV, as checked in.
pub const MERCHANTS_CSV: &str = include_str!("../../data/merchants.csv");
/// The administrators CSV, as checked in.
pub const ADMINISTRATORS_CSV: &str = include_str!("../../data/administrators.csv");

/// 2025-01-01T00:00:00Z, the timestamp part of every directory id.
const DIRECTORY_EPOCH_MS: u64 = 1_735_689_600_000;

/// A stable `prefix` + UUIDv7 id for a directory entry named `name`.
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

fn parse<T: serde::de::DeserializeOwned>(csv_text: &str) -> Result<Vec<T>, DbErr> {
    csv::Reader::from_reader(csv_text.as_bytes())
        .deserialize()
        .collect::<Result<Vec<T>, _>>()
        .map_err(|err| DbErr::Custom(format!("reference data does not parse: {err}")))
}

/// The merchant directory as checked in.
pub fn merchants() -> Result<Vec<MerchantSeed>, DbErr> {
    parse(MERCHANTS_CSV)
}

/// The administrator directory as checked in.
pub fn administrators() -> Result<Vec<AdministratorSeed>, DbErr> {
    parse(ADMINISTRATORS_CSV)
}

/// Inserts or refreshes every directory row; rows are never deleted, so ids a
/// partner stored keep resolving.
pub async fn sync_directories<C: ConnectionTrait>(db: &C) -> Result<(), DbErr> {
    let mut insert = Query::insert();
    insert
        .into_table(Merchants::Table)
        .columns([
            Merchants::Id,
            Merchants::Name,
            Merchants::MainUrl,
            Merchants::LogoUrl,
            Merchants::ItemLevelReceipts,
            Merchants::IiasCertified,
            Merchants::TypicalOutcome,
        ])
        .on_conflict(
            OnConflict::column(Merchants::Id)
                .update_columns([
                    Merchants::Name,
                    Merchants::MainUrl,
                    Merchants::ItemLevelReceipts,
                    Merchants::IiasCertified,
                    Merchants::TypicalOutcome,
                ])
                .to_owned(),
        );
    for merchant in merchants()? {
        insert.values_panic([
            merchant.id().into(),
            merchant.name.clone().into(),
            merchant.main_url.clone().into(),
            Option::<String>::None.into(),
            merchant.item_level_receipts().into(),
            merchant.iias_certified.clone().into(),
            merchant.typical_outcome.clone().into(),
        ]);
    }
    db.execute(&insert).await?;

    let mut insert = Query::insert();
    insert
        .into_table(Administrators::Table)
        .columns([Administrators::Id, Administrators::Name, Administrators::MainUrl, Administrators::AccountTypes])
        .on_conflict(
            OnConflict::column(Administrators::Id)
                .update_columns([Administrators::Name, Administrators::MainUrl, Administrators::AccountTypes])
                .to_owned(),
        );
    for admin in administrators()? {
        insert.values_panic([
            admin.id().into(),
            admin.name.clone().into(),
            admin.main_url.clone().into(),
            admin.account_types.clone().into(),
        ]);
    }
    db.execute(&insert).await?;
    Ok(())
}

#[derive(DeriveIden)]
enum Merchants {
    Table,
    Id,
    Name,
    MainUrl,
    LogoUrl,
    ItemLevelReceipts,
    IiasCertified,
    TypicalOutcome,
}

#[derive(DeriveIden)]
enum Administrators {
    Table,
    Id,
    Name,
    MainUrl,
    AccountTypes,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_parse_and_ids_are_stable_and_well_formed() {
        let merchants = merchants().unwrap();
        assert!(merchants.len() >= 50);
        let cvs = merchants.iter().find(|m| m.name == "CVS Pharmacy").unwrap();
        assert_eq!(cvs.id(), directory_id("mer_", "CVS Pharmacy"));
        assert!(cvs.id().starts_with("mer_") && cvs.id().len() == 4 + 32);
        let uuid = uuid::Uuid::parse_str(&cvs.id()[4..]).unwrap();
        assert_eq!(uuid.get_version_num(), 7);
        assert!(cvs.item_level_receipts());
        let admins = administrators().unwrap();
        assert_eq!(admins.len(), 16);
        assert_ne!(admins[0].id(), admins[1].id());
    }
}
