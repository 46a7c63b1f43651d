#!/usr/bin/env python3
"""Builds the labelled evaluation set for the adjudication engine from the
reference data in data/ (see data/PROVENANCE.md).

Every label comes from the data, never from the engine:
- data/descriptors.csv: each raw descriptor with its expected outcome, as
  printed, without its MCC, with other store numbers, and inside the bank
  wrappers its notes describe;
- data/merchants.csv: each directory merchant's typical outcome, for
  descriptors naming the merchant (also cut at 22 characters, as card
  networks do) and for opaque descriptors where the partner supplies
  merchant_name;
- data/mcc_medical.csv: each merchant category code's default outcome, for
  local businesses that only the code identifies.

Deterministic (fixed seed). Writes engine/tests/data/evaluation_set.csv.
Run: python3 scripts/make_evaluation_set.py
"""
import csv
import random
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
OUT = ROOT / "engine" / "tests" / "data" / "evaluation_set.csv"

rng = random.Random(20261122)
CITIES = [("AUSTIN", "TX"), ("DENVER", "CO"), ("CHICAGO", "IL"), ("PORTLAND", "OR"), ("BOSTON", "MA"),
          ("PHOENIX", "AZ"), ("SEATTLE", "WA"), ("MIAMI", "FL"), ("ATLANTA", "GA"), ("OMAHA", "NE")]
SURNAMES = ["SMITH", "GARCIA", "NGUYEN", "PATEL", "JOHNSON", "KIM", "LOPEZ", "BROWN", "MILLER", "DAVIS"]
# A business noun per MCC that a local merchant of that code would use.
NOUNS = {
    "4119": "AMBULANCE SERVICE", "5047": "MEDICAL SUPPLY", "5975": "HEARING CENTER", "5976": "ORTHOTICS",
    "8011": "FAMILY MEDICINE", "8021": "FAMILY DENTAL", "8031": "OSTEOPATHIC", "8041": "CHIROPRACTIC",
    "8042": "EYE CARE", "8043": "OPTICAL", "8049": "PODIATRY", "8050": "CARE HOME", "8062": "HOSPITAL",
    "8071": "LABS", "8099": "HEALTH SERVICES", "5912": "DRUGS", "5122": "DRUG SUPPLY", "7277": "COUNSELING",
    "8299": "SCHOOL", "8999": "CONSULTING", "6300": "INSURANCE AGENCY", "5411": "MARKET", "5300": "WHOLESALE",
    "5310": "DISCOUNT", "5311": "DEPT STORE", "5331": "VARIETY", "5399": "GENERAL STORE", "5999": "SPECIALTY SHOP",
    "5942": "BOOKS", "7298": "DAY SPA", "7297": "MASSAGE", "7997": "ATHLETIC CLUB", "7230": "SALON",
    "5977": "BEAUTY SUPPLY", "5499": "FINE FOODS", "0742": "ANIMAL HOSPITAL", "8351": "CHILD CARE",
    "5921": "LIQUORS", "5993": "SMOKE SHOP", "5812": "BISTRO", "5814": "BURGERS", "5541": "SERVICE STATION",
    "5542": "FUEL", "4121": "TAXI", "4111": "TRANSIT", "7011": "INN", "4511": "AIR",
}


def read(name):
    with open(DATA / name, newline="") as f:
        return list(csv.DictReader(f))


def digits(n):
    return "".join(rng.choice("0123456789") for _ in range(n))


def amount():
    return f"{rng.uniform(4, 400):.2f}"


def renumber(descriptor):
    """Other store and reference numbers, same shape; an appended MCC
    (`~5912`) and a name's own digits (`1-800`) stay."""
    return re.sub(r"(?<![~\-\d])\d{3,}", lambda m: digits(len(m.group())), descriptor)


def wrap(descriptor):
    city, state = rng.choice(CITIES)
    month, day = rng.randint(1, 12), rng.randint(1, 28)
    return rng.choice([
        f"PURCHASE AUTHORIZED ON {month:02d}/{day:02d} {descriptor} {city} {state} P{digits(15)} CARD {digits(4)}",
        f"CHECKCARD {month:02d}{day:02d} {descriptor} {city} {state} {digits(23)}",
        f"POS PUR {month:02d}/{day:02d} {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d} {descriptor} {city} {state} {digits(8)}",
        f"DEBIT CARD PURCHASE {descriptor} {city} {state}",
    ])


rows = []


def add(descriptor, merchant_name, mcc, expected, source):
    rows.append({"descriptor": descriptor, "merchant_name": merchant_name, "mcc": mcc,
                 "amount": amount(), "expected_outcome": expected, "source": source})


for d in read("descriptors.csv"):
    raw, mcc, expected = d["raw_descriptor"], d["example_mcc"], d["expected_outcome"]
    add(raw, "", mcc, expected, "descriptors.csv as printed")
    add(raw, "", "", expected, "descriptors.csv without mcc")
    add(renumber(raw), "", mcc, expected, "descriptors.csv renumbered")
    base = raw.split("~")[0] if "~" in raw else raw
    if not base.startswith(("PURCHASE", "POS PUR", "CHECKCARD")):
        add(wrap(renumber(base)), "", mcc, expected, "descriptors.csv in a bank wrapper")
    # Some exports (and partners) send mixed or lower case.
    add(renumber(raw).lower(), "", "", expected, "descriptors.csv lower-case, without mcc")

for m in read("merchants.csv"):
    name = m["name"].split("(")[0].strip().upper()
    city, state = rng.choice(CITIES)
    add(f"{name} #{digits(4)}", "", "", m["typical_outcome"], "merchants.csv with store number")
    add(f"{name} {city} {state}", "", "", m["typical_outcome"], "merchants.csv with city")
    add(f"POS {digits(6)} REF {digits(8)}", m["name"], "", m["typical_outcome"], "merchants.csv as merchant_name")
    # Card networks cut the merchant name field at 22 characters.
    add(f"{m['name'].upper()[:22]} {city} {state}", "", "", m["typical_outcome"], "merchants.csv truncated to 22 characters")

for c in read("mcc_medical.csv"):
    mcc, expected = c["mcc"], c["default_outcome"]
    surname = rng.choice(SURNAMES)
    add(f"SQ *{surname} {rng.choice('ABCDEFGHJK')} LLC", "", mcc, expected, "mcc_medical.csv local business")
    noun = NOUNS[mcc]
    city, _ = rng.choice(CITIES)
    add(f"{city} {noun} {digits(4)}", "", mcc, expected, "mcc_medical.csv local business, named by trade")

OUT.parent.mkdir(parents=True, exist_ok=True)
with open(OUT, "w", newline="") as f:
    writer = csv.DictWriter(f, fieldnames=["descriptor", "merchant_name", "mcc", "amount", "expected_outcome", "source"])
    writer.writeheader()
    writer.writerows(rows)
print(f"{len(rows)} transactions -> {OUT.relative_to(ROOT)}")
