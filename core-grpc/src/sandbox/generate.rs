//! Deterministic sandbox data: the same seed (user, provider, kind) always
//! yields the same accounts and purchase history, relative to the link date,
//! so partners can write stable tests against the sandbox.

use chrono::{Datelike, Days, NaiveDate};
use rand::{Rng, SeedableRng, seq::SliceRandom};
use rand_chacha::ChaCha8Rng;
use sha2::{Digest, Sha256};

use std::sync::LazyLock;

use sail_engine::reference::{self, DescriptorRow, ReferenceError};

use entities::enums::AccountType;

use crate::services::accounts::StoredHolding;
use crate::services::pii::{StoredAddress, StoredIdentity};

/// The reference card descriptors card histories are drawn from. Checked
/// once at start-up by [`load_reference`], so this never reads as empty.
static DESCRIPTORS: LazyLock<Vec<DescriptorRow>> = LazyLock::new(|| reference::descriptors().unwrap_or_default());

/// Loads the sandbox's reference data, failing loudly when it does not parse
/// (the core refuses to start).
pub fn load_reference() -> Result<(), ReferenceError> {
    reference::descriptors().map(|_| ())
}

/// A seeded generator for one (user, provider, kind).
pub fn rng_for(seed: &str) -> ChaCha8Rng {
    let digest = Sha256::digest(seed.as_bytes());
    let mut bytes = [0u8; 32];
    bytes.copy_from_slice(&digest);
    ChaCha8Rng::from_seed(bytes)
}

/// 2025 IRS limits (data/README.md): HSA self-only and family, health FSA.
pub const HSA_LIMIT_SELF_MINOR: i64 = 430_000;
pub const HSA_LIMIT_FAMILY_MINOR: i64 = 855_000;
pub const FSA_LIMIT_MINOR: i64 = 330_000;

/// An account of a sandbox administrator login.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedAccount {
    pub external_id: String,
    pub name: String,
    pub account_type: AccountType,
    pub start_date: NaiveDate,
    pub end_date: Option<NaiveDate>,
    pub cash_minor: i64,
    pub invested_minor: Option<i64>,
    pub tax_year: i32,
    pub contributions_ytd_minor: i64,
    pub contribution_limit_minor: Option<i64>,
    pub coverage: Option<&'static str>,
    pub holdings: Vec<StoredHolding>,
}

const FUNDS: [(&str, &str); 5] = [
    ("Vanguard Total Stock Market Index Fund Admiral", "VTSAX"),
    ("Fidelity 500 Index Fund", "FXAIX"),
    ("Vanguard Total Bond Market Index Fund Admiral", "VBTLX"),
    ("Vanguard Total International Stock Index Fund Admiral", "VTIAX"),
    ("Schwab Target 2050 Index Fund", "SWYMX"),
];

fn cents(rng: &mut ChaCha8Rng, min_dollars: i64, max_dollars: i64) -> i64 {
    rng.random_range(min_dollars * 100..=max_dollars * 100)
}

