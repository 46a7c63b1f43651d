//! What Sail asks of the providers it links for a user: a card issuer, a
//! store, an HSA/FSA administrator. A provider checks a login made on a
//! hosted page, links a connection (with its first sync queued in the same
//! transaction), says whether a broken connection is still broken for a
//! login, and runs a connection's sync. The services (hosted sessions, the
//! directory) and the background worker call providers only through
//! [`Providers`]; the sandbox (`sandbox`) is the one implementation today,
//! chosen where the core is built (`state`), and a real aggregator would be
//! another.

use std::future::Future;
use std::pin::Pin;

use entities::{connection, job};
use sail_engine::Engine;
use sea_orm::DatabaseConnection;

use crate::error::CoreError;
use crate::platform::vault::Vault;
use crate::services::connections::{ConnectionType, Product};

/// A login a provider accepted, as the provider names it (the sandbox: its
/// username). Stored on the connection, shown to nobody.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Credential(pub String);

/// What linking needs.
#[derive(Debug, Clone)]
pub struct LinkRequest {
    pub kind: ConnectionType,
    /// The provider chosen, or `None` for the kind's first.
    pub provider_id: Option<String>,
    pub credential: Credential,
    /// The products to enable: a non-empty subset of what the kind offers.
    pub products: Vec<Product>,
}

/// A provider's work in progress, boxed so that [`Providers`] can be a
/// trait object.
pub type ProviderFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, CoreError>> + Send + 'a>>;

/// The providers a core links connections through.
pub trait Providers: Send + Sync {
    /// The card issuers a user may pick, `(id, name)`: there is no public
    /// directory of them to seed, so the providers say which they reach.
    fn card_issuers(&self) -> Vec<(String, String)>;

    /// The credential of a login made on a hosted page, or `None` when the
    /// provider refuses it.
    fn check_login(&self, username: &str, password: &str) -> Option<Credential>;

    /// Whether a connection is still broken on the provider's side for this
    /// login, so a reconnect cannot repair it yet.
    fn still_broken(&self, credential: &Credential) -> bool;

    /// Links a connection for a user: the connection and its first sync job
    /// commit together, so an accepted link is never left without a sync.
    fn link<'a>(
        &'a self,
        db: &'a DatabaseConnection,
        partner_id: &'a str,
        user_id: &'a str,
        request: LinkRequest,
    ) -> ProviderFuture<'a, connection::Model>;

    /// Runs a claimed sync job: fills the connection's accounts or purchase
    /// history and completes the job, all in one transaction.
    fn sync<'a>(
        &'a self,
        db: &'a DatabaseConnection,
        engine: &'a Engine,
        vault: &'a Vault,
        claimed: &'a job::Model,
    ) -> ProviderFuture<'a, ()>;
}
