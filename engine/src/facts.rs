//! What the engine knows about one purchase before any rule runs: the
//! merchant it resolved to with that merchant's usual outcome, the category
//! code with the reference data's treatment of it, and the descriptor's
//! words read as typed evidence. The rules (`rules`) read nothing else, so
//! each can be tested on facts written by hand.

use crate::decision::{Evidence, EvidenceKind, Outcome};
use crate::names::{CREDENTIALS_BESIDE_DR, ELECTIVE_PRACTICE_CODES, PracticeNames, named_physician};
use crate::signals::{NonMedical, Signal};

/// A medical word of the descriptor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MedicalWord<'a> {
    /// The eligibility category it points to (`dental`, `vision`…).
    pub category: &'static str,
    /// A specialty (DENTIST, OPTOMETRY), not a generic word (CLINIC): a
    /// specialty outweighs evidence of non-medical use; a generic word
    /// yields to it.
    pub specialty: bool,
    /// The word as it appears in the descriptor.
    pub word: &'a str,
}

/// A word of the descriptor pointing to non-medical use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NonMedicalWord<'a> {
    pub kind: NonMedical,
    pub word: &'a str,
}

/// Where a merchant's usual outcome comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MerchantSource {
    /// The merchant knowledge (`data/merchant_knowledge.csv`, `aliases`).
    Known,
    /// The merchant directory partners see.
    Directory,
}

/// The resolved merchant's usual outcome and how it is explained.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MerchantFact {
    pub source: MerchantSource,
    pub outcome: Outcome,
    pub category: &'static str,
    pub code: &'static str,
    pub message: String,
}

/// How `data/mcc_medical.csv` treats a category code it lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListedCode<'a> {
    pub outcome: Outcome,
    pub description: &'a str,
}

/// The purchase's merchant category code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CategoryCode<'a> {
    pub code: &'a str,
    /// The reference data's row for it; None for a code it does not list.
    pub listed: Option<ListedCode<'a>>,
}

/// Category codes that also cover non-medical services: catch-all
/// practitioners (med spas, wellness), personal-care facilities, optical
/// goods (fashion sunglasses), B2B equipment. Alone they prove nothing.
pub const BROAD_MEDICAL_CODES: &[&str] = &["8099", "8050", "8043", "5047"];

/// Hospitals: the code under which a hospital's own shops and car parks
/// also charge ([`CategoryCode::hosts_other_trades`]).
pub const HOSPITALS_CODE: &str = "8062";

/// Laboratories and suppliers whose dental half sells to dentists
/// ([`CategoryCode::serves_dentists`]).
const DENTAL_TRADE_CODES: [&str; 2] = ["8071", "5047"];

/// Nursing and personal-care facilities ([`CategoryCode::houses_its_patients`]).
pub const CARE_FACILITIES_CODE: &str = "8050";

