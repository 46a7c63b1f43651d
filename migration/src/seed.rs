//! Seeding the merchant and administrator directories into the database from
//! the reference data, which `sail_engine::reference` reads for everyone
//! (ids included: deterministic, so partners may keep them).

use sail_engine::reference::{self, ReferenceError};
use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::ConnectionTrait;

pub use sail_engine::reference::{AdministratorSeed, MerchantSeed, directory_id};

fn loaded<T>(rows: Result<Vec<T>, ReferenceError>) -> Result<Vec<T>, DbErr> {
    rows.map_err(|err| DbErr::Custom(err.to_string()))
}

/// The merchant directory as checked in (read by `sail_engine::reference`).
pub fn merchants() -> Result<Vec<MerchantSeed>, DbErr> {
    loaded(reference::merchants())
}

/// The administrator directory as checked in.
pub fn administrators() -> Result<Vec<AdministratorSeed>, DbErr> {
    loaded(reference::administrators())
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
