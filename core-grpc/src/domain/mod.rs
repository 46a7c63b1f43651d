//! Parsed value types. Input is turned into these once, at the edge of a
//! business function; past that point a value that exists is a valid value.

pub mod contact;
pub mod ids;
pub mod money;
pub mod page;
pub mod scope;
pub mod time;

pub use contact::{CountryCode, Email, Phone};
pub use ids::{IdKind, new_id, parse_id};
pub use page::Page;
pub use scope::{Scope, ScopeSet};
