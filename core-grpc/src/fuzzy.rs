//! Fuzzy name matching for the directories: typo-tolerant, best match first.
//!
//! A name scores against a query as the best of: containment (the query,
//! spaces removed, inside the name, spaces removed: `heb` finds `H-E-B`),
//! whole-string Jaro-Winkler, and the mean over query words of each word's
//! best Jaro-Winkler against the name's words (`cvs pharmcy`). Names under
//! [`MATCH_THRESHOLD`] do not match.

use strsim::jaro_winkler;

/// The lowest score that counts as a match.
pub const MATCH_THRESHOLD: f64 = 0.82;

/// Words that carry no meaning in a merchant name query.
const STOP_WORDS: &[&str] = &["and", "the", "of", "inc", "co"];

/// Lower-case words with punctuation dropped; apostrophes vanish (`Sam's` →
/// `sams`) and other punctuation splits words (`H-E-B` → `h e b`).
pub fn words(text: &str) -> Vec<String> {
    let cleaned: String = text
        .chars()
        .filter(|c| *c != '\'' && *c != '’')
        .map(|c| if c.is_alphanumeric() { c.to_ascii_lowercase() } else { ' ' })
        .collect();
    cleaned.split_whitespace().map(str::to_string).collect()
}

/// How well `name` matches `query`, from 0 to 1, with a tie-breaker: the
/// whole-string similarity, so `amazn` ranks Amazon above Amazon Pharmacy.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Score {
    pub value: f64,
    pub whole: f64,
}

pub fn score(query: &str, name: &str) -> Score {
    let query_words: Vec<String> = words(query).into_iter().filter(|w| !STOP_WORDS.contains(&w.as_str())).collect();
    let name_words = words(name);
    if query_words.is_empty() || name_words.is_empty() {
        return Score { value: 0.0, whole: 0.0 };
    }
    let query_compact = query_words.concat();
    let name_compact = name_words.concat();
    let whole = jaro_winkler(&query_compact, &name_compact);

    let contained = if query_compact.len() >= 3 {
        name_compact.contains(&query_compact)
    } else {
        name_words.iter().any(|w| w.starts_with(&query_compact))
    };
    let per_word =
        query_words.iter().map(|q| name_words.iter().map(|n| word_similarity(q, n)).fold(0.0, f64::max)).sum::<f64>()
            / query_words.len() as f64;

    let value = if contained { 1.0 } else { whole.max(per_word) };
    Score { value, whole }
}

fn word_similarity(query_word: &str, name_word: &str) -> f64 {
    if query_word == name_word {
        return 1.0;
    }
    // A typed prefix of a long word is as good as the word ("diagnos").
    if query_word.len() >= 4 && name_word.starts_with(query_word) {
        return 0.95;
    }
    jaro_winkler(query_word, name_word)
}

/// Ranks `items` by how well `name_of(item)` matches `query`: matches only,
/// best first, ties by name.
pub fn rank<T, F>(query: &str, items: Vec<T>, name_of: F) -> Vec<T>
where
    F: Fn(&T) -> &str,
{
    let mut scored: Vec<(Score, T)> = items
        .into_iter()
        .map(|item| (score(query, name_of(&item)), item))
        .filter(|(s, _)| s.value >= MATCH_THRESHOLD)
        .collect();
    scored.sort_by(|(a, ia), (b, ib)| {
        b.value.total_cmp(&a.value).then(b.whole.total_cmp(&a.whole)).then_with(|| name_of(ia).cmp(name_of(ib)))
    });
    scored.into_iter().map(|(_, item)| item).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: &[&str] = &[
        "CVS Pharmacy",
        "CVS MinuteClinic",
        "Walgreens",
        "Walmart",
        "Amazon",
        "Amazon Pharmacy",
        "H-E-B",
        "Sam's Club",
        "Quest Diagnostics",
        "Target",
    ];

    fn top(query: &str) -> Option<&'static str> {
        rank(query, NAMES.to_vec(), |n| n).first().copied()
    }

    #[test]
    fn typos_find_the_merchant_first() {
        assert_eq!(top("walgren"), Some("Walgreens"));
        assert_eq!(top("cvs pharmcy"), Some("CVS Pharmacy"));
        assert_eq!(top("amazn"), Some("Amazon"));
        assert_eq!(top("heb"), Some("H-E-B"));
        assert_eq!(top("sams club"), Some("Sam's Club"));
        assert_eq!(top("quest diagnos"), Some("Quest Diagnostics"));
        assert_eq!(top("walmrt"), Some("Walmart"));
    }

    #[test]
    fn unrelated_queries_match_nothing() {
        assert_eq!(top("zzzz"), None);
        assert_eq!(top("bicycle"), None);
        assert_eq!(top("  "), None);
    }

    #[test]
    fn words_drop_apostrophes_and_split_on_punctuation() {
        assert_eq!(words("Sam's Club"), vec!["sams", "club"]);
        assert_eq!(words("H-E-B"), vec!["h", "e", "b"]);
    }
}
