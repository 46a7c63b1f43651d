//! The business of the contract, as transport-free functions over
//! `&impl ConnectionTrait` that own their transactions: partners and keys
//! (`admin`), users, user tokens, connections, accounts, personal data
//! (`pii`) and its audit trail (`audit`), expenses and their adjudication, ingestion of pushed
//! transactions (`ingest`), receipts, hosted sessions, the directories,
//! webhook endpoints, the event log (`events`) and the outbox that writes it
//! (`outbox`), and retention of what would otherwise grow forever. Providers are reached only through the `providers` trait.

pub mod accounts;
pub mod admin;
pub mod audit;
pub mod connections;
pub mod directory;
pub mod events;
pub mod expenses;
pub mod hosted_sessions;
pub mod ingest;
pub mod operator_audit;
pub mod outbox;
pub mod pii;
pub mod providers;
pub mod receipts;
pub mod retention;
pub mod user_tokens;
pub mod users;
pub mod webhooks;