/// One to three accounts of the types the administrator holds (`hsa|fsa|hra`).
pub fn benefit_accounts(
    seed: &str,
    administrator: &str,
    account_types: &str,
    today: NaiveDate,
) -> Vec<GeneratedAccount> {
    let mut rng = rng_for(seed);
    let mut kinds: Vec<&str> = account_types.split('|').filter(|k| ["hsa", "fsa", "hra"].contains(k)).collect();
    if kinds.is_empty() {
        kinds.push("hsa");
    }
    kinds.shuffle(&mut rng);
    let count = rng.random_range(1..=kinds.len().min(3));
    kinds.truncate(count);
    kinds.sort_by_key(|k| ["hsa", "fsa", "hra"].iter().position(|o| o == k));

    let year = today.year();
    let jan_1 = NaiveDate::from_ymd_opt(year, 1, 1).unwrap_or(today);
    let dec_31 = NaiveDate::from_ymd_opt(year, 12, 31).unwrap_or(today);
    let year_elapsed = f64::from(today.ordinal()) / 365.0;
    kinds
        .into_iter()
        .map(|kind| {
            let number = rng.random_range(10_000_000u32..100_000_000);
            match kind {
                "hsa" => {
                    let family = rng.random_bool(0.35);
                    let limit = if family { HSA_LIMIT_FAMILY_MINOR } else { HSA_LIMIT_SELF_MINOR };
                    let opened_years_ago = rng.random_range(1..=6);
                    let start =
                        NaiveDate::from_ymd_opt(year - opened_years_ago, rng.random_range(1..=12), 1).unwrap_or(jan_1);
                    let invested = rng.random_bool(0.6).then(|| cents(&mut rng, 1_000, 30_000));
                    let holdings = match invested {
                        None => Vec::new(),
                        Some(total) => {
                            let mut funds = FUNDS.to_vec();
                            funds.shuffle(&mut rng);
                            let picked = &funds[..rng.random_range(1..=3)];
                            let mut left = total;
                            picked
                                .iter()
                                .enumerate()
                                .map(|(i, (name, symbol))| {
                                    let value = if i + 1 == picked.len() {
                                        left
                                    } else {
                                        left * rng.random_range(30..70) / 100
                                    };
                                    left -= value;
                                    StoredHolding {
                                        name: name.to_string(),
                                        symbol: symbol.to_string(),
                                        value_minor: value,
                                    }
                                })
                                .collect()
                        }
                    };
                    GeneratedAccount {
                        external_id: format!("HSA-{number}"),
                        name: format!("{administrator} Health Savings Account"),
                        account_type: AccountType::Hsa,
                        start_date: start,
                        end_date: None,
                        cash_minor: cents(&mut rng, 300, 9_000),
                        invested_minor: invested,
                        tax_year: year,
                        contributions_ytd_minor: (limit as f64 * year_elapsed * rng.random_range(0.3..1.0)) as i64,
                        contribution_limit_minor: Some(limit),
                        coverage: Some(if family { "family" } else { "self_only" }),
                        holdings,
                    }
                }
                "fsa" => {
                    let election = cents(&mut rng, 500, 3_300);
                    let spent = election * rng.random_range(0..60) / 100;
                    GeneratedAccount {
                        external_id: format!("FSA-{number}"),
                        name: format!("{administrator} Health Care FSA"),
                        account_type: AccountType::Fsa,
                        start_date: jan_1,
                        end_date: Some(dec_31),
                        // Uniform coverage: the whole election is available from day one.
                        cash_minor: election - spent,
                        invested_minor: None,
                        tax_year: year,
                        contributions_ytd_minor: (election as f64 * year_elapsed) as i64,
                        contribution_limit_minor: Some(FSA_LIMIT_MINOR),
                        coverage: None,
                        holdings: Vec::new(),
                    }
                }
                _ => {
                    let allowance = cents(&mut rng, 250, 2_000);
                    GeneratedAccount {
                        external_id: format!("HRA-{number}"),
                        name: format!("{administrator} Health Reimbursement Arrangement"),
                        account_type: AccountType::Hra,
                        start_date: jan_1,
                        end_date: Some(dec_31),
                        cash_minor: allowance * rng.random_range(40..=100) / 100,
                        invested_minor: None,
                        tax_year: year,
                        // Employer-funded: the year's allowance, no IRS cap.
                        contributions_ytd_minor: allowance,
                        contribution_limit_minor: None,
                        coverage: None,
                        holdings: Vec::new(),
                    }
                }
            }
        })
        .collect()
}

/// One line of a store order.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct OrderItem {
    pub description: String,
    pub quantity: u32,
    pub amount_minor: i64,
    /// The store's own FSA/HSA flag on the receipt line (IIAS stores mark
    /// eligible items, e.g. 'F' at CVS); None where the store does not say.
    pub flagged_eligible: Option<bool>,
}

/// A purchase of the synced history.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneratedPurchase {
    pub external_transaction_id: String,
    pub date: NaiveDate,
    pub amount_minor: i64,
    pub description: String,
    pub merchant_name: Option<String>,
    pub mcc: Option<String>,
    pub items: Option<Vec<OrderItem>>,
}

/// How much a purchase at this merchant category usually costs, in dollars.
fn amount_range(mcc: &str) -> (i64, i64) {
    match mcc {
        "5912" | "5122" => (6, 85),
        "8021" => (80, 600),
        "8011" | "8031" | "8041" | "8049" | "8099" => (25, 250),
        "8042" | "8043" => (60, 450),
        "8071" => (20, 180),
        "5975" => (150, 1_200),
        "5411" | "5300" | "5310" | "5942" => (15, 220),
        "5541" | "5542" => (25, 75),
        "5812" | "5814" => (8, 90),
        "4511" => (150, 650),
        "4121" => (9, 45),
        "6300" => (40, 300),
        _ => (10, 150),
    }
}

