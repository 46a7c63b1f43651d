//! Personal data behind two credentials (docs/pii.md): user tokens, the
//! identity records and ACH numbers that sandbox providers report, the
//! audit trail of every read, the keys the sealed columns depend on, and the
//! blind index that replaces lookups by a clear external user id.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(EncryptionKeys::Table)
                    .col(string(EncryptionKeys::Id).primary_key())
                    .col(text(EncryptionKeys::Verifier))
                    .col(timestamp_with_time_zone(EncryptionKeys::CreatedAt))
                    .col(timestamp_with_time_zone_null(EncryptionKeys::RetiredAt))
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(UserTokens::Table)
                    .col(string(UserTokens::Id).primary_key())
                    .col(string(UserTokens::PartnerId))
                    .col(string(UserTokens::UserId))
                    .col(string(UserTokens::KeyId))
                    .col(string(UserTokens::TokenHash).unique_key())
                    .col(string(UserTokens::Scopes))
                    .col(timestamp_with_time_zone(UserTokens::ExpiresAt))
                    .col(timestamp_with_time_zone(UserTokens::CreatedAt))
                    .col(timestamp_with_time_zone_null(UserTokens::RevokedAt))
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(IdentityRecords::Table)
                    .col(string(IdentityRecords::Id).primary_key())
                    .col(string(IdentityRecords::PartnerId))
                    .col(string(IdentityRecords::UserId))
                    .col(string(IdentityRecords::ConnectionId).unique_key())
                    .col(text(IdentityRecords::Data))
                    .col(timestamp_with_time_zone(IdentityRecords::CreatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("identity_records_user")
                    .table(IdentityRecords::Table)
                    .col(IdentityRecords::UserId)
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(PiiReads::Table)
                    .col(string(PiiReads::Id).primary_key())
                    .col(string(PiiReads::PartnerId))
                    .col(string(PiiReads::KeyId))
                    .col(string(PiiReads::UserTokenId))
                    .col(string(PiiReads::UserId))
                    .col(string(PiiReads::Endpoint))
                    .col(string_null(PiiReads::AccountId))
                    .col(string_null(PiiReads::RequestId))
                    .col(timestamp_with_time_zone(PiiReads::CreatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create().name("pii_reads_partner").table(PiiReads::Table).col(PiiReads::PartnerId).to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create().name("pii_reads_user").table(PiiReads::Table).col(PiiReads::UserId).to_owned(),
            )
            .await?;

        for column in [Accounts::AchAccountNumber, Accounts::AchRoutingNumber] {
            manager.alter_table(Table::alter().table(Accounts::Table).add_column(text_null(column)).to_owned()).await?;
        }

        // Sealed values are random: uniqueness and lookups move to the blind
        // index of the external user id.
        manager
            .alter_table(
                Table::alter().table(Users::Table).add_column(string_null(Users::ExternalUserIdHash)).to_owned(),
            )
            .await?;
        manager.drop_index(Index::drop().name("users_partner_external_id").table(Users::Table).to_owned()).await?;
        manager
            .create_index(
                Index::create()
                    .name("users_partner_external_hash")
                    .table(Users::Table)
                    .col(Users::PartnerId)
                    .col(Users::ExternalUserIdHash)
                    .unique()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.drop_index(Index::drop().name("users_partner_external_hash").table(Users::Table).to_owned()).await?;
        manager
            .alter_table(Table::alter().table(Users::Table).drop_column(Users::ExternalUserIdHash).to_owned())
            .await?;
        for column in [Accounts::AchAccountNumber, Accounts::AchRoutingNumber] {
            manager.alter_table(Table::alter().table(Accounts::Table).drop_column(column).to_owned()).await?;
        }
        for table in [
            PiiReads::Table.into_iden(),
            IdentityRecords::Table.into_iden(),
            UserTokens::Table.into_iden(),
            EncryptionKeys::Table.into_iden(),
        ] {
            manager.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}

#[derive(DeriveIden)]
enum EncryptionKeys {
    Table,
    Id,
    Verifier,
    CreatedAt,
    RetiredAt,
}

#[derive(DeriveIden)]
enum UserTokens {
    Table,
    Id,
    PartnerId,
    UserId,
    KeyId,
    TokenHash,
    Scopes,
    ExpiresAt,
    CreatedAt,
    RevokedAt,
}

#[derive(DeriveIden)]
enum IdentityRecords {
    Table,
    Id,
    PartnerId,
    UserId,
    ConnectionId,
    Data,
    CreatedAt,
}

#[derive(DeriveIden)]
enum PiiReads {
    Table,
    Id,
    PartnerId,
    KeyId,
    UserTokenId,
    UserId,
    Endpoint,
    AccountId,
    RequestId,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Accounts {
    Table,
    AchAccountNumber,
    AchRoutingNumber,
}

#[derive(DeriveIden)]
enum Users {
    Table,
    PartnerId,
    ExternalUserIdHash,
}
