//! The adjudication engine: decides whether a purchase is an HSA/FSA-eligible
//! expense, and explains why. Pure: no transport or database types; the core
//! feeds it plain purchases and the merchant directory.
//!
//! Two steps. Merchant resolution turns a raw descriptor into a directory
//! merchant or a named provider (`normalize`, `aliases`). Rules then decide,
//! first match wins, each naming itself in [`Adjudication::rule`]:
//!
//! 1. `item_level`: item data (store orders, receipts) decides per line.
//! 2. `fuel`: fuel at a warehouse or big-box store is ineligible.
//! 3. `known_merchant`: merchants whose outcome the reference data fixes.
//! 4. `cannabis`: controlled substances are ineligible.
//! 5. `mcc_ineligible`: merchant categories that are never medical care.
//! 6. `insurer`: insurers and insurer-providers need review.
//! 7. `directory_merchant`: the directory's typical outcome (mixed merchants
//!    such as pharmacies and big-box stores need review without item data).
//! 8. `mcc_medical`: medical merchant categories, downgraded by cosmetic or
//!    wellness words (teeth whitening is not dental care).
//! 9. `mcc_needs_review`: categories that sell both kinds.
//! 10. `mcc_non_medical`: any other known category.
//! 11. `provider_keyword`: a provider's word (DDS, CHIROPRACTIC) with no MCC.
//! 12. `descriptor_keyword`: dining, transport, digital goods.
//! 13. `unknown`: nothing to go on; a person must look.
//!
//! Facts: `data/mcc_medical.csv`, `data/merchants.csv`,
//! `data/descriptors.csv`, `data/eligibility_categories.csv`, read by
//! [`reference`], which fails loudly on a row it cannot read.

pub mod aliases;
pub mod categories;
#[cfg(feature = "evaluation")]
pub mod evaluation;
pub mod items;
pub mod normalize;
pub mod reference;
pub mod signals;

use std::collections::HashMap;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};

use self::aliases::{ALIASES, AliasTarget};
use self::items::ITEM_KEYWORDS;
use self::normalize::{canonical_words, normalize};
use self::signals::{KEYWORDS, Signal};
use crate::reference::ReferenceError;

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

/// The engine's decision on one purchase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adjudication {
    pub outcome: Outcome,
    pub category: &'static str,
    pub reason: Reason,
    pub rule: &'static str,
    pub merchant: Option<ResolvedMerchant>,
    /// The part of the amount substantiated as eligible.
    pub eligible_amount_minor: i64,
    pub items: Option<Vec<ItemOutcome>>,
}

/// A multi-pattern matcher over canonical words that honours word boundaries.
struct Matcher {
    automaton: AhoCorasick,
    whole_word: Vec<bool>,
}

impl Matcher {
    fn new(patterns: &[String], whole_word: Vec<bool>) -> Result<Matcher, aho_corasick::BuildError> {
        let automaton = AhoCorasickBuilder::new().match_kind(MatchKind::Standard).build(patterns)?;
        Ok(Matcher { automaton, whole_word })
    }

    /// Every match starting at a word start (and ending at a word end for
    /// whole-word patterns), as `(pattern index, length)`.
    fn find<'a>(&'a self, text: &'a str) -> impl Iterator<Item = (usize, usize)> + 'a {
        let bytes = text.as_bytes();
        self.automaton.find_overlapping_iter(text).filter_map(move |m| {
            let index = m.pattern().as_usize();
            let starts_word = m.start() == 0 || bytes[m.start() - 1] == b' ';
            let ends_word = m.end() == bytes.len() || bytes[m.end()] == b' ';
            (starts_word && (ends_word || !self.whole_word[index])).then_some((index, m.end() - m.start()))
        })
    }
}

enum Target {
    Directory { index: usize, shown: Option<&'static str> },
    Known(AliasTarget),
}

/// How a merchant category code is treated.
#[derive(Debug, Clone)]
struct MccRule {
    outcome: Outcome,
    description: String,
}

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
}

