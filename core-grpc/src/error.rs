//! The core's one error type, and its one conversion into a gRPC status.

use std::time::Duration;

use sail_api::{ErrorCode, ErrorDetail};
use sea_orm::DbErr;

/// Everything a core operation can fail with.
#[derive(Debug, thiserror::Error)]
pub enum CoreError {
    /// Malformed or invalid input; `param` names the field, dotted for nesting.
    #[error("{message}")]
    InvalidRequest { param: String, message: String },
    /// No such resource for this partner (another partner's looks the same).
    #[error("No such {resource}: '{id}'")]
    NotFound { resource: &'static str, param: &'static str, id: String },
    /// An operation that does not exist in this deployment (the sandbox
    /// operations with sandbox mode off): looks like an unknown path.
    #[error("Unrecognized request URL: this operation is available only in sandbox mode.")]
    NotFoundRoute,
    /// Missing, malformed, unknown or revoked API key.
    #[error("{0}")]
    InvalidApiKey(&'static str),
    /// The key's scopes do not cover the operation.
    #[error("{0}")]
    InsufficientKeyScope(String),
    /// A key configured in a way the contract forbids.
    #[error("{0}")]
    InvalidKeyConfiguration(String),
    /// A user-token failure on a PII operation (docs/pii.md): which of the
    /// contract's token codes, and why, without echoing the token.
    #[error("{message}")]
    UserToken { code: UserTokenProblem, message: &'static str },
    /// An input larger than its limit (a receipt file over 10 MiB).
    #[error("{message}")]
    TooLarge { param: String, message: String },
    /// `reconnect` asked for an `external` connection.
    #[error("Connection {connection_id} is an external connection; only Sail-managed connections can be reconnected.")]
    ConnectionNotReconnectable { connection_id: String },
    /// A hosted session's page that can no longer be shown (used, expired,
    /// unknown): the pages answer `410` with `message`, framable by the
    /// same origins as the session's other pages (none for an unknown link).
    #[error("{message}")]
    SessionGone { message: String, frame_ancestors: Vec<String> },
    /// The connection lacks a product the request needs.
    #[error("{message}")]
    ProductNotEnabled { param: String, message: String },
    /// Transactions pushed to a Sail-managed connection.
    #[error(
        "Connection {connection_id} is a Sail-managed {kind} connection; transactions can be pushed only to external connections."
    )]
    ConnectionNotExternal { connection_id: String, kind: String },
    /// An Idempotency-Key reused with another request, or while in flight.
    #[error("{0}")]
    IdempotencyKeyReused(String),
    /// A request under the same Idempotency-Key is running, or was cut off
    /// and its reservation has not yet gone stale: `409` with the same code
    /// as a reused key, and a `Retry-After`, since a retry will succeed.
    #[error("A request with this Idempotency-Key is still in progress; retry it shortly.")]
    IdempotencyKeyInProgress,
    /// A user with this external_user_id already exists for the partner.
    /// The message does not repeat the id: it is the partner's personal
    /// identifier for someone, and errors are logged.
    #[error("A user with this external_user_id already exists.")]
    UserAlreadyExists,
    /// The user is `inactive`: pushes, new connections and hosted sessions
    /// for it are refused until it is made active again.
    #[error("User {user_id} is inactive; make it active with PATCH /users/{user_id} first.")]
    UserInactive { user_id: String },
    /// A rate limit refused the call; `of` names what was counted (the
    /// key's requests, an address's requests without a key, redeliveries).
    #[error("Too many {of}; retry after {} ms.", retry_after.as_millis())]
    RateLimited { retry_after: Duration, limit: u32, of: &'static str },
    /// The database failed; details go to the log, never to the caller.
    #[error("database error: {0}")]
    Database(#[from] DbErr),
    /// A sealed value would not open (wrong key, damaged or moved data):
    /// never served as garbage; details go to the log only.
    #[error("sealed data: {0}")]
    Sealed(String),
    /// Any other unexpected failure; details go to the log only.
    #[error("internal error: {0}")]
    Internal(String),
}

/// The error metadata that carries a refused page's framing rule to the
/// gateway: the allowed origins, separated by spaces.
pub const FRAME_ANCESTORS: &str = "frame_ancestors";

/// The contract's user-token error codes (docs/pii.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UserTokenProblem {
    /// `user_token_required`: none was presented.
    Required,
    /// `user_token_expired`.
    Expired,
    /// `invalid_user_token`: unknown, revoked, forged or malformed.
    Invalid,
    /// `insufficient_token_scope`: the token lacks the operation's scope.
    InsufficientScope,
    /// `token_scope_mismatch`: minted for another user or partner.
    Mismatch,
}

impl CoreError {
    pub fn user_token(code: UserTokenProblem, message: &'static str) -> Self {
        CoreError::UserToken { code, message }
    }

    pub fn invalid(param: impl Into<String>, message: impl Into<String>) -> Self {
        CoreError::InvalidRequest { param: param.into(), message: message.into() }
    }

