//! Hosted sessions (docs/hosted-sessions.md): created by a partner for one
//! user and one flow, opened once by the user's browser, which the session
//! is then bound to (a secret kept in a cookie, stored here as its SHA-256),
//! and completed by what the pages submit. Logins and linking go through the
//! core's providers (`providers`), receipts through `receipts::create_receipt`.

use std::time::Duration;

use chrono::{DateTime, Utc};
use entities::enums::{ConnectionStatus, ConnectionType, ExpenseStatus, HostedSessionStatus};
use entities::{administrator, connection, hosted_session, merchant, partner, transaction};
use sail_api::pb;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect, Set,
};
use sha2::{Digest, Sha256};

use crate::domain::embed_origin;
use crate::domain::{IdKind, Page, Scope, ScopeSet, hex, new_id, parse_id, random_token, time};
use crate::error::CoreError;
use crate::platform::db::begin_write;
use crate::platform::db::fetch_page;
use crate::services::connections::{self, ConnectionTypeRules};
use crate::services::outbox;
use crate::services::providers::{LinkRequest, Providers};
use crate::services::users;

/// The prefix of a session URL's token.
pub const TOKEN_PREFIX: &str = "hst_";
const TOKEN_LEN: usize = 43;

/// The flows of docs/hosted-sessions.md.
pub use entities::enums::HostedFlow as Flow;

/// The options a session keeps.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Settings {
    pub connection_type: Option<String>,
    pub merchant_id: Option<String>,
    pub administrator_id: Option<String>,
    pub connection_id: Option<String>,
    pub modal: bool,
    pub expense_id: Option<String>,
}

/// A validated create request (the rules that need no database).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSession {
    pub user_id: String,
    pub flow: Flow,
    pub settings: Settings,
}

fn not_for(option: &str, flow: Flow, applies: &str) -> CoreError {
    CoreError::invalid(
        format!("options.{option}"),
        format!("options.{option} applies to {applies}, not to the {} flow.", flow.as_str()),
    )
}

impl TryFrom<pb::CreateHostedSessionRequest> for NewSession {
    type Error = CoreError;

    fn try_from(request: pb::CreateHostedSessionRequest) -> Result<Self, CoreError> {
        let flow = Flow::parse(&request.flow)
            .ok_or_else(|| CoreError::invalid("flow", "flow must be connect_account, reconnect or upload_receipt."))?;
        let o = request.options.unwrap_or_default();
        let connect = flow == Flow::ConnectAccount;
        if !connect {
            for (name, given) in [
                ("connection_type", o.connection_type.is_some()),
                ("merchant_id", o.merchant_id.is_some()),
                ("administrator_id", o.administrator_id.is_some()),
            ] {
                if given {
                    return Err(not_for(name, flow, "connect_account"));
                }
            }
        }
        if flow != Flow::Reconnect && o.connection_id.is_some() {
            return Err(not_for("connection_id", flow, "reconnect"));
        }
        if flow != Flow::UploadReceipt && o.expense_id.is_some() {
            return Err(not_for("expense_id", flow, "upload_receipt"));
        }
        if flow == Flow::UploadReceipt && o.modal.is_some() {
            return Err(not_for("modal", flow, "connect_account and reconnect"));
        }
        if connect {
            let kind = o.connection_type.as_deref().ok_or_else(|| {
                CoreError::invalid(
                    "options.connection_type",
                    "options.connection_type is required for connect_account: card, store or benefit_account.",
                )
            })?;
            let kind = connections::parse_provider_kind(kind).map_err(|_| {
                CoreError::invalid(
                    "options.connection_type",
                    "options.connection_type must be card, store or benefit_account.",
                )
            })?;
            if o.merchant_id.is_some() && kind != ConnectionType::Store {
                return Err(CoreError::invalid(
                    "options.merchant_id",
                    "options.merchant_id applies to store connections only.",
                ));
            }
            if o.administrator_id.is_some() && kind != ConnectionType::BenefitAccount {
                return Err(CoreError::invalid(
                    "options.administrator_id",
                    "options.administrator_id applies to benefit_account connections only.",
                ));
            }
        }
        if flow == Flow::Reconnect && o.connection_id.is_none() {
            return Err(CoreError::invalid(
                "options.connection_id",
                "options.connection_id is required for reconnect.",
            ));
        }
        Ok(NewSession {
            user_id: request.user_id,
            flow,
            settings: Settings {
                connection_type: o.connection_type,
                merchant_id: o.merchant_id,
                administrator_id: o.administrator_id,
                connection_id: o.connection_id,
                modal: o.modal.unwrap_or(false),
                expense_id: o.expense_id,
            },
        })
    }
}

