//! Wire form of instants: RFC 3339, UTC, with `Z` (docs/contract.md#wire-conventions).

use chrono::{DateTime, SecondsFormat, Utc};

pub fn rfc3339(at: &DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// Now, truncated to microseconds so it round-trips through both databases.
pub fn now() -> DateTime<Utc> {
    let now = Utc::now();
    DateTime::from_timestamp_micros(now.timestamp_micros()).unwrap_or(now)
}

#[cfg(test)]
mod tests {
    #[test]
    fn formats_with_z() {
        let at = chrono::DateTime::from_timestamp(1_700_000_000, 0).unwrap();
        assert_eq!(super::rfc3339(&at), "2023-11-14T22:13:20Z");
    }
}
