#!/usr/bin/env bash
# Runs the client libraries' suites (clients/python/tests with pytest,
# clients/typescript/test with Node's runner) against one real `sail serve`
# on SQLite: each package installed as a partner installs it (pip install
# ./clients/python, npm install ./clients/typescript), a sandbox partner from
# `sail dev bootstrap`, a second key for the rate-limit tests, webhooks
# allowed to a local receiver, and a gateway whose core is down (for a real
# 503). The TypeScript declarations are type-checked too (tsc).
#
#   scripts/client-libraries-test.sh      # needs python3 with pip, node with npm
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
cd "$repo"
cargo build -q -p sail
sail="$CARGO_TARGET_DIR/debug/sail"
python3 -m pip install --quiet --disable-pip-version-check "$repo/clients/python[test]" 2>&1 | grep -v "^WARNING: Running pip as" || true
rm -rf "$repo/clients/python/build" "$repo"/clients/python/*.egg-info

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
export SAIL_HTTP_ADDR="127.0.0.1:$(free_port)"
export SAIL_GRPC_ADDR="127.0.0.1:$(free_port)"
export SAIL_DATABASE_URL="sqlite://$work/sail.db?mode=rwc"
# Enough for the suite; the rate-limit test empties one key's bucket.
export SAIL_RATE_LIMIT_RPS=20 SAIL_RATE_LIMIT_BURST=40 SAIL_WEBHOOK_ALLOW_PRIVATE=true
"$sail" serve > "$work/serve.log" 2>&1 &
server=$!
orphan_port="$(free_port)"
"$sail" gateway --http-addr "127.0.0.1:$orphan_port" --core-url "http://127.0.0.1:$(free_port)" > "$work/orphan.log" 2>&1 &
orphan=$!
cleanup() {
  status=$?
  kill "$server" "$orphan" 2>/dev/null || true
  wait "$server" "$orphan" 2>/dev/null || true
  if [ "$status" -ne 0 ]; then echo "== the service's log"; tail -50 "$work/serve.log"; fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
for _ in $(seq 1 300); do
  grep -q "listening http=" "$work/serve.log" && grep -q "listening http=" "$work/orphan.log" && break
  kill -0 "$server" 2>/dev/null || { echo "the server exited"; exit 1; }
  sleep 0.1
done
eval "$("$sail" dev bootstrap)"
SAIL_LIMITED_KEY="$("$sail" keys create --partner "$SAIL_PARTNER" --scopes expenses --json |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["key"])')"
export SAIL_URL SAIL_KEY SAIL_TOKEN_ADMIN_KEY SAIL_LIMITED_KEY
export SAIL_BIN="$sail"
export SAIL_ORPHAN_URL="http://127.0.0.1:$orphan_port/api/v1"
cd "$work"
echo "== Python"
python3 -m pytest -q -p no:cacheprovider "$repo/clients/python/tests" ${PYTEST_ARGS:-}
echo "python client: ok"

echo "== TypeScript"
# The declarations against the generated schema, with the pinned compiler
# scripts/generate-clients.sh installs.
tools="$("$repo/scripts/generate-clients.sh" --tools | tail -1)"
mkdir -p "$work/ts-check"
cp -r "$repo/clients/typescript/src" "$repo/clients/typescript/test" "$repo/clients/typescript/tsconfig.json" "$work/ts-check/"
ln -s "$tools" "$work/ts-check/node_modules"
(cd "$work/ts-check" && node_modules/.bin/tsc -p .)
echo "typescript declarations: ok"
# Installed as a partner installs it, then its suite from that project.
mkdir -p "$work/ts-project"
(cd "$work/ts-project" && npm init -y >/dev/null && npm install --no-audit --no-fund --silent "$repo/clients/typescript")
cp "$repo/clients/typescript/test/client.test.js" "$work/ts-project/client.test.mjs"
(cd "$work/ts-project" && node --test ${NODE_TEST_ARGS:-} client.test.mjs)
echo "typescript client: ok"
