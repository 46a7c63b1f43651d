//! What a REST request carries to the core besides its body: the API key, the
//! request id, and (for later steps of the core's request path) the
//! idempotency key and user token, all forwarded as gRPC metadata, and the
//! client's address (`sail-client-addr`), by which the core limits requests
//! that bring no valid key.

use axum::extract::FromRequestParts;
use http::HeaderMap;
use http::request::Parts;
use tonic::metadata::{MetadataKey, MetadataValue};

use crate::REQUEST_ID;
use crate::error::ApiError;
use sail_api::{ErrorCode, ErrorDetail};

/// Headers forwarded verbatim to the core, by HTTP name = metadata name.
const FORWARDED: &[&str] = &["authorization", "request-id", "idempotency-key", "sail-user-token"];
/// The same headers as the documentation spells them, for error params.
const DISPLAY_NAMES: [&str; 4] = ["Authorization", "Request-Id", "Idempotency-Key", "Sail-User-Token"];
/// The longest value of each forwarded header, in bytes: the longest a valid
/// one can be, with room to spare. A longer one is refused here, before it
/// reaches the connection to the core that every partner's calls share.
pub const MAX_HEADER_BYTES: [usize; 4] = [512, 200, 255, 512];

/// The metadata that carries the client's IP address to the core.
pub const CLIENT_ADDR: &str = "sail-client-addr";

/// The forwarded headers of one REST request.
#[derive(Debug, Clone, Default)]
pub struct CallContext {
    headers: Vec<(&'static str, MetadataValue<tonic::metadata::Ascii>)>,
}

impl CallContext {
    /// The forwarded headers of a request. A header that cannot travel as
    /// gRPC metadata (not visible ASCII) is refused naming it, never dropped:
    /// a dropped Idempotency-Key would make a retry create twice.
    pub fn from_headers(headers: &HeaderMap) -> Result<Self, ApiError> {
        let mut forwarded = Vec::with_capacity(FORWARDED.len());
        for ((name, display), max) in FORWARDED.iter().zip(DISPLAY_NAMES).zip(MAX_HEADER_BYTES) {
            let Some(value) = headers.get(*name) else { continue };
            if value.len() > max {
                return Err(ApiError::invalid(
                    Some(display.to_string()),
                    format!("{display} is longer than {max} bytes."),
                ));
            }
            let value = value.to_str().ok().and_then(|v| MetadataValue::try_from(v).ok()).ok_or_else(|| {
                if *name == "authorization" {
                    ApiError::new(ErrorDetail::new(
                        ErrorCode::InvalidApiKey,
                        "The Authorization header must be 'Bearer sk_…' in visible ASCII.",
                    ))
                } else {
                    ApiError::invalid(Some(display.to_string()), format!("{display} must be visible ASCII text."))
                }
            })?;
            forwarded.push((*name, value));
        }
        Ok(CallContext { headers: forwarded })
    }

    /// The context of a request: its forwarded headers and the address its
    /// connection came from.
    pub fn from_parts(parts: &Parts) -> Result<Self, ApiError> {
        let mut ctx = CallContext::from_headers(&parts.headers)?;
        let client = parts.extensions.get::<axum::extract::ConnectInfo<crate::listener::ClientAddr>>();
        if let Some(axum::extract::ConnectInfo(crate::listener::ClientAddr(addr))) = client
            && let Ok(value) = MetadataValue::try_from(addr.ip().to_string())
        {
            ctx.headers.push((CLIENT_ADDR, value));
        }
        Ok(ctx)
    }

    /// A gRPC request for `message` carrying this context.
    pub fn request<T>(&self, message: T) -> tonic::Request<T> {
        tonic::Request::from_parts(self.metadata(), tonic::Extensions::default(), message)
    }

    /// The forwarded headers as gRPC metadata, with the trace context of
    /// the request's span (docs/operations.md#traces).
    pub fn metadata(&self) -> tonic::metadata::MetadataMap {
        let mut metadata = tonic::metadata::MetadataMap::with_capacity(self.headers.len() + 1);
        for (name, value) in &self.headers {
            metadata.insert(MetadataKey::from_static(name), value.clone());
        }
        sail_api::trace_context::inject_current(&mut metadata);
        metadata
    }

    /// The id of this request (set by the request-id layer when absent).
    pub fn request_id(&self) -> Option<&str> {
        self.headers.iter().find(|(n, _)| *n == REQUEST_ID.as_str()).and_then(|(_, v)| v.to_str().ok())
    }
}

impl<S: Send + Sync> FromRequestParts<S> for CallContext {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        CallContext::from_parts(parts)
    }
}
