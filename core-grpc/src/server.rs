//! Serving the core: every sail.v1 service behind the authentication layer,
//! plus `grpc.health.v1` and server reflection (v1 and v1alpha, so grpcurl
//! before 1.8.8 can list services without .proto files), and the background
//! workers that run jobs.

use sail_api::pb::{
    accounts_server::AccountsServer, administrators_server::AdministratorsServer, api_health_server::ApiHealthServer,
    connections_server::ConnectionsServer, expenses_server::ExpensesServer, jobs_server::JobsServer,
    merchants_server::MerchantsServer, sandbox_server::SandboxServer, transactions_server::TransactionsServer,
    users_server::UsersServer,
};
use sail_api::pb::{
    hosted_pages_server::HostedPagesServer, hosted_sessions_server::HostedSessionsServer,
    identity_server::IdentityServer, receipts_server::ReceiptsServer, user_tokens_server::UserTokensServer,
};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tonic::service::Routes;
use tonic::transport::Server;
use tonic::transport::server::TcpIncoming;
use tower_http::auth::AsyncRequireAuthorizationLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;

use crate::background::delivery::Deliveries;
use crate::background::job_worker::Jobs;
use crate::background::retention::RetentionSweeps;
use crate::background::worker;
use crate::grpc::hosted_sessions::{HostedPagesService, HostedSessionsService};
use crate::grpc::webhooks::WebhooksService;
use crate::grpc::{
    accounts::AccountsService, connections::ConnectionsService, directory::DirectoryService, health::HealthService,
    sandbox::SandboxService, transactions::TransactionsService, user_tokens::UserTokensService, users::UsersService,
};
use crate::layers::auth::Authenticator;
use crate::platform::jobs::JobPool;
use crate::state::Core;
use sail_api::pb::{events_server::EventsServer, webhook_endpoints_server::WebhookEndpointsServer};

/// The tower layers every call passes, over the network or in process:
/// a request id (the caller's `request-id`, or one made here, echoed back)
/// on every log line the call causes; one log line per call, at a level
/// that follows the outcome; then authentication, rate limits and scopes
/// (`auth`); then `Idempotency-Key` for the methods proto declares
/// idempotent (`idempotency`). In process, the gateway's span (with the same request id) is
/// already open and its one line per request already logged, so the core
/// adds no span of its own and logs only its failures (at ERROR), keeping
/// one line per request. A macro, because the layers' types (closures
/// among them) cannot be named, and the same stack must serve both paths.
macro_rules! call_layers {
    ($core:expr, $in_process:expr) => {{
        let in_process: bool = $in_process;
        let request_id = http::HeaderName::from_static("request-id");
        let trace = TraceLayer::new_for_grpc()
            .make_span_with(move |request: &http::Request<_>| {
                if in_process {
                    return tracing::Span::none();
                }
                let request_id = request.headers().get("request-id").and_then(|v| v.to_str().ok()).unwrap_or("");
                let span = tracing::info_span!("grpc", path = %request.uri().path(), request_id = %request_id);
                // The gateway's (or a gRPC caller's) `traceparent`: the call
                // joins its trace (docs/operations.md#traces).
                sail_api::trace_context::adopt_from_headers(&span, request.headers());
                span
            })
            .on_request(())
            .on_response(move |response: &http::Response<_>, latency: std::time::Duration, _span: &tracing::Span| {
                log_call(response, latency, in_process)
            })
            .on_failure(());
        tower::ServiceBuilder::new()
            // A caller's request id goes into log lines: one that is not a
            // plain id is replaced by one made here, never logged.
            .map_request(|mut request: http::Request<_>| {
                if request.headers().get("request-id").is_some_and(|v| !sail_api::required::is_usable_request_id(v.as_bytes())) {
                    request.headers_mut().remove("request-id");
                }
                request
            })
            .layer(crate::layers::call_metrics::CallMetricsLayer)
            .layer(SetRequestIdLayer::new(request_id.clone(), MakeRequestUuid))
            .layer(PropagateRequestIdLayer::new(request_id))
            .layer(trace)
            .layer(AsyncRequireAuthorizationLayer::new(Authenticator::new(
                $core.db.clone(),
                $core.limits.clone(),
                $core.keys.clone(),
                $core.address_limits.clone(),
            )))
            .layer(crate::layers::idempotency::IdempotencyLayer::new(
                $core.db.clone(),
                $core.vault.clone(),
                $core.liveness.clone(),
            ))
    }};
}

