//! What a practice's name says when it names no care. Under the category
//! code of physicians, which elective and cosmetic practices charge under
//! too, a name that says what care (a specialty, a field of care) decides;
//! a name that says nothing but who or where the practice is also tells a
//! physician's practice from a cosmetic one, whose names say what they sell
//! (`TUMMY TUCK CENTER`, `MENS VITALITY`). Two shapes are read here:
//!
//! - a practice named for its doctor: `DR JANE ROE MD PA`;
//! - a practice named for a place or a person and the kind of practice it
//!   is: `HOLBAEK MEDICAL CENTRE`, `KONGSVINGER PHYSICIAN PARTNERS`.
//!
//! A word is a name when it is not a common English word (WordNet 3.0,
//! `data/lexicon/generated/english_words.txt`); the kinds of practice are
//! `data/lexicon/practice_words.csv`, each word with its source.

use std::sync::OnceLock;

use crate::english::CommonWords;
use crate::error::EngineError;
use crate::normalize::STATES;
use crate::reference::ReferenceError;
use crate::signals::Signal;

/// Category codes of physicians (not elsewhere classified) and of medical
/// and dental laboratories: what hormone, "vitality", weight-loss,
/// cosmetic-surgery and elective-scan practices charge under too, each
/// named by words no list keeps up with (`LOW T CENTER`, `TUMMY TUCK`,
/// `WHOLE BODY SCAN`). Under them a purchase is `eligible` only when its
/// name also says what care: a medical word, or a field of care, or it is
/// named for its doctor or for a place and its kind and nothing else
/// (`DR JANE ROE MD`, `HOLBAEK MEDICAL CENTRE`).
pub const ELECTIVE_PRACTICE_CODES: [&str; 2] = ["8011", "8071"];

/// Credentials that count as medical words only beside `DR`: each is also
/// an ordinary abbreviation.
pub const CREDENTIALS_BESIDE_DR: &[&str] = &["MD", "AUD", "PT", "LAC", "PHD", "NP"];

/// Credentials and their cuts a doctor's name may end with (`MD PA`,
/// `MD FACS`, `MD P` for a cut `PA` or `PC`).
/// The fellowships of the American colleges of physicians a doctor prints
/// after `MD` (`FACS` surgeons, `FACOG` obstetricians and gynecologists,
/// `FACP` physicians, `FAAP` pediatrics, `FACC` cardiology, `FACEP`
/// emergency physicians, `FAAFP` family physicians) are credentials too.
const NAME_CREDENTIALS: &[&str] = &[
    "MD", "DO", "PA", "PC", "FACS", "FACOG", "FACP", "FAAP", "FACC", "FACEP", "FAAFP", "PLLC", "LLC", "INC", "P", "F",
];

/// A naturopathic doctor's credentials (`ND`, `NMD`): after `DR` they say
/// the practice is naturopathy, not a physician's.
const NATUROPATH_CREDENTIALS: &[&str] = &["ND", "NMD"];

/// The words of a practice's kind (`MEDICAL`, `CENTRE`, `PARTNERS`), its
/// legal form and the small words between names, each with its source.
const PRACTICE_WORDS_CSV: &str = include_str!("../../data/lexicon/practice_words.csv");

const PRACTICE_WORDS_FILE: &str = "data/lexicon/practice_words.csv";

/// A cut word at the end of a name is read as the practice word it begins
/// only from this many letters (`CLINI`, `GROU`, `ASSOCIA`); a shorter one
/// (`MEDICAL S`) may begin anything.
const MIN_PRACTICE_CUT: usize = 3;

/// A name word is at least this long: shorter words are initials,
/// abbreviations or cuts (`HRT`, `TRT`, `MS`), which say too little.
const MIN_NAME: usize = 4;

#[derive(serde::Deserialize)]
struct PracticeWordRow {
    word: String,
    kind: String,
    source: String,
}

/// The two lists a practice's name is read against.
#[derive(Debug)]
pub struct PracticeNames {
    english: &'static CommonWords,
    /// Words that say what kind of practice it is.
    kinds: Vec<String>,
    /// Legal forms and joining words: allowed, but saying nothing.
    others: Vec<String>,
}

