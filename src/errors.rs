//! The error vocabulary of the contract (docs/contract.md#errors): each code, its HTTP
//! status and gRPC code, and how code and `param` travel inside a gRPC status
//! as `google.rpc` details (`ErrorInfo` with the upper-case reason in domain
//! `sail.v1`, plus a `BadRequest` field violation for `invalid_request`).
//! The core encodes with [`ErrorDetail::into_status`]; the gateway decodes with
//! [`ErrorDetail::from_status`]. Both sides share this one table, declared
//! in `proto/sail/v1/error_codes.csv`, which the OpenAPI document reads too.

use std::collections::HashMap;

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

/// `ErrorInfo.domain` of every Sail error.
pub const ERROR_DOMAIN: &str = "sail.v1";

// `ErrorCode` with `ALL`, `as_str`, `http_status` and `grpc_code`, generated
// by build.rs from proto/sail/v1/error_codes.csv.
include!(concat!(env!("OUT_DIR"), "/error_codes.rs"));

impl ErrorCode {
    /// The AIP-193 `ErrorInfo.reason`: the code in upper case.
    pub fn reason(self) -> String {
        self.as_str().to_ascii_uppercase()
    }

    /// Parses an `ErrorInfo.reason` (or a wire code).
    pub fn from_reason(reason: &str) -> Option<ErrorCode> {
        let lower = reason.to_ascii_lowercase();
        Self::ALL.iter().copied().find(|code| code.as_str() == lower)
    }

    /// The code a bare gRPC status maps to when it carries no `ErrorInfo`.
    pub fn from_grpc_code(code: Code) -> ErrorCode {
        match code {
            Code::InvalidArgument | Code::OutOfRange => ErrorCode::InvalidRequest,
            Code::Unauthenticated => ErrorCode::InvalidApiKey,
            Code::PermissionDenied => ErrorCode::InsufficientKeyScope,
            Code::NotFound => ErrorCode::NotFound,
            Code::ResourceExhausted => ErrorCode::RateLimited,
            // The core could not be reached: nothing was applied; retry.
            Code::Unavailable => ErrorCode::ServiceUnavailable,
            _ => ErrorCode::InternalError,
        }
    }
}

/// The longest error message sent, in characters.
pub const MAX_MESSAGE_CHARS: usize = 500;
/// The longest `param` sent, in characters.
pub const MAX_PARAM_CHARS: usize = 120;

/// `text` cut to `max` characters, marked with `…` when cut.
pub fn excerpt(text: String, max: usize) -> String {
    if text.chars().count() <= max {
        return text;
    }
    let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// One error as both transports carry it: code, human message, the request
/// field at fault, and extra metadata (for example rate-limit figures).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorDetail {
    pub code: ErrorCode,
    pub message: String,
    pub param: Option<String>,
    pub metadata: HashMap<String, String>,
}

