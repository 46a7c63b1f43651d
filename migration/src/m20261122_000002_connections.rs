//! Connections, the accounts behind them, the transactions they carry (with
//! their adjudication: a transaction row is also its expense), the jobs table
//! that workers claim, and the event log.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Connections::Table)
                    .col(string(Connections::Id).primary_key())
                    .col(string(Connections::PartnerId))
                    .col(string(Connections::UserId))
                    .col(string(Connections::Type))
                    .col(string(Connections::Status))
                    .col(string(Connections::Products))
                    .col(string(Connections::ProviderKind))
                    .col(string_null(Connections::ProviderId))
                    .col(string(Connections::ProviderName))
                    .col(string_null(Connections::ProviderIconUrl))
                    .col(string_null(Connections::SandboxUsername))
                    .col(string_null(Connections::ErrorCode))
                    .col(string_null(Connections::ErrorMessage))
                    .col(boolean_null(Connections::ErrorRecoverable))
                    .col(timestamp_with_time_zone_null(Connections::LastSyncAt))
                    .col(timestamp_with_time_zone(Connections::CreatedAt))
                    .col(timestamp_with_time_zone(Connections::UpdatedAt))
                    .foreign_key(
                        ForeignKey::create().from(Connections::Table, Connections::UserId).to(Users::Table, Users::Id),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("connections_user")
                    .table(Connections::Table)
                    .col(Connections::UserId)
                    .col(Connections::Id)
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(Accounts::Table)
                    .col(string(Accounts::Id).primary_key())
                    .col(string(Accounts::PartnerId))
                    .col(string(Accounts::UserId))
                    .col(string(Accounts::ConnectionId))
                    .col(string(Accounts::ExternalId))
                    .col(string(Accounts::Name))
                    .col(string(Accounts::Type))
                    .col(string(Accounts::StartDate))
                    .col(string_null(Accounts::EndDate))
                    .col(big_integer_null(Accounts::CashMinor))
                    .col(big_integer_null(Accounts::InvestedMinor))
                    .col(integer_null(Accounts::TaxYear))
                    .col(big_integer_null(Accounts::ContributionsYtdMinor))
                    .col(big_integer_null(Accounts::ContributionLimitMinor))
                    .col(string_null(Accounts::Coverage))
                    .col(text_null(Accounts::HoldingsJson))
                    .col(timestamp_with_time_zone_null(Accounts::LastSyncAt))
                    .col(timestamp_with_time_zone(Accounts::CreatedAt))
                    .foreign_key(
                        ForeignKey::create()
                            .from(Accounts::Table, Accounts::ConnectionId)
                            .to(Connections::Table, Connections::Id),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("accounts_user")
                    .table(Accounts::Table)
                    .col(Accounts::UserId)
                    .col(Accounts::Id)
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("accounts_connection")
                    .table(Accounts::Table)
                    .col(Accounts::ConnectionId)
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(Jobs::Table)
                    .col(string(Jobs::Id).primary_key())
                    .col(string(Jobs::PartnerId))
                    .col(string(Jobs::Kind))
                    .col(string(Jobs::Status))
                    .col(string_null(Jobs::UserId))
                    .col(string_null(Jobs::ConnectionId))
                    .col(integer(Jobs::Attempts).default(0))
                    .col(big_integer_null(Jobs::LeaseUntilMs))
                    .col(integer(Jobs::Accepted).default(0))
                    .col(integer(Jobs::DuplicatesUpdated).default(0))
                    .col(integer(Jobs::Processed).default(0))
                    .col(text_null(Jobs::LastError))
                    // The work itself (a validated pushed batch), until done.
                    .col(text_null(Jobs::Payload))
                    .col(timestamp_with_time_zone(Jobs::CreatedAt))
                    .col(timestamp_with_time_zone_null(Jobs::StartedAt))
                    .col(timestamp_with_time_zone_null(Jobs::CompletedAt))
                    .to_owned(),
            )
            .await?;
        // The claim query scans runnable jobs oldest first.
        manager
            .create_index(
                Index::create().name("jobs_runnable").table(Jobs::Table).col(Jobs::Status).col(Jobs::Id).to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(Transactions::Table)
                    .col(string(Transactions::Id).primary_key())
                    .col(string(Transactions::PartnerId))
                    .col(string(Transactions::UserId))
                    .col(string(Transactions::ConnectionId))
                    .col(string(Transactions::ExternalTransactionId))
                    .col(string_null(Transactions::JobId))
                    .col(string(Transactions::Date))
                    .col(big_integer(Transactions::AmountMinor))
                    .col(string(Transactions::Currency))
                    .col(string(Transactions::Description))
                    .col(string_null(Transactions::MerchantName))
                    .col(string_null(Transactions::Mcc))
                    .col(text_null(Transactions::ItemsJson))
                    // The expense view of the transaction: its adjudication.
                    .col(string(Transactions::ExpenseId).unique_key())
                    .col(string(Transactions::Status))
                    .col(string_null(Transactions::Category))
                    .col(string_null(Transactions::ReasonCode))
                    .col(text_null(Transactions::ReasonMessage))
                    .col(string_null(Transactions::Rule))
                    .col(string_null(Transactions::MerchantId))
                    .col(string_null(Transactions::MerchantDisplayName))
                    .col(big_integer_null(Transactions::EligibleAmountMinor))
                    .col(text_null(Transactions::ItemResultsJson))
                    .col(integer(Transactions::AdjudicationCount).default(0))
                    .col(timestamp_with_time_zone_null(Transactions::AdjudicatedAt))
                    .col(timestamp_with_time_zone(Transactions::CreatedAt))
                    .col(timestamp_with_time_zone(Transactions::UpdatedAt))
                    .foreign_key(
                        ForeignKey::create()
                            .from(Transactions::Table, Transactions::ConnectionId)
                            .to(Connections::Table, Connections::Id),
                    )
                    .to_owned(),
            )
            .await?;
        // Idempotency of pushed transactions: one row per id per connection.
        manager
            .create_index(
                Index::create()
                    .name("transactions_connection_external_id")
                    .table(Transactions::Table)
                    .col(Transactions::ConnectionId)
                    .col(Transactions::ExternalTransactionId)
                    .unique()
                    .to_owned(),
            )
            .await?;
        // Expense listings: a user's expenses by date, newest first.
        manager
            .create_index(
                Index::create()
                    .name("transactions_user_date")
                    .table(Transactions::Table)
                    .col(Transactions::UserId)
                    .col(Transactions::Date)
                    .col(Transactions::Id)
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(Events::Table)
                    .col(string(Events::Id).primary_key())
                    .col(string(Events::PartnerId))
                    .col(string(Events::Type))
                    .col(text(Events::Data))
                    .col(timestamp_with_time_zone(Events::CreatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("events_partner")
                    .table(Events::Table)
                    .col(Events::PartnerId)
                    .col(Events::Id)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            Events::Table.into_iden(),
            Transactions::Table.into_iden(),
            Jobs::Table.into_iden(),
            Accounts::Table.into_iden(),
            Connections::Table.into_iden(),
        ] {
            manager.drop_table(Table::drop().table(table).to_owned()).await?;
        }
        Ok(())
    }
}

#[derive(DeriveIden)]
enum Users {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Connections {
    Table,
    Id,
    PartnerId,
    UserId,
    Type,
    Status,
    Products,
    ProviderKind,
    ProviderId,
    ProviderName,
    ProviderIconUrl,
    SandboxUsername,
    ErrorCode,
    ErrorMessage,
    ErrorRecoverable,
    LastSyncAt,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum Accounts {
    Table,
    Id,
    PartnerId,
    UserId,
    ConnectionId,
    ExternalId,
    Name,
    Type,
    StartDate,
    EndDate,
    CashMinor,
    InvestedMinor,
    TaxYear,
    ContributionsYtdMinor,
    ContributionLimitMinor,
    Coverage,
    HoldingsJson,
    LastSyncAt,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Jobs {
    Table,
    Id,
    PartnerId,
    Kind,
    Status,
    UserId,
    ConnectionId,
    Attempts,
    LeaseUntilMs,
    Accepted,
    DuplicatesUpdated,
    Processed,
    LastError,
    Payload,
    CreatedAt,
    StartedAt,
    CompletedAt,
}

#[derive(DeriveIden)]
enum Transactions {
    Table,
    Id,
    PartnerId,
    UserId,
    ConnectionId,
    ExternalTransactionId,
    JobId,
    Date,
    AmountMinor,
    Currency,
    Description,
    MerchantName,
    Mcc,
    ItemsJson,
    ExpenseId,
    Status,
    Category,
    ReasonCode,
    ReasonMessage,
    Rule,
    MerchantId,
    MerchantDisplayName,
    EligibleAmountMinor,
    ItemResultsJson,
    AdjudicationCount,
    AdjudicatedAt,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum Events {
    Table,
    Id,
    PartnerId,
    Type,
    Data,
    CreatedAt,
}
