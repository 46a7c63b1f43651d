//! `sail.v1.Users`.

use sail_api::pb::{self, users_server::Users};
use tonic::{Request, Response, Status};

use crate::domain::{Page, time};
use crate::error::CoreError;
use crate::grpc::{accept, request_id};
use crate::layers::idempotency::ReplyOwner;
use crate::platform::vault::Vault;
use crate::services::audit::Reader;
use crate::services::users::{self, NewUser, UserChange, UserSummary};
use crate::state::Core;

pub struct UsersService {
    pub core: Core,
}

/// The wire form of a user whose external id is opened.
fn user_to_pb(external_user_id: String, user: UserSummary) -> pb::User {
    pb::User {
        external_user_id,
        id: user.id,
        status: user.status.to_string(),
        created_at: time::rfc3339(&user.created_at),
    }
}

/// The wire form of one user, its external id opened.
async fn one_user_to_pb(
    db: &sea_orm::DatabaseConnection,
    vault: &Vault,
    user: UserSummary,
) -> Result<pb::User, CoreError> {
    let external = users::external_user_ids(db, vault, std::slice::from_ref(&user)).await?;
    Ok(user_to_pb(external.into_iter().next().unwrap_or_default(), user))
}

#[tonic::async_trait]
impl Users for UsersService {
    async fn list_users(
        &self,
        request: Request<pb::ListUsersRequest>,
    ) -> Result<Response<pb::ListUsersResponse>, Status> {
        let caller = accept(&request)?;
        let req = request.into_inner();
        let status = req.status.as_deref().map(users::parse_user_status).transpose()?;
        let page = Page::parse(req.limit, req.offset)?;
        let (found, total) = users::list_users(&self.core.db, &caller.partner_id, status, page).await?;
        let external = users::external_user_ids(&self.core.db, &self.core.vault, &found).await?;
        Ok(Response::new(pb::ListUsersResponse {
            data: found.into_iter().zip(external).map(|(u, external)| user_to_pb(external, u)).collect(),
            pagination: Some(page.pagination(total)),
        }))
    }

    async fn create_user(&self, request: Request<pb::CreateUserRequest>) -> Result<Response<pb::User>, Status> {
        let caller = accept(&request)?;
        let new = NewUser::try_from(request.into_inner())?;
        let vault = &self.core.vault;
        let created = users::create_user(&self.core.db, vault, &caller.partner_id, new).await?;
        let owner = ReplyOwner(created.id.clone());
        let mut response = Response::new(one_user_to_pb(&self.core.db, vault, created.into()).await?);
        // A kept copy for Idempotency-Key replays holds the external id:
        // it is the user's, sealed under its key and deleted with it.
        response.extensions_mut().insert(owner);
        Ok(response)
    }

    async fn get_user(&self, request: Request<pb::GetUserRequest>) -> Result<Response<pb::User>, Status> {
        let caller = accept(&request)?;
        let found = users::get_user_summary(&self.core.db, &caller.partner_id, &request.get_ref().user_id).await?;
        Ok(Response::new(one_user_to_pb(&self.core.db, &self.core.vault, found).await?))
    }

    async fn update_user(&self, request: Request<pb::UpdateUserRequest>) -> Result<Response<pb::User>, Status> {
        let caller = accept(&request)?;
        let req = request.into_inner();
        let user_id = req.user_id.clone();
        let change = UserChange::try_from(req)?;
        let vault = &self.core.vault;
        let updated = users::update_user(&self.core.db, vault, &caller.partner_id, &user_id, change).await?;
        Ok(Response::new(one_user_to_pb(&self.core.db, vault, updated.into()).await?))
    }

    async fn delete_user(&self, request: Request<pb::DeleteUserRequest>) -> Result<Response<pb::DeletedUser>, Status> {
        let caller = accept(&request)?;
        let request_id = request_id(&request);
        // A deletion presents no user token: the trail records the key.
        let actor = Reader {
            partner_id: &caller.partner_id,
            key_id: &caller.key_id,
            user_token_id: "",
            request_id: request_id.as_deref(),
        };
        let deleted = users::delete_user(&self.core.db, &self.core.vault, &actor, &request.get_ref().user_id).await?;
        Ok(Response::new(pb::DeletedUser { id: deleted.id, deleted: true }))
    }
}
