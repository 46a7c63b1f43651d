//! `sail.v1.Sandbox`.

use sail_api::pb::{self, sandbox_server::Sandbox};
use tonic::{Request, Response, Status};

use crate::error::CoreError;
use crate::grpc::accept;
use crate::grpc::connections::render_one;
use crate::grpc::webhooks::event_detail;
use crate::sandbox::{self, SandboxUser};
use crate::services::connections::{ConnectionTypeRules, parse_provider_kind};
use crate::services::events::EventType;
use crate::services::providers::LinkRequest;
use crate::state::Core;

pub struct SandboxService {
    pub core: Core,
}

#[tonic::async_trait]
impl Sandbox for SandboxService {
    async fn create_sandbox_connection(
        &self,
        request: Request<pb::CreateSandboxConnectionRequest>,
    ) -> Result<Response<pb::Connection>, Status> {
        if !self.core.config.sandbox {
            return Err(CoreError::NotFoundRoute.into());
        }
        let caller = accept(&request)?;
        let req = request.into_inner();
        let kind = parse_provider_kind(&req.r#type)?;
        // The same scope the connect_account hosted session for this kind needs.
        let scope = kind.linking_scope();
        if !caller.scopes.contains(scope) {
            return Err(CoreError::InsufficientKeyScope(format!(
                "Linking a {} connection needs the {scope} scope.",
                kind.as_str()
            ))
            .into());
        }
        let username = SandboxUser::parse(req.username.as_deref())?;
        let products = sandbox::parse_products(kind, &req.products)?;
        let link = LinkRequest { kind, provider_id: req.provider_id, credential: username.credential(), products };
        let linked = sandbox::link(&self.core.db, &caller.partner_id, &req.user_id, link).await?;
        Ok(Response::new(render_one(&self.core, linked).await?))
    }
    async fn create_sandbox_event(
        &self,
        request: Request<pb::CreateSandboxEventRequest>,
    ) -> Result<Response<pb::Event>, Status> {
        if !self.core.config.sandbox {
            return Err(CoreError::NotFoundRoute.into());
        }
        let caller = accept(&request)?;
        let req = request.into_inner();
        let kind = EventType::parse(&req.r#type).ok_or_else(|| {
            CoreError::invalid("type", format!("type must be one of: {}.", crate::services::events::event_type_list()))
        })?;
        let fired = sandbox::events::fire(&self.core.db, &caller.partner_id, kind, req.user_id.as_deref()).await?;
        Ok(Response::new(event_detail(&self.core, fired).await?))
    }
}
