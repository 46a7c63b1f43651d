#!/usr/bin/env bash
# Retention against a backlog (docs/benchmarks.md, "Retention"): seeds an
# embedded database with N events older than 30 days, times one DELETE of
# them all (the baseline: one statement, the write lock held throughout),
# seeds them again and times `sail retention run` (batches of 1,000, each
# its own transaction), printing the longest batch: how long the sweep held
# the write lock at once. Needs python3. Usage: retention_backlog.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
rows="${1:-500000}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
db="$dir/backlog.db"
cargo build -q --release -p sail
sail=target/release/sail
"$sail" retention status --database-url "sqlite://$db" --create >/dev/null
seed() {
  python3 - "$db" "$rows" <<'PY'
import os, sqlite3, sys, time
db = sqlite3.connect(sys.argv[1])
old = int((time.time() - 40 * 86400) * 1000)
rows = ((f"evt_{old + n // 10:012x}{os.urandom(10).hex()}", "ptn_x", "user.deactivated",
         '{"user_id":"usr_x"}', "2026-01-01 00:00:00+00:00") for n in range(int(sys.argv[2])))
db.executemany("insert into events(id, partner_id, type, data, created_at) values (?, ?, ?, ?, ?)", rows)
db.commit()
PY
}
seed
baseline=$(python3 - "$db" <<'PY'
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1])
cut = f"evt_{int((time.time() - 30 * 86400) * 1000):012x}" + "0" * 20
start = time.time()
db.execute("delete from events where id < ?", (cut,))
db.commit()
print(f"{time.time() - start:.3f}")
PY
)
seed
start=$(date +%s.%N)
swept=$("$sail" retention run --database-url "sqlite://$db" --json)
end=$(date +%s.%N)
python3 - "$rows" "$baseline" "$start" "$end" "$swept" <<'PY'
import json, sys
rows, baseline, start, end, swept = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), json.loads(sys.argv[5])
total = end - start
longest = swept["longest_batch_ms"] / 1000
print(f"{rows} events: one DELETE {baseline:.3f} s (the write lock held throughout)")
print(f"sail retention run: {total:.3f} s in {swept['batches']} batches, longest {longest * 1000:.0f} ms")
print(f"longest hold / baseline hold: {longest / baseline:.3f}; total time / baseline: {total / baseline:.2f}")
PY
