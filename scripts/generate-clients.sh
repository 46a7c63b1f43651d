#!/usr/bin/env bash
# Regenerates the client libraries' generated parts from docs/openapi.json:
# clients/python/sail/_generated (openapi-python-client, pinned below) and
# clients/typescript/src/schema.d.ts (openapi-typescript, pinned below). The
# hand-written layer around them is not touched. With --check, generates
# into a temporary directory and fails if the committed code differs (CI
# runs it that way: a document changed without its clients fails).
#
#   scripts/generate-clients.sh           # rewrite the generated code
#   scripts/generate-clients.sh --check   # fail if it is stale
#   scripts/generate-clients.sh --tools   # install the pinned tools, print where
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
# TypeScript: openapi-typescript and the compiler, pinned, installed once
# under target/ (`--tools` stops here: the client test uses the compiler).
ts_tools="$repo/target/client-tools/typescript"
if [ ! -x "$ts_tools/node_modules/.bin/openapi-typescript" ] || [ ! -d "$ts_tools/node_modules/@types/node" ]; then
  mkdir -p "$ts_tools"
  (cd "$ts_tools" && npm install --no-audit --no-fund --silent --no-save openapi-typescript@7.6.1 typescript@5.7.3 @types/node@20.17.19 >/dev/null)
fi
[ "${1:-}" = "--tools" ] && { echo "$ts_tools/node_modules"; exit 0; }
# The generator formats with ruff: both pinned, so the same document
# always generates the same bytes.
generator_version="0.29.1"
ruff_version="0.17.6"
installed="$(python3 -m pip show openapi-python-client ruff 2>/dev/null || true)"
if ! grep -q "^Version: $generator_version$" <<< "$installed" || ! grep -q "^Version: $ruff_version$" <<< "$installed"; then
  python3 -m pip install --quiet --disable-pip-version-check \
    "openapi-python-client==$generator_version" "ruff==$ruff_version" 2>&1 | grep -v "^WARNING: Running pip as" || true
  command -v pyenv >/dev/null 2>&1 && pyenv rehash || true
fi
export PATH="$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))'):$PATH"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
openapi-python-client generate --path docs/openapi.json --meta none --output-path "$work/python" \
  > "$work/generate.log" 2>&1 || { cat "$work/generate.log"; exit 1; }
if grep -qiE "warning|error|could not|skipp" "$work/generate.log"; then
  cat "$work/generate.log"; echo "openapi-python-client warned"; exit 1
fi
# The generator formats its output with ruff, which leaves a cache behind.
rm -rf "$work/python/.ruff_cache"
"$ts_tools/node_modules/.bin/openapi-typescript" docs/openapi.json -o "$work/schema.d.ts" > "$work/generate-ts.log" 2>&1 ||
  { cat "$work/generate-ts.log"; exit 1; }

python_target="clients/python/sail/_generated"
ts_target="clients/typescript/src/schema.d.ts"
if [ "${1:-}" = "--check" ]; then
  stale=0
  diff -r -q "$work/python" "$python_target" > "$work/diff" 2>&1 || { cat "$work/diff"; stale=1; }
  cmp -s "$work/schema.d.ts" "$ts_target" || { echo "$ts_target differs"; stale=1; }
  if [ "$stale" -ne 0 ]; then
    echo "stale: the generated client code differs from what docs/openapi.json generates; run scripts/generate-clients.sh"
    exit 1
  fi
  echo "generated clients: current"
else
  rm -rf "$python_target"
  cp -r "$work/python" "$python_target"
  cp "$work/schema.d.ts" "$ts_target"
  echo "generated clients: written to $python_target and $ts_target"
fi
