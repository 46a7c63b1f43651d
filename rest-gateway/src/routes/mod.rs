//! The `/api/v1` routes, built from the table `build.rs` generates from the
//! `google.api.http` options in `proto/` (`sail_api::rest::ROUTES`). One
//! handler serves every operation: it gathers the path variables, the query
//! parameters the operation declares and the JSON body into one object,
//! which the generated call decodes into the proto request and sends to the
//! core with the caller's headers. Only what is not an RPC is written here
//! by hand: health and the API reference.

pub mod health;
pub mod reference;

use std::collections::BTreeMap;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{FromRequestParts, Path, Request, State};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodFilter, MethodRouter};
use http::{HeaderValue, StatusCode};
use sail_api::rest::CoreChannel as Channel;
use sail_api::rest::{CallError, JsonObject, ParamKind, ROUTES, Route};
use serde_json::Value;

use crate::context::CallContext;
use crate::error::ApiError;
use crate::extract::{QueryParams, read_json_object, read_upload};

/// Every `/api/v1` route of the generated table, plus the API reference.
/// JSON bodies take at most `max_body_bytes`.
pub fn api(core: Channel, max_body_bytes: usize) -> Router {
    let mut by_path: BTreeMap<&'static str, MethodRouter<Channel>> = BTreeMap::new();
    for route in ROUTES {
        let filter = match route.method {
            "GET" => MethodFilter::GET,
            "POST" => MethodFilter::POST,
            "PUT" => MethodFilter::PUT,
            "PATCH" => MethodFilter::PATCH,
            _ => MethodFilter::DELETE,
        };
        let handler = move |State(core): State<Channel>, request: Request| handle(route, core, request, max_body_bytes);
        let mut method = MethodRouter::new().on(filter, handler);
        if route.multipart_file.is_some() {
            // Uploads take files up to 10 MiB; every other body keeps the
            // gateway's limit.
            method = method.layer(axum::extract::DefaultBodyLimit::max(crate::extract::MAX_UPLOAD_BODY_BYTES));
        }
        let methods = by_path.remove(route.path).unwrap_or_default().merge(method);
        by_path.insert(route.path, methods);
    }
    let mut router = Router::new();
    for (path, methods) in by_path {
        router = router.route(path, methods);
    }
    router.merge(reference::router()).with_state(core)
}

/// Decodes the request as `route` declares, calls the core, and answers with
/// the route's success status or the error envelope.
async fn handle(
    route: &'static Route,
    core: Channel,
    request: Request,
    max_body_bytes: usize,
) -> Result<Response, ApiError> {
    let (mut parts, body) = request.into_parts();
    if parts.extensions.get::<crate::UnusableRequestId>().is_some() {
        return Err(ApiError::invalid(
            Some("Request-Id".to_string()),
            "Request-Id must be at most 200 bytes of visible ASCII; this response carries one Sail made.",
        ));
    }
    let ctx = CallContext::from_parts(&parts)?;
    let Path(path_params) = Path::<Vec<(String, String)>>::from_request_parts(&mut parts, &())
        .await
        .map_err(|_| ApiError::invalid(None, "The URL path does not decode to UTF-8 text."))?;
    let query = QueryParams::parse(parts.uri.query())?;

    let mut input = if let Some(field) = route.multipart_file {
        read_upload(Request::from_parts(parts, body), field).await?
    } else if route.has_body {
        let object = read_json_object(Request::from_parts(parts, body), max_body_bytes).await?;
        if let Some(bound) = route.path_params.iter().find(|p| object.contains_key(**p)) {
            return Err(ApiError::invalid(
                Some(bound.to_string()),
                format!("'{bound}' is given by the URL path; leave it out of the body."),
            ));
        }
        object
    } else {
        JsonObject::new()
    };
    query_fields(route, query, &mut input)?;
    for (name, value) in path_params {
        input.insert(name, Value::String(value));
    }

    let reply = (route.call)(core, input, ctx.metadata()).await.map_err(ApiError::from)?;
    let status = StatusCode::from_u16(route.success_status).unwrap_or(StatusCode::OK);
    let mut response = (status, Bytes::from(reply)).into_response();
    response.headers_mut().insert(http::header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    Ok(response)
}

/// Moves the query parameters `route` declares into `input`, typed as their
/// fields are; an undeclared parameter, or one that does not parse, is
/// `invalid_request` naming it.
fn query_fields(route: &Route, query: QueryParams, input: &mut JsonObject) -> Result<(), ApiError> {
    for (name, raw) in query.into_pairs() {
        let Some(param) = route.query.iter().find(|q| q.name == name) else {
            return Err(ApiError::invalid(Some(name.clone()), format!("Unknown query parameter '{name}'.")));
        };
        let value = match param.kind {
            ParamKind::String => Some(Value::String(raw)),
            ParamKind::Integer => raw.trim().parse::<i64>().ok().map(Value::from),
            ParamKind::Number => {
                raw.trim().parse::<f64>().ok().and_then(serde_json::Number::from_f64).map(Value::Number)
            }
            ParamKind::Boolean => match raw.as_str() {
                "true" => Some(Value::Bool(true)),
                "false" => Some(Value::Bool(false)),
                _ => None,
            },
        };
        let value = value.ok_or_else(|| {
            let kind = match param.kind {
                ParamKind::Integer => "an integer",
                ParamKind::Number => "a number",
                _ => "true or false",
            };
            ApiError::invalid(Some(name.clone()), format!("{name} must be {kind}."))
        })?;
        input.insert(name, value);
    }
    Ok(())
}

impl From<CallError> for ApiError {
    fn from(err: CallError) -> Self {
        match err {
            CallError::Input { param, message } => ApiError::invalid(param, message),
            CallError::Status(status) => ApiError::from(status),
            CallError::Output(why) => {
                tracing::error!(error = %why, "a reply could not be rendered as JSON");
                ApiError::internal()
            }
        }
    }
}
