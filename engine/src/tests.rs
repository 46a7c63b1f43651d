use super::*;

pub(crate) fn engine() -> Engine {
    Engine::seeded().unwrap()
}

fn card(description: &str, mcc: Option<&str>) -> Adjudication {
    engine().adjudicate(&Purchase { description, merchant_name: None, mcc, amount_minor: 2500, items: None })
}

#[test]
fn every_reference_descriptor_gets_its_expected_outcome_with_and_without_its_mcc() {
    let engine = engine();
    let mut wrong = Vec::new();
    for row in reference::descriptors().unwrap().iter() {
        for mcc in [Some(row.example_mcc.as_str()), None] {
            let result = engine.adjudicate(&Purchase {
                description: &row.raw_descriptor,
                merchant_name: None,
                mcc,
                amount_minor: 1000,
                items: None,
            });
            if result.outcome.as_str() != row.expected_outcome {
                wrong.push(format!(
                    "{} (mcc {mcc:?}): {:?} by {}, expected {}",
                    row.raw_descriptor, result.outcome, result.rule, row.expected_outcome
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn descriptors_resolve_to_directory_merchants() {
    let cvs =
        card("PURCHASE AUTHORIZED ON 05/14 CVS/PHARMACY #08871 AUSTIN TX P000000123456789 CARD 1234", Some("5912"));
    assert_eq!(cvs.merchant.as_ref().unwrap().name, "CVS Pharmacy");
    assert!(cvs.merchant.as_ref().unwrap().id.as_ref().unwrap().starts_with("mer_"));
    assert_eq!(cvs.outcome, Outcome::NeedsReview);
    assert_eq!(cvs.reason.code, "mixed_merchant");
    let duane = card("DUANE READE 14251", None);
    assert_eq!(duane.merchant.as_ref().unwrap().name, "Duane Reade");
    assert_eq!(duane.merchant.as_ref().unwrap().id, card("WALGREENS #1", None).merchant.unwrap().id);
    assert_eq!(card("CVS MINUTECLINIC 0123", None).merchant.unwrap().name, "CVS MinuteClinic");
    assert_eq!(card("WM SUPERCENTER #1700 POWAY CAUS", None).merchant.unwrap().name, "Walmart");
    let square = card("SQ *DR SMITH DDS", Some("8021"));
    assert_eq!(square.merchant.as_ref().unwrap().id, None);
    assert_eq!(square.merchant.as_ref().unwrap().name, "Dr Smith Dds");
    assert_eq!(square.category, "dental");
}

#[test]
fn traps_of_the_reference_data() {
    assert_eq!(card("COSTCO GAS #0482", Some("5542")).outcome, Outcome::Ineligible);
    assert_eq!(card("COSTCO WHSE #0482", Some("5300")).outcome, Outcome::NeedsReview);
    assert_eq!(card("DELTA DENTAL OF OREGON", None).outcome, Outcome::NeedsReview);
    assert_eq!(card("DELTA AIR LINES 0062345678901", None).outcome, Outcome::Ineligible);
    assert_eq!(card("DR PEPPER VENDING", None).outcome, Outcome::Ineligible);
    assert_eq!(card("LAS VEGAS DENTAL GROUP", None).outcome, Outcome::Eligible, "GAS inside VEGAS is not fuel");
    assert_eq!(card("BRIGHT SMILES TEETH WHITENING", Some("8021")).outcome, Outcome::Ineligible);
    assert_eq!(card("GLOW MED SPA", Some("8099")).outcome, Outcome::NeedsReview);
    assert_eq!(card("RANDOM THING LLC", None).rule, "unknown");
    assert_eq!(card("ACME HARDWARE", Some("5251")).rule, "mcc_non_medical");
}

#[test]
fn the_partners_merchant_name_helps_resolution() {
    let result = engine().adjudicate(&Purchase {
        description: "POS 8812 ZZ*77",
        merchant_name: Some("LensCrafters"),
        mcc: None,
        amount_minor: 10000,
        items: None,
    });
    assert_eq!(result.outcome, Outcome::Eligible);
    assert_eq!(result.category, "vision");
}

#[test]
fn item_level_data_decides_per_line() {
    let engine = engine();
    let item =
        |d: &str, a: i64, flag: Option<bool>| Item { description: d.into(), amount_minor: a, flagged_eligible: flag };
    let mixed = [item("Ibuprofen 200mg Tablets 100ct", 999, None), item("Potato Chips Family Size", 449, None)];
    let result = engine.adjudicate(&Purchase {
        description: "CVS PHARMACY ORDER #1",
        merchant_name: None,
        mcc: Some("5912"),
        amount_minor: 1448,
        items: Some(&mixed),
    });
    assert_eq!(result.outcome, Outcome::Eligible);
    assert_eq!(result.reason.code, "partially_eligible");
    assert_eq!(result.eligible_amount_minor, 999);
    assert_eq!(result.category, "otc_medicine");
    assert_eq!(result.rule, "item_level");

    let all = [item("Tampons Regular 36ct", 899, None), item("Digital Oral Thermometer", 1299, None)];
    let result = engine.adjudicate(&Purchase {
        description: "TARGET",
        merchant_name: None,
        mcc: None,
        amount_minor: 2198,
        items: Some(&all),
    });
    assert_eq!((result.outcome, result.eligible_amount_minor), (Outcome::Eligible, 2198));

    let none = [item("Non-prescription Sunglasses", 9000, None), item("Whitening Toothpaste 4oz", 499, None)];
    let result = engine.adjudicate(&Purchase {
        description: "TARGET",
        merchant_name: None,
        mcc: None,
        amount_minor: 9499,
        items: Some(&none),
    });
    assert_eq!((result.outcome, result.eligible_amount_minor), (Outcome::Ineligible, 0));

    let unknown = [item("Mystery Box", 1000, None)];
    assert_eq!(
        engine
            .adjudicate(&Purchase {
                description: "TARGET",
                merchant_name: None,
                mcc: None,
                amount_minor: 1000,
                items: Some(&unknown)
            })
            .outcome,
        Outcome::NeedsReview
    );

    let flagged = [item("SKU 88231", 1000, Some(true)), item("SKU 11111", 500, Some(false))];
    let result = engine.adjudicate(&Purchase {
        description: "CVS",
        merchant_name: None,
        mcc: None,
        amount_minor: 1500,
        items: Some(&flagged),
    });
    assert_eq!(
        (result.outcome, result.eligible_amount_minor),
        (Outcome::Eligible, 1000),
        "the store's IIAS flag is taken"
    );
}

#[test]
fn every_category_is_documented() {
    let engine = engine();
    let slugs: Vec<&str> = categories::CATEGORIES.iter().map(|(s, _)| *s).collect();
    for row in reference::descriptors().unwrap().iter() {
        let result = engine.adjudicate(&Purchase {
            description: &row.raw_descriptor,
            merchant_name: None,
            mcc: Some(&row.example_mcc),
            amount_minor: 1,
            items: None,
        });
        assert!(
            slugs.contains(&result.category),
            "{} has undocumented category {}",
            row.raw_descriptor,
            result.category
        );
    }
    for (_, _, category, _, _) in ITEM_KEYWORDS {
        assert!(slugs.contains(category), "{category}");
    }
}
