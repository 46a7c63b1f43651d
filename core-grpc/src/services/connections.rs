//! Connections of a user to data sources: the kinds, states and products of
//! the Connection resource in docs/openapi.json, creation of customer-managed `external` connections, reading and
//! disconnecting. Provider-managed kinds are linked by a provider
//! (`providers`), through [`link_provider_connection`].

use entities::{account, connection};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, Set};

use crate::domain::{IdKind, Page, new_id, parse_id, time};
use crate::error::CoreError;
use crate::platform::db::fetch_page;
use crate::services::users;

pub use entities::enums::{ConnectionStatus, ConnectionType};

/// What each kind of connection carries and needs.
pub trait ConnectionTypeRules {
    /// The products a provider connection of this kind carries.
    fn products(self) -> &'static [Product];
    /// The key scope that links (or reconnects) this kind (docs/contract.md#keys-scopes-and-tenants).
    fn linking_scope(self) -> crate::domain::Scope;
}

impl ConnectionTypeRules for ConnectionType {
    fn products(self) -> &'static [Product] {
        match self {
            ConnectionType::BenefitAccount => &[Product::BenefitAccount, Product::AccountNumbers, Product::Identity],
            ConnectionType::Card | ConnectionType::Store | ConnectionType::External => &[Product::Expenses],
        }
    }

    fn linking_scope(self) -> crate::domain::Scope {
        match self {
            ConnectionType::BenefitAccount => crate::domain::Scope::BenefitAccount,
            ConnectionType::External => crate::domain::Scope::Connections,
            ConnectionType::Card | ConnectionType::Store => crate::domain::Scope::Expenses,
        }
    }
}

/// The kinds a provider links (everything but `external`).
pub fn parse_provider_kind(raw: &str) -> Result<ConnectionType, CoreError> {
    match ConnectionType::parse(raw) {
        Some(ConnectionType::External) | None => Err(not_a_provider_kind(raw)),
        Some(kind) => Ok(kind),
    }
}

/// The refusal of a kind no provider links.
pub fn not_a_provider_kind(raw: &str) -> CoreError {
    CoreError::invalid(
        "type",
        format!(
            "type must be card, store or benefit_account; got '{raw}'. External connections are created with POST /users/{{user_id}}/connections."
        ),
    )
}

/// A capability a connection enables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Product {
    Expenses,
    BenefitAccount,
    AccountNumbers,
    Identity,
}

impl Product {
    pub const ALL: [Product; 4] =
        [Product::Expenses, Product::BenefitAccount, Product::AccountNumbers, Product::Identity];

    pub fn as_str(self) -> &'static str {
        match self {
            Product::Expenses => "expenses",
            Product::BenefitAccount => "benefit_account",
            Product::AccountNumbers => "account_numbers",
            Product::Identity => "identity",
        }
    }

    pub fn parse(raw: &str) -> Option<Product> {
        Product::ALL.into_iter().find(|p| p.as_str() == raw)
    }
}

/// The stored, comma-separated form of a product list.
pub fn products_csv(products: &[Product]) -> String {
    products.iter().map(|p| p.as_str()).collect::<Vec<_>>().join(",")
}

/// Whether a stored connection has `product`.
pub fn has_product(connection: &connection::Model, product: Product) -> bool {
    connection.products.split(',').any(|p| p == product.as_str())
}

/// `product_not_enabled` unless the connection has `product`.
pub fn require_product(connection: &connection::Model, product: Product, param: &str) -> Result<(), CoreError> {
    if has_product(connection, product) {
        Ok(())
    } else {
        Err(CoreError::ProductNotEnabled {
            param: param.to_string(),
            message: format!(
                "Connection {} does not have the {} product enabled (it has: {}).",
                connection.id,
                product.as_str(),
                connection.products.replace(',', ", ")
            ),
        })
    }
}

/// A validated request for an `external` connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewExternalConnection {
    pub provider_label: String,
}

impl NewExternalConnection {
    /// CreateConnection (docs/openapi.json): type must be `external`, a label is required, products may
    /// only be `expenses` (empty means the default).
    pub fn parse(kind: &str, provider_label: &str, products: &[String]) -> Result<Self, CoreError> {
        if kind != ConnectionType::External.as_str() {
            let shown = if kind.is_empty() { "missing".to_string() } else { format!("'{kind}'") };
            return Err(CoreError::invalid(
                "type",
                format!(
                    "type must be external (got {shown}); card, store and benefit_account connections are created through a connect_account hosted session."
                ),
            ));
        }
        let label = provider_label.trim();
        if label.is_empty() {
            return Err(CoreError::invalid(
                "provider_label",
                "provider_label is required: the name of the upstream source.",
            ));
        }
        if label.chars().count() > 100 {
            return Err(CoreError::invalid("provider_label", "provider_label must be at most 100 characters."));
        }
        for (index, product) in products.iter().enumerate() {
            if product != Product::Expenses.as_str() {
                return Err(CoreError::invalid(
                    format!("products.{index}"),
                    format!("External connections support only the expenses product; got '{product}'."),
                ));
            }
        }
        Ok(NewExternalConnection { provider_label: label.to_string() })
    }
}

/// Creates an `external` connection for a user of the partner. It has no
/// provider to sync from, so it is `active` at once and never synced.
pub async fn create_external(
    db: &impl ConnectionTrait,
    partner_id: &str,
    user_id: &str,
    new: NewExternalConnection,
) -> Result<connection::Model, CoreError> {
    let user = users::require_active(db, partner_id, user_id).await?;
    let now = time::now();
    let model = connection::ActiveModel {
        id: Set(new_id(IdKind::Connection)),
        partner_id: Set(partner_id.to_string()),
        user_id: Set(user.id),
        r#type: Set(ConnectionType::External),
        status: Set(ConnectionStatus::Active),
        products: Set(products_csv(&[Product::Expenses])),
        provider_kind: Set("external".to_string()),
        provider_id: Set(None),
        provider_name: Set(new.provider_label),
        provider_icon_url: Set(None),
        sandbox_username: Set(None),
        error_code: Set(None),
        error_message: Set(None),
        error_recoverable: Set(None),
        last_sync_at: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
    };
    Ok(model.insert(db).await?)
}

