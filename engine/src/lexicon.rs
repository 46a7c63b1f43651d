//! The item lexicon: what a receipt or order line names, as data, each term
//! with its source (data/PROVENANCE.md):
//!
//! - `data/lexicon/item_terms.csv`, written by the team from the reference
//!   data (`data/eligibility_categories.csv` rows and the merchant category
//!   groups): the medical supplies, diagnostics, menstrual care, vision and
//!   the overrides ("NON PRESCRIPTION" sunglasses, teeth "WHITENING");
//! - `data/lexicon/generated/`, extracted by `scripts/build_lexicon.py`: OTC
//!   active ingredients and their brands from FDA's UNII names, their
//!   consumer brands and other-language names from a drug-names dictionary,
//!   and everyday goods (foods, toiletries, apparel, appliances…) from WordNet.
//!
//! A line's canonical words are looked up as phrases of up to four words;
//! the match with the highest priority wins, then the one of most words.
//! Curated terms rank above the generated ones, and ingredients and brands
//! (priority 1) above everyday goods (priority 0), so "HYDROCORTISONE CREAM"
//! is a medicine though WordNet knows creams. Receipts cut words short, so a
//! medical word of eight letters or more is also found by its first six or
//! more (`IBUPROF`, `ACETAMIN`); a plural finds its singular (`COOKIES`,
//! `BERRIES`). Loaded once per process, loudly: a row that does not parse
//! stops the engine from starting.

use std::cmp::Reverse;
use std::collections::HashMap;
use std::sync::OnceLock;

use crate::decision::Outcome;
use crate::english::CommonWords;
use crate::error::EngineError;
use crate::normalize::{canonical_words, one_character_apart, singular_forms};
use crate::reference::ReferenceError;

/// The hand-written terms.
pub const ITEM_TERMS_CSV: &str = include_str!("../../data/lexicon/item_terms.csv");
/// OTC active ingredients (UNII).
pub const OTC_INGREDIENTS_CSV: &str = include_str!("../../data/lexicon/generated/otc_ingredients.csv");
/// Brands of those ingredients (UNII).
pub const OTC_BRANDS_CSV: &str = include_str!("../../data/lexicon/generated/otc_brands.csv");
/// Names of the medicines MedlinePlus has a drug monograph for, less the
/// OTC ingredients, supplements and medicines bought for looks (the same
/// drug-names dictionary): a line that names one (`ATORVASTATIN 20MG 90`)
/// is a prescription.
pub const PRESCRIPTION_DRUGS_CSV: &str = include_str!("../../data/lexicon/generated/prescription_drugs.csv");
/// Brands, synonyms and other-language names of those ingredients (the
/// drug-names dictionary of `drug-named-entity-recognition`): the consumer
/// brands receipts print (`ADVIL`, `ZYRTEC`) that UNII does not list.
pub const DRUG_NAMES_CSV: &str = include_str!("../../data/lexicon/generated/drug_names.csv");
/// Everyday goods (WordNet).
pub const EVERYDAY_GOODS_CSV: &str = include_str!("../../data/lexicon/generated/everyday_goods.csv");

/// The longest term, in words.
const MAX_WORDS: usize = 4;

/// One term of the lexicon.
#[derive(Debug, Clone)]
pub struct ItemTerm {
    /// In canonical words.
    pub term: String,
    pub outcome: Outcome,
    /// A slug of `categories::CATEGORIES`.
    pub category: String,
    /// Higher wins.
    pub priority: u8,
    /// False: the term's last word may run on (`BANDAGE` in `BANDAGES`).
    pub whole_word: bool,
    pub source: String,
    /// Written by the team (`item_terms.csv`), not extracted by the script.
    pub curated: bool,
}

#[derive(serde::Deserialize)]
struct CuratedRow {
    term: String,
    outcome: String,
    category: String,
    priority: u8,
    whole_word: bool,
    source: String,
}

#[derive(serde::Deserialize)]
struct GeneratedRow {
    term: String,
    category: String,
    outcome: String,
    source: String,
}

/// Every term, and how to find them in a line.
pub struct ItemLexicon {
    terms: Vec<ItemTerm>,
    /// Canonical phrase (or a medical word's truncation) → term index.
    phrases: HashMap<String, usize>,
    /// Terms whose last word may run on: (words, index).
    stems: Vec<(Vec<String>, usize)>,
    /// Words of terms, six letters or more, by every form with one letter
    /// left out (and as they are): a word OCR misread by one letter is
    /// found by the forms the two share (the symmetric-delete method).
    /// Every word that has the form, where several do.
    near: HashMap<String, Vec<String>>,
    /// Every word of a term (four letters or more), for telling a word the
    /// lexicon knows from a receipt's abbreviation of one.
    vocabulary: std::collections::HashSet<String>,
    /// Words by their consonant skeleton (`BANDAGE` → `BNDG`), as tills
    /// abbreviate them; None where two words share one.
    skeletons: HashMap<String, Option<String>>,
    /// The common English words: a receipt's word among them is not read
    /// as a misreading of a word that is care on its own.
    english: &'static CommonWords,
    /// The vocabulary's words of eight letters or more, by length, each
    /// with its letter counts: a word two misreadings away is looked for
    /// only among words of a near length, and its edit distance is worked
    /// out only where the letter counts leave it possible.
    long_words: Vec<Vec<(String, LetterCounts)>>,
}

