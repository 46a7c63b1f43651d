//! The held-out measures of the knowledge work: the second, third and
//! fourth pairs of 2026-11-26 (`tests/data/held_out_2026_11_26_b/`, `_c/`,
//! `_d/`), the fifth to eleventh of 2026-11-27
//! (`held_out_2026_11_27_e/` to `_k/`) and the twelfth to twenty-first of
//! 2026-11-28 (`held_out_2026_11_28_l/` to `_u/`), each run
//! once when a round of work was done, with every miss printed
//! (`cargo test -p sail-engine --test held_out_measure -- --nocapture`).
//! The figures of those runs are in docs/held-out-2026-11-26.md,
//! docs/held-out-2026-11-27.md, docs/held-out-2026-11-27-f.md to
//! `-k.md`, and docs/held-out-2026-11-28-l.md to `-u.md`; this test
//! holds the engine to them so that nothing slips back. The frozen pair may
//! not be studied or tuned to: its rows stay out of every word list
//! (`tests/held_out_leaks.rs`); a measured pair is development data after.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or benchmark: a failed step is the run failing, and says where"
)]

use sail_engine::Engine;
use sail_engine::evaluation::{LabelledLine, LabelledPurchase, measure_lines, measure_purchases, read_labelled};

/// Measures the purchases of a pair, prints the matrix and every miss, and
/// checks them against what its run measured.
fn purchases(pair: &str, run: &Run) {
    let engine = Engine::seeded().unwrap();
    let rows: Vec<LabelledPurchase> = read_labelled(&format!("{pair}/purchases.csv")).unwrap();
    let measure = measure_purchases(&engine, &rows);
    println!("{}", measure.report(&format!("{pair}, purchases")));
    // The measuring run's false `eligible`s are named; any other fails, and
    // a cosmetic service at a medical-looking business above all.
    let new: Vec<&(String, String)> =
        measure.false_eligible.iter().filter(|(d, _)| !run.false_eligible.contains(&d.as_str())).collect();
    let cosmetic: Vec<&&(String, String)> = new.iter().filter(|(_, why)| why.contains("cosmetic")).collect();
    assert!(cosmetic.is_empty(), "cosmetic services called eligible: {cosmetic:#?}");
    assert!(new.is_empty(), "false eligible beyond the measured ones: {new:#?}");
    assert!(measure.acceptable_share() >= run.acceptable, "acceptable below its measured floor");
    assert!(measure.labelled_share() >= run.exact, "exact below its measured floor");
}

/// Measures the receipt lines of a pair, prints the matrix and every miss,
/// and checks them against what its run measured.
fn receipt_lines(pair: &str, run: &Run) {
    let engine = Engine::seeded().unwrap();
    let rows: Vec<LabelledLine> = read_labelled(&format!("{pair}/receipt_lines.csv")).unwrap();
    let measure = measure_lines(&engine, &rows);
    println!("{}", measure.report(&format!("{pair}, receipt lines")));
    let new: Vec<&(String, String)> =
        measure.false_eligible.iter().filter(|(l, _)| !run.eligible_lines.contains(&l.as_str())).collect();
    assert!(new.is_empty(), "non-medical lines called eligible beyond the measured ones: {new:#?}");
    assert!(measure.labelled_share() >= run.lines, "below the measured floor");
}

/// The two tests of one measured pair, its purchases and its receipt
/// lines, each held to that pair's run.
macro_rules! measured_pair {
    ($purchases:ident, $lines:ident, $folder:literal, $run:ident) => {
        #[test]
        fn $purchases() {
            purchases($folder, &$run);
        }

        #[test]
        fn $lines() {
            receipt_lines($folder, &$run);
        }
    };
}

/// What one measuring run found, held as floors just under it: its false
/// `eligible` purchases and non-medical lines called eligible are named, so
/// that no new one appears.
struct Run {
    exact: f64,
    acceptable: f64,
    false_eligible: &'static [&'static str],
    lines: f64,
    eligible_lines: &'static [&'static str],
}

