//! Request parsing that answers in the envelope: JSON bodies (content type,
//! syntax, size, an object at the top) and query strings (repeated
//! parameters). Typing each field is the generated decoder's work
//! (`sail_api::rest`).

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use http::StatusCode;
use sail_api::rest::JsonObject;
use sail_api::{ErrorCode, ErrorDetail};

use crate::error::ApiError;

/// Whether a request declares (`Content-Length`) a body over `limit`: such a
/// body is refused before a byte of it is read, so sending oversized bodies
/// costs the sender, not the gateway.
pub fn declares_more_than(request: &Request, limit: usize) -> bool {
    request
        .headers()
        .get(http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        .is_some_and(|declared| declared > limit as u64)
}

fn body_too_large() -> ApiError {
    ApiError::new(ErrorDetail::new(
        ErrorCode::RequestTooLarge,
        "The request body is larger than this endpoint accepts.",
    ))
}

/// Reads a request's body as a JSON object: `Content-Type: application/json`,
/// within the body limit (`limit`, the one `DefaultBodyLimit` also enforces
/// on the bytes), valid JSON, an object at the top.
pub async fn read_json_object(request: Request, limit: usize) -> Result<JsonObject, ApiError> {
    let is_json = request
        .headers()
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"));
    if !is_json {
        return Err(ApiError::invalid(
            None,
            "Request bodies must be JSON, sent with 'Content-Type: application/json'.",
        ));
    }
    if declares_more_than(&request, limit) {
        return Err(body_too_large());
    }
    let bytes = Bytes::from_request(request, &()).await.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            body_too_large()
        } else {
            ApiError::invalid(None, "The request body could not be read.")
        }
    })?;
    if bytes.is_empty() {
        return Err(ApiError::invalid(None, "The request body is empty; send a JSON object."));
    }
    parse_object(&bytes)
}

/// The largest file an upload takes (docs/receipts.md: 10 MiB), and the
/// body limit of an upload route (the file plus the form's framing).
pub const MAX_UPLOAD_BYTES: usize = 10 * 1024 * 1024;
pub const MAX_UPLOAD_BODY_BYTES: usize = MAX_UPLOAD_BYTES + 64 * 1024;

/// Reads a `multipart/form-data` body with exactly one part, the file part
/// named `field`, into the JSON object a generated call decodes: the bytes
/// as base64 under `field`, the part's filename (when given) as `file_name`.
pub async fn read_upload(request: Request, field: &str) -> Result<JsonObject, ApiError> {
    use axum::extract::Multipart;
    use base64::Engine as _;
    let too_large = || {
        ApiError::new(
            ErrorDetail::new(
                ErrorCode::RequestTooLarge,
                format!("The file is larger than {} MiB.", MAX_UPLOAD_BYTES / (1024 * 1024)),
            )
            .with_param(field),
        )
    };
    if declares_more_than(&request, MAX_UPLOAD_BODY_BYTES) {
        return Err(too_large());
    }
    let not_a_form =
        || ApiError::invalid(None, format!("Send the file as multipart/form-data, in one file part named '{field}'."));
    let mut form = Multipart::from_request(request, &()).await.map_err(|_| not_a_form())?;
    let mut object = JsonObject::new();
    loop {
        let part = match form.next_field().await {
            Ok(Some(part)) => part,
            Ok(None) => break,
            Err(err) if err.status() == StatusCode::PAYLOAD_TOO_LARGE => return Err(too_large()),
            Err(_) => return Err(not_a_form()),
        };
        let name = part.name().unwrap_or_default().to_string();
        if name != field {
            let shown: String = name.chars().take(64).collect();
            return Err(ApiError::invalid(
                Some(shown.clone()),
                format!("Unknown form field '{shown}'; send only '{field}'."),
            ));
        }
        if object.contains_key(field) {
            return Err(ApiError::invalid(Some(field.to_string()), format!("Send one '{field}' part, not several.")));
        }
        if let Some(file_name) = part.file_name() {
            object.insert("file_name".to_string(), serde_json::Value::String(file_name.to_string()));
        }
        let bytes = part
            .bytes()
            .await
            .map_err(|err| if err.status() == StatusCode::PAYLOAD_TOO_LARGE { too_large() } else { not_a_form() })?;
        if bytes.len() > MAX_UPLOAD_BYTES {
            return Err(too_large());
        }
        let encoded = base64::engine::general_purpose::STANDARD.encode(&bytes);
        object.insert(field.to_string(), serde_json::Value::String(encoded));
    }
    if !object.contains_key(field) {
        return Err(ApiError::invalid(Some(field.to_string()), format!("The form has no '{field}' file part.")));
    }
    Ok(object)
}

/// Parses `bytes` as one JSON object.
pub fn parse_object(bytes: &[u8]) -> Result<JsonObject, ApiError> {
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(ApiError::invalid(None, "The request body must be a JSON object."));
    }
    serde_json::from_slice::<JsonObject>(bytes).map_err(|err| {
        let at = format!("line {} column {}", err.line(), err.column());
        ApiError::invalid(None, format!("The request body is not valid JSON (at {at})."))
    })
}

/// Query parameters; a parameter given twice is refused.
pub struct QueryParams(Vec<(String, String)>);

impl QueryParams {
    pub fn parse(raw: Option<&str>) -> Result<QueryParams, ApiError> {
        let decode = |text: &str| {
            let spaced = text.replace('+', " ");
            percent_encoding::percent_decode_str(&spaced)
                .decode_utf8()
                .map(|s| s.into_owned())
                .map_err(|_| ApiError::invalid(None, "The query string does not decode to UTF-8 text."))
        };
        let mut pairs = Vec::new();
        for pair in raw.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            pairs.push((decode(key)?, decode(value)?));
        }
        let mut seen = std::collections::HashSet::new();
        for (key, _) in &pairs {
            if !seen.insert(key.as_str()) {
                return Err(ApiError::invalid(
                    Some(key.clone()),
                    format!("Query parameter '{key}' is given more than once."),
                ));
            }
        }
        Ok(QueryParams(pairs))
    }

    pub fn into_pairs(self) -> Vec<(String, String)> {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_must_be_one_json_object() {
        assert!(parse_object(br#"{"a": 1}"#).is_ok());
        for bad in [&br#"[1]"#[..], br#"{"a": 1"#, br#"{"a": 1} trailing"#, b"", b"  7"] {
            assert_eq!(parse_object(bad).unwrap_err().code(), ErrorCode::InvalidRequest);
        }
    }

    #[test]
    fn repeated_query_parameters_are_refused() {
        assert_eq!(QueryParams::parse(Some("limit=5&offset=x")).unwrap().into_pairs().len(), 2);
        assert!(QueryParams::parse(Some("limit=1&limit=2")).is_err());
        assert!(QueryParams::parse(Some("q=%FF")).is_err());
    }
}
