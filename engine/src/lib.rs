//! The adjudication engine: decides whether a purchase is an HSA/FSA-eligible
//! expense, and explains why. Pure: no transport or database types; the core
//! feeds it plain purchases and the merchant directory.
//!
//! Three steps. Merchant resolution turns a raw descriptor into a directory
//! merchant, a known merchant (`data/merchant_knowledge.csv`, `aliases`) or
//! nothing (`normalize`). Item-level data (store orders, receipts), where
//! given, decides per line (`item_level`). Otherwise the purchase becomes
//! one typed [`facts::Facts`] value (the merchant's usual outcome, the
//! category code as the reference data lists it, and the descriptor's
//! words read as evidence by `signals`: medical care, a specialty or a
//! generic word, and evidence of non-medical use), and the declared list
//! of named rules in [`rules::RULES`] runs over it, first match wins, each
//! naming itself in [`Adjudication::rule`] and listing its [`Evidence`].
//! The order and what each rule decides: `rules` and docs/adjudication.md.
//!
//! Facts: `data/mcc_medical.csv`, `data/merchants.csv`,
//! `data/merchant_knowledge.csv`, `data/descriptors.csv`,
//! `data/eligibility_categories.csv`, read by [`reference`], which fails
//! loudly on a row it cannot read.

pub mod aliases;
pub mod categories;
pub mod decision;
pub mod english;
pub mod error;
#[cfg(feature = "evaluation")]
pub mod evaluation;
pub mod facts;
pub mod lexicon;
pub mod names;
pub mod normalize;
pub mod receipts;
pub mod reference;
pub mod rules;
pub mod signals;

// The word maps are looked up several times for every purchase: foldhash
// rather than SipHash (measured, docs/benchmarks.md). Seeded per process;
// only the engine's own data is ever inserted.
use foldhash::{HashMap, HashSet};

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};

use self::aliases::{ALIASES, AliasTarget};
pub use self::decision::{
    Adjudication, DirectoryMerchant, Evidence, EvidenceKind, Item, ItemOutcome, Outcome, Purchase, Reason,
    ResolvedMerchant,
};
use self::english::CommonWords;
pub use self::error::EngineError;
use self::facts::{CategoryCode, Facts, ListedCode, MerchantFact, MerchantSource};
use self::lexicon::ItemLexicon;
use self::normalize::{STATES, canonical_words, normalize, singular_forms};
use self::signals::Signal;

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
    /// Single words naming a field of care (and their truncations) →
    /// index into KEYWORDS: looked up beside `words`, so that a word that
    /// is also another kind of keyword (`CANCER`, a generic medical word)
    /// is both.
    field_words: HashMap<String, usize>,
    /// A keyword whose last word is cut to five letters or more, as the
    /// card network left it at the end of the name (`BEHAVIORAL HOSPI`,
    /// `SKILLED NURSI`) → index into KEYWORDS; `None` where two keywords
    /// that say different things share the cut.
    cut_at_end: HashMap<String, Option<usize>>,
    /// Words of cosmetic or conditional care (four letters or more) that a
    /// brand name may begin with, glued to the rest (`VEINWORKS`,
    /// `LASERLUXE`) → index into KEYWORDS.
    glued_heads: HashMap<String, usize>,
    /// Cuts of three letters or more of the single words of other trades
    /// (`CAN` of `CANTEEN`, `PARKIN` of `PARKING`), read only right after a
    /// hospital's own word, where the name ends, under the code a
    /// hospital's shops share with it
    /// (`Vocabulary::other_trade_after_hospital`).
    trade_cuts: HashSet<String>,
    /// The common English words: after a hospital's own word, one names
    /// another business of the hospital's (`HOSPITAL VALET`).
    english: &'static CommonWords,
}

/// What a purchase's category code says of trades other than care that
/// charge under it, for reading its descriptor's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TradesBesideCare {
    /// A code a hospital's shops and car parks share with it (8062): a
    /// trade in the plural (`GIFTS`) and the word after the hospital's own
    /// (`HOSPITAL VALET`) name them.
    Shared,
    /// No code: the word after the hospital's own still names its business
    /// (`HOSPITAL AUXILIARY` printed without a code).
    Unknown,
    /// Any other code.
    Other,
}

