//! What the engine decides, and what it decides from: the purchase, the
//! outcome with its reason and evidence. The bottom layer of the crate:
//! every other module may use these types, and they use nothing of it.

/// The three outcomes of adjudication.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    Eligible,
    Ineligible,
    NeedsReview,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Eligible => "eligible",
            Outcome::Ineligible => "ineligible",
            Outcome::NeedsReview => "needs_review",
        }
    }

    pub fn parse(raw: &str) -> Option<Outcome> {
        match raw {
            "eligible" => Some(Outcome::Eligible),
            "ineligible" => Some(Outcome::Ineligible),
            "needs_review" => Some(Outcome::NeedsReview),
            _ => None,
        }
    }
}

/// A merchant of the directory, as the engine needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirectoryMerchant {
    pub id: String,
    pub name: String,
    /// The directory's usual outcome for a purchase there.
    pub typical_outcome: Outcome,
}

/// One line of item-level purchase data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub description: String,
    pub amount_minor: i64,
    /// The store's own FSA/HSA flag on the line, where it gives one.
    pub flagged_eligible: Option<bool>,
}

/// A purchase to adjudicate.
#[derive(Debug, Clone, Copy)]
pub struct Purchase<'a> {
    pub description: &'a str,
    pub merchant_name: Option<&'a str>,
    pub mcc: Option<&'a str>,
    pub amount_minor: i64,
    pub items: Option<&'a [Item]>,
}

/// Why an outcome was reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reason {
    pub code: &'static str,
    pub message: String,
}

/// The merchant a purchase was resolved to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedMerchant {
    /// The directory merchant's id, when the merchant is in the directory.
    pub id: Option<String>,
    pub name: String,
}

/// The outcome of one item line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemOutcome {
    pub description: String,
    pub amount_minor: i64,
    pub outcome: Outcome,
    pub category: &'static str,
}

/// What kind of fact a piece of [`Evidence`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvidenceKind {
    /// A merchant of the directory or of the merchant knowledge.
    Merchant,
    /// A word or phrase of the descriptor.
    Keyword,
    /// The merchant category code.
    CategoryCode,
    /// Item-level data (a store order, a receipt).
    Items,
}

impl EvidenceKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EvidenceKind::Merchant => "merchant",
            EvidenceKind::Keyword => "keyword",
            EvidenceKind::CategoryCode => "category_code",
            EvidenceKind::Items => "items",
        }
    }
}

/// One fact behind a decision, so a reviewer and a partner see why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evidence {
    pub kind: EvidenceKind,
    /// What was found: the words as they appear, the merchant's name, the code.
    pub value: String,
    /// What it points to: a category slug (`dental`, `dining`, `veterinary`…).
    pub indicates: &'static str,
}

/// The engine's decision on one purchase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adjudication {
    pub outcome: Outcome,
    pub category: &'static str,
    pub reason: Reason,
    pub rule: &'static str,
    /// The facts that decided it, strongest first.
    pub evidence: Vec<Evidence>,
    pub merchant: Option<ResolvedMerchant>,
    /// The part of the amount substantiated as eligible.
    pub eligible_amount_minor: i64,
    pub items: Option<Vec<ItemOutcome>>,
}
