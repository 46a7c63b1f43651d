#!/usr/bin/env bash
# Runs schemathesis against a real `sail serve` on a fresh SQLite file, with
# the document the service serves and a key holding every data scope, and
# every check schemathesis has. Exits non-zero on any failure.
#
#   scripts/schemathesis.sh [MAX_EXAMPLES]    (default 40 per operation)
#
# Needs `st` (pip install schemathesis) and a built `sail` (cargo build -p sail).
set -euo pipefail
cd "$(dirname "$0")/.."

max_examples="${1:-40}"
sail="${SAIL_BIN:-target/debug/sail}"
work="$(mktemp -d)"
db="sqlite://$work/sail.db?mode=rwc"
log="$work/serve.log"

"$sail" migrate --database-url "$db" >/dev/null
partner=$("$sail" partners create --database-url "$db" --name "Schemathesis" --json | python3 -c 'import sys,json;print(json.load(sys.stdin)["id"])')
key=$("$sail" keys create --database-url "$db" --partner "$partner" \
  --scopes expenses,benefit_account,account_numbers,identity,ingest,connections --json |
  python3 -c 'import sys,json;print(json.load(sys.stdin)["key"])')

# Rate limiting off: schemathesis sends hundreds of requests a second, and a
# 429 is not what this run is about (the rate-limit tests cover it).
"$sail" serve --database-url "$db" --http-addr 127.0.0.1:0 --grpc-addr 127.0.0.1:0 \
  --rate-limit-rps 0 >"$log" 2>&1 &
pid=$!
finish() {
  status=$?
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if [ "$status" -ne 0 ]; then
    echo "== the service's errors during the run"
    grep -E "internal error|core call failed|panicked" "$log" | tail -40 || true
  fi
  rm -rf "$work"
  exit "$status"
}
trap finish EXIT
for _ in $(seq 1 100); do
  grep -q "listening http=" "$log" && break
  sleep 0.1
done
http=$(grep -o "listening http=[0-9.:]*" "$log" | head -1 | cut -d= -f2)
[ -n "$http" ] || { cat "$log"; echo "sail serve did not start"; exit 1; }
base="http://$http/api/v1"

set +e
PYTHONPATH="$PWD/scripts${PYTHONPATH:+:$PYTHONPATH}" SCHEMATHESIS_HOOKS=schemathesis_hooks \
st run "$base/openapi.json" \
  --url "$base" \
  --header "Authorization: Bearer $key" \
  --checks all \
  --max-examples "$max_examples" \
  --seed 20261123 \
  --suppress-health-check all \
  --report junit --report-dir "$work/report" | tee "$work/st.out"
status=${PIPESTATUS[0]}
set -e
[ "$status" -eq 0 ] || exit "$status"
# The run must be large enough to mean something.
generated=$(grep -Eo '[0-9]+ generated' "$work/st.out" | tail -1 | cut -d' ' -f1)
if [ -z "$generated" ] || [ "$generated" -lt "${SAIL_SCHEMATHESIS_MIN_CASES:-1000}" ]; then
  echo "schemathesis generated ${generated:-no} test cases; at least ${SAIL_SCHEMATHESIS_MIN_CASES:-1000} are required"
  exit 1
fi
echo "schemathesis: $generated test cases, all checks passed"
