//! Thin adapters from the generated tonic services to the business modules:
//! read the caller, turn proto fields into domain values, call, map back.

pub mod accounts;
pub mod connections;
pub mod directory;
pub mod health;
pub mod sandbox;
pub mod transactions;
pub mod users;
pub mod webhooks;

use sail_api::required::Required;
use tonic::Request;

use crate::auth::{Caller, caller};
use crate::error::CoreError;

/// What every handler does first: read the caller the authentication layer
/// attached, and refuse a request whose required fields (declared with
/// `google.api.field_behavior` in proto) are absent or blank, naming the
/// field, before anything else reads it.
pub fn accept<T: Required>(request: &Request<T>) -> Result<Caller, CoreError> {
    let caller = caller(request)?;
    match request.get_ref().missing_field() {
        Some((field, message)) => Err(CoreError::invalid(field, message)),
        None => Ok(caller),
    }
}