fn outcome(file: &'static str, value: &str) -> Result<Outcome, EngineError> {
    Outcome::parse(value).ok_or_else(|| EngineError::UnknownOutcome { file, value: value.to_string() })
}

/// The adjudication engine for one merchant directory. Build once, share.
pub struct Engine {
    directory: Vec<DirectoryMerchant>,
    merchants: Matcher,
    targets: Vec<Target>,
    signals: Matcher,
    items: Matcher,
    mccs: HashMap<String, MccRule>,
}

/// Directory names in the canonical words descriptors are matched in: the
/// name, without a parenthetical or a leading "THE", each side of a '/',
/// a domain given in parentheses, and for names of three words or more their
/// first two words (card networks cut names at 20 to 25 characters:
/// "MARK CUBAN COST PLUS D").
fn directory_aliases(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (base, paren) = match name.split_once('(') {
        Some((base, paren)) => (base, Some(paren.trim_end_matches(')'))),
        None => (name, None),
    };
    for part in base.split('/') {
        let words = canonical_words(part);
        if words.len() >= 2 {
            if let Some(stripped) = words.strip_prefix("THE ") {
                out.push(stripped.to_string());
            }
            let first_two: Vec<&str> = words.split(' ').take(2).collect();
            if words.split(' ').count() >= 3 && first_two.concat().len() >= 8 {
                out.push(first_two.join(" "));
            }
            out.push(words);
        }
    }
    if let Some(paren) = paren {
        let words = canonical_words(paren);
        if !words.is_empty() {
            out.push(words.clone());
        }
        if paren.contains('.') {
            if let Some(host) = paren.split('.').next() {
                out.push(canonical_words(host));
            }
        }
    }
    out
}

/// The merchant directory as seeded from `data/merchants.csv`: the ids are
/// deterministic, so they are the ids `GET /merchants` shows. A row that does
/// not load is an error, never a merchant left out.
pub fn seeded_directory() -> Result<Vec<DirectoryMerchant>, EngineError> {
    reference::merchants()?
        .into_iter()
        .map(|m| {
            let typical_outcome = outcome("data/merchants.csv", &m.typical_outcome)?;
            Ok(DirectoryMerchant { id: m.id(), typical_outcome, name: m.name })
        })
        .collect()
}

impl Engine {
    /// The engine over the seeded merchant directory.
    pub fn seeded() -> Result<Engine, EngineError> {
        Engine::new(seeded_directory()?)
    }

    pub fn new(directory: Vec<DirectoryMerchant>) -> Result<Engine, EngineError> {
        let mut patterns = Vec::new();
        let mut targets = Vec::new();
        for (index, merchant) in directory.iter().enumerate() {
            for alias in directory_aliases(&merchant.name) {
                patterns.push(alias);
                targets.push(Target::Directory { index, shown: None });
            }
        }
        for (alias, target) in ALIASES {
            match target {
                AliasTarget::Directory { name, shown } => {
                    if let Some(index) = directory.iter().position(|m| m.name == *name) {
                        patterns.push(alias.to_string());
                        targets.push(Target::Directory { index, shown: *shown });
                    }
                }
                known => {
                    patterns.push(alias.to_string());
                    targets.push(Target::Known(*known));
                }
            }
        }
        let merchants = Matcher::new(&patterns, vec![true; patterns.len()])?;

        let keyword_patterns: Vec<String> = KEYWORDS.iter().map(|(k, _, _)| k.to_string()).collect();
        let signals = Matcher::new(&keyword_patterns, KEYWORDS.iter().map(|(_, _, whole)| *whole).collect())?;
        let item_patterns: Vec<String> = ITEM_KEYWORDS.iter().map(|(k, ..)| k.to_string()).collect();
        let items = Matcher::new(&item_patterns, ITEM_KEYWORDS.iter().map(|(.., whole)| *whole).collect())?;

        let mccs = reference::mccs()?
            .into_iter()
            .map(|row| {
                let outcome = outcome("data/mcc_medical.csv", &row.default_outcome)?;
                Ok((row.mcc, MccRule { outcome, description: row.description }))
            })
            .collect::<Result<_, EngineError>>()?;
        Ok(Engine { directory, merchants, targets, signals, items, mccs })
    }

