//! Parsed value types. Input is turned into these once, at the edge of a
//! business function; past that point a value that exists is a valid value.

pub mod api_key;
pub mod contact;
pub mod embed_origin;
pub mod ids;
pub mod money;
pub mod page;
pub mod scope;
pub mod time;

pub use contact::{CountryCode, Email, Phone};
pub use embed_origin::EmbedOrigin;
pub use ids::{IdKind, new_id, parse_id};
pub use page::Page;
pub use scope::{Scope, ScopeSet};

/// A secret: `prefix` followed by `len` random base62 characters.
pub fn random_token(prefix: &str, len: usize) -> String {
    use rand::Rng;
    let tail: String = rand::rng().sample_iter(rand::distr::Alphanumeric).take(len).map(char::from).collect();
    format!("{prefix}{tail}")
}

/// Lower-case hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        out.push(DIGITS[(byte >> 4) as usize] as char);
        out.push(DIGITS[(byte & 0x0f) as usize] as char);
    }
    out
}

/// Bytes of a hex string (either case); None when it is not hex.
pub fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok()).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn hex_round_trips() {
        assert_eq!(super::hex(&[0, 15, 255]), "000fff");
        assert_eq!(super::unhex("000FFF"), Some(vec![0, 15, 255]));
        assert_eq!(super::unhex("0g"), None);
        assert_eq!(super::unhex("abc"), None);
    }
}
