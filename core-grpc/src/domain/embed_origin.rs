//! An origin a partner allows to frame its hosted pages
//! (docs/hosted-sessions.md#embedding-in-an-iframe). Parsed once, when an
//! operator registers it; what is stored and sent in `frame-ancestors` and
//! `postMessage` is the browser's own serialisation of the origin, so it
//! compares equal to what a browser reports.

use std::fmt;

/// The most origins one partner may register: a `Content-Security-Policy`
/// header stays short, and a list this long is a mistake, not a need.
pub const MAX_EMBED_ORIGINS: usize = 20;

/// The longest origin text accepted (a host name is at most 253 bytes).
const MAX_LEN: usize = 300;

/// `scheme://host[:port]`: `https`, or `http` for a loopback host (a
/// partner's local development), lower case, without the default port.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EmbedOrigin(String);

/// Why a text is not an origin a partner may register.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EmbedOriginError {
    #[error("an origin is at most {MAX_LEN} characters")]
    TooLong,
    #[error("not an absolute URL of the form scheme://host[:port]")]
    NotAUrl,
    #[error("an origin must use https (http is allowed only for localhost, 127.0.0.1 and [::1])")]
    Scheme,
    #[error("an origin names a scheme, a host and an optional port: no path, query, fragment or credentials")]
    MoreThanAnOrigin,
    #[error("an origin names one host: wildcards are not allowed")]
    Wildcard,
}

fn is_loopback(host: &url::Host<&str>) -> bool {
    match host {
        url::Host::Domain(name) => name.eq_ignore_ascii_case("localhost"),
        url::Host::Ipv4(ip) => ip.is_loopback(),
        url::Host::Ipv6(ip) => ip.is_loopback(),
    }
}

impl EmbedOrigin {
    /// Parses what an operator typed.
    pub fn parse(text: &str) -> Result<Self, EmbedOriginError> {
        let text = text.trim();
        if text.len() > MAX_LEN {
            return Err(EmbedOriginError::TooLong);
        }
        if text.contains('*') {
            return Err(EmbedOriginError::Wildcard);
        }
        let parsed = url::Url::parse(text).map_err(|_| EmbedOriginError::NotAUrl)?;
        let host = parsed.host().ok_or(EmbedOriginError::NotAUrl)?;
        match parsed.scheme() {
            "https" => {}
            "http" if is_loopback(&host) => {}
            _ => return Err(EmbedOriginError::Scheme),
        }
        // What follows the scheme is an authority alone, with at most the
        // one trailing "/" that the URL parser makes of no path at all.
        let authority = text.split_once("://").map(|(_, rest)| rest).unwrap_or_default();
        let authority = authority.strip_suffix('/').unwrap_or(authority);
        if authority.contains(['/', '?', '#', '@', '\\']) || parsed.path() != "/" {
            return Err(EmbedOriginError::MoreThanAnOrigin);
        }
        Ok(EmbedOrigin(parsed.origin().ascii_serialization()))
    }

    /// The origin as browsers write it.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for EmbedOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A partner's stored list (a JSON array of origins), read back. A value
/// that is not such a list (a hand-edited row) allows no origin: framing
/// fails closed.
pub fn stored(json: &str) -> Vec<EmbedOrigin> {
    serde_json::from_str::<Vec<String>>(json)
        .map(|found| found.iter().filter_map(|o| EmbedOrigin::parse(o).ok()).collect())
        .unwrap_or_default()
}

/// The list as it is stored.
pub fn to_stored(origins: &[EmbedOrigin]) -> String {
    serde_json::Value::from(origins.iter().map(|o| o.0.clone()).collect::<Vec<_>>()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_kept_as_browsers_serialise_them() {
        for (given, kept) in [
            ("https://app.example.com", "https://app.example.com"),
            ("https://APP.Example.com/", "https://app.example.com"),
            ("https://app.example.com:443", "https://app.example.com"),
            ("https://app.example.com:8443", "https://app.example.com:8443"),
            ("  https://app.example.com  ", "https://app.example.com"),
            ("http://localhost:3000", "http://localhost:3000"),
            ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
            ("http://[::1]:5173", "http://[::1]:5173"),
        ] {
            assert_eq!(EmbedOrigin::parse(given).map(|o| o.to_string()), Ok(kept.to_string()), "{given}");
        }
    }

    #[test]
    fn anything_but_an_origin_is_refused_with_its_reason() {
        use EmbedOriginError::*;
        for (given, why) in [
            ("app.example.com", NotAUrl),
            ("", NotAUrl),
            ("http://app.example.com", Scheme),
            ("ftp://app.example.com", Scheme),
            ("javascript:alert(1)", NotAUrl),
            ("data:text/html,x", NotAUrl),
            ("https://app.example.com/path", MoreThanAnOrigin),
            ("https://app.example.com/?q=1", MoreThanAnOrigin),
            ("https://app.example.com/#top", MoreThanAnOrigin),
            ("https://user:pw@app.example.com", MoreThanAnOrigin),
            ("https://app.example.com//", MoreThanAnOrigin),
            ("https://*.example.com", Wildcard),
        ] {
            assert_eq!(EmbedOrigin::parse(given), Err(why), "{given}");
        }
        assert_eq!(EmbedOrigin::parse(&format!("https://{}.com", "a".repeat(400))), Err(TooLong));
    }

    #[test]
    fn a_damaged_stored_list_allows_nothing() {
        let kept =
            vec![EmbedOrigin::parse("https://a.example").unwrap(), EmbedOrigin::parse("http://localhost:1").unwrap()];
        assert_eq!(stored(&to_stored(&kept)), kept);
        assert!(stored("not json").is_empty());
        assert!(stored("[]").is_empty());
        assert_eq!(stored(r#"["https://a.example", "http://evil.example"]"#), kept[..1].to_vec());
    }
}
