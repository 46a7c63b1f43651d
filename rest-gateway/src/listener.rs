//! The gateway's listener, so that even requests hyper refuses before any
//! handler runs are answered in the envelope with a `Request-Id`.
//!
//! hyper answers a request it cannot parse itself, with an empty body and
//! `connection: close`: `414` for a request target over 65,534 bytes, `431`
//! for a header section over its buffer (about 400 KiB) or over 100 headers,
//! `400` for a malformed request line or header. Those answers are fixed in
//! hyper, so the connection's writer recognises them (a head with
//! `content-length: 0`, a status among those three, which no handler of
//! Sail's ever sends: every error of the API carries a body) and writes the
//! envelope instead. The connection closes after it as hyper intends.

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use axum::serve::Listener;
use sail_api::ErrorCode;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A listener (axum's own, which sets up and accepts connections) whose
/// connections answer hyper's own refusals in the envelope.
pub struct GatewayListener<L> {
    inner: L,
}

impl<L> GatewayListener<L> {
    pub fn new(inner: L) -> Self {
        GatewayListener { inner }
    }
}

impl<L: Listener<Addr = SocketAddr>> Listener for GatewayListener<L> {
    type Io = EnvelopedRefusals<L::Io>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        let (io, addr) = self.inner.accept().await;
        (EnvelopedRefusals { inner: io, pending: None }, addr)
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.inner.local_addr()
    }
}

/// The address a request came from: the TCP peer of its connection (no
/// forwarding header is trusted; a proxy in front of the gateway would be
/// its own decision to make).
#[derive(Debug, Clone, Copy)]
pub struct ClientAddr(pub SocketAddr);

impl<L: Listener<Addr = SocketAddr>>
    axum::extract::connect_info::Connected<axum::serve::IncomingStream<'_, GatewayListener<L>>> for ClientAddr
{
    fn connect_info(stream: axum::serve::IncomingStream<'_, GatewayListener<L>>) -> Self {
        ClientAddr(*stream.remote_addr())
    }
}

/// A connection whose writer replaces hyper's bodiless refusals with the
/// envelope (see the module docs).
pub struct EnvelopedRefusals<IO> {
    inner: IO,
    /// A replacement being written, and how much of it is written.
    pending: Option<(Vec<u8>, usize)>,
}

/// The envelope for one of hyper's automatic refusals, when `head` is one.
fn replacement_for(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let rest = text.strip_prefix("HTTP/1.1 ")?;
    if !text.ends_with("\r\n\r\n") || !text.to_ascii_lowercase().contains("\r\ncontent-length: 0\r\n") {
        return None;
    }
    let (status, message) = match rest.get(..3)? {
        "414" => (
            "414 URI Too Long",
            "The request URI is longer than Sail accepts (65,534 bytes). Send long values in a JSON body.",
        ),
        "431" => (
            "431 Request Header Fields Too Large",
            "The request's headers are larger than Sail accepts (at most 100 headers, about 400 KiB in all).",
        ),
        "400" => ("400 Bad Request", "The request is not well-formed HTTP/1.1."),
        _ => return None,
    };
    let body = serde_json::json!({
        "error": {"code": ErrorCode::InvalidRequest.as_str(), "message": message, "param": null}
    })
    .to_string();
    let request_id = uuid::Uuid::new_v4();
    Some(
        format!(
            "HTTP/1.1 {status}\r\ncontent-type: application/json\r\nrequest-id: {request_id}\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

impl<IO: AsyncWrite + Unpin> EnvelopedRefusals<IO> {
    /// Writes what is left of a replacement.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some((bytes, written)) = &mut self.pending {
            if *written == bytes.len() {
                self.pending = None;
                break;
            }
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &bytes[*written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *written += n;
        }
        Poll::Ready(Ok(()))
    }
}

impl<IO: AsyncRead + Unpin> AsyncRead for EnvelopedRefusals<IO> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<IO: AsyncWrite + Unpin> AsyncWrite for EnvelopedRefusals<IO> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        ready!(self.poll_pending(cx))?;
        // hyper refuses with a tiny head written at once; only such a
        // write is worth looking at.
        if buf.len() < 256
            && let Some(replacement) = replacement_for(buf)
        {
            tracing::info!(response = %String::from_utf8_lossy(&buf[..buf.len().min(40)]), "request refused by the HTTP parser");
            self.pending = Some((replacement, 0));
            // The replacement is written now or by the next flush; hyper
            // counts its own head as written either way.
            let _ = self.poll_pending(cx)?;
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hypers_bodiless_refusals_are_replaced() {
        let hyper_414 = b"HTTP/1.1 414 URI Too Long\r\nconnection: close\r\ncontent-length: 0\r\ndate: Mon, 23 Nov 2026 21:40:26 GMT\r\n\r\n";
        let replaced = String::from_utf8(replacement_for(hyper_414).unwrap()).unwrap();
        assert!(replaced.starts_with("HTTP/1.1 414 URI Too Long\r\n"));
        assert!(replaced.contains("request-id: "));
        let body: serde_json::Value = serde_json::from_str(replaced.split("\r\n\r\n").nth(1).unwrap()).unwrap();
        assert_eq!(body["error"]["code"], "invalid_request");
        let hyper_431 =
            b"HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\ncontent-length: 0\r\n\r\n";
        assert!(replacement_for(hyper_431).is_some());

        // Sail's own answers always have a body, and other statuses pass.
        let ours = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 101\r\n\r\n";
        assert!(replacement_for(ours).is_none());
        let no_content = b"HTTP/1.1 204 No Content\r\ncontent-length: 0\r\n\r\n";
        assert!(replacement_for(no_content).is_none());
        assert!(replacement_for(b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\n").is_none(), "a whole head only");
    }
}
