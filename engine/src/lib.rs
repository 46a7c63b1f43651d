//! The adjudication engine: decides whether a purchase is an HSA/FSA-eligible
//! expense, and explains why. Pure: no transport or database types; the core
//! feeds it plain purchases and the merchant directory.
//!
//! Two steps. Merchant resolution turns a raw descriptor into a directory
//! merchant, a known merchant (`data/merchant_knowledge.csv`, `aliases`) or
//! nothing (`normalize`). The descriptor's words are read as evidence
//! (`signals`): medical care (a specialty, or a generic word), and evidence
//! of non-medical use. Rules then decide, first match wins, each naming
//! itself in [`Adjudication::rule`] and listing its [`Evidence`]:
//!
//! 1. `item_level`: item data (store orders, receipts) decides per line.
//! 2. `cannabis`: controlled substances are ineligible.
//! 3. `fuel`: fuel, by word or category code, is ineligible.
//! 4. `pet_care`: pets are never the account holder's medical care.
//! 5. `known_merchant` / `directory_merchant`: the merchant's usual outcome;
//!    a medical merchant with evidence of non-medical use, or a non-medical
//!    one with a medical specialty, is a conflict.
//! 6. `insurer`: insurers and insurer-providers need review.
//! 7. `non_medical_words`: food, lodging, cosmetics, fitness, services. A
//!    generic medical word (CLINIC, HOSPITAL) yields to them; a specialty,
//!    or any medical word beside parking or lodging, makes a conflict.
//! 8. `mcc_ineligible`: categories that are never medical care.
//! 9. `mcc_medical`: medical categories. Codes that also cover non-medical
//!    services (8099, 8050, 8043, 5047) need a medical word as well.
//! 10. `mcc_needs_review`: categories that sell both kinds.
//! 11. `mcc_non_medical`: any other category code.
//! 12. `provider_keyword`: a medical word with no category code.
//! 13. `unknown`: nothing to go on; a person must look.
//!
//! Policy: `eligible` only on positive evidence (a medical merchant, a whole
//! medical word, a medical category code that covers nothing else) with no
//! evidence against it; where the evidence disagrees, `needs_review` with the
//! reason code `conflicting_evidence` naming both sides.
//!
//! Facts: `data/mcc_medical.csv`, `data/merchants.csv`,
//! `data/merchant_knowledge.csv`, `data/descriptors.csv`,
//! `data/eligibility_categories.csv`, read by [`reference`], which fails
//! loudly on a row it cannot read.

pub mod aliases;
pub mod categories;
#[cfg(feature = "evaluation")]
pub mod evaluation;
pub mod lexicon;
pub mod normalize;
pub mod receipts;
pub mod reference;
pub mod signals;

use std::collections::HashMap;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};

use self::aliases::{ALIASES, AliasTarget};
use self::lexicon::ItemLexicon;
use self::normalize::{canonical_words, normalize};
use self::signals::{NonMedical, Signal};
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

/// A multi-pattern matcher over canonical words that honours word
/// boundaries: every match starts a word; a whole-word pattern also ends one,
/// a stem may run on ("BANDAGE" in "BANDAGES").
struct Matcher {
    automaton: AhoCorasick,
    whole_word: Vec<bool>,
}

impl Matcher {
    /// Every pattern whole-word.
    fn new(patterns: &[String]) -> Result<Matcher, aho_corasick::BuildError> {
        Matcher::with_stems(patterns, vec![true; patterns.len()])
    }

    fn with_stems(patterns: &[String], whole_word: Vec<bool>) -> Result<Matcher, aho_corasick::BuildError> {
        // A DFA: a few hundred KiB once, against the fastest search per
        // descriptor (measured: docs/adjudication.md).
        let automaton = AhoCorasickBuilder::new()
            .match_kind(MatchKind::Standard)
            .kind(Some(AhoCorasickKind::DFA))
            .build(patterns)?;
        Ok(Matcher { automaton, whole_word })
    }

