//! Descriptor normalisation: a raw bank descriptor such as
//! `PURCHASE AUTHORIZED ON 05/14 CVS/PHARMACY #08871 AUSTIN TX P000000123456789 CARD 1234`
//! becomes the words that name the merchant (`CVS PHARMACY AUSTIN TX`), with an
//! MCC appended after `~` parsed out and a payment facilitator prefix
//! (`SQ *`, `TST*`) recognised. The conventions come from the notes of
//! `data/descriptors.csv`.

/// A descriptor reduced to its merchant-naming words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Normalized {
    /// Upper-case words separated by single spaces; punctuation is a space,
    /// apostrophes vanish.
    pub text: String,
    /// An MCC some bank exports append after `~` (`…077~5912`).
    pub embedded_mcc: Option<String>,
    /// The payment facilitator the descriptor came through (`Square`, `Toast`).
    pub facilitator: Option<&'static str>,
}

/// Two-letter state codes a bank prints after the city, behind the name.
pub const STATES: &[&str] = &[
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA",
    "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR",
    "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY", "PR",
];

/// Bank wrappers in front of the merchant name, each followed by date or
/// time tokens that go with it.
const WRAPPERS: &[&str] = &[
    "PURCHASE AUTHORIZED ON ",
    "DEBIT CARD PURCHASE ",
    "RECURRING PAYMENT ",
    "POS PURCHASE ",
    "POS DEBIT ",
    "POS PUR ",
    "CHECKCARD ",
    "PURCHASE ",
];

/// Payment facilitators: prefix (upper-case) and name.
const FACILITATORS: &[(&str, &str)] = &[
    ("SQ *", "Square"),
    ("SQ*", "Square"),
    ("TST* ", "Toast"),
    ("TST*", "Toast"),
    ("SP * ", "Shopify"),
    ("PAYPAL *", "PayPal"),
    ("PP*", "PayPal"),
];

/// Upper-cases, drops apostrophes, turns other punctuation into spaces and
/// collapses whitespace: the form both descriptors and aliases are matched in.
pub fn canonical_words(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for c in text.chars() {
        if c == '\'' || c == '’' {
            continue;
        }
        if c.is_ascii_alphanumeric() {
            if pending_space && !out.is_empty() {
                out.push(' ');
            }
            pending_space = false;
            out.push(c.to_ascii_uppercase());
        } else if c == '&' {
            // "HIMS & HERS" and "HIMS AND HERS" should meet: drop it.
            pending_space = true;
        } else {
            pending_space = true;
        }
    }
    out
}

/// Whether two printed forms differ by one character: one read as
/// another, one left out or one added (`6.70` and `0.70`, `279.15` and
/// `29.15`, `IBUPR0FEN` and `IBUPROFEN`), as OCR and tills misprint them.
pub fn one_character_apart(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len() == b.len() {
        return a.iter().zip(&b).filter(|(x, y)| x != y).count() == 1;
    }
    let (long, short) = if a.len() > b.len() { (&a, &b) } else { (&b, &a) };
    long.len() == short.len() + 1
        && (0..long.len()).any(|skip| long.iter().enumerate().filter(|(i, _)| *i != skip).map(|(_, c)| c).eq(short))
}

/// The singular forms a word that looks plural may have (`COOKIES` →
/// `COOKIE`, `BERRIES` → `BERRY`, `TOMATOES` → `TOMATO`,
/// `ANESTHESIOLOGISTS` → `ANESTHESIOLOGIST`), most likely first; none for
/// a word of fewer than four letters or one ending in `SS` (`GLASS`).
/// Receipt lines and merchant names both print plurals of the words the
/// tables hold in the singular.
pub fn singular_forms(word: &str) -> impl Iterator<Item = std::borrow::Cow<'_, str>> {
    let plural = word.len() >= 4 && word.ends_with('S') && !word.ends_with("SS");
    let without_s = plural.then(|| std::borrow::Cow::Borrowed(&word[..word.len() - 1]));
    // Built only when the forms before it did not serve (`find_map` stops
    // at the first that does).
    let ies =
        word.strip_suffix("IES").filter(|_| plural).into_iter().map(|stem| std::borrow::Cow::Owned(format!("{stem}Y")));
    let es = word.strip_suffix("ES").filter(|_| plural).map(std::borrow::Cow::Borrowed);
    without_s.into_iter().chain(ies).chain(es)
}

fn is_date_or_time(token: &str) -> bool {
    let digits_and = |sep: char| {
        token.contains(sep) && token.split(sep).all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
    };
    digits_and('/') || digits_and(':') || (token.len() == 4 && token.bytes().all(|b| b.is_ascii_digit()))
}