    /// The directory merchants this engine resolves to.
    pub fn directory(&self) -> &[DirectoryMerchant] {
        &self.directory
    }

    /// The best merchant alias in `text`: the longest match.
    fn resolve(&self, text: &str) -> Option<&Target> {
        self.merchants.find(text).max_by_key(|(_, len)| *len).map(|(index, _)| &self.targets[index])
    }

    /// Classifies one item line by its words (receipt lines, store orders),
    /// with the category it falls in; None when no item word matches.
    pub fn classify_item(&self, description: &str) -> Option<(Outcome, &'static str)> {
        let words = canonical_words(description);
        self.items
            .find(&words)
            .max_by_key(|(index, len)| (ITEM_KEYWORDS[*index].3, *len))
            .map(|(index, _)| (ITEM_KEYWORDS[index].1, ITEM_KEYWORDS[index].2))
    }

    pub fn adjudicate(&self, purchase: &Purchase<'_>) -> Adjudication {
        let normalized = normalize(purchase.description);
        let mcc = purchase.mcc.map(str::to_string).or(normalized.embedded_mcc.clone());
        let mcc_rule = mcc.as_deref().and_then(|m| self.mccs.get(m));

        // The partner's merchant_name is matched first; the descriptor second.
        let from_name = purchase.merchant_name.map(canonical_words).and_then(|name| self.resolve(&name));
        let target = from_name.or_else(|| self.resolve(&normalized.text));
        let merchant = match target {
            Some(Target::Directory { index, shown }) => {
                let m = &self.directory[*index];
                Some(ResolvedMerchant {
                    id: Some(m.id.clone()),
                    name: shown.map(str::to_string).unwrap_or_else(|| m.name.clone()),
                })
            }
            Some(Target::Known(AliasTarget::Known { name, .. })) => {
                Some(ResolvedMerchant { id: None, name: name.to_string() })
            }
            _ => purchase
                .merchant_name
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(|n| ResolvedMerchant { id: None, name: n.to_string() })
                .or_else(|| {
                    (!normalized.text.is_empty())
                        .then(|| ResolvedMerchant { id: None, name: title_case(&normalized.text) })
                }),
        };
        let directory_merchant = match target {
            Some(Target::Directory { index, .. }) => Some(&self.directory[*index]),
            _ => None,
        };

        let mut signals: Vec<Signal> = self.signals.find(&normalized.text).map(|(i, _)| KEYWORDS[i].1).collect();
        signals.dedup();
        let has = |s: Signal| signals.contains(&s);
        let decide =
            |outcome: Outcome, category: &'static str, code: &'static str, message: String, rule: &'static str| {
                Adjudication {
                    outcome,
                    category,
                    reason: Reason { code, message },
                    rule,
                    merchant: merchant.clone(),
                    eligible_amount_minor: if outcome == Outcome::Eligible { purchase.amount_minor } else { 0 },
                    items: None,
                }
            };
        let merchant_label = merchant.as_ref().map(|m| m.name.clone()).unwrap_or_else(|| "this merchant".to_string());
        let mcc_label = |rule: &MccRule| format!("{} (MCC {})", rule.description, mcc.as_deref().unwrap_or(""));

