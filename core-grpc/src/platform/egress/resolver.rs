//! The webhook HTTP client's DNS resolver: it hands the connector only
//! addresses that may receive webhooks (`address::forbidden`). The check is
//! where the connection is made, on the very addresses it dials, so a name
//! whose records change between a check and the connection (DNS
//! rebinding) still reaches no internal address. Literal addresses in a URL
//! skip DNS; `check_url` refuses those before every attempt.

use std::net::SocketAddr;
use std::time::Duration;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};

use crate::platform::egress::address::forbidden;

/// How long a delivery's lookup may take.
const LOOKUP_TIMEOUT: Duration = Duration::from_secs(5);

/// Resolves names to public unicast addresses only (private and loopback
/// too with `allow_private`).
#[derive(Debug, Clone, Copy)]
pub struct PublicOnly {
    pub allow_private: bool,
}

/// Why a name gave nothing to dial.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Refused(String);

impl PublicOnly {
    /// The addresses of `host` that may be dialled.
    pub async fn lookup(self, host: &str) -> Result<Vec<SocketAddr>, String> {
        let found = tokio::time::timeout(LOOKUP_TIMEOUT, tokio::net::lookup_host((host, 0)))
            .await
            .map_err(|_| "the lookup timed out".to_string())?
            .map_err(|err| format!("the lookup failed: {err}"))?;
        let mut allowed = Vec::new();
        let mut refused = None;
        for addr in found {
            match forbidden(addr.ip(), self.allow_private) {
                None => allowed.push(addr),
                Some(why) => refused = Some(format!("{} is {}", addr.ip(), why.describe())),
            }
        }
        if allowed.is_empty() {
            return Err(refused.unwrap_or_else(|| "no address".to_string()));
        }
        Ok(allowed)
    }
}

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        let this = *self;
        let host = name.as_str().to_string();
        Box::pin(async move {
            match this.lookup(&host).await {
                Ok(addrs) => Ok(Box::new(addrs.into_iter()) as Addrs),
                Err(why) => Err(Box::new(Refused(why)) as Box<dyn std::error::Error + Send + Sync>),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn loopback_names_are_dialled_only_when_private_receivers_are_allowed() {
        let strict = PublicOnly { allow_private: false }.lookup("localhost").await;
        assert!(strict.is_err_and(|why| why.contains("127.0.0.1") || why.contains("::1")));
        let allowed = PublicOnly { allow_private: true }.lookup("localhost").await.unwrap();
        assert!(allowed.iter().all(|a| a.ip().is_loopback()));
    }

    /// The client itself refuses to connect to a name that resolves to a
    /// loopback address, with a listener there to prove it would answer.
    #[tokio::test]
    async fn the_client_never_dials_a_refused_address() {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let accepted = tokio::spawn(async move { listener.accept().await.is_ok() });
        let client = reqwest::Client::builder()
            .dns_resolver(std::sync::Arc::new(PublicOnly { allow_private: false }))
            .build()
            .unwrap();
        let sent = client.post(format!("http://localhost:{port}/hook")).body("{}").send().await;
        assert!(sent.is_err(), "the request must not be sent");
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(!accepted.is_finished(), "nothing connected to the loopback listener");
        accepted.abort();
    }
}