impl CategoryCode<'_> {
    /// The category a code's purchases fall in.
    pub fn category(&self) -> &'static str {
        match self.code {
            "8021" => "dental",
            "8042" | "8043" => "vision",
            "5975" => "hearing",
            "8071" => "labs",
            HOSPITALS_CODE | "4119" => "hospital",
            "8031" | "8041" | "8049" => "alternative_care",
            "5047" | "5976" => "medical_supplies",
            CARE_FACILITIES_CODE => "long_term_care",
            "8011" | "8099" => "medical_services",
            "7277" => "counseling",
            "6300" => "insurance",
            "5541" | "5542" => "fuel",
            "5812" | "5814" | "5499" | "5921" => "dining",
            "4111" | "4121" | "4511" | "7011" | "7523" => "travel",
            "7230" | "7297" | "7298" | "5977" => "personal_care",
            "7997" => "fitness",
            "0742" => "veterinary",
            "8351" => "childcare",
            "5993" => "general",
            "8299" | "8999" => "general",
            _ if self.is_unlisted_health_code() => "medical_services",
            _ => "mixed_merchandise",
        }
    }

    /// Whether the code also covers non-medical services (or is a health
    /// code the reference data does not list, so nothing more is known).
    pub fn is_broad(&self) -> bool {
        BROAD_MEDICAL_CODES.contains(&self.code) || self.is_unlisted_health_code()
    }

    /// A code of the health-services range (8000 to 8099, where ISO 18245
    /// puts doctors, hospitals, labs and other medical services) that the
    /// reference data does not list: like a broad code, it says medical
    /// care only beside a medical word.
    pub fn is_unlisted_health_code(&self) -> bool {
        self.listed.is_none() && self.code.parse::<u16>().is_ok_and(|n| (8000..=8099).contains(&n))
    }

    /// Whether businesses that are not care also settle under the code:
    /// a hospital's cafeteria, gift shop, florist and car park charge as the
    /// hospital (`data/mcc_medical.csv` says so of 8062). Beside such a code a
    /// word of another trade is a question, not a refusal nor a yes.
    pub fn hosts_other_trades(&self) -> bool {
        self.code == HOSPITALS_CODE
    }

    /// Whether the code is that of facilities where people live while cared
    /// for (nursing and personal-care facilities): a stay there is medical
    /// care only when it is mainly for care (IRS Publication 502, nursing
    /// homes), so a generic word such as NURSING, which only repeats the
    /// code, does not decide it; a specialty (HOSPICE) does.
    pub fn houses_its_patients(&self) -> bool {
        self.code == CARE_FACILITIES_CODE
    }

    /// Whether the code is shared by the trades that serve dentists: dental
    /// laboratories (Medical and Dental Laboratories, 8071) and dental
    /// suppliers (Medical, Dental, Ophthalmic and Hospital Equipment and
    /// Supplies, 5047). Their customer is the dentist, who bills the
    /// patient, so a dental word there does not show a patient's care.
    pub fn serves_dentists(&self) -> bool {
        DENTAL_TRADE_CODES.contains(&self.code)
    }

    /// The code as a reason names it: "Dentists (MCC 8021)".
    pub fn label(&self) -> String {
        match self.listed {
            Some(listed) => format!("{} (MCC {})", listed.description, self.code),
            None => format!("MCC {}", self.code),
        }
    }

    /// The code as evidence pointing to `indicates`.
    pub fn evidence(&self, indicates: &'static str) -> Evidence {
        Evidence { kind: EvidenceKind::CategoryCode, value: self.code.to_string(), indicates }
    }

    /// The reference data's outcome for the code, when it lists it.
    pub fn listed_as(&self, outcome: Outcome) -> Option<ListedCode<'_>> {
        self.listed.filter(|l| l.outcome == outcome)
    }
}

/// Evidence of non-medical use, the most decisive kind first: a pet or a
/// cosmetic service decides more than a generic "services" word.
const PRECEDENCE: [NonMedical; 14] = [
    NonMedical::Pet,
    NonMedical::Cosmetic,
    NonMedical::MedicalTravel,
    NonMedical::Wellness,
    NonMedical::Childcare,
    NonMedical::AlcoholTobacco,
    NonMedical::Dining,
    NonMedical::PersonalCare,
    NonMedical::Fitness,
    NonMedical::Travel,
    NonMedical::DigitalGoods,
    NonMedical::Services,
    NonMedical::Conditional,
    NonMedical::CosmeticHint,
];

/// Everything the rules decide from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facts<'a> {
    /// How reasons name the merchant ("this merchant" when unresolved).
    pub merchant_label: &'a str,
    /// The merchant's usual outcome, when it resolved to a known or
    /// directory merchant.
    pub merchant: Option<MerchantFact>,
    pub code: Option<CategoryCode<'a>>,
    pub cannabis: Option<&'a str>,
    pub fuel: Option<&'a str>,
    pub insurer: Option<&'a str>,
    pub pharmacy: Option<&'a str>,
    /// A word naming a store that sells both kinds (`GROCERY`).
    pub store: Option<&'a str>,
    /// The strongest medical word: the first specialty, else the first word.
    pub medical: Option<MedicalWord<'a>>,
    /// The first specialty word.
    pub specialty: Option<MedicalWord<'a>>,
    /// The most decisive evidence of non-medical use.
    pub non_medical: Option<NonMedicalWord<'a>>,
    /// The first word naming a field of care (`RHEUMATOLOGY`, `KIDNEY`).
    pub care_field: Option<&'a str>,
    /// A practice named for its doctor and nothing else (`DR JANE ROE MD`):
    /// the name, from `DR` on.
    pub named_physician: Option<&'a str>,
    /// A practice named for a place or a person and the kind of practice
    /// it is, and nothing else (`HOLBAEK MEDICAL CENTRE`): its kind.
    pub named_practice: Option<&'a str>,
}

