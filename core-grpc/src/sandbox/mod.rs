//! The sandbox providers (docs/contract.md#hosted-sessions-and-the-sandbox): card issuers, the stores of the
//! merchant directory and the administrators of the administrator directory,
//! behaving from the outside like real ones. Linking creates an `aggregating`
//! connection and a durable sync job; the sync fills accounts or purchase
//! history and makes the connection `active` (or `error` for `user_error`).
//! [`SandboxProviders`] is the core's `Providers` (`providers`): hosted
//! sessions and the worker reach the sandbox only through it.

pub mod events;
pub mod generate;

use chrono::NaiveDate;
use entities::enums::AccountType;
use entities::{account, administrator, connection, identity_record, job, merchant};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder, Set,
};

use crate::domain::{IdKind, new_id, time};
use crate::error::CoreError;
use crate::platform::crypto::{Sealer, columns};
use crate::platform::db::{WriteTxn, begin_write};
use crate::platform::jobs::{self, JobKind, NewJob};
use crate::platform::vault::Vault;
use crate::services::connections::{
    self, ConnectionStatus, ConnectionType, ConnectionTypeRules, Product, ProviderRef, not_a_provider_kind,
};
use crate::services::expenses::{self, NewTransaction, OnRepeat};
use crate::services::outbox;
use crate::services::providers::{Credential, LinkRequest, ProviderFuture, Providers};
use crate::services::users;
use sail_api::pb;
use sail_engine::Engine;

/// The sandbox card issuers (there is no real issuer to reach from here).
pub const CARD_ISSUERS: [&str; 3] = ["Harbor Bank", "Lighthouse Credit Union", "Keel Card Services"];

/// The stable `fin_` id of a sandbox card issuer.
pub fn card_issuer_id(name: &str) -> String {
    sail_engine::reference::directory_id("fin_", name)
}

/// The password every sandbox login takes (docs/hosted-sessions.md).
pub const SANDBOX_PASSWORD: &str = "pass_good";

/// The sandbox as the core's [`Providers`]: its card issuers, stores and
/// administrators, behaving from the outside like real ones.
pub struct SandboxProviders;

impl Providers for SandboxProviders {
    fn card_issuers(&self) -> Vec<(String, String)> {
        CARD_ISSUERS.iter().map(|name| (card_issuer_id(name), name.to_string())).collect()
    }

    fn check_login(&self, username: &str, password: &str) -> Option<Credential> {
        match SandboxUser::parse(Some(username)) {
            Ok(SandboxUser::Bad) | Err(_) => None,
            Ok(_) if password != SANDBOX_PASSWORD => None,
            Ok(user) => Some(user.credential()),
        }
    }

    fn still_broken(&self, credential: &Credential) -> bool {
        credential.0 == SandboxUser::Error.as_str()
    }

    fn link<'a>(
        &'a self,
        db: &'a DatabaseConnection,
        partner_id: &'a str,
        user_id: &'a str,
        request: LinkRequest,
    ) -> ProviderFuture<'a, connection::Model> {
        Box::pin(link(db, partner_id, user_id, request))
    }

    fn sync<'a>(
        &'a self,
        db: &'a DatabaseConnection,
        engine: &'a Engine,
        vault: &'a Vault,
        claimed: &'a job::Model,
    ) -> ProviderFuture<'a, ()> {
        Box::pin(run_sync_job(db, engine, vault, claimed))
    }
}

/// The sandbox credentials of docs/contract.md#hosted-sessions-and-the-sandbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SandboxUser {
    /// Links successfully.
    Good,
    /// Refused at login with a clear message; nothing is created.
    Bad,
    /// Links a connection that lands in `error`, recoverable by reconnect.
    Error,
}

impl SandboxUser {
    /// The credential a provider keeps for this user.
    pub fn credential(self) -> Credential {
        Credential(self.as_str().to_string())
    }

    pub fn as_str(self) -> &'static str {
        match self {
            SandboxUser::Good => "user_good",
            SandboxUser::Bad => "user_bad",
            SandboxUser::Error => "user_error",
        }
    }

    /// Parses a username; absent means `user_good`.
    pub fn parse(raw: Option<&str>) -> Result<SandboxUser, CoreError> {
        match raw {
            None | Some("user_good") => Ok(SandboxUser::Good),
            Some("user_bad") => Ok(SandboxUser::Bad),
            Some("user_error") => Ok(SandboxUser::Error),
            Some(other) => Err(CoreError::invalid(
                "username",
                format!("Unknown sandbox username '{other}'; use user_good, user_bad or user_error."),
            )),
        }
    }
}

