//! `sail.v1.HostedSessions` (the partner's API) and `sail.v1.HostedPages`
//! (what the gateway's pages call).

use entities::enums::HostedSessionStatus;
use entities::{connection, hosted_session};
use sail_api::pb::{self, hosted_pages_server::HostedPages, hosted_sessions_server::HostedSessions};
use tonic::{Request, Response, Status};

use crate::domain::money::to_major;
use crate::domain::{Page, time};
use crate::error::CoreError;
use crate::grpc::{accept, accept_public};
use crate::services::directory;
use crate::services::hosted_sessions::{self, Flow, LoginOutcome, NewSession, csrf_for, settings_of};
use crate::services::receipts;
use crate::state::Core;

pub struct HostedSessionsService {
    pub core: Core,
}

fn session_to_pb(s: hosted_session::Model, url: Option<String>) -> Result<pb::HostedSession, CoreError> {
    let settings = settings_of(&s)?;
    Ok(pb::HostedSession {
        status: hosted_sessions::status_of(&s, time::now()).to_string(),
        id: s.id,
        url,
        expires_at: time::rfc3339(&s.expires_at),
        flow: s.flow.to_string(),
        user_id: s.user_id,
        options: Some(pb::HostedSessionSettings {
            connection_type: settings.connection_type,
            merchant_id: settings.merchant_id,
            administrator_id: settings.administrator_id,
            connection_id: settings.connection_id,
            modal: settings.modal,
            expense_id: settings.expense_id,
        }),
        connection_id: s.connection_id,
        expense_id: s.expense_id,
        receipt_id: s.receipt_id,
        created_at: time::rfc3339(&s.created_at),
        opened_at: s.opened_at.as_ref().map(time::rfc3339),
        completed_at: s.completed_at.as_ref().map(time::rfc3339),
    })
}

#[tonic::async_trait]
impl HostedSessions for HostedSessionsService {
    async fn create_hosted_session(
        &self,
        request: Request<pb::CreateHostedSessionRequest>,
    ) -> Result<Response<pb::HostedSession>, Status> {
        let caller = accept(&request)?;
        let new = NewSession::try_from(request.into_inner())?;
        let core = &self.core;
        let (created, url) = hosted_sessions::create(
            &core.db,
            (&caller.partner_id, &caller.scopes),
            &core.config.public_url,
            core.config.hosted_session_ttl,
            new,
        )
        .await?;
        // The URL is single-use: shown in this reply only (`shown_once`).
        Ok(Response::new(session_to_pb(created, Some(url))?))
    }

    async fn list_hosted_sessions(
        &self,
        request: Request<pb::ListHostedSessionsRequest>,
    ) -> Result<Response<pb::ListHostedSessionsResponse>, Status> {
        let caller = accept(&request)?;
        let req = request.into_inner();
        let page = Page::parse(req.limit, req.offset)?;
        let (found, total) = hosted_sessions::list(
            &self.core.db,
            &caller.partner_id,
            req.user_id.as_deref(),
            req.status.as_deref(),
            page,
        )
        .await?;
        Ok(Response::new(pb::ListHostedSessionsResponse {
            data: found.into_iter().map(|s| session_to_pb(s, None)).collect::<Result<_, _>>()?,
            pagination: Some(page.pagination(total)),
        }))
    }

    async fn get_hosted_session(
        &self,
        request: Request<pb::GetHostedSessionRequest>,
    ) -> Result<Response<pb::HostedSession>, Status> {
        let caller = accept(&request)?;
        let found =
            hosted_sessions::get(&self.core.db, &caller.partner_id, &request.get_ref().hosted_session_id).await?;
        Ok(Response::new(session_to_pb(found, None)?))
    }
}

pub struct HostedPagesService {
    pub core: Core,
}

