//! What a descriptor's words say beyond the merchant's name: medical care (a
//! specialty, or a generic word such as CLINIC), and evidence of non-medical
//! use (pets, food, lodging and parking, cosmetics, fitness, services) that
//! outweighs a medical word. Fuel, cannabis, insurers and pharmacies are their
//! own kinds, and so is a field of care (a specialty, an organ) that a
//! physicians' or laboratories' code needs beside it. The keywords are data
//! (`data/lexicon/descriptor_signals.csv`, and the fields of care WordNet
//! names in `data/lexicon/generated/fields_of_care.csv`), each with its
//! source: a file of the reference data, the development sets, WordNet, or
//! the team's reading of IRS Publication 502.
//!
//! Every keyword is a whole word or phrase: HOSPITAL is not found in
//! HOSPITALITY nor CLINIC in CLINIQUE. Card networks cut merchant names at 20
//! to 25 characters, so a single keyword of eight letters or more also
//! matches a word that is its truncation (six letters at least): PEDIAT for
//! PEDIATRICS.

/// What non-medical evidence a word gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NonMedical {
    /// Veterinary care and pet supplies: never medical care for the account holder.
    Pet,
    Dining,
    /// Alcohol and tobacco.
    AlcoholTobacco,
    /// Parking and lodging: medical travel when the trip is for care (Pub 502),
    /// so a medical word beside one makes it a question, not a no.
    MedicalTravel,
    Travel,
    DigitalGoods,
    Fitness,
    PersonalCare,
    /// Cosmetic procedures (Pub 502): a specialty beside one is a question.
    Cosmetic,
    /// General wellness: medical only with a diagnosis.
    Wellness,
    Childcare,
    /// Repairs, cars, homes, shops, donations, staffing.
    Services,
    /// Care that is medical or not by what was bought (membership and
    /// retainer fees, dermatology: acne treatment or skin care): always a
    /// question, never a yes or a no on the word alone.
    Conditional,
    /// A word that suggests cosmetic work (`SMILE` at a dental studio)
    /// unless a specialty beside it names the care (`SMILE DENTAL`).
    CosmeticHint,
}

impl NonMedical {
    /// The expense category slug it stands for.
    pub fn category(self) -> &'static str {
        match self {
            NonMedical::Pet => "veterinary",
            NonMedical::Dining | NonMedical::AlcoholTobacco => "dining",
            NonMedical::MedicalTravel | NonMedical::Travel => "travel",
            NonMedical::DigitalGoods => "digital_goods",
            NonMedical::Fitness => "fitness",
            NonMedical::PersonalCare => "personal_care",
            NonMedical::Cosmetic => "cosmetic",
            NonMedical::Wellness => "fitness",
            NonMedical::Childcare => "childcare",
            NonMedical::Services => "general",
            NonMedical::Conditional => "medical_services",
            NonMedical::CosmeticHint => "cosmetic",
        }
    }

    /// How it reads in a reason.
    pub fn describe(self) -> &'static str {
        match self {
            NonMedical::Pet => "pet care",
            NonMedical::Dining => "food and drink",
            NonMedical::AlcoholTobacco => "alcohol or tobacco",
            NonMedical::MedicalTravel => "parking or lodging",
            NonMedical::Travel => "travel",
            NonMedical::DigitalGoods => "digital goods",
            NonMedical::Fitness => "fitness",
            NonMedical::PersonalCare => "personal care",
            NonMedical::Cosmetic => "a cosmetic service",
            NonMedical::Wellness => "a general wellness service",
            NonMedical::Childcare => "child care or schooling",
            NonMedical::Services => "a non-medical business",
            NonMedical::Conditional => "care that is medical or not by what was bought",
            NonMedical::CosmeticHint => "a name that suggests cosmetic work",
        }
    }
}

/// A kind of evidence found in a descriptor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    /// Fuel at a warehouse or big-box store ('COSTCO GAS', 'SAMSCLUB … GAS').
    Fuel,
    /// Cannabis dispensaries: controlled substances are not medical care.
    Cannabis,
    /// Insurers and insurer-providers: premium or care cannot be told apart.
    Insurer,
    /// A pharmacy whose basket is unknown.
    Pharmacy,
    /// A store that sells both kinds (a grocery, a supermarket), as the
    /// reference data's codes for such stores say.
    Store,
    /// Medical care, with its category. `specialty` words name the care
    /// (DENTISTRY, PEDIATRICS); the others (CLINIC, HOSPITAL, MD) are generic
    /// and yield to evidence of non-medical use.
    Medical {
        category: &'static str,
        specialty: bool,
    },
    NonMedical(NonMedical),
    /// A field of care a practice is named for (RHEUMATOLOGY, KIDNEY,
    /// NEPHROLOGIST): what the codes of physicians and of laboratories,
    /// which elective and cosmetic practices charge under too, need beside
    /// them (`rules::mcc_medical`). Read by no other rule.
    CareField,
}

/// The fields of care extracted from WordNet by `scripts/build_lexicon.py`
/// (the specialties of medicine, their physicians, the internal organs and
/// the joints), read as [`Signal::CareField`] keywords beside the ones
/// `descriptor_signals.csv` names with the signal `field`.
pub const FIELDS_OF_CARE_CSV: &str = include_str!("../../data/lexicon/generated/fields_of_care.csv");