/// Finds the provider of `kind` with `provider_id`, or the first of its
/// directory when none is named.
pub async fn resolve_provider(
    db: &impl ConnectionTrait,
    kind: ConnectionType,
    provider_id: Option<&str>,
) -> Result<ProviderRef, CoreError> {
    let missing = |id: &str| CoreError::not_found("provider", "provider_id", id);
    match kind {
        ConnectionType::BenefitAccount => {
            let found = match provider_id {
                Some(id) => administrator::Entity::find_by_id(id).one(db).await?.ok_or_else(|| missing(id))?,
                None => administrator::Entity::find()
                    .order_by_asc(administrator::Column::Name)
                    .one(db)
                    .await?
                    .ok_or_else(|| missing("(default administrator)"))?,
            };
            Ok(ProviderRef { kind: "administrator", id: found.id, name: found.name, icon_url: None })
        }
        ConnectionType::Store => {
            let found = match provider_id {
                Some(id) => merchant::Entity::find_by_id(id).one(db).await?.ok_or_else(|| missing(id))?,
                None => merchant::Entity::find()
                    .filter(merchant::Column::ItemLevelReceipts.eq(true))
                    .order_by_asc(merchant::Column::Name)
                    .one(db)
                    .await?
                    .ok_or_else(|| missing("(default store)"))?,
            };
            Ok(ProviderRef { kind: "merchant", id: found.id, name: found.name, icon_url: found.logo_url })
        }
        ConnectionType::Card => {
            let name = match provider_id {
                Some(id) => CARD_ISSUERS.into_iter().find(|n| card_issuer_id(n) == id).ok_or_else(|| missing(id))?,
                None => CARD_ISSUERS[0],
            };
            Ok(ProviderRef {
                kind: "financial_institution",
                id: card_issuer_id(name),
                name: name.to_string(),
                icon_url: None,
            })
        }
        ConnectionType::External => Err(not_a_provider_kind("external")),
    }
}

/// The products a partner asks for when linking `kind`: absent or empty
/// means every product the kind offers; one it does not offer is refused,
/// naming it.
pub fn parse_products(kind: ConnectionType, requested: &[String]) -> Result<Vec<Product>, CoreError> {
    let offered = kind.products();
    if requested.is_empty() {
        return Ok(offered.to_vec());
    }
    let mut products = Vec::new();
    for (index, name) in requested.iter().enumerate() {
        let product = Product::parse(name).filter(|p| offered.contains(p)).ok_or_else(|| {
            CoreError::invalid(
                format!("products.{index}"),
                format!(
                    "A {} connection offers the products {}.",
                    kind.as_str(),
                    offered.iter().map(|p| p.as_str()).collect::<Vec<_>>().join(", ")
                ),
            )
        })?;
        if !products.contains(&product) {
            products.push(product);
        }
    }
    // Stored in the kind's own order, whatever order they were asked in.
    products.sort_by_key(|p| offered.iter().position(|o| o == p));
    Ok(products)
}

/// Links a sandbox provider for a user: the connection and its first sync
/// job commit together, so an accepted link is never left without a sync.
pub async fn link(
    db: &DatabaseConnection,
    partner_id: &str,
    user_id: &str,
    request: LinkRequest,
) -> Result<connection::Model, CoreError> {
    let user = users::require_active(db, partner_id, user_id).await?;
    let provider = resolve_provider(db, request.kind, request.provider_id.as_deref()).await?;
    let username = SandboxUser::parse(Some(&request.credential.0))?;
    if username == SandboxUser::Bad {
        return Err(CoreError::invalid(
            "username",
            format!(
                "{} refused these credentials (sandbox user_bad): the username or password is incorrect.",
                provider.name
            ),
        ));
    }
    let txn = begin_write(db).await?;
    let linked = connections::link_provider_connection(
        &*txn,
        partner_id,
        &user.id,
        request.kind,
        provider,
        &request.products,
        Some(username.as_str()),
    )
    .await?;
    jobs::enqueue(
        &txn,
        NewJob {
            partner_id,
            kind: JobKind::SyncConnection,
            user_id: Some(&user.id),
            connection_id: Some(&linked.id),
            accepted: 0,
            duplicates_updated: 0,
            payload: None,
        },
    )
    .await?;
    txn.commit().await?;
    Ok(linked)
}