impl HostedPagesService {
    /// What a page of `session` shows.
    async fn state(
        &self,
        session: &hosted_session::Model,
        secret: Option<String>,
        browser_secret: &str,
        error: Option<String>,
    ) -> Result<pb::PageState, CoreError> {
        let db = &self.core.db;
        let settings = settings_of(session)?;
        let mut state = pb::PageState {
            session_id: session.id.clone(),
            flow: session.flow.to_string(),
            status: hosted_sessions::status_of(session, time::now()).to_string(),
            modal: settings.modal,
            connection_type: settings.connection_type.clone(),
            new_browser_secret: secret,
            csrf: csrf_for(browser_secret),
            error,
            expires_at: time::rfc3339(&session.expires_at),
            sandbox: self.core.config.sandbox,
            frame_ancestors: hosted_sessions::frame_ancestors(db, session).await?,
            ..Default::default()
        };
        if let Some(id) = settings.merchant_id.as_deref().or(settings.administrator_id.as_deref()) {
            let index = self.core.directory.get(db).await?;
            let all = directory::provider_name(db, &index, id).await?;
            state.provider = all.map(|name| pb::ProviderChoice { id: id.to_string(), name });
        }
        let connection_id = session.connection_id.clone().or(settings.connection_id.clone());
        if let Some(id) = connection_id
            && let Some(found) = connection::Entity::find_by_id(id.as_str()).one(db).await?
        {
            if session.flow == Flow::Reconnect {
                state.provider = Some(pb::ProviderChoice {
                    id: found.provider_id.clone().unwrap_or_default(),
                    name: found.provider_name.clone(),
                });
                state.connection_type = Some(found.r#type.to_string());
            }
            if session.status == HostedSessionStatus::Completed || session.flow == Flow::Reconnect {
                state.connection_id = Some(found.id.clone());
                state.connection_status = Some(found.status.to_string());
            }
        }
        if let Some(id) = &session.receipt_id
            && let Some(found) = entities::receipt::Entity::find_by_id(id.as_str()).one(db).await?
        {
            state.receipt_id = Some(found.id);
            state.receipt_status = Some(found.status.to_string());
            state.receipt_reason = found.reason_message;
            if found.status != entities::enums::ReceiptStatus::Processing {
                let expense = entities::transaction::Entity::find()
                    .filter(entities::transaction::Column::ExpenseId.eq(found.expense_id.as_str()))
                    .one(db)
                    .await?;
                if let Some(expense) = expense {
                    state.expense_status = Some(expense.status.to_string());
                    state.eligible_amount = expense.eligible_amount_minor.map(to_major);
                }
            }
        }
        if session.flow == Flow::UploadReceipt {
            let choice = |t: entities::transaction::Model| pb::ExpenseChoice {
                id: t.expense_id,
                description: t.merchant_display_name.unwrap_or(t.description),
                amount: to_major(t.amount_minor),
                date: t.date,
            };
            let expense_id = session.expense_id.clone().or(settings.expense_id.clone());
            match expense_id {
                Some(id) => {
                    let found = entities::transaction::Entity::find()
                        .filter(entities::transaction::Column::ExpenseId.eq(id.as_str()))
                        .one(db)
                        .await?;
                    state.expense = found.map(choice);
                }
                None => {
                    state.expenses =
                        hosted_sessions::reviewable_expenses(db, session).await?.into_iter().map(choice).collect();
                }
            }
        }
        Ok(state)
    }
}

use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

fn caller_of(caller: Option<pb::PageCaller>) -> Result<pb::PageCaller, CoreError> {
    caller.ok_or_else(|| CoreError::invalid("caller", "caller is required."))
}

#[tonic::async_trait]
impl HostedPages for HostedPagesService {
    async fn open_page(&self, request: Request<pb::OpenPageRequest>) -> Result<Response<pb::PageState>, Status> {
        accept_public(&request)?;
        let caller = caller_of(request.into_inner().caller)?;
        let (session, secret) = hosted_sessions::authorize(&self.core.db, &caller, false).await?;
        let browser = secret.clone().or(caller.browser_secret.clone()).unwrap_or_default();
        Ok(Response::new(self.state(&session, secret, &browser, None).await?))
    }

