//! Reads of personal data (docs/pii.md): a user's identity records and an
//! account's ACH numbers, opened from their sealed columns, each read
//! recorded in the audit trail (`audit`: partner, key, user token, user,
//! endpoint, request id, time) in the same transaction, before it is answered: a read
//! that cannot be recorded is not served. The operator lists the trail with
//! `sail audit list`.

use entities::enums::ConnectionStatus;
use entities::{account, connection, identity_record, user};
use sea_orm::{ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder};

use crate::error::CoreError;
use crate::platform::crypto::{Sealer, columns};
use crate::platform::db::begin_write;
use crate::platform::vault::Vault;
use crate::services::accounts;
use crate::services::audit::{Reader, record};
use crate::services::connections::{self, Product};
use crate::services::users::{self, Profile};

/// The owner's identity as a provider reports it (sealed as JSON).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StoredIdentity {
    pub names: Vec<String>,
    pub emails: Vec<String>,
    pub phone_numbers: Vec<String>,
    pub addresses: Vec<StoredAddress>,
}

/// A postal address in an identity record.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StoredAddress {
    pub street: String,
    pub city: String,
    pub state: String,
    pub zip: String,
    pub country: String,
}

/// The REST form of the identity operation, as the audit trail names it.
pub const IDENTITY_ENDPOINT: &str = "GET /users/{user_id}/identity";
/// The REST form of the account numbers operation.
pub const NUMBERS_ENDPOINT: &str = "GET /users/{user_id}/accounts/{account_id}/numbers";

/// A user's identity: the profile given at creation, and one record per
/// identity-enabled connection that is not disconnected, oldest first.
pub struct UserIdentity {
    pub user: user::Model,
    pub profile: Profile,
    pub connections: Vec<(connection::Model, StoredIdentity)>,
}

/// Reads (and records the read of) a user's identity.
pub async fn read_identity(
    db: &DatabaseConnection,
    vault: &Vault,
    reader: &Reader<'_>,
    user_id: &str,
) -> Result<UserIdentity, CoreError> {
    let txn = begin_write(db).await?;
    let user = users::get_user(&*txn, reader.partner_id, user_id).await?;
    let sealer = vault.sealer(&*txn, &user.id).await?;
    let identity = identity_of(&*txn, &sealer, user, Shown::Current).await?;
    record(&*txn, reader, &identity.user.id, IDENTITY_ENDPOINT, None).await?;
    txn.commit().await?;
    Ok(identity)
}

/// Which identity records a read shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shown {
    /// Those of connections that still have the identity product and are
    /// not disconnected (the identity endpoint).
    Current,
    /// Every record Sail holds (an export).
    All,
}

/// The user's profile and identity records, opened.
async fn identity_of(
    db: &impl ConnectionTrait,
    sealer: &Sealer<'_>,
    user: user::Model,
    shown: Shown,
) -> Result<UserIdentity, CoreError> {
    let profile = users::profile(sealer, &user)?;
    let records = identity_record::Entity::find()
        .filter(identity_record::Column::UserId.eq(user.id.as_str()))
        .filter(identity_record::Column::PartnerId.eq(user.partner_id.as_str()))
        .order_by_asc(identity_record::Column::Id)
        .all(db)
        .await?;
    let mut found = Vec::with_capacity(records.len());
    for record in records {
        let Some(owner) = connection::Entity::find_by_id(record.connection_id.as_str()).one(db).await? else {
            continue;
        };
        let current =
            owner.status != ConnectionStatus::Disconnected && connections::has_product(&owner, Product::Identity);
        if shown == Shown::Current && !current {
            continue;
        }
        let json = sealer.open(columns::IDENTITY_RECORD, &record.id, &record.data)?;
        let identity: StoredIdentity =
            serde_json::from_str(&json).map_err(|err| CoreError::Internal(format!("identity record: {err}")))?;
        found.push((owner, identity));
    }
    Ok(UserIdentity { user, profile, connections: found })
}

/// An account's ACH numbers, opened.
pub struct AccountNumbers {
    pub account: account::Model,
    pub account_number: String,
    pub routing_number: String,
}