fn sha256(text: &str) -> String {
    hex(&Sha256::digest(text.as_bytes()))
}

fn require_scope(scopes: &ScopeSet, scope: Scope, what: &str) -> Result<(), CoreError> {
    if scopes.contains(scope) {
        Ok(())
    } else {
        Err(CoreError::InsufficientKeyScope(format!("{what} needs the {scope} scope.")))
    }
}

/// Creates a session for one of the partner's users; returns it with its
/// URL (shown once).
pub async fn create(
    db: &DatabaseConnection,
    (partner_id, scopes): (&str, &ScopeSet),
    public_url: &str,
    ttl: Duration,
    new: NewSession,
) -> Result<(hosted_session::Model, String), CoreError> {
    let user = users::require_active(db, partner_id, &new.user_id).await?;
    let s = &new.settings;
    match new.flow {
        Flow::ConnectAccount => {
            let kind = s.connection_type.as_deref().and_then(ConnectionType::parse).unwrap_or(ConnectionType::Card);
            require_scope(scopes, kind.linking_scope(), &format!("Linking a {} connection", kind.as_str()))?;
            if let Some(id) = &s.merchant_id {
                merchant::Entity::find_by_id(id.as_str())
                    .one(db)
                    .await?
                    .ok_or_else(|| CoreError::not_found("merchant", "options.merchant_id", id.clone()))?;
            }
            if let Some(id) = &s.administrator_id {
                administrator::Entity::find_by_id(id.as_str())
                    .one(db)
                    .await?
                    .ok_or_else(|| CoreError::not_found("administrator", "options.administrator_id", id.clone()))?;
            }
        }
        Flow::Reconnect => {
            let id = s.connection_id.as_deref().unwrap_or_default();
            let found = connections::get_connection(db, partner_id, &user.id, id)
                .await
                .map_err(|_| CoreError::not_found("connection", "options.connection_id", id))?;
            if found.r#type == ConnectionType::External {
                return Err(CoreError::ConnectionNotReconnectable { connection_id: found.id });
            }
            let what = format!("Reconnecting a {} connection", found.r#type.as_str());
            require_scope(scopes, found.r#type.linking_scope(), &what)?;
        }
        Flow::UploadReceipt => {
            require_scope(scopes, Scope::Expenses, "Uploading a receipt")?;
            if let Some(id) = &s.expense_id {
                crate::services::expenses::get_expense(db, partner_id, &user.id, id)
                    .await
                    .map_err(|_| CoreError::not_found("expense", "options.expense_id", id.clone()))?;
            }
        }
    }
    let token = random_token(TOKEN_PREFIX, TOKEN_LEN);
    let now = time::now();
    let model = hosted_session::ActiveModel {
        id: Set(new_id(IdKind::HostedSession)),
        partner_id: Set(partner_id.to_string()),
        user_id: Set(user.id),
        flow: Set(new.flow),
        options_json: Set(serde_json::to_string(s).map_err(|err| CoreError::Internal(err.to_string()))?),
        token_hash: Set(sha256(&token)),
        browser_hash: Set(None),
        status: Set(HostedSessionStatus::Pending),
        expires_at: Set(now + chrono::Duration::from_std(ttl).unwrap_or_default()),
        connection_id: Set(s.connection_id.clone()),
        expense_id: Set(s.expense_id.clone()),
        receipt_id: Set(None),
        created_at: Set(now),
        opened_at: Set(None),
        completed_at: Set(None),
    }
    .insert(db)
    .await?;
    let url = format!("{}/hosted/{token}", public_url.trim_end_matches('/'));
    Ok((model, url))
}

/// The status a partner sees: `expired` once past `expires_at` unfinished.
pub fn status_of(session: &hosted_session::Model, now: DateTime<Utc>) -> &'static str {
    if session.status != HostedSessionStatus::Completed && now >= session.expires_at {
        "expired"
    } else {
        session.status.as_str()
    }
}

