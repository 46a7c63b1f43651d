#!/usr/bin/env bash
# Coverage-guided fuzzing of the parsers outside input reaches
# (docs/receipts.md#fuzzing): each AFL++ target in fuzz/ runs for SECONDS
# (default 60) from its seeds. A crash or hang fails the run and its input is
# copied to fuzz/regressions/<target>/, which `cargo test` replays from then
# on (tests/fuzz_hostile_input.rs): commit it with the fix.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"; shift || true
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(receipt_text descriptor request_json image_header)

if ! command -v cargo-afl >/dev/null 2>&1; then
  # cargo-afl builds AFL++ (afl-fuzz and its runtime) as it installs.
  cargo install --locked cargo-afl@0.18.2
fi
export CARGO_TARGET_DIR="$PWD/target/afl"
(cd fuzz && cargo afl build --release --quiet)

export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1
failed=0
for target in "${targets[@]}"; do
  out="target/afl/out/$target"
  rm -rf "$out"; mkdir -p target/afl/out
  started=$(date +%s)
  # -V: stop after SECONDS; -t: a case taking over 1 s is a hang.
  cargo afl fuzz -V "$seconds" -t 1000 -i "fuzz/seeds/$target" -o "$out" "target/afl/release/$target" >"$out.log" 2>&1 ||
    { tail -20 "$out.log"; echo "fuzz: $target: afl-fuzz failed"; failed=1; continue; }
  stats="$out/default/fuzzer_stats"
  execs=$(awk -F': ' '/^execs_done/ {print $2}' "$stats")
  paths=$(awk -F': ' '/^corpus_count/ {print $2}' "$stats")
  found=0
  for kind in crashes hangs; do
    for input in "$out/default/$kind"/id:*; do
      [ -e "$input" ] || continue
      found=1
      name="$kind-$(sha256sum "$input" | cut -c1-16)"
      mkdir -p "fuzz/regressions/$target"
      cp "$input" "fuzz/regressions/$target/$name"
      echo "fuzz: $target: kept fuzz/regressions/$target/$name"
    done
  done
  echo "fuzz: $target: $execs executions, $paths inputs in the corpus, $(( $(date +%s) - started )) s, $( [ $found = 0 ] && echo 'no crash or hang' || echo 'CRASHES OR HANGS')"
  [ $found = 0 ] || failed=1
done
exit $failed