/// How often each letter A to Z occurs in a word.
type LetterCounts = [u8; 26];

fn letter_counts(word: &str) -> LetterCounts {
    let mut counts = [0u8; 26];
    for b in word.bytes().filter(u8::is_ascii_uppercase) {
        let slot = &mut counts[usize::from(b - b'A')];
        *slot = slot.saturating_add(1);
    }
    counts
}

/// A lower bound of the edit distance of two words from their letter
/// counts (the bag distance): the letters one has beyond the other, on the
/// side that has more.
fn bag_distance(a: &LetterCounts, b: &LetterCounts) -> usize {
    let (mut more, mut fewer) = (0usize, 0usize);
    for (x, y) in a.iter().zip(b) {
        if x > y {
            more += usize::from(x - y);
        } else {
            fewer += usize::from(y - x);
        }
    }
    more.max(fewer)
}

/// Letters a word needs before a one-letter misreading of it is trusted.
const NEAR_MIN_LETTERS: usize = 6;
/// Letters a word needs before a two-letter misreading of it is trusted.
const TWO_MISREADINGS_MIN_LETTERS: usize = 10;

/// The least sun protection factor a sunscreen is medical care at: the
/// reference data's "broad-spectrum SPF 15+ sunscreen"
/// (`data/eligibility_categories.csv`, Sunscreen).
const MINIMUM_SPF: u32 = 15;

/// The sun protection factor a line states (`SPF 4`, `SPF30`), if any.
fn stated_spf(description: &str) -> Option<u32> {
    let words = lexicon_words(description);
    words.windows(2).find(|pair| pair[0] == "SPF").and_then(|pair| pair[1].parse().ok())
}

/// The words of a line or a term as the lexicon compares them: canonical
/// words, with a count or size glued to a word split off it (`SPF30` is
/// `SPF 30`, `200MG` is `200 MG`); digits inside a word stay (`IBUPR0FEN`,
/// an OCR misreading, is one word).
pub fn lexicon_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    for word in canonical_words(text).split(' ').filter(|w| !w.is_empty()) {
        let lead = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let trail = word.len() - word.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let middle = &word[lead..word.len().saturating_sub(trail).max(lead)];
        if !middle.is_empty() && middle.bytes().all(|b| b.is_ascii_alphabetic()) && (lead > 0 || trail > 0) {
            words.extend(
                [&word[..lead], middle, &word[lead + middle.len()..]]
                    .into_iter()
                    .filter(|part| !part.is_empty())
                    .map(str::to_string),
            );
        } else {
            words.push(word.to_string());
        }
    }
    words
}

/// A word's consonants in order, a repeated one once, and an `H` after
/// C, S, T, P or G left out as tills leave it (`SHREDDED` → `SRD`,
/// `CHICKEN` and `CHKN` → `CKN`).
fn skeleton(word: &str) -> String {
    let mut out = String::new();
    let mut previous = ' ';
    for c in word.chars().filter(|c| !matches!(c, 'A' | 'E' | 'I' | 'O' | 'U')) {
        let digraph = c == 'H' && matches!(previous, 'C' | 'S' | 'T' | 'P' | 'G');
        previous = c;
        if !digraph && !out.ends_with(c) {
            out.push(c);
        }
    }
    out
}

/// Whether `short` can be `long` with letters left out, first letter kept.
/// A till abbreviation drops two letters at least (`BNDG`, `SOFTNR`); a
/// word one letter short of another is another word (`SNUS` is not
/// `SINUS`).
fn abbreviates(short: &str, long: &str) -> bool {
    let mut rest = long.chars();
    short.len() + 2 <= long.len()
        && short.chars().next() == long.chars().next()
        && short.chars().all(|c| rest.by_ref().any(|l| l == c))
}

/// Letters a word needs before one letter read as another letter is
/// trusted to be a misreading (`MYDROCORTISONE`, `ANTACIO`): shorter words
/// one letter apart are other words (`GINGER` and `FINGER`).
const LETTER_SWAP_MIN_LETTERS: usize = 7;

