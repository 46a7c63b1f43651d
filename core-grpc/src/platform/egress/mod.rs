//! Where Sail's own outbound requests (webhook deliveries) may go: the
//! classification of addresses against the IANA special-purpose registries,
//! and the HTTP client's resolver that dials only addresses that pass. A low
//! module: `state` builds the client with it, `webhooks` checks URLs with it.

pub mod address;
pub mod resolver;