/// The largest gRPC message of the two services that carry a receipt file
/// (an API upload and a hosted page's): the file plus room for the other
/// fields. Above tonic's 4 MiB default; the core refuses a file over the
/// limit by name.
const RECEIPT_MESSAGE_LIMIT: usize = crate::services::receipts::MAX_RECEIPT_BYTES + 64 * 1024;

/// Every sail.v1 service of `core`.
fn api_routes(core: &Core) -> Routes {
    Routes::new(ApiHealthServer::new(HealthService { db: core.db.clone(), readiness: core.readiness.clone() }))
        .add_service(UsersServer::new(UsersService { core: core.clone() }))
        .add_service(UserTokensServer::new(UserTokensService { core: core.clone() }))
        .add_service(HostedSessionsServer::new(HostedSessionsService { core: core.clone() }))
        .add_service(
            HostedPagesServer::new(HostedPagesService { core: core.clone() })
                .max_decoding_message_size(RECEIPT_MESSAGE_LIMIT),
        )
        .add_service(IdentityServer::new(UserTokensService { core: core.clone() }))
        .add_service(MerchantsServer::new(DirectoryService { core: core.clone() }))
        .add_service(AdministratorsServer::new(DirectoryService { core: core.clone() }))
        .add_service(ConnectionsServer::new(ConnectionsService { core: core.clone() }))
        .add_service(AccountsServer::new(AccountsService { core: core.clone() }))
        .add_service(SandboxServer::new(SandboxService { core: core.clone() }))
        .add_service(TransactionsServer::new(TransactionsService { core: core.clone() }))
        .add_service(JobsServer::new(TransactionsService { core: core.clone() }))
        .add_service(ExpensesServer::new(TransactionsService { core: core.clone() }))
        .add_service(
            ReceiptsServer::new(TransactionsService { core: core.clone() })
                .max_decoding_message_size(RECEIPT_MESSAGE_LIMIT),
        )
        .add_service(WebhookEndpointsServer::new(WebhooksService { core: core.clone() }))
        .add_service(EventsServer::new(WebhooksService { core: core.clone() }))
}

/// The core's services as a channel a gateway in the same process calls
/// without a socket: the same tonic services behind the same layers
/// (authentication, scopes, rate limits, errors), requests and replies
/// still encoded as gRPC messages, so a call answers exactly as over the
/// network (docs/architecture.md#a-requests-path). `sail serve` uses it;
/// the gRPC port stays for external callers. A call in process has no
/// peer address: its client's address is the one the gateway forwards.
pub fn in_process(core: &Core) -> sail_api::rest::CoreChannel {
    use tower::ServiceExt;
    core.liveness.start(core.db.clone());
    let service = call_layers!(core, true)
        .service(api_routes(core))
        .map_response(|response: http::Response<_>| response.map(tonic::body::Body::new))
        .map_err(|never: std::convert::Infallible| -> sail_api::rest::ChannelError { match never {} });
    tower::util::BoxCloneSyncService::new(service)
}