    async fn search_providers(
        &self,
        request: Request<pb::SearchProvidersRequest>,
    ) -> Result<Response<pb::ProviderChoices>, Status> {
        accept_public(&request)?;
        let req = request.into_inner();
        let caller = caller_of(req.caller)?;
        let (session, _) = hosted_sessions::authorize(&self.core.db, &caller, false).await?;
        let kind = settings_of(&session)?.connection_type.unwrap_or_default();
        let search = directory::search_text(req.search)?;
        let index = self.core.directory.get(&self.core.db).await?;
        let data = directory::providers(&index, &kind, search.as_deref())
            .into_iter()
            .map(|(id, name)| pb::ProviderChoice { id, name })
            .collect();
        Ok(Response::new(pb::ProviderChoices { data }))
    }

    async fn submit_login(&self, request: Request<pb::SubmitLoginRequest>) -> Result<Response<pb::PageState>, Status> {
        accept_public(&request)?;
        let req = request.into_inner();
        let caller = caller_of(req.caller)?;
        let (session, _) = hosted_sessions::authorize(&self.core.db, &caller, true).await?;
        let browser = caller.browser_secret.clone().unwrap_or_default();
        if session.status == HostedSessionStatus::Completed {
            return Ok(Response::new(self.state(&session, None, &browser, None).await?));
        }
        let provider_id = req.provider_id.clone();
        let outcome = hosted_sessions::login(
            &self.core.db,
            &*self.core.providers,
            &session,
            req.provider_id,
            &req.username,
            &req.password,
        )
        .await?;
        let after = hosted_sessions::get(&self.core.db, &session.partner_id, &session.id).await?;
        let error = match outcome {
            LoginOutcome::Done(_) => None,
            LoginOutcome::Refused(why) => Some(why),
        };
        let mut state = self.state(&after, None, &browser, error).await?;
        // A refused login goes back to the same provider's form.
        if state.provider.is_none()
            && let Some(id) = provider_id
        {
            let index = self.core.directory.get(&self.core.db).await?;
            let name = directory::provider_name(&self.core.db, &index, &id).await?;
            state.provider = name.map(|name| pb::ProviderChoice { id, name });
        }
        Ok(Response::new(state))
    }

    async fn submit_receipt(
        &self,
        request: Request<pb::SubmitReceiptRequest>,
    ) -> Result<Response<pb::PageState>, Status> {
        accept_public(&request)?;
        let req = request.into_inner();
        let caller = caller_of(req.caller)?;
        let (session, _) = hosted_sessions::authorize(&self.core.db, &caller, true).await?;
        let browser = caller.browser_secret.clone().unwrap_or_default();
        if session.status == HostedSessionStatus::Completed || session.flow != Flow::UploadReceipt {
            return Ok(Response::new(self.state(&session, None, &browser, None).await?));
        }
        let settings = settings_of(&session)?;
        let Some(expense_id) = settings.expense_id.clone().or(req.expense_id) else {
            let state = self.state(&session, None, &browser, Some("Choose the purchase this receipt is for.".into()));
            return Ok(Response::new(state.await?));
        };
        let created = receipts::create_receipt(
            &self.core.db,
            &self.core.vault,
            &session.partner_id,
            &session.user_id,
            &expense_id,
            req.file,
            req.file_name,
        )
        .await;
        let created = match created {
            Ok(created) => created,
            Err(CoreError::InvalidRequest { message, .. } | CoreError::TooLarge { message, .. }) => {
                return Ok(Response::new(self.state(&session, None, &browser, Some(message)).await?));
            }
            Err(CoreError::NotFound { .. }) => {
                let why = "That purchase is not one of yours. Choose one from the list.".to_string();
                return Ok(Response::new(self.state(&session, None, &browser, Some(why)).await?));
            }
            Err(other) => return Err(other.into()),
        };
        let done = hosted_sessions::complete(&self.core.db, &session, |done| {
            done.expense_id = sea_orm::Set(Some(created.expense_id.clone()));
            done.receipt_id = sea_orm::Set(Some(created.id.clone()));
        })
        .await?;
        // Text and PDF receipts are read in milliseconds, images in about a
        // second: wait a little so the page can show the decision at once.
        receipts::wait_until_read(&self.core.db, &created.id, std::time::Duration::from_secs(8)).await?;
        Ok(Response::new(self.state(&done, None, &browser, None).await?))
    }
}
