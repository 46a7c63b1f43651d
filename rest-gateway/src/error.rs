//! The JSON error envelope, and the one conversion of a gRPC status into it.

use std::collections::HashMap;

use axum::Json;
use axum::response::{IntoResponse, Response};
use http::{HeaderValue, Method, StatusCode, Uri};
use sail_api::{ErrorCode, ErrorDetail};
use serde_json::json;

/// An error on its way to the partner as `{error:{code,message,param}}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    detail: ErrorDetail,
    allow: Option<String>,
}

impl ApiError {
    pub fn new(detail: ErrorDetail) -> Self {
        let status = StatusCode::from_u16(detail.code.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        ApiError { status, detail, allow: None }
    }

    /// `400 invalid_request` naming `param`.
    pub fn invalid(param: Option<String>, message: impl Into<String>) -> Self {
        let detail = ErrorDetail::new(ErrorCode::InvalidRequest, message);
        ApiError::new(match param {
            Some(param) => detail.with_param(param),
            None => detail,
        })
    }

    /// `500 internal_error`, revealing nothing.
    pub fn internal() -> Self {
        ApiError::new(ErrorDetail::new(ErrorCode::InternalError, "An internal error occurred."))
    }

    pub fn code(&self) -> ErrorCode {
        self.detail.code
    }
}

impl From<tonic::Status> for ApiError {
    fn from(status: tonic::Status) -> Self {
        let detail = ErrorDetail::from_status(&status);
        if detail.code == ErrorCode::InternalError {
            tracing::error!(grpc_code = ?status.code(), grpc_message = %status.message(), "core call failed");
        }
        ApiError::new(detail)
    }
}

fn header(metadata: &HashMap<String, String>, key: &str) -> Option<HeaderValue> {
    metadata.get(key).and_then(|v| HeaderValue::from_str(v).ok())
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({
            "error": {
                "code": self.detail.code.as_str(),
                "message": self.detail.message,
                "param": self.detail.param,
            }
        });
        let mut response = (self.status, Json(body)).into_response();
        // For the request log line.
        response.extensions_mut().insert(self.detail.code);
        let headers = response.headers_mut();
        if self.detail.code == ErrorCode::RateLimited {
            for (meta, name) in [
                ("retry_after", "retry-after"),
                ("ratelimit_limit", "ratelimit-limit"),
                ("ratelimit_remaining", "ratelimit-remaining"),
                ("ratelimit_reset", "ratelimit-reset"),
            ] {
                if let Some(value) = header(&self.detail.metadata, meta) {
                    headers.insert(name, value);
                }
            }
        }
        if self.detail.code == ErrorCode::ServiceUnavailable {
            // Nothing was applied: the caller may retry, after a second
            // unless the core named another wait.
            let wait = header(&self.detail.metadata, "retry_after").unwrap_or(HeaderValue::from_static("1"));
            headers.insert(http::header::RETRY_AFTER, wait);
        } else if let Some(wait) = header(&self.detail.metadata, "retry_after") {
            // Any other refusal a retry will cure says when (an
            // Idempotency-Key whose first request is still in progress).
            headers.insert(http::header::RETRY_AFTER, wait);
        }
        if let Some(allow) = self.allow.and_then(|a| HeaderValue::from_str(&a).ok()) {
            headers.insert(http::header::ALLOW, allow);
        }
        response
    }
}

/// Fallback for paths the API does not have.
pub async fn not_found(method: Method, uri: Uri) -> ApiError {
    ApiError::new(ErrorDetail::new(
        ErrorCode::NotFound,
        format!(
            "Unrecognized request URL ({method} {}). The API reference lists every path: /api/v1/docs (or /api/v1/openapi.json).",
            sail_api::errors::excerpt(uri.path().to_string(), 200)
        ),
    ))
}

/// Fallback for a known path called with a method it does not take.
pub async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    let mut error = ApiError::invalid(None, format!("{method} is not allowed on {}.", uri.path()));
    error.status = StatusCode::METHOD_NOT_ALLOWED;
    error
}

/// Errors of the gateway's own middleware: the request timeout.
pub async fn middleware_error(err: tower::BoxError) -> ApiError {
    if err.is::<tower::timeout::error::Elapsed>() {
        ApiError::new(ErrorDetail::new(
            ErrorCode::InternalError,
            "The request timed out before Sail could answer; it may or may not have been applied. Retry with the same Idempotency-Key.",
        ))
    } else {
        tracing::error!(error = %err, "gateway middleware failed");
        ApiError::new(ErrorDetail::new(ErrorCode::InternalError, "An internal error occurred."))
    }
}