/// The sync of a sandbox connection, run by a worker for a claimed job. All
/// of it commits together with the job's completion, or none of it does.
pub async fn run_sync_job(
    db: &DatabaseConnection,
    engine: &Engine,
    vault: &Vault,
    claimed: &job::Model,
) -> Result<(), CoreError> {
    let txn = begin_write(db).await?;
    let found = match &claimed.connection_id {
        Some(id) => connection::Entity::find_by_id(id.as_str()).one(&*txn).await?,
        None => None,
    };
    let user_active = match &found {
        Some(found) => users::user_by_id(&*txn, &found.user_id).await?.status == users::UserStatus::Active,
        None => false,
    };
    let processed = match found {
        // Disconnected before its sync ran: nothing to fetch any more.
        None => 0,
        Some(found) if found.status == ConnectionStatus::Disconnected => 0,
        // Its user was made inactive: the sync waits; making the user
        // active again queues it anew (`users::update_user`).
        Some(_) if !user_active => 0,
        Some(found) => sync_connection(&txn, engine, vault, found, &claimed.id).await?,
    };
    jobs::complete(&*txn, claimed, processed).await?;
    txn.commit().await?;
    Ok(())
}

/// Fills one connection from its sandbox provider; returns the records made.
async fn sync_connection(
    txn: &WriteTxn,
    engine: &Engine,
    vault: &Vault,
    found: connection::Model,
    job_id: &str,
) -> Result<i32, CoreError> {
    let now = time::now();
    if found.sandbox_username.as_deref() == Some(SandboxUser::Error.as_str()) {
        let mut errored: connection::ActiveModel = found.into();
        errored.status = Set(ConnectionStatus::Error);
        errored.error_code = Set(Some("login_required".to_string()));
        errored.error_message = Set(Some(
            "The provider needs the user to sign in again. Open a reconnect hosted session to fix it.".to_string(),
        ));
        errored.error_recoverable = Set(Some(true));
        errored.updated_at = Set(now);
        let errored = errored.update(&**txn).await?;
        let data = pb::ConnectionErrorData {
            connection_id: errored.id.clone(),
            user_id: errored.user_id.clone(),
            r#type: errored.r#type.as_str().to_string(),
            error: Some(pb::EventConnectionError {
                code: errored.error_code.clone().unwrap_or_default(),
                message: errored.error_message.clone().unwrap_or_default(),
                recoverable: errored.error_recoverable.unwrap_or(false),
            }),
        };
        outbox::record(txn, &errored.partner_id, &data).await?;
        return Ok(0);
    }

    let owner = users::user_by_id(&**txn, &found.user_id).await?;
    // What the provider reports about the user is sealed under its data key.
    let sealer = vault.sealer_for_writing(&**txn, &owner.partner_id, &owner.id).await?;
    let kind = found.r#type;
    let provider_id = found.provider_id.clone().unwrap_or_default();
    let seed = format!(
        "{}|{}|{}",
        users::external_user_id(&sealer, &owner.id, &owner.external_user_id)?,
        provider_id,
        kind.as_str()
    );
    if connections::has_product(&found, Product::Identity) {
        store_identity(&**txn, &sealer, &found, generate::identity(&seed), now).await?;
    }
    let with_numbers = connections::has_product(&found, Product::AccountNumbers);
    let linked_on = found.created_at.date_naive();

    let mut counts = expenses::Counts::default();
    let mut accounts = 0;
    match kind {
        ConnectionType::BenefitAccount => {
            let admin = administrator::Entity::find_by_id(provider_id.as_str())
                .one(&**txn)
                .await?
                .ok_or_else(|| CoreError::Internal(format!("administrator {provider_id} vanished")))?;
            let generated = generate::benefit_accounts(&seed, &admin.name, &admin.account_types, linked_on);
            accounts = generated.len() as u32;
            for account in generated {
                // ACH numbers exist for HSAs (bank deposit accounts); FSAs
                // and HRAs are notional balances with none.
                let numbers = (with_numbers && account.account_type == AccountType::Hsa)
                    .then(|| generate::ach_numbers(&seed, &account.external_id));
                store_account(&**txn, &sealer, &found, account, numbers, now).await?;
            }
        }
        ConnectionType::Card => {
            let purchases = generate::card_purchases(&seed, linked_on);
            counts = store_purchases(&**txn, engine, &found, job_id, purchases).await?;
        }
        ConnectionType::Store => {
            let store = merchant::Entity::find_by_id(provider_id.as_str())
                .one(&**txn)
                .await?
                .ok_or_else(|| CoreError::Internal(format!("merchant {provider_id} vanished")))?;
            let purchases = generate::store_purchases(&seed, &store.name, store.item_level_receipts, linked_on);
            counts = store_purchases(&**txn, engine, &found, job_id, purchases).await?;
        }
        ConnectionType::External => {}
    }

    let mut synced: connection::ActiveModel = found.into();
    synced.status = Set(ConnectionStatus::Active);
    synced.error_code = Set(None);
    synced.error_message = Set(None);
    synced.error_recoverable = Set(None);
    synced.last_sync_at = Set(Some(now));
    synced.updated_at = Set(now);
    let synced = synced.update(&**txn).await?;
    // Announced like a push, with the same counts, so a partner learns
    // without polling that expenses (or accounts) are ready.
    let data = pb::ConnectionSyncedData {
        user_id: synced.user_id.clone(),
        connection_id: synced.id.clone(),
        r#type: synced.r#type.as_str().to_string(),
        job_id: job_id.to_string(),
        accepted: counts.total().into(),
        duplicates_updated: 0,
        counts: Some(counts.into()),
        accounts: accounts.into(),
    };
    outbox::record(txn, &synced.partner_id, &data).await?;
    Ok(counts.total() as i32 + accounts as i32)
}

