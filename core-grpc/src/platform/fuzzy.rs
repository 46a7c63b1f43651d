//! Fuzzy name matching for the directories: typo-tolerant, best match first.
//!
//! A name scores against a query as the best of: containment (the query,
//! spaces removed, inside the name, spaces removed: `heb` finds `H-E-B`),
//! whole-string Jaro-Winkler, and the mean over query words of each word's
//! best Jaro-Winkler against the name's words (`cvs pharmcy`). Names under
//! [`MATCH_THRESHOLD`] do not match.

use std::sync::Arc;
use strsim::jaro_winkler;

use crate::platform::memo::Memo;

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
    score_prepared(&Prepared::query(query), &Prepared::name(name))
}

/// A query or a name made ready for scoring once: its words and their
/// concatenation (an index prepares every name at build time).
#[derive(Debug, Clone)]
pub struct Prepared {
    words: Vec<String>,
    compact: String,
}

impl Prepared {
    /// A name: all its words.
    pub fn name(text: &str) -> Prepared {
        let words = words(text);
        Prepared { compact: words.concat(), words }
    }

    /// A query: its words without stop words.
    pub fn query(text: &str) -> Prepared {
        let words: Vec<String> = words(text).into_iter().filter(|w| !STOP_WORDS.contains(&w.as_str())).collect();
        Prepared { compact: words.concat(), words }
    }

    /// The distinct character pairs of the compact form (the index's keys).
    fn bigrams(&self) -> Vec<(char, char)> {
        let chars: Vec<char> = self.compact.chars().collect();
        let mut pairs: Vec<(char, char)> = chars.windows(2).map(|w| (w[0], w[1])).collect();
        pairs.sort_unstable();
        pairs.dedup();
        pairs
    }
}

