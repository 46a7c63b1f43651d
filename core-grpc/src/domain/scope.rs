//! API key scopes (docs/contract.md#keys-scopes-and-tenants) and the rule that a `token_admin` key holds no
//! other scope.

use std::collections::BTreeSet;
use std::fmt;

/// One scope a key can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    Expenses,
    BenefitAccount,
    AccountNumbers,
    Identity,
    Ingest,
    TokenAdmin,
    Connections,
}

impl Scope {
    pub const ALL: [Scope; 7] = [
        Scope::Expenses,
        Scope::BenefitAccount,
        Scope::AccountNumbers,
        Scope::Identity,
        Scope::Ingest,
        Scope::TokenAdmin,
        Scope::Connections,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Expenses => "expenses",
            Scope::BenefitAccount => "benefit_account",
            Scope::AccountNumbers => "account_numbers",
            Scope::Identity => "identity",
            Scope::Ingest => "ingest",
            Scope::TokenAdmin => "token_admin",
            Scope::Connections => "connections",
        }
    }

    pub fn parse(name: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|scope| scope.as_str() == name)
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a list of scopes cannot be a key's scopes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScopeSetError {
    Unknown(String),
    Empty,
    /// `token_admin` combined with another scope.
    TokenAdminNotAlone,
}

impl fmt::Display for ScopeSetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScopeSetError::Unknown(name) => {
                write!(f, "unknown scope '{name}'; known scopes: {}", Scope::ALL.map(Scope::as_str).join(", "))
            }
            ScopeSetError::Empty => f.write_str("a key needs at least one scope"),
            ScopeSetError::TokenAdminNotAlone => f.write_str("a key holding token_admin cannot hold any other scope"),
        }
    }
}

/// A valid set of key scopes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ScopeSet(BTreeSet<Scope>);

impl ScopeSet {
    /// Parses names (from a comma list or the stored column).
    pub fn parse<'a>(names: impl IntoIterator<Item = &'a str>) -> Result<ScopeSet, ScopeSetError> {
        let mut set = BTreeSet::new();
        for name in names.into_iter().map(str::trim).filter(|n| !n.is_empty()) {
            set.insert(Scope::parse(name).ok_or_else(|| ScopeSetError::Unknown(name.to_string()))?);
        }
        if set.is_empty() {
            return Err(ScopeSetError::Empty);
        }
        if set.contains(&Scope::TokenAdmin) && set.len() > 1 {
            return Err(ScopeSetError::TokenAdminNotAlone);
        }
        Ok(ScopeSet(set))
    }

    /// Parses a comma-separated list such as `expenses,ingest`.
    pub fn parse_csv(csv: &str) -> Result<ScopeSet, ScopeSetError> {
        ScopeSet::parse(csv.split(','))
    }

    pub fn contains(&self, scope: Scope) -> bool {
        self.0.contains(&scope)
    }

    pub fn contains_name(&self, name: &str) -> bool {
        Scope::parse(name).is_some_and(|scope| self.contains(scope))
    }

    /// A `token_admin` key: it may call only the token operations.
    pub fn is_token_admin(&self) -> bool {
        self.contains(Scope::TokenAdmin)
    }

    pub fn names(&self) -> Vec<String> {
        self.0.iter().map(|s| s.as_str().to_string()).collect()
    }

    pub fn to_csv(&self) -> String {
        self.names().join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_round_trips() {
        let set = ScopeSet::parse_csv("ingest, expenses").unwrap();
        assert_eq!(set.to_csv(), "expenses,ingest");
        assert!(set.contains(Scope::Ingest) && !set.is_token_admin());
        assert_eq!(ScopeSet::parse_csv(&set.to_csv()).unwrap(), set);
    }

    #[test]
    fn token_admin_stands_alone() {
        assert!(ScopeSet::parse_csv("token_admin").unwrap().is_token_admin());
        assert_eq!(ScopeSet::parse_csv("token_admin,identity"), Err(ScopeSetError::TokenAdminNotAlone));
    }

    #[test]
    fn rejects_unknown_and_empty() {
        assert_eq!(ScopeSet::parse_csv("expenses,admin"), Err(ScopeSetError::Unknown("admin".into())));
        assert_eq!(ScopeSet::parse_csv(" , "), Err(ScopeSetError::Empty));
    }

    #[test]
    fn every_scope_named_in_the_proto_exists() {
        for path in sail_api::access::METHOD_PATHS {
            let rule = sail_api::access::access_rule(path).unwrap();
            for name in rule.any_key_scope.iter().chain(rule.user_token_scope.iter()) {
                assert!(Scope::parse(name).is_some(), "{path} names unknown scope {name}");
            }
        }
    }
}