/// The second pair's one run (docs/held-out-2026-11-26.md): purchases 80.3%
/// exact, 97.2% acceptable, 4 false `eligible` (cosmetic skin and laser
/// clinics under medical codes); receipt lines 88.0%, one non-medical line
/// (a moisturiser with SPF, labelled for review) called eligible. Targets
/// missed. The pair is development data since.
const SECOND_PAIR: Run = Run {
    exact: 0.80,
    acceptable: 0.97,
    false_eligible: &[
        "POS DEBIT 1218 RENEW LASER AND SKIN CLINIC TUCSON AZ",
        "CHECKCARD 0315 SUNSTONE SKIN AND LASER MD",
        "CONTOUR BODY CLINIC MEDICAL",
        "PURCHASE AUTHORIZED ON 02/15 LUMINOUS SKIN CLINIC DAYTON OH S731779367 CARD 2655",
    ],
    lines: 0.875,
    eligible_lines: &["811203 LACURA DAILY MOIST SPF15   4.99 B"],
};

/// The third pair's one run (docs/held-out-2026-11-26.md): purchases 85.7%
/// exact, 98.8% acceptable, 2 false `eligible` (a laser clinic and a vein
/// and laser clinic under medical codes); receipt lines 88.9%, two
/// non-medical lines (a denture cleaner, puppy pads) called eligible.
/// Targets missed but for acceptability.
const THIRD_PAIR: Run = Run {
    exact: 0.85,
    acceptable: 0.98,
    false_eligible: &["SKINSMART LASER CLINIC", "NORTHSIDE VEIN AND LASER"],
    lines: 0.885,
    eligible_lines: &["DDM DENTURE CLEANER 84       3.99 N", "MARCS PUPPY PADS 50              12.99 T"],
};

measured_pair!(second_pair_purchases, second_pair_receipt_lines, "held_out_2026_11_26_b", SECOND_PAIR);

measured_pair!(third_pair_purchases, third_pair_receipt_lines, "held_out_2026_11_26_c", THIRD_PAIR);

/// The fourth pair's one run (docs/held-out-2026-11-26.md), measured when
/// the third round of work was done: purchases 82.1% exact, 99.8%
/// acceptable, one false `eligible` (cosmetic "smile design" dentistry
/// under the dentists' code); receipt lines 81.9% (94.9% acceptable), six
/// lines called eligible that the labels call otherwise. Targets missed
/// but for acceptability.
const FOURTH_PAIR: Run = Run {
    exact: 0.82,
    acceptable: 0.99,
    false_eligible: &["SUMMERLIN SMILE DESI #7477"],
    lines: 0.815,
    eligible_lines: &[
        "000000412345 KRO ZINC OXIDE DIAPER RASH 4.49 T",
        "SM ORAL RINSE ANTISEPTIC    4.49 T",
        "MB HAND SANITIZER 8OZ     1.99 T",
        "BIG Y DIAPER RASH OINT        4.99 T",
        "GNP RX DELIVERY FEE      3.00",
        "99C DUST MASKS 5PK          0.99 T",
        // Added on 2026-11-27 (seventh round): the Spanish for diaper rash,
        // read as the skin protectant the reference data (21 CFR 347) and
        // the later pairs call it, as the two lines above already are.
        "POMADA PARA ROZADURAS BEBE   4.49 T",
    ],
};

measured_pair!(fourth_pair_purchases, fourth_pair_receipt_lines, "held_out_2026_11_26_d", FOURTH_PAIR);

/// The fifth pair's one run (docs/held-out-2026-11-27.md), measured when
/// the fourth round of work was done: purchases 85.0% exact, 99.0%
/// acceptable, five `eligible` where the label asks for a review (a vein
/// clinic, two cosmetic dental studios, teledermatology, a concierge
/// membership, all under medical codes); receipt lines 85.9% (96.0%
/// acceptable), four lines called eligible that the labels call otherwise.
/// Targets missed but for acceptability.
const FIFTH_PAIR: Run = Run {
    exact: 0.845,
    acceptable: 0.985,
    false_eligible: &[
        "CHECKCARD 0723 VEINCARE OF SOUTHLAKE",
        "RADIANT SMILE STUDIO",
        "VENEER ARTISTRY CENTER",
        "DERMCHAT TELEDERM #1675",
        "PURCHASE AUTHORIZED ON 06/12 MDVIP ANNUAL FEE S594876183 CARD 1844",
    ],
    lines: 0.855,
    eligible_lines: &[
        "ICE BAG 20LB                3.99",
        "HEINENS HAND SANITIZER 8OZ 2.99 T",
        "RX DELIVERY CHARGE       3.00",
        "DE DIAPER RASH OINTMENT  6.99 T",
    ],
};

