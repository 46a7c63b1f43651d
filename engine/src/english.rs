//! Common English words: WordNet's lemmas that some synset writes in lower
//! case, with the irregular plurals (`data/lexicon/generated/english_words.txt`,
//! written by `scripts/build_lexicon.py`). They tell a name (a town, a
//! person) from a word that says what a business does, and a word a
//! receipt prints on purpose from a misreading of another. They are never
//! evidence of care themselves.

use std::sync::OnceLock;

use crate::error::EngineError;
use crate::reference::ReferenceError;

/// The common English words, one a line, upper case, sorted.
const ENGLISH_WORDS: &str = include_str!("../../data/lexicon/generated/english_words.txt");

const ENGLISH_WORDS_FILE: &str = "data/lexicon/generated/english_words.txt";

/// The list of this build.
#[derive(Debug)]
pub struct CommonWords {
    words: Vec<&'static str>,
}

impl CommonWords {
    /// The list, loaded once per process, loudly: a list too short or out of
    /// order is a build that lost it.
    pub fn shared() -> Result<&'static CommonWords, EngineError> {
        static WORDS: OnceLock<Result<CommonWords, String>> = OnceLock::new();
        match WORDS.get_or_init(CommonWords::load) {
            Ok(words) => Ok(words),
            Err(reason) => Err(ReferenceError { file: ENGLISH_WORDS_FILE, reason: reason.clone() }.into()),
        }
    }

    fn load() -> Result<CommonWords, String> {
        let words: Vec<&'static str> =
            ENGLISH_WORDS.lines().filter(|line| !line.starts_with('#') && !line.is_empty()).collect();
        if words.len() < 10_000 || !words.is_sorted() {
            return Err(format!("the list holds {} words, or is not sorted", words.len()));
        }
        Ok(CommonWords { words })
    }

    /// Whether `word` is a common English word, or the plural or
    /// possessive of one (`MENS`, `CLINICS`), rather than a name.
    pub fn is_english(&self, word: &str) -> bool {
        let known = |w: &str| self.words.binary_search(&w).is_ok();
        known(word) || word.strip_suffix('S').is_some_and(known) || word.strip_suffix("ES").is_some_and(known)
    }

    /// Whether some longer common word begins with `cut`: what a card
    /// network leaves of a word it cut short (`NEWSSTAN`, `TELEVIS`).
    pub fn begins_a_word(&self, cut: &str) -> bool {
        let from = self.words.partition_point(|w| *w <= cut);
        self.words.get(from).is_some_and(|w| w.starts_with(cut))
    }
}

#[cfg(test)]
mod tests {
    use super::CommonWords;

    #[test]
    fn common_words_and_their_plurals_are_english_and_names_are_not() {
        let words = CommonWords::shared().unwrap();
        assert!(words.is_english("TUMMY") && words.is_english("CLINICS") && words.is_english("MENS"));
        assert!(words.is_english("MEASURING") && words.is_english("VINEGAR"));
        assert!(!words.is_english("HOLBAEK") && !words.is_english("KONGSVINGER"));
        assert!(!words.is_english("BRNO") && !words.is_english("KOTA"), "towns WordNet writes only capitalised");
    }

    #[test]
    fn a_cut_begins_a_longer_word_and_a_whole_word_alone_does_not() {
        let words = CommonWords::shared().unwrap();
        assert!(words.begins_a_word("PARKIN") && words.begins_a_word("CAFETER"));
        assert!(!words.begins_a_word("ZZQ") && !words.begins_a_word("HOLBAEK"));
    }
}