fn date(d: NaiveDate) -> String {
    d.format("%Y-%m-%d").to_string()
}

/// Keeps the owner's identity a provider reported, sealed; a re-sync
/// replaces it.
async fn store_identity(
    db: &impl ConnectionTrait,
    sealer: &Sealer<'_>,
    owner: &connection::Model,
    generated: crate::services::pii::StoredIdentity,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<(), CoreError> {
    identity_record::Entity::delete_many()
        .filter(identity_record::Column::ConnectionId.eq(owner.id.as_str()))
        .exec(db)
        .await?;
    let id = new_id(IdKind::IdentityRecord);
    let json = serde_json::to_string(&generated).map_err(|err| CoreError::Internal(err.to_string()))?;
    identity_record::ActiveModel {
        data: Set(sealer.seal(columns::IDENTITY_RECORD, &id, &json)),
        id: Set(id),
        partner_id: Set(owner.partner_id.clone()),
        user_id: Set(owner.user_id.clone()),
        connection_id: Set(owner.id.clone()),
        created_at: Set(now),
    }
    .insert(db)
    .await?;
    Ok(())
}

async fn store_account(
    db: &impl ConnectionTrait,
    sealer: &Sealer<'_>,
    owner: &connection::Model,
    generated: generate::GeneratedAccount,
    numbers: Option<(String, String)>,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<(), CoreError> {
    let id = new_id(IdKind::Account);
    let (ach_account, ach_routing) = match numbers {
        Some((account, routing)) => (
            Some(sealer.seal(columns::ACH_ACCOUNT, &id, &account)),
            Some(sealer.seal(columns::ACH_ROUTING, &id, &routing)),
        ),
        None => (None, None),
    };
    let holdings = (!generated.holdings.is_empty())
        .then(|| serde_json::to_string(&generated.holdings))
        .transpose()
        .map_err(|err| CoreError::Internal(err.to_string()))?;
    account::ActiveModel {
        id: Set(id),
        ach_account_number: Set(ach_account),
        ach_routing_number: Set(ach_routing),
        partner_id: Set(owner.partner_id.clone()),
        user_id: Set(owner.user_id.clone()),
        connection_id: Set(owner.id.clone()),
        external_id: Set(generated.external_id),
        name: Set(generated.name),
        r#type: Set(generated.account_type),
        start_date: Set(date(generated.start_date)),
        end_date: Set(generated.end_date.map(date)),
        cash_minor: Set(Some(generated.cash_minor)),
        invested_minor: Set(generated.invested_minor),
        tax_year: Set(Some(generated.tax_year)),
        contributions_ytd_minor: Set(Some(generated.contributions_ytd_minor)),
        contribution_limit_minor: Set(generated.contribution_limit_minor),
        coverage: Set(generated.coverage.map(str::to_string)),
        holdings_json: Set(holdings),
        last_sync_at: Set(Some(now)),
        created_at: Set(now),
    }
    .insert(db)
    .await?;
    Ok(())
}

/// Writes a synced purchase history, adjudicated by the same engine as
/// pushed transactions. A re-sync keeps what is stored.
async fn store_purchases(
    db: &impl ConnectionTrait,
    engine: &Engine,
    owner: &connection::Model,
    job_id: &str,
    purchases: Vec<generate::GeneratedPurchase>,
) -> Result<expenses::Counts, CoreError> {
    let mut batch = Vec::with_capacity(purchases.len());
    for purchase in purchases {
        let items_json = purchase
            .items
            .as_ref()
            .map(serde_json::to_string)
            .transpose()
            .map_err(|err| CoreError::Internal(err.to_string()))?;
        batch.push(NewTransaction {
            external_transaction_id: purchase.external_transaction_id,
            date: purchase.date,
            amount_minor: purchase.amount_minor,
            currency: "USD".to_string(),
            description: purchase.description,
            merchant_name: purchase.merchant_name,
            mcc: purchase.mcc,
            items_json,
        });
    }
    let adjudicated =
        expenses::adjudicate_batch(db.get_database_backend(), engine, owner, job_id, batch, OnRepeat::Keep)?;
    expenses::write_adjudicated(db, adjudicated).await
}
