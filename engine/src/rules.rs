//! The purchase-level policy as a declared list of named rules
//! (docs/adjudication.md), run in order over one purchase's [`Facts`]:
//! the first rule that decides wins, and its name is the adjudication's
//! `rule`. Item-level data (`item_level`) is decided before these, per
//! line. Each rule is a plain function of the facts, tested on its own.
//!
//! Policy: `eligible` only on positive evidence (a medical merchant, a whole
//! medical word, a medical category code that covers nothing else) with no
//! evidence against it; where the evidence disagrees, `needs_review` with
//! the reason code `conflicting_evidence` naming both sides.

use crate::decision::{Evidence, EvidenceKind, Outcome};
use crate::facts::{CategoryCode, Facts, MedicalWord, MerchantSource, keyword};
pub use crate::names::ELECTIVE_PRACTICE_CODES;
use crate::signals::NonMedical;

/// What a rule decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub outcome: Outcome,
    pub category: &'static str,
    /// The reason's code and message.
    pub code: &'static str,
    pub message: String,
    /// The facts that decided it, strongest first.
    pub evidence: Vec<Evidence>,
}

/// One rule of the policy: its name, and what it decides from the facts
/// when it applies.
pub struct Rule {
    pub name: &'static str,
    pub decide: fn(&Facts<'_>) -> Option<Verdict>,
}

/// The policy, in order. `unknown` always decides, so the list always ends
/// in a verdict.
pub const RULES: &[Rule] = &[
    Rule { name: "cannabis", decide: cannabis },
    Rule { name: "fuel", decide: fuel },
    Rule { name: "pet_care", decide: pet_care },
    Rule { name: "known_merchant", decide: known_merchant },
    Rule { name: "directory_merchant", decide: directory_merchant },
    Rule { name: "insurer", decide: insurer },
    Rule { name: "mixed_store", decide: mixed_store },
    Rule { name: "non_medical_words", decide: non_medical_words },
    Rule { name: "medical_travel", decide: medical_travel },
    Rule { name: "mcc_ineligible", decide: mcc_ineligible },
    Rule { name: "mcc_medical", decide: mcc_medical },
    Rule { name: "mcc_needs_review", decide: mcc_needs_review },
    Rule { name: "mcc_non_medical", decide: mcc_non_medical },
    Rule { name: "provider_keyword", decide: provider_keyword },
    Rule { name: "unknown", decide: unknown },
];

/// The first rule that decides, with its verdict.
pub fn apply(facts: &Facts<'_>) -> (&'static str, Verdict) {
    for rule in RULES {
        if let Some(verdict) = (rule.decide)(facts) {
            return (rule.name, verdict);
        }
    }
    ("unknown", unknown_verdict())
}

fn verdict(
    outcome: Outcome,
    category: &'static str,
    code: &'static str,
    message: String,
    evidence: impl IntoIterator<Item = Option<Evidence>>,
) -> Option<Verdict> {
    Some(Verdict { outcome, category, code, message, evidence: evidence.into_iter().flatten().collect() })
}

/// Evidence on both sides: a person decides, with a receipt.
fn conflict(medical: String, against: String, evidence: impl IntoIterator<Item = Option<Evidence>>) -> Option<Verdict> {
    verdict(
        Outcome::NeedsReview,
        "general",
        "conflicting_evidence",
        format!("{medical} suggests medical care, but {against}; a receipt decides."),
        evidence,
    )
}

fn quoted(word: &str) -> String {
    format!("'{word}'")
}

fn describe_category(category: &str) -> String {
    category.replace('_', " ")
}

fn medical_evidence(word: Option<MedicalWord<'_>>) -> Option<Evidence> {
    word.map(|m| m.evidence())
}

/// Cannabis and CBD: controlled substances are never medical expenses.
fn cannabis(f: &Facts<'_>) -> Option<Verdict> {
    let word = f.cannabis?;
    verdict(
        Outcome::Ineligible,
        "controlled_substances",
        "controlled_substance",
        "Cannabis and CBD purchases are not medical expenses (controlled substances).".to_string(),
        [Some(keyword(word, "controlled_substances"))],
    )
}

/// Fuel, by word or category code: medical travel is claimed by mileage.
fn fuel(f: &Facts<'_>) -> Option<Verdict> {
    let by_code = f.code.is_some_and(|c| matches!(c.code, "5541" | "5542"));
    if f.fuel.is_none() && !by_code {
        return None;
    }
    verdict(
        Outcome::Ineligible,
        "fuel",
        "fuel_purchase",
        format!("Fuel at {} is not a medical expense; medical travel is claimed by mileage instead.", f.merchant_label),
        [f.fuel.map(|w| keyword(w, "fuel")), f.code_evidence("fuel")],
    )
}

/// Pets are never the account holder's medical care, whatever else is said.
fn pet_care(f: &Facts<'_>) -> Option<Verdict> {
    let pet = f.non_medical.filter(|n| n.kind == NonMedical::Pet)?;
    verdict(
        Outcome::Ineligible,
        "veterinary",
        "pet_care",
        format!(
            "'{}': care and supplies for pets are not the account holder's medical care (IRS Publication 502).",
            pet.word
        ),
        [Some(keyword(pet.word, "veterinary")), medical_evidence(f.medical)],
    )
}

/// A merchant's usual outcome, unless the descriptor says otherwise: a
/// non-medical merchant with a medical specialty (or, at a travel merchant,
/// any medical word), or a medical merchant with evidence of non-medical
/// use or a non-medical category code, is a conflict.
fn merchant_outcome(f: &Facts<'_>, source: MerchantSource) -> Option<Verdict> {
    let merchant = f.merchant.as_ref().filter(|m| m.source == source)?;
    let label = f.merchant_label;
    let merchant_evidence =
        Some(Evidence { kind: EvidenceKind::Merchant, value: label.to_string(), indicates: merchant.category });
    match merchant.outcome {
        Outcome::Ineligible => {
            let travel =
                f.non_medical.is_some_and(|n| n.kind == NonMedical::MedicalTravel) || merchant.category == "travel";
            let contrary = f.specialty.or(if travel { f.medical } else { None });
            if let Some(word) = contrary {
                return conflict(
                    quoted(word.word),
                    format!("{label} is not a health-care merchant"),
                    [Some(word.evidence()), merchant_evidence],
                );
            }
            // A delivery merchant charging under the code of drug stores
            // (`DD *DOORDASH RXEXPRESS` under 5912) carries a pharmacy's
            // order: a receipt decides. Under any other code the
            // merchant's kind stands (a coffee chain under 8062 is a coffee
            // chain), and so does a pet pharmacy's under 5912.
            if merchant.category == "dining"
                && let Some(code) = f.code.filter(|c| c.code == "5912")
            {
                return conflict(
                    format!("Its category code ({})", code.code),
                    format!("{label} is not a health-care merchant"),
                    [Some(code.evidence(code.category())), merchant_evidence],
                );
            }
        }
        Outcome::Eligible => {
            if let Some(against) = f.non_medical {
                return conflict(
                    label.to_string(),
                    format!("'{}' points to {}", against.word, against.kind.describe()),
                    [merchant_evidence, Some(against.evidence())],
                );
            }
            if let Some(code) = f.code.filter(|c| c.listed_as(Outcome::Ineligible).is_some()) {
                return conflict(
                    label.to_string(),
                    format!("its category code is {}", code.label()),
                    [merchant_evidence, Some(code.evidence(code.category()))],
                );
            }
        }
        Outcome::NeedsReview => {}
    }
    verdict(merchant.outcome, merchant.category, merchant.code, merchant.message.clone(), [merchant_evidence])
}

/// A merchant of the merchant knowledge: its usual outcome.
fn known_merchant(f: &Facts<'_>) -> Option<Verdict> {
    merchant_outcome(f, MerchantSource::Known)
}

/// A merchant of the directory: its usual outcome.
fn directory_merchant(f: &Facts<'_>) -> Option<Verdict> {
    merchant_outcome(f, MerchantSource::Directory)
}

/// Insurers and insurer-providers: a premium is generally not
/// reimbursable, care is.
fn insurer(f: &Facts<'_>) -> Option<Verdict> {
    let word = f.insurer?;
    // An insurer of something else (`AUTO`, `LIFE`, `HOMEOWNERS`): no
    // premium of it is medical; the words decide.
    if f.non_medical.is_some_and(|n| n.kind == NonMedical::Services) {
        return None;
    }
    verdict(
        Outcome::NeedsReview,
        "insurance",
        "insurance_premium",
        format!(
            "{} looks like an insurer: premiums are generally not reimbursable, care is. A receipt decides.",
            f.merchant_label
        ),
        [Some(keyword(word, "insurance"))],
    )
}

/// A store that sells both kinds (a grocery or supermarket, which the
/// reference data lists as a mixed category): what was bought decides,
/// whatever departments the name also lists (`GROCERY & DELI`). Under a
/// category code that is never medical, the name is only a name.
fn mixed_store(f: &Facts<'_>) -> Option<Verdict> {
    let store = f.store?;
    if f.code.is_some_and(|c| c.listed_as(Outcome::NeedsReview).is_none()) {
        return None;
    }
    verdict(
        Outcome::NeedsReview,
        "mixed_merchandise",
        "mixed_merchant",
        format!(
            "'{store}': {} sells both eligible and ineligible goods (OTC medicines beside food); item-level data is needed.",
            f.merchant_label
        ),
        [Some(keyword(store, "mixed_merchandise")), f.code.map(|c| c.evidence(c.category()))],
    )
}

/// The medical side of a conflict with evidence of non-medical use.
enum MedicalSide<'a> {
    Word(MedicalWord<'a>),
    /// A medical category code, where no word says so.
    CategoryCode,
}

/// Food, lodging, cosmetics, fitness, services. A generic medical word
/// yields to them; a specialty makes a conflict, and so does any medical
/// word beside parking or lodging (medical travel), or any medical word or
/// medical category code beside a wellness service (it may be treatment).
fn non_medical_words(f: &Facts<'_>) -> Option<Verdict> {
    let against = f.non_medical?;
    // A health-services code, listed or not (8093 is not, and is where
    // detox treatment sits).
    let medical_code = f.code.is_some_and(|c| c.listed_as(Outcome::Eligible).is_some() || c.is_unlisted_health_code());
    // A medical code of a trade (optical goods, medical supplies), not the
    // catch-all 8099 that med spas and wellness studios also use.
    let narrow_medical_code = f.code.is_some_and(|c| c.listed_as(Outcome::Eligible).is_some() && c.code != "8099");
    // A hospital's own shops and car parks charge under its code: there, a
    // word of another trade (`HOSPITAL GIFTS`, `HOSPITAL CANTEEN`) is a
    // question whatever word stands beside it.
    let hospital_code = f.code.is_some_and(|c| c.hosts_other_trades());
    let contrary = match against.kind {
        NonMedical::Pet => f.specialty.map(MedicalSide::Word),
        _ if hospital_code => f.specialty.map(MedicalSide::Word).or(Some(MedicalSide::CategoryCode)),
        NonMedical::MedicalTravel => f.medical.map(MedicalSide::Word),
        NonMedical::Wellness => {
            f.medical.map(MedicalSide::Word).or_else(|| medical_code.then_some(MedicalSide::CategoryCode))
        }
        // A shop word ("boutique") under a narrow medical code: an optical
        // or medical-supply boutique may sell either kind.
        NonMedical::Services => {
            f.specialty.map(MedicalSide::Word).or_else(|| narrow_medical_code.then_some(MedicalSide::CategoryCode))
        }
        _ => f.specialty.map(MedicalSide::Word),
    };
    // A pharmacy beside a store of other goods ("grocery and pharmacy")
    // sells both kinds: a receipt decides. Under a code that is never
    // medical (a restaurant's), "pharmacy" is only a name.
    let never_medical_code = f.code.is_some_and(|c| c.listed_as(Outcome::Ineligible).is_some());
    if contrary.is_none()
        && !never_medical_code
        && let Some(pharmacy) = f.pharmacy
        && !matches!(against.kind, NonMedical::Pet | NonMedical::Conditional | NonMedical::CosmeticHint)
    {
        return verdict(
            Outcome::NeedsReview,
            "mixed_merchandise",
            "mixed_merchant",
            format!(
                "'{}' names a pharmacy, and '{}' points to {}: {} sells both kinds; item-level data is needed.",
                pharmacy,
                against.word,
                against.kind.describe(),
                f.merchant_label
            ),
            [Some(keyword(pharmacy, "mixed_merchandise")), Some(against.evidence())],
        );
    }
    if matches!(against.kind, NonMedical::Conditional | NonMedical::CosmeticHint) {
        return verdict(
            Outcome::NeedsReview,
            against.kind.category(),
            "conditional_care",
            format!(
                "'{}': {} may be medical care or not, by what was bought (IRS Publication 502); a receipt decides.",
                against.word, f.merchant_label
            ),
            [Some(against.evidence()), medical_evidence(f.medical), f.code.map(|c| c.evidence(c.category()))],
        );
    }
    let points_to = format!("'{}' points to {}", against.word, against.kind.describe());
    match contrary {
        Some(MedicalSide::Word(word)) => {
            conflict(quoted(word.word), points_to, [Some(word.evidence()), Some(against.evidence())])
        }
        Some(MedicalSide::CategoryCode) => {
            let code = f.code.map(|c| c.code).unwrap_or_default();
            let evidence = f.code.map(|c| c.evidence(c.category()));
            conflict(format!("Its category code ({code})"), points_to, [evidence, Some(against.evidence())])
        }
        None => verdict(
            Outcome::Ineligible,
            against.kind.category(),
            if against.kind == NonMedical::Cosmetic { "cosmetic_service" } else { "non_medical_merchant" },
            format!(
                "'{}': {} looks like {}, which is not medical care.",
                against.word,
                f.merchant_label,
                against.kind.describe()
            ),
            [Some(against.evidence()), medical_evidence(f.medical)],
        ),
    }
}

/// Transport, lodging or parking (a travel category code) named for care
/// (`HOSPITAL VISITOR PARKING` under 7523, `MEDICAL RIDES` under 4121):
/// travel primarily for medical care is medical care (IRS Publication 502;
/// `data/mcc_medical.csv` says so of 4111, 4121 and 7011, and the
/// reference data's "medical travel and lodging" row lists parking), and
/// is a question, not a refusal, whatever the code's default.
fn medical_travel(f: &Facts<'_>) -> Option<Verdict> {
    let code = f.code.filter(|c| c.category() == "travel")?;
    let word = f.medical?;
    verdict(
        Outcome::NeedsReview,
        "medical_travel",
        "conditional_care",
        format!(
            "'{}': {} may be travel or lodging for medical care, which is medical care only when the trip is primarily for it (IRS Publication 502); a receipt decides.",
            word.word, f.merchant_label
        ),
        [Some(word.evidence()), Some(code.evidence("travel"))],
    )
}

/// Category codes that are never medical care; a specialty says otherwise.
fn mcc_ineligible(f: &Facts<'_>) -> Option<Verdict> {
    let code = f.code.filter(|c| c.listed_as(Outcome::Ineligible).is_some())?;
    if let Some(word) = f.specialty {
        return conflict(
            quoted(word.word),
            format!("the category code is {}", code.label()),
            [Some(word.evidence()), Some(code.evidence(code.category()))],
        );
    }
    verdict(
        Outcome::Ineligible,
        code.category(),
        "non_medical_category",
        format!("{} is not a medical merchant category.", code.label()),
        [Some(code.evidence(code.category()))],
    )
}

/// Medical category codes, and unlisted codes of the health-services
/// range; the broad ones need a medical word too, and the codes that
/// elective practices share need a medical word or a field of care.
fn mcc_medical(f: &Facts<'_>) -> Option<Verdict> {
    let code = f.code.filter(|c| c.listed_as(Outcome::Eligible).is_some() || c.is_unlisted_health_code())?;
    if ELECTIVE_PRACTICE_CODES.contains(&code.code)
        && f.specialty.is_none()
        && f.care_field.is_none()
        && f.named_physician.is_none()
        && f.named_practice.is_none()
    {
        return broad_code_review(
            code,
            "is also what elective and cosmetic practices charge under, and the name says no field of care",
            None,
        );
    }
    if code.houses_its_patients() && f.specialty.is_none() {
        return broad_code_review(
            code,
            "houses people while they are cared for: a stay is medical care only when it is mainly for care (IRS Publication 502), and the name names no kind of care",
            medical_evidence(f.medical),
        );
    }
    if code.serves_dentists() && f.medical.is_some_and(|m| m.category == "dental") {
        return broad_code_review(
            code,
            "is also what dental laboratories and dental suppliers charge under, whose customer is a dentist, and the name is a dental one",
            medical_evidence(f.medical),
        );
    }
    if code.is_broad() && f.medical.is_none() {
        return broad_code_review(
            code,
            "also covers non-medical services, and nothing else shows this is medical care",
            None,
        );
    }
    let category =
        if code.is_broad() { f.medical.map(|m| m.category).unwrap_or("medical_services") } else { code.category() };
    // Under a code that needed it, what stood for the care is evidence too:
    // the field of care when no medical word stands for it, or the doctor
    // the practice is named for when neither a specialty nor a field does.
    let field = match (f.care_field, f.named_physician.or(f.named_practice)) {
        (Some(word), _) if f.medical.is_none() => Some(word),
        (None, Some(name)) if f.specialty.is_none() => Some(name),
        _ => None,
    }
    .map(|word| keyword(word, code.category()));
    verdict(
        Outcome::Eligible,
        category,
        "medical_category",
        format!("{} is a health-care merchant category: medical care under IRS Publication 502.", code.label()),
        [Some(code.evidence(code.category())), medical_evidence(f.medical), field],
    )
}

/// A medical category code that does not decide alone: `needs_review`
/// with reason `broad_medical_category`, saying `why` after the code's
/// name, with what else was read.
fn broad_code_review(code: CategoryCode<'_>, why: &str, beside: Option<Evidence>) -> Option<Verdict> {
    verdict(
        Outcome::NeedsReview,
        code.category(),
        "broad_medical_category",
        format!("{} {why}; a receipt decides.", code.label()),
        [Some(code.evidence(code.category())), beside],
    )
}

/// Catch-all category codes (miscellaneous retail, professional services)
/// under which a practice with a medical specialty in its name is still a
/// practice: `mcc_needs_review` lets the specialty decide there.
const CATCH_ALL_CODES: [&str; 2] = ["5999", "8999"];

/// Category codes whose merchants sell both kinds. Under a catch-all code,
/// a medical specialty in the name (with nothing against it, which the
/// rules before this one have ruled out) makes a provider, and under
/// miscellaneous retail so does a name that says the store sells a
/// medical good.
fn mcc_needs_review(f: &Facts<'_>) -> Option<Verdict> {
    let code = f.code.filter(|c| c.listed_as(Outcome::NeedsReview).is_some())?;
    // Under miscellaneous retail, a store named for a medical good (a
    // hearing or vision centre, a medical-supply or mobility store) too.
    let sells_medical_goods = |m: &MedicalWord<'_>| {
        code.code == "5999" && matches!(m.category, "hearing" | "vision" | "medical_supplies" | "diagnostics")
    };
    // Under the code of drug proprietaries (not drug stores, 5912, which
    // sell both kinds however they are named), a business that names a
    // prescription-only trade (`COMPOUNDING`) fills prescriptions.
    let fills_prescriptions = |m: &MedicalWord<'_>| code.code == "5122" && m.specialty && m.category == "prescriptions";
    let provider = f
        .specialty
        .filter(|_| CATCH_ALL_CODES.contains(&code.code))
        .or(f.medical.filter(sells_medical_goods))
        .or(f.specialty.filter(fills_prescriptions));
    if let Some(word) = provider {
        return verdict(
            Outcome::Eligible,
            word.category,
            "medical_provider",
            format!(
                "{} names medical care ({}); {} is a catch-all category that such merchants also use.",
                f.merchant_label,
                describe_category(word.category),
                code.label()
            ),
            [Some(word.evidence()), Some(code.evidence(code.category()))],
        );
    }
    verdict(
        Outcome::NeedsReview,
        code.category(),
        "mixed_category",
        format!("{} sells both eligible and ineligible goods or services; a receipt decides.", code.label()),
        [Some(code.evidence(code.category())), medical_evidence(f.medical)],
    )
}