    /// Every match, as `(pattern index, start, end)`.
    fn find<'a>(&'a self, text: &'a str) -> impl Iterator<Item = (usize, usize, usize)> + 'a {
        let bytes = text.as_bytes();
        self.automaton.find_overlapping_iter(text).filter_map(move |m| {
            let index = m.pattern().as_usize();
            let starts_word = m.start() == 0 || bytes[m.start() - 1] == b' ';
            let ends_word = m.end() == bytes.len() || bytes[m.end()] == b' ';
            (starts_word && (ends_word || !self.whole_word[index])).then_some((index, m.start(), m.end()))
        })
    }
}

/// The descriptor keywords (`signals::keywords`), found as whole words or
/// phrases; a single keyword of eight letters or more also by its
/// truncation (six letters at least), because card networks cut names short.
struct Vocabulary {
    keywords: &'static [(String, Signal)],
    phrases: Matcher,
    /// Index into KEYWORDS of each phrase pattern.
    phrase_keywords: Vec<usize>,
    /// Word (or truncation) → index into KEYWORDS.
    words: HashMap<String, usize>,
}

/// The shortest truncation of a long keyword that still counts.
const MIN_TRUNCATION: usize = 6;
/// Keywords shorter than this are matched only whole.
const MIN_TRUNCATABLE: usize = 8;
/// Truncations that are words of their own (CARDIO class, GASTRO pub, PSYCHO
/// Bunny): never read as the medical word they begin.
const NOT_TRUNCATIONS: &[&str] = &["CARDIO", "GASTRO", "PERIOD", "PSYCHO", "ADDICT", "UNITED"];

impl Vocabulary {
    fn new() -> Result<Vocabulary, EngineError> {
        let keywords = signals::keywords()?;
        let mut words = HashMap::new();
        let mut phrases = Vec::new();
        let mut phrase_keywords = Vec::new();
        for (index, (keyword, _)) in keywords.iter().enumerate() {
            if keyword.contains(' ') {
                phrases.push(keyword.to_string());
                phrase_keywords.push(index);
            } else {
                words.entry(keyword.to_string()).or_insert(index);
            }
        }
        // Truncations never shadow a whole keyword, and only words of care
        // or of non-medical use are cut: brand names (insurers, dispensaries)
        // are matched whole.
        for (index, (keyword, signal)) in keywords.iter().enumerate() {
            let truncatable = matches!(signal, Signal::Medical { .. } | Signal::NonMedical(_));
            if truncatable && !keyword.contains(' ') && keyword.len() >= MIN_TRUNCATABLE {
                for end in MIN_TRUNCATION..keyword.len() {
                    let prefix = &keyword[..end];
                    if !NOT_TRUNCATIONS.contains(&prefix) {
                        words.entry(prefix.to_string()).or_insert(index);
                    }
                }
            }
        }
        Ok(Vocabulary { keywords, phrases: Matcher::new(&phrases)?, phrase_keywords, words })
    }

    /// Every signal in `text` (canonical words), with the words as found.
    fn find<'a>(&self, text: &'a str) -> Vec<(Signal, &'a str)> {
        let mut found: Vec<(Signal, &'a str)> = self
            .phrases
            .find(text)
            .map(|(i, start, end)| (self.keywords[self.phrase_keywords[i]].1, &text[start..end]))
            .collect();
        found.extend(text.split(' ').filter_map(|word| self.words.get(word).map(|&i| (self.keywords[i].1, word))));
        found
    }
}