/// A few months of card purchases at the merchants of `data/descriptors.csv`
/// (mixed eligibility: pharmacies, practitioners, groceries, fuel, travel).
pub fn card_purchases(seed: &str, today: NaiveDate) -> Vec<GeneratedPurchase> {
    let mut rng = rng_for(seed);
    let count = rng.random_range(18..=30);
    let mut purchases: Vec<GeneratedPurchase> = (0..count)
        .filter_map(|_| {
            let row = DESCRIPTORS.get(rng.random_range(0..DESCRIPTORS.len().max(1)))?;
            let (low, high) = amount_range(&row.example_mcc);
            let reference: u64 = rng.random();
            Some(GeneratedPurchase {
                external_transaction_id: format!("sbx_card_{reference:016x}"),
                date: today.checked_sub_days(Days::new(rng.random_range(1..=90))).unwrap_or(today),
                amount_minor: cents(&mut rng, low, high),
                description: row.raw_descriptor.clone(),
                merchant_name: Some(row.normalized_merchant.clone()),
                mcc: Some(row.example_mcc.clone()),
                items: None,
            })
        })
        .collect();
    purchases.sort_by(|a, b| a.date.cmp(&b.date).then(a.external_transaction_id.cmp(&b.external_transaction_id)));
    purchases
}

/// Store catalogues: (description, price range in cents, eligible).
type Catalogue = &'static [(&'static str, (i64, i64), bool)];

static RETAIL: Catalogue = &[
    ("Ibuprofen 200mg Tablets 100ct", (799, 1299), true),
    ("Loratadine 10mg Allergy Relief 30ct", (1099, 1899), true),
    ("Adhesive Bandages Assorted 30ct", (399, 699), true),
    ("Digital Oral Thermometer", (999, 1599), true),
    ("Contact Lens Solution 12oz", (899, 1299), true),
    ("Tampons Regular 36ct", (799, 1099), true),
    ("Reading Glasses +1.50", (1499, 2499), true),
    ("Sunscreen Lotion SPF 50 8oz", (899, 1499), true),
    ("Cold & Flu Relief Liquid 8oz", (899, 1399), true),
    ("Nicotine Gum 2mg 100ct", (3499, 4999), true),
    ("Home COVID-19 Antigen Test 2pk", (1599, 2399), true),
    ("Greeting Card", (299, 699), false),
    ("Shampoo 12oz", (499, 999), false),
    ("Potato Chips Family Size", (349, 549), false),
    ("Paper Towels 6 Rolls", (899, 1499), false),
    ("Whitening Toothpaste 4oz", (399, 699), false),
    ("Multivitamin Gummies 150ct", (1199, 1999), false),
    ("Energy Drink 4pk", (699, 999), false),
    ("Lipstick", (799, 1499), false),
];

static OPTICAL: Catalogue = &[
    ("Prescription Eyeglasses (single vision)", (9500, 29500), true),
    ("Daily Contact Lenses 90pk", (5500, 9900), true),
    ("Comprehensive Eye Exam", (7500, 15000), true),
    ("Prescription Sunglasses", (12000, 29500), true),
    ("Non-prescription Sunglasses", (6000, 19500), false),
    ("Lens Cleaning Kit", (999, 1999), false),
];

static HEALTH_SERVICES: Catalogue = &[
    ("Office Visit Copay", (2000, 5000), true),
    ("Lab Test Panel", (3500, 18000), true),
    ("Telehealth Visit", (4900, 9900), true),
    ("Dental Cleaning", (8000, 20000), true),
    ("Prescription Fill", (1000, 9000), true),
    ("Hearing Aid Batteries 24pk", (1999, 3499), true),
];

static WELLNESS: Catalogue = &[
    ("Whey Protein Powder 2lb", (2999, 5499), false),
    ("Multivitamin 120ct", (1499, 2999), false),
    ("Monthly Membership Dues", (1000, 2499), false),
    ("Greens Powder 30 Servings", (7900, 9900), false),
    ("Fish Oil 1000mg 180ct", (1999, 3499), false),
];

static PHARMACY: Catalogue = &[
    ("Prescription Fill", (500, 9000), true),
    ("Insulin Pen Needles 100ct", (2499, 3999), true),
    ("Blood Glucose Test Strips 50ct", (1999, 4999), true),
    ("First Aid Kit 100pc", (1499, 2499), true),
];