impl ErrorDetail {
    /// An error with `message`, cut to [`MAX_MESSAGE_CHARS`]: messages quote
    /// what a client sent, and no client may make an error (or a gRPC status
    /// riding a connection other partners share) as large as its input.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ErrorDetail { code, message: excerpt(message.into(), MAX_MESSAGE_CHARS), param: None, metadata: HashMap::new() }
    }

    /// Names the field at fault, cut to [`MAX_PARAM_CHARS`] (an unknown JSON
    /// field's name is the client's).
    pub fn with_param(mut self, param: impl Into<String>) -> Self {
        self.param = Some(excerpt(param.into(), MAX_PARAM_CHARS));
        self
    }

    pub fn with_metadata(mut self, key: &str, value: impl Into<String>) -> Self {
        self.metadata.insert(key.to_string(), value.into());
        self
    }

    /// Encodes as a gRPC status with `google.rpc` details.
    pub fn into_status(self) -> Status {
        let mut metadata = self.metadata;
        if let Some(param) = &self.param {
            metadata.insert("param".to_string(), param.clone());
        }
        let mut details = ErrorDetails::with_error_info(self.code.reason(), ERROR_DOMAIN, metadata);
        if self.code == ErrorCode::InvalidRequest
            && let Some(param) = &self.param
        {
            details.add_bad_request_violation(param.clone(), self.message.clone());
        }
        Status::with_error_details(self.code.grpc_code(), self.message, details)
    }

    /// Decodes a gRPC status. The code comes from `ErrorInfo.reason` and only
    /// falls back to the gRPC code when no `ErrorInfo` came with the status.
    pub fn from_status(status: &Status) -> Self {
        let details = status.get_error_details();
        let info = details.error_info().filter(|info| info.domain == ERROR_DOMAIN);
        let code = info
            .and_then(|info| ErrorCode::from_reason(&info.reason))
            .unwrap_or_else(|| ErrorCode::from_grpc_code(status.code()));
        let mut metadata = info.map(|info| info.metadata.clone()).unwrap_or_default();
        let param = metadata
            .remove("param")
            .or_else(|| details.bad_request().and_then(|bad| bad.field_violations.first().map(|v| v.field.clone())));
        let message = if matches!(code, ErrorCode::InternalError | ErrorCode::ServiceUnavailable) && info.is_none() {
            // A bare transport failure: never show its internals to a partner.
            if code == ErrorCode::ServiceUnavailable {
                "Sail is unavailable for a moment; nothing was applied. Retry, with the same Idempotency-Key."
                    .to_string()
            } else {
                "An internal error occurred.".to_string()
            }
        } else {
            status.message().to_string()
        };
        let param = param.map(|p| excerpt(p, MAX_PARAM_CHARS));
        ErrorDetail { code, message: excerpt(message, MAX_MESSAGE_CHARS), param, metadata }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_round_trips_through_a_grpc_status() {
        for &code in ErrorCode::ALL {
            let sent = ErrorDetail::new(code, "boom").with_param("transactions.3.amount");
            let status = sent.clone().into_status();
            assert_eq!(status.code(), code.grpc_code());
            assert_eq!(ErrorDetail::from_status(&status), sent);
        }
    }

    #[test]
    fn messages_and_params_never_carry_more_than_an_excerpt() {
        let huge = "x".repeat(1_000_000);
        let detail = ErrorDetail::new(ErrorCode::InvalidRequest, format!("Unknown type '{huge}'.")).with_param(&huge);
        assert_eq!(detail.message.chars().count(), MAX_MESSAGE_CHARS);
        assert!(detail.message.ends_with('…'));
        assert_eq!(detail.param.as_ref().unwrap().chars().count(), MAX_PARAM_CHARS);
        let back = ErrorDetail::from_status(&detail.clone().into_status());
        assert_eq!(back, detail);
        assert_eq!(excerpt("short".into(), 10), "short");
    }

    #[test]
    fn reasons_are_upper_case_aip_193() {
        assert_eq!(ErrorCode::InsufficientKeyScope.reason(), "INSUFFICIENT_KEY_SCOPE");
        assert_eq!(ErrorCode::from_reason("INSUFFICIENT_KEY_SCOPE"), Some(ErrorCode::InsufficientKeyScope));
    }

    #[test]
    fn a_bare_status_falls_back_to_its_grpc_code_and_hides_internals() {
        let detail = ErrorDetail::from_status(&Status::not_found("x"));
        assert_eq!(detail.code, ErrorCode::NotFound);
        let detail = ErrorDetail::from_status(&Status::unavailable("tcp connect error 127.0.0.1"));
        assert_eq!(detail.code, ErrorCode::ServiceUnavailable);
        assert!(!detail.message.contains("127.0.0.1"));
    }

    #[test]
    fn statuses_follow_decisions_section_3() {
        assert_eq!(ErrorCode::ProductNotEnabled.http_status(), 403);
        assert_eq!(ErrorCode::ConnectionNotExternal.http_status(), 409);
        assert_eq!(ErrorCode::RequestTooLarge.http_status(), 413);
        assert_eq!(ErrorCode::RateLimited.grpc_code(), Code::ResourceExhausted);
    }
}
