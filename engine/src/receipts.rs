//! Receipts (docs/receipts.md): the text of a receipt read into merchant,
//! date, total and line items, and the decision it supports for a purchase.
//! Pure: the core extracts the text (plain, PDF, OCR) and stores the result.
//!
//! Parsing is line-based, as till receipts and invoices print: a line that
//! ends in an amount is an item unless it is a subtotal, tax, tender or
//! total line; the last `TOTAL`/`AMOUNT DUE`/`BALANCE DUE` line is the total;
//! the first line with words (and few digits) names the merchant; the first
//! date in a common form is the date.

use std::collections::HashMap;
use std::sync::LazyLock;

use chrono::{Datelike, NaiveDate};
use regex::Regex;

use crate::Engine;
use crate::decision::{Outcome, Purchase};
use crate::normalize::one_character_apart;

/// What a receipt says.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ParsedReceipt {
    pub merchant: Option<String>,
    pub date: Option<NaiveDate>,
    pub total_minor: Option<i64>,
    /// The last subtotal line, when one is printed.
    pub subtotal_minor: Option<i64>,
    /// The tax lines, added up, when any is printed.
    pub tax_minor: Option<i64>,
    pub lines: Vec<ParsedLine>,
}

/// One item line of a receipt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedLine {
    pub description: String,
    pub amount_minor: i64,
}

static AMOUNT_AT_END: LazyLock<Regex> = LazyLock::new(|| {
    // "IBUPROFEN 200MG 24CT    8.99 F", "Eye exam ........ $95.00", "-2.00"
    // A tax flag after the amount: one or two letters, or one sign (`*`,
    // `#`), or, as a photo misreads a flag, one digit or one or two other
    // signs (`5.37."`).
    Regex::new(r#"^(?P<desc>.*?)[\s.:]*(?P<neg>-)?\$?\s?(?P<whole>\d{1,6}(?:,\d{3})*)[.,](?P<cents>\d{2})(?:\s*-)?(?:\s*(?:[A-Z]{1,2}|[^\sA-Z0-9.,$-]|[.,][^\sA-Z0-9.,$-])|\s*[0-9])?$"#)
        .unwrap_or_else(|_| unreachable!())
});
static ISO_DATE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(20\d{2})-(\d{1,2})-(\d{1,2})\b").unwrap_or_else(|_| unreachable!()));
static US_DATE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})\b").unwrap_or_else(|_| unreachable!()));
static MONTH_DATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2}),?\s+(20\d{2})\b")
        .unwrap_or_else(|_| unreachable!())
});

/// Words that make an amount line something other than an item.
const NOT_ITEMS: &[&str] = &[
    "SUBTOTAL",
    "SUB TOTAL",
    "SUB-TOTAL",
    "TAX",
    "TOTAL",
    "AMOUNT DUE",
    "BALANCE",
    "CHANGE",
    "CASH",
    "VISA",
    "MASTERCARD",
    "AMEX",
    "DISCOVER",
    "DEBIT",
    "TENDER",
    "PAID",
    "PAYMENT",
    "APPROVED",
    "AUTH",
    "YOU SAVED",
    "SAVINGS",
    "REWARDS",
    "POINTS",
    "ITEMS SOLD",
    "INSURANCE PAID",
    "ADJUSTMENT",
];

/// A tender line shows a masked card number ("VISA **** 4417",
/// "CARD XXXXXXXX1234"); "GREETING CARD" is an item.
fn masked_number(upper: &str) -> bool {
    upper.contains("****") || upper.contains("XXXX")
}
/// Lines that name the total, strongest last.
const TOTAL_WORDS: &[&str] = &["TOTAL", "TOTAL DUE", "AMOUNT DUE", "BALANCE DUE", "PATIENT RESPONSIBILITY"];

fn contains_word(upper: &str, word: &str) -> bool {
    upper.match_indices(word).any(|(at, _)| {
        let before = upper[..at].chars().next_back();
        let after = upper[at + word.len()..].chars().next();
        before.is_none_or(|c| !c.is_ascii_alphanumeric()) && after.is_none_or(|c| !c.is_ascii_alphanumeric())
    })
}

fn minor(whole: &str, cents: &str) -> Option<i64> {
    let whole: i64 = whole.replace(',', "").parse().ok()?;
    let cents: i64 = cents.parse().ok()?;
    Some(whole * 100 + cents)
}

/// The years a receipt's date may have: a year OCR misread (`2626`) is no
/// date, rather than a date that matches nothing.
const RECEIPT_YEARS: std::ops::RangeInclusive<i32> = 1990..=2099;

fn find_date(text: &str) -> Option<NaiveDate> {
    let mut found: Vec<(usize, NaiveDate)> = Vec::new();
    for c in ISO_DATE.captures_iter(text) {
        if let (Some(m), Ok(y), Ok(mo), Ok(d)) = (c.get(0), c[1].parse(), c[2].parse(), c[3].parse())
            && let Some(date) = NaiveDate::from_ymd_opt(y, mo, d)
        {
            found.push((m.start(), date));
        }
    }
    for c in US_DATE.captures_iter(text) {
        let year: i32 = match c[3].len() {
            2 => 2000 + c[3].parse::<i32>().unwrap_or(0),
            _ => c[3].parse().unwrap_or(0),
        };
        if let (Some(m), Ok(mo), Ok(d)) = (c.get(0), c[1].parse(), c[2].parse())
            && let Some(date) = NaiveDate::from_ymd_opt(year, mo, d)
        {
            found.push((m.start(), date));
        }
    }
    const MONTHS: [&str; 12] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
    for c in MONTH_DATE.captures_iter(text) {
        let month = MONTHS.iter().position(|m| c[1].eq_ignore_ascii_case(m)).map(|i| i as u32 + 1);
        if let (Some(m), Some(mo), Ok(d), Ok(y)) = (c.get(0), month, c[2].parse(), c[3].parse())
            && let Some(date) = NaiveDate::from_ymd_opt(y, mo, d)
        {
            found.push((m.start(), date));
        }
    }
    found
        .into_iter()
        .filter(|(_, date)| RECEIPT_YEARS.contains(&date.year()))
        .min_by_key(|(at, _)| *at)
        .map(|(_, date)| date)
}

static S_FOR_FIVE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"\sS(\.\d{2}(?:\s*[A-Z"]{1,2})?)$"#).unwrap_or_else(|_| unreachable!()));

/// A line whose amount begins with an `S` where OCR misread a `5` (`CANS
/// S.36"`), with the `5` back; any other line as it is. An `S` alone before
/// the cents is never a word.
fn misread_five(upper: String) -> String {
    match S_FOR_FIVE.captures(&upper).and_then(|c| c.get(0).zip(c.get(1))) {
        Some((whole, cents)) => format!("{} 5{}", &upper[..whole.start()], cents.as_str()),
        None => upper,
    }
}