/// The words a hospital names itself by, after which a business of the
/// hospital names its trade (`TAINAN HOSPITAL PARKIN`).
const HOSPITAL_WORDS: &[&str] = &["HOSPITAL", "HOSPITALS", "HOSP"];
/// Common words a hospital's own charges print after its name, which name
/// no other business, whole or cut where the name ends (`HOSPITAL BIL`):
/// its authority, its billing office and a campus by its direction
/// (development data: `MARSHVIEW HOSPITAL AUTHORITY`, `SAINT ODILE
/// HOSPITAL BILLING`, `GRAND ISLAND REGIONAL HOSPITAL EAST`).
const HOSPITAL_OWN_WORDS: &[&str] = &["AUTHORITY", "BILLING", "EAST"];
/// The shortest cut of another trade's word read after a hospital's word:
/// the card network leaves as little as `CAN` of `CANTEEN`.
const MIN_TRADE_CUT: usize = 3;

/// The shortest word of cosmetic or conditional care found at the head of
/// a glued brand name, and the fewest letters that must follow it.
const MIN_GLUED_HEAD: usize = 4;
const MIN_GLUED_TAIL: usize = 3;

/// Evidence that care is cosmetic or conditional: the kinds a cut or glued
/// word is also looked for, where a medical word alone would make a
/// medical-looking business `eligible`.
fn warns_of_cosmetic_care(signal: Signal) -> bool {
    matches!(
        signal,
        Signal::NonMedical(
            signals::NonMedical::Cosmetic | signals::NonMedical::Conditional | signals::NonMedical::CosmeticHint
        )
    )
}

/// The shortest truncation of a long keyword that still counts.
const MIN_TRUNCATION: usize = 6;
/// The shortest cut of a keyword's last word that counts where the name
/// ends (`Vocabulary::cut_at_end`).
const MIN_CUT_AT_END: usize = 5;
/// The same for the last word of a phrase keyword: the whole words before
/// it already say which phrase it is (`PHYSICAL TH`, `GENERAL HO`).
const MIN_PHRASE_CUT_AT_END: usize = 2;
/// Keywords shorter than this are matched only whole.
const MIN_TRUNCATABLE: usize = 8;
/// Truncations that are words of their own (CARDIO class, GASTRO pub, PSYCHO
/// Bunny, SIRIUSXM RADIO, CLEAR SOUND AUDIO, SWALLOW PIZZA): never read as
/// the medical word they begin.
const NOT_TRUNCATIONS: &[&str] =
    &["CARDIO", "GASTRO", "PERIOD", "PSYCHO", "ADDICT", "UNITED", "RADIO", "AUDIO", "SWALLOW"];