/// The options a session was made with.
pub fn settings_of(session: &hosted_session::Model) -> Result<Settings, CoreError> {
    serde_json::from_str(&session.options_json)
        .map_err(|err| CoreError::Internal(format!("options of {}: {err}", session.id)))
}

/// One of the partner's sessions.
pub async fn get(db: &impl ConnectionTrait, partner_id: &str, id: &str) -> Result<hosted_session::Model, CoreError> {
    let not_found = || CoreError::not_found("hosted session", "hosted_session_id", id);
    let id = parse_id(IdKind::HostedSession, id).ok_or_else(not_found)?;
    hosted_session::Entity::find_by_id(id)
        .filter(hosted_session::Column::PartnerId.eq(partner_id))
        .one(db)
        .await?
        .ok_or_else(not_found)
}

/// A page of the partner's sessions, newest first.
pub async fn list(
    db: &impl ConnectionTrait,
    partner_id: &str,
    user_id: Option<&str>,
    status: Option<&str>,
    page: Page,
) -> Result<(Vec<hosted_session::Model>, u64), CoreError> {
    let mut query = hosted_session::Entity::find().filter(hosted_session::Column::PartnerId.eq(partner_id));
    if let Some(user_id) = user_id {
        query = query.filter(hosted_session::Column::UserId.eq(user_id));
    }
    let now = time::now();
    match status {
        None => {}
        Some("expired") => {
            query = query
                .filter(hosted_session::Column::Status.ne(HostedSessionStatus::Completed))
                .filter(hosted_session::Column::ExpiresAt.lte(now));
        }
        Some("completed") => query = query.filter(hosted_session::Column::Status.eq("completed")),
        Some(other @ ("pending" | "opened")) => {
            query = query
                .filter(hosted_session::Column::Status.eq(other))
                .filter(hosted_session::Column::ExpiresAt.gt(now));
        }
        Some(_) => return Err(CoreError::invalid("status", "status must be pending, opened, completed or expired.")),
    }
    let (found, total) = fetch_page(db, query.order_by_desc(hosted_session::Column::Id), page).await?;
    Ok((found, total))
}

/// The anti-forgery token of the forms a browser is shown: derived from the
/// browser's secret, so a page of another browser cannot forge it.
pub fn csrf_for(browser_secret: &str) -> String {
    sha256(&format!("sail hosted csrf\0{browser_secret}"))
}

/// Why a page of an unknown link cannot be shown (a `410` page no site
/// may frame).
fn gone(message: &str) -> CoreError {
    CoreError::SessionGone { message: message.to_string(), frame_ancestors: Vec::new() }
}

/// Why a page of a known session cannot be shown: a `410` page framable as
/// the session's other pages are, so a user in a partner's overlay sees it.
async fn gone_from(db: &impl ConnectionTrait, session: &hosted_session::Model, message: &str) -> CoreError {
    match frame_ancestors(db, session).await {
        Ok(frame_ancestors) => CoreError::SessionGone { message: message.to_string(), frame_ancestors },
        Err(err) => err,
    }
}

/// Whether a session's pages may be shown in a partner's iframe at all: a
/// `modal` session's, and every `upload_receipt` session's (the contract
/// gives that flow no `modal` option, yet a receipt is taken inside the
/// partner's app as much as a login is). Any other page is never framed.
pub fn framable(session: &hosted_session::Model, settings: &Settings) -> bool {
    settings.modal || session.flow == Flow::UploadReceipt
}