measured_pair!(fifth_pair_purchases, fifth_pair_receipt_lines, "held_out_2026_11_27_e", FIFTH_PAIR);

/// The sixth pair (2026-11-27, `held_out_2026_11_27_f/`), measured once
/// when the fifth round was done (docs/held-out-2026-11-27-f.md): 82.6%
/// of purchases exact (96.8% acceptable), nine false `eligible`
/// purchases; 83.1% of lines as labelled (97.9% acceptable), three
/// non-medical lines called eligible. Targets missed.
const SIXTH_PAIR: Run = Run {
    exact: 0.82,
    acceptable: 0.965,
    false_eligible: &[
        "LUMINEER SMILE ATELIER",
        "POS DEBIT 0405 SNUGFIT COMPRESSION WE DAYTON OH",
        "PURCHASE AUTHORIZED ON 07/05 PRIMEPOINT DIRECT PRIM S365908802 CARD 9545",
        "POS DEBIT 1226 DR TIBERIUS HOLLOWAY P TULSA OK",
        "DEBIT CARD PURCHASE XXXXX8725 VEINWORKS VASCULAR CEN",
        "HAIRMAX RESTORATION CLINIC",
        "LASERLUXE SKIN CLINI #6401",
        "SCULPTURA MEDICAL AE #5866",
        "SKINCHECK ONLINE DERM",
    ],
    lines: 0.825,
    eligible_lines: &[
        "ZARBEES COUGH HONEY KIDS  9.99 T",
        "HYLAND TEETHING TABS   8.99 T",
        "SNUS GENERAL WHITE       6.99 T",
    ],
};

measured_pair!(sixth_pair_purchases, sixth_pair_receipt_lines, "held_out_2026_11_27_f", SIXTH_PAIR);

/// The seventh pair (2026-11-27, `held_out_2026_11_27_g/`), measured once
/// when the sixth round was done (docs/held-out-2026-11-27-g.md): 87.9%
/// of purchases exact (98.3% acceptable), two false `eligible` purchases
/// (dermal fillers, a plastic surgeon cut before `PLASTIC`); 81.9% of
/// lines as labelled (96.9% acceptable), five lines called eligible that
/// the labels do not allow. Targets missed.
const SEVENTH_PAIR: Run = Run {
    exact: 0.875,
    acceptable: 0.98,
    false_eligible: &[
        "CHECKCARD 0507 FILLER FIX STUDIO",
        "PURCHASE AUTHORIZED ON 01/07 DR CORNELIUS BLAKE PLA S437248828 CARD 6374",
    ],
    lines: 0.815,
    eligible_lines: &[
        "ZICAM NASAL SWABS 20          12.99 T",
        "SWIFFER WETJET PADS       12.99 T",
        "NEWPORT MENTHOL             11.99 T",
        "SNYDER LINERS 60          2.99 T",
        "CM TEETHING GEL          5.99 T",
    ],
};

measured_pair!(seventh_pair_purchases, seventh_pair_receipt_lines, "held_out_2026_11_27_g", SEVENTH_PAIR);

/// The eighth pair (2026-11-27, `held_out_2026_11_27_h/`), measured once
/// when the seventh round was done (docs/held-out-2026-11-27-h.md): 90.7%
/// of purchases exact (98.8% acceptable), one false `eligible` (a
/// naturopathic clinic under 8099); 81.6% of lines as labelled (97.0%
/// acceptable), four lines called eligible that the labels do not allow.
/// The purchase exactness and acceptability targets met; the rest missed.
const EIGHTH_PAIR: Run = Run {
    exact: 0.905,
    acceptable: 0.985,
    false_eligible: &["NATUROPATHIC FAMILY CLINIC"],
    lines: 0.815,
    eligible_lines: &[
        "BABY ORAJEL NIGHTTIME        7.99 T",
        "SEG TANNING OIL SPF 4        6.99 T",
        "SEG CITRONELLA CANDLE        4.99 T",
        "JAYC PANTY LINERS          2.99 T",
    ],
};

measured_pair!(eighth_pair_purchases, eighth_pair_receipt_lines, "held_out_2026_11_27_h", EIGHTH_PAIR);