impl Vocabulary {
    fn new() -> Result<Vocabulary, EngineError> {
        let keywords = signals::keywords()?;
        let mut words = HashMap::default();
        let mut phrases = Vec::new();
        let mut phrase_keywords = Vec::new();
        let mut field_words = HashMap::default();
        for (index, (keyword, signal)) in keywords.iter().enumerate() {
            if keyword.contains(' ') {
                phrases.push(keyword.to_string());
                phrase_keywords.push(index);
            } else if *signal == Signal::CareField {
                field_words.entry(keyword.to_string()).or_insert(index);
            } else {
                words.entry(keyword.to_string()).or_insert(index);
            }
        }
        // Truncations never shadow a whole keyword, and only words of care
        // or of non-medical use are cut: brand names (insurers, dispensaries)
        // are matched whole.
        for (index, (keyword, signal)) in keywords.iter().enumerate() {
            let truncatable = matches!(signal, Signal::Medical { .. } | Signal::NonMedical(_) | Signal::CareField);
            if truncatable && !keyword.contains(' ') && keyword.len() >= MIN_TRUNCATABLE {
                let into = if *signal == Signal::CareField { &mut field_words } else { &mut words };
                for end in MIN_TRUNCATION..keyword.len() {
                    let prefix = &keyword[..end];
                    if !NOT_TRUNCATIONS.contains(&prefix) {
                        into.entry(prefix.to_string()).or_insert(index);
                    }
                }
            }
        }
        let mut cut_at_end: HashMap<String, Option<usize>> = HashMap::default();
        for (index, (keyword, signal)) in keywords.iter().enumerate() {
            if !matches!(signal, Signal::Medical { .. } | Signal::NonMedical(_) | Signal::CareField) {
                continue;
            }
            let (head, last) = keyword.rsplit_once(' ').map_or(("", keyword.as_str()), |(h, l)| (h, l));
            let shortest = if head.is_empty() { MIN_CUT_AT_END } else { MIN_PHRASE_CUT_AT_END };
            for end in shortest..last.len() {
                let cut = if head.is_empty() { last[..end].to_string() } else { format!("{head} {}", &last[..end]) };
                // A phrase of non-medical use cut to two letters that are a
                // state code is the state the bank prints (`MERCY HOSPITAL
                // CA` is in California, not a cut `HOSPITAL CAFE`); a phrase
                // of care cut so stays (`PRIMARY CA`).
                let a_state = matches!(signal, Signal::NonMedical(_))
                    && end == MIN_PHRASE_CUT_AT_END
                    && STATES.contains(&&last[..end]);
                if words.contains_key(&cut) || NOT_TRUNCATIONS.contains(&&last[..end]) || a_state {
                    continue;
                }
                cut_at_end
                    .entry(cut)
                    .and_modify(|found| {
                        let Some(other) = *found else { return };
                        match (keywords[other].1, *signal) {
                            (theirs, ours) if theirs == ours => {}
                            // A field of care and a medical word both say
                            // care: the medical word, which decides more,
                            // is kept (`EATING DISORDE`).
                            (Signal::Medical { .. }, Signal::CareField) => {}
                            (Signal::CareField, Signal::Medical { .. }) => *found = Some(index),
                            _ => *found = None,
                        }
                    })
                    .or_insert(Some(index));
            }
        }
        let glued_heads = keywords
            .iter()
            .enumerate()
            .filter(|(_, (keyword, signal))| {
                warns_of_cosmetic_care(*signal) && !keyword.contains(' ') && keyword.len() >= MIN_GLUED_HEAD
            })
            .map(|(index, (keyword, _))| (keyword.clone(), index))
            .collect();
        // Whole keywords are read as what they are (`LAB`), never as a cut.
        let whole: HashSet<&str> = keywords.iter().map(|(k, _)| k.as_str()).collect();
        let trade_cuts = keywords
            .iter()
            .filter(|(keyword, signal)| !keyword.contains(' ') && matches!(signal, Signal::NonMedical(_)))
            .flat_map(|(keyword, _)| (MIN_TRADE_CUT..keyword.len()).map(|end| &keyword[..end]))
            .filter(|cut| !whole.contains(cut))
            .map(str::to_string)
            .collect();
        Ok(Vocabulary {
            keywords,
            phrases: Matcher::new(&phrases)?,
            phrase_keywords,
            words,
            field_words,
            cut_at_end,
            glued_heads,
            trade_cuts,
            english: CommonWords::shared()?,
        })
    }

    /// Where the name may end in `words`: its last word, or, behind a city
    /// and a state code, the word before a city of one or two words.
    fn name_ends(words: &[&str]) -> Vec<usize> {
        let n = words.len();
        let mut ends = vec![n];
        if n >= 3 && STATES.contains(&words[n - 1]) {
            ends.extend([n - 2, n - 3].into_iter().filter(|&end| end >= 1));
        }
        ends
    }