/// Whether `seen` can be `term` misread by one letter the way OCR misreads:
/// a letter dropped or doubled, a letter read as a digit or sign, or, in a
/// long word, as another letter.
fn misreading(seen: &str, term: &str) -> bool {
    if !one_character_apart(seen, term) {
        return false;
    }
    // Of the same length, they differ in one place: what OCR read there.
    let swapped = seen.chars().zip(term.chars()).find(|(a, b)| a != b).map(|(a, _)| a);
    seen.len() != term.len()
        || swapped.is_some_and(|a| !a.is_ascii_alphabetic())
        || seen.len() >= LETTER_SWAP_MIN_LETTERS
}

/// `word` and every form of it with one letter left out.
fn one_letter_out(word: &str) -> impl Iterator<Item = String> + '_ {
    std::iter::once(word.to_string()).chain(word.char_indices().map(|(at, c)| {
        let mut form = String::with_capacity(word.len());
        form.push_str(&word[..at]);
        form.push_str(&word[at + c.len_utf8()..]);
        form
    }))
}

fn rows<T: serde::de::DeserializeOwned>(file: &'static str, text: &str) -> Result<Vec<T>, EngineError> {
    Ok(crate::reference::parse(file, text)?)
}

fn outcome_of(file: &'static str, value: &str) -> Result<Outcome, EngineError> {
    Outcome::parse(value).ok_or_else(|| EngineError::UnknownOutcome { file, value: value.to_string() })
}

fn category_of(file: &'static str, term: &str, category: &str) -> Result<String, EngineError> {
    if crate::categories::CATEGORIES.iter().any(|(slug, _)| *slug == category) {
        Ok(category.to_string())
    } else {
        Err(ReferenceError { file, reason: format!("'{term}' has category '{category}', not a category slug") }.into())
    }
}