impl PracticeNames {
    /// The lists of this build, loaded once per process, loudly.
    pub fn shared() -> Result<&'static PracticeNames, EngineError> {
        static NAMES: OnceLock<Result<PracticeNames, String>> = OnceLock::new();
        match NAMES.get_or_init(|| PracticeNames::load().map_err(|err| err.to_string())) {
            Ok(names) => Ok(names),
            Err(reason) => Err(ReferenceError { file: PRACTICE_WORDS_FILE, reason: reason.clone() }.into()),
        }
    }

    fn load() -> Result<PracticeNames, String> {
        let english = CommonWords::shared().map_err(|err| err.to_string())?;
        let rows = crate::reference::parse::<PracticeWordRow>(PRACTICE_WORDS_FILE, PRACTICE_WORDS_CSV)
            .map_err(|err| err.reason)?;
        let (mut kinds, mut others) = (Vec::new(), Vec::new());
        for row in rows {
            if row.source.trim().is_empty() {
                return Err(format!("'{}' names no source", row.word));
            }
            match row.kind.as_str() {
                "practice" => kinds.push(row.word),
                "business_form" | "joiner" => others.push(row.word),
                other => return Err(format!("'{}' has kind '{other}', which is not one", row.word)),
            }
        }
        if kinds.is_empty() {
            return Err("no practice words".into());
        }
        Ok(PracticeNames { english, kinds, others })
    }

    /// Every word of `data/lexicon/practice_words.csv`, a hand-written word
    /// list (the held-out leak check reads it).
    pub fn practice_words(&self) -> impl Iterator<Item = &str> {
        self.kinds.iter().chain(&self.others).map(String::as_str)
    }

    /// Whether `word` is a common English word (`CommonWords`), rather
    /// than a name.
    pub fn is_english(&self, word: &str) -> bool {
        self.english.is_english(word)
    }

    /// A practice named for a place or a person and its kind, and nothing
    /// else (`HOLBAEK MEDICAL CENTRE`, `ARKLOW MEDICAL CLINI` cut short):
    /// every word of the name is a practice word, a legal form or joining
    /// word, or a name (a word of four letters or more that is not common
    /// English), with at least one name and one practice word; the last
    /// word may be a practice word cut short. `found` are the signals the
    /// vocabulary read: any but a generic medical word (a specialty, a field
    /// of care, a word of non-medical use) and the name says more than this.
    /// Returns the practice's kind, from its first practice word to its last.
    pub fn named_practice<'a>(&self, text: &'a str, found: &[(Signal, &str)]) -> Option<&'a str> {
        if !found.iter().all(|(signal, _)| matches!(signal, Signal::Medical { specialty: false, .. })) {
            return None;
        }
        let words = name_words(text);
        let last = words.len().checked_sub(1)?;
        let (mut names, mut kind) = (0, None);
        for (at, (start, word)) in words.iter().enumerate() {
            let is_kind = self.kinds.iter().any(|k| k == word)
                || at == last
                    && word.len() >= MIN_PRACTICE_CUT
                    && self.kinds.iter().any(|k| k.len() > word.len() && k.starts_with(word));
            if is_kind {
                let end = start + word.len();
                kind = Some(kind.map_or((*start, end), |(from, _)| (from, end)));
            } else if self.others.iter().any(|o| o == word) {
            } else if word.len() >= MIN_NAME && word.chars().all(|c| c.is_ascii_alphabetic()) && !self.is_english(word)
            {
                names += 1;
            } else {
                return None;
            }
        }
        let (from, to) = kind?;
        (names > 0).then(|| &text[from..to])
    }

    /// A practice named for its doctor without `DR`: two to four names
    /// (words of three letters or more that are not common English), then
    /// `MD` or `DO` and only credentials, or the city and state the bank
    /// prints, after it (`JANE ROEBUCK MD PC`). Two names at least, since
    /// `MD` is also Maryland behind a one-word city (`ANNAPOLIS MD`); and
    /// nothing the vocabulary read may stand beside it (`found`; `MD`
    /// itself counts as a word only beside `DR`).
    pub fn credentialed_physician<'a>(&self, text: &'a str, found: &[(Signal, &str)]) -> Option<&'a str> {
        if !found.is_empty() {
            return None;
        }
        let words = unmasked_words(text);
        let at = words.iter().position(|(_, w)| *w == "MD" || *w == "DO")?;
        let (names, after) = (&words[..at], &words[at + 1..]);
        let is_name = |w: &str| w.len() >= 3 && w.chars().all(|c| c.is_ascii_alphabetic()) && !self.is_english(w);
        let credentials = after.iter().take_while(|(_, w)| NAME_CREDENTIALS.contains(w)).count();
        let place = &after[credentials..];
        let place_ok = place.is_empty() || place.len() == 2 && STATES.contains(&place[1].1);
        let named = (2..=4).contains(&names.len())
            && names.iter().all(|(_, w)| is_name(w))
            && names.iter().any(|(_, w)| w.len() >= MIN_NAME)
            && place_ok;
        let (from, _) = *names.first()?;
        let (at_credential, credential) = words[at];
        named.then(|| &text[from..at_credential + credential.len()])
    }
}