        // 1. Item-level data decides per line.
        if let Some(items) = purchase.items.filter(|items| !items.is_empty()) {
            return self.item_level(purchase, items, merchant.clone(), &merchant_label);
        }
        // 2. Fuel at a store: the fuel token overrides the parent merchant.
        if has(Signal::Fuel) || matches!(mcc.as_deref(), Some("5541" | "5542")) {
            return decide(
                Outcome::Ineligible,
                "fuel",
                "fuel_purchase",
                format!(
                    "Fuel at {merchant_label} is not a medical expense; medical travel is claimed by mileage instead."
                ),
                "fuel",
            );
        }
        // 3. Merchants whose outcome the reference data fixes.
        if let Some(Target::Known(AliasTarget::Known { outcome, category, code, message, .. })) = target {
            return decide(*outcome, category, code, message.to_string(), "known_merchant");
        }
        // 4. Cannabis.
        if has(Signal::Cannabis) {
            return decide(
                Outcome::Ineligible,
                "controlled_substances",
                "controlled_substance",
                "Cannabis and CBD dispensary purchases are not medical expenses (controlled substances).".to_string(),
                "cannabis",
            );
        }
        // 5. Merchant categories that are never medical care.
        if let Some(rule) = mcc_rule.filter(|r| r.outcome == Outcome::Ineligible) {
            return decide(
                Outcome::Ineligible,
                mcc_category(mcc.as_deref()),
                "non_medical_category",
                format!("{} is not a medical merchant category.", mcc_label(rule)),
                "mcc_ineligible",
            );
        }
        // 6. Insurers: premium or care?
        if has(Signal::Insurer) {
            return decide(
                Outcome::NeedsReview,
                "insurance",
                "insurance_premium",
                format!(
                    "{merchant_label} looks like an insurer: premiums are generally not reimbursable, care is. A receipt decides."
                ),
                "insurer",
            );
        }
        // 7. The directory's typical outcome.
        if let Some(m) = directory_merchant {
            let category = merchant_category(&m.name, m.typical_outcome);
            return match m.typical_outcome {
                Outcome::Eligible => decide(
                    Outcome::Eligible,
                    category,
                    "medical_merchant",
                    format!(
                        "{} sells health care: {} purchases there are medical expenses.",
                        merchant_label,
                        category.replace('_', " ")
                    ),
                    "directory_merchant",
                ),
                Outcome::Ineligible => decide(
                    Outcome::Ineligible,
                    category,
                    "non_medical_merchant",
                    format!(
                        "{merchant_label} sells wellness products, supplements or memberships, which are not medical care."
                    ),
                    "directory_merchant",
                ),
                Outcome::NeedsReview => decide(
                    Outcome::NeedsReview,
                    category,
                    "mixed_merchant",
                    format!(
                        "{merchant_label} sells both eligible and ineligible goods; item-level data (a store connection or an itemized receipt) is needed."
                    ),
                    "directory_merchant",
                ),
            };
        }
        // 8. Medical merchant categories, with cosmetic and wellness downgrades.
        if let Some(rule) = mcc_rule.filter(|r| r.outcome == Outcome::Eligible) {
            if has(Signal::Cosmetic) {
                let dental = mcc.as_deref() == Some("8021");
                return decide(
                    if dental { Outcome::Ineligible } else { Outcome::NeedsReview },
                    if dental { "cosmetic_dental" } else { "cosmetic" },
                    "cosmetic_service",
                    format!(
                        "Cosmetic services are not medical care (IRS Publication 502), even at a {} provider.",
                        rule.description
                    ),
                    "mcc_medical",
                );
            }
            if has(Signal::Wellness) {
                return decide(
                    Outcome::NeedsReview,
                    "medical_services",
                    "wellness_service",
                    "General wellness services are not medical care without a diagnosis; a letter of medical necessity decides.".to_string(),
                    "mcc_medical",
                );
            }
            return decide(
                Outcome::Eligible,
                mcc_category(mcc.as_deref()),
                "medical_category",
                format!(
                    "{} is a health-care merchant category: medical care under IRS Publication 502.",
                    mcc_label(rule)
                ),
                "mcc_medical",
            );
        }
        // 9. Categories that sell both kinds.
        if let Some(rule) = mcc_rule.filter(|r| r.outcome == Outcome::NeedsReview) {
            return decide(
                Outcome::NeedsReview,
                mcc_category(mcc.as_deref()),
                "mixed_category",
                format!("{} sells both eligible and ineligible goods or services; a receipt decides.", mcc_label(rule)),
                "mcc_needs_review",
            );
        }
        // 10. Any other known category is not health care.
        if let Some(code) = mcc.as_deref() {
            return decide(
                Outcome::Ineligible,
                "general",
                "non_medical_category",
                format!("MCC {code} is not a health-care merchant category."),
                "mcc_non_medical",
            );
        }
        // 11. A provider's word with no category code.
        if let Some(Signal::Provider(category)) = signals.iter().find(|s| matches!(s, Signal::Provider(_))) {
            if has(Signal::Cosmetic) || has(Signal::Wellness) {
                return decide(
                    Outcome::NeedsReview,
                    "cosmetic",
                    "cosmetic_service",
                    "A provider offering cosmetic or wellness services: a receipt decides.".to_string(),
                    "provider_keyword",
                );
            }
            return decide(
                Outcome::Eligible,
                category,
                "medical_provider",
                format!("{merchant_label} is a health-care provider ({}).", category.replace('_', " ")),
                "provider_keyword",
            );
        }
        if has(Signal::Pharmacy) {
            return decide(
                Outcome::NeedsReview,
                "mixed_merchandise",
                "mixed_merchant",
                format!(
                    "{merchant_label} is a pharmacy selling both eligible and ineligible goods; item-level data is needed."
                ),
                "provider_keyword",
            );
        }
        // 12. Dining, transport, digital goods.
        for (signal, category) in
            [(Signal::Dining, "dining"), (Signal::Transport, "travel"), (Signal::DigitalGoods, "digital_goods")]
        {
            if has(signal) {
                return decide(
                    Outcome::Ineligible,
                    category,
                    "non_medical_merchant",
                    format!("{merchant_label} is not a health-care merchant ({}).", category.replace('_', " ")),
                    "descriptor_keyword",
                );
            }
        }
        // 13. Nothing to go on.
        decide(
            Outcome::NeedsReview,
            "general",
            "unknown_merchant",
            "The merchant could not be identified and no category code was given; a receipt decides.".to_string(),
            "unknown",
        )
    }

    fn item_level(
        &self,
        purchase: &Purchase<'_>,
        items: &[Item],
        merchant: Option<ResolvedMerchant>,
        merchant_label: &str,
    ) -> Adjudication {
        let outcomes: Vec<ItemOutcome> = items
            .iter()
            .map(|item| {
                let classified = self.classify_item(&item.description);
                let (outcome, category) = match (item.flagged_eligible, classified) {
                    (Some(true), Some((Outcome::Eligible, category))) => (Outcome::Eligible, category),
                    (Some(true), _) => (Outcome::Eligible, "otc_medicine"),
                    (Some(false), Some((Outcome::Ineligible, category))) => (Outcome::Ineligible, category),
                    (Some(false), _) => (Outcome::Ineligible, "general"),
                    (None, Some(found)) => found,
                    (None, None) => (Outcome::NeedsReview, "general"),
                };
                ItemOutcome {
                    description: item.description.clone(),
                    amount_minor: item.amount_minor,
                    outcome,
                    category,
                }
            })
            .collect();
        let eligible: i64 = outcomes.iter().filter(|i| i.outcome == Outcome::Eligible).map(|i| i.amount_minor).sum();
        let count = |o: Outcome| outcomes.iter().filter(|i| i.outcome == o).count();
        let (eligible_n, ineligible_n, unknown_n) =
            (count(Outcome::Eligible), count(Outcome::Ineligible), count(Outcome::NeedsReview));
        // The category of the largest eligible (else largest) line.
        let main_category = outcomes
            .iter()
            .filter(|i| eligible_n == 0 || i.outcome == Outcome::Eligible)
            .max_by_key(|i| i.amount_minor)
            .map(|i| i.category)
            .unwrap_or("general");
        let money = |minor: i64| format!("${}.{:02}", minor / 100, minor % 100);
        let (outcome, code, message) = if unknown_n > 0 {
            (
                Outcome::NeedsReview,
                "unclassified_items",
                format!(
                    "{unknown_n} of {} items at {merchant_label} could not be classified; a person must look.",
                    outcomes.len()
                ),
            )
        } else if ineligible_n == 0 {
            (
                Outcome::Eligible,
                "item_level_eligible",
                format!("Every item of this {merchant_label} purchase is an eligible health item."),
            )
        } else if eligible_n == 0 {
            (
                Outcome::Ineligible,
                "item_level_ineligible",
                format!("No item of this {merchant_label} purchase is an eligible health item."),
            )
        } else {
            (
                Outcome::Eligible,
                "partially_eligible",
                format!(
                    "{eligible_n} of {} items ({}) of this {merchant_label} purchase are eligible; the rest are not.",
                    outcomes.len(),
                    money(eligible)
                ),
            )
        };
        let _ = purchase;
        Adjudication {
            outcome,
            category: main_category,
            reason: Reason { code, message },
            rule: "item_level",
            merchant,
            eligible_amount_minor: eligible,
            items: Some(outcomes),
        }
    }
}

