//! Every call to the core counted and timed by operation and outcome
//! (docs/operations.md#metrics): `sail_grpc_calls_total{operation, code}`
//! and `sail_grpc_call_duration_seconds{operation}`. The operation is the
//! gRPC method when it is one of Sail's (the generated access table knows
//! it) or a health or reflection call, and `other` otherwise, so a caller
//! cannot mint labels. The code is read from the reply's head: a unary
//! failure comes back trailers-only with `grpc-status` there; a reply
//! without it is a success.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Instant;

use http::{Request, Response};

/// The layer.
#[derive(Clone, Copy, Debug, Default)]
pub struct CallMetricsLayer;

impl<S> tower::Layer<S> for CallMetricsLayer {
    type Service = CallMetrics<S>;

    fn layer(&self, inner: S) -> CallMetrics<S> {
        CallMetrics { inner }
    }
}

/// The service [`CallMetricsLayer`] wraps.
#[derive(Clone, Debug)]
pub struct CallMetrics<S> {
    inner: S,
}

/// The label a call's method path gets: bounded whatever is sent.
pub fn operation_label(path: &str) -> &'static str {
    if let Some(known) = sail_api::access::METHOD_PATHS.iter().find(|known| **known == path) {
        return known;
    }
    if path.starts_with("/grpc.health.v1.Health/") {
        "grpc.health"
    } else if path.starts_with("/grpc.reflection.") {
        "grpc.reflection"
    } else {
        "other"
    }
}

/// The status of a reply, from its head: a unary failure comes back
/// trailers-only with `grpc-status` there; a reply without it succeeded.
pub fn grpc_code(headers: &http::HeaderMap) -> tonic::Code {
    headers
        .get("grpc-status")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<i32>().ok())
        .map(tonic::Code::from)
        .unwrap_or(tonic::Code::Ok)
}

/// The `code` label of a gRPC status code: its canonical lower-case name.
pub fn code_label(code: tonic::Code) -> &'static str {
    match code {
        tonic::Code::Ok => "ok",
        tonic::Code::Cancelled => "cancelled",
        tonic::Code::Unknown => "unknown",
        tonic::Code::InvalidArgument => "invalid_argument",
        tonic::Code::DeadlineExceeded => "deadline_exceeded",
        tonic::Code::NotFound => "not_found",
        tonic::Code::AlreadyExists => "already_exists",
        tonic::Code::PermissionDenied => "permission_denied",
        tonic::Code::ResourceExhausted => "resource_exhausted",
        tonic::Code::FailedPrecondition => "failed_precondition",
        tonic::Code::Aborted => "aborted",
        tonic::Code::OutOfRange => "out_of_range",
        tonic::Code::Unimplemented => "unimplemented",
        tonic::Code::Internal => "internal",
        tonic::Code::Unavailable => "unavailable",
        tonic::Code::DataLoss => "data_loss",
        tonic::Code::Unauthenticated => "unauthenticated",
    }
}

type CallFuture<B> = Pin<Box<dyn Future<Output = Result<Response<B>, Infallible>> + Send + 'static>>;

impl<S, ReqB, ResB> tower::Service<Request<ReqB>> for CallMetrics<S>
where
    S: tower::Service<Request<ReqB>, Response = Response<ResB>, Error = Infallible> + Send,
    S::Future: Send + 'static,
    ResB: 'static,
{
    type Response = Response<ResB>;
    type Error = Infallible;
    type Future = CallFuture<ResB>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<ReqB>) -> CallFuture<ResB> {
        let operation = operation_label(request.uri().path());
        let started = Instant::now();
        let call = self.inner.call(request);
        Box::pin(async move {
            let response = call.await?;
            let code = grpc_code(response.headers());
            metrics::counter!("sail_grpc_calls_total", "operation" => operation, "code" => code_label(code))
                .increment(1);
            metrics::histogram!("sail_grpc_call_duration_seconds", "operation" => operation)
                .record(started.elapsed().as_secs_f64());
            Ok(response)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_known_operations_become_labels() {
        assert_eq!(operation_label("/sail.v1.Users/CreateUser"), "/sail.v1.Users/CreateUser");
        assert_eq!(operation_label("/sail.v1.Users/NoSuchMethod"), "other");
        assert_eq!(operation_label("/usr_0193a5b2c4d87e6f9a0b1c2d3e4f5a6b"), "other");
        assert_eq!(operation_label("/grpc.health.v1.Health/Check"), "grpc.health");
    }
}
