//! Serving the core: every sail.v1 service behind the authentication layer,
//! plus `grpc.health.v1` and server reflection (v1 and v1alpha, so grpcurl
//! before 1.8.8 can list services without .proto files).

use std::sync::Arc;

use sail_api::pb::{
    administrators_server::AdministratorsServer, api_health_server::ApiHealthServer,
    merchants_server::MerchantsServer, users_server::UsersServer,
};
use sea_orm::DatabaseConnection;
use tokio::net::TcpListener;
use tonic::transport::Server;
use tonic::transport::server::TcpIncoming;
use tower_http::auth::AsyncRequireAuthorizationLayer;
use tower_http::trace::TraceLayer;

use crate::auth::{Authenticator, RateLimits};
use crate::config::CoreConfig;
use crate::grpc::{directory::DirectoryService, health::HealthService, users::UsersService};

/// Everything a running core shares between requests.
#[derive(Clone)]
pub struct Core {
    pub db: DatabaseConnection,
    pub config: Arc<CoreConfig>,
    pub limits: Arc<RateLimits>,
}

impl Core {
    pub fn new(db: DatabaseConnection, config: CoreConfig) -> Self {
        let limits = Arc::new(RateLimits::new(config.rate_limit_rps, config.rate_limit_burst));
        Core { db, config: Arc::new(config), limits }
    }
}

/// Errors that stop the server itself.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("gRPC transport: {0}")]
    Transport(#[from] tonic::transport::Error),
    #[error("reflection descriptors: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
}

/// Serves the core on `listener` until `shutdown` resolves, then drains
/// in-flight calls and returns.
pub async fn run(
    listener: TcpListener,
    core: Core,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), ServeError> {
    let (health, health_service) = tonic_health::server::health_reporter();
    health.set_serving::<UsersServer<UsersService>>().await;
    health.set_serving::<MerchantsServer<DirectoryService>>().await;
    health.set_serving::<AdministratorsServer<DirectoryService>>().await;

    let reflection_v1 = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(sail_api::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1()?;
    let reflection_v1alpha = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(sail_api::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1alpha()?;

    let db = core.db.clone();
    let trace = TraceLayer::new_for_grpc().make_span_with(|request: &http::Request<_>| {
        let request_id = request.headers().get("request-id").and_then(|v| v.to_str().ok()).unwrap_or("");
        tracing::info_span!("grpc", path = %request.uri().path(), request_id = %request_id)
    });
    Server::builder()
        .layer(trace)
        .layer(AsyncRequireAuthorizationLayer::new(Authenticator::new(db.clone(), core.limits.clone())))
        .add_service(health_service)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .add_service(ApiHealthServer::new(HealthService { db: db.clone() }))
        .add_service(UsersServer::new(UsersService { db: db.clone() }))
        .add_service(MerchantsServer::new(DirectoryService { db: db.clone() }))
        .add_service(AdministratorsServer::new(DirectoryService { db }))
        .serve_with_incoming_shutdown(
            // Without TCP_NODELAY a response split over two writes waits out
            // the client's delayed ACK (about 40 ms).
            TcpIncoming::from(listener).with_nodelay(Some(true)),
            shutdown,
        )
        .await?;
    Ok(())
}
