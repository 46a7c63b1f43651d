//! The token-level leak check of the frozen held-out sets, the twenty-ninth
//! pair, of 2026-11-29 (`tests/data/held_out_2026_11_29_zc/README.md`): no word may
//! enter one of the engine's word lists because it appears in a held-out row.
//!
//! A token (a run of two or more letters, in upper case) is a **leak** when
//! it occurs in a held-out row, occurs in no other source, and appears in a
//! word list. The word lists are every table the engine reads words from
//! that the team writes: the descriptor signals, the hand-written item
//! terms (`data/lexicon/item_terms.csv`), the practice words
//! (`data/lexicon/practice_words.csv`), the merchant aliases, and the
//! merchant knowledge file. The other sources are what the engine's
//! knowledge may honestly come from: the team's reference data in `data/`
//! (every CSV that is not itself a word list), the development sets
//! (`evaluation_set.csv`, `held_out_set.csv`, the four pairs of
//! 2026-11-26 and the fifth to eleventh pairs of 2026-11-27 and the twelfth to twenty-second of 2026-11-28 and the twenty-third to twenty-eighth of 2026-11-29, development
//! data since their figures were seen),
//! the public lexicons a script extracts
//! (`data/lexicon/generated/*.csv`; not `english_words.txt`, a dictionary
//! that only keeps a common word from being read as a name, which would
//! make every English word a source), and the tokens that were already in
//! the word lists when the sets were frozen (`tables_at_freeze.txt`, which
//! lists only tokens that occur in the sets: a word the tables had before
//! the rows were written did not enter because of them).
//!
//! The sets themselves are not read by the engine or measured here; they
//! are measured once, when the knowledge work is done.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or benchmark: a failed step is the run failing, and says where"
)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace").to_path_buf()
}

fn held_out_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/held_out_2026_11_29_zc")
}

/// The tokens of `text`: runs of two or more ASCII letters, upper-cased.
fn tokens(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_ascii_alphabetic()).filter(|t| t.len() >= 2).map(|t| t.to_ascii_uppercase())
}

fn tokens_of_file(path: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    tokens(&text).collect()
}

/// The tokens of the held-out rows' text (descriptors and receipt lines;
/// not the labels or reasons, which are the team's words).
fn held_out_tokens() -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (file, column) in [("purchases.csv", "descriptor"), ("receipt_lines.csv", "line")] {
        let mut reader = csv::Reader::from_path(held_out_dir().join(file)).unwrap();
        let at = reader.headers().unwrap().iter().position(|h| h == column).unwrap();
        for row in reader.records() {
            found.extend(tokens(&row.unwrap()[at]));
        }
    }
    found
}

/// Every word the engine's tables hold.
fn word_list_tokens() -> BTreeSet<String> {
    let mut words = BTreeSet::new();
    words.extend(sail_engine::signals::keywords().unwrap().iter().flat_map(|(k, _)| tokens(k).collect::<Vec<_>>()));
    let lexicon = sail_engine::lexicon::ItemLexicon::shared().unwrap();
    words.extend(lexicon.terms().iter().filter(|t| t.curated).flat_map(|t| tokens(&t.term).collect::<Vec<_>>()));
    words.extend(sail_engine::aliases::ALIASES.iter().flat_map(|(k, _)| tokens(k)));
    for alias in sail_engine::known_aliases().unwrap() {
        words.extend(tokens(&alias));
    }
    words.extend(sail_engine::names::PracticeNames::shared().unwrap().practice_words().flat_map(tokens));
    words
}

/// Data files that are word lists themselves, not independent sources.
const WORD_LIST_FILES: [&str; 1] = ["merchant_knowledge.csv"];
// `data/lexicon/descriptor_signals.csv` and `item_terms.csv` are word lists
// too; `other_source_tokens` reads only `data/*.csv` and `generated/`.
// `data/lexicon/item_terms.csv` is a word list too (hand-written); only
// `data/lexicon/generated/`, which `scripts/build_lexicon.py` extracts
// from public sources, counts as a source of its own.

