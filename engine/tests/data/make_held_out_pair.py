"""Builds a held-out pair's two CSV files from what was written by hand.

One script for every pair from the fourth on (the fourth to eighth were
first built by copies of their own; this one writes their files byte for
byte). Run from anywhere:

    python3 engine/tests/data/make_held_out_pair.py <pair folder> <seed>

`names.txt` (NAME;MCC;AMOUNT;LABEL;REASON) becomes `purchases.csv`: a
name is dropped when its first two significant words (or its only word)
occur in the purchases of any set written before the pair (the sets
beside it whose folders sort before its own), so every merchant is new; the rest are wrapped the way bank and card exports print
them (seeded). `lines.txt` (retailer|line|LABEL|reason) becomes
`receipt_lines.csv`, each retailer's lines together in the order written.
Label codes: E eligible, I ineligible, R review only, RE review or
eligible, RI review or ineligible.
"""
import csv
import random
import re
import sys
from pathlib import Path

ACCEPT = {"E": ("eligible", "eligible|needs_review"), "I": ("ineligible", "ineligible|needs_review"),
          "R": ("needs_review", "needs_review"), "RE": ("needs_review", "needs_review|eligible"),
          "RI": ("needs_review", "needs_review|ineligible")}
PREFIX = re.compile(r"^(SQ \*|TST\* ?|PAYPAL \*|DD \*DOORDASH ?|DD \*|GRUBHUB\*|INSTACART\*|AMZN MKTP US\*)")
SKIP = {"DR", "THE", "DRS"}
CITIES = ["DAYTON OH", "FRESNO CA", "TULSA OK", "RALEIGH NC", "BOISE ID", "MADISON WI", "AUSTIN TX",
          "TACOMA WA", "ALBANY NY", "MOBILE AL", "OMAHA NE", "RENO NV", "EUGENE OR", "TAMPA FL"]


def words(text):
    text = PREFIX.sub("", text.upper())
    return [w for w in re.findall(r"[A-Z][A-Z']*", text) if w not in SKIP]


def earlier_descriptors(pair):
    """The descriptors of every set written before `pair`, as padded word
    strings."""
    data = pair.parent
    files = [data / "held_out_set.csv", data / "evaluation_set.csv"]
    # The pairs written before this one: their folders sort before its own.
    files += [p for p in sorted(data.glob("*/purchases.csv")) if p.parent.name < pair.name]
    seen = set()
    for path in files:
        with open(path, encoding="utf-8") as f:
            for row in csv.DictReader(f):
                text = row.get("descriptor") or row.get("raw_descriptor") or ""
                seen.add(" " + " ".join(words(text)) + " ")
    return seen


def wrap(name, rng):
    roll = rng.random()
    mmdd = f"{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"
    if name.startswith(("SQ *", "TST*", "PAYPAL *", "DD *", "GRUBHUB*", "INSTACART*", "AMZN")):
        return name
    if roll < 0.15:
        return f"POS DEBIT {mmdd} {name[:22]} {rng.choice(CITIES)}"
    if roll < 0.27:
        return (f"PURCHASE AUTHORIZED ON {mmdd[:2]}/{mmdd[2:]} {name[:22]} "
                f"S{rng.randint(100000000, 999999999)} CARD {rng.randint(1000, 9999)}")
    if roll < 0.37:
        return f"CHECKCARD {mmdd} {name[:25]}"
    if roll < 0.45:
        return f"DEBIT CARD PURCHASE XXXXX{rng.randint(1000, 9999)} {name[:22]}"
    if roll < 0.55:
        return f"{name[:20]} #{rng.randint(100, 9999)}"
    if roll < 0.62:
        return name[:rng.randint(20, 25)].rstrip()
    return name


def purchases(pair, rng):
    earlier = earlier_descriptors(pair)
    rows, dropped = [], []
    for line in open(pair / "names.txt", encoding="utf-8"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, mcc, amount, label, reason = line.split(";", 4)
        key = " ".join(words(name)[:2])
        if any(f" {key} " in text for text in earlier):
            dropped.append(name)
            continue
        expected, acceptable = ACCEPT[label]
        if rng.random() < 0.05:
            mcc = ""
        rows.append([wrap(name, rng), mcc, amount, expected, acceptable, reason])
    with open(pair / "purchases.csv", "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["descriptor", "mcc", "amount", "expected", "acceptable", "reason"])
        out.writerows(rows)
    print(len(rows), "purchases;", len(dropped), "dropped:", ", ".join(dropped), file=sys.stderr)


def receipt_lines(pair):
    rows = []
    for line in open(pair / "lines.txt", encoding="utf-8"):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        retailer, text, label, reason = line.split("|", 3)
        expected, acceptable = ACCEPT[label]
        rows.append([retailer, text.rstrip(), expected, acceptable, reason])
    order = {}
    for row in rows:
        order.setdefault(row[0], len(order))
    rows.sort(key=lambda row: order[row[0]])
    with open(pair / "receipt_lines.csv", "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["retailer", "line", "expected", "acceptable", "reason"])
        out.writerows(rows)
    print(len(rows), "lines from", len(order), "retailers", file=sys.stderr)


if __name__ == "__main__":
    pair = Path(sys.argv[1]).resolve()
    purchases(pair, random.Random(int(sys.argv[2])))
    receipt_lines(pair)
