//! `sail.v1.Users`.

use entities::user;
use sail_api::pb::{self, users_server::Users};
use sea_orm::DatabaseConnection;
use tonic::{Request, Response, Status};

use crate::auth::caller;
use crate::domain::{Page, time};
use crate::users::{self, NewUser, NewUserFields, UserStatus};

pub struct UsersService {
    pub db: DatabaseConnection,
}

pub fn user_to_pb(user: user::Model) -> pb::User {
    pb::User {
        id: user.id,
        external_user_id: user.external_user_id,
        status: user.status,
        created_at: time::rfc3339(&user.created_at),
    }
}

#[tonic::async_trait]
impl Users for UsersService {
    async fn list_users(
        &self,
        request: Request<pb::ListUsersRequest>,
    ) -> Result<Response<pb::ListUsersResponse>, Status> {
        let caller = caller(&request)?;
        let req = request.into_inner();
        let status = req.status.as_deref().map(UserStatus::parse).transpose()?;
        let page = Page::parse(req.limit, req.offset)?;
        let (found, total) = users::list_users(&self.db, &caller.partner_id, status, page).await?;
        Ok(Response::new(pb::ListUsersResponse {
            data: found.into_iter().map(user_to_pb).collect(),
            pagination: Some(page.pagination(total)),
        }))
    }

    async fn create_user(&self, request: Request<pb::CreateUserRequest>) -> Result<Response<pb::User>, Status> {
        let caller = caller(&request)?;
        let req = request.into_inner();
        let address = req.address.unwrap_or_default();
        let new = NewUser::parse(NewUserFields {
            external_user_id: req.external_user_id,
            email: req.email,
            first_name: req.first_name,
            last_name: req.last_name,
            phone: req.phone,
            street: address.street,
            city: address.city,
            state: address.state,
            zip: address.zip,
            country: address.country,
        })?;
        let created = users::create_user(&self.db, &caller.partner_id, new).await?;
        Ok(Response::new(user_to_pb(created)))
    }

    async fn get_user(&self, request: Request<pb::GetUserRequest>) -> Result<Response<pb::User>, Status> {
        let caller = caller(&request)?;
        let found = users::get_user(&self.db, &caller.partner_id, &request.get_ref().user_id).await?;
        Ok(Response::new(user_to_pb(found)))
    }
}