/// [`score`] over prepared forms.
pub fn score_prepared(query: &Prepared, name: &Prepared) -> Score {
    let (query_words, name_words) = (&query.words, &name.words);
    if query_words.is_empty() || name_words.is_empty() {
        return Score { value: 0.0, whole: 0.0 };
    }
    let (query_compact, name_compact) = (&query.compact, &name.compact);
    let whole = jaro_winkler(query_compact, name_compact);

    let contained = if query_compact.len() >= 3 {
        name_compact.contains(query_compact.as_str())
    } else {
        name_words.iter().any(|w| w.starts_with(query_compact.as_str()))
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

/// Names up to this many are all scored for every query: exact, and fast
/// enough (the real directories hold hundreds).
pub const EXHAUSTIVE_UP_TO: usize = 5_000;
/// Beyond [`EXHAUSTIVE_UP_TO`], the names sharing the most character pairs
/// with the query are scored, this many of them.
pub const CANDIDATES: usize = 512;

/// Items searchable by name in memory, built once: every name prepared, and
/// an inverted index from character pairs to names, so that a search of a
/// large directory scores a few hundred likely names instead of all of them
/// (typos keep most pairs: `amzaon` shares `am` and `on` with `amazon`).
pub struct NameIndex<T> {
    items: Vec<T>,
    names: Vec<Prepared>,
    postings: std::collections::HashMap<(char, char), Vec<u32>>,
    /// Recent searches and their results (positions, best first). The
    /// names never change while the index lives, so a repeated query (the
    /// common case: partners' pickers send the same few prefixes) needs no
    /// scoring; bounded, so odd queries cannot grow it.
    recent: Memo<String, Arc<[u32]>>,
}

/// Searches remembered per index.
pub const RECENT_SEARCHES: usize = 4096;

impl<T> NameIndex<T> {
    /// Indexes `items` (kept in the given order, which is the order of an
    /// empty search) by `name_of`.
    pub fn new(items: Vec<T>, name_of: impl Fn(&T) -> &str) -> Self {
        let names: Vec<Prepared> = items.iter().map(|item| Prepared::name(name_of(item))).collect();
        let mut postings: std::collections::HashMap<(char, char), Vec<u32>> = std::collections::HashMap::new();
        for (at, name) in names.iter().enumerate() {
            for pair in name.bigrams() {
                postings.entry(pair).or_default().push(at as u32);
            }
        }
        let recent = Memo::new(RECENT_SEARCHES);
        NameIndex { items, names, postings, recent }
    }

    /// Every item, in order.
    pub fn all(&self) -> &[T] {
        &self.items
    }

    /// The items matching `query`, best first, ties by name order.
    pub fn search(&self, query: &str) -> Vec<&T> {
        let ranked = match self.recent.get(query) {
            Some(ranked) => ranked,
            None => {
                let ranked: Arc<[u32]> = self.rank(query).into();
                self.recent.insert(query.to_string(), ranked.clone());
                ranked
            }
        };
        ranked.iter().map(|&at| &self.items[at as usize]).collect()
    }

    /// [`search`](Self::search) without the memory of recent searches:
    /// what a query costs the first time it is seen (the benchmarks time
    /// this).
    pub fn search_uncached(&self, query: &str) -> Vec<&T> {
        self.rank(query).into_iter().map(|at| &self.items[at as usize]).collect()
    }

    /// Scores the likely names against `query`: positions, best first.
    fn rank(&self, query: &str) -> Vec<u32> {
        let query = Prepared::query(query);
        if query.words.is_empty() {
            return Vec::new();
        }
        let candidates: Vec<usize> = if self.items.len() <= EXHAUSTIVE_UP_TO || query.compact.chars().count() < 3 {
            (0..self.items.len()).collect()
        } else {
            self.likely(&query)
        };
        let mut scored: Vec<(Score, usize)> = candidates
            .into_iter()
            .map(|at| (score_prepared(&query, &self.names[at]), at))
            .filter(|(s, _)| s.value >= MATCH_THRESHOLD)
            .collect();
        scored
            .sort_by(|(a, ia), (b, ib)| b.value.total_cmp(&a.value).then(b.whole.total_cmp(&a.whole)).then(ia.cmp(ib)));
        scored.into_iter().map(|(_, at)| at as u32).collect()
    }

    /// The [`CANDIDATES`] names sharing the most character pairs with `query`.
    fn likely(&self, query: &Prepared) -> Vec<usize> {
        let mut shared = vec![0u16; self.items.len()];
        for pair in query.bigrams() {
            for &at in self.postings.get(&pair).map(Vec::as_slice).unwrap_or_default() {
                shared[at as usize] = shared[at as usize].saturating_add(1);
            }
        }
        let mut hits: Vec<usize> = (0..shared.len()).filter(|&at| shared[at] > 0).collect();
        if hits.len() > CANDIDATES {
            hits.select_nth_unstable_by(CANDIDATES, |a, b| shared[*b].cmp(&shared[*a]));
            hits.truncate(CANDIDATES);
        }
        hits
    }
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
    fn the_index_answers_as_ranking_every_name_does() {
        let index = NameIndex::new(NAMES.to_vec(), |n| n);
        for query in ["walgren", "cvs pharmcy", "amazn", "heb", "sams club", "quest diagnos", "walmrt", "zzzz", "cvs"] {
            let ranked = rank(query, NAMES.to_vec(), |n| n);
            let searched: Vec<&str> = index.search(query).into_iter().copied().collect();
            assert_eq!(searched, ranked, "{query}");
        }
    }

    #[test]
    fn a_large_index_still_finds_typos_first() {
        // Many more names than are scored exhaustively, the real ones among them.
        let mut names: Vec<String> = (0..20_000).map(|n| format!("Store {n} Outlet")).collect();
        names.extend(NAMES.iter().map(|n| n.to_string()));
        let index = NameIndex::new(names, |n| n.as_str());
        for (query, expected) in
            [("walgren", "Walgreens"), ("amzaon", "Amazon"), ("quest diagnos", "Quest Diagnostics")]
        {
            assert_eq!(index.search(query).first().map(|n| n.as_str()), Some(expected), "{query}");
        }
    }

    #[test]
    fn words_drop_apostrophes_and_split_on_punctuation() {
        assert_eq!(words("Sam's Club"), vec!["sams", "club"]);
        assert_eq!(words("H-E-B"), vec!["h", "e", "b"]);
    }
}
