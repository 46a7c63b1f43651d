//! Accounts behind a user's connections (the Account resource and ListAccounts in docs/openapi.json) and their detail
//! record. Balances show only where the owning connection has the
//! `benefit_account` product.

use std::collections::HashMap;

use entities::{account, connection};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};

use crate::domain::{IdKind, Page, parse_id};
use crate::error::CoreError;
use crate::platform::db::fetch_page;
use crate::services::connections::{self, Product, has_product};
use crate::services::users;

/// The account types of the Account resource in docs/openapi.json.
pub const ACCOUNT_TYPES: [&str; 6] = ["hsa", "fsa", "hra", "checking", "savings", "credit_card"];

/// Validates an account-type filter.
pub fn parse_account_type(raw: &str) -> Result<&'static str, CoreError> {
    ACCOUNT_TYPES.into_iter().find(|t| *t == raw).ok_or_else(|| {
        CoreError::invalid("type", format!("type must be one of {}; got '{raw}'.", ACCOUNT_TYPES.join(", ")))
    })
}

/// An account with whether its balance may be shown.
#[derive(Debug, Clone)]
pub struct AccountView {
    pub account: account::Model,
    pub show_balance: bool,
}

/// Accounts with whether each shows its balance (its connection has the
/// `benefit_account` product).
pub async fn views(db: &impl ConnectionTrait, found: Vec<account::Model>) -> Result<Vec<AccountView>, CoreError> {
    let ids: Vec<String> = found.iter().map(|a| a.connection_id.clone()).collect();
    let owners: HashMap<String, connection::Model> = if ids.is_empty() {
        HashMap::new()
    } else {
        connection::Entity::find()
            .filter(connection::Column::Id.is_in(ids))
            .all(db)
            .await?
            .into_iter()
            .map(|c| (c.id.clone(), c))
            .collect()
    };
    Ok(found
        .into_iter()
        .map(|account| {
            let show_balance =
                owners.get(&account.connection_id).is_some_and(|c| has_product(c, Product::BenefitAccount));
            AccountView { account, show_balance }
        })
        .collect())
}

/// Filters of an account listing.
#[derive(Debug, Clone, Default)]
pub struct AccountFilter {
    pub connection_id: Option<String>,
    pub account_type: Option<&'static str>,
}

/// A page of the user's accounts, oldest first, with the total. Accounts of
/// every connection are listed (the contract leaves out only the balance of
/// those without the `benefit_account` product), so filtering by a
/// connection that has none answers an empty page.
pub async fn list_accounts(
    db: &impl ConnectionTrait,
    partner_id: &str,
    user_id: &str,
    filter: AccountFilter,
    page: Page,
) -> Result<(Vec<AccountView>, u64), CoreError> {
    let user = users::get_user(db, partner_id, user_id).await?;
    let mut query = account::Entity::find()
        .filter(account::Column::UserId.eq(&user.id))
        .filter(account::Column::PartnerId.eq(partner_id));
    if let Some(connection_id) = &filter.connection_id {
        let owner = connections::get_connection(db, partner_id, &user.id, connection_id).await?;
        query = query.filter(account::Column::ConnectionId.eq(owner.id));
    }
    if let Some(kind) = filter.account_type {
        query = query.filter(account::Column::Type.eq(kind));
    }
    let (found, total) = fetch_page(db, query.order_by_asc(account::Column::Id), page).await?;
    Ok((views(db, found).await?, total))
}

/// One account of the user, or `not_found`.
pub async fn get_account(
    db: &impl ConnectionTrait,
    partner_id: &str,
    user_id: &str,
    account_id: &str,
) -> Result<AccountView, CoreError> {
    let user = users::get_user(db, partner_id, user_id).await?;
    let not_found = || CoreError::not_found("account", "account_id", account_id);
    let id = parse_id(IdKind::Account, account_id).ok_or_else(not_found)?;
    let found = account::Entity::find_by_id(id)
        .filter(account::Column::UserId.eq(user.id))
        .filter(account::Column::PartnerId.eq(partner_id))
        .one(db)
        .await?
        .ok_or_else(not_found)?;
    views(db, vec![found]).await?.pop().ok_or_else(|| CoreError::Internal("account view vanished".into()))
}

/// One investment holding of an HSA, as stored in `holdings_json`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StoredHolding {
    pub name: String,
    pub symbol: String,
    pub value_minor: i64,
}