fn catalogue_for(merchant: &str) -> Catalogue {
    let name = merchant.to_ascii_lowercase();
    let any = |words: &[&str]| words.iter().any(|w| name.contains(w));
    if any(&["contacts", "warby", "lenscrafters", "pearle", "visionworks", "america's best", "zenni"]) {
        OPTICAL
    } else if name == "ro"
        || any(&[
            "quest",
            "labcorp",
            "minuteclinic",
            "citymd",
            "aspen",
            "miracle",
            "teladoc",
            "betterhelp",
            "talkspace",
            "one medical",
            "hims",
            "everlywell",
        ])
    {
        HEALTH_SERVICES
    } else if any(&["amazon pharmacy", "cost plus", "capsule", "fsa store", "hsa store"]) {
        PHARMACY
    } else if any(&["vitamin", "gnc", "fitness", "ag1", "38tera", "lyss", "avocado", "casa de sante", "dr-ho"]) {
        WELLNESS
    } else {
        RETAIL
    }
}

/// A few months of orders at a store, each with its item lines; stores that
/// run an IIAS flag their eligible lines.
pub fn store_purchases(
    seed: &str,
    merchant: &str,
    flags_eligible_items: bool,
    today: NaiveDate,
) -> Vec<GeneratedPurchase> {
    let mut rng = rng_for(seed);
    let catalogue = catalogue_for(merchant);
    let count = rng.random_range(8..=16);
    let mut purchases: Vec<GeneratedPurchase> = (0..count)
        .map(|_| {
            let lines = rng.random_range(1..=5.min(catalogue.len()));
            let items: Vec<OrderItem> = (0..lines)
                .map(|_| {
                    let (description, (low, high), eligible) = catalogue[rng.random_range(0..catalogue.len())];
                    let quantity = if rng.random_bool(0.8) { 1 } else { 2 };
                    OrderItem {
                        description: description.to_string(),
                        quantity,
                        amount_minor: rng.random_range(low..=high) * i64::from(quantity),
                        flagged_eligible: flags_eligible_items.then_some(eligible),
                    }
                })
                .collect();
            let order: u64 = rng.random_range(100_000_000..1_000_000_000);
            GeneratedPurchase {
                external_transaction_id: format!("sbx_order_{order}"),
                date: today.checked_sub_days(Days::new(rng.random_range(1..=90))).unwrap_or(today),
                amount_minor: items.iter().map(|i| i.amount_minor).sum(),
                description: format!("{} ORDER #{order}", merchant.to_ascii_uppercase()),
                merchant_name: Some(merchant.to_string()),
                mcc: None,
                items: Some(items),
            }
        })
        .collect();
    purchases.sort_by(|a, b| a.date.cmp(&b.date).then(a.external_transaction_id.cmp(&b.external_transaction_id)));
    purchases
}