/// Reads a receipt's text.
pub fn parse(text: &str) -> ParsedReceipt {
    let mut parsed = ParsedReceipt { date: find_date(text), ..Default::default() };
    let mut total_rank = None;
    for raw in text.lines() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let upper = line.to_ascii_uppercase();
        if parsed.merchant.is_none() {
            let letters = line.chars().filter(|c| c.is_alphabetic()).count();
            let digits = line.chars().filter(|c| c.is_ascii_digit()).count();
            // A word of three letters at least: not a smudge OCR read as signs.
            let word = line.split(|c: char| !c.is_alphabetic()).any(|w| w.chars().count() >= 3);
            if letters >= 3 && word && digits <= letters && !AMOUNT_AT_END.is_match(line) && find_date(line).is_none() {
                parsed.merchant = Some(line.split_whitespace().collect::<Vec<_>>().join(" "));
                continue;
            }
        }
        // A `5` before the cents read as `S` (`COLA 12PK CANS S.36`).
        let upper = misread_five(upper);
        let Some(c) = AMOUNT_AT_END.captures(&upper) else { continue };
        let Some(mut amount) = minor(&c["whole"], &c["cents"]) else { continue };
        // A line of nothing (a loyalty or fuel-points line, a bag fee
        // waived) is no item: it can neither cost nor clear anything.
        if amount == 0 {
            continue;
        }
        if c.name("neg").is_some() {
            amount = -amount;
        }
        let description = c["desc"].trim().trim_end_matches(['.', ':', '$']).trim();
        if ["SUBTOTAL", "SUB TOTAL", "SUB-TOTAL"].iter().any(|w| description.contains(w)) {
            parsed.subtotal_minor = Some(amount);
            continue;
        }
        if let Some(rank) = TOTAL_WORDS.iter().rposition(|w| contains_word(description, w)) {
            if total_rank.is_none_or(|r| rank >= r) {
                total_rank = Some(rank);
                parsed.total_minor = Some(amount);
            }
            continue;
        }
        if contains_word(description, "TAX") {
            parsed.tax_minor = Some(parsed.tax_minor.unwrap_or(0) + amount);
            continue;
        }
        if NOT_ITEMS.iter().any(|w| contains_word(description, w))
            || masked_number(description)
            || description.len() < 2
        {
            continue;
        }
        // A date or a phone number that happens to end a line is no item.
        if description.chars().filter(|c| c.is_alphabetic()).count() < 2 {
            continue;
        }
        let original = raw.trim();
        let desc_len = c["desc"].trim_end().len().min(original.len());
        let description = original[..desc_len].trim().trim_end_matches(['.', ':', '$']).trim().to_string();
        parsed.lines.push(ParsedLine { description, amount_minor: amount });
    }
    if parsed.subtotal_minor.is_none() && parsed.total_minor.is_none() {
        totals_by_their_sums(&mut parsed);
    }
    parsed
}

/// A photo whose subtotal and total words were both misread (`Searern.
/// 31.86`, `Miia 31.86`) leaves them among the items. The arithmetic names
/// them: the first line (after two items or more) whose amount is the sum
/// of the items above it is the subtotal, provided every line after it
/// repeats that amount (the total; a tax of nothing is no line). Then the
/// subtotal and the total are that amount and the items end above it.
/// Otherwise nothing changes.
fn totals_by_their_sums(parsed: &mut ParsedReceipt) {
    let mut above = 0i64;
    for (at, line) in parsed.lines.iter().enumerate() {
        if at >= 2 && (line.amount_minor - above).abs() <= 1 && above > 0 {
            let amount = line.amount_minor;
            if parsed.lines[at + 1..].iter().all(|after| after.amount_minor == amount) {
                parsed.lines.truncate(at);
                parsed.subtotal_minor = Some(amount);
                parsed.total_minor = Some(amount);
            }
            return;
        }
        above += line.amount_minor;
    }
}

/// How a receipt line was classified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineDecision {
    pub description: String,
    pub amount_minor: i64,
    pub outcome: Outcome,
    /// What the line was read as: the category of the term that named it,
    /// or that no term did.
    pub category: LineCategory,
    /// The line names care, at a store that sells none (`Store::SellsNoCare`):
    /// held for a person rather than called eligible.
    pub held_for_its_store: bool,
}

/// What the store a receipt comes from is known to sell, from the category
/// code its purchase carries (`data/mcc_stores_without_care.csv`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Store {
    /// Nothing is known against care: each line is read by its words.
    #[default]
    MaySellCare,
    /// A store whose stock holds nothing for medical care (auto parts and
    /// service, apparel of one kind, shoes, music, jewelry, toys, pets).
    /// There a word of care inside everyday goods (`FLOOR LINERS`, `TODDLER
    /// FIRST WALKERS`, `OBD2 CODE READER`) is far likelier than care itself,
    /// so a line that reads as care is held for a person, and a line no term
    /// names is the store's everyday goods (`NIKE AIR MAX 90`): not care.
    SellsNoCare,
}

impl Store {
    /// The store of a purchase with category code `mcc`.
    pub fn of(engine: &Engine, mcc: Option<&str>) -> Store {
        match mcc {
            Some(code) if engine.store_sells_no_care(code) => Store::SellsNoCare,
            _ => Store::MaySellCare,
        }
    }

    /// `decision`, read at this store.
    fn reads(self, decision: LineDecision) -> LineDecision {
        match (self, decision.outcome, decision.category) {
            (Store::SellsNoCare, Outcome::Eligible, _) => {
                LineDecision { outcome: Outcome::NeedsReview, held_for_its_store: true, ..decision }
            }
            (Store::SellsNoCare, _, LineCategory::Unclassified) => {
                LineDecision { outcome: Outcome::Ineligible, category: LineCategory::StoreGoods, ..decision }
            }
            _ => decision,
        }
    }
}

/// What a receipt line was read as. Shown to partners as the line's
/// `category` (proto `ReceiptLineItem.category`) by [`LineCategory::as_str`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineCategory {
    /// A term of the product lexicon named it: that term's category
    /// (`otc_medicine`, `groceries`…).
    Named(&'static str),
    /// No term names it: a person decides (`unclassified`).
    Unclassified,
    /// No term names it, at a store that sells no care: the store's own
    /// goods (`store_goods`), not care.
    StoreGoods,
}

impl LineCategory {
    /// The category as the API shows it.
    pub fn as_str(self) -> &'static str {
        match self {
            LineCategory::Named(category) => category,
            LineCategory::Unclassified => "unclassified",
            LineCategory::StoreGoods => "store_goods",
        }
    }
}

/// Classifies one item line by the engine's product lexicon; a line no
/// term names needs review (`unclassified`).
pub fn classify_line(engine: &Engine, line: &ParsedLine) -> LineDecision {
    let (outcome, category) = match engine.classify_item(&line.description) {
        Some((outcome, category)) => (outcome, LineCategory::Named(category)),
        None => (Outcome::NeedsReview, LineCategory::Unclassified),
    };
    LineDecision {
        description: line.description.clone(),
        amount_minor: line.amount_minor,
        outcome,
        category,
        held_for_its_store: false,
    }
}