/// Reads (and records the read of) an account's ACH numbers. The owning
/// connection needs the `account_numbers` product; an account without
/// numbers (an FSA or HRA) is refused naming `account_id`.
pub async fn read_account_numbers(
    db: &DatabaseConnection,
    vault: &Vault,
    reader: &Reader<'_>,
    user_id: &str,
    account_id: &str,
) -> Result<AccountNumbers, CoreError> {
    let txn = begin_write(db).await?;
    let view = accounts::get_account(&*txn, reader.partner_id, user_id, account_id).await?;
    let account = view.account;
    let owner = connections::get_connection(&*txn, reader.partner_id, &account.user_id, &account.connection_id).await?;
    connections::require_product(&owner, Product::AccountNumbers, "account_id")?;
    let (Some(number), Some(routing)) = (&account.ach_account_number, &account.ach_routing_number) else {
        return Err(CoreError::invalid(
            "account_id",
            format!(
                "Account {} is an {} account, which has no ACH numbers: only HSAs take deposits.",
                account.id,
                account.r#type.as_str().to_uppercase()
            ),
        ));
    };
    let sealer = vault.sealer(&*txn, &account.user_id).await?;
    let account_number = sealer.open(columns::ACH_ACCOUNT, &account.id, number)?;
    let routing_number = sealer.open(columns::ACH_ROUTING, &account.id, routing)?;
    record(&*txn, reader, &account.user_id, NUMBERS_ENDPOINT, Some(&account.id)).await?;
    txn.commit().await?;
    Ok(AccountNumbers { account, account_number, routing_number })
}

/// The REST form of the export operation.
pub const EXPORT_ENDPOINT: &str = "GET /users/{user_id}/export";

/// An account's ACH numbers as an export shows them: the last four digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaskedNumbers {
    pub account_id: String,
    pub account_last4: String,
    pub routing_last4: String,
}

/// Everything Sail holds about a user, opened: what an export answers.
pub struct UserExport {
    pub external_user_id: String,
    pub identity: UserIdentity,
    pub connections: Vec<connection::Model>,
    pub accounts: Vec<accounts::AccountView>,
    pub numbers: Vec<MaskedNumbers>,
    /// Newest purchase first.
    pub expenses: Vec<crate::services::expenses::ExpenseView>,
    /// The receipts of those expenses, by expense id.
    pub receipts: std::collections::HashMap<String, Vec<entities::receipt::Model>>,
}

/// The last four characters of a number.
fn last4(number: &str) -> String {
    let chars: Vec<char> = number.chars().collect();
    chars[chars.len().saturating_sub(4)..].iter().collect()
}

/// Reads (and records the read of) everything Sail holds about a user
/// (docs/pii.md#exporting-a-user): profile and every identity record,
/// connections, accounts with their ACH numbers masked to the last four,
/// expenses with their evidence and receipts. One read transaction, so the
/// parts agree; the audit row commits with it.
pub async fn export_user(
    db: &DatabaseConnection,
    vault: &Vault,
    reader: &Reader<'_>,
    user_id: &str,
) -> Result<UserExport, CoreError> {
    use entities::transaction;

    let txn = begin_write(db).await?;
    let user = users::get_user(&*txn, reader.partner_id, user_id).await?;
    let sealer = vault.sealer(&*txn, &user.id).await?;
    let external_user_id = users::external_user_id(&sealer, &user.id, &user.external_user_id)?;
    let identity = identity_of(&*txn, &sealer, user, Shown::All).await?;
    let owner = identity.user.id.clone();
    let connections = connection::Entity::find()
        .filter(connection::Column::UserId.eq(owner.as_str()))
        .filter(connection::Column::PartnerId.eq(reader.partner_id))
        .order_by_asc(connection::Column::Id)
        .all(&*txn)
        .await?;
    let found_accounts = account::Entity::find()
        .filter(account::Column::UserId.eq(owner.as_str()))
        .filter(account::Column::PartnerId.eq(reader.partner_id))
        .order_by_asc(account::Column::Id)
        .all(&*txn)
        .await?;
    let mut numbers = Vec::new();
    for found in &found_accounts {
        if let (Some(number), Some(routing)) = (&found.ach_account_number, &found.ach_routing_number) {
            numbers.push(MaskedNumbers {
                account_id: found.id.clone(),
                account_last4: last4(&sealer.open(columns::ACH_ACCOUNT, &found.id, number)?),
                routing_last4: last4(&sealer.open(columns::ACH_ROUTING, &found.id, routing)?),
            });
        }
    }
    let accounts = accounts::views(&*txn, found_accounts).await?;
    let expenses = transaction::Entity::find()
        .filter(transaction::Column::UserId.eq(owner.as_str()))
        .filter(transaction::Column::PartnerId.eq(reader.partner_id))
        .order_by_desc(transaction::Column::Date)
        .order_by_desc(transaction::Column::Id)
        .into_partial_model::<crate::services::expenses::ExpenseView>()
        .all(&*txn)
        .await?;
    let mut receipts = std::collections::HashMap::new();
    let expense_ids: Vec<String> = expenses.iter().filter(|t| t.has_receipts).map(|t| t.expense_id.clone()).collect();
    // A bounded number of ids per query, however many expenses there are.
    for ids in expense_ids.chunks(500) {
        receipts.extend(crate::services::receipts::receipts_of(&*txn, ids).await?);
    }
    record(&*txn, reader, &owner, EXPORT_ENDPOINT, None).await?;
    txn.commit().await?;
    Ok(UserExport { external_user_id, identity, connections, accounts, numbers, expenses, receipts })
}