    /// `word`'s entry in `table`, or else its singular's: practices name
    /// themselves in the plural (`ANESTHESIOLOGISTS`, `PODIATRIC SURGEONS`)
    /// and the tables hold the singular.
    fn word_or_its_singular<'t>(table: &'t HashMap<String, usize>, word: &str) -> Option<&'t usize> {
        table.get(word).or_else(|| Self::singular_entry(table, word))
    }

    /// The entry in `table` of the first singular form of `word` it holds.
    fn singular_entry<'t>(table: &'t HashMap<String, usize>, word: &str) -> Option<&'t usize> {
        singular_forms(word).find_map(|one| table.get(one.as_ref()))
    }

    /// The specialty `word` names in the plural (`PSYCHOLOGISTS`,
    /// `AUDIOLOGISTS`): only specialties are read so, since other words'
    /// plurals name other things (`INFUSIONS` at a wellness bar, `SHOES`).
    fn specialty_in_the_singular(&self, word: &str) -> Option<&usize> {
        Self::singular_entry(&self.words, word)
            .filter(|&&i| matches!(self.keywords[i].1, Signal::Medical { specialty: true, .. }))
    }

    /// The other trade `word` names in the plural (`GIFTS`, `FLOWERS`), read
    /// only under a code that such trades share with care (a hospital's):
    /// elsewhere a plural names the goods of a store that may sell care too
    /// (`RX AND GIFTS`, `DIABETIC SHOES`).
    fn trade_in_the_singular(&self, word: &str) -> Option<&usize> {
        Self::singular_entry(&self.words, word).filter(|&&i| matches!(self.keywords[i].1, Signal::NonMedical(_)))
    }

    /// Every signal in `text` (canonical words), with the words as found,
    /// read as the purchase's category code allows (`TradesBesideCare`).
    fn find<'a>(&self, text: &'a str, trades: TradesBesideCare) -> Vec<(Signal, &'a str)> {
        let trades_in_the_plural = trades == TradesBesideCare::Shared;
        // Each signal with where it stands in `text`.
        let mut found: Vec<(Signal, std::ops::Range<usize>)> = self
            .phrases
            .find(text)
            .map(|(i, start, end)| (self.keywords[self.phrase_keywords[i]].1, start..end))
            .collect();
        let mut start = 0;
        for word in text.split(' ') {
            let at = start..start + word.len();
            start = at.end + 1;
            // A whole keyword; else a brand that begins with a word of
            // cosmetic or conditional care (`VEINWORKS`, `LASERLUXE`): that
            // word counts. It can only move a purchase away from `eligible`.
            let index = self
                .words
                .get(word)
                .or_else(|| self.specialty_in_the_singular(word))
                .or_else(|| trades_in_the_plural.then(|| self.trade_in_the_singular(word)).flatten())
                .or_else(|| {
                    let longest = word.len().checked_sub(MIN_GLUED_TAIL)?;
                    (MIN_GLUED_HEAD..=longest)
                        .rev()
                        .find_map(|end| word.get(..end).and_then(|h| self.glued_heads.get(h)))
                });
            found.extend(index.map(|&i| (self.keywords[i].1, at.clone())));
            found.extend(Self::word_or_its_singular(&self.field_words, word).map(|&i| (self.keywords[i].1, at)));
        }
        // A medical word inside a phrase of non-medical use is part of that
        // phrase (`DENTAL` in `COSMETIC DENTAL`), not evidence of its own.
        let phrases_against: Vec<std::ops::Range<usize>> = found
            .iter()
            .filter(|(signal, at)| matches!(signal, Signal::NonMedical(_)) && text[at.clone()].contains(' '))
            .map(|(_, at)| at.clone())
            .collect();
        // And the other way: a word of everyday use inside a phrase of care
        // is part of that phrase (`PET` in `PET CT`, positron emission
        // tomography). A word of cosmetic or conditional care still counts
        // (`PLASTIC` in `PLASTIC SURGERY`).
        let phrases_for: Vec<std::ops::Range<usize>> = found
            .iter()
            .filter(|(signal, at)| matches!(signal, Signal::Medical { .. }) && text[at.clone()].contains(' '))
            .map(|(_, at)| at.clone())
            .collect();
        let inside = |at: &std::ops::Range<usize>, phrases: &[std::ops::Range<usize>]| {
            phrases.iter().any(|outer| outer != at && outer.start <= at.start && at.end <= outer.end)
        };
        found.retain(|(signal, at)| match signal {
            Signal::Medical { .. } => !inside(at, &phrases_against),
            Signal::NonMedical(_) if !warns_of_cosmetic_care(*signal) => !inside(at, &phrases_for),
            _ => true,
        });
        let other_trade = (trades != TradesBesideCare::Other
            && !found.iter().any(|(s, _)| matches!(s, Signal::NonMedical(_))))
        .then(|| self.other_trade_after_hospital(text, &found, trades))
        .flatten();
        let mut found: Vec<(Signal, &'a str)> = found.into_iter().map(|(signal, at)| (signal, &text[at])).collect();
        found.extend(other_trade);
        // A field of care is read only beside the codes that need one: it
        // does not keep a medical word cut short from being looked for.
        if found.iter().all(|(signal, _)| *signal == Signal::CareField) {
            found.extend(self.cut_at_end(text, |_| true));
        } else if !found.iter().any(|(signal, _)| warns_of_cosmetic_care(*signal)) {
            // Beside a medical word, a cut word of cosmetic or conditional
            // care still counts (`SCULPTURA MEDICAL AE` for aesthetics).
            found.extend(self.cut_at_end(text, warns_of_cosmetic_care));
        }
        found
    }

    /// Another business of a hospital's, read from the word right after the
    /// hospital's own word (`ANKARA HOSPITAL VALET`, `TAINAN HOSPITAL
    /// PARKIN`), under the code the hospital's shops and car parks share
    /// with it: a common English word no keyword read, or where the name
    /// ends, the first three letters or more of another trade's keyword or
    /// of a common word (`HOSPITAL CAN`, `HOSPITAL NEWSSTAN`), even where a
    /// word of care also begins so (`PARKINSON`, `CANCER`): the bank left
    /// too little to tell. Which trade is not known (`CAN` begins `CANTEEN`
    /// and `CANINE`), so it is a non-medical business, and a question beside
    /// the hospital's code. Not read: a whole keyword or a phrase of one
    /// (`HOSPITAL LAB`), though a cut a word of care also begins with is
    /// (`PARKIN`, read elsewhere as `PARKINSON`); the city the bank prints
    /// behind the name (`HOSPITAL CANTON OH`, `Vocabulary::name_ends`); and
    /// the hospital's own offices (`HOSPITAL_OWN_WORDS`).
    fn other_trade_after_hospital<'a>(
        &self,
        text: &'a str,
        read: &[(Signal, std::ops::Range<usize>)],
        trades: TradesBesideCare,
    ) -> Option<(Signal, &'a str)> {
        // Most names hold no hospital's word: found before any split.
        if !text.contains("HOSP") {
            return None;
        }
        let (words, starts) = words_and_starts(text);
        let ends = Vocabulary::name_ends(&words);
        let at = words.iter().position(|w| HOSPITAL_WORDS.contains(w))? + 1;
        let word = *words.get(at)?;
        let span = starts[at]..starts[at] + word.len();
        let ends_the_name = ends.contains(&(at + 1));
        let within_the_name = ends_the_name || ends.iter().all(|&end| at + 1 < end);
        if !within_the_name
            || word.len() < MIN_TRADE_CUT
            || !word.bytes().all(|b| b.is_ascii_alphabetic())
            || HOSPITAL_OWN_WORDS.iter().any(|own| *own == word || (ends_the_name && own.starts_with(word)))
            || self.is_whole_keyword(word)
            || read.iter().any(|(_, r)| r.start < span.end && span.start < r.end && *r != span)
        {
            return None;
        }
        let cut = ends_the_name && (self.trade_cuts.contains(word) || self.english.begins_a_word(word));
        // Beside the hospital's code, another business is a conflict with
        // it; with no code, the hospital's word and the trade's are a
        // question of what was bought (`HOSPITAL BEDS` may be a supplier's).
        let kind = match trades {
            TradesBesideCare::Shared => signals::NonMedical::Services,
            TradesBesideCare::Unknown | TradesBesideCare::Other => signals::NonMedical::Conditional,
        };
        (cut || self.english.is_english(word)).then_some((Signal::NonMedical(kind), word))
    }

    /// Whether `word` is a keyword as written, not a truncation of a longer
    /// one (`PARKIN` is read as a cut of `PARKINSON`, `LAB` as itself).
    fn is_whole_keyword(&self, word: &str) -> bool {
        let whole = |table: &HashMap<String, usize>| table.get(word).is_some_and(|&i| self.keywords[i].0 == word);
        whole(&self.words) || whole(&self.field_words)
    }

    /// A keyword cut short where the name ends (`cut_at_end`), looked for
    /// only when no whole keyword was found: the longest phrase of up to
    /// three words that ends there.
    fn cut_at_end<'a>(&self, text: &'a str, wanted: impl Fn(Signal) -> bool) -> Option<(Signal, &'a str)> {
        let (words, starts) = words_and_starts(text);
        for end in Vocabulary::name_ends(&words) {
            // Single words are cut at five letters at least; a phrase's last
            // word at two (the map holds only those cuts).
            if words[end - 1].len() < MIN_PHRASE_CUT_AT_END {
                continue;
            }
            // The longest phrase first: `PHYSICAL THERAP` is physical
            // therapy before `THERAP` alone is a cut of a field of care.
            for span in (1..=3.min(end)).rev() {
                let from = starts[end - span];
                let to = starts.get(end).map_or(text.len(), |next| next - 1);
                if let Some(Some(index)) = self.cut_at_end.get(&text[from..to])
                    && wanted(self.keywords[*index].1)
                {
                    return Some((self.keywords[*index].1, &text[from..to]));
                }
            }
        }
        None
    }
}