/// Classifies a receipt's item lines together. A word that begins at
/// least half of them (three at the least) and that the product lexicon
/// does not know is the store's own prefix (`SNS` for Shop 'n Save), not
/// part of any product, and so is a word that follows it on as many lines
/// (`MAG RX`, a drugstore's brand): the prefix is set aside before each
/// such line is read, so that a prefix that happens to abbreviate a product
/// word (`SNS` is how receipts shorten SINUS) or to name care (`RX`)
/// decides nothing. A known first word stays (`GNC` names the supplements
/// it sells). Each line is then read at `store` (`Store::reads`).
pub fn classify_lines(engine: &Engine, lines: &[ParsedLine], store: Store) -> Vec<LineDecision> {
    let prefix = store_prefix(lines.iter().map(|l| l.description.as_str())).filter(|words| {
        let first = words.split(' ').next().unwrap_or_default();
        !engine.knows_item_word(&crate::normalize::canonical_words(first))
    });
    lines
        .iter()
        .map(|line| {
            let rest = prefix.as_deref().and_then(|p| line_after_prefix(&line.description, p));
            let decision = match rest {
                Some(rest) => {
                    let without = ParsedLine { description: rest.to_string(), amount_minor: line.amount_minor };
                    LineDecision { description: line.description.clone(), ..classify_line(engine, &without) }
                }
                None => classify_line(engine, line),
            };
            store.reads(decision)
        })
        .collect()
}

/// The most words a store's prefix is read to hold (`CVS HLTH`, `MAG RX`).
const PREFIX_WORDS: usize = 2;

/// The words that begin at least half of `descriptions` (and three at
/// least), one space apart, when some do: a store's prefix. Each word of it
/// is followed on those lines by a word more, the product's.
pub fn store_prefix<'a>(descriptions: impl Iterator<Item = &'a str>) -> Option<String> {
    let lines: Vec<Vec<String>> =
        descriptions.map(|d| d.split_whitespace().map(str::to_ascii_uppercase).collect()).collect();
    let mut prefix: Vec<String> = Vec::new();
    while prefix.len() < PREFIX_WORDS {
        let depth = prefix.len();
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for words in &lines {
            if words.len() > depth + 1
                && words[..depth] == prefix[..]
                && words[depth].bytes().any(|b| b.is_ascii_alphabetic())
            {
                *counts.entry(words[depth].as_str()).or_default() += 1;
            }
        }
        let next = counts
            .into_iter()
            .filter(|(_, n)| *n >= 3 && 2 * *n >= lines.len())
            .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(a.0)))
            .map(|(word, _)| word.to_string());
        match next {
            Some(word) => prefix.push(word),
            None => break,
        }
    }
    (!prefix.is_empty()).then(|| prefix.join(" "))
}

/// What follows `prefix` (words one space apart) on a line that begins
/// with it, and more.
fn line_after_prefix<'a>(description: &'a str, prefix: &str) -> Option<&'a str> {
    let mut rest = description.trim_start();
    for word in prefix.split(' ') {
        let (first, after) = rest.split_once(char::is_whitespace)?;
        if !first.eq_ignore_ascii_case(word) {
            return None;
        }
        rest = after.trim_start();
    }
    (!rest.is_empty()).then_some(rest)
}

/// The purchase a receipt is matched against.
#[derive(Debug, Clone, Copy)]
pub struct PurchaseFacts<'a> {
    pub amount_minor: i64,
    pub date: NaiveDate,
    /// The directory merchant the purchase resolved to.
    pub merchant_id: Option<&'a str>,
    /// The purchase's merchant category code, which says what its store
    /// sells (`Store`).
    pub mcc: Option<&'a str>,
}

/// What a receipt supports for its purchase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReceiptDecision {
    /// The receipt is for this purchase: the outcome it supports.
    Matched {
        outcome: Outcome,
        eligible_minor: i64,
        lines: Vec<LineDecision>,
        reason_code: &'static str,
        reason: String,
    },
    /// The receipt is not for this purchase (or cannot be told to be).
    Mismatch { lines: Vec<LineDecision>, eligible_minor: i64, reason_code: &'static str, reason: String },
}

/// How far apart a receipt's date and the purchase's may be (card
/// settlement lags the till by a day or two).
pub const DATE_TOLERANCE_DAYS: i64 = 3;

fn money(minor: i64) -> String {
    format!("{}.{:02}", minor / 100, (minor % 100).abs())
}

/// The receipt's total, read against what else it prints. Photos are
/// misread a digit at a time: when the printed total is not the purchase's
/// amount but the receipt's own parts add up to it (subtotal or lines, with
/// or without the tax), the total was misread and the purchase's amount is
/// the total. Otherwise the printed total (or none).
fn reconciled_total(receipt: &ParsedReceipt, purchase_minor: i64) -> Option<i64> {
    let near = |amount: i64| (amount - purchase_minor).abs() <= 1;
    if receipt.total_minor.is_some_and(near) {
        return receipt.total_minor;
    }
    let lines: i64 = receipt.lines.iter().map(|l| l.amount_minor).sum();
    let tax = receipt.tax_minor.unwrap_or(0);
    let read = (!receipt.lines.is_empty()).then_some(lines);
    // With the tax, or without it where the tax line is what was misread.
    let parts = [receipt.subtotal_minor.map(|s| s + tax), read.map(|l| l + tax), receipt.subtotal_minor, read];
    // Both parts must be printed for them to stand for a total.
    let corroborated = receipt.total_minor.is_some() || receipt.subtotal_minor.is_some();
    if corroborated && parts.into_iter().flatten().any(near) {
        return Some(purchase_minor);
    }
    receipt.total_minor
}

/// Whether two amounts differ in one printed digit.
fn one_digit_apart(a: i64, b: i64) -> bool {
    one_character_apart(&format!("{:03}", a.abs()), &format!("{:03}", b.abs()))
}

/// When the lines do not add up to what the receipt says they come to (its
/// subtotal where subtotal and tax make the total, or with no subtotal its
/// total less tax), and exactly one line's amount is
/// one digit away from the amount that would make them add up, that line
/// was misread: its amount is corrected. Otherwise nothing changes.
fn repair_one_amount(lines: &mut [LineDecision], receipt: &ParsedReceipt, total: Option<i64>) {
    let sum: i64 = lines.iter().map(|l| l.amount_minor).sum();
    // Only a sum two printed figures agree on: the subtotal that, with the
    // tax, is the total; or, with no subtotal, the total less its tax.
    let expected = match (receipt.subtotal_minor, total, receipt.tax_minor) {
        (Some(subtotal), Some(total), tax) if subtotal + tax.unwrap_or(0) == total => subtotal,
        (None, Some(total), Some(tax)) => total - tax,
        _ => return,
    };
    let off = expected - sum;
    if off == 0 {
        return;
    }
    let mut fixable = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.amount_minor + off > 0 && one_digit_apart(l.amount_minor, l.amount_minor + off))
        .map(|(at, _)| at);
    if let (Some(at), None) = (fixable.next(), fixable.next()) {
        lines[at].amount_minor += off;
    }
}

