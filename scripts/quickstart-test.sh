#!/usr/bin/env bash
# Runs the README's quickstart exactly as written, against a fresh database
# in a temporary directory, and checks the answers:
# the server block in the background, the calls block under `set -euo
# pipefail` (every curl is -f, so any 4xx or 5xx fails the run), then the
# state the steps must have left.
#
#   scripts/quickstart-test.sh                       # SQLite (sail.db in a temp dir)
#   SAIL_DATABASE_URL=postgres://…/new_db scripts/quickstart-test.sh
#
# The ports come from SAIL_HTTP_ADDR / SAIL_GRPC_ADDR (free ones by default),
# which `serve` and `dev bootstrap` both read.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
readme="$repo/README.md"
work="$(mktemp -d)"

block() { # the first ```sh block after the marker $1
  awk -v marker="<!-- quickstart:$1 -->" '
    $0 == marker { found = 1; next }
    found && /^```sh$/ { inside = 1; next }
    inside && /^```$/ { exit }
    inside { print }
  ' "$readme"
}
block server > "$work/server.sh"
block calls > "$work/calls.sh"
[ -s "$work/server.sh" ] && [ -s "$work/calls.sh" ] || { echo "quickstart blocks not found in README.md"; exit 1; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
export SAIL_HTTP_ADDR="127.0.0.1:$(free_port)"
export SAIL_GRPC_ADDR="127.0.0.1:$(free_port)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"

# The README's commands run from the checkout, as written; the database is
# a fresh one in the temporary directory (or the PostgreSQL database named
# by SAIL_DATABASE_URL, which need not exist yet). Both `serve` and `dev
# bootstrap` read it from the environment.
export SAIL_DATABASE_URL="${SAIL_DATABASE_URL:-sqlite://$work/sail.db?mode=rwc}"
cd "$repo"

log="$work/serve.log"
bash -euo pipefail "$work/server.sh" > "$log" 2>&1 &
server=$!
cleanup() {
  status=$?
  pkill -TERM -P "$server" 2>/dev/null || true
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  if [ "$status" -ne 0 ]; then echo "== the service's log"; cat "$log"; fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
for _ in $(seq 1 600); do
  grep -q "listening http=" "$log" && break
  kill -0 "$server" 2>/dev/null || { echo "the server exited"; exit 1; }
  sleep 0.1
done
grep -q "listening http=" "$log" || { echo "the server did not start"; exit 1; }
grep -q "^  database   " "$log" || { echo "no banner naming the database"; exit 1; }
grep -q "^database: created" "$log" || { echo "the service did not create the missing database"; exit 1; }
echo "ok: the service created the missing database and named it: $(grep -m1 '^  database   ' "$log" | sed 's/^  database   //')"

# The calls, as written, with a marker after each answer.
bash -euo pipefail -c "source '$work/calls.sh'; echo; echo \"quickstart-state USER_ID=\$USER_ID CONN=\$CONN JOB=\$JOB\"; env | grep '^SAIL_' > '$work/env'" | tee "$work/out"

# Check what the steps left behind.
set -a; source "$work/env"; set +a
state=$(grep '^quickstart-state' "$work/out")
user_id=$(echo "$state" | sed -n 's/.*USER_ID=\(usr_[0-9a-f]*\).*/\1/p')
[ -n "$user_id" ] || { echo "no user id: $state"; exit 1; }
get() { curl -sf "$SAIL_URL$1" -H "Authorization: Bearer $SAIL_KEY"; }
check() { # description, python expression over `body`
  local body="$2"
  # On standard input: a body (the OpenAPI document) can exceed the
  # kernel's limit for one command-line argument.
  printf '%s' "$body" | python3 -c "import json,sys; raw=sys.stdin.read(); body=json.loads(raw); assert $3, raw[:500]" \
    || { echo "quickstart check failed: $1"; exit 1; }
  echo "ok: $1"
}
for _ in $(seq 1 50); do
  jobs_done=$(get "/events?type=transactions.ingested" | python3 -c 'import json,sys; print(json.load(sys.stdin)["pagination"]["total"])')
  [ "$jobs_done" -ge 1 ] && break
  sleep 0.2
done
check "the user exists" "$(get "/users/$user_id")" 'body["external_user_id"] == "partner-user-42"'
check "the directory search finds Walgreens" "$(get "/merchants?search=walgren&limit=3")" 'body["data"][0]["name"].startswith("Walgreens")'
check "expenses from the card and the push" "$(get "/users/$user_id/expenses?limit=100")" \
  'body["pagination"]["total"] > 1 and any(e["external_transaction_id"] == "t-1" for e in body["data"])'
check "the pushed purchase is adjudicated" "$(get "/users/$user_id/expenses?limit=100")" \
  'any(e["description"].startswith("CVS") and e["status"] in ("eligible","ineligible","needs_review") for e in body["data"])'
check "the administrator login filled accounts" "$(get "/users/$user_id/accounts")" 'body["pagination"]["total"] >= 1'
check "events for the syncs and the push" "$(get "/events?limit=100")" \
  '{"connection.synced", "transactions.ingested"} <= {e["type"] for e in body["data"]}'
job_id=$(echo "$state" | sed -n 's/.*JOB=\(job_[0-9a-f]*\).*/\1/p')
check "the push's job completed" "$(get "/jobs/$job_id")" 'body["status"] == "completed" and body["accepted"] == 1'
grep -q '"source":"profile"' "$work/out" && grep -q '"emails":\["jane@example.com"\]' "$work/out" ||
  { echo "quickstart check failed: the identity read with a user token"; exit 1; }
echo "ok: the identity read with a user token shows the profile"
check "the reference is served" "$(curl -sf "$SAIL_URL/openapi.json")" 'body["openapi"] == "3.1.0"'

# The Python quickstart, as written, in the same shell state.
block python > "$work/python.sh"
[ -s "$work/python.sh" ] || { echo "the Python quickstart block is not in README.md"; exit 1; }
(cd "$repo" && bash -euo pipefail "$work/python.sh") > "$work/python.out" 2>&1 || { cat "$work/python.out"; exit 1; }
rm -rf "$repo/clients/python/build" "$repo"/clients/python/*.egg-info
grep -q '^pushed 1 job job_' "$work/python.out" && grep -q '^users so far: 2$' "$work/python.out" ||
  { cat "$work/python.out"; echo "quickstart check failed: the Python client"; exit 1; }
echo "ok: the Python quickstart pushed through the client library"
echo "quickstart: every step answered as documented"