/// The words of `text` (canonical, one space between words), each with
/// where it starts in `text`.
fn words_and_starts(text: &str) -> (Vec<&str>, Vec<usize>) {
    let mut words = Vec::with_capacity(8);
    let mut starts = Vec::with_capacity(8);
    let mut from = 0;
    for word in text.split(' ') {
        starts.push(from);
        words.push(word);
        from += word.len() + 1;
    }
    (words, starts)
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

fn outcome(file: &'static str, value: &str) -> Result<Outcome, EngineError> {
    Outcome::parse(value).ok_or_else(|| EngineError::UnknownOutcome { file, value: value.to_string() })
}

/// The adjudication engine for one merchant directory. Build once, share.
pub struct Engine {
    directory: Vec<DirectoryMerchant>,
    /// Each directory merchant's category (`merchant_category`), worked out
    /// once rather than for every purchase that resolves to it.
    directory_categories: Vec<&'static str>,
    merchants: Matcher,
    targets: Vec<Target>,
    known: Vec<KnownMerchant>,
    vocabulary: Vocabulary,
    /// What receipt and order lines name (`lexicon`).
    items: &'static ItemLexicon,
    mccs: HashMap<String, MccRule>,
    /// Category codes of stores that sell nothing for medical care
    /// (`data/mcc_stores_without_care.csv`): how a receipt's lines are read
    /// there (`receipts::Store`).
    stores_without_care: HashSet<String>,
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
        // Loaded here so that a broken list stops the engine, not a purchase.
        names::PracticeNames::shared()?;
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
        let stores_without_care = reference::stores_without_care()?
            .into_iter()
            .map(|row| {
                if row.mcc.len() == 4 && row.mcc.bytes().all(|b| b.is_ascii_digit()) {
                    Ok(row.mcc)
                } else {
                    Err(EngineError::Reference(reference::ReferenceError {
                        file: "data/mcc_stores_without_care.csv",
                        reason: format!("'{}' is not a four-digit category code", row.mcc),
                    }))
                }
            })
            .collect::<Result<_, EngineError>>()?;
        let directory_categories = directory.iter().map(|m| merchant_category(&m.name, m.typical_outcome)).collect();
        Ok(Engine {
            directory,
            directory_categories,
            merchants,
            targets,
            known,
            vocabulary: Vocabulary::new()?,
            items: ItemLexicon::shared()?,
            mccs,
            stores_without_care,
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
    /// Whether the product lexicon knows `word` (canonical, upper case).
    pub fn knows_item_word(&self, word: &str) -> bool {
        self.items.knows_word(word)
    }

    /// Whether a store whose purchases carry category code `mcc` sells
    /// nothing for medical care (`data/mcc_stores_without_care.csv`).
    pub fn store_sells_no_care(&self, mcc: &str) -> bool {
        self.stores_without_care.contains(mcc.trim())
    }

    pub fn classify_item(&self, description: &str) -> Option<(Outcome, &'static str)> {
        let items: &'static ItemLexicon = self.items;
        items.decide(description)
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
        let code = mcc.as_deref().map(|code| CategoryCode {
            code,
            listed: mcc_rule.map(|rule| ListedCode { outcome: rule.outcome, description: &rule.description }),
        });
        let trades = match code {
            Some(code) if code.hosts_other_trades() => TradesBesideCare::Shared,
            Some(_) => TradesBesideCare::Other,
            None => TradesBesideCare::Unknown,
        };
        let name_words = purchase.merchant_name.map(canonical_words);
        let mut found = self.vocabulary.find(&normalized.text, trades);
        if let Some(words) = name_words.as_deref() {
            found.extend(self.vocabulary.find(words, trades));
        }
        let mut facts = Facts {
            merchant_label: &merchant_label,
            merchant: self.merchant_fact(target, &merchant_label),
            code,
            ..Facts::default()
        };
        facts.read_words(&normalized.text, found);
        let (rule, verdict) = rules::apply(&facts);
        Adjudication {
            outcome: verdict.outcome,
            category: verdict.category,
            reason: Reason { code: verdict.code, message: verdict.message },
            rule,
            evidence: verdict.evidence,
            eligible_amount_minor: if verdict.outcome == Outcome::Eligible { purchase.amount_minor } else { 0 },
            merchant,
            items: None,
        }
    }

    /// The resolved merchant's usual outcome, and how a reason explains it.
    fn merchant_fact(&self, target: Option<&Target>, merchant_label: &str) -> Option<MerchantFact> {
        match target? {
            Target::Known(index) => {
                let k = &self.known[*index];
                Some(MerchantFact {
                    source: MerchantSource::Known,
                    outcome: k.outcome,
                    category: k.category,
                    code: k.code,
                    message: k.message.clone(),
                })
            }
            Target::Directory { index, .. } => {
                let m = &self.directory[*index];
                let category = self.directory_categories[*index];
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
                Some(MerchantFact {
                    source: MerchantSource::Directory,
                    outcome: m.typical_outcome,
                    category,
                    code,
                    message,
                })
            }
        }
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
