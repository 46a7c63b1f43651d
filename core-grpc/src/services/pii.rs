//! Reads of personal data (docs/pii.md): a user's identity records and an
//! account's ACH numbers, opened from their sealed columns, each read
//! recorded in the audit trail (partner, key, user token, user, endpoint,
//! request id, time) in the same transaction, before it is answered: a read
//! that cannot be recorded is not served. The operator lists the trail with
//! `sail audit list`.

use entities::enums::ConnectionStatus;
use entities::{account, connection, identity_record, pii_read, user};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect, Set,
};

use crate::domain::{IdKind, new_id, time};
use crate::error::CoreError;
use crate::platform::crypto::{Keyring, columns};
use crate::platform::db::begin_write;
use crate::services::accounts;
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

/// Who is reading, with which credentials: what the audit trail records.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    pub partner_id: &'a str,
    pub key_id: &'a str,
    pub user_token_id: &'a str,
    pub request_id: Option<&'a str>,
}

/// The REST form of the identity operation, as the audit trail names it.
pub const IDENTITY_ENDPOINT: &str = "GET /users/{user_id}/identity";
/// The REST form of the account numbers operation.
pub const NUMBERS_ENDPOINT: &str = "GET /users/{user_id}/accounts/{account_id}/numbers";

async fn record(
    db: &impl ConnectionTrait,
    reader: &Reader<'_>,
    user_id: &str,
    endpoint: &str,
    account_id: Option<&str>,
) -> Result<(), CoreError> {
    pii_read::ActiveModel {
        id: Set(new_id(IdKind::PiiRead)),
        partner_id: Set(reader.partner_id.to_string()),
        key_id: Set(reader.key_id.to_string()),
        user_token_id: Set(reader.user_token_id.to_string()),
        user_id: Set(user_id.to_string()),
        endpoint: Set(endpoint.to_string()),
        account_id: Set(account_id.map(str::to_string)),
        request_id: Set(reader.request_id.map(str::to_string)),
        created_at: Set(time::now()),
    }
    .insert(db)
    .await?;
    Ok(())
}

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
    keyring: &Keyring,
    reader: &Reader<'_>,
    user_id: &str,
) -> Result<UserIdentity, CoreError> {
    let txn = begin_write(db).await?;
    let user = users::get_user(&*txn, reader.partner_id, user_id).await?;
    let profile = users::profile(keyring, &user)?;
    let records = identity_record::Entity::find()
        .filter(identity_record::Column::UserId.eq(user.id.as_str()))
        .filter(identity_record::Column::PartnerId.eq(reader.partner_id))
        .order_by_asc(identity_record::Column::Id)
        .all(&*txn)
        .await?;
    let mut found = Vec::with_capacity(records.len());
    for record in records {
        let Some(owner) = connection::Entity::find_by_id(record.connection_id.as_str()).one(&*txn).await? else {
            continue;
        };
        if owner.status == ConnectionStatus::Disconnected || !connections::has_product(&owner, Product::Identity) {
            continue;
        }
        let json = keyring.open(columns::IDENTITY_RECORD, &record.id, &record.data)?;
        let identity: StoredIdentity =
            serde_json::from_str(&json).map_err(|err| CoreError::Internal(format!("identity record: {err}")))?;
        found.push((owner, identity));
    }
    record(&*txn, reader, &user.id, IDENTITY_ENDPOINT, None).await?;
    txn.commit().await?;
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
    keyring: &Keyring,
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
    let account_number = keyring.open(columns::ACH_ACCOUNT, &account.id, number)?;
    let routing_number = keyring.open(columns::ACH_ROUTING, &account.id, routing)?;
    record(&*txn, reader, &account.user_id, NUMBERS_ENDPOINT, Some(&account.id)).await?;
    txn.commit().await?;
    Ok(AccountNumbers { account, account_number, routing_number })
}

/// The audit trail, newest first, optionally for one partner or one user.
pub async fn list_reads(
    db: &impl ConnectionTrait,
    partner_id: Option<&str>,
    user_id: Option<&str>,
    limit: u64,
) -> Result<Vec<pii_read::Model>, CoreError> {
    let mut query = pii_read::Entity::find();
    if let Some(partner_id) = partner_id {
        query = query.filter(pii_read::Column::PartnerId.eq(partner_id));
    }
    if let Some(user_id) = user_id {
        query = query.filter(pii_read::Column::UserId.eq(user_id));
    }
    Ok(query.order_by_desc(pii_read::Column::Id).limit(limit).all(db).await?)
}