/// The ninth pair (2026-11-27, `held_out_2026_11_27_i/`), measured once
/// when the eighth round was done (docs/held-out-2026-11-27-i.md): 83.4%
/// of purchases exact (94.9% acceptable), eight false `eligible`
/// (long-term care under 8050, tests that are not care, a weight clinic, a
/// nutritionist, facial plastics, and an aesthetics practice whose name the
/// bank cut before the word); 75.6% of lines as labelled (95.3%
/// acceptable), twelve lines called eligible that the labels do not allow,
/// seven of them goods for animals. Every target missed.
const NINTH_PAIR: Run = Run {
    exact: 0.83,
    acceptable: 0.945,
    false_eligible: &[
        "CHECKCARD 0624 SHEARWATER SKILLED NURSIN",
        "CHECKCARD 0517 STORM PETREL NURSING HOME",
        "PURCHASE AUTHORIZED ON 06/03 DR LUCIAN VANTERPOOL M S350888706 CARD 2920",
        "PURCHASE AUTHORIZED ON 12/26 TINAMOU WEIGHT CLINIC S779508985 CARD 8588",
        "PURCHASE AUTHORIZED ON 03/11 MILO DRUG TESTING S203427008 CARD 2531",
        "KIAWE PATERNITY TEST #2169",
        "CHECKCARD 0322 CATBIRD FACIAL PLASTICS",
        "WHITE EYE NUTRITIONIST",
    ],
    lines: 0.75,
    eligible_lines: &[
        "MISSHA BB CREAM SPF42          14.99 T",
        "HOT PACK HAND WARMER 10        9.99 T",
        "PET FIRST AID KIT           24.99 T",
        "VETERICYN WOUND SPRAY       19.99 T",
        "DOG ALLERGY CHEWS 90        29.99 T",
        "PETCO PAIN RELIEF CANINE    34.99 T",
        "CAT ANTIBIOTIC EYE OINT     14.99 T",
        "PET THERMOMETER RECTAL      9.99 T",
        "VETCO VACCINE PACKAGE       89.00",
        "GNC PRENATAL VITAMIN            24.99 T",
        "GNC NICOTINE FREE VAPE          19.99 T",
        "KNEE PADS GEL               24.97 T",
    ],
};

measured_pair!(ninth_pair_purchases, ninth_pair_receipt_lines, "held_out_2026_11_27_i", NINTH_PAIR);

/// The tenth pair (2026-11-27, `held_out_2026_11_27_j/`), measured once
/// when the ninth round was done (docs/held-out-2026-11-27-j.md): 84.5%
/// of purchases exact (96.3% acceptable, the target met), five false
/// `eligible` (two nursing homes, two practice memberships, an employment
/// drug screen cut before its words), no cosmetic service; 81.4% of lines
/// as labelled (98.2% acceptable), one line called eligible that the
/// labels do not allow (nicotine pouches). The exactness and zero targets
/// missed.
const TENTH_PAIR: Run = Run {
    exact: 0.84,
    acceptable: 0.96,
    false_eligible: &[
        "POS DEBIT 0120 CLOWNFISH NURSING AND  FRESNO CA",
        "BLENNY NURSING HOME",
        "TILEFISH DIRECT CARE",
        "CHECKCARD 0524 SAND TILEFISH PRIMARY CAR",
        "VENDACE EMPLOYMENT D #9385",
    ],
    lines: 0.81,
    eligible_lines: &["ON NICOTINE POUCH         4.99 T"],
};

measured_pair!(tenth_pair_purchases, tenth_pair_receipt_lines, "held_out_2026_11_27_j", TENTH_PAIR);

/// The eleventh pair (2026-11-27, `held_out_2026_11_27_k/`), measured once
/// when the tenth round was done (docs/held-out-2026-11-27-k.md): 87.7%
/// of purchases exact (97.1% acceptable, the target met), four false
/// `eligible` (a nursing home, an aesthetics practice cut before its word,
/// a tennis clinic with no category code, a dermatologist glued into a
/// PayPal name); 73.9% of lines as labelled (98.0% acceptable), two lines
/// called eligible that the labels do not allow (a lifting belt, an outdoor
/// thermometer). The exactness and zero targets missed.
const ELEVENTH_PAIR: Run = Run {
    exact: 0.875,
    acceptable: 0.97,
    false_eligible: &[
        "POS DEBIT 0709 TENREC NURSING HOME BOISE ID",
        "DR BARTHOLOMEW QUAYLE MD",
        "HAFLINGER TENNIS CLINIC",
        "PAYPAL *DRCHENDERMATOLOGY",
    ],
    lines: 0.735,
    eligible_lines: &["MENARDS BACK BRACE      24.99 T", "ACE THERMOMETER OUTDOOR   12.99 T"],
};

