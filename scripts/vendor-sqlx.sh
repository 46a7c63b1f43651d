#!/usr/bin/env bash
# Re-creates the vendored sqlx crates: each is the registry's release,
# checked against its published checksum, plus one reviewed patch that
# carries an upstream fix not yet released (vendor/README.md says which,
# why and when to drop it). Nothing in vendor/ is edited by hand.
#
#   scripts/vendor-sqlx.sh           rewrite vendor/<crate> for each crate
#   scripts/vendor-sqlx.sh --check   fail if any vendor/<crate> differs
#                                    from what this script makes (CI)
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=0.9.0
# crate, the .crate's SHA-256 as crates.io's index publishes it, its patch.
CRATES=(
  "sqlx-core 05b44e85bf579a8eeb4ceaa77a3a523baf2bf0e9bac7e40f405d537b5d2d5ccb vendor/sqlx-core-tcp-nodelay.patch"
  "sqlx-postgres 87a2bdd6e83f6b3ea525ca9fee568030508b58355a43d0b2c1674d5f79dcd65e vendor/sqlx-postgres-cancelled-begin.patch"
)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Let cargo download the crates from the registry into its own cache: a
# throwaway package outside this workspace (so the workspace's [patch]
# does not apply) that depends on exactly these versions.
mkdir -p "$work/fetch/src"
{
  printf '[package]\nname = "fetch-sqlx"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\n'
  for entry in "${CRATES[@]}"; do
    read -r name _ _ <<< "$entry"
    printf '%s = "=%s"\n' "$name" "$VERSION"
  done
  printf '[workspace]\n'
} > "$work/fetch/Cargo.toml"
: > "$work/fetch/src/lib.rs"
(cd "$work/fetch" && cargo fetch --quiet)

status=0
for entry in "${CRATES[@]}"; do
  read -r name sha256 patch_file <<< "$entry"
  target="vendor/$name"
  crate_file="$(ls "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/*/"$name-$VERSION.crate" | head -1)"
  echo "$sha256  $crate_file" | sha256sum --check --quiet

  mkdir -p "$work/made"
  tar -xzf "$crate_file" -C "$work/made"
  made="$work/made/$name-$VERSION"
  patch --quiet --directory "$made" -p1 < "$patch_file"
  # cargo's own marker of an unpacked crate; not part of the source.
  rm -f "$made/.cargo-ok"

  if [ "${1:-}" = "--check" ]; then
    if ! diff -r "$made" "$target" > "$work/diff-$name"; then
      head -50 "$work/diff-$name"
      echo "vendor-sqlx: $target differs from $name $VERSION + $patch_file; run scripts/vendor-sqlx.sh"
      status=1
    else
      echo "vendor-sqlx: $target is $name $VERSION + $patch_file"
    fi
  else
    rm -rf "$target"
    cp -r "$made" "$target"
    echo "vendor-sqlx: wrote $target from $name $VERSION + $patch_file"
  fi
done
exit "$status"
