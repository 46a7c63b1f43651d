#!/usr/bin/env bash
# Re-creates vendor/sqlx-core: the registry's sqlx-core 0.9.0, checked
# against its published checksum, plus one reviewed patch,
# vendor/sqlx-core-tcp-nodelay.patch (vendor/README.md says why and when to
# drop it). Nothing else in vendor/ is edited by hand.
#
#   scripts/vendor-sqlx-core.sh           rewrite vendor/sqlx-core
#   scripts/vendor-sqlx-core.sh --check   fail if vendor/sqlx-core differs
#                                         from what this script makes (CI)
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=0.9.0
# The .crate's SHA-256 as crates.io's index publishes it.
SHA256=05b44e85bf579a8eeb4ceaa77a3a523baf2bf0e9bac7e40f405d537b5d2d5ccb
PATCH=vendor/sqlx-core-tcp-nodelay.patch
TARGET=vendor/sqlx-core

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Let cargo download the crate from the registry into its own cache: a
# throwaway package outside this workspace (so the workspace's [patch]
# does not apply) that depends on exactly this version.
mkdir -p "$work/fetch/src"
cat > "$work/fetch/Cargo.toml" <<TOML
[package]
name = "fetch-sqlx-core"
version = "0.0.0"
edition = "2021"
[dependencies]
sqlx-core = "=$VERSION"
[workspace]
TOML
: > "$work/fetch/src/lib.rs"
(cd "$work/fetch" && cargo fetch --quiet)
crate_file="$(ls "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/*/sqlx-core-$VERSION.crate | head -1)"
echo "$SHA256  $crate_file" | sha256sum --check --quiet

mkdir -p "$work/made"
tar -xzf "$crate_file" -C "$work/made"
made="$work/made/sqlx-core-$VERSION"
patch --quiet --directory "$made" -p1 < "$PATCH"
# cargo's own marker of an unpacked crate; not part of the source.
rm -f "$made/.cargo-ok"

if [ "${1:-}" = "--check" ]; then
  if ! diff -r "$made" "$TARGET" > "$work/diff"; then
    head -50 "$work/diff"
    echo "vendor-sqlx-core: $TARGET differs from sqlx-core $VERSION + $PATCH; run scripts/vendor-sqlx-core.sh"
    exit 1
  fi
  echo "vendor-sqlx-core: $TARGET is sqlx-core $VERSION + $PATCH"
else
  rm -rf "$TARGET"
  cp -r "$made" "$TARGET"
  echo "vendor-sqlx-core: wrote $TARGET from sqlx-core $VERSION + $PATCH"
fi
