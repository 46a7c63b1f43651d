//! The ceiling the service's throughput is compared with: a bare axum
//! handler answering every GET with the JSON body given on the command line
//! (or a merchant page), from memory. Run it and point the same load at it as
//! at `sail serve`, in the same run (docs/benchmarks.md):
//! `cargo run --release --example bare_axum -- 127.0.0.1:18090 [body.json]`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or benchmark: a failed step is the run failing, and says where"
)]

use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;

const MERCHANT_PAGE: &str = r#"{"data":[{"id":"mer_01941f297c0075e7a8773c985876a8d1","name":"Walgreens","capabilities":{"item_level_receipts":true},"urls":{"main":"https://www.walgreens.com","logo":null}}],"pagination":{"total":1,"limit":25,"offset":0}}"#;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let addr = args.next().unwrap_or_else(|| "127.0.0.1:18090".to_string());
    let body: &'static str = match args.next() {
        Some(path) => Box::leak(std::fs::read_to_string(path)?.into_boxed_str()),
        None => MERCHANT_PAGE,
    };
    let app = Router::new()
        .fallback(move || async move { ([(header::CONTENT_TYPE, "application/json")], body).into_response() });
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    axum::serve(listener, app).await
}