measured_pair!(eleventh_pair_purchases, eleventh_pair_receipt_lines, "held_out_2026_11_27_k", ELEVENTH_PAIR);

/// The twelfth pair (2026-11-28, `held_out_2026_11_28_l/`), measured once
/// when the eleventh round was done (docs/held-out-2026-11-28-l.md): 84.2%
/// of purchases exact (95.3% acceptable, the target met), seven false
/// `eligible` (a breast augmentation, a DOT physical, an elective body scan,
/// hormone, testosterone and men's health clinics under the physicians'
/// code, a drugstore named for eye drops); 90.8% of lines as labelled (the
/// target met; 98.5% acceptable), two lines called eligible that the labels
/// do not allow (a lip balm with SPF 15, a denture adhesive).
const TWELFTH_PAIR: Run = Run {
    exact: 0.84,
    acceptable: 0.95,
    false_eligible: &[
        "CHECKCARD 0327 UMBRIATICO BREAST AUGMENT",
        "PALOMONTE DOT PHYSICAL",
        "CALABRITTO BODY SCAN",
        "VIETRI HORMONE CLINIC",
        "TOLVE TESTOSTERONE C #4339",
        "POS DEBIT 0611 VAGLIO MENS HEALTH TAMPA FL",
        "CALVELLO EYE DROPS",
    ],
    lines: 0.905,
    eligible_lines: &["ECONO CHAPSTICK SPF 15    1.99 T", "SUPER D DENTURE ADHESIVE    4.99 T"],
};

measured_pair!(twelfth_pair_purchases, twelfth_pair_receipt_lines, "held_out_2026_11_28_l", TWELFTH_PAIR);

/// The thirteenth pair (2026-11-28, `held_out_2026_11_28_m/`), measured
/// once when the twelfth round was done (docs/held-out-2026-11-28-m.md):
/// 83.1% of purchases exact (94.8% acceptable), nine false `eligible` (a
/// tummy tuck, low-T, HRT and vitality clinics and a CDL physical under
/// medical codes, a skin-surgery practice, an elective whole-body scan, a
/// dental lab cut short, a diabetic-footwear shop with no code); 88.0% of
/// lines as labelled (97.5% acceptable), five lines called eligible that
/// the labels do not allow (cotton pads, isopropyl alcohol in Spanish,
/// homeopathic teething tablets, prenatal gummies, orthotic insoles).
/// Every target missed but none by more than five points.
///
/// Held since the thirteenth round (docs/held-out-2026-11-28-n.md) to what
/// that round left: the physicians' and laboratories' codes need a field
/// of care beside them, which made six of the nine false `eligible`s
/// reviews and physicians named only by a person's name reviews too
/// (acceptable, no longer exact); the round's words from this pair's
/// misses gave back some of it: 82.7% exact, 96.1% acceptable, three
/// false `eligible`s; lines 96.7%.
const THIRTEENTH_PAIR: Run = Run {
    exact: 0.825,
    acceptable: 0.96,
    false_eligible: &[
        "POS DEBIT 0610 LLANWRTYD REVIVE CLINI TULSA OK",
        "LLANFIHANGEL DENTAL L",
        "BLEDDFA DIABETIC FOO #9829",
    ],
    lines: 0.96,
    eligible_lines: &[
        "BRAVO ALCOHOL ISOPROPILICO 1.99 T",
        "MEDIC TEETHING TABLETS     7.99 T",
        "MEDIC PRENATAL GUMMIES     12.99 T",
        "HC ORTHOTIC INSOLES      39.99 T",
    ],
};

measured_pair!(thirteenth_pair_purchases, thirteenth_pair_receipt_lines, "held_out_2026_11_28_m", THIRTEENTH_PAIR);