/// The provider a Sail-managed connection links to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderRef {
    pub kind: &'static str,
    pub id: String,
    pub name: String,
    pub icon_url: Option<String>,
}

/// Creates a provider-managed connection in `aggregating`, to be filled by
/// its first sync. The caller enqueues that sync in the same transaction.
pub async fn link_provider_connection(
    db: &impl ConnectionTrait,
    partner_id: &str,
    user_id: &str,
    kind: ConnectionType,
    provider: ProviderRef,
    products: &[Product],
    sandbox_username: Option<&str>,
) -> Result<connection::Model, CoreError> {
    let now = time::now();
    let model = connection::ActiveModel {
        id: Set(new_id(IdKind::Connection)),
        partner_id: Set(partner_id.to_string()),
        user_id: Set(user_id.to_string()),
        r#type: Set(kind),
        status: Set(ConnectionStatus::Aggregating),
        products: Set(products_csv(products)),
        provider_kind: Set(provider.kind.to_string()),
        provider_id: Set(Some(provider.id)),
        provider_name: Set(provider.name),
        provider_icon_url: Set(provider.icon_url),
        sandbox_username: Set(sandbox_username.map(str::to_string)),
        error_code: Set(None),
        error_message: Set(None),
        error_recoverable: Set(None),
        last_sync_at: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
    };
    Ok(model.insert(db).await?)
}

/// One connection of one user of the partner, or `not_found`.
pub async fn get_connection(
    db: &impl ConnectionTrait,
    partner_id: &str,
    user_id: &str,
    connection_id: &str,
) -> Result<connection::Model, CoreError> {
    let user = users::get_user(db, partner_id, user_id).await?;
    let not_found = || CoreError::not_found("connection", "connection_id", connection_id);
    let id = parse_id(IdKind::Connection, connection_id).ok_or_else(not_found)?;
    connection::Entity::find_by_id(id)
        .filter(connection::Column::UserId.eq(user.id))
        .filter(connection::Column::PartnerId.eq(partner_id))
        .one(db)
        .await?
        .ok_or_else(not_found)
}

/// A page of a user's connections, newest first, and the total.
pub async fn list_connections(
    db: &impl ConnectionTrait,
    partner_id: &str,
    user_id: &str,
    page: Page,
) -> Result<(Vec<connection::Model>, u64), CoreError> {
    let user = users::get_user(db, partner_id, user_id).await?;
    let query = connection::Entity::find()
        .filter(connection::Column::UserId.eq(user.id))
        .filter(connection::Column::PartnerId.eq(partner_id));
    let (found, total) = fetch_page(db, query.order_by_desc(connection::Column::Id), page).await?;
    Ok((found, total))
}

/// Disconnects: `disconnected`, kept for history, no longer synced.
/// Disconnecting twice answers the same connection.
pub async fn disconnect(
    db: &impl ConnectionTrait,
    partner_id: &str,
    user_id: &str,
    connection_id: &str,
) -> Result<connection::Model, CoreError> {
    let found = get_connection(db, partner_id, user_id, connection_id).await?;
    if found.status == ConnectionStatus::Disconnected {
        return Ok(found);
    }
    let mut active: connection::ActiveModel = found.into();
    active.status = Set(ConnectionStatus::Disconnected);
    active.error_code = Set(None);
    active.error_message = Set(None);
    active.error_recoverable = Set(None);
    active.updated_at = Set(time::now());
    Ok(active.update(db).await?)
}

/// The accounts of these connections, for their embedded summaries.
pub async fn accounts_of(
    db: &impl ConnectionTrait,
    connection_ids: Vec<String>,
) -> Result<Vec<account::Model>, CoreError> {
    if connection_ids.is_empty() {
        return Ok(Vec::new());
    }
    Ok(account::Entity::find()
        .filter(account::Column::ConnectionId.is_in(connection_ids))
        .order_by_asc(account::Column::Id)
        .all(db)
        .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(result: Result<NewExternalConnection, CoreError>) -> String {
        match result {
            Err(CoreError::InvalidRequest { param, .. }) => param,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn external_connections_parse() {
        let ok = NewExternalConnection::parse("external", " My Bank ", &[]).unwrap();
        assert_eq!(ok.provider_label, "My Bank");
        assert!(NewExternalConnection::parse("external", "B", &["expenses".into()]).is_ok());
        assert_eq!(param(NewExternalConnection::parse("card", "B", &[])), "type");
        assert_eq!(param(NewExternalConnection::parse("", "B", &[])), "type");
        assert_eq!(param(NewExternalConnection::parse("external", "  ", &[])), "provider_label");
        assert_eq!(
            param(NewExternalConnection::parse("external", "B", &["expenses".into(), "identity".into()])),
            "products.1"
        );
    }

    #[test]
    fn the_type_error_says_it_must_be_external() {
        match NewExternalConnection::parse("store", "B", &[]) {
            Err(err) => assert!(err.to_string().contains("type must be external"), "{err}"),
            Ok(_) => panic!(),
        }
    }

    #[test]
    fn products_per_kind() {
        assert_eq!(products_csv(ConnectionType::BenefitAccount.products()), "benefit_account,account_numbers,identity");
        assert_eq!(products_csv(ConnectionType::Card.products()), "expenses");
    }
}