impl ItemLexicon {
    /// The lexicon of this build, made once per process.
    pub fn shared() -> Result<&'static ItemLexicon, EngineError> {
        static LEXICON: OnceLock<Result<ItemLexicon, String>> = OnceLock::new();
        match LEXICON.get_or_init(|| ItemLexicon::load().map_err(|err| err.to_string())) {
            Ok(lexicon) => Ok(lexicon),
            Err(reason) => Err(ReferenceError { file: "data/lexicon", reason: reason.clone() }.into()),
        }
    }

    fn load() -> Result<ItemLexicon, EngineError> {
        let mut terms = Vec::new();
        for row in rows::<CuratedRow>("data/lexicon/item_terms.csv", ITEM_TERMS_CSV)? {
            let file = "data/lexicon/item_terms.csv";
            terms.push(ItemTerm {
                term: canonical_words(&row.term),
                outcome: outcome_of(file, &row.outcome)?,
                category: category_of(file, &row.term, &row.category)?,
                // Curated terms rank above the generated ones.
                priority: row.priority + 1,
                whole_word: row.whole_word,
                source: row.source,
                curated: true,
            });
        }
        // (file, text, priority, whether a line must spell the term out).
        // Thousands of prescription names would otherwise claim cuts and
        // near spellings of everyday words (`LIPTON` is the head of
        // `LIPTONORM`, `QUINOA` one letter from a drug): they are found
        // only as written.
        let generated: [(&'static str, &str, u8, bool); 5] = [
            ("data/lexicon/generated/otc_ingredients.csv", OTC_INGREDIENTS_CSV, 1, false),
            ("data/lexicon/generated/otc_brands.csv", OTC_BRANDS_CSV, 1, false),
            ("data/lexicon/generated/drug_names.csv", DRUG_NAMES_CSV, 1, false),
            ("data/lexicon/generated/prescription_drugs.csv", PRESCRIPTION_DRUGS_CSV, 1, true),
            ("data/lexicon/generated/everyday_goods.csv", EVERYDAY_GOODS_CSV, 0, false),
        ];
        let mut spelled_out = 0..0;
        for (file, text, priority, exact) in generated {
            let first = terms.len();
            for row in rows::<GeneratedRow>(file, text)? {
                terms.push(ItemTerm {
                    term: canonical_words(&row.term),
                    outcome: outcome_of(file, &row.outcome)?,
                    category: category_of(file, &row.term, &row.category)?,
                    priority,
                    whole_word: true,
                    source: row.source,
                    curated: false,
                });
            }
            if exact {
                spelled_out = first..terms.len();
            }
        }
        let mut phrases: HashMap<String, usize> = HashMap::new();
        let mut stems = Vec::new();
        for (index, term) in terms.iter().enumerate() {
            if term.term.is_empty() || term.term.split(' ').count() > MAX_WORDS {
                continue;
            }
            let key = lexicon_words(&term.term);
            if !term.whole_word {
                stems.push((key.clone(), index));
            }
            // The first term of a phrase wins it: curated terms come first.
            phrases.entry(key.join(" ")).or_insert(index);
        }
        // Truncations of long words (`MULTIVIT`, `IBUPROF`), where only one
        // term has them.
        let mut cuts: HashMap<String, Option<usize>> = HashMap::new();
        for (index, term) in terms.iter().enumerate() {
            if term.term.contains(' ') || term.term.len() < 8 || spelled_out.contains(&index) {
                continue;
            }
            for end in 6..term.term.len() {
                let cut = &term.term[..end];
                if !term.term.is_char_boundary(end) || phrases.contains_key(cut) {
                    continue;
                }
                // Two terms that decide alike (ACETAMINOPHEN and its Spanish
                // ACETAMINOFEN) share a cut; two that decide differently lose it.
                let decides = |t: &ItemTerm| (t.outcome, t.category.clone());
                cuts.entry(cut.to_string())
                    .and_modify(|found| {
                        if found.is_some_and(|other| {
                            terms[other].term != term.term && decides(&terms[other]) != decides(term)
                        }) {
                            *found = None;
                        }
                    })
                    .or_insert(Some(index));
            }
        }
        phrases.extend(cuts.into_iter().filter_map(|(cut, index)| index.map(|i| (cut, i))));
        // Every word is known (a line's own word is never read as another);
        // only the words of terms not spelled out are what an unknown word
        // may be an abbreviation or a misreading of.
        let mut vocabulary = std::collections::HashSet::new();
        let mut readable = std::collections::HashSet::new();
        for (index, term) in terms.iter().enumerate() {
            for word in lexicon_words(&term.term) {
                if word.len() < 4 || !word.bytes().all(|b| b.is_ascii_alphabetic()) {
                    continue;
                }
                if !spelled_out.contains(&index) {
                    readable.insert(word.clone());
                }
                vocabulary.insert(word);
            }
        }
        let mut skeletons: HashMap<String, Option<String>> = HashMap::new();
        for word in &readable {
            let key = skeleton(word);
            if key.len() < 3 {
                continue;
            }
            skeletons
                .entry(key)
                .and_modify(|found| {
                    if found.as_ref().is_some_and(|other| other != word) {
                        *found = None;
                    }
                })
                .or_insert(Some(word.clone()));
        }
        let mut near: HashMap<String, Vec<String>> = HashMap::new();
        for word in readable.iter().filter(|w| w.len() >= NEAR_MIN_LETTERS) {
            for form in one_letter_out(word) {
                let words = near.entry(form).or_default();
                if !words.contains(word) {
                    words.push(word.clone());
                }
            }
        }
        let mut long_words: Vec<Vec<(String, LetterCounts)>> = Vec::new();
        for word in readable.iter().filter(|w| w.len() + 2 >= TWO_MISREADINGS_MIN_LETTERS) {
            if long_words.len() <= word.len() {
                long_words.resize_with(word.len() + 1, Vec::new);
            }
            long_words[word.len()].push((word.clone(), letter_counts(word)));
        }
        let english = CommonWords::shared()?;
        Ok(ItemLexicon { terms, phrases, stems, near, vocabulary, skeletons, english, long_words })
    }

    /// How many terms it holds.
    pub fn len(&self) -> usize {
        self.terms.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// Every term, for the checks of its sources.
    pub fn terms(&self) -> &[ItemTerm] {
        &self.terms
    }

    /// The word `word` is an OCR misreading of, when it can be a misreading
    /// of exactly one word of the lexicon, six letters at least.
    #[cfg(test)]
    fn misread_word(&self, word: &str) -> Option<String> {
        match self.misread_candidates(word).as_slice() {
            [only] => Some(only.clone()),
            _ => None,
        }
    }

    /// The one word of the lexicon that a long unknown word is two letters
    /// away from (`MYOROCORTISONE` is `HYDROCORTISONE`): ten letters or
    /// more, where two misread letters still leave most of the word, and
    /// only when no other word of the lexicon is as near.
    fn misread_twice(&self, word: &str) -> Option<String> {
        if word.len() < TWO_MISREADINGS_MIN_LETTERS || !word.bytes().all(|b| b.is_ascii_alphabetic()) {
            return None;
        }
        let counts = letter_counts(word);
        let lengths = word.len() - 2..=word.len() + 2;
        let mut near = lengths
            .filter_map(|length| self.long_words.get(length))
            .flatten()
            .filter(|(_, known_counts)| bag_distance(&counts, known_counts) <= 2)
            .filter(|(known, _)| strsim::levenshtein(word, known) <= 2);
        match (near.next(), near.next()) {
            (Some((only, _)), None) => Some(only.clone()),
            _ => None,
        }
    }

    /// Every word of the lexicon, six letters at least, that `word` can be
    /// an OCR misreading of, in a stable order.
    fn misread_candidates(&self, word: &str) -> Vec<String> {
        if word.len() < NEAR_MIN_LETTERS || !word.bytes().any(|b| b.is_ascii_alphabetic()) {
            return Vec::new();
        }
        let mut found: Vec<String> = one_letter_out(word)
            .filter_map(|form| self.near.get(&form))
            .flatten()
            .filter(|candidate| misreading(word, candidate))
            .cloned()
            .collect();
        found.sort_unstable();
        found.dedup();
        found
    }

    /// Whether `word` alone is a term whose outcome is not `ineligible`
    /// (a medicine, a brand of one, a medical good).
    fn is_care_on_its_own(&self, word: &str) -> bool {
        self.phrases.get(word).is_some_and(|&index| self.terms[index].outcome != Outcome::Ineligible)
    }

    /// Of several words an unknown word can be a misreading of, the one
    /// that makes a phrase of the lexicon with the word before or after it
    /// (`MEATING PAD` is `HEATING PAD`, though `MEATING` could also be
    /// `SEATING`); `None` unless exactly one does.
    fn misread_in_context(&self, words: &[String], at: usize, candidates: Vec<String>) -> Option<String> {
        if candidates.len() < 2 {
            return None;
        }
        let known = |phrase: String| {
            self.phrases.contains_key(&phrase) || singulars(&phrase).iter().any(|s| self.phrases.contains_key(s))
        };
        let mut fitting = candidates.into_iter().filter(|candidate| {
            let after = words.get(at + 1).is_some_and(|next| known(format!("{candidate} {next}")));
            let before = at > 0 && known(format!("{} {candidate}", words[at - 1]));
            after || before
        });
        match (fitting.next(), fitting.next()) {
            (Some(only), None) => Some(only),
            _ => None,
        }
    }

    /// What a line is, by the term that names it: its outcome and
    /// category. A sun product below the reference data's factor (a tanning
    /// oil of SPF 4) is not the sunscreen that is medical care; it may be
    /// bought for either, so a reviewer decides.
    pub fn decide(&self, description: &str) -> Option<(Outcome, &str)> {
        let term = self.classify(description)?;
        let below_factor = || stated_spf(description).is_some_and(|spf| spf < MINIMUM_SPF);
        if term.category == "sunscreen" && term.outcome == Outcome::Eligible && below_factor() {
            return Some((Outcome::NeedsReview, term.category.as_str()));
        }
        Some((term.outcome, term.category.as_str()))
    }

    /// The term that decides a line, if any names it.
    /// Whether `word` (canonical, upper case) is a word of some term: a
    /// receipt line's first word that is one may be the product's, even
    /// where the store prints it on most lines (`GNC`, `ROSES`).
    pub fn knows_word(&self, word: &str) -> bool {
        self.vocabulary.contains(word)
    }

    pub fn classify(&self, description: &str) -> Option<&ItemTerm> {
        // A word the lexicon does not know, which abbreviates exactly one
        // word it does, consonants kept (`BNDG`, `SOFTNR`, `SUNSCRN`), is read
        // as that word.
        // A word OCR misread by one letter (`IBUPR0FEN`, `MYDROCORTISONE`)
        // is read as the one word it can be a misreading of.
        // Each word with the misreadings it could be, where they were
        // looked for, so the neighbours' pass below does not look again.
        let (expanded, candidates): (Vec<String>, Vec<Option<Vec<String>>>) = lexicon_words(description)
            .into_iter()
            .map(|word| {
                if word.len() < 3 || self.vocabulary.contains(&word) || !word.is_ascii() {
                    return (word, None);
                }
                if word.bytes().all(|b| b.is_ascii_alphabetic())
                    && let Some(Some(full)) = self.skeletons.get(&skeleton(&word))
                    && abbreviates(&word, full)
                {
                    return (full.clone(), None);
                }
                let mut candidates = self.misread_candidates(&word);
                // A common English word is what it says, not a misreading
                // of a word that is care on its own (`MEASURING` is not the
                // aspirin brand `MEASURIN`); it may still be read as a
                // neighbouring form of a goods word.
                if self.english.is_english(&word) {
                    candidates.retain(|candidate| !self.is_care_on_its_own(candidate));
                }
                if let [only] = candidates.as_slice() {
                    return (only.clone(), None);
                }
                match self.misread_twice(&word) {
                    Some(full) => (full, None),
                    None => (word, Some(candidates)),
                }
            })
            .unzip();
        // A word still unknown may be told apart by its neighbours.
        let expanded: Vec<String> = candidates
            .into_iter()
            .enumerate()
            .map(|(at, candidates)| {
                let word = &expanded[at];
                if self.vocabulary.contains(word) || !word.is_ascii() {
                    return word.clone();
                }
                let candidates = candidates.unwrap_or_else(|| self.misread_candidates(word));
                self.misread_in_context(&expanded, at, candidates).unwrap_or_else(|| word.clone())
            })
            .collect();
        let words: Vec<&str> = expanded.iter().map(String::as_str).collect();
        // The highest priority, then the medical side (a medical word
        // outranks a goods word of the same priority: `LICE SHAMPOO` is a
        // pediculicide, `NICOTINE GUM` a stop-smoking aid), then the longest
        // span, then the term listed first.
        let mut best: Option<Rank> = None;
        let consider = |best: &mut Option<Rank>, index: usize, span: usize| {
            let term = &self.terms[index];
            let rank = Rank { priority: term.priority, side: medical_side(term.outcome), span, first: Reverse(index) };
            if best.is_none_or(|b| rank > b) {
                *best = Some(rank);
            }
        };
        for start in 0..words.len() {
            for span in 1..=MAX_WORDS.min(words.len() - start) {
                let phrase = words[start..start + span].join(" ");
                if let Some(&index) = self.phrases.get(&phrase) {
                    consider(&mut best, index, span);
                } else if let Some(&index) = singulars(&phrase).iter().find_map(|s| self.phrases.get(s)) {
                    consider(&mut best, index, span);
                }
            }
            for (stem, index) in &self.stems {
                let n = stem.len();
                if start + n <= words.len()
                    && words[start..start + n - 1].iter().zip(stem).all(|(w, s)| w == s)
                    && words[start + n - 1].starts_with(stem[n - 1].as_str())
                {
                    consider(&mut best, *index, n);
                }
            }
        }
        best.map(|rank| &self.terms[rank.first.0])
    }
}

/// How a matched term ranks against the others on its line; fields in
/// order of weight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Rank {
    priority: u8,
    side: u8,
    span: usize,
    first: Reverse<usize>,
}

