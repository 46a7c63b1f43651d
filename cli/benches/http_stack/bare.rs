//! The ceiling: a bare axum server that answers every request with one
//! status and one JSON body held in memory, after reading the request body
//! as any handler must. The bench starts it as a second copy of its own
//! executable (so it is a process of its own, like `sail serve`) with the
//! address, status and body file in [`BARE_ENV`].

use std::net::SocketAddr;
use std::path::Path;

use axum::Router;
use axum::body::Bytes;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;

/// When this variable is set, the executable is the bare server, not the
/// bench: `address status body-file`.
pub const BARE_ENV: &str = "HTTP_STACK_BARE";

/// What the bare server is told to answer.
pub struct BareSpec<'a> {
    pub addr: SocketAddr,
    pub status: u16,
    pub body_file: &'a Path,
}

impl BareSpec<'_> {
    /// The value of [`BARE_ENV`] that starts a server for this spec.
    pub fn to_env(&self) -> String {
        format!("{} {} {}", self.addr, self.status, self.body_file.display())
    }
}

/// Runs the bare server described by `spec` (the value of [`BARE_ENV`])
/// until the process is killed.
pub fn serve(spec: &str) -> std::io::Result<()> {
    let mut parts = spec.splitn(3, ' ');
    let invalid =
        || std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("{BARE_ENV} must be `addr status file`"));
    let addr: SocketAddr = parts.next().and_then(|a| a.parse().ok()).ok_or_else(invalid)?;
    let status =
        parts.next().and_then(|s| s.parse().ok()).and_then(|s| StatusCode::from_u16(s).ok()).ok_or_else(invalid)?;
    let body: &'static str = Box::leak(std::fs::read_to_string(parts.next().ok_or_else(invalid)?)?.into_boxed_str());
    let app = Router::new().fallback(move |_request_body: Bytes| async move {
        (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
    });
    tokio::runtime::Builder::new_multi_thread().enable_all().build()?.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        axum::serve(listener, app).await
    })
}