enum Target {
    Directory { index: usize, shown: Option<&'static str> },
    Known(usize),
}

/// A merchant outside the directory whose usual outcome is known.
#[derive(Debug, Clone)]
struct KnownMerchant {
    name: String,
    outcome: Outcome,
    category: &'static str,
    code: &'static str,
    message: String,
}

/// How a merchant category code is treated.
#[derive(Debug, Clone)]
struct MccRule {
    outcome: Outcome,
    description: String,
}

/// Medical category codes that also cover non-medical services: catch-all
/// practitioners (med spas, wellness), personal-care facilities, optical
/// goods (fashion sunglasses), B2B equipment. Alone they prove nothing.
const BROAD_MEDICAL_MCCS: &[&str] = &["8099", "8050", "8043", "5047"];

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

fn outcome(file: &'static str, value: &str) -> Result<Outcome, EngineError> {
    Outcome::parse(value).ok_or_else(|| EngineError::UnknownOutcome { file, value: value.to_string() })
}

/// The adjudication engine for one merchant directory. Build once, share.
pub struct Engine {
    directory: Vec<DirectoryMerchant>,
    merchants: Matcher,
    targets: Vec<Target>,
    known: Vec<KnownMerchant>,
    vocabulary: Vocabulary,
    /// What receipt and order lines name (`lexicon`).
    items: &'static ItemLexicon,
    mccs: HashMap<String, MccRule>,
}

/// A multi-word name written as one word, as web domains and some card
/// networks print it (WARBYPARKER.COM): only when that word is long enough
/// to be distinctive.
fn glued(words: &str) -> Option<String> {
    let joined: String = words.split(' ').collect();
    (words.contains(' ') && joined.len() >= 8).then_some(joined)
}

/// Directory names in the canonical words descriptors are matched in: the
/// name, without a parenthetical or a leading "THE", each side of a '/',
/// a domain given in parentheses, the name glued into one word, and for
/// names of three words or more their first two words (card networks cut
/// names at 20 to 25 characters: "MARK CUBAN COST PLUS D").
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
            out.extend(glued(&words));
            out.push(words);
        }
    }
    if let Some(paren) = paren {
        let words = canonical_words(paren);
        if !words.is_empty() {
            out.push(words.clone());
        }
        if paren.contains('.')
            && let Some(host) = paren.split('.').next()
        {
            out.push(canonical_words(host));
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

/// The merchants of `data/merchant_knowledge.csv` with their aliases, each
/// checked: an outcome, a category slug, aliases in canonical words.
fn knowledge() -> Result<Vec<(KnownMerchant, Vec<String>)>, EngineError> {
    reference::knowledge()?
        .into_iter()
        .map(|row| {
            let outcome = outcome("data/merchant_knowledge.csv", &row.outcome)?;
            let category = categories::CATEGORIES
                .iter()
                .map(|(slug, _)| *slug)
                .find(|slug| *slug == row.category)
                .ok_or_else(|| EngineError::UnknownCategory { name: row.name.clone(), category: row.category.clone() })?;
            let aliases: Vec<String> = row.aliases.split('|').map(str::to_string).collect();
            for alias in &aliases {
                let canonical = canonical_words(alias);
                if canonical != *alias {
                    return Err(EngineError::NonCanonicalAlias { name: row.name.clone(), alias: alias.clone(), canonical });
                }
            }
            let name = row.name;
            let (code, message) = match outcome {
                Outcome::Eligible => ("medical_merchant", format!("{name} provides {}.", describe_category(category))),
                Outcome::Ineligible => (
                    "non_medical_merchant",
                    format!("{name} is not a health-care merchant ({}).", describe_category(category)),
                ),
                Outcome::NeedsReview if category == "insurance" => (
                    "insurance_premium",
                    format!("{name} is an insurer: premiums are generally not reimbursable, care is. A receipt decides."),
                ),
                Outcome::NeedsReview => (
                    "mixed_merchant",
                    format!("{name} sells both eligible and ineligible goods or services; item-level data or a receipt decides."),
                ),
            };
            Ok((KnownMerchant { name, outcome, category, code, message }, aliases))
        })
        .collect()
}

/// A category slug as words for a reason.
fn describe_category(category: &str) -> String {
    category.replace('_', " ")
}

/// Every alias and keyword the engine matches descriptors with, in canonical
/// words: what a held-out evaluation must never share with its purchases.
pub fn known_aliases() -> Result<Vec<String>, EngineError> {
    let mut out: Vec<String> = ALIASES.iter().map(|(alias, _)| alias.to_string()).collect();
    out.extend(signals::keywords()?.iter().map(|(keyword, _)| keyword.clone()));
    out.extend(ItemLexicon::shared()?.terms().iter().filter(|t| t.curated).map(|t| t.term.clone()));
    for (_, aliases) in knowledge()? {
        out.extend(aliases);
    }
    Ok(out)
}

impl Engine {
    /// The engine over the seeded merchant directory.
    pub fn seeded() -> Result<Engine, EngineError> {
        Engine::new(seeded_directory()?)
    }

    pub fn new(directory: Vec<DirectoryMerchant>) -> Result<Engine, EngineError> {
        let mut patterns = Vec::new();
        let mut targets = Vec::new();
        let mut known = Vec::new();
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
                AliasTarget::Known { name, outcome, category, code, message } => {
                    patterns.push(alias.to_string());
                    targets.push(Target::Known(known.len()));
                    known.push(KnownMerchant {
                        name: name.to_string(),
                        outcome: *outcome,
                        category,
                        code,
                        message: message.to_string(),
                    });
                }
            }
        }
        for (merchant, aliases) in knowledge()? {
            for alias in aliases {
                if let Some(joined) = glued(&alias) {
                    patterns.push(joined);
                    targets.push(Target::Known(known.len()));
                }
                patterns.push(alias);
                targets.push(Target::Known(known.len()));
            }
            known.push(merchant);
        }
        let merchants = Matcher::new(&patterns)?;

        let mccs = reference::mccs()?
            .into_iter()
            .map(|row| {
                let outcome = outcome("data/mcc_medical.csv", &row.default_outcome)?;
                Ok((row.mcc, MccRule { outcome, description: row.description }))
            })
            .collect::<Result<_, EngineError>>()?;
        Ok(Engine {
            directory,
            merchants,
            targets,
            known,
            vocabulary: Vocabulary::new()?,
            items: ItemLexicon::shared()?,
            mccs,
        })
    }

    /// The directory merchants this engine resolves to.
    pub fn directory(&self) -> &[DirectoryMerchant] {
        &self.directory
    }

    /// The best merchant alias in `text`: the longest match.
    fn resolve(&self, text: &str) -> Option<&Target> {
        self.merchants.find(text).max_by_key(|(_, start, end)| end - start).map(|(index, ..)| &self.targets[index])
    }

    /// Classifies one item line by its words (receipt lines, store orders),
    /// with the category it falls in; None when no item word matches.
    pub fn classify_item(&self, description: &str) -> Option<(Outcome, &'static str)> {
        let items: &'static ItemLexicon = self.items;
        items.classify(description).map(|term| (term.outcome, term.category.as_str()))
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
            Some(Target::Known(index)) => Some(ResolvedMerchant { id: None, name: self.known[*index].name.clone() }),
            None => purchase
                .merchant_name
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(|n| ResolvedMerchant { id: None, name: n.to_string() })
                .or_else(|| {
                    (!normalized.text.is_empty())
                        .then(|| ResolvedMerchant { id: None, name: title_case(&normalized.text) })
                }),
        };
        let merchant_label = merchant.as_ref().map(|m| m.name.clone()).unwrap_or_else(|| "this merchant".to_string());

        // 1. Item-level data decides per line.
        if let Some(items) = purchase.items.filter(|items| !items.is_empty()) {
            return self.item_level(items, merchant, &merchant_label);
        }

        // The descriptor's words, and the partner's clean name where given.
        let name_words = purchase.merchant_name.map(canonical_words);
        let mut found = self.vocabulary.find(&normalized.text);
        if let Some(words) = name_words.as_deref() {
            found.extend(self.vocabulary.find(words));
        }
        self.decide(purchase, &normalized.text, mcc.as_deref(), mcc_rule, target, merchant, &merchant_label, found)
    }

    #[allow(clippy::too_many_arguments)]
    fn decide(
        &self,
        purchase: &Purchase<'_>,
        text: &str,
        mcc: Option<&str>,
        mcc_rule: Option<&MccRule>,
        target: Option<&Target>,
        merchant: Option<ResolvedMerchant>,
        merchant_label: &str,
        mut found: Vec<(Signal, &str)>,
    ) -> Adjudication {
        // MD alone is also Maryland: it counts beside DR only.
        let has_dr = text.split(' ').any(|w| w == "DR");
        found.retain(|(_, word)| *word != "MD" || has_dr);
        found.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);

        let medical: Vec<(&'static str, bool, &str)> = found
            .iter()
            .filter_map(|(s, w)| match s {
                Signal::Medical { category, specialty } => Some((*category, *specialty, *w)),
                _ => None,
            })
            .collect();
        let specialty_word = medical.iter().find(|(_, specialty, _)| *specialty).copied();
        let medical_word = specialty_word.or_else(|| medical.first().copied());
        // Non-medical evidence, the most decisive kind first.
        const PRECEDENCE: [NonMedical; 12] = [
            NonMedical::Pet,
            NonMedical::Cosmetic,
            NonMedical::MedicalTravel,
            NonMedical::Wellness,
            NonMedical::Childcare,
            NonMedical::AlcoholTobacco,
            NonMedical::Dining,
            NonMedical::PersonalCare,
            NonMedical::Fitness,
            NonMedical::Travel,
            NonMedical::DigitalGoods,
            NonMedical::Services,
        ];
        let non_medical: Option<(NonMedical, &str)> = PRECEDENCE
            .iter()
            .find_map(|kind| found.iter().find_map(|(s, w)| (*s == Signal::NonMedical(*kind)).then_some((*kind, *w))));
        let word_evidence = |word: &str, indicates: &'static str| Evidence {
            kind: EvidenceKind::Keyword,
            value: word.to_string(),
            indicates,
        };
        let mcc_evidence = |indicates: &'static str| {
            mcc.map(|code| Evidence { kind: EvidenceKind::CategoryCode, value: code.to_string(), indicates })
        };
        let medical_evidence =
            |word: Option<(&'static str, bool, &str)>| word.map(|(category, _, w)| word_evidence(w, category));
        let non_medical_evidence = non_medical.map(|(kind, w)| word_evidence(w, kind.category()));
        let mcc_label = |rule: &MccRule| format!("{} (MCC {})", rule.description, mcc.unwrap_or(""));
        let decide = |outcome: Outcome,
                      category: &'static str,
                      code: &'static str,
                      message: String,
                      rule: &'static str,
                      evidence: Vec<Option<Evidence>>| Adjudication {
            outcome,
            category,
            reason: Reason { code, message },
            rule,
            evidence: evidence.into_iter().flatten().collect(),
            merchant: merchant.clone(),
            eligible_amount_minor: if outcome == Outcome::Eligible { purchase.amount_minor } else { 0 },
            items: None,
        };
        let conflict = |medical: String, against: String, rule: &'static str, evidence: Vec<Option<Evidence>>| {
            decide(
                Outcome::NeedsReview,
                "general",
                "conflicting_evidence",
                format!("{medical} suggests medical care, but {against}; a receipt decides."),
                rule,
                evidence,
            )
        };
        let quoted = |word: &str| format!("'{word}'");

        // 2. Cannabis.
        if let Some((_, w)) = found.iter().find(|(s, _)| *s == Signal::Cannabis) {
            return decide(
                Outcome::Ineligible,
                "controlled_substances",
                "controlled_substance",
                "Cannabis and CBD purchases are not medical expenses (controlled substances).".to_string(),
                "cannabis",
                vec![Some(word_evidence(w, "controlled_substances"))],
            );
        }
        // 3. Fuel, by word or code.
        let fuel_word = found.iter().find(|(s, _)| *s == Signal::Fuel).map(|(_, w)| *w);
        if fuel_word.is_some() || matches!(mcc, Some("5541" | "5542")) {
            return decide(
                Outcome::Ineligible,
                "fuel",
                "fuel_purchase",
                format!(
                    "Fuel at {merchant_label} is not a medical expense; medical travel is claimed by mileage instead."
                ),
                "fuel",
                vec![fuel_word.map(|w| word_evidence(w, "fuel")), mcc_evidence("fuel")],
            );
        }
        // 4. Pets.
        if let Some((NonMedical::Pet, w)) = non_medical {
            return decide(
                Outcome::Ineligible,
                "veterinary",
                "pet_care",
                format!(
                    "'{w}': care and supplies for pets are not the account holder's medical care (IRS Publication 502)."
                ),
                "pet_care",
                vec![Some(word_evidence(w, "veterinary")), medical_evidence(medical_word)],
            );
        }
        // 5. A known or directory merchant.
        let known_outcome = match target {
            Some(Target::Known(index)) => {
                let k = &self.known[*index];
                Some((k.outcome, k.category, k.code, k.message.clone(), "known_merchant"))
            }
            Some(Target::Directory { index, .. }) => {
                let m = &self.directory[*index];
                let category = merchant_category(&m.name, m.typical_outcome);
                let (code, message) = match m.typical_outcome {
                    Outcome::Eligible => (
                        "medical_merchant",
                        format!(
                            "{merchant_label} sells health care: {} purchases there are medical expenses.",
                            describe_category(category)
                        ),
                    ),
                    Outcome::Ineligible => (
                        "non_medical_merchant",
                        format!(
                            "{merchant_label} sells wellness products, supplements or memberships, which are not medical care."
                        ),
                    ),
                    Outcome::NeedsReview => (
                        "mixed_merchant",
                        format!(
                            "{merchant_label} sells both eligible and ineligible goods; item-level data (a store connection or an itemized receipt) is needed."
                        ),
                    ),
                };
                Some((m.typical_outcome, category, code, message, "directory_merchant"))
            }
            None => None,
        };
        if let Some((outcome, category, code, message, rule)) = known_outcome {
            let merchant_evidence =
                Some(Evidence { kind: EvidenceKind::Merchant, value: merchant_label.to_string(), indicates: category });
            match outcome {
                Outcome::Ineligible => {
                    let travel = matches!(non_medical, Some((NonMedical::MedicalTravel, _))) || category == "travel";
                    let contrary = specialty_word.or(if travel { medical_word } else { None });
                    if let Some((_, _, w)) = contrary {
                        return conflict(
                            quoted(w),
                            format!("{merchant_label} is not a health-care merchant"),
                            rule,
                            vec![medical_evidence(contrary), merchant_evidence],
                        );
                    }
                }
                Outcome::Eligible => {
                    if let Some((kind, w)) = non_medical {
                        return conflict(
                            merchant_label.to_string(),
                            format!("'{w}' points to {}", kind.describe()),
                            rule,
                            vec![merchant_evidence, non_medical_evidence],
                        );
                    }
                    if let Some(rule_of_mcc) = mcc_rule.filter(|r| r.outcome == Outcome::Ineligible) {
                        return conflict(
                            merchant_label.to_string(),
                            format!("its category code is {}", mcc_label(rule_of_mcc)),
                            rule,
                            vec![merchant_evidence, mcc_evidence(mcc_category(mcc))],
                        );
                    }
                }
                Outcome::NeedsReview => {}
            }
            return decide(outcome, category, code, message, rule, vec![merchant_evidence]);
        }
        // 6. Insurers: premium or care?
        if let Some((_, w)) = found.iter().find(|(s, _)| *s == Signal::Insurer) {
            return decide(
                Outcome::NeedsReview,
                "insurance",
                "insurance_premium",
                format!(
                    "{merchant_label} looks like an insurer: premiums are generally not reimbursable, care is. A receipt decides."
                ),
                "insurer",
                vec![Some(word_evidence(w, "insurance"))],
            );
        }
        let medical_code = mcc_rule.filter(|r| r.outcome == Outcome::Eligible);
        // 7. Evidence of non-medical use.
        if let Some((kind, w)) = non_medical {
            let contrary = match kind {
                // Parking and lodging for care are medical travel.
                NonMedical::MedicalTravel => medical_word,
                // Wellness with any medical sign may be treatment.
                NonMedical::Wellness => medical_word.or_else(|| medical_code.map(|_| ("medical_services", false, ""))),
                _ => specialty_word,
            };
            if let Some((_, _, medical_w)) = contrary {
                let side = if medical_w.is_empty() {
                    format!("Its category code ({})", mcc.unwrap_or(""))
                } else {
                    quoted(medical_w)
                };
                return conflict(
                    side,
                    format!("'{w}' points to {}", kind.describe()),
                    "non_medical_words",
                    vec![
                        if medical_w.is_empty() { mcc_evidence(mcc_category(mcc)) } else { medical_evidence(contrary) },
                        non_medical_evidence,
                    ],
                );
            }
            return decide(
                Outcome::Ineligible,
                kind.category(),
                if kind == NonMedical::Cosmetic { "cosmetic_service" } else { "non_medical_merchant" },
                format!("'{w}': {merchant_label} looks like {}, which is not medical care.", kind.describe()),
                "non_medical_words",
                vec![non_medical_evidence, medical_evidence(medical_word)],
            );
        }
        // 8. Merchant categories that are never medical care.
        if let Some(rule) = mcc_rule.filter(|r| r.outcome == Outcome::Ineligible) {
            if let Some((_, _, w)) = specialty_word {
                return conflict(
                    quoted(w),
                    format!("the category code is {}", mcc_label(rule)),
                    "mcc_ineligible",
                    vec![medical_evidence(specialty_word), mcc_evidence(mcc_category(mcc))],
                );
            }
            return decide(
                Outcome::Ineligible,
                mcc_category(mcc),
                "non_medical_category",
                format!("{} is not a medical merchant category.", mcc_label(rule)),
                "mcc_ineligible",
                vec![mcc_evidence(mcc_category(mcc))],
            );
        }
        // 9. Medical categories; broad ones need a medical word too.
        if let Some(rule) = medical_code {
            let broad = mcc.is_some_and(|m| BROAD_MEDICAL_MCCS.contains(&m));
            if broad && medical_word.is_none() {
                return decide(
                    Outcome::NeedsReview,
                    mcc_category(mcc),
                    "broad_medical_category",
                    format!(
                        "{} also covers non-medical services, and nothing else shows this is medical care; a receipt decides.",
                        mcc_label(rule)
                    ),
                    "mcc_medical",
                    vec![mcc_evidence(mcc_category(mcc))],
                );
            }
            let category =
                if broad { medical_word.map(|(c, ..)| c).unwrap_or("medical_services") } else { mcc_category(mcc) };
            return decide(
                Outcome::Eligible,
                category,
                "medical_category",
                format!(
                    "{} is a health-care merchant category: medical care under IRS Publication 502.",
                    mcc_label(rule)
                ),
                "mcc_medical",
                vec![mcc_evidence(mcc_category(mcc)), medical_evidence(medical_word)],
            );
        }
        // 10. Categories that sell both kinds.
        if let Some(rule) = mcc_rule.filter(|r| r.outcome == Outcome::NeedsReview) {
            return decide(
                Outcome::NeedsReview,
                mcc_category(mcc),
                "mixed_category",
                format!("{} sells both eligible and ineligible goods or services; a receipt decides.", mcc_label(rule)),
                "mcc_needs_review",
                vec![mcc_evidence(mcc_category(mcc)), medical_evidence(medical_word)],
            );
        }
        // 11. Any other category code is not health care.
        if let Some(code) = mcc {
            if let Some((_, _, w)) = specialty_word {
                return conflict(
                    quoted(w),
                    format!("the category code {code} is not a health-care category"),
                    "mcc_non_medical",
                    vec![medical_evidence(specialty_word), mcc_evidence("general")],
                );
            }
            return decide(
                Outcome::Ineligible,
                "general",
                "non_medical_category",
                format!("MCC {code} is not a health-care merchant category."),
                "mcc_non_medical",
                vec![mcc_evidence("general")],
            );
        }
        // 12. A medical word with no category code.
        if let Some((category, _, _)) = medical_word {
            return decide(
                Outcome::Eligible,
                category,
                "medical_provider",
                format!("{merchant_label} is a health-care provider ({}).", describe_category(category)),
                "provider_keyword",
                vec![medical_evidence(medical_word)],
            );
        }
        if let Some((_, w)) = found.iter().find(|(s, _)| *s == Signal::Pharmacy) {
            return decide(
                Outcome::NeedsReview,
                "mixed_merchandise",
                "mixed_merchant",
                format!(
                    "{merchant_label} is a pharmacy selling both eligible and ineligible goods; item-level data is needed."
                ),
                "provider_keyword",
                vec![Some(word_evidence(w, "mixed_merchandise"))],
            );
        }
        // 13. Nothing to go on.
        decide(
            Outcome::NeedsReview,
            "general",
            "unknown_merchant",
            "The merchant could not be identified and no category code was given; a receipt decides.".to_string(),
            "unknown",
            vec![],
        )
    }

    fn item_level(&self, items: &[Item], merchant: Option<ResolvedMerchant>, merchant_label: &str) -> Adjudication {
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
        Adjudication {
            outcome,
            category: main_category,
            reason: Reason { code, message },
            rule: "item_level",
            evidence: vec![Evidence {
                kind: EvidenceKind::Items,
                value: format!("{eligible_n} eligible, {ineligible_n} ineligible, {unknown_n} unclassified"),
                indicates: main_category,
            }],
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
