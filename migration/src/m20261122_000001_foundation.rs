//! Partners, their API keys, their users, and the two directories.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Partners::Table)
                    .col(string(Partners::Id).primary_key())
                    .col(string(Partners::Name))
                    .col(timestamp_with_time_zone(Partners::CreatedAt))
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(ApiKeys::Table)
                    .col(string(ApiKeys::Id).primary_key())
                    .col(string(ApiKeys::PartnerId))
                    .col(string_null(ApiKeys::Name))
                    .col(string(ApiKeys::SecretHash).unique_key())
                    .col(string(ApiKeys::SecretLast4))
                    .col(string(ApiKeys::Scopes))
                    .col(timestamp_with_time_zone(ApiKeys::CreatedAt))
                    .col(timestamp_with_time_zone_null(ApiKeys::RevokedAt))
                    .foreign_key(
                        ForeignKey::create().from(ApiKeys::Table, ApiKeys::PartnerId).to(Partners::Table, Partners::Id),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create().name("api_keys_partner").table(ApiKeys::Table).col(ApiKeys::PartnerId).to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(Users::Table)
                    .col(string(Users::Id).primary_key())
                    .col(string(Users::PartnerId))
                    .col(string(Users::ExternalUserId))
                    .col(string(Users::Status))
                    .col(string_null(Users::Email))
                    .col(string_null(Users::FirstName))
                    .col(string_null(Users::LastName))
                    .col(string_null(Users::Phone))
                    .col(string_null(Users::AddressStreet))
                    .col(string_null(Users::AddressCity))
                    .col(string_null(Users::AddressState))
                    .col(string_null(Users::AddressZip))
                    .col(string_null(Users::AddressCountry))
                    .col(timestamp_with_time_zone(Users::CreatedAt))
                    .col(timestamp_with_time_zone(Users::UpdatedAt))
                    .foreign_key(
                        ForeignKey::create().from(Users::Table, Users::PartnerId).to(Partners::Table, Partners::Id),
                    )
                    .to_owned(),
            )
            .await?;
        // One user per partner identity; also the index for user listings.
        manager
            .create_index(
                Index::create()
                    .name("users_partner_external_id")
                    .table(Users::Table)
                    .col(Users::PartnerId)
                    .col(Users::ExternalUserId)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("users_partner_id")
                    .table(Users::Table)
                    .col(Users::PartnerId)
                    .col(Users::Id)
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(Merchants::Table)
                    .col(string(Merchants::Id).primary_key())
                    .col(string(Merchants::Name))
                    .col(string(Merchants::MainUrl))
                    .col(string_null(Merchants::LogoUrl))
                    .col(boolean(Merchants::ItemLevelReceipts))
                    .col(string(Merchants::IiasCertified))
                    .col(string(Merchants::TypicalOutcome))
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(Administrators::Table)
                    .col(string(Administrators::Id).primary_key())
                    .col(string(Administrators::Name))
                    .col(string(Administrators::MainUrl))
                    .col(string(Administrators::AccountTypes))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            Users::Table.into_iden(),
            ApiKeys::Table.into_iden(),
            Partners::Table.into_iden(),
            Merchants::Table.into_iden(),
            Administrators::Table.into_iden(),
        ] {
            manager.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}

#[derive(DeriveIden)]
enum Partners {
    Table,
    Id,
    Name,
    CreatedAt,
}

#[derive(DeriveIden)]
enum ApiKeys {
    Table,
    Id,
    PartnerId,
    Name,
    SecretHash,
    SecretLast4,
    Scopes,
    CreatedAt,
    RevokedAt,
}

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
    PartnerId,
    ExternalUserId,
    Status,
    Email,
    FirstName,
    LastName,
    Phone,
    AddressStreet,
    AddressCity,
    AddressState,
    AddressZip,
    AddressCountry,
    CreatedAt,
    UpdatedAt,
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