/// The fourteenth pair (2026-11-28, `held_out_2026_11_28_n/`), measured
/// once when the thirteenth round was done (docs/held-out-2026-11-28-n.md):
/// 85.0% of purchases exact (98.1% acceptable), two false `eligible` (a DNA
/// test at a laboratory code named for diagnostics, a peptide clinic under
/// 8099 beside CLINIC), no cosmetic service `eligible`; 85.3% of lines as
/// labelled (95.9% acceptable), 19 lines called eligible that the labels
/// do not allow, sixteen of them one store's prefix (`SNS`, Shop 'n Save)
/// read as the receipt abbreviation of SINUS, and a candy cane, a thermos
/// and a denture adhesive. Every target but purchases' acceptable missed.
const FOURTEENTH_PAIR: Run = Run {
    exact: 0.845,
    acceptable: 0.98,
    false_eligible: &["BANTRY DNA DIAGNOSTICS", "CHECKCARD 0625 BODMIN PEPTIDE CLINIC"],
    lines: 0.85,
    eligible_lines: &[
        "SNS HAM SLICED LB        4.99 F",
        "SNS CHEESE AMER 16       3.29 F",
        "SNS OJ 52OZ              2.99 F",
        "SNS CEREAL TOASTED O     2.49 F",
        "SNS FROZEN PEAS 12OZ     1.29 F",
        "SNS PORK CHOPS LB        3.49 F",
        "SNS SWEET CORN 4CT       2.00 F",
        "SNS ICE CREAM 48OZ       3.99 F",
        "SNS COFFEE 30.5OZ        8.99 F",
        "SNS TOOTHPASTE 6OZ       1.99 T",
        "SNS RAZOR DISP 10        4.99 T",
        "SNS FABRIC SOFT 64OZ     3.99 T",
        "SNS MOTOR OIL 5QT       19.99 T",
        "SNS PAPER TOWEL 8RL      7.99 T",
        "SNS DISH PODS 42         7.99 T",
        "SNS KETCHUP 32OZ         1.99 F",
        "SX DENTURE ADHESIVE        5.49 T",
        "RENYS CANDY CANE 12        2.99 F",
        "BLAINS THERMOS 24OZ          24.99 T",
    ],
};

measured_pair!(fourteenth_pair_purchases, fourteenth_pair_receipt_lines, "held_out_2026_11_28_n", FOURTEENTH_PAIR);

/// The fifteenth pair (2026-11-28, `held_out_2026_11_28_o/`), measured
/// once when the fourteenth round was done (docs/held-out-2026-11-28-o.md):
/// 81.9% of purchases exact (96.8% acceptable), four false `eligible` (a
/// nose-job clinic under the physicians' code, read as care by the field
/// `NOSE` the thirteenth round took from `EAR NOSE THROAT`; a rehab and
/// nursing home cut short; an employment drug screen; a dental
/// laboratory); 86.3% of lines as labelled (98.3% acceptable), five lines
/// called eligible that the labels do not allow (a Korean hand-warmer
/// pack, livestock syringes, a herbal cough syrup, two denture products).
const FIFTEENTH_PAIR: Run = Run {
    exact: 0.815,
    acceptable: 0.965,
    false_eligible: &[
        "PURCHASE AUTHORIZED ON 06/26 TROMSO REHAB AND NURSI S360577092 CARD 7614",
        "PURCHASE AUTHORIZED ON 12/19 KUNGSBACKA NOSE JOB CL S117205870 CARD 6691",
        "POS DEBIT 1007 TAASTRUP DRUG SCREENIN BOISE ID",
        "VIBORG DENTAL LABORATORY",
    ],
    lines: 0.86,
    eligible_lines: &[
        "SK COUGH SYRUP HERBAL     6.99 T",
        "ASSI HOT PACK KOREAN 10    6.99 T",
        "GENOVESE DENTURE CREAM     5.49 T",
        "ATWOODS SYRINGES 3ML 10      4.99 T",
        "ALCO DENTURE TABLETS         3.99 T",
    ],
};

measured_pair!(fifteenth_pair_purchases, fifteenth_pair_receipt_lines, "held_out_2026_11_28_o", FIFTEENTH_PAIR);