/// The descriptor keywords, as data (`data/lexicon/descriptor_signals.csv`:
/// keyword, signal, category, and the source each rests on: a file of the
/// reference data, the development sets, or the team's reading of
/// Publication 502).
pub const DESCRIPTOR_SIGNALS_CSV: &str = include_str!("../../data/lexicon/descriptor_signals.csv");

#[derive(serde::Deserialize)]
struct SignalRow {
    keyword: String,
    signal: String,
    category: String,
    source: String,
}

/// `(keyword in canonical words, signal)`, loaded once per process, loudly.
pub fn keywords() -> Result<&'static [(String, Signal)], crate::error::EngineError> {
    static KEYWORDS: std::sync::OnceLock<Result<Vec<(String, Signal)>, String>> = std::sync::OnceLock::new();
    let loaded = KEYWORDS.get_or_init(|| load().map_err(|reason| reason.to_string()));
    match loaded {
        Ok(keywords) => Ok(keywords),
        Err(reason) => Err(crate::reference::ReferenceError { file: FILE, reason: reason.clone() }.into()),
    }
}

const FILE: &str = "data/lexicon/descriptor_signals.csv";

fn load() -> Result<Vec<(String, Signal)>, String> {
    let rows = csv::Reader::from_reader(DESCRIPTOR_SIGNALS_CSV.as_bytes())
        .deserialize::<SignalRow>()
        .collect::<Result<Vec<_>, _>>()
        .map_err(|err| err.to_string())?;
    if rows.is_empty() {
        return Err("no rows".into());
    }
    let fields = csv::Reader::from_reader(FIELDS_OF_CARE_CSV.as_bytes())
        .deserialize::<FieldRow>()
        .collect::<Result<Vec<_>, _>>()
        .map_err(|err| format!("data/lexicon/generated/fields_of_care.csv: {err}"))?;
    if fields.is_empty() {
        return Err("data/lexicon/generated/fields_of_care.csv: no rows".into());
    }
    let fields = fields.into_iter().map(|row| {
        if row.source.trim().is_empty() {
            return Err(format!("'{}' names no source", row.term));
        }
        Ok((row.term, Signal::CareField))
    });
    rows.into_iter()
        .map(|row| {
            if row.source.trim().is_empty() {
                return Err(format!("'{}' names no source", row.keyword));
            }
            let medical = |specialty: bool| {
                crate::categories::CATEGORIES
                    .iter()
                    .find(|(slug, _)| *slug == row.category)
                    .map(|(slug, _)| Signal::Medical { category: slug, specialty })
                    .ok_or_else(|| format!("'{}' has category '{}', not a category slug", row.keyword, row.category))
            };
            let signal = match row.signal.as_str() {
                "fuel" => Signal::Fuel,
                "cannabis" => Signal::Cannabis,
                "insurer" => Signal::Insurer,
                "pharmacy" => Signal::Pharmacy,
                "store" => Signal::Store,
                "specialty" => medical(true)?,
                "generic" => medical(false)?,
                "field" => Signal::CareField,
                "non_medical" => Signal::NonMedical(NonMedical::parse(&row.category).ok_or_else(|| {
                    format!("'{}' has non-medical kind '{}', which is not one", row.keyword, row.category)
                })?),
                other => return Err(format!("'{}' has signal '{other}', which is not one", row.keyword)),
            };
            Ok((row.keyword, signal))
        })
        .chain(fields)
        .collect()
}

/// A row of `data/lexicon/generated/fields_of_care.csv`.
#[derive(serde::Deserialize)]
struct FieldRow {
    term: String,
    source: String,
}

impl NonMedical {
    /// The kind a data row names (`medical_travel`, `personal_care`…).
    pub fn parse(name: &str) -> Option<NonMedical> {
        Some(match name {
            "pet" => NonMedical::Pet,
            "dining" => NonMedical::Dining,
            "alcohol_tobacco" => NonMedical::AlcoholTobacco,
            "medical_travel" => NonMedical::MedicalTravel,
            "travel" => NonMedical::Travel,
            "digital_goods" => NonMedical::DigitalGoods,
            "fitness" => NonMedical::Fitness,
            "personal_care" => NonMedical::PersonalCare,
            "cosmetic" => NonMedical::Cosmetic,
            "wellness" => NonMedical::Wellness,
            "childcare" => NonMedical::Childcare,
            "services" => NonMedical::Services,
            "conditional" => NonMedical::Conditional,
            "cosmetic_hint" => NonMedical::CosmeticHint,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_of_care_come_from_wordnet_and_from_the_development_data() {
        let keywords = keywords().unwrap();
        let field = |word: &str| keywords.iter().any(|(k, s)| k == word && *s == Signal::CareField);
        // Extracted from WordNet by scripts/build_lexicon.py.
        assert!(field("RHEUMATOLOGY") && field("NEPHROLOGY") && field("KIDNEY") && field("KNEE"));
        // Written from the development sets, in descriptor_signals.csv.
        assert!(field("WOMENS") && field("CLINICAL LAB"));
        // What WordNet files under the same roots but also names cosmetic
        // work, or only a title, is left out.
        assert!(!field("TUMMY") && !field("PLASTIC SURGEON") && !field("DOCTOR") && !field("MEDICINE"));
        let fields = keywords.iter().filter(|(_, s)| *s == Signal::CareField).count();
        assert!(fields > 250, "{fields} fields of care");
    }
}
