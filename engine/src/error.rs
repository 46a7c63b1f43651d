//! Why an engine could not be built: the one error type of the crate, for a
//! directory or a table of `data/` that does not fit.

use crate::reference::ReferenceError;

/// Errors building an engine (a directory or table that does not fit).
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("pattern automaton: {0}")]
    Automaton(#[from] aho_corasick::BuildError),
    #[error(transparent)]
    Reference(#[from] ReferenceError),
    /// A row whose outcome is not one of the three.
    #[error("{file}: '{value}' is not an outcome (eligible, ineligible, needs_review)")]
    UnknownOutcome { file: &'static str, value: String },
    /// A knowledge row whose category is not a slug of `categories::CATEGORIES`.
    #[error("data/merchant_knowledge.csv: '{name}' has category '{category}', which is not a category slug")]
    UnknownCategory { name: String, category: String },
    /// A knowledge alias that is not in canonical words.
    #[error(
        "data/merchant_knowledge.csv: '{name}' has alias '{alias}', which is not in canonical words ('{canonical}')"
    )]
    NonCanonicalAlias { name: String, alias: String, canonical: String },
}