/// The origins allowed to frame `session`'s pages
/// (docs/hosted-sessions.md#embedding-in-an-iframe): its partner's
/// registered embed origins when the session is framable, none otherwise.
/// Empty means `frame-ancestors 'none'`.
pub async fn frame_ancestors(
    db: &impl ConnectionTrait,
    session: &hosted_session::Model,
) -> Result<Vec<String>, CoreError> {
    if !framable(session, &settings_of(session)?) {
        return Ok(Vec::new());
    }
    let partner = partner::Entity::find_by_id(session.partner_id.as_str()).one(db).await?;
    Ok(partner
        .map(|p| embed_origin::stored(&p.embed_origins).iter().map(|o| o.to_string()).collect())
        .unwrap_or_default())
}

/// The session a page call is for, checked: the token, the browser it is
/// bound to, not expired, and (for a form) the anti-forgery token. The
/// first open (no browser secret yet) consumes the URL and returns the new
/// secret.
pub async fn authorize(
    db: &impl ConnectionTrait,
    caller: &pb::PageCaller,
    form: bool,
) -> Result<(hosted_session::Model, Option<String>), CoreError> {
    let unknown = || gone("This link is not valid. Ask the app that sent you here for a new one.");
    if !caller.token.starts_with(TOKEN_PREFIX) || caller.token.len() != TOKEN_PREFIX.len() + TOKEN_LEN {
        return Err(unknown());
    }
    let found = hosted_session::Entity::find()
        .filter(hosted_session::Column::TokenHash.eq(sha256(&caller.token)))
        .one(db)
        .await?
        .ok_or_else(unknown)?;
    let now = time::now();
    match (&found.browser_hash, caller.browser_secret.as_deref()) {
        (None, _) if now >= found.expires_at => {
            Err(gone_from(db, &found, "This link has expired. Go back to the app and start again to get a new one.")
                .await)
        }
        (None, _) if form => Err(unknown()),
        (None, _) => {
            // The first open: bind the session to this browser.
            let secret = random_token("", 43);
            let mut opened: hosted_session::ActiveModel = found.into();
            opened.browser_hash = Set(Some(sha256(&secret)));
            opened.status = Set(HostedSessionStatus::Opened);
            opened.opened_at = Set(Some(now));
            let opened = opened.update(db).await?;
            Ok((opened, Some(secret)))
        }
        (Some(bound), Some(secret)) if *bound == sha256(secret) => {
            if found.status != HostedSessionStatus::Completed && now >= found.expires_at {
                let why = "This link has expired. Go back to the app and start again to get a new one.";
                return Err(gone_from(db, &found, why).await);
            }
            if form && caller.csrf.as_deref() != Some(csrf_for(secret).as_str()) {
                return Err(
                    gone_from(db, &found, "This form could not be verified. Reload the page and try again.").await
                );
            }
            Ok((found, None))
        }
        (Some(_), _) => {
            let why = "This link has already been used. Each link opens once; go back to the app to get a new one.";
            Err(gone_from(db, &found, why).await)
        }
    }
}

/// The outcome of a login on a page.
pub enum LoginOutcome {
    /// Linked or repaired: the connection.
    Done(Box<connection::Model>),
    /// Refused: what to tell the user.
    Refused(String),
}