/// Reference and store-number tokens carry no merchant identity.
fn is_reference(token: &str) -> bool {
    let digits = token.bytes().filter(u8::is_ascii_digit).count();
    token.starts_with('#')
        || (digits >= 3 && digits == token.len())
        // P000000123456789, 24431066212345678901234, 0062345678901
        || digits >= 8
}

pub fn normalize(raw: &str) -> Normalized {
    let mut text = raw.trim().to_ascii_uppercase();

    let mut embedded_mcc = None;
    if let Some(at) = text.rfind('~') {
        let tail = &text[at + 1..];
        if tail.len() == 4 && tail.bytes().all(|b| b.is_ascii_digit()) {
            embedded_mcc = Some(tail.to_string());
            text.truncate(at);
        }
    }

    let mut rest = text.as_str();
    for wrapper in WRAPPERS {
        if let Some(stripped) = rest.strip_prefix(wrapper) {
            rest = stripped.trim_start();
            while let Some((first, after)) = rest.split_once(' ') {
                if is_date_or_time(first) {
                    rest = after.trim_start();
                } else {
                    break;
                }
            }
            break;
        }
    }

    let mut facilitator = None;
    for (prefix, name) in FACILITATORS {
        if let Some(stripped) = rest.strip_prefix(prefix) {
            facilitator = Some(*name);
            rest = stripped.trim_start();
            break;
        }
    }

    let mut kept: Vec<&str> = Vec::new();
    let mut tokens = rest.split_whitespace().peekable();
    while let Some(token) = tokens.next() {
        // "CARD 1234": the card's last four digits.
        if token == "CARD"
            && tokens.peek().is_some_and(|next| next.len() == 4 && next.bytes().all(|b| b.is_ascii_digit()))
        {
            tokens.next();
            continue;
        }
        if is_reference(token) {
            continue;
        }
        kept.push(token);
    }
    Normalized { text: canonical_words(&kept.join(" ")), embedded_mcc, facilitator }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plural_finds_its_singular_forms() {
        let forms = |word: &str| singular_forms(word).map(|f| f.into_owned()).collect::<Vec<_>>();
        assert_eq!(forms("PATHOLOGISTS"), ["PATHOLOGIST"]);
        assert_eq!(forms("BERRIES"), ["BERRIE", "BERRY", "BERRI"]);
        assert_eq!(forms("TOMATOES"), ["TOMATOE", "TOMATO"]);
        assert!(forms("GLASS").is_empty() && forms("ADS").is_empty() && forms("CLINIC").is_empty());
    }

    #[test]
    fn strips_bank_wrappers_references_and_store_numbers() {
        let n = normalize("PURCHASE AUTHORIZED ON 05/14 CVS/PHARMACY #08871 AUSTIN TX P000000123456789 CARD 1234");
        assert_eq!(n.text, "CVS PHARMACY AUSTIN TX");
        assert_eq!(
            normalize("CHECKCARD 0612 WALGREENS #5678 CHICAGO IL 24431066212345678901234").text,
            "WALGREENS CHICAGO IL"
        );
        assert_eq!(normalize("WAL-MART #2767 MESA AZ").text, "WAL MART MESA AZ");
        assert_eq!(normalize("DELTA AIR LINES 0062345678901").text, "DELTA AIR LINES");
    }

    #[test]
    fn parses_an_appended_mcc() {
        let n = normalize("POS PUR 11/16 12:56 KIDS PLUS PEDIAT PITTSBURGH PA 75764534 05098~8011");
        assert_eq!(n.embedded_mcc.as_deref(), Some("8011"));
        assert_eq!(n.text, "KIDS PLUS PEDIAT PITTSBURGH PA");
    }

    #[test]
    fn recognises_facilitators() {
        let n = normalize("SQ *DR SMITH DDS");
        assert_eq!((n.text.as_str(), n.facilitator), ("DR SMITH DDS", Some("Square")));
        assert_eq!(normalize("TST*ROSEWOOD GRILL").facilitator, Some("Toast"));
    }

    #[test]
    fn canonical_words_meet_directory_names() {
        assert_eq!(canonical_words("Sam's Club"), "SAMS CLUB");
        assert_eq!(canonical_words("Hims & Hers"), "HIMS HERS");
        assert_eq!(canonical_words("1-800 Contacts"), "1 800 CONTACTS");
        assert_eq!(canonical_words("APPLE.COM/BILL"), "APPLE COM BILL");
    }
}