impl<'a> Facts<'a> {
    /// Reads the words found in a descriptor (`text`, its canonical words)
    /// into typed evidence. A credential of two or three letters that is
    /// also something else (`MD` Maryland, `AUD` a currency, `PT` a pint,
    /// `LAC` a lake) counts only beside `DR`.
    pub fn read_words(&mut self, text: &'a str, mut found: Vec<(Signal, &'a str)>) {
        let has_dr = text.split(' ').any(|w| w == "DR");
        found.retain(|(_, word)| !CREDENTIALS_BESIDE_DR.contains(word) || has_dr);
        // A name is read for who or where it names only where the code
        // asks a name to say what care (and so off every other purchase's
        // path).
        if self.code.is_some_and(|c| ELECTIVE_PRACTICE_CODES.contains(&c.code)) {
            let names = PracticeNames::shared().ok();
            self.named_physician = named_physician(text, &found)
                .or_else(|| names.and_then(|names| names.credentialed_physician(text, &found)));
            self.named_practice = names.and_then(|names| names.named_practice(text, &found));
        }
        found.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
        let first = |signal: Signal| found.iter().find(|(s, _)| *s == signal).map(|(_, w)| *w);
        self.cannabis = first(Signal::Cannabis);
        self.fuel = first(Signal::Fuel);
        self.insurer = first(Signal::Insurer);
        self.pharmacy = first(Signal::Pharmacy);
        self.store = first(Signal::Store);
        self.care_field = first(Signal::CareField);
        let medical: Vec<MedicalWord<'a>> = found
            .iter()
            .filter_map(|(s, w)| match s {
                Signal::Medical { category, specialty } => {
                    Some(MedicalWord { category, specialty: *specialty, word: w })
                }
                _ => None,
            })
            .collect();
        self.specialty = medical.iter().find(|m| m.specialty).copied();
        self.medical = self.specialty.or_else(|| medical.first().copied());
        let word_of = |kind: NonMedical| {
            found.iter().find_map(|(s, w)| (*s == Signal::NonMedical(kind)).then_some(NonMedicalWord { kind, word: w }))
        };
        // A hint of cosmetic work yields to a specialty beside it (`SMILE
        // DENTAL` is a dentist; `SMILE STUDIO` may be a veneer studio).
        let hint_stands = self.specialty.is_none();
        self.non_medical = PRECEDENCE
            .iter()
            .filter(|kind| **kind != NonMedical::CosmeticHint || hint_stands)
            .find_map(|kind| word_of(*kind));
        // A cosmetic word beside a conditional one (dermatology that also
        // does cosmetic surgery, a vein and laser clinic) leaves the care
        // possibly medical: a case for review, not a refusal.
        if self.non_medical.is_some_and(|n| n.kind == NonMedical::Cosmetic)
            && let Some(conditional) = word_of(NonMedical::Conditional)
        {
            self.non_medical = Some(conditional);
        }
    }

    /// The code as evidence, when there is one.
    pub fn code_evidence(&self, indicates: &'static str) -> Option<Evidence> {
        self.code.map(|c| c.evidence(indicates))
    }
}

impl MedicalWord<'_> {
    pub fn evidence(&self) -> Evidence {
        keyword(self.word, self.category)
    }
}

impl NonMedicalWord<'_> {
    pub fn evidence(&self) -> Evidence {
        keyword(self.word, self.kind.category())
    }
}

