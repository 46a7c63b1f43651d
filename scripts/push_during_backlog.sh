#!/usr/bin/env bash
# How long a push waits for its 202 while the workers drain earlier pushes,
# on PostgreSQL: `sail serve` on a fresh database, one external connection,
# a first wave of 500-row pushes from 16 clients (its rows become the
# backlog), then a second wave of as many, timed push by push. Prints the
# second wave's wall time and its p50/p90/max. Needs curl, psql and
# PostgreSQL on 127.0.0.1:5432; the database is dropped afterwards.
#
#   scripts/push_during_backlog.sh [pushes per wave, default 160] [sail binary]
#
# Run it with two binaries, alternating, to compare (docs/benchmarks.md).
set -euo pipefail
pushes="${1:-160}"
cd "$(dirname "$0")/.."
if [ -n "${2:-}" ]; then sail="$2"; else cargo build -q --release -p sail; sail="$PWD/target/release/sail"; fi
server="postgres://postgres@127.0.0.1:5432"
db="sail_push_backlog_$$"
work="$(mktemp -d)"
serve_pid=""
cleanup() {
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null
  psql -q "$server/postgres" -c "drop database if exists \"$db\" with (force)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

export SAIL_ENCRYPTION_KEY="$("$sail" keys generate-encryption-key)"
export SAIL_DATABASE_URL="$server/$db" SAIL_RATE_LIMIT_RPS=0
export SAIL_HTTP_ADDR=127.0.0.1:18480 SAIL_GRPC_ADDR=127.0.0.1:18481
"$sail" serve > "$work/serve.log" 2>&1 &
serve_pid=$!
for _ in $(seq 1 120); do curl -sf http://127.0.0.1:18480/healthz >/dev/null && break; sleep 0.5; done
eval "$("$sail" dev bootstrap 2>/dev/null)"
api=http://127.0.0.1:18480/api/v1
json_id() { python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])'; }
user=$(curl -sf -X POST "$api/users" -H "Authorization: Bearer $SAIL_KEY" -H 'Content-Type: application/json' \
  -d '{"external_user_id":"backlog"}' | json_id)
connection=$(curl -sf -X POST "$api/users/$user/connections" -H "Authorization: Bearer $SAIL_KEY" \
  -H 'Content-Type: application/json' -d '{"type":"external","provider_label":"Bank"}' | json_id)

# Bodies for both waves, every row with an id of its own.
python3 - "$work" "$pushes" <<'PY'
import json, sys
work, pushes = sys.argv[1], int(sys.argv[2])
descriptors = [("CVS/PHARMACY #04562", "5912"), ("WALGREENS #1234", "5912"), ("AMAZON MKTPLACE PMTS", "5942"),
               ("SHELL OIL 57444", "5541"), ("QUEST DIAGNOSTICS", "8071"), ("TARGET 00012345", "5310")]
for wave in (1, 2):
    for n in range(pushes):
        rows = [{"external_transaction_id": f"w{wave}-{n}-{i}", "date": "2026-11-01",
                 "amount": round(1 + i % 300 + (i % 100) / 100, 2),
                 "description": descriptors[i % 6][0], "mcc": descriptors[i % 6][1]} for i in range(500)]
        with open(f"{work}/w{wave}-{n}.json", "w") as f:
            json.dump({"transactions": rows}, f)
PY

push_wave() {
  seq 0 $((pushes - 1)) | xargs -P 16 -I{} curl -s -o /dev/null -w '%{http_code} %{time_total}\n' \
    -X POST "$api/users/$user/connections/$connection/transactions" -H "Authorization: Bearer $SAIL_KEY" \
    -H 'Content-Type: application/json' --data-binary "@$work/w$1-{}.json"
}
push_wave 1 > "$work/wave1.txt"
started=$(date +%s.%N)
push_wave 2 > "$work/wave2.txt"
ended=$(date +%s.%N)
if grep -qv '^202 ' "$work/wave1.txt" "$work/wave2.txt"; then echo "a push was not answered 202" >&2; exit 1; fi
sort -k2 -n "$work/wave2.txt" | awk -v wall="$(echo "$ended - $started" | bc)" -v n="$pushes" '
  { t[NR] = $2 }
  END { printf "second wave: %d pushes in %.2f s; p50 %.3f s, p90 %.3f s, max %.3f s\n", n, wall, t[int(NR / 2)], t[int(NR * 0.9)], t[NR] }'