/// Any category code the reference data does not list is not health care;
/// a specialty says otherwise. (An unlisted code of the health-services
/// range is read by `mcc_medical` as a broad medical code.)
fn mcc_non_medical(f: &Facts<'_>) -> Option<Verdict> {
    let code = f.code.filter(|c| c.listed.is_none())?;
    // A specialty, or a generic word that names a medical good or need
    // (`DIABETIC`, `HEARING`, `MOBILITY`): a shoe store for diabetic feet or
    // a hearing-aid repair shop is a question, not a no. Words that only
    // name a place of care (`HOSPITAL`, `CLINIC`, `NURSING`) are what
    // plant, watch and shoe businesses borrow, and yield to the code.
    let names_a_need = f.medical.filter(|m| !matches!(m.category, "medical_services" | "hospital"));
    if let Some(word) = f.specialty.or(names_a_need) {
        return conflict(
            quoted(word.word),
            format!("the category code {} is not a health-care category", code.code),
            [Some(word.evidence()), Some(code.evidence("general"))],
        );
    }
    verdict(
        Outcome::Ineligible,
        "general",
        "non_medical_category",
        format!("MCC {} is not a health-care merchant category.", code.code),
        [Some(code.evidence("general"))],
    )
}

/// With no category code: a medical word makes a provider; a pharmacy word
/// a basket that needs item-level data.
fn provider_keyword(f: &Facts<'_>) -> Option<Verdict> {
    if f.code.is_some() {
        return None;
    }
    if let Some(word) = f.medical {
        return verdict(
            Outcome::Eligible,
            word.category,
            "medical_provider",
            format!("{} is a health-care provider ({}).", f.merchant_label, describe_category(word.category)),
            [Some(word.evidence())],
        );
    }
    let pharmacy = f.pharmacy?;
    verdict(
        Outcome::NeedsReview,
        "mixed_merchandise",
        "mixed_merchant",
        format!(
            "{} is a pharmacy selling both eligible and ineligible goods; item-level data is needed.",
            f.merchant_label
        ),
        [Some(keyword(pharmacy, "mixed_merchandise"))],
    )
}