/// Errors that stop the server itself.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("gRPC transport: {0}")]
    Transport(#[from] tonic::transport::Error),
    #[error("reflection descriptors: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
    #[error("encryption keys: {0}")]
    Keys(#[from] crate::platform::crypto::KeyCheckError),
}

/// Serves the core on `listener` and runs its workers until `shutdown`
/// resolves; then drains in-flight calls, lets workers finish the job in
/// hand, and returns.
pub async fn run(
    listener: TcpListener,
    core: Core,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), ServeError> {
    // Whoever started this core, it never serves with a key that cannot
    // open what the database holds.
    crate::platform::crypto::check_database(&core.db, &core.config.keyring).await?;
    // The fleet knows this core is alive while it beats.
    core.liveness.start(core.db.clone());
    let (health, health_service) = tonic_health::server::health_reporter();
    health.set_serving::<UsersServer<UsersService>>().await;
    health.set_serving::<TransactionsServer<TransactionsService>>().await;
    health.set_serving::<ExpensesServer<TransactionsService>>().await;
    health.set_serving::<ConnectionsServer<ConnectionsService>>().await;
    health.set_serving::<AccountsServer<AccountsService>>().await;
    health.set_serving::<MerchantsServer<DirectoryService>>().await;
    health.set_serving::<AdministratorsServer<DirectoryService>>().await;
    health.set_serving::<UserTokensServer<UserTokensService>>().await;
    health.set_serving::<ReceiptsServer<TransactionsService>>().await;
    health.set_serving::<HostedSessionsServer<HostedSessionsService>>().await;
    health.set_serving::<IdentityServer<UserTokensService>>().await;
    // From the moment the stop begins, a gRPC probe of the whole server
    // ("") reads NOT_SERVING.
    let readiness = core.readiness.clone();
    tokio::spawn(async move {
        readiness.drained().await;
        health.set_service_status("", tonic_health::ServingStatus::NotServing).await;
    });

    let reflection_v1 = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(sail_api::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1()?;
    let reflection_v1alpha = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(sail_api::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1alpha()?;

    let (stop_tx, stop_rx) = watch::channel(false);
    // Each kind of background work has workers of its own, so none waits
    // behind another (docs/architecture.md#background-work). A core with
    // no ingestion workers is an API-only core and runs none at all.
    let mut workers = Vec::new();
    if core.config.workers > 0 {
        let pools = [(JobPool::Ingestion, core.config.workers), (JobPool::Receipts, core.config.receipt_workers)];
        for (pool, count) in pools {
            for _ in 0..count {
                let jobs = Jobs::new(pool, stop_rx.clone());
                workers.push(tokio::spawn(worker::run(core.clone(), jobs, stop_rx.clone())));
            }
        }
        workers.push(tokio::spawn(worker::run(core.clone(), Deliveries::start(&core), stop_rx.clone())));
        workers.push(tokio::spawn(worker::run(core.clone(), RetentionSweeps, stop_rx.clone())));
    }

    let routes =
        api_routes(&core).add_service(health_service).add_service(reflection_v1).add_service(reflection_v1alpha);
    use crate::config::http2;
    let served = Server::builder()
        .initial_stream_window_size(http2::STREAM_WINDOW)
        .initial_connection_window_size(http2::CONNECTION_WINDOW)
        .max_concurrent_streams(http2::MAX_CONCURRENT_STREAMS)
        .http2_max_header_list_size(http2::MAX_HEADER_LIST_BYTES)
        .http2_keepalive_interval(Some(http2::KEEPALIVE_INTERVAL))
        .http2_keepalive_timeout(Some(http2::KEEPALIVE_TIMEOUT))
        .layer(call_layers!(core, false))
        .add_routes(routes)
        .serve_with_incoming_shutdown(
            // Without TCP_NODELAY a response split over two writes waits out
            // the client's delayed ACK (about 40 ms).
            TcpIncoming::from(listener).with_nodelay(Some(true)),
            {
                let readiness = core.readiness.clone();
                async move {
                    shutdown.await;
                    readiness.begin_drain();
                    let _ = stop_tx.send(true);
                }
            },
        )
        .await;
    for handle in workers {
        let _ = handle.await;
    }
    served?;
    Ok(())
}

/// One log line per call: refusals (the caller's mistakes) at INFO, failures
/// of Sail's own at ERROR, with the gRPC code either way. A call whose status
/// comes in trailers (a success, as a rule) is logged as OK. In process
/// (`in_process`), only failures: the gateway logs the request.
fn log_call<B>(response: &http::Response<B>, latency: std::time::Duration, in_process: bool) {
    let code = crate::layers::call_metrics::grpc_code(response.headers());
    let latency_ms = latency.as_secs_f64() * 1000.0;
    match code {
        tonic::Code::Internal
        | tonic::Code::Unknown
        | tonic::Code::DataLoss
        | tonic::Code::Unavailable
        | tonic::Code::DeadlineExceeded
        | tonic::Code::Unimplemented => tracing::error!(grpc_code = ?code, latency_ms, "call failed"),
        _ if in_process => {}
        tonic::Code::Ok => tracing::info!(grpc_code = ?code, latency_ms, "call"),
        _ => tracing::info!(grpc_code = ?code, latency_ms, "call refused"),
    }
}