/// How much of the receipt's items no line accounts for, when the receipt
/// shows it: the printed subtotal less the lines read, or, with no
/// subtotal, a gap between the lines and the total too large to be tax
/// (more than an eighth of the lines). An unread line is never taken for
/// tax, so it cannot make a basket look wholly eligible.
fn missing_lines(printed_subtotal: Option<i64>, lines: i64, total: Option<i64>) -> Option<i64> {
    let gap = match printed_subtotal {
        Some(subtotal) => subtotal - lines,
        None => total.map(|t| t - lines).filter(|gap| *gap * 8 > lines).unwrap_or(0),
    };
    (gap > 0).then_some(gap)
}

/// A photo's tax line with the word misread (`TAK 3.60`, `T4X 3.60`): a
/// line whose whole description is one character from `TAX`, that no term
/// names, on a receipt where no tax line was read. It is taken for the tax
/// only when the arithmetic of a tax holds: the other lines and it make the
/// purchase's amount (and the printed total, when one was read), and it is
/// at most an eighth of the other lines. The receipt with that line as its
/// tax (and, when no total was read, the total they make); `None` when no
/// line is one.
fn with_misread_tax(engine: &Engine, receipt: &ParsedReceipt, purchase_minor: i64) -> Option<ParsedReceipt> {
    if receipt.tax_minor.is_some() {
        return None;
    }
    let looks_like_tax = |line: &ParsedLine| {
        let word = line.description.trim().to_ascii_uppercase();
        word.len() == 3 && one_character_apart(&word, "TAX") && engine.classify_item(&word).is_none()
    };
    let mut candidates = receipt.lines.iter().enumerate().filter(|(_, line)| looks_like_tax(line));
    let (Some((at, line)), None) = (candidates.next(), candidates.next()) else { return None };
    let others: i64 = receipt.lines.iter().map(|l| l.amount_minor).sum::<i64>() - line.amount_minor;
    let adds_up = |total: i64| (others + line.amount_minor - total).abs() <= 1;
    let is_tax = line.amount_minor > 0
        && line.amount_minor * 8 <= others
        && adds_up(purchase_minor)
        && receipt.total_minor.is_none_or(adds_up);
    is_tax.then(|| {
        let mut recovered = receipt.clone();
        let tax = recovered.lines.remove(at);
        recovered.tax_minor = Some(tax.amount_minor);
        // The total it was shown to make, when none was read.
        recovered.total_minor.get_or_insert(others + tax.amount_minor);
        recovered
    })
}

/// Readings of one photo, each with the lines no term names taken from
/// another reading where that reading has a line of the same amount that a
/// term does name: OCR misreads different words at each enlargement, and
/// the amounts say which lines are the same. Only readings that changed are
/// returned, after the ones they came from, so a tie keeps the original.
/// A line borrowed from another reading is matched by its amount only once.
fn merged_readings(engine: &Engine, readings: &[ParsedReceipt]) -> Vec<ParsedReceipt> {
    if readings.len() < 2 {
        return Vec::new();
    }
    let named = |line: &ParsedLine| engine.classify_item(&line.description).is_some();
    let mut merged = Vec::new();
    for (at, base) in readings.iter().enumerate() {
        let mut reading = base.clone();
        let mut borrowed: Vec<(usize, usize)> = Vec::new();
        let mut changed = false;
        for line in reading.lines.iter_mut().filter(|line| !named(line)) {
            let donor = readings.iter().enumerate().filter(|(other, _)| *other != at).find_map(|(other, r)| {
                r.lines
                    .iter()
                    .enumerate()
                    .find(|(index, l)| {
                        l.amount_minor == line.amount_minor && named(l) && !borrowed.contains(&(other, *index))
                    })
                    .map(|(index, l)| (other, index, l.description.clone()))
            });
            if let Some((other, index, description)) = donor {
                borrowed.push((other, index));
                line.description = description;
                changed = true;
            }
        }
        if changed {
            merged.push(reading);
        }
    }
    merged
}

/// Decides each reading of one receipt (a phone photo is read at two
/// enlargements, and OCR misreads different words of each) and keeps the
/// one its purchase confirms best: a reading that matches the purchase and
/// decides it with lines that add up to what it prints, else one that
/// matches and decides it, else one that matches it, else the first.
/// Readings are taken in the reader's order, so a tie keeps the earlier.
/// None for no readings.
pub fn decide_readings(
    engine: &Engine,
    readings: Vec<ParsedReceipt>,
    purchase: PurchaseFacts<'_>,
) -> Option<(ParsedReceipt, ReceiptDecision)> {
    let confirmation = |reading: &ParsedReceipt, decision: &ReceiptDecision| match decision {
        ReceiptDecision::Mismatch { .. } => 0,
        ReceiptDecision::Matched { outcome: Outcome::NeedsReview, .. } => 1,
        ReceiptDecision::Matched { .. } if reading.adds_up() => 3,
        ReceiptDecision::Matched { .. } => 2,
    };
    let merged = merged_readings(engine, &readings);
    let mut best: Option<(ParsedReceipt, ReceiptDecision, u8)> = None;
    for reading in readings.into_iter().chain(merged) {
        let decision = decide(engine, &reading, purchase);
        let score = confirmation(&reading, &decision);
        if best.as_ref().is_none_or(|(_, _, kept)| score > *kept) {
            best = Some((reading, decision, score));
        }
    }
    best.map(|(reading, decision, _)| (reading, decision))
}

impl ParsedReceipt {
    /// Whether the reading is whole: its lines add up (`adds_up`) and the
    /// product lexicon names every one of them. A photo's reading with a
    /// word misread (`Camy` for `CANDY`) adds up and still leaves a line
    /// unknown; the reader reads such a photo again, and the core merges the
    /// readings line by line (`merged_readings`).
    pub fn reads_whole(&self) -> bool {
        let Ok(lexicon) = crate::lexicon::ItemLexicon::shared() else { return self.adds_up() };
        self.adds_up() && self.lines.iter().all(|line| lexicon.classify(&line.description).is_some())
    }

    /// Whether the lines read add up to what the receipt prints: its
    /// subtotal, or its total less its tax. A reading that does was likely
    /// read whole; the receipt reader tries other preparations of a photo
    /// until one does.
    pub fn adds_up(&self) -> bool {
        let lines: i64 = self.lines.iter().map(|l| l.amount_minor).sum();
        let printed = self.subtotal_minor.or(self.total_minor.map(|t| t - self.tax_minor.unwrap_or(0)));
        !self.lines.is_empty() && printed.is_some_and(|p| (p - lines).abs() <= 1)
    }
}

