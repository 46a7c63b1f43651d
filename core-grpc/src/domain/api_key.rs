//! API key secrets: their form, how a new one is made and how it is stored.
//! Partners' keys are issued by `services::admin` and checked on every call
//! by `layers::auth`; both read the form from here.

use sha2::{Digest, Sha256};

/// The prefix of every API key secret.
pub const KEY_PREFIX: &str = "sk_";
/// Base62 characters after the prefix.
pub const KEY_SECRET_LEN: usize = 40;

/// A new API key secret: `sk_` + 40 base62 characters (about 238 bits).
pub fn generate_key_secret() -> String {
    super::random_token(KEY_PREFIX, KEY_SECRET_LEN)
}

/// The stored form of a key secret. The secrets are random and long, so a
/// plain SHA-256 is as strong as a slow hash and keeps lookups indexed.
pub fn hash_key_secret(secret: &str) -> String {
    super::hex(&Sha256::digest(secret.as_bytes()))
}

/// Whether `secret` has the form of a key secret (checked before any
/// lookup is spent on it).
pub fn looks_like_key(secret: &str) -> bool {
    secret.len() == KEY_PREFIX.len() + KEY_SECRET_LEN
        && secret.starts_with(KEY_PREFIX)
        && secret[KEY_PREFIX.len()..].bytes().all(|b| b.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_have_the_documented_format_and_hash_stably() {
        let secret = generate_key_secret();
        assert!(looks_like_key(&secret), "{secret}");
        assert!(!looks_like_key("sk_short"));
        assert_eq!(hash_key_secret(&secret), hash_key_secret(&secret));
        assert_eq!(hash_key_secret(&secret).len(), 64);
        assert_ne!(generate_key_secret(), secret);
    }
}