/// The expected eligibility of a catalogue line, for tests and evaluation.
pub fn catalogue_eligibility(description: &str) -> Option<bool> {
    [RETAIL, OPTICAL, HEALTH_SERVICES, WELLNESS, PHARMACY]
        .iter()
        .flat_map(|c| c.iter())
        .find(|(d, _, _)| *d == description)
        .map(|(_, _, eligible)| *eligible)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 6, 15).unwrap()
    }

    #[test]
    fn the_same_seed_gives_the_same_data() {
        assert_eq!(
            benefit_accounts("a", "HealthEquity", "hsa|fsa|hra", day()),
            benefit_accounts("a", "HealthEquity", "hsa|fsa|hra", day())
        );
        assert_eq!(card_purchases("a", day()), card_purchases("a", day()));
        assert_eq!(
            store_purchases("a", "CVS Pharmacy", true, day()),
            store_purchases("a", "CVS Pharmacy", true, day())
        );
        assert_ne!(card_purchases("a", day()), card_purchases("b", day()));
    }

    #[test]
    fn benefit_accounts_follow_the_rules_of_their_type() {
        for seed in 0..40 {
            let accounts = benefit_accounts(&seed.to_string(), "HealthEquity", "hsa|fsa|hra", day());
            assert!((1..=3).contains(&accounts.len()));
            for account in accounts {
                match account.account_type {
                    AccountType::Hsa => {
                        assert_eq!(account.end_date, None);
                        assert_eq!(account.invested_minor.is_some(), !account.holdings.is_empty());
                        if let Some(invested) = account.invested_minor {
                            assert_eq!(account.holdings.iter().map(|h| h.value_minor).sum::<i64>(), invested);
                        }
                    }
                    AccountType::Fsa => {
                        assert_eq!(account.end_date, NaiveDate::from_ymd_opt(2026, 12, 31));
                        assert_eq!(account.invested_minor, None);
                        assert!(account.cash_minor <= FSA_LIMIT_MINOR);
                    }
                    AccountType::Hra => assert!(account.end_date.is_some()),
                    other => panic!("{other}"),
                }
            }
        }
        let fidelity = benefit_accounts("x", "Fidelity Investments", "hsa", day());
        assert_eq!(fidelity.len(), 1);
        assert_eq!(fidelity[0].account_type, AccountType::Hsa);
    }

    #[test]
    fn stores_get_their_own_catalogue() {
        assert!(std::ptr::eq(catalogue_for("Kroger"), RETAIL));
        assert!(std::ptr::eq(catalogue_for("Ro"), HEALTH_SERVICES));
        assert!(std::ptr::eq(catalogue_for("Warby Parker"), OPTICAL));
        assert!(std::ptr::eq(catalogue_for("GNC"), WELLNESS));
        assert!(std::ptr::eq(catalogue_for("Amazon Pharmacy"), PHARMACY));
    }

    #[test]
    fn histories_are_months_of_mixed_purchases() {
        let card = card_purchases("u1", day());
        assert!(card.len() >= 18);
        assert!(card.iter().all(|p| p.date < day() && p.date >= day() - Days::new(90)));
        let outcomes: std::collections::HashSet<_> = card
            .iter()
            .filter_map(|p| DESCRIPTORS.iter().find(|d| d.raw_descriptor == p.description))
            .map(|d| d.expected_outcome.clone())
            .collect();
        assert!(outcomes.len() >= 2, "{outcomes:?}");

        let store = store_purchases("u1", "CVS Pharmacy", true, day());
        let items: Vec<&OrderItem> = store.iter().flat_map(|p| p.items.as_ref().unwrap()).collect();
        assert!(items.iter().any(|i| i.flagged_eligible == Some(true)));
        assert!(items.iter().any(|i| i.flagged_eligible == Some(false)));
        for purchase in &store {
            assert_eq!(
                purchase.amount_minor,
                purchase.items.as_ref().unwrap().iter().map(|i| i.amount_minor).sum::<i64>()
            );
        }
    }

    #[test]
    fn every_sandbox_catalogue_line_is_classified_as_its_catalogue_says() {
        let engine = sail_engine::Engine::seeded().unwrap();
        for purchase in
            store_purchases("seed", "CVS Pharmacy", false, chrono::NaiveDate::from_ymd_opt(2026, 6, 1).unwrap())
                .into_iter()
                .chain(store_purchases(
                    "seed",
                    "Warby Parker",
                    false,
                    chrono::NaiveDate::from_ymd_opt(2026, 6, 1).unwrap(),
                ))
        {
            for item in purchase.items.unwrap() {
                let expected = catalogue_eligibility(&item.description).unwrap();
                let got = engine.classify_item(&item.description).map(|(o, _)| o);
                assert_eq!(
                    got,
                    Some(if expected { sail_engine::Outcome::Eligible } else { sail_engine::Outcome::Ineligible }),
                    "{}",
                    item.description
                );
            }
        }
    }
}

const FIRST_NAMES: [&str; 16] = [
    "Avery", "Jordan", "Maria", "James", "Priya", "Daniel", "Grace", "Luis", "Hannah", "Omar", "Chloe", "Ethan",
    "Sofia", "Marcus", "Leah", "Noah",
];
const LAST_NAMES: [&str; 16] = [
    "Alvarez", "Bennett", "Chen", "Dawson", "Ellis", "Fischer", "Garcia", "Hughes", "Iverson", "Johnson", "Kim",
    "Lopez", "Morgan", "Nguyen", "Patel", "Reyes",
];
const STREETS: [&str; 10] = [
    "Maple Avenue",
    "Oak Street",
    "Cedar Lane",
    "Elm Drive",
    "Willow Way",
    "Lakeview Road",
    "Pine Court",
    "Sunset Boulevard",
    "Harbor Street",
    "Meadow Lane",
];
/// Real city, state and ZIP combinations, so addresses pass a partner's
/// own validation.
const PLACES: [(&str, &str, &str); 8] = [
    ("Austin", "TX", "78701"),
    ("Denver", "CO", "80202"),
    ("Columbus", "OH", "43215"),
    ("Portland", "OR", "97205"),
    ("Raleigh", "NC", "27601"),
    ("Madison", "WI", "53703"),
    ("Tampa", "FL", "33602"),
    ("Sacramento", "CA", "95814"),
];

