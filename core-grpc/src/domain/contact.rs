//! Contact fields of a user profile (CreateUser in docs/openapi.json): email, phone, country.

use std::fmt;

/// Why a contact field was refused; the message is shown to the partner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContactError(pub String);

impl fmt::Display for ContactError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An email address of the form `local@domain.tld` (RFC 5321 lengths).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    pub fn parse(raw: &str) -> Result<Email, ContactError> {
        // The value is not repeated: even a malformed address is personal
        // data, and refusals are logged.
        let invalid = || ContactError("email is not a valid email address (name@example.com).".to_string());
        if raw.len() > 254 || raw.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(invalid());
        }
        let (local, domain) = raw.rsplit_once('@').ok_or_else(invalid)?;
        let labels: Vec<&str> = domain.split('.').collect();
        let domain_ok = labels.len() >= 2
            && labels.iter().all(|label| {
                !label.is_empty()
                    && label.len() <= 63
                    && !label.starts_with('-')
                    && !label.ends_with('-')
                    && label.chars().all(|c| c.is_alphanumeric() || c == '-')
            })
            // Top-level domains are letters, or IDNA (`xn--…`).
            && labels.last().is_some_and(|tld| tld.len() >= 2 && tld.starts_with(|c: char| c.is_alphabetic()));
        let local_ok = !local.is_empty()
            && local.len() <= 64
            && !local.contains('@')
            && !local.starts_with('.')
            && !local.ends_with('.')
            && !local.contains("..");
        if domain_ok && local_ok { Ok(Email(raw.to_string())) } else { Err(invalid()) }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A phone number: digits with the usual separators, 7 to 15 digits (E.164).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phone(String);

impl Phone {
    pub fn parse(raw: &str) -> Result<Phone, ContactError> {
        // The OpenAPI pattern states the same rule:
        // ^\+?[ ().-]*(?:[0-9][ ().-]*){7,15}$
        let digits = raw.chars().filter(char::is_ascii_digit).count();
        let allowed = raw.chars().all(|c| c.is_ascii_digit() || " +-().".contains(c));
        let plus_first = raw.find('+').is_none_or(|at| at == 0) && raw.matches('+').count() <= 1;
        if allowed && plus_first && (7..=15).contains(&digits) {
            Ok(Phone(raw.trim().to_string()))
        } else {
            Err(ContactError("phone is not a valid phone number; use E.164, e.g. +14155550123.".to_string()))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The officially assigned ISO 3166-1 alpha-2 codes.
pub const ISO_3166_ALPHA_2: &str = "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW";

/// An ISO 3166-1 alpha-2 country code, stored upper-case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountryCode(String);

impl CountryCode {
    pub fn parse(raw: &str) -> Result<CountryCode, ContactError> {
        // Upper or lower case, as the OpenAPI enum lists them.
        let upper = raw.to_ascii_uppercase();
        let one_case = raw == upper || raw == raw.to_ascii_lowercase();
        if one_case && upper.len() == 2 && ISO_3166_ALPHA_2.split(' ').any(|code| code == upper) {
            Ok(CountryCode(upper))
        } else {
            Err(ContactError(format!("'{raw}' is not an ISO 3166-1 alpha-2 country code (e.g. US).")))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails() {
        for ok in ["a@b.co", "jane.doe+hsa@example.com", "x@mail.example.org", "a@b.xn--p1ai"] {
            assert!(Email::parse(ok).is_ok(), "{ok}");
        }
        for bad in
            ["", "plain", "@x.com", "a@", "a@b", "a@b.c", "a b@c.com", "a@@b.com", "a@.com", "a..b@c.com", "a@b.1com"]
        {
            assert!(Email::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn phones() {
        assert!(Phone::parse("+1 (415) 555-0123").is_ok());
        assert!(Phone::parse("4155550123").is_ok());
        for bad in ["12", "call me", "555+0123456", "+1 415 555 0123 0000000"] {
            assert!(Phone::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn countries() {
        assert_eq!(CountryCode::parse("US").unwrap().as_str(), "US");
        assert_eq!(CountryCode::parse("de").unwrap().as_str(), "DE");
        assert_eq!(ISO_3166_ALPHA_2.split(' ').count(), 249);
        for bad in ["USA", "XX", "U", "", "ZZ"] {
            assert!(CountryCode::parse(bad).is_err(), "{bad}");
        }
    }
}