/// Classifies each line with the engine's item rules, matches the receipt
/// to the purchase (total within a cent, date within three days, the same
/// directory merchant when both name one), and says what it supports.
/// Tax is shared out over eligible lines in proportion, so a receipt whose
/// every line is eligible makes the whole amount eligible.
pub fn decide(engine: &Engine, receipt: &ParsedReceipt, purchase: PurchaseFacts<'_>) -> ReceiptDecision {
    let recovered = with_misread_tax(engine, receipt, purchase.amount_minor);
    let receipt = recovered.as_ref().unwrap_or(receipt);
    let mut lines: Vec<LineDecision> = classify_lines(engine, &receipt.lines, Store::of(engine, purchase.mcc));
    let total_minor = reconciled_total(receipt, purchase.amount_minor);
    repair_one_amount(&mut lines, receipt, total_minor);
    let subtotal: i64 = lines.iter().map(|l| l.amount_minor).sum();
    let eligible_lines: i64 = lines.iter().filter(|l| l.outcome == Outcome::Eligible).map(|l| l.amount_minor).sum();
    // The printed subtotal, when it can be one: not below the lines read
    // (lines go unread, they are not made up) nor above the total.
    let printed = receipt.subtotal_minor.filter(|s| *s >= subtotal && total_minor.is_none_or(|t| *s <= t));
    let missing = missing_lines(printed, subtotal, total_minor);
    // What the lines' share of the tax is reckoned on: the printed subtotal
    // when there is one, so an unread line is never taken for tax.
    let base = printed.filter(|s| *s > 0).unwrap_or(subtotal);
    // With no printed subtotal, a gap too large to be tax is no tax to share.
    let tax_is_known = printed.is_some() || missing.is_none();
    let eligible_minor = match total_minor {
        Some(total) if base > 0 && total >= base && eligible_lines > 0 && tax_is_known => {
            let tax = total - base;
            let share = ((tax as i128 * eligible_lines as i128 + base as i128 / 2) / base as i128) as i64;
            // A share of tax is never more than an eighth of what it is on.
            eligible_lines + share.min(eligible_lines / 8)
        }
        _ => eligible_lines.max(0),
    };

    let mismatch = |code: &'static str, reason: String| ReceiptDecision::Mismatch {
        lines: lines.clone(),
        eligible_minor,
        reason_code: code,
        reason,
    };
    let Some(total) = total_minor.or((!lines.is_empty()).then_some(subtotal)) else {
        return mismatch("receipt_total_missing", "No total or item amounts could be read from the receipt.".into());
    };
    if (total - purchase.amount_minor).abs() > 1 {
        return mismatch(
            "receipt_mismatch",
            format!(
                "The receipt's total ({}) is not the purchase's amount ({}): it may be for another purchase.",
                money(total),
                money(purchase.amount_minor)
            ),
        );
    }
    if let Some(date) = receipt.date {
        let apart = (date - purchase.date).num_days().abs();
        if apart > DATE_TOLERANCE_DAYS {
            return mismatch(
                "receipt_mismatch",
                format!("The receipt is dated {date}, {apart} days from the purchase ({}).", purchase.date),
            );
        }
    }
    if let (Some(expected), Some(name)) = (purchase.merchant_id, receipt.merchant.as_deref()) {
        let resolved = engine
            .adjudicate(&Purchase { description: name, merchant_name: None, mcc: None, amount_minor: 0, items: None })
            .merchant
            .and_then(|m| m.id);
        if resolved.is_some_and(|found| found != expected) {
            return mismatch(
                "receipt_mismatch",
                format!("The receipt is from '{name}', another merchant than the purchase's."),
            );
        }
    }
    if lines.is_empty() {
        return mismatch("receipt_no_items", "No item lines could be read from the receipt.".into());
    }
    let review: Vec<&str> =
        lines.iter().filter(|l| l.outcome == Outcome::NeedsReview).map(|l| l.description.as_str()).collect();
    let (outcome, reason_code, reason) = if let (Some(unread), 0) = (missing, eligible_lines.max(0)) {
        // An unread line may be the eligible one: a person decides.
        (
            Outcome::NeedsReview,
            "receipt_lines_missing",
            format!(
                "The lines read come to {} of the receipt's {}: {} could not be read.",
                money(subtotal),
                money(subtotal + unread),
                money(unread)
            ),
        )
    } else if !review.is_empty() {
        (Outcome::NeedsReview, "receipt_lines_need_review", review_reason(&lines))
    } else if eligible_lines <= 0 {
        (Outcome::Ineligible, "receipt_no_eligible_items", "No line of the receipt is an eligible item.".into())
    } else if eligible_minor >= purchase.amount_minor && missing.is_none() {
        (Outcome::Eligible, "receipt_substantiated", "Every line of the itemized receipt is eligible.".into())
    } else {
        (
            Outcome::Eligible,
            "partially_eligible",
            format!(
                "The itemized receipt substantiates {} of {} as eligible.",
                money(eligible_minor),
                money(purchase.amount_minor)
            ),
        )
    };
    let eligible_minor =
        if outcome == Outcome::Eligible { eligible_minor.min(purchase.amount_minor) } else { eligible_minor };
    ReceiptDecision::Matched { outcome, eligible_minor, lines, reason_code, reason }
}

