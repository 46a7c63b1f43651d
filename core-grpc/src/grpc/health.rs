//! `sail.v1.ApiHealth`: the core is ready when its database answers.

use sail_api::pb::{self, api_health_server::ApiHealth};
use sea_orm::DatabaseConnection;
use tonic::{Request, Response, Status};

pub struct HealthService {
    pub db: DatabaseConnection,
}

#[tonic::async_trait]
impl ApiHealth for HealthService {
    async fn check(&self, _request: Request<pb::CheckRequest>) -> Result<Response<pb::CheckResponse>, Status> {
        match self.db.ping().await {
            Ok(()) => Ok(Response::new(pb::CheckResponse { status: "ok".into(), database: "ok".into() })),
            Err(err) => {
                tracing::error!(error = %err, "database ping failed");
                Err(Status::unavailable("The database is unreachable."))
            }
        }
    }
}
