//! Resource ids: a type prefix plus a UUIDv7 in lower-case hex without dashes
//! (docs/contract.md#wire-conventions). UUIDv7 sorts by creation time, so ids order lists too.

use uuid::Uuid;

/// The kinds of resource, each with its id prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdKind {
    User,
    Connection,
    Account,
    Transaction,
    Expense,
    Job,
    Merchant,
    Administrator,
    Event,
    WebhookEndpoint,
    UserToken,
    Key,
    Partner,
    Receipt,
    /// A webhook delivery (internal).
    Delivery,
    /// An identity record a connection reported (internal).
    IdentityRecord,
    /// A read of personal data in the audit trail (internal).
    PiiRead,
    HostedSession,
    /// A webhook delivery attempt (internal).
    Attempt,
    /// An operator's action in the operator audit trail (internal).
    OperatorAction,
}

impl IdKind {
    pub fn prefix(self) -> &'static str {
        match self {
            IdKind::User => "usr_",
            IdKind::Connection => "conn_",
            IdKind::Account => "acct_",
            IdKind::Transaction => "txn_",
            IdKind::Expense => "exp_",
            IdKind::Job => "job_",
            IdKind::Merchant => "mer_",
            IdKind::Administrator => "adm_",
            IdKind::Event => "evt_",
            IdKind::WebhookEndpoint => "whe_",
            IdKind::UserToken => "utok_",
            IdKind::Key => "key_",
            IdKind::Partner => "ptn_",
            IdKind::Receipt => "rcpt_",
            IdKind::Delivery => "dlv_",
            IdKind::IdentityRecord => "idr_",
            IdKind::PiiRead => "aud_",
            IdKind::HostedSession => "hs_",
            IdKind::Attempt => "att_",
            IdKind::OperatorAction => "opa_",
        }
    }
}

/// A fresh id of `kind`.
pub fn new_id(kind: IdKind) -> String {
    format!("{}{}", kind.prefix(), Uuid::now_v7().simple())
}

/// Whether `id` is well-formed for `kind`. Lookups of a malformed id answer
/// `not_found`, exactly as for an id that does not exist.
pub fn parse_id(kind: IdKind, id: &str) -> Option<&str> {
    let hex = id.strip_prefix(kind.prefix())?;
    let well_formed = hex.len() == 32 && hex.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    well_formed.then_some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_ids_are_prefixed_v7_and_sort_by_creation() {
        let a = new_id(IdKind::User);
        let b = new_id(IdKind::User);
        assert!(a.starts_with("usr_") && a.len() == 36);
        assert_eq!(Uuid::parse_str(&a[4..]).unwrap().get_version_num(), 7);
        assert!(a < b);
        assert_eq!(parse_id(IdKind::User, &a), Some(a.as_str()));
    }

    #[test]
    fn malformed_ids_do_not_parse() {
        assert_eq!(parse_id(IdKind::User, "conn_0190f0b1c2d37e8f9a0b1c2d3e4f5a6b"), None);
        assert_eq!(parse_id(IdKind::User, "usr_0190F0B1C2D37E8F9A0B1C2D3E4F5A6B"), None);
        assert_eq!(parse_id(IdKind::User, "usr_123"), None);
        assert_eq!(parse_id(IdKind::User, "usr_' OR 1=1 --"), None);
    }
}