/// A word of the descriptor as evidence pointing to `indicates`.
pub fn keyword(word: &str, indicates: &'static str) -> Evidence {
    Evidence { kind: EvidenceKind::Keyword, value: word.to_string(), indicates }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_specialty_is_the_strongest_medical_word_and_md_needs_dr() {
        let mut facts = Facts::default();
        let found = vec![
            (Signal::Medical { category: "medical_services", specialty: false }, "CLINIC"),
            (Signal::Medical { category: "dental", specialty: true }, "DENTAL"),
            (Signal::Medical { category: "medical_services", specialty: false }, "MD"),
        ];
        facts.read_words("SMILE CLINIC DENTAL MD", found.clone());
        assert_eq!(facts.medical.map(|m| m.word), Some("DENTAL"));
        assert_eq!(facts.specialty.map(|m| m.category), Some("dental"));
        let mut generic = Facts::default();
        generic.read_words("MD", vec![found[2]]);
        assert_eq!(generic.medical, None, "MD alone is Maryland");
        generic.read_words("DR SMITH MD", vec![found[2]]);
        assert_eq!(generic.medical.map(|m| m.word), Some("MD"));
    }

    #[test]
    fn the_most_decisive_non_medical_word_wins_whatever_its_place() {
        let mut facts = Facts::default();
        facts.read_words(
            "CAFE PET",
            vec![(Signal::NonMedical(NonMedical::Dining), "CAFE"), (Signal::NonMedical(NonMedical::Pet), "PET")],
        );
        assert_eq!(facts.non_medical, Some(NonMedicalWord { kind: NonMedical::Pet, word: "PET" }));
    }

    #[test]
    fn a_cosmetic_word_yields_to_a_conditional_one_beside_it() {
        let mut facts = Facts::default();
        let laser = (Signal::NonMedical(NonMedical::Cosmetic), "LASER");
        let vein = (Signal::NonMedical(NonMedical::Conditional), "VEIN");
        let salon = (Signal::NonMedical(NonMedical::PersonalCare), "SALON");
        facts.read_words("VEIN AND LASER", vec![vein, laser]);
        assert_eq!(facts.non_medical, Some(NonMedicalWord { kind: NonMedical::Conditional, word: "VEIN" }));
        facts.read_words("LASER SALON", vec![laser, salon]);
        assert_eq!(facts.non_medical.map(|n| n.kind), Some(NonMedical::Cosmetic), "cosmetic outranks the rest");
    }

    #[test]
    fn a_cosmetic_hint_stands_only_where_no_specialty_names_the_care() {
        let smile = (Signal::NonMedical(NonMedical::CosmeticHint), "SMILE");
        let dental = (Signal::Medical { category: "dental", specialty: true }, "DENTAL");
        let studio = (Signal::NonMedical(NonMedical::Services), "STUDIO");
        let mut facts = Facts::default();
        facts.read_words("RADIANT SMILE", vec![smile]);
        assert_eq!(facts.non_medical.map(|n| n.kind), Some(NonMedical::CosmeticHint));
        facts.read_words("BRIGHT SMILE DENTAL", vec![smile, dental]);
        assert_eq!(facts.non_medical, None, "a dentist");
        facts.read_words("SMILE STUDIO", vec![smile, studio]);
        assert_eq!(facts.non_medical.map(|n| n.kind), Some(NonMedical::Services), "a stronger word still counts");
    }

    #[test]
    fn a_code_names_its_category_and_breadth() {
        let listed = Some(ListedCode { outcome: Outcome::Eligible, description: "Dentists" });
        let dental = CategoryCode { code: "8021", listed };
        assert_eq!(
            (dental.category(), dental.is_broad(), dental.label()),
            ("dental", false, "Dentists (MCC 8021)".into())
        );
        assert!(CategoryCode { code: "8099", listed: None }.is_broad());
        assert_eq!(CategoryCode { code: "1234", listed: None }.category(), "mixed_merchandise");
    }
}
