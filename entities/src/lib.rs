//! sea-orm entities: one module per table Sail keeps. Ids are prefixed UUIDv7
//! strings, timestamps UTC, enumerated columns typed (`enums`) and stored as
//! strings (they travel the same on SQLite and PostgreSQL).

pub mod account;
pub mod administrator;
pub mod api_key;
pub mod connection;
pub mod core_instance;
pub mod encryption_key;
pub mod enums;
pub mod event;
pub mod hosted_session;
pub mod idempotency_key;
pub mod identity_record;
pub mod job;
pub mod maintenance_run;
pub mod merchant;
pub mod operator_action;
pub mod partner;
pub mod pending_push;
pub mod pii_read;
pub mod receipt;
pub mod transaction;
pub mod user;
pub mod user_data_key;
pub mod user_token;
pub mod webhook_attempt;
pub mod webhook_delivery;
pub mod webhook_endpoint;
