"""Builds purchases.csv of the eighth pair from hand-written names: drops a
name whose first two significant words (or only word) occur in an earlier
set, then wraps names the way bank and card exports print them (seeded)."""
import csv, random, re, sys
from pathlib import Path

HERE = Path(sys.argv[1])
EARLIER = [HERE.parent / p for p in ["held_out_set.csv", "evaluation_set.csv",
    "held_out_2026_11_26/purchases.csv", "held_out_2026_11_26_b/purchases.csv",
    "held_out_2026_11_26_c/purchases.csv", "held_out_2026_11_26_d/purchases.csv",
    "held_out_2026_11_27_e/purchases.csv",
    "held_out_2026_11_27_f/purchases.csv",
    "held_out_2026_11_27_g/purchases.csv"]]
PREFIX = re.compile(r"^(SQ \*|TST\* ?|PAYPAL \*|DD \*DOORDASH ?|DD \*|GRUBHUB\*|INSTACART\*|AMZN MKTP US\*)")
SKIP = {"DR", "THE", "DRS"}

def words(text):
    text = PREFIX.sub("", text.upper())
    return [w for w in re.findall(r"[A-Z][A-Z']*", text) if w not in SKIP]

def key(name):
    w = words(name)
    return " ".join(w[:2])

earlier_text = set()
for path in EARLIER:
    with open(path) as f:
        for row in csv.DictReader(f):
            earlier_text.add(" " + " ".join(words(row.get("descriptor") or row.get("raw_descriptor") or "")) + " ")

def seen(name):
    k = key(name)
    return any(f" {k} " in t for t in earlier_text)

ACCEPT = {"E": ("eligible", "eligible|needs_review"), "I": ("ineligible", "ineligible|needs_review"),
          "R": ("needs_review", "needs_review"), "RE": ("needs_review", "needs_review|eligible"),
          "RI": ("needs_review", "needs_review|ineligible")}
CITIES = ["DAYTON OH", "FRESNO CA", "TULSA OK", "RALEIGH NC", "BOISE ID", "MADISON WI", "AUSTIN TX",
          "TACOMA WA", "ALBANY NY", "MOBILE AL", "OMAHA NE", "RENO NV", "EUGENE OR", "TAMPA FL"]
rng = random.Random(20261127_8)

def wrap(name):
    roll = rng.random()
    mmdd = f"{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"
    if name.startswith(("SQ *", "TST*", "PAYPAL *", "DD *", "GRUBHUB*", "INSTACART*", "AMZN")):
        return name
    if roll < 0.15:
        return f"POS DEBIT {mmdd} {name[:22]} {rng.choice(CITIES)}"
    if roll < 0.27:
        return f"PURCHASE AUTHORIZED ON {mmdd[:2]}/{mmdd[2:]} {name[:22]} S{rng.randint(100000000, 999999999)} CARD {rng.randint(1000, 9999)}"
    if roll < 0.37:
        return f"CHECKCARD {mmdd} {name[:25]}"
    if roll < 0.45:
        return f"DEBIT CARD PURCHASE XXXXX{rng.randint(1000, 9999)} {name[:22]}"
    if roll < 0.55:
        return f"{name[:20]} #{rng.randint(100, 9999)}"
    if roll < 0.62:
        return name[:rng.randint(20, 25)].rstrip()
    return name

rows, dropped = [], []
for line in open(sys.argv[2]):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    name, mcc, amount, label, reason = line.split(";", 4)
    if seen(name):
        dropped.append(name)
        continue
    expected, acceptable = ACCEPT[label]
    if rng.random() < 0.05:
        mcc = ""
    rows.append([wrap(name), mcc, amount, expected, acceptable, reason])
with open(HERE / "purchases.csv", "w", newline="") as f:
    out = csv.writer(f)
    out.writerow(["descriptor", "mcc", "amount", "expected", "acceptable", "reason"])
    out.writerows(rows)
print(len(rows), "rows;", len(dropped), "dropped:", ", ".join(dropped), file=sys.stderr)
