#!/usr/bin/env bash
# Regenerates the client libraries' generated parts from docs/openapi.json:
# clients/python/sail/_generated (openapi-python-client, pinned below). The
# hand-written layer around them is not touched. With --check, generates
# into a temporary directory and fails if the committed code differs (CI
# runs it that way: a document changed without its clients fails).
#
#   scripts/generate-clients.sh           # rewrite the generated code
#   scripts/generate-clients.sh --check   # fail if it is stale
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
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
target="clients/python/sail/_generated"
if [ "${1:-}" = "--check" ]; then
  if ! diff -r -q "$work/python" "$target" > "$work/diff" 2>&1; then
    cat "$work/diff"
    echo "stale: $target differs from what docs/openapi.json generates; run scripts/generate-clients.sh"
    exit 1
  fi
  echo "generated clients: current"
else
  rm -rf "$target"
  cp -r "$work/python" "$target"
  echo "generated clients: written to $target"
fi
