//! The API reference, served without a key: the OpenAPI document generated
//! from `proto/` at `/api/v1/openapi.json`, and a page rendering it at
//! `/api/v1/docs` that needs nothing from the network.

use axum::Router;
use axum::response::{Html, IntoResponse};
use axum::routing::get;
use http::header;
use sail_api::rest::CoreChannel as Channel;

pub fn router() -> Router<Channel> {
    Router::new().route("/openapi.json", get(openapi)).route("/docs", get(docs))
}

async fn openapi() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], sail_api::OPENAPI_JSON)
}

async fn docs() -> impl IntoResponse {
    Html(crate::reference_page::page())
}