/// The category of a health or non-health merchant category code.
fn mcc_category(mcc: Option<&str>) -> &'static str {
    match mcc.unwrap_or("") {
        "8021" => "dental",
        "8042" | "8043" => "vision",
        "5975" => "hearing",
        "8071" => "labs",
        "8062" | "4119" => "hospital",
        "8031" | "8041" | "8049" => "alternative_care",
        "5047" | "5976" => "medical_supplies",
        "8050" => "long_term_care",
        "8011" | "8099" => "medical_services",
        "7277" => "counseling",
        "6300" => "insurance",
        "5541" | "5542" => "fuel",
        "5812" | "5814" | "5499" | "5921" => "dining",
        "4111" | "4121" | "4511" | "7011" => "travel",
        "7230" | "7297" | "7298" | "5977" => "personal_care",
        "7997" => "fitness",
        "0742" => "veterinary",
        "8351" => "childcare",
        "5993" => "general",
        "8299" | "8999" => "general",
        _ => "mixed_merchandise",
    }
}

/// The category of a directory merchant, by what it sells.
fn merchant_category(name: &str, typical: Outcome) -> &'static str {
    let n = name.to_ascii_lowercase();
    let any = |words: &[&str]| words.iter().any(|w| n.contains(w));
    if any(&["contacts", "warby", "lenscrafters", "pearle", "visionworks", "zenni", "eyeglasses"]) {
        "vision"
    } else if any(&["quest", "labcorp", "everlywell"]) {
        "labs"
    } else if any(&["dental"]) {
        "dental"
    } else if any(&["miracle-ear"]) {
        "hearing"
    } else if any(&["betterhelp", "talkspace"]) {
        "mental_health"
    } else if any(&["pharmacy", "cost plus", "capsule"]) && typical == Outcome::Eligible {
        "prescriptions"
    } else if any(&["fsa store", "hsa store"]) {
        "medical_supplies"
    } else if any(&["fitness"]) {
        "fitness"
    } else if any(&["vitamin", "gnc", "ag1"]) {
        "supplements"
    } else if typical == Outcome::Eligible {
        "medical_services"
    } else {
        "mixed_merchandise"
    }
}

fn title_case(upper: &str) -> String {
    upper
        .split(' ')
        .map(|word| {
            let mut chars = word.chars();
            match chars.next() {
                Some(first) => first.to_string() + &chars.as_str().to_ascii_lowercase(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests;
