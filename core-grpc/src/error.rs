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
            CoreError::Database(err) if is_unavailable(err) => ErrorDetail::new(
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

/// Whether a database error means the database could not be reached or
/// would not answer in time: a connection refused, cut or timed out, the
/// pool exhausted or closed, a PostgreSQL server shutting down, starting or
/// out of connections, a statement cancelled by `statement_timeout`, a
/// SQLite file still locked after its busy timeout. The work was not
/// applied (its transaction rolled back) and may be retried: callers get
/// `503 service_unavailable` with `Retry-After`, never a 500.
pub fn is_unavailable(err: &DbErr) -> bool {
    use sea_orm::RuntimeErr;
    use sea_orm::sqlx::Error as Sqlx;
    let sqlx = match err {
        // No connection could be had or made, whatever the server said
        // (a database not accepting connections is SQLSTATE 55000, say).
        DbErr::ConnectionAcquire(_) | DbErr::Conn(_) => return true,
        DbErr::Exec(RuntimeErr::SqlxError(e)) | DbErr::Query(RuntimeErr::SqlxError(e)) => e,
        _ => return false,
    };
    match sqlx.as_ref() {
        Sqlx::Io(_)
        | Sqlx::PoolTimedOut
        | Sqlx::PoolClosed
        | Sqlx::WorkerCrashed
        | Sqlx::Protocol(_)
        | Sqlx::Tls(_) => true,
        Sqlx::Database(db) => {
            let code = db.code().unwrap_or_default();
            if db.try_downcast_ref::<sea_orm::sqlx::sqlite::SqliteError>().is_some() {
                // Extended result codes: the primary code is the low byte
                // (5 SQLITE_BUSY, 6 SQLITE_LOCKED).
                return code.parse::<u32>().is_ok_and(|c| matches!(c & 0xff, 5 | 6));
            }
            // SQLSTATE: class 08 connection exception; 57P01 admin shutdown,
            // 57P02 crash shutdown, 57P03 cannot connect now; 57014 query
            // cancelled (statement_timeout); 53300 too many connections;
            // and a transaction rolled back to break a deadlock or a
            // serialization conflict (`is_retryable_conflict`).
            code.starts_with("08")
                || matches!(code.as_ref(), "57P01" | "57P02" | "57P03" | "57014" | "53300")
                || CONFLICT_SQLSTATES.contains(&code.as_ref())
        }
        _ => false,
    }
}

/// PostgreSQL's SQLSTATEs for a transaction it rolled back to break a
/// deadlock (40P01) or a serialization conflict (40001).
const CONFLICT_SQLSTATES: [&str; 2] = ["40P01", "40001"];

/// Whether PostgreSQL rolled the transaction back to break a deadlock or a
/// serialization conflict: nothing was applied, and running the
/// transaction again completes it (PostgreSQL's own advice for these
/// codes). Left to a caller, it is a `503` with `Retry-After`.
pub fn is_retryable_conflict(err: &DbErr) -> bool {
    use sea_orm::RuntimeErr;
    use sea_orm::sqlx::Error as Sqlx;
    match err {
        DbErr::Exec(RuntimeErr::SqlxError(e)) | DbErr::Query(RuntimeErr::SqlxError(e)) => match e.as_ref() {
            Sqlx::Database(db) => db.code().is_some_and(|code| CONFLICT_SQLSTATES.contains(&code.as_ref())),
            _ => false,
        },
        _ => false,
    }
}

impl From<CoreError> for tonic::Status {
    fn from(err: CoreError) -> Self {
        match &err {
            CoreError::Database(db) if is_unavailable(db) => {
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

#[cfg(test)]
mod tests {
    #[test]
    fn an_unreachable_database_is_told_from_a_failing_statement() {
        use std::sync::Arc;

        use sea_orm::sqlx::Error as Sqlx;
        use sea_orm::{DbErr, RuntimeErr};

        let sqlx = |err: Sqlx| RuntimeErr::SqlxError(Arc::new(err));
        let io = || Sqlx::Io(std::io::Error::from(std::io::ErrorKind::ConnectionReset));
        let unavailable = [
            DbErr::ConnectionAcquire(sea_orm::error::ConnAcquireErr::Timeout),
            DbErr::Conn(RuntimeErr::Internal("the server refused".into())),
            DbErr::Query(sqlx(io())),
            DbErr::Exec(sqlx(Sqlx::PoolClosed)),
            DbErr::Query(sqlx(Sqlx::PoolTimedOut)),
        ];
        for err in &unavailable {
            assert!(super::is_unavailable(err), "{err}");
        }
        let failing = [
            DbErr::Query(sqlx(Sqlx::RowNotFound)),
            DbErr::Custom("a bug".into()),
            DbErr::RecordNotFound("x".into()),
            DbErr::Exec(RuntimeErr::Internal("a bug".into())),
        ];
        for err in &failing {
            assert!(!super::is_unavailable(err), "{err}");
        }
    }
}