/// Why a receipt's review lines hold it: the lines no term names, and those
/// that name care at a store that sells none.
fn review_reason(lines: &[LineDecision]) -> String {
    let named = |held: bool| -> Vec<&str> {
        lines
            .iter()
            .filter(|l| l.outcome == Outcome::NeedsReview && l.held_for_its_store == held)
            .map(|l| l.description.as_str())
            .collect()
    };
    let (unread, held) = (named(false), named(true));
    let mut parts = Vec::new();
    if !unread.is_empty() {
        parts.push(format!("{} line(s) of the receipt could not be classified: {}.", unread.len(), unread.join(", ")));
    }
    if !held.is_empty() {
        parts.push(format!(
            "{} line(s) name care at a store whose category sells none, so a person decides: {}.",
            held.len(),
            held.join(", ")
        ));
    }
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const PHARMACY: &str = "CVS/pharmacy #04562
1200 MAIN ST AUSTIN TX 78701
11/20/2026 14:02
IBUPROFEN 200MG 50CT      8.99 F
BANDAGES ASSORTED 30CT    4.49 F
SUBTOTAL                 13.48
TAX                       0.00
TOTAL                    13.48
VISA ****1234            13.48
";

    fn engine() -> Engine {
        Engine::seeded().unwrap()
    }

    fn items(lines: &[&str]) -> Vec<ParsedLine> {
        lines.iter().map(|d| ParsedLine { description: d.to_string(), amount_minor: 100 }).collect()
    }

    #[test]
    fn a_store_that_sells_no_care_holds_care_words_and_calls_its_unknown_goods_its_own() {
        let engine = engine();
        let lines = items(&["FLOOR LINERS FRONT", "MOBIL 1 0W20 5QT", "WIPER BLADES 22IN", "IBUPROFEN 200MG"]);
        let at = |store| -> Vec<(Outcome, bool, LineCategory)> {
            classify_lines(&engine, &lines, store)
                .into_iter()
                .map(|d| (d.outcome, d.held_for_its_store, d.category))
                .collect()
        };
        let auto_parts = Store::of(&engine, Some("5533"));
        assert_eq!(auto_parts, Store::SellsNoCare);
        let read = at(auto_parts);
        // A word of care is held for a person, whatever it names.
        assert_eq!((read[0].0, read[0].1), (Outcome::NeedsReview, true));
        assert_eq!((read[3].0, read[3].1), (Outcome::NeedsReview, true));
        // A line no term names is the store's own goods; a known one keeps its reading.
        assert_eq!(read[1], (Outcome::Ineligible, false, LineCategory::StoreGoods));
        assert_eq!((read[2].0, read[2].1), (Outcome::Ineligible, false));
        assert!(matches!(read[2].2, LineCategory::Named(_)), "{:?}", read[2].2);
        // Elsewhere, or with no code, the words alone decide.
        for store in [Store::of(&engine, Some("5912")), Store::of(&engine, None), Store::MaySellCare] {
            assert_eq!(store, Store::MaySellCare);
            let read = at(store);
            assert_eq!((read[0].0, read[0].1), (Outcome::Eligible, false));
            assert_eq!(read[1], (Outcome::NeedsReview, false, LineCategory::Unclassified));
        }
    }

    #[test]
    fn a_receipt_from_a_store_that_sells_no_care_says_which_lines_wait_for_a_person() {
        let text =
            "NAPA Auto Parts\n11/20/2026\nMOBIL 1 0W20 5QT     34.99\nFLOOR LINERS FRONT   34.99\nTOTAL   69.98\n";
        let receipt = parse(text);
        let at = |mcc| PurchaseFacts { mcc, ..facts(6998) };
        let ReceiptDecision::Matched { outcome, reason_code, reason, .. } =
            decide(&engine(), &receipt, at(Some("5533")))
        else {
            panic!("the receipt matches its purchase")
        };
        assert_eq!((outcome, reason_code), (Outcome::NeedsReview, "receipt_lines_need_review"));
        assert!(reason.contains("name care at a store whose category sells none") && reason.contains("FLOOR LINERS"));
        assert!(!reason.contains("could not be classified"), "{reason}");
        // With no code the liners read as care, and the oil as nothing known.
        let ReceiptDecision::Matched { outcome, reason, .. } = decide(&engine(), &receipt, at(None)) else {
            panic!("the receipt matches its purchase")
        };
        assert_eq!(outcome, Outcome::NeedsReview);
        assert!(reason.contains("could not be classified: MOBIL 1 0W20 5QT."), "{reason}");
    }

    #[test]
    fn a_stores_own_prefix_decides_nothing_on_its_lines() {
        // `SNS` abbreviates SINUS; printed before every line of Shop 'n
        // Save's receipt it is the store's.
        let receipt = items(&["SNS HAM SLICED LB", "SNS MOTOR OIL 5QT", "SNS PAPER TOWEL 8RL", "SNS IBUPROFEN 200MG"]);
        assert_eq!(store_prefix(receipt.iter().map(|l| l.description.as_str())).as_deref(), Some("SNS"));
        let outcomes: Vec<Outcome> =
            classify_lines(&engine(), &receipt, Store::MaySellCare).iter().map(|d| d.outcome).collect();
        assert_eq!(outcomes, [Outcome::Ineligible, Outcome::Ineligible, Outcome::Ineligible, Outcome::Eligible]);
        // The decision keeps the line as printed.
        assert_eq!(classify_lines(&engine(), &receipt, Store::MaySellCare)[0].description, "SNS HAM SLICED LB");
        // Alone, the line is read whole, as before.
        assert_eq!(classify_line(&engine(), &receipt[0]).outcome, Outcome::Eligible);
    }

    #[test]
    fn a_prefix_needs_most_lines_and_a_word_the_lexicon_does_not_know() {
        // Two lines of five, or a first word that is the only word: no prefix.
        assert_eq!(store_prefix(["SNS HAM", "SNS OIL", "MILK", "EGGS", "BREAD"].into_iter()), None);
        assert_eq!(store_prefix(["SNS", "SNS", "SNS"].into_iter()), None);
        // A word that follows the first on as many lines is the store's too,
        // though it names care: `RX` in a drugstore's brand decides nothing.
        let receipt =
            items(&["MAG RX SHAMPOO 12OZ", "MAG RX PAPER TOWELS 2", "MAG RX IBUPROFEN 200MG", "MAG RX POSTCARD"]);
        assert_eq!(store_prefix(receipt.iter().map(|l| l.description.as_str())).as_deref(), Some("MAG RX"));
        let outcomes: Vec<Outcome> =
            classify_lines(&engine(), &receipt, Store::MaySellCare).iter().map(|d| d.outcome).collect();
        assert_eq!(outcomes[..3], [Outcome::Ineligible, Outcome::Ineligible, Outcome::Eligible]);
        // A word the lexicon knows may be the product's: it stays.
        let receipt = items(&["IBUPROFEN 200MG 24CT", "IBUPROFEN 200MG 50CT", "IBUPROFEN PM 20CT"]);
        let outcomes: Vec<Outcome> =
            classify_lines(&engine(), &receipt, Store::MaySellCare).iter().map(|d| d.outcome).collect();
        assert_eq!(outcomes, [Outcome::Eligible; 3]);
    }

    #[test]
    fn a_pharmacy_receipt_parses() {
        let parsed = parse(PHARMACY);
        assert_eq!(parsed.merchant.as_deref(), Some("CVS/pharmacy #04562"));
        assert_eq!(parsed.date, NaiveDate::from_ymd_opt(2026, 11, 20));
        assert_eq!(parsed.total_minor, Some(1348));
        let lines: Vec<(&str, i64)> = parsed.lines.iter().map(|l| (l.description.as_str(), l.amount_minor)).collect();
        assert_eq!(lines, vec![("IBUPROFEN 200MG 50CT", 899), ("BANDAGES ASSORTED 30CT", 449)]);
    }

    #[test]
    fn flags_a_photo_misread_and_smudges_above_the_merchant_do_not_hide_lines() {
        let parsed = parse(
            "——xu=<e— ~\nWalgreens #1234\nTOILET PAPER 14.55 8\nMILK CHOCOLATE 4.248\nANTACID 13.81\"\nTOTAL 32.60\n",
        );
        assert_eq!(parsed.merchant.as_deref(), Some("Walgreens #1234"));
        let amounts: Vec<i64> = parsed.lines.iter().map(|l| l.amount_minor).collect();
        assert_eq!(amounts, [1455, 424, 1381]);
    }

    #[test]
    fn a_card_bought_is_an_item_and_a_card_paid_with_is_not() {
        let parsed = parse("STORE\nGREETING CARD 4.99\nGIFT CARD 25.00\nCARD XXXXXXXX1234 29.99\nTOTAL 29.99\n");
        let items: Vec<&str> = parsed.lines.iter().map(|l| l.description.as_str()).collect();
        assert_eq!(items, vec!["GREETING CARD", "GIFT CARD"]);
    }

    #[test]
    fn dates_in_common_forms() {
        assert_eq!(find_date("Date: 2026-11-02"), NaiveDate::from_ymd_opt(2026, 11, 2));
        assert_eq!(find_date("11/02/26 9:14"), NaiveDate::from_ymd_opt(2026, 11, 2));
        assert_eq!(find_date("Service date Nov 2, 2026"), NaiveDate::from_ymd_opt(2026, 11, 2));
        assert_eq!(find_date("no date"), None);
    }

    #[test]
    fn mixed_baskets_share_tax_over_eligible_lines() {
        let engine = Engine::seeded().unwrap();
        let text = "TARGET\n2026-11-20\nCETIRIZINE 10MG 30CT 10.00\nPOTATO CHIPS 5.00\nSUBTOTAL 15.00\nTAX 1.50\nTOTAL 16.50\n";
        let facts = PurchaseFacts {
            amount_minor: 1650,
            date: NaiveDate::from_ymd_opt(2026, 11, 21).unwrap(),
            merchant_id: None,
            mcc: None,
        };
        match decide(&engine, &parse(text), facts) {
            ReceiptDecision::Matched { outcome, eligible_minor, reason_code, .. } => {
                assert_eq!(outcome, Outcome::Eligible);
                assert_eq!(eligible_minor, 1100, "10.00 plus two thirds of the tax");
                assert_eq!(reason_code, "partially_eligible");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_misread_tax_line_is_the_tax_only_when_it_adds_up_as_one() {
        let engine = Engine::seeded().unwrap();
        let photo = "Walgreens #1234\nBLOOD PRESSURE MONITOR 39.99\nTAK 3.60\n";
        match decide(&engine, &parse(photo), facts(4359)) {
            ReceiptDecision::Matched { outcome, eligible_minor, lines, .. } => {
                assert_eq!((outcome, eligible_minor), (Outcome::Eligible, 4359), "the tax goes with the monitor");
                assert_eq!(lines.len(), 1, "the tax is no item");
            }
            other => panic!("{other:?}"),
        }
        // Too large to be tax on 39.99: a line, and unclassified.
        let too_large = "Walgreens #1234\nBLOOD PRESSURE MONITOR 39.99\nTAK 13.60\n";
        match decide(&engine, &parse(too_large), facts(5359)) {
            ReceiptDecision::Matched { outcome, lines, .. } => {
                assert_eq!((outcome, lines.len()), (Outcome::NeedsReview, 2));
            }
            other => panic!("{other:?}"),
        }
        // Not what the purchase came to: nothing is recovered.
        assert!(with_misread_tax(&engine, &parse(photo), 4400).is_none());
        // A tax line read as such leaves a look-alike an item.
        assert!(with_misread_tax(&engine, &parse("S\nMONITOR 39.99\nTAK 3.60\nTAX 1.00\n"), 4459).is_none());
    }

    #[test]
    fn readings_are_merged_line_by_line_by_their_amounts() {
        let engine = Engine::seeded().unwrap();
        // The first reading misread a word; the second misread the total.
        // The amounts say which lines are the same.
        let first = parse("TARGET\nPOTATO CHIPS 3.99\nSODA 2L 2.49\nCamy 1.99\nSUBTOTAL 8.47\nTOTAL 8.47\n");
        let second = parse("TARGET\nPOTATO CHIPS 3.99\nSODA 2L 2.49\nCANDY 1.99\nTOTAL 8.74\n");
        assert!(first.adds_up() && !first.reads_whole(), "adds up, a line unknown");
        let merged = merged_readings(&engine, &[first.clone(), second.clone()]);
        assert_eq!(merged.len(), 1, "only the reading with an unknown line changes");
        let lines: Vec<&str> = merged[0].lines.iter().map(|l| l.description.as_str()).collect();
        assert_eq!(lines, ["POTATO CHIPS", "SODA 2L", "CANDY"]);
        assert!(merged[0].reads_whole());
        let (_, decision) = decide_readings(&engine, vec![first.clone(), second], facts(847)).unwrap();
        match decision {
            ReceiptDecision::Matched { outcome, .. } => assert_eq!(outcome, Outcome::Ineligible),
            other => panic!("{other:?}"),
        }
        // No line of another amount is borrowed, and one reading alone is
        // not merged.
        let other = parse("TARGET\nCANDY 2.99\n");
        assert!(merged_readings(&engine, &[first.clone(), other]).is_empty());
        assert!(merged_readings(&engine, &[first]).is_empty());
    }

    fn facts(amount_minor: i64) -> PurchaseFacts<'static> {
        PurchaseFacts {
            amount_minor,
            date: NaiveDate::from_ymd_opt(2026, 11, 21).unwrap(),
            merchant_id: None,
            mcc: None,
        }
    }

    #[test]
    fn misread_total_words_are_named_by_their_sums() {
        let parsed = parse(
            "TARGET\nGAUZE PADS 13.32 6\nCOLA 12PK CANS 5.37\nDOG FOOD 13.17 5\nSearern. 31.86\na 0.00\nMiia 31.86\n",
        );
        assert_eq!((parsed.subtotal_minor, parsed.total_minor), (Some(3186), Some(3186)));
        assert_eq!(parsed.lines.len(), 3);
        // An item that is the sum of those above it, on a receipt whose
        // total was read, stays an item.
        let read = parse("SHOP\nA THING 2.00\nB THING 3.00\nC THING 5.00\nTOTAL 10.00\n");
        assert_eq!((read.lines.len(), read.total_minor), (3, Some(1000)));
        // A line after it that is not the total: nothing is guessed.
        let unsure = parse("SHOP\nA THING 2.00\nB THING 3.00\nC THING 5.00\nD THING 4.00\n");
        assert_eq!((unsure.lines.len(), unsure.total_minor), (4, None));
    }

    #[test]
    fn a_year_out_of_range_is_no_date_and_a_flag_may_be_two_signs() {
        assert_eq!(parse("SHOP\n11/12/2626 10:41\nCOLA 5.37.\"\n").date, None);
        assert_eq!(parse("SHOP\n11/12/2626 11/12/2026\n").date, NaiveDate::from_ymd_opt(2026, 11, 12));
        assert_eq!(parse("SHOP\nCOLA 12PK CANS 5.37.\"\n").lines[0].amount_minor, 537);
    }

    #[test]
    fn a_five_read_as_s_before_the_cents_is_a_five() {
        let parsed = parse("TARGET\nCOLA 12PK CANS S.36\"\nTOILET PAPER 29.63\n");
        assert_eq!(parsed.lines[0].amount_minor, 536);
        assert_eq!(parsed.lines[0].description, "COLA 12PK CANS");
        // A word ending in S before an amount is not touched.
        assert_eq!(parse("X\nSOCKS 4.99\n").lines[0].amount_minor, 499);
    }

    #[test]
    fn of_two_readings_the_one_the_purchase_confirms_is_kept() {
        let engine = crate::tests::engine();
        // The first reading misread the total and a word; the second read both.
        let misread = parse("CVS\nIBUPROFEN 200MG 8.99\nCamy 1.99\nTOTAL 18.98\n");
        let clear = parse("CVS\nIBUPROFEN 200MG 8.99\nCANDY 1.99\nTOTAL 10.98\n");
        let (kept, decision) = decide_readings(&engine, vec![misread.clone(), clear.clone()], facts(1098)).unwrap();
        assert_eq!(kept, clear);
        assert!(
            matches!(decision, ReceiptDecision::Matched { outcome: Outcome::Eligible, eligible_minor: 899, .. }),
            "{decision:?}"
        );
        // Two readings that decide: the one whose lines add up to its total.
        let short = parse("WALGREENS\nIBUPROFEN 200MG 6.99\nPHONE CHARGER 14.99\nSUBTOTAL 23.98\nTOTAL 23.98\n");
        let whole = parse("WALGREENS\nIBUPROFEN 2006G 8.99\nPHONE CHARGER 14.99\nSUBTOTAL 23.98\nTOTAL 23.98\n");
        let (kept, decision) = decide_readings(&engine, vec![short, whole.clone()], facts(2398)).unwrap();
        assert_eq!(kept, whole);
        assert!(matches!(decision, ReceiptDecision::Matched { eligible_minor: 899, .. }), "{decision:?}");
        // Readings that confirm alike: the reader's first choice stays.
        let (kept, _) = decide_readings(&engine, vec![clear.clone(), clear.clone()], facts(1098)).unwrap();
        assert_eq!(kept, clear);
        // None confirms: the first, with its mismatch.
        let (kept, decision) = decide_readings(&engine, vec![misread.clone(), clear], facts(5000)).unwrap();
        assert_eq!(kept, misread);
        assert!(matches!(decision, ReceiptDecision::Mismatch { .. }));
        assert!(decide_readings(&engine, Vec::new(), facts(1098)).is_none());
    }

    #[test]
    fn subtotal_and_tax_are_read_apart_from_the_items() {
        let parsed = parse("TARGET\nCETIRIZINE 10.00\nCHIPS 5.00\nSUBTOTAL 15.00\nTAX 1.00\nTAX 0.50\nTOTAL 16.50\n");
        assert_eq!((parsed.subtotal_minor, parsed.tax_minor, parsed.total_minor), (Some(1500), Some(150), Some(1650)));
        assert_eq!(parsed.lines.len(), 2);
    }

    #[test]
    fn a_total_misread_by_a_photo_is_taken_from_the_parts_that_add_up() {
        let engine = Engine::seeded().unwrap();
        // The total's 6 read as 8: subtotal and tax still come to the purchase.
        let text = "STORE\nCETIRIZINE 10MG 10.00\nPOTATO CHIPS 5.00\nSUBTOTAL 15.00\nTAX 1.50\nTOTAL 18.50\n";
        match decide(&engine, &parse(text), facts(1650)) {
            ReceiptDecision::Matched { outcome, eligible_minor, .. } => {
                assert_eq!((outcome, eligible_minor), (Outcome::Eligible, 1100));
            }
            other => panic!("{other:?}"),
        }
        // Nothing adds up to the purchase: another purchase's receipt.
        assert!(matches!(
            decide(&engine, &parse(text), facts(2000)),
            ReceiptDecision::Mismatch { reason_code: "receipt_mismatch", .. }
        ));
    }

    #[test]
    fn a_line_misread_by_one_digit_is_corrected_when_the_sums_say_which() {
        let engine = Engine::seeded().unwrap();
        // CHIPS 5.00 read as 8.00: the subtotal says the lines come to 15.00.
        let text = "STORE\nCETIRIZINE 10MG 10.00\nPOTATO CHIPS 8.00\nSUBTOTAL 15.00\nTAX 1.50\nTOTAL 16.50\n";
        match decide(&engine, &parse(text), facts(1650)) {
            ReceiptDecision::Matched { eligible_minor, lines, .. } => {
                assert_eq!(eligible_minor, 1100);
                assert_eq!(lines[1].amount_minor, 500);
            }
            other => panic!("{other:?}"),
        }
        assert!(one_digit_apart(670, 70) && one_digit_apart(800, 500) && !one_digit_apart(800, 450));
        assert!(one_digit_apart(27915, 2915), "a digit read twice");
    }

    #[test]
    fn an_unread_line_is_never_taken_for_tax() {
        let engine = Engine::seeded().unwrap();
        let outcome = |text: &str, amount| match decide(&engine, &parse(text), facts(amount)) {
            ReceiptDecision::Matched { outcome, eligible_minor, reason_code, .. } => {
                (outcome, eligible_minor, reason_code)
            }
            other => panic!("{other:?}"),
        };
        // A 3.50 line was not read: the lines come to 10.00 of 13.50.
        let text = "STORE\nIBUPROFEN 200MG 10.00\nSUBTOTAL 13.50\nTAX 1.35\nTOTAL 14.85\n";
        assert_eq!(outcome(text, 1485), (Outcome::Eligible, 1100, "partially_eligible"), "10.00 and its share of tax");
        // No subtotal: a gap of more than an eighth of the lines is no tax.
        let text = "STORE\nIBUPROFEN 200MG 10.00\nTOTAL 13.50\n";
        assert_eq!(outcome(text, 1350), (Outcome::Eligible, 1000, "partially_eligible"));
        // A tax-sized gap is tax.
        let text = "STORE\nIBUPROFEN 200MG 10.00\nTOTAL 10.80\n";
        assert_eq!(outcome(text, 1080), (Outcome::Eligible, 1080, "receipt_substantiated"));
        // A subtotal misread below the lines is no subtotal: it neither
        // hides lines nor turns the rest of the total into tax.
        let text =
            "STORE\nPAPER TOWELS 18.49\nACETAMINOPHEN 5.91\nMAGAZINE 1.55\nBANANAS 27.92\nSUBTOTAL 3.87\nTOTAL 53.87\n";
        assert_eq!(outcome(text, 5387), (Outcome::Eligible, 591, "partially_eligible"));
        // With no eligible line read, the unread one may be it.
        let text = "STORE\nPOTATO CHIPS 5.00\nSUBTOTAL 8.50\nTOTAL 8.50\n";
        assert_eq!(outcome(text, 850).2, "receipt_lines_missing");
    }

    #[test]
    fn another_purchase_is_a_mismatch() {
        let engine = Engine::seeded().unwrap();
        let facts = PurchaseFacts {
            amount_minor: 4200,
            date: NaiveDate::from_ymd_opt(2026, 11, 20).unwrap(),
            merchant_id: None,
            mcc: None,
        };
        assert!(matches!(
            decide(&engine, &parse(PHARMACY), facts),
            ReceiptDecision::Mismatch { reason_code: "receipt_mismatch", .. }
        ));
        let late = PurchaseFacts {
            amount_minor: 1348,
            date: NaiveDate::from_ymd_opt(2026, 12, 20).unwrap(),
            merchant_id: None,
            mcc: None,
        };
        assert!(matches!(decide(&engine, &parse(PHARMACY), late), ReceiptDecision::Mismatch { .. }));
        let same = PurchaseFacts {
            amount_minor: 1348,
            date: NaiveDate::from_ymd_opt(2026, 11, 21).unwrap(),
            merchant_id: None,
            mcc: None,
        };
        assert!(matches!(
            decide(&engine, &parse(PHARMACY), same),
            ReceiptDecision::Matched { outcome: Outcome::Eligible, eligible_minor: 1348, .. }
        ));
    }
}
