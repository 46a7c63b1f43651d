//! `sail.v1.ApiHealth`: the core is healthy when its database answers, and
//! ready when, besides, its stop has not begun.

use sail_api::pb::{self, api_health_server::ApiHealth};
use sea_orm::DatabaseConnection;
use tonic::{Request, Response, Status};

use crate::state::Readiness;

pub struct HealthService {
    pub db: DatabaseConnection,
    pub readiness: Readiness,
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

    async fn ready(&self, _request: Request<pb::ReadyRequest>) -> Result<Response<pb::ReadyResponse>, Status> {
        let (status, database) = if self.readiness.is_draining() {
            ("draining", "unchecked")
        } else {
            match self.db.ping().await {
                Ok(()) => ("ready", "ok"),
                Err(err) => {
                    tracing::error!(error = %err, "database ping failed");
                    ("unavailable", "unreachable")
                }
            }
        };
        Ok(Response::new(pb::ReadyResponse { status: status.into(), database: database.into() }))
    }
}
