//! Sail's REST/JSON gateway: stateless translation of `/api/v1` requests into
//! gRPC calls on the core, and of gRPC statuses (with their `google.rpc`
//! details) back into the `{error:{code,message,param}}` envelope. It holds no
//! database and makes no decision the core could make; its own errors (unknown
//! path, wrong method, bad JSON, body too large, timeout) use the same envelope.

#![allow(
    clippy::result_large_err,
    reason = "ApiError is the envelope of a refused request, built once per refusal on the way out; boxing it would cost an allocation for no measurable gain"
)]

pub mod context;
pub mod error;
pub mod extract;
pub mod hosted;
pub mod listener;
pub mod reference_page;
mod request_metrics;
pub mod routes;

use std::time::Duration;

use axum::Router;
use axum::error_handling::HandleErrorLayer;
use axum::extract::DefaultBodyLimit;
use http::{HeaderName, Request};
use sail_api::rest::CoreChannel as Channel;
use tokio::net::TcpListener;
use tonic::transport::Endpoint;
use tower::ServiceBuilder;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;

pub use error::ApiError;

/// The header that carries a request's id, echoed on every response.
pub static REQUEST_ID: HeaderName = HeaderName::from_static("request-id");

/// Settings of a gateway.
#[derive(Debug, Clone)]
pub struct GatewayConfig {
    /// Largest accepted request body (docs/contract.md#running: 2 MiB).
    pub max_body_bytes: usize,
    /// A request still unanswered after this gets an `internal_error`.
    pub request_timeout: Duration,
    /// Set when this gateway's stop begins: `/readyz` answers `draining`
    /// from then on, while requests in flight still finish.
    pub draining: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Default for GatewayConfig {
    fn default() -> Self {
        GatewayConfig {
            max_body_bytes: 2 * 1024 * 1024,
            request_timeout: Duration::from_secs(30),
            draining: std::sync::Arc::default(),
        }
    }
}

/// Marks a request whose `Request-Id` was unusable (too long, or holding a
/// character other than letters, digits and `- _ . : / + = @`); the API
/// answers it `400` naming the header.
#[derive(Debug, Clone, Copy)]
pub struct UnusableRequestId;

/// Drops an unusable `Request-Id` before the request-id layers see it, so a
/// fresh id is made and echoed instead: no header a client sends is echoed
/// back unbounded.
async fn refuse_unusable_request_id(mut request: Request<axum::body::Body>) -> Request<axum::body::Body> {
    let unusable =
        request.headers().get(&REQUEST_ID).is_some_and(|v| !sail_api::required::is_usable_request_id(v.as_bytes()));
    if unusable {
        request.headers_mut().remove(&REQUEST_ID);
        request.extensions_mut().insert(UnusableRequestId);
    }
    request
}

/// A lazily connecting channel to the core at `url` (`http://host:port`):
/// one HTTP/2 connection that every partner's calls share, with its limits
/// explicit (docs/architecture.md#the-connection-between-gateway-and-core).
/// Windows match the core's, so large responses do not hold small ones back;
/// pings notice a dead core between requests.
pub fn core_channel(url: &str) -> Result<Channel, tonic::transport::Error> {
    Ok(sail_api::rest::network(
        Endpoint::from_shared(url.to_string())?
            .connect_timeout(Duration::from_secs(5))
            .tcp_nodelay(true)
            .initial_stream_window_size(2 * 1024 * 1024)
            .initial_connection_window_size(16 * 1024 * 1024)
            .http2_keep_alive_interval(Duration::from_secs(20))
            .keep_alive_timeout(Duration::from_secs(20))
            .keep_alive_while_idle(true)
            .connect_lazy(),
    ))
}

/// The gateway's router, calling the core over `core`.
pub fn router(core: Channel, config: &GatewayConfig) -> Router {
    let trace = TraceLayer::new_for_http()
        .make_span_with(|request: &Request<_>| {
            let request_id = request.headers().get(&REQUEST_ID).and_then(|v| v.to_str().ok()).unwrap_or("");
            let span =
                tracing::info_span!("http", method = %request.method(), path = %request.uri().path(), request_id = %request_id);
            // A caller's W3C `traceparent` makes this request part of its trace.
            sail_api::trace_context::adopt_from_headers(&span, request.headers());
            span
        })
        .on_request(())
        .on_response(|response: &http::Response<_>, latency: Duration, _span: &tracing::Span| {
            // 4xx are the caller's: INFO with the code; 5xx are Sail's: ERROR.
            let status = response.status().as_u16();
            let latency_ms = latency.as_secs_f64() * 1000.0;
            let code = response.extensions().get::<sail_api::ErrorCode>().map(|c| c.as_str()).unwrap_or("");
            if status >= 500 {
                tracing::error!(status, code, latency_ms, "request failed");
            } else if status >= 400 {
                tracing::info!(status, code, latency_ms, "request refused");
            } else {
                tracing::info!(status, latency_ms, "request");
            }
        })
        .on_failure(());

    Router::new()
        .nest("/api/v1", routes::api(core.clone(), config.max_body_bytes))
        .merge(routes::health::router(core.clone(), config.draining.clone()))
        .merge(hosted::router(core))
        .fallback(error::not_found)
        .method_not_allowed_fallback(error::method_not_allowed)
        .layer(axum::middleware::from_fn(request_metrics::count_request))
        .layer(DefaultBodyLimit::max(config.max_body_bytes))
        .layer(
            ServiceBuilder::new()
                .layer(axum::middleware::map_request(refuse_unusable_request_id))
                .layer(SetRequestIdLayer::new(REQUEST_ID.clone(), MakeRequestUuid))
                .layer(PropagateRequestIdLayer::new(REQUEST_ID.clone()))
                .layer(trace)
                .layer(HandleErrorLayer::new(error::middleware_error))
                .timeout(config.request_timeout),
        )
}

/// Serves the gateway on `listener` until `shutdown` resolves, then lets
/// in-flight requests finish.
pub async fn run(
    listener: TcpListener,
    core: Channel,
    config: GatewayConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use axum::serve::ListenerExt;
    // Without TCP_NODELAY a response split over two writes waits out the
    // client's delayed ACK (about 40 ms).
    let listener = listener::GatewayListener::new(listener.tap_io(|tcp| {
        if let Err(err) = tcp.set_nodelay(true) {
            tracing::warn!(error = %err, "could not set TCP_NODELAY");
        }
    }));
    let draining = config.draining.clone();
    let shutdown = async move {
        shutdown.await;
        draining.store(true, std::sync::atomic::Ordering::SeqCst);
    };
    axum::serve(listener, router(core, &config).into_make_service_with_connect_info::<listener::ClientAddr>())
        .with_graceful_shutdown(shutdown)
        .await
}
