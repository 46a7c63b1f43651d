"""Builds receipt_lines.csv of the eighth pair from hand-written lines."""
import csv, sys
from pathlib import Path
HERE = Path(sys.argv[1])
ACCEPT = {"E": ("eligible", "eligible|needs_review"), "I": ("ineligible", "ineligible|needs_review"),
          "R": ("needs_review", "needs_review"), "RE": ("needs_review", "needs_review|eligible"),
          "RI": ("needs_review", "needs_review|ineligible")}
rows = []
for line in open(sys.argv[2], encoding="utf-8"):
    line = line.rstrip("\n")
    if not line.strip() or line.startswith("#"):
        continue
    retailer, text, label, reason = line.split("|", 3)
    expected, acceptable = ACCEPT[label]
    rows.append([retailer, text.rstrip(), expected, acceptable, reason])
# Lines of a retailer stay together, in the order written.
order = {}
for r in rows:
    order.setdefault(r[0], len(order))
rows.sort(key=lambda r: order[r[0]])
with open(HERE / "receipt_lines.csv", "w", newline="", encoding="utf-8") as f:
    out = csv.writer(f)
    out.writerow(["retailer", "line", "expected", "acceptable", "reason"])
    out.writerows(rows)
print(len(rows), "lines from", len(order), "retailers", file=sys.stderr)
