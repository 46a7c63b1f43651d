//! How descriptors name merchants. Every directory merchant is found by its
//! own name; these aliases add the forms banks print (`data/descriptors.csv`:
//! 'WAL-MART', 'WM SUPERCENTER', 'AMZN Mktp', 'SAMSCLUB', 'DUANE READE' for
//! Walgreens) and the well-known merchants outside the directory whose
//! outcome the reference data fixes ('AMZN Digital', 'DELTA AIR LINES',
//! 'DR PEPPER', 'KAISER PERMANENTE').

use crate::decision::Outcome;

/// What an alias resolves to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AliasTarget {
    /// A merchant of the directory, by its directory name; `shown` overrides
    /// the display name (a banner of that merchant).
    Directory { name: &'static str, shown: Option<&'static str> },
    /// A merchant outside the directory whose outcome is known.
    Known { name: &'static str, outcome: Outcome, category: &'static str, code: &'static str, message: &'static str },
}

/// Alias (in canonical words, see `normalize::canonical_words`) and target.
pub const ALIASES: &[(&str, AliasTarget)] = &[
    ("CVS", AliasTarget::Directory { name: "CVS Pharmacy", shown: None }),
    ("DUANE READE", AliasTarget::Directory { name: "Walgreens", shown: Some("Duane Reade") }),
    ("WAL MART", AliasTarget::Directory { name: "Walmart", shown: None }),
    ("WM SUPERCENTER", AliasTarget::Directory { name: "Walmart", shown: None }),
    ("SAMSCLUB", AliasTarget::Directory { name: "Sam's Club", shown: None }),
    ("COSTCO WHSE", AliasTarget::Directory { name: "Costco", shown: None }),
    ("AMZN", AliasTarget::Directory { name: "Amazon", shown: None }),
    ("AMZN MKTP", AliasTarget::Directory { name: "Amazon", shown: None }),
    ("AMAZON MKTPL", AliasTarget::Directory { name: "Amazon", shown: None }),
    ("AMZN PHARMACY", AliasTarget::Directory { name: "Amazon Pharmacy", shown: None }),
    ("HEB", AliasTarget::Directory { name: "H-E-B", shown: None }),
    ("BJS WHOLESALE", AliasTarget::Directory { name: "BJ's Wholesale Club", shown: None }),
    ("BJS", AliasTarget::Directory { name: "BJ's Wholesale Club", shown: None }),
    ("SAFEWAY", AliasTarget::Directory { name: "Albertsons / Safeway", shown: Some("Safeway") }),
    ("ALBERTSONS", AliasTarget::Directory { name: "Albertsons / Safeway", shown: Some("Albertsons") }),
    ("FSASTORE", AliasTarget::Directory { name: "FSA Store (FSAstore.com)", shown: None }),
    ("HSASTORE", AliasTarget::Directory { name: "HSA Store (HSAstore.com)", shown: None }),
    ("1800CONTACTS", AliasTarget::Directory { name: "1-800 Contacts", shown: None }),
    ("AMERICAS BEST", AliasTarget::Directory { name: "America's Best Contacts & Eyeglasses", shown: None }),
    ("COSTPLUSDRUGS", AliasTarget::Directory { name: "Mark Cuban Cost Plus Drug Co.", shown: None }),
    ("COST PLUS DRUGS", AliasTarget::Directory { name: "Mark Cuban Cost Plus Drug Co.", shown: None }),
    ("MINUTECLINIC", AliasTarget::Directory { name: "CVS MinuteClinic", shown: None }),
    ("ATHLETIC GREENS", AliasTarget::Directory { name: "AG1 (Athletic Greens)", shown: None }),
    ("HIMS", AliasTarget::Directory { name: "Hims & Hers", shown: None }),
    (
        "AMZN DIGITAL",
        AliasTarget::Known {
            name: "Amazon Digital",
            outcome: Outcome::Ineligible,
            category: "digital_goods",
            code: "non_medical_merchant",
            message: "Digital goods and subscriptions are not medical care.",
        },
    ),
    (
        "DELTA AIR LINES",
        AliasTarget::Known {
            name: "Delta Air Lines",
            outcome: Outcome::Ineligible,
            category: "travel",
            code: "non_medical_merchant",
            message: "Air travel is ineligible by default; travel primarily for medical care needs evidence.",
        },
    ),
    (
        "DR PEPPER",
        AliasTarget::Known {
            name: "Dr Pepper",
            outcome: Outcome::Ineligible,
            category: "dining",
            code: "non_medical_merchant",
            message: "Food and drink are not medical care.",
        },
    ),
    (
        "KAISER PERMANENTE",
        AliasTarget::Known {
            name: "Kaiser Permanente",
            outcome: Outcome::NeedsReview,
            category: "insurance",
            code: "insurer_provider",
            message: "Kaiser Permanente is both an insurer and a provider: a premium is not reimbursable from a health FSA, care is. A receipt decides.",
        },
    ),
    (
        "DELTA DENTAL",
        AliasTarget::Known {
            name: "Delta Dental",
            outcome: Outcome::NeedsReview,
            category: "insurance",
            code: "insurance_premium",
            message: "Payments to a dental insurer are usually premiums, which a health FSA cannot reimburse; an HSA only in narrow cases.",
        },
    ),
    (
        "CURALEAF",
        AliasTarget::Known {
            name: "Curaleaf",
            outcome: Outcome::Ineligible,
            category: "controlled_substances",
            code: "controlled_substance",
            message: "Cannabis is a controlled substance under federal law and not a medical expense.",
        },
    ),
    (
        "APPLE COM BILL",
        AliasTarget::Known {
            name: "Apple",
            outcome: Outcome::Ineligible,
            category: "digital_goods",
            code: "non_medical_merchant",
            message: "Digital goods and subscriptions are not medical care.",
        },
    ),
    (
        "UBER",
        AliasTarget::Known {
            name: "Uber",
            outcome: Outcome::Ineligible,
            category: "travel",
            code: "non_medical_merchant",
            message: "Ride-hail is ineligible by default; a ride primarily for medical care needs evidence.",
        },
    ),
];
