//! Request parsing that answers in the envelope: JSON bodies (content type,
//! syntax, types, unknown fields, size) and query strings (integers, unknown
//! parameters), each error naming the offending `param`.

use std::collections::BTreeMap;

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use http::StatusCode;
use http::request::Parts;
use sail_api::{ErrorCode, ErrorDetail};
use serde::de::DeserializeOwned;
use serde_path_to_error::Segment;

use crate::error::ApiError;

/// A JSON body parsed into `T` (whose serde derive should deny unknown fields).
pub struct JsonBody<T>(pub T);

/// Dotted form of a serde path: `transactions.3.amount`.
fn dotted(path: &serde_path_to_error::Path) -> Option<String> {
    let parts: Vec<String> = path
        .iter()
        .filter_map(|segment| match segment {
            Segment::Seq { index } => Some(index.to_string()),
            Segment::Map { key } => Some(key.clone()),
            Segment::Enum { variant } => Some(variant.clone()),
            Segment::Unknown => None,
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join("."))
}

/// The name between the first pair of backticks of a serde message.
fn quoted_name(message: &str) -> Option<&str> {
    let start = message.find('`')? + 1;
    let len = message[start..].find('`')?;
    Some(&message[start..start + len])
}

/// Turns a serde error at `path` into `invalid_request` with the right param.
fn json_error(path: Option<String>, inner: &serde_json::Error) -> ApiError {
    let text = inner.to_string();
    let join = |name: &str| match &path {
        Some(p) => format!("{p}.{name}"),
        None => name.to_string(),
    };
    if text.starts_with("unknown field") {
        // The path already ends at the unknown field itself.
        let name = quoted_name(&text).unwrap_or("");
        let param = path.clone().unwrap_or_else(|| name.to_string());
        return ApiError::invalid(Some(param.clone()), format!("Unknown field '{param}' in the request body."));
    }
    if text.starts_with("missing field") {
        let name = quoted_name(&text).unwrap_or("");
        return ApiError::invalid(Some(join(name)), format!("Missing required field '{}'.", join(name)));
    }
    if inner.is_syntax() || inner.is_eof() {
        return ApiError::invalid(None, format!("The request body is not valid JSON: {text}."));
    }
    let message = match &path {
        Some(p) => format!("Invalid value for '{p}': {}.", text.split(" at line").next().unwrap_or(&text)),
        None => format!("The request body must be a JSON object: {text}."),
    };
    ApiError::invalid(path, message)
}

/// Parses JSON `bytes` into `T`, naming the offending field on failure.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(ApiError::invalid(None, "The request body must be a JSON object."));
    }
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut deserializer)
        .map_err(|err| json_error(dotted(err.path()), err.inner()))?;
    deserializer.end().map_err(|err| json_error(None, &err))?;
    Ok(value)
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
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
        let bytes = Bytes::from_request(request, state).await.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(ErrorDetail::new(
                    ErrorCode::RequestTooLarge,
                    "The request body is larger than this endpoint accepts.",
                ))
            } else {
                ApiError::invalid(None, format!("The request body could not be read: {rejection}."))
            }
        })?;
        if bytes.is_empty() {
            return Err(ApiError::invalid(None, "The request body is empty; send a JSON object."));
        }
        parse_json(&bytes).map(JsonBody)
    }
}

/// Query parameters, taken one by one; anything not taken is refused.
pub struct QueryParams(BTreeMap<String, String>);

impl QueryParams {
    pub fn parse(raw: Option<&str>) -> Result<QueryParams, ApiError> {
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw.unwrap_or(""))
            .map_err(|err| ApiError::invalid(None, format!("The query string does not parse: {err}.")))?;
        let mut map = BTreeMap::new();
        for (key, value) in pairs {
            if map.insert(key.clone(), value).is_some() {
                return Err(ApiError::invalid(
                    Some(key.clone()),
                    format!("Query parameter '{key}' is given more than once."),
                ));
            }
        }
        Ok(QueryParams(map))
    }

    /// A string parameter.
    pub fn string(&mut self, name: &str) -> Option<String> {
        self.0.remove(name)
    }

    /// An integer parameter; anything else is `invalid_request` naming it.
    pub fn integer(&mut self, name: &str) -> Result<Option<i64>, ApiError> {
        match self.0.remove(name) {
            None => Ok(None),
            Some(raw) => raw.trim().parse::<i64>().map(Some).map_err(|_| {
                ApiError::invalid(Some(name.to_string()), format!("{name} must be an integer; got '{raw}'."))
            }),
        }
    }

    /// `limit` and `offset`; their ranges are the core's to check.
    pub fn page(&mut self) -> Result<(Option<i64>, Option<i64>), ApiError> {
        Ok((self.integer("limit")?, self.integer("offset")?))
    }

    /// Refuses any parameter no one took.
    pub fn finish(self) -> Result<(), ApiError> {
        match self.0.into_keys().next() {
            None => Ok(()),
            Some(unknown) => {
                Err(ApiError::invalid(Some(unknown.clone()), format!("Unknown query parameter '{unknown}'.")))
            }
        }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for QueryParams {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        QueryParams::parse(parts.uri.query())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Item {
        amount: f64,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Batch {
        transactions: Vec<Item>,
    }

    fn param(result: Result<Batch, ApiError>) -> Option<String> {
        let err = result.unwrap_err();
        let body = format!("{err:?}");
        assert_eq!(err.code(), ErrorCode::InvalidRequest, "{body}");
        body.split("param: ").nth(1).map(|s| s.split(',').next().unwrap_or("").to_string())
    }

    #[test]
    fn params_are_dotted_paths() {
        assert_eq!(
            param(parse_json(br#"{"transactions":[{"amount":1},{"amount":"x"}]}"#)).as_deref(),
            Some("Some(\"transactions.1.amount\")")
        );
        assert_eq!(
            param(parse_json(br#"{"transactions":[{"amount":1,"bogus":2}]}"#)).as_deref(),
            Some("Some(\"transactions.0.bogus\")")
        );
        assert_eq!(param(parse_json(br#"{}"#)).as_deref(), Some("Some(\"transactions\")"));
        assert_eq!(param(parse_json(br#"{"transactions":[] "#)).as_deref(), Some("None"));
        assert_eq!(param(parse_json(br#"[]"#)).as_deref(), Some("None"));
    }

    #[test]
    fn query_integers_and_unknowns() {
        let mut q = QueryParams::parse(Some("limit=5&offset=x")).unwrap();
        assert_eq!(q.integer("limit").unwrap(), Some(5));
        assert!(q.integer("offset").is_err());
        let q = QueryParams::parse(Some("colour=red")).unwrap();
        assert!(q.finish().is_err());
        assert!(QueryParams::parse(Some("limit=1&limit=2")).is_err());
    }
}
