//! `sail.v1.Users`.

use sail_api::pb::{self, users_server::Users};
use tonic::{Request, Response, Status};

use crate::domain::{Page, time};
use crate::error::CoreError;
use crate::grpc::accept;
use crate::platform::crypto::Keyring;
use crate::services::users::{self, NewUser, UserChange, UserSummary};
use crate::state::Core;

pub struct UsersService {
    pub core: Core,
}

/// The wire form of a user, its external id opened.
pub fn user_to_pb(keyring: &Keyring, user: UserSummary) -> Result<pb::User, CoreError> {
    Ok(pb::User {
        external_user_id: users::external_user_id(keyring, &user.id, &user.external_user_id)?,
        id: user.id,
        status: user.status.to_string(),
        created_at: time::rfc3339(&user.created_at),
    })
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
        let keyring = &self.core.config.keyring;
        Ok(Response::new(pb::ListUsersResponse {
            data: found.into_iter().map(|u| user_to_pb(keyring, u)).collect::<Result<_, _>>()?,
            pagination: Some(page.pagination(total)),
        }))
    }

    async fn create_user(&self, request: Request<pb::CreateUserRequest>) -> Result<Response<pb::User>, Status> {
        let caller = accept(&request)?;
        let new = NewUser::try_from(request.into_inner())?;
        let keyring = &self.core.config.keyring;
        let created = users::create_user(&self.core.db, keyring, &caller.partner_id, new).await?;
        Ok(Response::new(user_to_pb(keyring, created.into())?))
    }

    async fn get_user(&self, request: Request<pb::GetUserRequest>) -> Result<Response<pb::User>, Status> {
        let caller = accept(&request)?;
        let found = users::get_user_summary(&self.core.db, &caller.partner_id, &request.get_ref().user_id).await?;
        Ok(Response::new(user_to_pb(&self.core.config.keyring, found)?))
    }

    async fn update_user(&self, request: Request<pb::UpdateUserRequest>) -> Result<Response<pb::User>, Status> {
        let caller = accept(&request)?;
        let req = request.into_inner();
        let user_id = req.user_id.clone();
        let change = UserChange::try_from(req)?;
        let keyring = &self.core.config.keyring;
        let updated = users::update_user(&self.core.db, keyring, &caller.partner_id, &user_id, change).await?;
        Ok(Response::new(user_to_pb(keyring, updated.into())?))
    }
}