/// The account owner's identity at a sandbox provider: deterministic for the
/// seed (user, provider, kind). Emails are at `example.com` and phone
/// numbers in the 555-01xx range set aside for fiction.
pub fn identity(seed: &str) -> StoredIdentity {
    let mut rng = rng_for(&format!("{seed}|identity"));
    let first = FIRST_NAMES[rng.random_range(0..FIRST_NAMES.len())];
    let last = LAST_NAMES[rng.random_range(0..LAST_NAMES.len())];
    let (city, state, zip) = PLACES[rng.random_range(0..PLACES.len())];
    let street = format!("{} {}", rng.random_range(100..9999), STREETS[rng.random_range(0..STREETS.len())]);
    StoredIdentity {
        names: vec![format!("{first} {last}")],
        emails: vec![format!(
            "{}.{}{}@example.com",
            first.to_lowercase(),
            last.to_lowercase(),
            rng.random_range(1..99)
        )],
        phone_numbers: vec![format!("+1{}5550{:03}", rng.random_range(201..990), rng.random_range(100..200))],
        addresses: vec![StoredAddress {
            street,
            city: city.to_string(),
            state: state.to_string(),
            zip: zip.to_string(),
            country: "US".to_string(),
        }],
    }
}

/// Whether nine digits are an ABA routing number: the checksum
/// 3(d1+d4+d7) + 7(d2+d5+d8) + (d3+d6+d9) is a multiple of 10.
pub fn aba_checksum_ok(routing: &str) -> bool {
    let digits: Vec<u32> = routing.chars().filter_map(|c| c.to_digit(10)).collect();
    if routing.len() != 9 || digits.len() != 9 {
        return false;
    }
    let sum = 3 * (digits[0] + digits[3] + digits[6])
        + 7 * (digits[1] + digits[4] + digits[7])
        + (digits[2] + digits[5] + digits[8]);
    sum.is_multiple_of(10)
}

/// The ACH account and routing numbers of a sandbox HSA: deterministic for
/// the seed and the account, the routing number in a Federal Reserve
/// district range (01-12) with a valid checksum.
pub fn ach_numbers(seed: &str, external_id: &str) -> (String, String) {
    let mut rng = rng_for(&format!("{seed}|ach|{external_id}"));
    let mut digits: Vec<u32> = vec![0, rng.random_range(1..=9)];
    digits.extend((0..6).map(|_| rng.random_range(0..=9)));
    let partial =
        3 * (digits[0] + digits[3] + digits[6]) + 7 * (digits[1] + digits[4] + digits[7]) + (digits[2] + digits[5]);
    digits.push((10 - partial % 10) % 10);
    let routing: String = digits.iter().map(|d| char::from_digit(*d, 10).unwrap_or('0')).collect();
    let account: String = (0..12)
        .map(|i| char::from_digit(rng.random_range(if i == 0 { 1 } else { 0 }..=9), 10).unwrap_or('0'))
        .collect();
    (account, routing)
}

#[cfg(test)]
mod personal_data_tests {
    use super::*;

    #[test]
    fn routing_numbers_pass_the_aba_checksum_and_are_stable() {
        for n in 0..200 {
            let (account, routing) = ach_numbers("u|adm_1|benefit_account", &format!("HSA-{n}"));
            assert!(aba_checksum_ok(&routing), "{routing}");
            assert!(routing.starts_with('0'), "{routing}");
            assert_eq!(account.len(), 12);
            assert!(account.chars().all(|c| c.is_ascii_digit()));
            assert_eq!(ach_numbers("u|adm_1|benefit_account", &format!("HSA-{n}")), (account, routing));
        }
        // Known-good and known-bad numbers.
        assert!(aba_checksum_ok("011000015"));
        assert!(!aba_checksum_ok("011000016"));
        assert!(!aba_checksum_ok("01100001"));
    }

    #[test]
    fn identities_are_deterministic_and_fictional() {
        let one = identity("partner-user-42|adm_1|benefit_account");
        assert_eq!(one, identity("partner-user-42|adm_1|benefit_account"));
        assert!(one.emails[0].ends_with("@example.com"));
        assert!(one.phone_numbers[0].contains("5550"), "{:?}", one.phone_numbers);
        assert_eq!(one.addresses[0].country, "US");
    }
}
