#!/usr/bin/env bash
# Generates a Python and a TypeScript client from the OpenAPI document a
# running `sail serve` serves, the way a partner would, and drives each
# through a first afternoon's calls (a user, a push, its job and expense, a
# PDF receipt upload read and matched): scripts/client_smoke.py and
# scripts/client-smoke-ts/smoke.ts. A generator that fails or warns in a way
# that changes behaviour, or a client whose upload sends anything but the
# file's bytes, fails the run.
#
#   scripts/generated-clients.sh      # needs python3 with pip, node with npm
#
# Generators and client libraries are pinned (openapi-python-client below;
# scripts/client-smoke-ts/package.json).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
cd "$repo"
cargo build -q -p sail
sail="$CARGO_TARGET_DIR/debug/sail"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
export SAIL_HTTP_ADDR="127.0.0.1:$(free_port)"
export SAIL_GRPC_ADDR="127.0.0.1:$(free_port)"
export SAIL_DATABASE_URL="sqlite://$work/sail.db?mode=rwc"
"$sail" serve > "$work/serve.log" 2>&1 &
server=$!
cleanup() {
  status=$?
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  if [ "$status" -ne 0 ]; then echo "== the service's log"; tail -50 "$work/serve.log"; fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
for _ in $(seq 1 300); do
  grep -q "listening http=" "$work/serve.log" && break
  kill -0 "$server" 2>/dev/null || { echo "the server exited"; exit 1; }
  sleep 0.1
done
eval "$("$sail" dev bootstrap)"
curl -sf "$SAIL_URL/openapi.json" -o "$work/openapi.json"

echo "== Python: openapi-python-client"
if ! python3 -c 'import openapi_python_client' 2>/dev/null ||
  ! python3 -m pip show openapi-python-client 2>/dev/null | grep -q '^Version: 0.29.1$'; then
  python3 -m pip install --quiet --disable-pip-version-check "openapi-python-client==0.29.1"
  command -v pyenv >/dev/null 2>&1 && pyenv rehash || true
fi
export PATH="$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))'):$PATH"
(cd "$work" && openapi-python-client generate --path openapi.json --output-path python-client 2>&1 | tee generate.log)
# A warning from the generator means a part of the document it could not
# follow: fail rather than ship a client that quietly differs.
if grep -qiE "warning|error|could not|skipp" "$work/generate.log"; then
  echo "openapi-python-client warned"; exit 1
fi
python3 scripts/client_smoke.py "$work/python-client" "$work/receipt.pdf"

echo "== TypeScript: openapi-typescript and openapi-fetch"
cp -r scripts/client-smoke-ts "$work/ts"
(cd "$work/ts" && npm install --no-audit --no-fund --silent &&
  npx openapi-typescript "$work/openapi.json" -o schema.d.ts &&
  npx tsc -p . &&
  node out/smoke.js "$work/receipt.pdf")
echo "generated clients: both generated and answered as documented"