/// The words of `text` with where each starts, without the masked card
/// number a bank prints in front (`XXXXX1234`).
fn unmasked_words(text: &str) -> Vec<(usize, &str)> {
    let mut words = Vec::with_capacity(8);
    let mut from = 0;
    for word in text.split(' ') {
        words.push((from, word));
        from += word.len() + 1;
    }
    let masked = |w: &str| w.starts_with('X') && w.trim_start_matches('X').chars().all(|c| c.is_ascii_digit());
    let skip = words.iter().take_while(|(_, w)| masked(w) && w.len() > 1).count();
    words.drain(..skip);
    words
}

/// The words of a name with where each starts in `text`: without the
/// masked card number a bank prints in front (`XXXXX1234`), and without
/// the city and state it prints behind (`RALEIGH NC`).
fn name_words(text: &str) -> Vec<(usize, &str)> {
    let mut words = unmasked_words(text);
    words.truncate(words.len() - place_words(words.len(), words.last().map(|(_, w)| *w)));
    words
}

/// How many words at the end of a name of `len` words, ending in `last`,
/// are where the bank says the practice is: a state code and the one-word
/// city before it, or none. A city of two words (`SANTA FE NM`) leaves a
/// word behind, which makes the name read as saying more than it does: a
/// review, never a wrong `eligible`.
fn place_words(len: usize, last: Option<&str>) -> usize {
    if len >= 3 && last.is_some_and(|w| STATES.contains(&w)) { 2 } else { 0 }
}

/// A practice named for its doctor and for nothing else: `DR` (or `DRS`)
/// and then only names, credentials and where the bank puts the city and
/// state (`DR JANE ROE MD PA TULSA OK`, `DRS MALONE AND ORTIZ`), with no
/// word the vocabulary knows but a credential (`found`). A short word after
/// a name is read as a cut, not a name (`DR JOHN ROE PLA` may be plastic
/// surgery, `DR JOHN ROE M` a med spa), and so is a name of three letters
/// or fewer at the end: neither is named for its doctor alone. The words
/// before `DR` are what the bank and the practice print in front
/// (`CONSULTORIO DR RAMIREZ`), already read for signals.
pub fn named_physician<'a>(text: &'a str, found: &[(Signal, &str)]) -> Option<&'a str> {
    if !found.iter().all(|(_, word)| CREDENTIALS_BESIDE_DR.contains(word) || NAME_CREDENTIALS.contains(word)) {
        return None;
    }
    let at = text.split(' ').position(|w| w == "DR" || w == "DRS")?;
    let from = text.split(' ').take(at).map(|w| w.len() + 1).sum::<usize>();
    let after: Vec<&str> = text[from..].split(' ').skip(1).collect();
    // `MD` or `DO` at the end is the doctor's credential first (`DR JAN
    // BAKKER MD`), and Maryland behind a city (`DR JANE ROEBUCK BALTIMORE
    // MD`) when the name also stands that way.
    // A final `ND` is a naturopath's doctorate before it is North Dakota
    // (`DR SOFIA OLIVEIRA ND`): naturopathy is a review, so the name is
    // not read as a physician's (a physician in a North Dakota town waits
    // for a person too, which costs no wrong `eligible`).
    if after.last().is_some_and(|w| NATUROPATH_CREDENTIALS.contains(w)) || after.contains(&"NMD") {
        return None;
    }
    let placed = &after[..after.len() - place_words(after.len(), after.last().copied())];
    let ends_in_credential = after.last().is_some_and(|w| NAME_CREDENTIALS.contains(w));
    (names_a_doctor(placed) || ends_in_credential && names_a_doctor(&after)).then_some(&text[from..])
}

