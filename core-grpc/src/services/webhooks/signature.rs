//! The webhook signature (docs/contract.md#webhooks-and-events): `Sail-Signature: t=<unix seconds>,v1=<hex>`
//! where `v1` = HMAC-SHA256(secret, "<t>.<raw body>"). Receivers reject a `t`
//! older than five minutes.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// How old a signature may be before receivers reject it.
pub const TOLERANCE_SECS: i64 = 300;

fn mac(secret: &str, timestamp: i64, body: &[u8]) -> Hmac<Sha256> {
    // HMAC accepts keys of any length, so this cannot fail.
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(secret.as_bytes()).unwrap_or_else(|_| unreachable!());
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

/// The `Sail-Signature` header value for `body` sent at `timestamp`.
pub fn sign(secret: &str, timestamp: i64, body: &[u8]) -> String {
    let digest = mac(secret, timestamp, body).finalize().into_bytes();
    format!("t={timestamp},v1={}", crate::domain::hex(&digest))
}

/// Why a signature does not verify.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    #[error("the header is not of the form t=<unix seconds>,v1=<hex>")]
    Malformed,
    #[error("the timestamp is {0} seconds away from now, more than the {TOLERANCE_SECS} s tolerance")]
    Stale(i64),
    #[error("no v1 signature matches the body and secret")]
    Mismatch,
}

/// Checks a `Sail-Signature` header against `body`, at `now` (Unix seconds),
/// in constant time.
pub fn verify(secret: &str, header: &str, body: &[u8], now: i64, tolerance: i64) -> Result<(), VerifyError> {
    let mut timestamp = None;
    let mut candidates = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", value)) => timestamp = value.parse::<i64>().ok(),
            Some(("v1", value)) => candidates.push(value.to_string()),
            _ => {}
        }
    }
    let timestamp = timestamp.ok_or(VerifyError::Malformed)?;
    if candidates.is_empty() {
        return Err(VerifyError::Malformed);
    }
    if (now - timestamp).abs() > tolerance {
        return Err(VerifyError::Stale(now - timestamp));
    }
    for candidate in candidates {
        let Some(bytes) = crate::domain::unhex(&candidate) else { continue };
        if mac(secret, timestamp, body).verify_slice(&bytes).is_ok() {
            return Ok(());
        }
    }
    Err(VerifyError::Mismatch)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_verifies_and_any_change_breaks_it() {
        let header = sign("whsec_test", 1_700_000_000, br#"{"id":"evt_1"}"#);
        assert!(header.starts_with("t=1700000000,v1="));
        assert_eq!(verify("whsec_test", &header, br#"{"id":"evt_1"}"#, 1_700_000_010, 300), Ok(()));
        assert_eq!(
            verify("whsec_other", &header, br#"{"id":"evt_1"}"#, 1_700_000_010, 300),
            Err(VerifyError::Mismatch)
        );
        assert_eq!(verify("whsec_test", &header, br#"{"id":"evt_2"}"#, 1_700_000_010, 300), Err(VerifyError::Mismatch));
        assert!(matches!(
            verify("whsec_test", &header, br#"{"id":"evt_1"}"#, 1_700_000_400, 300),
            Err(VerifyError::Stale(_))
        ));
        assert_eq!(verify("whsec_test", "v1=abc", b"", 0, 300), Err(VerifyError::Malformed));
    }

    #[test]
    fn matches_a_published_hmac_sha256_vector() {
        // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?".
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(b"Jefe").unwrap();
        mac.update(b"what do ya want for nothing?");
        assert_eq!(
            crate::domain::hex(&mac.finalize().into_bytes()),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}