fn unknown_verdict() -> Verdict {
    Verdict {
        outcome: Outcome::NeedsReview,
        category: "general",
        code: "unknown_merchant",
        message: "The merchant could not be identified and no category code was given; a receipt decides.".to_string(),
        evidence: Vec::new(),
    }
}

/// Nothing to go on: a person must look.
fn unknown(_: &Facts<'_>) -> Option<Verdict> {
    Some(unknown_verdict())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::{CategoryCode, ListedCode, MerchantFact, NonMedicalWord};

    fn facts() -> Facts<'static> {
        Facts { merchant_label: "Acme", ..Facts::default() }
    }

    fn code(code: &'static str, outcome: Option<Outcome>) -> Option<CategoryCode<'static>> {
        Some(CategoryCode { code, listed: outcome.map(|outcome| ListedCode { outcome, description: "Test" }) })
    }

    const SPECIALTY: MedicalWord<'static> = MedicalWord { category: "dental", specialty: true, word: "DENTAL" };
    /// A specialty of no dental trade, for the codes the dental trades share.
    const PATHOLOGY: MedicalWord<'static> = MedicalWord { category: "labs", specialty: true, word: "PATHOLOGY" };
    const GENERIC: MedicalWord<'static> =
        MedicalWord { category: "medical_services", specialty: false, word: "CLINIC" };

    fn against(kind: NonMedical, word: &'static str) -> Option<NonMedicalWord<'static>> {
        Some(NonMedicalWord { kind, word })
    }

    fn merchant(source: MerchantSource, outcome: Outcome, category: &'static str) -> Option<MerchantFact> {
        Some(MerchantFact { source, outcome, category, code: "medical_merchant", message: "usual".into() })
    }

    fn decided(v: Option<Verdict>) -> (Outcome, &'static str) {
        let v = v.expect("the rule applies");
        (v.outcome, v.code)
    }

    const REVIEW: Outcome = Outcome::NeedsReview;

    #[test]
    fn an_unlisted_code_of_the_health_range_is_broad_and_any_other_is_not_health_care() {
        let health = Facts { code: code("8093", None), medical: Some(GENERIC), ..facts() };
        assert_eq!(decided(mcc_medical(&health)), (Outcome::Eligible, "medical_category"));
        let bare = Facts { code: code("8093", None), ..facts() };
        assert_eq!(decided(mcc_medical(&bare)), (REVIEW, "broad_medical_category"));
        let other = Facts { code: code("7399", None), medical: Some(GENERIC), ..facts() };
        assert_eq!(decided(mcc_non_medical(&other)), (Outcome::Ineligible, "non_medical_category"));
    }

    #[test]
    fn the_table_names_each_rule_once_and_ends_in_unknown() {
        let mut names: Vec<&str> = RULES.iter().map(|r| r.name).collect();
        assert_eq!(names.last(), Some(&"unknown"));
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), RULES.len());
        assert_eq!(apply(&facts()).0, "unknown");
    }

    #[test]
    fn cannabis_is_ineligible_and_applies_only_to_its_word() {
        assert_eq!(cannabis(&facts()), None);
        let f = Facts { cannabis: Some("CBD"), medical: Some(GENERIC), ..facts() };
        assert_eq!(decided(cannabis(&f)), (Outcome::Ineligible, "controlled_substance"));
        assert_eq!(apply(&f).0, "cannabis");
    }

    #[test]
    fn fuel_by_word_or_by_code() {
        assert_eq!(fuel(&Facts { code: code("5411", None), ..facts() }), None);
        let by_word = fuel(&Facts { fuel: Some("GAS"), ..facts() }).unwrap();
        assert_eq!((by_word.outcome, by_word.evidence.len()), (Outcome::Ineligible, 1));
        let by_code = fuel(&Facts { code: code("5542", Some(Outcome::Ineligible)), ..facts() }).unwrap();
        assert_eq!(by_code.evidence[0].kind, EvidenceKind::CategoryCode);
    }

    #[test]
    fn pet_care_outweighs_a_medical_word_but_not_other_non_medical_words() {
        let f = Facts {
            non_medical: against(NonMedical::Pet, "VET"),
            specialty: Some(SPECIALTY),
            medical: Some(SPECIALTY),
            ..facts()
        };
        let v = pet_care(&f).unwrap();
        assert_eq!((v.outcome, v.evidence.len()), (Outcome::Ineligible, 2));
        assert_eq!(pet_care(&Facts { non_medical: against(NonMedical::Dining, "CAFE"), ..facts() }), None);
    }

    #[test]
    fn a_merchant_keeps_its_outcome_unless_the_descriptor_disagrees() {
        let eligible = Facts { merchant: merchant(MerchantSource::Known, Outcome::Eligible, "dental"), ..facts() };
        assert_eq!(decided(known_merchant(&eligible)), (Outcome::Eligible, "medical_merchant"));
        assert_eq!(directory_merchant(&eligible), None, "each rule reads its own source");
        let spa = Facts { non_medical: against(NonMedical::Cosmetic, "SPA"), ..eligible.clone() };
        assert_eq!(decided(known_merchant(&spa)), (REVIEW, "conflicting_evidence"));
        let bar_code = Facts { code: code("5813", Some(Outcome::Ineligible)), ..eligible };
        assert_eq!(decided(known_merchant(&bar_code)), (REVIEW, "conflicting_evidence"));

        let shop = Facts { merchant: merchant(MerchantSource::Directory, Outcome::Ineligible, "general"), ..facts() };
        assert_eq!(decided(directory_merchant(&shop)).0, Outcome::Ineligible);
        let generic = Facts { medical: Some(GENERIC), ..shop.clone() };
        assert_eq!(decided(directory_merchant(&generic)).0, Outcome::Ineligible, "a generic word yields");
        let specialty = Facts { specialty: Some(SPECIALTY), medical: Some(SPECIALTY), ..shop };
        assert_eq!(decided(directory_merchant(&specialty)), (REVIEW, "conflicting_evidence"));
        let hotel = Facts {
            merchant: merchant(MerchantSource::Known, Outcome::Ineligible, "travel"),
            medical: Some(GENERIC),
            ..facts()
        };
        assert_eq!(decided(known_merchant(&hotel)), (REVIEW, "conflicting_evidence"), "lodging for care");
    }

    #[test]
    fn a_delivery_merchant_under_the_drug_store_code_carries_a_pharmacy_order() {
        let delivery = Facts { merchant: merchant(MerchantSource::Known, Outcome::Ineligible, "dining"), ..facts() };
        assert_eq!(decided(known_merchant(&delivery)).0, Outcome::Ineligible);
        let pharmacy_code = Facts { code: code("5912", Some(REVIEW)), ..delivery.clone() };
        let v = known_merchant(&pharmacy_code).unwrap();
        assert_eq!((v.outcome, v.code), (REVIEW, "conflicting_evidence"));
        assert!(v.message.starts_with("Its category code (5912)"), "{}", v.message);
        let hospital_code = Facts { code: code("8062", Some(Outcome::Eligible)), ..delivery };
        assert_eq!(decided(known_merchant(&hospital_code)).0, Outcome::Ineligible, "a coffee chain under 8062");
        let pet_pharmacy = Facts {
            merchant: merchant(MerchantSource::Known, Outcome::Ineligible, "veterinary"),
            code: code("5912", Some(REVIEW)),
            ..facts()
        };
        assert_eq!(decided(known_merchant(&pet_pharmacy)).0, Outcome::Ineligible, "a pet pharmacy");
    }

    #[test]
    fn travel_named_for_care_is_a_question_and_other_travel_is_not() {
        let parking = Facts { code: code("7523", None), medical: Some(GENERIC), ..facts() };
        let v = medical_travel(&parking).unwrap();
        assert_eq!((v.outcome, v.category, v.code), (REVIEW, "medical_travel", "conditional_care"));
        assert_eq!(apply(&parking).0, "medical_travel");
        let hotel = Facts { code: code("7011", Some(Outcome::Ineligible)), ..facts() };
        assert_eq!(medical_travel(&hotel), None, "no medical word: the code decides");
        assert_eq!(apply(&hotel).0, "mcc_ineligible");
        let clinic = Facts { code: code("8011", Some(Outcome::Eligible)), medical: Some(GENERIC), ..facts() };
        assert_eq!(medical_travel(&clinic), None, "not a travel code");
    }

    #[test]
    fn an_insurer_needs_review() {
        assert_eq!(insurer(&facts()), None);
        assert_eq!(decided(insurer(&Facts { insurer: Some("AETNA"), ..facts() })), (REVIEW, "insurance_premium"));
    }

    #[test]
    fn non_medical_words_outweigh_generic_words_and_conflict_with_specialties() {
        assert_eq!(non_medical_words(&facts()), None);
        let spa = Facts { non_medical: against(NonMedical::Cosmetic, "SPA"), medical: Some(GENERIC), ..facts() };
        assert_eq!(decided(non_medical_words(&spa)), (Outcome::Ineligible, "cosmetic_service"));
        let dental_spa = Facts { specialty: Some(SPECIALTY), medical: Some(SPECIALTY), ..spa };
        assert_eq!(decided(non_medical_words(&dental_spa)), (REVIEW, "conflicting_evidence"));
        let parking =
            Facts { non_medical: against(NonMedical::MedicalTravel, "PARKING"), medical: Some(GENERIC), ..facts() };
        assert_eq!(decided(non_medical_words(&parking)), (REVIEW, "conflicting_evidence"));
        let wellness = Facts {
            non_medical: against(NonMedical::Wellness, "WELLNESS"),
            code: code("8011", Some(Outcome::Eligible)),
            ..facts()
        };
        let v = non_medical_words(&wellness).unwrap();
        assert_eq!((v.code, v.evidence[0].kind), ("conflicting_evidence", EvidenceKind::CategoryCode));
        assert!(v.message.starts_with("Its category code (8011)"), "{}", v.message);
        let cafe = Facts { non_medical: against(NonMedical::Dining, "CAFE"), ..facts() };
        assert_eq!(decided(non_medical_words(&cafe)), (Outcome::Ineligible, "non_medical_merchant"));
    }

    #[test]
    fn a_physicians_or_laboratories_code_needs_a_field_of_care_beside_it() {
        for elective in ELECTIVE_PRACTICE_CODES {
            let bare = Facts { code: code(elective, Some(Outcome::Eligible)), ..facts() };
            assert_eq!(decided(mcc_medical(&bare)), (REVIEW, "broad_medical_category"), "{elective}");
            // A word that only says doctor or clinic repeats the code.
            let clinic = Facts { medical: Some(GENERIC), ..bare.clone() };
            assert_eq!(decided(mcc_medical(&clinic)), (REVIEW, "broad_medical_category"), "{elective}");
            let specialty = Facts { medical: Some(PATHOLOGY), specialty: Some(PATHOLOGY), ..bare.clone() };
            assert_eq!(decided(mcc_medical(&specialty)), (Outcome::Eligible, "medical_category"), "{elective}");
            let field = Facts { care_field: Some("RHEUMATOLOGY"), ..bare.clone() };
            let v = mcc_medical(&field).unwrap();
            assert_eq!((v.outcome, v.code), (Outcome::Eligible, "medical_category"), "{elective}");
            assert!(v.evidence.iter().any(|e| e.value == "RHEUMATOLOGY"), "{:?}", v.evidence);
        }
        // Any other medical code decides alone, as before.
        let dentist = Facts { code: code("8021", Some(Outcome::Eligible)), ..facts() };
        assert_eq!(decided(mcc_medical(&dentist)), (Outcome::Eligible, "medical_category"));
        // A field of care is read by no other rule: with no code it makes
        // no provider.
        let no_code = Facts { care_field: Some("HEART"), ..facts() };
        assert_eq!(provider_keyword(&no_code), None);
    }

    #[test]
    fn under_a_physicians_code_a_practice_named_for_its_doctor_or_its_place_and_kind_is_care() {
        let bare = Facts { code: code("8011", Some(Outcome::Eligible)), ..facts() };
        let doctor = Facts { named_physician: Some("DR JANE ROEBUCK MD"), medical: Some(GENERIC), ..bare.clone() };
        let v = mcc_medical(&doctor).unwrap();
        assert_eq!((v.outcome, v.code), (Outcome::Eligible, "medical_category"));
        assert!(v.evidence.iter().any(|e| e.value == "DR JANE ROEBUCK MD"), "{:?}", v.evidence);
        let practice = Facts { named_practice: Some("MEDICAL CENTRE"), ..bare.clone() };
        let v = mcc_medical(&practice).unwrap();
        assert_eq!((v.outcome, v.code), (Outcome::Eligible, "medical_category"));
        assert!(v.evidence.iter().any(|e| e.value == "MEDICAL CENTRE"), "{:?}", v.evidence);
        // A word of cosmetic care beside the name is read first, by
        // `non_medical_words`, whatever the name: the rule order says so.
        let order: Vec<&str> = RULES.iter().map(|rule| rule.name).collect();
        let at = |name: &str| order.iter().position(|n| *n == name).unwrap();
        assert!(at("non_medical_words") < at("mcc_medical"), "{order:?}");
        // Under a code that needs no field, a name changes nothing.
        let dentist = Facts { code: code("8021", Some(Outcome::Eligible)), named_practice: Some("CLINIC"), ..facts() };
        assert_eq!(decided(mcc_medical(&dentist)), (Outcome::Eligible, "medical_category"));
    }

    #[test]
    fn under_a_code_that_is_not_health_care_a_word_naming_a_medical_need_asks() {
        let shoes = Facts { code: code("5661", None), ..facts() };
        assert_eq!(decided(mcc_non_medical(&shoes)), (Outcome::Ineligible, "non_medical_category"));
        let diabetic = MedicalWord { category: "medical_supplies", specialty: false, word: "DIABETIC" };
        let diabetic_shoes = Facts { medical: Some(diabetic), ..shoes.clone() };
        assert_eq!(decided(mcc_non_medical(&diabetic_shoes)), (REVIEW, "conflicting_evidence"));
        // A word that only names a place of care yields to the code.
        let hospital = MedicalWord { category: "hospital", specialty: false, word: "HOSPITAL" };
        let shoe_hospital = Facts { medical: Some(hospital), ..shoes.clone() };
        assert_eq!(decided(mcc_non_medical(&shoe_hospital)), (Outcome::Ineligible, "non_medical_category"));
        let shoe_clinic = Facts { medical: Some(GENERIC), ..shoes };
        assert_eq!(decided(mcc_non_medical(&shoe_clinic)), (Outcome::Ineligible, "non_medical_category"));
    }

    #[test]
    fn category_code_rules_each_take_their_own_listing() {
        let never = Facts { code: code("5813", Some(Outcome::Ineligible)), ..facts() };
        assert_eq!(decided(mcc_ineligible(&never)), (Outcome::Ineligible, "non_medical_category"));
        assert_eq!((mcc_medical(&never), mcc_needs_review(&never), mcc_non_medical(&never)), (None, None, None));
        let never_dental = Facts { specialty: Some(SPECIALTY), ..never };
        assert_eq!(decided(mcc_ineligible(&never_dental)), (REVIEW, "conflicting_evidence"));

        let dentist = Facts { code: code("8021", Some(Outcome::Eligible)), ..facts() };
        let v = mcc_medical(&dentist).unwrap();
        assert_eq!((v.outcome, v.category), (Outcome::Eligible, "dental"));
        let broad = Facts { code: code("8099", Some(Outcome::Eligible)), ..facts() };
        assert_eq!(decided(mcc_medical(&broad)), (REVIEW, "broad_medical_category"));
        let broad_with_word = Facts { medical: Some(SPECIALTY), ..broad };
        assert_eq!(mcc_medical(&broad_with_word).unwrap().category, "dental");

        let mixed = Facts { code: code("5912", Some(REVIEW)), ..facts() };
        assert_eq!(decided(mcc_needs_review(&mixed)), (REVIEW, "mixed_category"));

        let unlisted = Facts { code: code("1234", None), ..facts() };
        assert_eq!(decided(mcc_non_medical(&unlisted)), (Outcome::Ineligible, "non_medical_category"));
        let unlisted_dental = Facts { specialty: Some(SPECIALTY), ..unlisted };
        assert_eq!(decided(mcc_non_medical(&unlisted_dental)), (REVIEW, "conflicting_evidence"));
    }

    #[test]
    fn without_a_code_a_medical_word_is_a_provider_and_a_pharmacy_a_basket() {
        let clinic = Facts { medical: Some(GENERIC), ..facts() };
        assert_eq!(decided(provider_keyword(&clinic)), (Outcome::Eligible, "medical_provider"));
        let with_code = Facts { code: code("8011", Some(Outcome::Eligible)), ..clinic };
        assert_eq!(provider_keyword(&with_code), None);
        let pharmacy = Facts { pharmacy: Some("PHARMACY"), ..facts() };
        assert_eq!(decided(provider_keyword(&pharmacy)), (REVIEW, "mixed_merchant"));
        assert_eq!(provider_keyword(&facts()), None);
    }

    #[test]
    fn a_pharmacy_beside_a_shop_word_is_a_mixed_basket() {
        let grocery = Facts { non_medical: against(NonMedical::Dining, "GROCERY"), ..facts() };
        assert_eq!(decided(non_medical_words(&grocery)), (Outcome::Ineligible, "non_medical_merchant"));
        let with_pharmacy = Facts { pharmacy: Some("PHARMACY"), ..grocery };
        let v = non_medical_words(&with_pharmacy).unwrap();
        assert_eq!((v.outcome, v.code, v.evidence.len()), (REVIEW, "mixed_merchant", 2));
        let vet_pharmacy =
            Facts { non_medical: against(NonMedical::Pet, "PET"), pharmacy: Some("PHARMACY"), ..facts() };
        assert_eq!(decided(non_medical_words(&vet_pharmacy)).0, Outcome::Ineligible, "a pet pharmacy stays a pet's");
        let restaurant = Facts {
            non_medical: against(NonMedical::Dining, "BURGER"),
            pharmacy: Some("PHARMACY"),
            code: code("5812", Some(Outcome::Ineligible)),
            ..facts()
        };
        assert_eq!(decided(non_medical_words(&restaurant)).0, Outcome::Ineligible, "a restaurant's name");
    }

    #[test]
    fn a_shop_word_under_a_trade_medical_code_conflicts_but_not_under_the_catch_all() {
        let boutique = |mcc: &'static str| Facts {
            non_medical: against(NonMedical::Services, "BOUTIQUE"),
            code: code(mcc, Some(Outcome::Eligible)),
            ..facts()
        };
        assert_eq!(decided(non_medical_words(&boutique("8043"))), (REVIEW, "conflicting_evidence"));
        assert_eq!(decided(non_medical_words(&boutique("8099"))), (Outcome::Ineligible, "non_medical_merchant"));
    }

    #[test]
    fn a_dental_name_under_a_code_of_the_dental_trades_is_a_review() {
        const DENTAL: MedicalWord<'static> = SPECIALTY;
        for trade in ["8071", "5047"] {
            let lab = Facts {
                code: code(trade, Some(Outcome::Eligible)),
                medical: Some(DENTAL),
                specialty: Some(DENTAL),
                ..facts()
            };
            let v = mcc_medical(&lab).unwrap();
            assert_eq!((v.outcome, v.code), (REVIEW, "broad_medical_category"), "{trade}");
            assert!(v.message.contains("dental laboratories"), "{}", v.message);
            assert!(v.evidence.iter().any(|e| e.value == "DENTAL"), "{:?}", v.evidence);
            let medical = Facts { medical: Some(PATHOLOGY), specialty: Some(PATHOLOGY), ..lab };
            assert_eq!(decided(mcc_medical(&medical)), (Outcome::Eligible, "medical_category"), "{trade}");
        }
        let dentist = Facts {
            code: code("8021", Some(Outcome::Eligible)),
            medical: Some(DENTAL),
            specialty: Some(DENTAL),
            ..facts()
        };
        assert_eq!(decided(mcc_medical(&dentist)), (Outcome::Eligible, "medical_category"), "a dentist's own code");
    }

    #[test]
    fn a_catch_all_code_lets_a_specialty_or_a_medical_good_decide() {
        let retail = Facts { code: code("5999", Some(REVIEW)), ..facts() };
        assert_eq!(decided(mcc_needs_review(&retail)), (REVIEW, "mixed_category"));
        let dental = Facts { specialty: Some(SPECIALTY), medical: Some(SPECIALTY), ..retail.clone() };
        assert_eq!(decided(mcc_needs_review(&dental)), (Outcome::Eligible, "medical_provider"));
        const HEARING: MedicalWord<'static> = MedicalWord { category: "hearing", specialty: false, word: "HEARING" };
        let hearing = Facts { medical: Some(HEARING), ..retail.clone() };
        assert_eq!(decided(mcc_needs_review(&hearing)), (Outcome::Eligible, "medical_provider"));
        let clinic = Facts { medical: Some(GENERIC), ..retail };
        assert_eq!(decided(mcc_needs_review(&clinic)), (REVIEW, "mixed_category"), "a generic word is not enough");
        let services = Facts { code: code("8999", Some(REVIEW)), medical: Some(HEARING), ..facts() };
        assert_eq!(decided(mcc_needs_review(&services)), (REVIEW, "mixed_category"), "goods only under retail");
        let pharmacy = Facts { code: code("5912", Some(REVIEW)), ..dental };
        assert_eq!(decided(mcc_needs_review(&pharmacy)), (REVIEW, "mixed_category"), "a drug store stays mixed");
    }

    #[test]
    fn a_grocery_is_a_mixed_basket_unless_its_code_is_never_medical() {
        let grocery = Facts { store: Some("GROCERY"), non_medical: against(NonMedical::Dining, "DELI"), ..facts() };
        assert_eq!(decided(mixed_store(&grocery)), (REVIEW, "mixed_merchant"));
        let under_grocery_code = Facts { code: code("5411", Some(REVIEW)), ..grocery.clone() };
        assert_eq!(decided(mixed_store(&under_grocery_code)), (REVIEW, "mixed_merchant"));
        let restaurant = Facts { code: code("5812", Some(Outcome::Ineligible)), ..grocery.clone() };
        assert!(mixed_store(&restaurant).is_none(), "a restaurant named grocery is decided by its code");
        assert!(mixed_store(&facts()).is_none());
    }

    #[test]
    fn unknown_always_decides_for_review() {
        assert_eq!(decided(unknown(&facts())), (REVIEW, "unknown_merchant"));
    }
}
