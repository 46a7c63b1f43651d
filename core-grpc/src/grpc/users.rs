//! `sail.v1.Users`.

use entities::user;
use sail_api::pb::{self, users_server::Users};
use sea_orm::DatabaseConnection;
use tonic::{Request, Response, Status};

use crate::domain::{Page, time};
use crate::grpc::accept;
use crate::idempotency;
use crate::users::{self, NewUser};

pub struct UsersService {
    pub db: DatabaseConnection,
}

pub fn user_to_pb(user: user::Model) -> pb::User {
    pb::User {
        id: user.id,
        external_user_id: user.external_user_id,
        status: user.status.to_string(),
        created_at: time::rfc3339(&user.created_at),
    }
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
        let (found, total) = users::list_users(&self.db, &caller.partner_id, status, page).await?;
        Ok(Response::new(pb::ListUsersResponse {
            data: found.into_iter().map(user_to_pb).collect(),
            pagination: Some(page.pagination(total)),
        }))
    }

    async fn create_user(&self, request: Request<pb::CreateUserRequest>) -> Result<Response<pb::User>, Status> {
        let caller = accept(&request)?;
        let key = idempotency::key_of(&request)?;
        let req = request.into_inner();
        let reply = idempotency::once(&self.db, &caller.partner_id, key, "/sail.v1.Users/CreateUser", &req, || async {
            let new = NewUser::try_from(req.clone())?;
            Ok(user_to_pb(users::create_user(&self.db, &caller.partner_id, new).await?))
        })
        .await?;
        Ok(Response::new(reply))
    }

    async fn get_user(&self, request: Request<pb::GetUserRequest>) -> Result<Response<pb::User>, Status> {
        let caller = accept(&request)?;
        let found = users::get_user(&self.db, &caller.partner_id, &request.get_ref().user_id).await?;
        Ok(Response::new(user_to_pb(found)))
    }
}