/// The sixteenth pair (2026-11-28, `held_out_2026_11_28_p/`), measured
/// once when the fifteenth round was done (docs/held-out-2026-11-28-p.md):
/// 79.6% of purchases exact (97.7% acceptable), five false `eligible` (a
/// "skin doctor" under the physicians' code, a nursing home cut short, a
/// low-T clinic with no code, an ozone clinic beside `CLINIC` under 8099,
/// a dental-ceramics laboratory); 82.0% of lines as labelled (97.2%
/// acceptable), four lines called eligible that the labels do not allow
/// (a teething ring; foot powder, prenatal vitamins and a denture bath,
/// which the labels make reviews).
const SIXTEENTH_PAIR: Run = Run {
    exact: 0.79,
    acceptable: 0.97,
    false_eligible: &[
        "POS DEBIT 1021 VOPNAFJORDUR SKIN DOCT TAMPA FL",
        "DEBIT CARD PURCHASE XXXXX4463 KUHMOINEN NURSING AND ",
        "PURCHASE AUTHORIZED ON 05/25 SUDAVIK LOW T CLINIC S986641281 CARD 5659",
        "AKUREYRI OZONE CLINIC",
        "DEBIT CARD PURCHASE XXXXX7702 JYVASKYLA DENTAL CERAM",
    ],
    lines: 0.815,
    eligible_lines: &[
        "FF FOOT POWDER            3.99 T",
        "PKWY TEETHING RING       4.99 T",
        "PKWY PRENATAL VITAMIN   11.99 T",
        "FDM DENTURE BATH         4.99 T",
    ],
};

measured_pair!(sixteenth_pair_purchases, sixteenth_pair_receipt_lines, "held_out_2026_11_28_p", SIXTEENTH_PAIR);

/// The seventeenth pair (2026-11-28, `held_out_2026_11_28_q/`), measured
/// once when the sixteenth round was done (docs/held-out-2026-11-28-q.md):
/// 87.7% of purchases exact (98.2% acceptable), three false `eligible` (a
/// clinic named for a weight-loss drug, a ketamine clinic, a keepsake
/// ultrasound under the laboratories' code); 88.2% of lines as labelled
/// (98.8% acceptable), no line called eligible that the labels do not
/// allow. The build before the round measured 85.7% and the same three.
const SEVENTEENTH_PAIR: Run = Run {
    exact: 0.875,
    acceptable: 0.98,
    false_eligible: &[
        "TELSIAI SEMAGLUTIDE CLINIC",
        "CHECKCARD 0915 TAURAGE KETAMINE CLINIC",
        "SILLAMAE 3D BABY ULTRASOUND",
    ],
    lines: 0.88,
    eligible_lines: &[],
};

measured_pair!(seventeenth_pair_purchases, seventeenth_pair_receipt_lines, "held_out_2026_11_28_q", SEVENTEENTH_PAIR);

/// The eighteenth pair (2026-11-28, `held_out_2026_11_28_r/`), measured
/// once when the seventeenth round was done (docs/held-out-2026-11-28-r.md):
/// 81.0% of purchases exact (97.4% acceptable), six false `eligible`
/// (acupuncture beside herbs, a clinic named for a weight-loss drug, an
/// elective full-body MRI, genetic testing, a sober house and a scar
/// clinic with no code); 80.9% of lines as labelled (96.7% acceptable),
/// three lines called eligible that the labels do not allow. The build
/// before the sixteenth round measured 78.5% and the same six.
const EIGHTEENTH_PAIR: Run = Run {
    exact: 0.805,
    acceptable: 0.97,
    false_eligible: &[
        "PEZINOK ACUPUNCTURE  #2645",
        "ZAKOPANE GLP1 CLINIC",
        "CHECKCARD 0125 PLOCK FULL BODY MRI",
        "ELBLAG GENETIC TESTING",
        "ZAKOPANE RECOVERY RE #9215",
        "CHECKCARD 0418 RZESZOW SCAR CLINIC",
    ],
    lines: 0.805,
    eligible_lines: &[
        "FV TEETHING TABLETS        6.99 T",
        "BN EBOOK READER        129.99 T",
        "BBW SANITIZER HOLDER     6.95 T",
    ],
};

measured_pair!(eighteenth_pair_purchases, eighteenth_pair_receipt_lines, "held_out_2026_11_28_r", EIGHTEENTH_PAIR);

/// The nineteenth pair (2026-11-28, `held_out_2026_11_28_s/`), measured
/// once when the eighteenth round was done (docs/held-out-2026-11-28-s.md):
/// 82.0% of purchases exact (97.3% acceptable), six false `eligible` (a
/// doctor's title with a PhD, a stem-cell clinic, a transcription service
/// cut to read as medical transport, a laser nail-fungus clinic, a hospital
/// gift shop, a recovery lounge); 85.4% of lines as labelled (97.5%
/// acceptable), two lines called eligible that the labels do not allow (a
/// lip balm with SPF 15, a sports mouth guard).
const NINETEENTH_PAIR: Run = Run {
    exact: 0.815,
    acceptable: 0.97,
    false_eligible: &[
        "POS DEBIT 0425 DR GABOR TOTH PHD EUGENE OR",
        "BUZAU STEM CELL CLINIC",
        "PLOVDIV MEDICAL TRAN #9602",
        "VESZPREM NAIL FUNGUS #8379",
        "PURCHASE AUTHORIZED ON 07/05 BURGAS HOSPITAL GIFT S S745153455 CARD 3506",
        "MARIBOR RECOVERY LOU #2125",
    ],
    lines: 0.85,
    eligible_lines: &["PH LIP BALM SPF15 3PK          3.99 T", "MOUTH GUARD               7.99 T"],
};

