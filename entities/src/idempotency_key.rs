//! An idempotency key of a partner and the response it replays.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "idempotency_keys")]
pub struct Model {
    /// Hex SHA-256 of "<partner id>:<key>".
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub partner_id: String,
    /// The gRPC method the key was first used with.
    pub method: String,
    /// Hex SHA-256 of the method and the encoded request.
    pub fingerprint: String,
    /// The encoded success response, hex, sealed (core `crypto`), with any
    /// one-time secret left out; None while the first request runs.
    pub response_hex: Option<String>,
    pub created_at: DateTimeUtc,
    /// The user the kept reply names, when it names one: the reply is then
    /// sealed under that user's data key and deleted with the user.
    pub user_id: Option<String>,
    /// The core whose call holds the key while it runs
    /// ([`crate::core_instance`]): once that core is gone, the key is free
    /// again. None on a kept reply's record written before it was known.
    pub reserved_by: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
