//! Thin adapters from the generated tonic services to the business modules:
//! read the caller, turn proto fields into domain values, call, map back.

pub mod accounts;
pub mod connections;
pub mod directory;
pub mod health;
pub mod hosted_sessions;
pub mod sandbox;
pub mod transactions;
pub mod user_tokens;
pub mod users;
pub mod webhooks;

use sail_api::required::{PlainText, Required, TextProblem};
use tonic::Request;

use crate::error::CoreError;
use crate::layers::auth::{Caller, caller};

/// What every handler does first: read the caller the authentication layer
/// attached, and refuse a request whose required fields (declared with
/// `google.api.field_behavior` in proto) are absent or blank, naming the
/// field, before anything else reads it. A malformed `Idempotency-Key`, and
/// text holding control characters, are refused here too.
pub fn accept<T: Required + PlainText>(request: &Request<T>) -> Result<Caller, CoreError> {
    let caller = caller(request)?;
    check_input(request)?;
    Ok(caller)
}

/// `accept` for the public methods the hosted pages call (no API key: the
/// session's token and browser secret authorize them).
pub fn accept_public<T: Required + PlainText>(request: &Request<T>) -> Result<(), CoreError> {
    check_input(request)
}

fn check_input<T: Required + PlainText>(request: &Request<T>) -> Result<(), CoreError> {
    // A malformed Idempotency-Key is refused on every method, not only on
    // those that replay.
    crate::layers::idempotency::key_of(request)?;
    if let Some((field, message)) = request.get_ref().missing_field() {
        return Err(CoreError::invalid(field, message));
    }
    // The limits declared in proto, for every string and list of the
    // request: PostgreSQL cannot store NUL, and no control character belongs
    // in a name, id or descriptor; refused here, before anything is stored.
    if let Some((field, problem)) = request.get_ref().text_problem() {
        let message = match problem {
            TextProblem::ControlCharacter => {
                format!("{field} must not contain control characters (only tab, line feed and carriage return).")
            }
            TextProblem::TooLong(max) => format!("{field} must be at most {max} characters."),
            TextProblem::TooMany(max) => format!("{field} holds more than {max} items."),
        };
        return Err(CoreError::invalid(field, message));
    }
    Ok(())
}

/// The request id the core's request-id layer set, for the audit trail.
pub fn request_id<T>(request: &Request<T>) -> Option<String> {
    request.metadata().get("request-id").and_then(|v| v.to_str().ok()).map(str::to_string)
}

/// Who reads a user's personal data in this call, for the audit trail:
/// the caller's key and the user token it presented for `user_id` (both
/// checked here), and the request id.
pub struct PersonalDataReader {
    caller: Caller,
    user_token_id: String,
    request_id: Option<String>,
}

impl PersonalDataReader {
    /// Accepts a call that reads `user_id`'s personal data.
    pub fn accept<T: Required + PlainText>(request: &Request<T>, user_id: &str) -> Result<Self, CoreError> {
        let caller = accept(request)?;
        let grant = crate::layers::auth::token_grant_for(request, user_id)?;
        Ok(PersonalDataReader { caller, user_token_id: grant.token_id, request_id: request_id(request) })
    }

    /// The audit trail's view of it.
    pub fn reader(&self) -> crate::services::audit::Reader<'_> {
        crate::services::audit::Reader {
            partner_id: &self.caller.partner_id,
            key_id: &self.caller.key_id,
            user_token_id: &self.user_token_id,
            request_id: self.request_id.as_deref(),
        }
    }
}

#[cfg(test)]
mod tests {
    /// The code lists the core checks against are the ones the OpenAPI
    /// document publishes: each code once, in upper case, marked as taken
    /// in either case.
    #[test]
    fn published_code_lists_match_the_core() {
        let document: serde_json::Value = serde_json::from_str(sail_api::OPENAPI_JSON).unwrap();
        let schemas = &document["components"]["schemas"];
        for (published, core) in [
            (&schemas["PushedTransaction"]["properties"]["currency"], crate::services::ingest::ISO_4217),
            (&schemas["Address"]["properties"]["country"], crate::domain::contact::ISO_3166_ALPHA_2),
        ] {
            assert_eq!(published["x-case-insensitive"], true, "{published}");
            let mut expected: Vec<String> = core.split(' ').map(str::to_string).collect();
            let mut listed: Vec<String> =
                published["enum"].as_array().unwrap().iter().filter_map(|v| v.as_str().map(str::to_string)).collect();
            expected.sort();
            listed.sort();
            assert_eq!(listed, expected);
        }
    }
}