measured_pair!(nineteenth_pair_purchases, nineteenth_pair_receipt_lines, "held_out_2026_11_28_s", NINETEENTH_PAIR);

/// The twentieth pair (2026-11-28, `held_out_2026_11_28_t/`), measured
/// once when the nineteenth round was done (docs/held-out-2026-11-28-t.md):
/// 78.0% of purchases exact (97.3% acceptable), six false `eligible` (a
/// naturopath named `DR … ND`, acupuncture cut before its herbs, a
/// testosterone clinic, a nail-fungus laser clinic, a nursing home, a
/// hospital's flower shop); 74.4% of lines as labelled (96.5% acceptable),
/// seven lines called eligible that the labels do not allow. The build
/// before the round measured the same on every row.
const TWENTIETH_PAIR: Run = Run {
    exact: 0.775,
    acceptable: 0.97,
    false_eligible: &[
        "DR SOFIA OLIVEIRA ND",
        "POS DEBIT 0113 AVEIRO ACUPUNCTURE AND RENO NV",
        "ALBACETE TRT CLINIC",
        "CHECKCARD 0220 BADAJOZ FUNGAL NAIL CLINI",
        "ALBACETE REHAB AND N #3074",
        "KOMOTINI HOSPITAL FLOWER SHOP",
    ],
    lines: 0.74,
    eligible_lines: &[
        "STEEL WOOL PADS                   2.49 T",
        "CF TEETHING RINGS              4.99 T",
        "BELK ORTHOTIC SANDAL           69.99 T",
        "AZ BRAKE PADS                  49.99 T",
        "PC BANDAGE PROP                3.99 T",
        "GC REEDS CLARINET 10          24.99 T",
        "GC WRIST SUPPORT GLOVES       19.99 T",
    ],
};

measured_pair!(twentieth_pair_purchases, twentieth_pair_receipt_lines, "held_out_2026_11_28_t", TWENTIETH_PAIR);

/// The twenty-first pair (2026-11-28, `held_out_2026_11_28_u/`), measured
/// once when the twentieth round was done (docs/held-out-2026-11-28-u.md):
/// 79.7% of purchases exact (98.2% acceptable), four false `eligible` (a
/// ketamine clinic, a keepsake ultrasound, a drug-screening lab, a
/// hospital café cut short, each under a medical code with nothing else
/// to read), none a cosmetic service; 83.1% of lines as labelled (97.7%
/// acceptable), nine lines called eligible that the labels do not allow.
/// The build before the round: the same purchases, 81.4% of lines.
const TWENTY_FIRST_PAIR: Run = Run {
    exact: 0.795,
    acceptable: 0.98,
    false_eligible: &[
        "TERNEUZEN KETAMINE CLINIC",
        "HEUSDEN 3D BABY ULTRASOU",
        "NEERIJNEN DRUG SCREENING",
        "POS DEBIT 0106 TUBBERGEN HOSPITAL CAF RENO NV",
    ],
    lines: 0.83,
    eligible_lines: &[
        "PB HAND SANITIZER 8OZ           2.99 T",
        "MW FACE MASKS 50                 7.99 T",
        "0112 CLINIQUE ACNE SOLUTIONS      28.00 T",
        "PRENATAL VITAMINS 90         19.99 T",
        "ELTAMD BARRIER CREAM SPF    32.00 T",
        "SALICYLIC ACNE CLEANSER       14.00 T",
        "CERAMIC BRAKE PADS             49.99 T",
        "FIRST AID MANUAL BOOK        12.99 T",
        "FIRST AID ORGANIZER BOX    14.99 T",
    ],
};

measured_pair!(
    twenty_first_pair_purchases,
    twenty_first_pair_receipt_lines,
    "held_out_2026_11_28_u",
    TWENTY_FIRST_PAIR
);
