//! `sail.v1.Connections`.

use entities::{account, connection};
use sail_api::pb::{self, connections_server::Connections};
use tonic::{Request, Response, Status};

use crate::domain::{Page, time};
use crate::grpc::accept;
use crate::services::connections::{self, ConnectionStatus, NewExternalConnection};
use crate::state::Core;

pub struct ConnectionsService {
    pub core: Core,
}

/// A stored connection in the contract's shape, with its accounts' summaries
/// (`accounts` holds every account; only benefit_account connections have any).
pub fn connection_to_pb(c: connection::Model, accounts: &[account::Model]) -> pb::Connection {
    let summaries = accounts
        .iter()
        .filter(|a| a.connection_id == c.id)
        .map(|a| pb::AccountSummary { id: a.id.clone(), r#type: a.r#type.to_string(), name: a.name.clone() })
        .collect();
    let error = match (&c.error_code, &c.error_message) {
        (Some(code), Some(message)) if c.status == ConnectionStatus::Error => Some(pb::ConnectionError {
            code: code.clone(),
            message: message.clone(),
            recoverable: c.error_recoverable.unwrap_or(false),
        }),
        _ => None,
    };
    pb::Connection {
        id: c.id,
        user_id: c.user_id,
        r#type: c.r#type.to_string(),
        status: c.status.to_string(),
        products: c.products.split(',').filter(|p| !p.is_empty()).map(str::to_string).collect(),
        accounts: summaries,
        provider: Some(pb::Provider {
            id: c.provider_id,
            name: c.provider_name,
            kind: c.provider_kind,
            icon_url: c.provider_icon_url,
        }),
        error,
        last_sync_at: c.last_sync_at.as_ref().map(time::rfc3339),
        created_at: time::rfc3339(&c.created_at),
        updated_at: time::rfc3339(&c.updated_at),
    }
}

/// Renders connections with their account summaries (one query for all).
pub async fn render(core: &Core, found: Vec<connection::Model>) -> Result<Vec<pb::Connection>, crate::CoreError> {
    let accounts = connections::accounts_of(&core.db, found.iter().map(|c| c.id.clone()).collect()).await?;
    Ok(found.into_iter().map(|c| connection_to_pb(c, &accounts)).collect())
}

pub async fn render_one(core: &Core, found: connection::Model) -> Result<pb::Connection, crate::CoreError> {
    render(core, vec![found]).await?.pop().ok_or_else(|| crate::CoreError::Internal("connection vanished".into()))
}

#[tonic::async_trait]
impl Connections for ConnectionsService {
    async fn create_connection(
        &self,
        request: Request<pb::CreateConnectionRequest>,
    ) -> Result<Response<pb::Connection>, Status> {
        let caller = accept(&request)?;
        let req = request.into_inner();
        let new = NewExternalConnection::parse(&req.r#type, &req.provider_label, &req.products)?;
        let created = connections::create_external(&self.core.db, &caller.partner_id, &req.user_id, new).await?;
        Ok(Response::new(render_one(&self.core, created).await?))
    }

    async fn list_connections(
        &self,
        request: Request<pb::ListConnectionsRequest>,
    ) -> Result<Response<pb::ListConnectionsResponse>, Status> {
        let caller = accept(&request)?;
        let req = request.into_inner();
        let page = Page::parse(req.limit, req.offset)?;
        let (found, total) =
            connections::list_connections(&self.core.db, &caller.partner_id, &req.user_id, page).await?;
        Ok(Response::new(pb::ListConnectionsResponse {
            data: render(&self.core, found).await?,
            pagination: Some(page.pagination(total)),
        }))
    }

    async fn get_connection(
        &self,
        request: Request<pb::GetConnectionRequest>,
    ) -> Result<Response<pb::Connection>, Status> {
        let caller = accept(&request)?;
        let req = request.into_inner();
        let found =
            connections::get_connection(&self.core.db, &caller.partner_id, &req.user_id, &req.connection_id).await?;
        Ok(Response::new(render_one(&self.core, found).await?))
    }

    async fn delete_connection(
        &self,
        request: Request<pb::DeleteConnectionRequest>,
    ) -> Result<Response<pb::Connection>, Status> {
        let caller = accept(&request)?;
        let req = request.into_inner();
        let done = connections::disconnect(&self.core.db, &caller.partner_id, &req.user_id, &req.connection_id).await?;
        Ok(Response::new(render_one(&self.core, done).await?))
    }
}