/// A login at a provider from a page: `connect_account` links through the
/// provider's `link`; `reconnect` repairs the session's connection.
pub async fn login(
    db: &DatabaseConnection,
    providers: &dyn Providers,
    session: &hosted_session::Model,
    provider_id: Option<String>,
    username: &str,
    password: &str,
) -> Result<LoginOutcome, CoreError> {
    let settings = settings_of(session)?;
    let Some(credential) = providers.check_login(username, password) else {
        let txn = begin_write(db).await?;
        let data = pb::HostedSessionLoginFailedData {
            hosted_session_id: session.id.clone(),
            user_id: session.user_id.clone(),
            flow: session.flow.as_str().to_string(),
            reason: "invalid_credentials".to_string(),
        };
        outbox::record(&txn, &session.partner_id, &data).await?;
        txn.commit().await?;
        return Ok(LoginOutcome::Refused("The username or password is incorrect. Check them and try again.".into()));
    };
    match session.flow {
        Flow::ConnectAccount => {
            let kind =
                settings.connection_type.as_deref().and_then(ConnectionType::parse).unwrap_or(ConnectionType::Card);
            let provider_id = settings.merchant_id.clone().or(settings.administrator_id.clone()).or(provider_id);
            let request = LinkRequest { kind, provider_id, credential, products: kind.products().to_vec() };
            let linked = providers.link(db, &session.partner_id, &session.user_id, request).await?;
            complete(db, session, |done| done.connection_id = Set(Some(linked.id.clone()))).await?;
            Ok(LoginOutcome::Done(Box::new(linked)))
        }
        Flow::Reconnect => {
            let id = settings.connection_id.clone().unwrap_or_default();
            let found = connections::get_connection(db, &session.partner_id, &session.user_id, &id).await?;
            if providers.still_broken(&credential) {
                return Ok(LoginOutcome::Refused(format!(
                    "{} still needs attention on its side. Try again later.",
                    found.provider_name
                )));
            }
            let txn = begin_write(db).await?;
            let was_error = found.status == ConnectionStatus::Error;
            let mut repaired: connection::ActiveModel = found.into();
            repaired.status = Set(ConnectionStatus::Active);
            repaired.error_code = Set(None);
            repaired.error_message = Set(None);
            repaired.error_recoverable = Set(None);
            repaired.sandbox_username = Set(Some(credential.0));
            repaired.updated_at = Set(time::now());
            let repaired = repaired.update(&*txn).await?;
            if was_error {
                let data = pb::ConnectionRecoveredData {
                    connection_id: repaired.id.clone(),
                    user_id: repaired.user_id.clone(),
                    r#type: repaired.r#type.as_str().to_string(),
                    hosted_session_id: session.id.clone(),
                };
                outbox::record(&txn, &repaired.partner_id, &data).await?;
            }
            txn.commit().await?;
            complete(db, session, |_| {}).await?;
            Ok(LoginOutcome::Done(Box::new(repaired)))
        }
        Flow::UploadReceipt => Err(CoreError::invalid("flow", "This session does not take a login.")),
    }
}

/// Marks a session completed, with `outcome` set, and announces it.
pub async fn complete(
    db: &DatabaseConnection,
    session: &hosted_session::Model,
    outcome: impl FnOnce(&mut hosted_session::ActiveModel),
) -> Result<hosted_session::Model, CoreError> {
    let txn = begin_write(db).await?;
    let mut done: hosted_session::ActiveModel = session.clone().into();
    done.status = Set(HostedSessionStatus::Completed);
    done.completed_at = Set(Some(time::now()));
    outcome(&mut done);
    let done = done.update(&*txn).await?;
    let data = pb::HostedSessionCompletedData {
        hosted_session_id: done.id.clone(),
        user_id: done.user_id.clone(),
        flow: done.flow.as_str().to_string(),
        connection_id: done.connection_id.clone(),
        expense_id: done.expense_id.clone(),
        receipt_id: done.receipt_id.clone(),
    };
    outbox::record(&txn, &done.partner_id, &data).await?;
    txn.commit().await?;
    Ok(done)
}

/// The user's expenses a receipt could clear: `needs_review`, newest first.
pub async fn reviewable_expenses(
    db: &impl ConnectionTrait,
    session: &hosted_session::Model,
) -> Result<Vec<transaction::Model>, CoreError> {
    Ok(transaction::Entity::find()
        .filter(transaction::Column::UserId.eq(session.user_id.as_str()))
        .filter(transaction::Column::PartnerId.eq(session.partner_id.as_str()))
        .filter(transaction::Column::Status.eq(ExpenseStatus::NeedsReview))
        .order_by_desc(transaction::Column::Date)
        .limit(50)
        .all(db)
        .await?)
}