/// A medical term (2) outranks a dual-purpose one (1), which outranks
/// everyday goods (0), at the same priority.
fn medical_side(outcome: Outcome) -> u8 {
    match outcome {
        Outcome::Eligible => 2,
        Outcome::NeedsReview => 1,
        Outcome::Ineligible => 0,
    }
}

/// The singular forms a phrase whose last word looks plural may have
/// (`GREEN BEANS` → `GREEN BEAN`; [`singular_forms`]).
fn singulars(phrase: &str) -> Vec<String> {
    let (head, last) = match phrase.rsplit_once(' ') {
        Some((head, last)) => (Some(head), last),
        None => (None, phrase),
    };
    singular_forms(last)
        .map(|one| match head {
            Some(head) => format!("{head} {one}"),
            None => one.into_owned(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classify(line: &str) -> Option<(Outcome, String)> {
        ItemLexicon::shared().unwrap().classify(line).map(|t| (t.outcome, t.category.clone()))
    }

    #[test]
    fn it_holds_thousands_of_terms_each_with_a_source() {
        let lexicon = ItemLexicon::shared().unwrap();
        assert!(lexicon.len() > 5_000, "{} terms", lexicon.len());
        assert!(lexicon.terms().iter().all(|t| !t.source.trim().is_empty()));
    }

    #[test]
    fn ingredients_and_brands_are_medicines_and_goods_are_not() {
        assert_eq!(classify("ACETAMINOPHEN 500MG CAPLETS"), Some((Outcome::Eligible, "otc_medicine".into())));
        assert_eq!(classify("CLARITIN 24HR 30CT"), Some((Outcome::Eligible, "otc_medicine".into())));
        assert_eq!(classify("SOUR CREAM 16OZ").map(|c| c.0), Some(Outcome::Ineligible));
        assert_eq!(classify("BANANAS").map(|c| c.0), Some(Outcome::Ineligible), "a plural finds its singular");
    }

    #[test]
    fn goods_of_music_game_decor_and_auto_stores_are_known_and_their_medical_homonyms_are_not() {
        // The twentieth round's WordNet roots, and hyphenated lemmas glued.
        for line in
            ["GC ACOUSTIC GUITAR 199.99", "KK CLOCK WALL", "AZ OIL FILTER", "GS WEBCAM", "GS TSHIRT", "AFTERSHAVE"]
        {
            assert_eq!(classify(line).map(|c| c.0), Some(Outcome::Ineligible), "{line}");
        }
        // An organ of the body is no instrument, ear plugs are no
        // electronics, and reading glasses stay eyewear.
        assert_ne!(classify("ORGAN"), Some((Outcome::Ineligible, "toys_and_gifts".into())));
        assert_ne!(classify("EARPLUG"), Some((Outcome::Ineligible, "electronics".into())));
        assert_eq!(classify("READING GLASSES 2.00").map(|c| c.0), Some(Outcome::Eligible));
    }

    #[test]
    fn a_book_about_care_is_a_book_and_a_cars_brake_pads_are_no_pads() {
        // The twenty-first round's curated terms, each outranking the word
        // of care beside it.
        assert_eq!(classify("FIRST AID MANUAL BOOK").map(|c| c.0), Some(Outcome::Ineligible));
        assert_eq!(classify("DIABETES COOKBOOK").map(|c| c.0), Some(Outcome::Ineligible));
        assert_eq!(classify("CERAMIC BRAKE PADS").map(|c| c.0), Some(Outcome::Ineligible));
        // ...but not every word of care: Braille is reviewed (Publication
        // 502), a rollator's brakes stay a rollator.
        assert_eq!(classify("BRAILLE BOOK").map(|c| c.0), Some(Outcome::NeedsReview));
        assert_eq!(classify("MS ROLLATOR SEAT BRAKES").map(|c| c.0), Some(Outcome::Eligible));
        // A breast pump named by its maker and model is no shoe.
        assert_eq!(classify("MEDELA PUMP IN STYLE").map(|c| c.0), Some(Outcome::Eligible));
        assert_eq!(classify("LANSINOH BREASTMILK BAGS").map(|c| c.0), Some(Outcome::Eligible));
    }

    #[test]
    fn a_medical_word_outranks_a_goods_word_on_the_same_line() {
        // WordNet knows creams; hydrocortisone makes it a medicine.
        assert_eq!(classify("HYDROCORTISONE CREAM 1OZ").map(|c| c.0), Some(Outcome::Eligible));
        // A curated override outranks both.
        assert_eq!(classify("NON PRESCRIPTION SUNGLASSES").map(|c| c.0), Some(Outcome::Ineligible));
        // At the same priority the medical term wins, whatever the spans:
        // LICE and SHAMPOO, NICOTINE and GUM are curated alike.
        assert_eq!(classify("KRO HEAD LICE SHAMPOO").map(|c| c.0), Some(Outcome::Eligible));
        assert_eq!(classify("PR LICE SHAMPOO 4OZ").map(|c| c.0), Some(Outcome::Eligible));
        assert_eq!(classify("NICORETTE GUM 4MG 100CT"), Some((Outcome::Eligible, "smoking_cessation".into())));
        assert_eq!(classify("BUBBLE GUM 5PK").map(|c| c.0), Some(Outcome::Ineligible), "gum alone is candy");
        // A tobacco brand outranks the medical sense of an ingredient.
        assert_eq!(classify("NEWPORT MENTHOL").map(|c| c.0), Some(Outcome::Ineligible));
    }

    #[test]
    fn a_line_states_its_sun_protection_factor_glued_or_apart() {
        assert_eq!(stated_spf("SEG TANNING OIL SPF 4        6.99 T"), Some(4));
        assert_eq!(stated_spf("NEUTROGENA SPF70 LOTION"), Some(70));
        assert_eq!(stated_spf("SUNSCREEN LOTION 8OZ"), None);
        assert_eq!(stated_spf("SPF LIP BALM"), None);
    }

    #[test]
    fn a_term_ranks_by_priority_then_side_then_span() {
        let rank = |priority, outcome, span| Rank { priority, side: medical_side(outcome), span, first: Reverse(0) };
        assert!(rank(2, Outcome::Ineligible, 1) > rank(1, Outcome::Eligible, 3), "priority first");
        assert!(rank(1, Outcome::Eligible, 1) > rank(1, Outcome::Ineligible, 3), "then the medical side");
        assert!(rank(1, Outcome::NeedsReview, 1) > rank(1, Outcome::Ineligible, 2), "dual-purpose above goods");
        assert!(rank(1, Outcome::Ineligible, 2) > rank(1, Outcome::Ineligible, 1), "then the span");
    }

    #[test]
    fn truncated_medical_words_are_found_and_short_cuts_are_not() {
        assert_eq!(classify("IBUPROF 200MG").map(|c| c.0), Some(Outcome::Eligible));
        assert_eq!(classify("ACETAMIN ER").map(|c| c.0), Some(Outcome::Eligible));
        // Five letters are too few to be sure of a word.
        assert_eq!(classify("ACETA XR"), None);
        // Goods words are cut short too.
        assert_eq!(classify("WELBY MULTIVIT 100").map(|c| c.0), Some(Outcome::Ineligible));
    }

    #[test]
    fn a_word_misread_by_one_letter_is_found_when_nothing_else_is() {
        // OCR: a letter wrong, missing, extra.
        assert_eq!(classify("IBUPR0FEN 200MG").map(|c| c.0), Some(Outcome::Eligible));
        assert_eq!(classify("LORATADNE 10MG").map(|c| c.0), Some(Outcome::Eligible));
        assert_eq!(classify("ACETAMINOPHENN").map(|c| c.0), Some(Outcome::Eligible));
        // Two letters off is another word, not a misreading.
        assert_eq!(classify("IBXPR0FEN"), None);
    }

    #[test]
    fn a_common_english_word_is_not_a_misreading_of_a_word_of_care() {
        // MEASURING is one letter from the aspirin brand MEASURIN, and a
        // word in its own right: measuring cups are kitchen goods.
        let lexicon = ItemLexicon::shared().unwrap();
        assert!(lexicon.misread_candidates("MEASURING").contains(&"MEASURIN".to_string()));
        assert_ne!(classify("MEASURING CUPS STEEL").map(|c| c.0), Some(Outcome::Eligible));
        assert_eq!(classify("MEASURIN 325MG").map(|c| c.0), Some(Outcome::Eligible), "the brand itself");
    }

    #[test]
    fn a_misreading_of_several_words_is_told_apart_by_its_neighbour() {
        // MEATING is one letter from HEATING and from SEATING: only one of
        // them makes a phrase with PAD.
        let lexicon = ItemLexicon::shared().unwrap();
        assert!(lexicon.misread_candidates("MEATING").len() >= 2, "{:?}", lexicon.misread_candidates("MEATING"));
        assert_eq!(lexicon.misread_word("MEATING"), None, "alone it is ambiguous");
        assert_eq!(classify("MEATING PAD 12X15"), Some((Outcome::Eligible, "medical_supplies".to_string())));
        assert_eq!(classify("MEATING 4.99"), None, "with no neighbour to tell, it stays unknown");
    }

    #[test]
    fn a_long_word_misread_twice_is_found_and_a_short_one_is_not() {
        assert_eq!(classify("MYOROCORTISONE CREAM 1%"), Some((Outcome::Eligible, "otc_medicine".to_string())));
        let lexicon = ItemLexicon::shared().unwrap();
        assert_eq!(lexicon.misread_twice("BANDAGZZ"), None, "eight letters are too few");
        assert_eq!(lexicon.misread_twice("QQQQQQQQQQQQ"), None);
    }

    #[test]
    fn counts_and_sizes_glued_to_a_word_are_split_off_and_misreadings_stay_whole() {
        assert_eq!(
            lexicon_words("SPF30 200MG 4PK IBUPR0FEN 5W30"),
            ["SPF", "30", "200", "MG", "4", "PK", "IBUPR0FEN", "5", "W", "30"]
        );
        assert_eq!(classify("SIG CARE SPF30 LOTION").map(|c| c.0), Some(Outcome::Eligible), "SPF outranks lotion");
    }

    #[test]
    fn till_abbreviations_find_the_one_word_they_abbreviate() {
        assert_eq!(skeleton("SHREDDED"), "SRD");
        assert_eq!(skeleton("CHICKEN"), skeleton("CHKN"));
        assert!(abbreviates("BNDG", "BANDAGE") && !abbreviates("BANDAGE", "BNDG") && !abbreviates("NDG", "BANDAGE"));
        assert!(!abbreviates("SNUS", "SINUS"), "one letter short is another word");
        assert_ne!(classify("SNUS GENERAL WHITE").map(|c| c.0), Some(Outcome::Eligible));
        assert_eq!(classify("SIG CARE ADHESIVE BNDG").map(|c| c.0), Some(Outcome::Eligible));
        assert_eq!(classify("HEB SUNSCRN SPF70").map(|c| c.0), Some(Outcome::Eligible));
        assert_eq!(classify("KS ADVANCED TOOTHPST").map(|c| c.0), Some(Outcome::Ineligible));
    }

    #[test]
    fn only_an_ocr_kind_of_misreading_is_trusted() {
        assert!(misreading("IBUPR0FEN", "IBUPROFEN"), "a letter read as a digit");
        assert!(misreading("LORATADNE", "LORATADINE") && misreading("ACETAMINOPHENN", "ACETAMINOPHEN"));
        // A clean word one letter from another word is that other word.
        assert!(!misreading("GINGER", "FINGER") && !misreading("TRIPLE", "TRIFLE") && !misreading("HEALTH", "SHEATH"));
        // In a long word a letter read as another letter is OCR's.
        assert!(misreading("MYDROCORTISONE", "HYDROCORTISONE") && misreading("ANTACIO", "ANTACID"));
        assert_eq!(classify("MYDROCORTISONE CREAM 102").map(|c| c.0), Some(Outcome::Eligible));
        assert_eq!(classify("GE SPLINT FINGER").map(|c| c.0), Some(Outcome::Eligible));
    }

    #[test]
    fn a_toiletry_stays_a_toiletry_beside_a_medical_word() {
        assert_eq!(classify("RA MOUTHWASH ANTISEPTIC 1L").map(|c| c.0), Some(Outcome::Ineligible));
        assert_eq!(classify("WG MELATONIN 5MG SLEEP AID").map(|c| c.0), Some(Outcome::Ineligible), "a supplement");
        assert_eq!(classify("WEGMANS LIP BALM SPF 15").map(|c| c.0), Some(Outcome::Eligible), "SPF lip balm");
    }

    #[test]
    fn singular_forms() {
        assert!(singulars("COOKIES").contains(&"COOKIE".to_string()));
        assert!(singulars("BERRIES").contains(&"BERRY".to_string()));
        assert!(singulars("TOMATOES").contains(&"TOMATO".to_string()));
        assert_eq!(singulars("GREEN BEANS"), vec!["GREEN BEAN".to_string()]);
        assert!(singulars("GLASS").is_empty());
    }
}