    pub fn not_found(resource: &'static str, param: &'static str, id: impl Into<String>) -> Self {
        CoreError::NotFound { resource, param, id: id.into() }
    }

    /// The contract's view of this error: code, message, param.
    pub fn detail(&self) -> ErrorDetail {
        match self {
            CoreError::InvalidRequest { param, message } => {
                ErrorDetail::new(ErrorCode::InvalidRequest, message).with_param(param)
            }
            CoreError::NotFound { param, .. } => {
                ErrorDetail::new(ErrorCode::NotFound, self.to_string()).with_param(*param)
            }
            CoreError::NotFoundRoute => ErrorDetail::new(ErrorCode::NotFound, self.to_string()),
            CoreError::InvalidApiKey(_) => ErrorDetail::new(ErrorCode::InvalidApiKey, self.to_string()),
            CoreError::InsufficientKeyScope(_) => ErrorDetail::new(ErrorCode::InsufficientKeyScope, self.to_string()),
            CoreError::InvalidKeyConfiguration(_) => {
                ErrorDetail::new(ErrorCode::InvalidKeyConfiguration, self.to_string())
            }
            CoreError::UserToken { code, message } => {
                let code = match code {
                    UserTokenProblem::Required => ErrorCode::UserTokenRequired,
                    UserTokenProblem::Expired => ErrorCode::UserTokenExpired,
                    UserTokenProblem::Invalid => ErrorCode::InvalidUserToken,
                    UserTokenProblem::InsufficientScope => ErrorCode::InsufficientTokenScope,
                    UserTokenProblem::Mismatch => ErrorCode::TokenScopeMismatch,
                };
                ErrorDetail::new(code, *message).with_param("Sail-User-Token")
            }
            CoreError::ConnectionNotReconnectable { .. } => {
                ErrorDetail::new(ErrorCode::ConnectionNotReconnectable, self.to_string())
                    .with_param("options.connection_id")
            }
            CoreError::SessionGone { message, frame_ancestors } if !frame_ancestors.is_empty() => {
                ErrorDetail::new(ErrorCode::NotFound, message).with_metadata(FRAME_ANCESTORS, frame_ancestors.join(" "))
            }
            CoreError::SessionGone { message, .. } => ErrorDetail::new(ErrorCode::NotFound, message),
            CoreError::TooLarge { param, message } => {
                ErrorDetail::new(ErrorCode::RequestTooLarge, message).with_param(param)
            }
            CoreError::ProductNotEnabled { param, message } => {
                ErrorDetail::new(ErrorCode::ProductNotEnabled, message).with_param(param)
            }
            CoreError::ConnectionNotExternal { .. } => {
                ErrorDetail::new(ErrorCode::ConnectionNotExternal, self.to_string()).with_param("connection_id")
            }
            CoreError::IdempotencyKeyReused(_) => {
                ErrorDetail::new(ErrorCode::IdempotencyKeyReused, self.to_string()).with_param("Idempotency-Key")
            }
            CoreError::IdempotencyKeyInProgress => {
                ErrorDetail::new(ErrorCode::IdempotencyKeyReused, self.to_string())
                    .with_param("Idempotency-Key")
                    .with_metadata("retry_after", "1")
            }
            CoreError::UserInactive { .. } => {
                ErrorDetail::new(ErrorCode::UserInactive, self.to_string()).with_param("user_id")
            }
            CoreError::UserAlreadyExists => {
                ErrorDetail::new(ErrorCode::UserAlreadyExists, self.to_string()).with_param("external_user_id")
            }
            CoreError::RateLimited { retry_after, limit, .. } => {
                let reset = retry_after.as_secs_f64().ceil().max(1.0) as u64;
                ErrorDetail::new(ErrorCode::RateLimited, self.to_string())
                    .with_metadata("retry_after", reset.to_string())
                    .with_metadata("ratelimit_limit", limit.to_string())
                    .with_metadata("ratelimit_remaining", "0")
                    .with_metadata("ratelimit_reset", reset.to_string())
            }
            CoreError::Database(err) if crate::platform::db::is_unavailable(err) => ErrorDetail::new(
                ErrorCode::ServiceUnavailable,
                "Sail's database could not be reached for a moment; nothing was applied. Retry, with the same Idempotency-Key.",
            )
            .with_metadata("retry_after", "1"),
            CoreError::Database(_) | CoreError::Internal(_) | CoreError::Sealed(_) => {
                ErrorDetail::new(ErrorCode::InternalError, "An internal error occurred.")
            }
        }
    }
}

impl From<CoreError> for tonic::Status {
    fn from(err: CoreError) -> Self {
        match &err {
            CoreError::Database(db) if crate::platform::db::is_unavailable(db) => {
                tracing::warn!(error = %err, "database unavailable: answered 503");
            }
            CoreError::Database(_) | CoreError::Internal(_) | CoreError::Sealed(_) => {
                tracing::error!(error = %err, "internal error");
            }
            _ => {}
        }
        err.detail().into_status()
    }
}
