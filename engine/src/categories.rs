//! The expense categories the engine assigns: machine-readable slugs, each
//! tied to its row of `data/eligibility_categories.csv` (the IRS-based
//! categories) or, for purchases that are not health care at all, to the
//! merchant category group that says so (`data/mcc_medical.csv`).

/// `(slug, the eligibility_categories.csv row or mcc_medical.csv group it stands for)`.
pub const CATEGORIES: &[(&str, &str)] = &[
    ("medical_services", "Medical practitioner services"),
    ("hospital", "Hospital and facility care"),
    ("prescriptions", "Prescription drugs and insulin"),
    ("otc_medicine", "OTC medicines (no prescription since 2020)"),
    ("menstrual_care", "Menstrual care products"),
    ("medical_supplies", "First aid and medical supplies"),
    ("diagnostics", "Diagnostic devices and tests"),
    ("dental", "Dental care"),
    ("cosmetic_dental", "Cosmetic dental"),
    ("vision", "Vision care"),
    ("fashion_eyewear", "Non-prescription sunglasses / fashion eyewear"),
    ("reading_glasses", "Reading glasses (OTC)"),
    ("hearing", "Hearing"),
    ("alternative_care", "Alternative/other practitioners"),
    ("mental_health", "Mental health"),
    ("counseling", "Marriage / life counseling"),
    ("labs", "Labs and imaging"),
    ("reproductive", "Reproductive and family planning"),
    ("smoking_cessation", "Substance use and smoking cessation"),
    ("fitness", "Gym / health club / fitness"),
    ("supplements", "Vitamins and nutritional supplements"),
    ("cosmetic", "Cosmetic procedures"),
    ("sunscreen", "Sunscreen"),
    ("toiletries", "Toiletries and personal-use items"),
    ("medical_travel", "Medical travel and lodging"),
    ("controlled_substances", "Controlled substances"),
    ("childcare", "Childcare and non-medical services"),
    ("insurance", "Health insurance premiums"),
    ("long_term_care", "Long-term care"),
    ("veterinary", "Veterinary care"),
    // Not health care: named after the merchant category groups of mcc_medical.csv.
    ("mixed_merchandise", "5912/5411/5300/5310/5311/5331/5399/5999/5942: mixed merchandise"),
    ("fuel", "5541/5542: service stations and fuel"),
    ("dining", "5812/5814/5499: food and dining"),
    ("travel", "4111/4121/4511/7011: transportation and lodging"),
    ("personal_care", "7230/7297/7298/5977: beauty, spas and cosmetics"),
    ("digital_goods", "digital goods and subscriptions"),
    ("groceries", "5411/5499: groceries, snacks and beverages"),
    ("alcohol_and_tobacco", "5921/5993: alcohol and tobacco"),
    ("household", "5719/5200: household goods, paper and cleaning"),
    ("apparel", "5651/5661/5944: apparel, footwear and jewelry"),
    ("electronics", "5732/5722: electronics and appliances"),
    ("toys_and_gifts", "5945/5947: toys, cards and seasonal goods"),
    ("books_and_magazines", "5942/5994: books and magazines"),
    ("pet_supplies", "5995: pet food and supplies"),
    ("general", "other purchases"),
];

#[cfg(test)]
mod tests {
    #[test]
    fn every_health_category_names_a_row_of_the_reference_data() {
        let csv_text = include_str!("../../data/eligibility_categories.csv");
        let names: Vec<String> = csv::Reader::from_reader(csv_text.as_bytes())
            .records()
            .map(|r| r.unwrap().get(0).unwrap().to_string())
            .collect();
        for (slug, source) in super::CATEGORIES {
            if source.contains(':') || source.starts_with("digital") || source.starts_with("other") {
                continue;
            }
            assert!(
                names.iter().any(|n| n == source),
                "{slug}: '{source}' is not a category of eligibility_categories.csv"
            );
        }
    }
}
