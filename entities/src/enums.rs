//! The enumerated columns, each declared once: its Rust variants, the
//! string stored in the database (the same on SQLite and PostgreSQL) and
//! sent on the wire, as sea-orm `DeriveActiveEnum` types. The core converts
//! to and from the proto's strings through `as_str` and `parse`.

use sea_orm::entity::prelude::*;

/// Declares a string-valued column enum: sea-orm's `DeriveActiveEnum` with
/// `as_str`, `parse`, `ALL` and `Display` from the same list.
macro_rules! string_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $value:literal,)+ }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, EnumIter, DeriveActiveEnum)]
        #[sea_orm(rs_type = "String", db_type = "Text")]
        pub enum $name {
            $($(#[$vmeta])* #[sea_orm(string_value = $value)] $variant,)+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)+];

            /// The stored and wire form.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $value,)+
                }
            }

            /// The value whose wire form is `raw`.
            pub fn parse(raw: &str) -> Option<$name> {
                Self::ALL.iter().copied().find(|v| v.as_str() == raw)
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

string_enum! {
    /// A user's status.
    UserStatus {
        Active = "active",
        Inactive = "inactive",
    }
}

string_enum! {
    /// What kind of data source a connection links.
    ConnectionType {
        Card = "card",
        Store = "store",
        BenefitAccount = "benefit_account",
        External = "external",
    }
}

string_enum! {
    /// A connection's sync and authentication state.
    ConnectionStatus {
        Active = "active",
        Aggregating = "aggregating",
        UserInputRequired = "user_input_required",
        Error = "error",
        Disconnected = "disconnected",
    }
}

string_enum! {
    /// An account's type.
    AccountType {
        Hsa = "hsa",
        Fsa = "fsa",
        Hra = "hra",
        Checking = "checking",
        Savings = "savings",
        CreditCard = "credit_card",
    }
}

string_enum! {
    /// What a background job does.
    JobKind {
        /// A provider connection's sync (sandbox linking).
        SyncConnection = "sync_connection",
        /// Adjudication of a pushed batch of transactions.
        IngestTransactions = "ingest_transactions",
        /// Reading a receipt and re-deciding its expense.
        ReadReceipt = "read_receipt",
    }
}

string_enum! {
    /// A job's state, as the API shows it.
    JobStatus {
        Queued = "queued",
        Processing = "processing",
        Completed = "completed",
        Failed = "failed",
    }
}

string_enum! {
    /// An expense's adjudication state.
    ExpenseStatus {
        Pending = "pending",
        Eligible = "eligible",
        Ineligible = "ineligible",
        NeedsReview = "needs_review",
    }
}

string_enum! {
    /// What a hosted session is for.
    HostedFlow {
        ConnectAccount = "connect_account",
        Reconnect = "reconnect",
        UploadReceipt = "upload_receipt",
    }
}

string_enum! {
    /// Where a hosted session is (`expired` is computed from its time).
    HostedSessionStatus {
        Pending = "pending",
        Opened = "opened",
        Completed = "completed",
    }
}

string_enum! {
    /// Where a receipt is in its reading.
    ReceiptStatus {
        Processing = "processing",
        Read = "read",
        Unreadable = "unreadable",
    }
}

string_enum! {
    /// A webhook endpoint's state.
    EndpointStatus {
        Enabled = "enabled",
        Deleted = "deleted",
    }
}

string_enum! {
    /// A webhook delivery's state.
    DeliveryStatus {
        Pending = "pending",
        Delivered = "delivered",
        Failed = "failed",
        /// The endpoint was deleted before the delivery landed.
        Cancelled = "cancelled",
    }
}

string_enum! {
    /// The kinds of event Sail records and delivers.
    EventType {
        /// A pushed batch has been adjudicated.
        TransactionsIngested = "transactions.ingested",
        /// A connection entered the `error` state.
        ConnectionError = "connection.error",
        /// A connection left the `error` state (a reconnect fixed it).
        ConnectionRecovered = "connection.recovered",
        /// An expense was adjudicated again after a receipt.
        ExpenseReadjudicated = "expense.readjudicated",
        /// A Sail-managed connection's sync finished: its accounts or
        /// expenses are ready to read.
        ConnectionSynced = "connection.synced",
        /// A receipt could not be read (not a receipt, no text, or no OCR).
        ReceiptUnreadable = "receipt.unreadable",
        /// A background job gave up for good after its attempts (a push
        /// or a sync; a receipt says `receipt.unreadable` instead).
        JobFailed = "job.failed",
        /// A hosted session produced its outcome (a connection linked or
        /// repaired, a receipt attached).
        HostedSessionCompleted = "hosted_session.completed",
        /// A login on a hosted session's page was refused.
        HostedSessionLoginFailed = "hosted_session.login_failed",
        /// A user was made inactive.
        UserDeactivated = "user.deactivated",
        /// A user was made active again.
        UserReactivated = "user.reactivated",
        /// A user was deleted for good.
        UserDeleted = "user.deleted",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sea_orm::ActiveEnum;

    #[test]
    fn stored_and_wire_forms_are_one() {
        for status in ConnectionStatus::ALL {
            assert_eq!(status.to_value(), status.as_str());
            assert_eq!(ConnectionStatus::try_from_value(&status.as_str().to_string()).unwrap(), *status);
            assert_eq!(ConnectionStatus::parse(status.as_str()), Some(*status));
        }
        assert_eq!(EventType::parse("transactions.ingested"), Some(EventType::TransactionsIngested));
        assert_eq!(JobStatus::parse("nope"), None);
        assert_eq!(ExpenseStatus::NeedsReview.to_string(), "needs_review");
    }

    #[test]
    fn every_event_type_is_in_the_webhooks_guide() {
        let guide = include_str!("../../docs/webhooks.md");
        let missing: Vec<&str> =
            EventType::ALL.iter().map(|t| t.as_str()).filter(|t| !guide.contains(&format!("| `{t}` |"))).collect();
        assert!(missing.is_empty(), "event types missing from docs/webhooks.md's table: {missing:?}");
    }
}

string_enum! {
    /// What an operator did through the `sail` binary (docs/operations.md#operator-audit).
    OperatorActionKind {
        /// A partner account was created.
        PartnerCreated = "partner.created",
        /// A partner's embed origins were changed.
        PartnerUpdated = "partner.updated",
        /// An API key was issued.
        KeyCreated = "key.created",
        /// An API key was revoked.
        KeyRevoked = "key.revoked",
        /// Every sealed value was re-sealed under the current encryption key.
        EncryptionRotated = "encryption.rotated",
    }
}