fn other_source_tokens() -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let data = root().join("data");
    for entry in std::fs::read_dir(&data).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.ends_with(".csv") && !WORD_LIST_FILES.contains(&name.as_str()) {
            found.extend(tokens_of_file(&path));
        }
    }
    if let Ok(lexicon) = std::fs::read_dir(data.join("lexicon").join("generated")) {
        for entry in lexicon {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "csv") {
                found.extend(tokens_of_file(&path));
            }
        }
    }
    let sets = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    for development in [
        "evaluation_set.csv",
        "held_out_set.csv",
        "held_out_2026_11_26/purchases.csv",
        "held_out_2026_11_26/receipt_lines.csv",
        "held_out_2026_11_26_b/purchases.csv",
        "held_out_2026_11_26_b/receipt_lines.csv",
        "held_out_2026_11_26_c/purchases.csv",
        "held_out_2026_11_26_c/receipt_lines.csv",
        "held_out_2026_11_26_d/purchases.csv",
        "held_out_2026_11_26_d/receipt_lines.csv",
        "held_out_2026_11_27_e/purchases.csv",
        "held_out_2026_11_27_e/receipt_lines.csv",
        "held_out_2026_11_27_f/purchases.csv",
        "held_out_2026_11_27_f/receipt_lines.csv",
        "held_out_2026_11_27_g/purchases.csv",
        "held_out_2026_11_27_g/receipt_lines.csv",
        "held_out_2026_11_27_h/purchases.csv",
        "held_out_2026_11_27_h/receipt_lines.csv",
        "held_out_2026_11_27_i/purchases.csv",
        "held_out_2026_11_27_i/receipt_lines.csv",
        "held_out_2026_11_27_j/purchases.csv",
        "held_out_2026_11_27_j/receipt_lines.csv",
        "held_out_2026_11_27_k/purchases.csv",
        "held_out_2026_11_27_k/receipt_lines.csv",
        "held_out_2026_11_28_l/purchases.csv",
        "held_out_2026_11_28_l/receipt_lines.csv",
        "held_out_2026_11_28_m/purchases.csv",
        "held_out_2026_11_28_m/receipt_lines.csv",
        "held_out_2026_11_28_n/purchases.csv",
        "held_out_2026_11_28_n/receipt_lines.csv",
        "held_out_2026_11_28_o/purchases.csv",
        "held_out_2026_11_28_o/receipt_lines.csv",
        "held_out_2026_11_28_p/purchases.csv",
        "held_out_2026_11_28_p/receipt_lines.csv",
        "held_out_2026_11_28_q/purchases.csv",
        "held_out_2026_11_28_q/receipt_lines.csv",
        "held_out_2026_11_28_r/purchases.csv",
        "held_out_2026_11_28_r/receipt_lines.csv",
        "held_out_2026_11_28_s/purchases.csv",
        "held_out_2026_11_28_s/receipt_lines.csv",
        "held_out_2026_11_28_t/purchases.csv",
        "held_out_2026_11_28_t/receipt_lines.csv",
        "held_out_2026_11_28_u/purchases.csv",
        "held_out_2026_11_28_u/receipt_lines.csv",
        "held_out_2026_11_28_v/purchases.csv",
        "held_out_2026_11_28_v/receipt_lines.csv",
        "held_out_2026_11_29_w/purchases.csv",
        "held_out_2026_11_29_w/receipt_lines.csv",
        "held_out_2026_11_29_x/purchases.csv",
        "held_out_2026_11_29_x/receipt_lines.csv",
        "held_out_2026_11_29_y/purchases.csv",
        "held_out_2026_11_29_y/receipt_lines.csv",
        "held_out_2026_11_29_z/purchases.csv",
        "held_out_2026_11_29_z/receipt_lines.csv",
        "held_out_2026_11_29_za/purchases.csv",
        "held_out_2026_11_29_za/receipt_lines.csv",
        "held_out_2026_11_29_zb/purchases.csv",
        "held_out_2026_11_29_zb/receipt_lines.csv",
    ] {
        found.extend(tokens_of_file(&sets.join(development)));
    }
    found
}

fn tables_at_freeze() -> BTreeSet<String> {
    let text = std::fs::read_to_string(held_out_dir().join("tables_at_freeze.txt")).unwrap();
    text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).map(|l| l.trim().to_string()).collect()
}

#[test]
fn no_word_enters_a_word_list_because_a_held_out_row_holds_it() {
    let held_out = held_out_tokens();
    let others = other_source_tokens();
    let frozen = tables_at_freeze();
    let words = word_list_tokens();
    let leaks: Vec<&String> =
        held_out.iter().filter(|t| !others.contains(*t) && !frozen.contains(*t) && words.contains(*t)).collect();
    assert!(
        leaks.is_empty(),
        "tokens found only in the held-out sets have entered the engine's word lists: {leaks:?}; \
         a word needs a source of its own (data/, a development set, a public lexicon)"
    );
}

#[test]
fn the_freeze_list_holds_only_words_the_sets_and_the_tables_shared_when_frozen() {
    // It may not grow to excuse a new word: each entry occurs in a
    // held-out row, and in no other source (else it needs no excuse).
    let held_out = held_out_tokens();
    let others = other_source_tokens();
    let frozen = tables_at_freeze();
    let strays: Vec<&String> = frozen.iter().filter(|t| !held_out.contains(*t) || others.contains(*t)).collect();
    assert!(strays.is_empty(), "tables_at_freeze.txt lists words it need not: {strays:?}");
    // (Said as words past the count, which stays meaningful when the count is 0.)
    let grew = frozen.len().saturating_sub(FROZEN_AT_MOST);
    assert_eq!(grew, 0, "tables_at_freeze.txt grew by {grew} words past the {FROZEN_AT_MOST} it held when written");
}

/// How many words `tables_at_freeze.txt` held when it was written.
const FROZEN_AT_MOST: usize = 1;

#[test]
fn a_word_taken_from_a_held_out_row_is_caught() {
    // The check itself, on a word that occurs only in the held-out rows:
    // were it added to a word list, the first test would name it.
    let held_out = held_out_tokens();
    let others = other_source_tokens();
    let only_held_out: Vec<&String> = held_out.iter().filter(|t| !others.contains(*t)).collect();
    assert!(only_held_out.len() > 100, "{} tokens occur only in the held-out sets", only_held_out.len());
    let mut words = word_list_tokens();
    let planted = only_held_out.iter().find(|t| !words.contains(**t)).unwrap().to_string();
    words.insert(planted.clone());
    let frozen = tables_at_freeze();
    let caught: Vec<&String> =
        held_out.iter().filter(|t| !others.contains(*t) && !frozen.contains(*t) && words.contains(*t)).collect();
    assert_eq!(caught, vec![&planted]);
}