/// Whether the words after `DR` are a name (one to four words, the last of
/// four letters or more, none after the first shorter than two) and then
/// up to three credentials.
fn names_a_doctor(after: &[&str]) -> bool {
    let names = after.iter().take_while(|w| !NAME_CREDENTIALS.contains(w)).count();
    let (name, credentials) = after.split_at(names);
    (1..=4).contains(&name.len())
        && name.iter().all(|w| w.chars().all(|c| c.is_ascii_alphabetic()))
        && name.last().is_some_and(|w| w.len() >= MIN_NAME)
        && name.iter().skip(1).all(|w| w.len() >= 2)
        && credentials.len() <= 3
        && credentials.first().is_none_or(|w| w.len() >= 2)
        && credentials.iter().all(|w| NAME_CREDENTIALS.contains(w) || CREDENTIALS_BESIDE_DR.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn physician(text: &str) -> Option<&str> {
        named_physician(text, &[])
    }

    #[test]
    fn a_naturopaths_nd_is_not_north_dakota_behind_a_doctors_name() {
        assert_eq!(physician("DR SOFIA OLIVEIRA ND"), None);
        assert_eq!(physician("DR HANS MOLL NMD PLLC"), None);
        // North Dakota's code behind a city ends the name the same way: a
        // person decides (no wrong `eligible`); another state reads as before.
        assert!(physician("DR JANE ROEBUCK MD FARGO ND").is_none());
        assert!(physician("DR JANE ROEBUCK MD FARGO SD").is_some());
    }

    #[test]
    fn a_practice_named_for_its_doctor_is_read_with_its_credentials_and_city() {
        assert_eq!(physician("DR JANE ROEBUCK MD PA TULSA OK"), Some("DR JANE ROEBUCK MD PA TULSA OK"));
        assert!(physician("DR R VENKATARAMAN MD P").is_some(), "an initial, and a cut credential after one");
        assert!(physician("DRS MALONE AND ORTIZ").is_some());
        assert!(physician("CONSULTORIO DR RAMIREZ").is_some());
        // MD at the end is the credential before it is Maryland: a given
        // name of three letters is no city's leftover.
        assert!(physician("DR JAN BAKKER MD").is_some());
        assert!(physician("DR PIETER DE VRIES MD").is_some(), "a particle inside the name");
        assert!(physician("DR JANE ROEBUCK BALTIMORE MD").is_some(), "and a city in Maryland still reads");
    }

    #[test]
    fn a_cut_or_a_short_word_after_the_name_is_no_doctor_alone() {
        // `PLA` may be plastic surgery, `M` a med spa, `P` either.
        assert_eq!(physician("DR CORNELIUS BLAKE PLA"), None);
        assert_eq!(physician("DR LUCIAN VANTERPOOL M"), None);
        assert_eq!(physician("DR TIBERIUS HOLLOWAY P TULSA OK"), None);
        assert_eq!(physician("JANE ROEBUCK MD"), None, "no DR");
        assert_eq!(physician("DR ONE TWO THREE FOUR FIVE"), None, "more than a name");
    }

    #[test]
    fn a_doctor_beside_a_word_the_vocabulary_knows_is_left_to_that_word() {
        let cosmetic = [(Signal::NonMedical(crate::signals::NonMedical::Cosmetic), "AESTHETICS")];
        assert_eq!(named_physician("DR JANE ROEBUCK AESTHETICS", &cosmetic), None);
        let credential = [(Signal::Medical { category: "medical_services", specialty: false }, "MD")];
        assert!(named_physician("DR JANE ROEBUCK MD", &credential).is_some());
    }

    fn practice(text: &str) -> Option<&str> {
        PracticeNames::shared().unwrap().named_practice(text, &[])
    }

    #[test]
    fn a_practice_named_for_a_place_and_its_kind_is_read_cut_or_whole() {
        assert_eq!(practice("HOLBAEK MEDICAL CENTRE"), Some("MEDICAL CENTRE"));
        assert_eq!(practice("ARKLOW MEDICAL CLINI"), Some("MEDICAL CLINI"), "the last word cut short");
        assert_eq!(practice("XXXXX7575 CARRICKFERGUS IMMEDIAT"), Some("IMMEDIAT"));
        assert_eq!(practice("KONGSVINGER PHYSICIAN PARTNERS RENO NV"), Some("PHYSICIAN PARTNERS"));
        assert_eq!(practice("CENTRO MEDICO HISPAN"), Some("CENTRO MEDICO"), "a name after the kind");
    }

    #[test]
    fn a_practice_whose_name_says_what_it_sells_is_not_named_for_a_place() {
        // Common words say what the practice does, which this reading
        // cannot judge: a review stands.
        assert_eq!(practice("IISALMI TUMMY TUCK CENTER"), None);
        assert_eq!(practice("BUNCRANA MENS CLINIC"), None, "MENS: the possessive of a common word");
        assert_eq!(practice("HUSAVIK VITALITY MEDICAL"), None);
        assert_eq!(practice("LLANGAMMARCH HRT CLINIC"), None, "an abbreviation says too little");
        assert_eq!(practice("HAMMERFEST MEDICAL W"), None, "a cut too short to read");
        assert_eq!(practice("MEDICAL CENTRE"), None, "no name");
        assert_eq!(practice("HOLBAEK"), None, "no kind");
    }

    #[test]
    fn a_doctor_named_without_dr_needs_two_names_and_a_physicians_credential() {
        let names = PracticeNames::shared().unwrap();
        let read = |text| names.credentialed_physician(text, &[]);
        assert_eq!(read("JANIS BERZINSKI MD"), Some("JANIS BERZINSKI MD"));
        assert_eq!(read("XXXXX1234 AIVARS KALNINS MD PC"), Some("AIVARS KALNINS MD"));
        assert_eq!(read("OKSANA KOVAL DO TULSA OK"), Some("OKSANA KOVAL DO"));
        assert_eq!(read("JANIS BERZINSKI MD FACOG"), Some("JANIS BERZINSKI MD"), "a college fellowship after MD");
        assert_eq!(read("ANNAPOLIS MD"), None, "one word before MD: a city in Maryland");
        assert_eq!(read("GLEN BURNIE MD"), None, "common words: a place");
        assert_eq!(read("JANIS BERZINSKI MD AESTHETICS"), None, "a word after the credential");
        assert_eq!(read("JANIS BERZINSKI PA"), None, "PA alone is Pennsylvania, or a physician assistant");
        let cosmetic = [(Signal::NonMedical(crate::signals::NonMedical::Cosmetic), "LASER")];
        assert_eq!(names.credentialed_physician("JANIS BERZINSKI LASER MD", &cosmetic), None);
    }

    #[test]
    fn the_lists_load_and_tell_names_from_words() {
        let names = PracticeNames::shared().unwrap();
        assert!(names.is_english("TUMMY") && names.is_english("CLINICS") && names.is_english("MENS"));
        assert!(!names.is_english("HOLBAEK") && !names.is_english("KONGSVINGER"));
    }
}
