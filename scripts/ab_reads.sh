#!/usr/bin/env bash
# Two builds of `sail serve` side by side on the four reads issue 15 sets
# targets for, each against a bare axum server answering the same JSON from
# memory, alternating in rounds in the same run (SQLite, rate limits off).
# For judging a change before it lands: build the old binary, copy it away,
# build the new one, run this. The order within a round rotates (ceiling,
# A, B; then A, B, ceiling; ...), so neither build always runs first after
# the ceiling. Needs wrk (Debian's `wrk`).
#
#   scripts/ab_reads.sh BIN_A BIN_B [seconds per measurement, 5] [rounds, 4]
#
# Prints, per request, every round's ratio for A and B and their medians, and
# each build's median CPU time per request (user + system, read from /proc
# around each wrk run): within one run it separates two builds more steadily
# than throughput when the machine's speed drifts.
set -euo pipefail
a_bin="$(realpath "$1")" b_bin="$(realpath "$2")" seconds="${3:-5}" rounds="${4:-4}"
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install wrk" >&2; exit 1; }
cargo build -q --release -p sail-api --example bare_axum
bare="$PWD/target/release/examples/bare_axum"
work="$(mktemp -d)"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

declare -A url key
start() { # name binary
  local dir="$work/$1" http grpc
  mkdir -p "$dir"
  http="127.0.0.1:$(free_port)" grpc="127.0.0.1:$(free_port)"
  (cd "$dir" && SAIL_DATABASE_URL="sqlite://$dir/sail.db?mode=rwc" exec "$2" serve --http-addr "$http" \
    --grpc-addr "$grpc" --rate-limit-rps 0 >"$dir/serve.log" 2>&1) &
  pids+=($!)
  for _ in $(seq 300); do curl -sf "http://$http/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
  key[$1]="$(cd "$dir" && SAIL_DATABASE_URL="sqlite://$dir/sail.db?mode=rwc" "$2" dev bootstrap --json |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["key"])')"
  url[$1]="http://$http"
  for n in $(seq 1 25); do
    curl -sf -XPOST -H "Authorization: Bearer ${key[$1]}" -H 'content-type: application/json' \
      -d "{\"external_user_id\":\"ab-user-$n\"}" "http://$http/api/v1/users" >"$dir/user.json"
  done
}
start a "$a_bin"
start b "$b_bin"
declare -A pid=([a]="${pids[0]}" [b]="${pids[1]}")
tck="$(getconf CLK_TCK)"
user_a="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$work/a/user.json")"
user_b="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$work/b/user.json")"

load() { # url key: wrk's report of one measurement
  wrk -t2 -c16 -d"${seconds}s" -H "Authorization: Bearer $2" "$1"
}
rps() { load "$1" "$2" | awk '/Requests\/sec/ {print $2}'; }
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
# Requests per second, then CPU microseconds per request, of one build.
measure() { # who url key
  local before after out
  before="$(ticks "${pid[$1]}")"
  out="$(load "$2" "$3")"
  after="$(ticks "${pid[$1]}")"
  awk -v t="$((after - before))" -v hz="$tck" '/requests in/ { n = $1 } /Requests\/sec/ { r = $2 }
    END { printf "%s %.1f\n", r, t * 1e6 / hz / n }' <<<"$out"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "| request | A ratios | B ratios | A median | B median | B / A | A µs CPU / request | B µs CPU / request | B / A CPU |"
echo "|---|---|---|---|---|---|---|---|---|"
for row in "/merchants?search=walgren" "/administrators" "/users/{id}" "/users?limit=25"; do
  path_a="/api/v1${row/\{id\}/$user_a}" path_b="/api/v1${row/\{id\}/$user_b}"
  curl -sf -H "Authorization: Bearer ${key[a]}" "${url[a]}$path_a" >"$work/body.json"
  port="$(free_port)"
  "$bare" "127.0.0.1:$port" "$work/body.json" >/dev/null 2>&1 & bare_pid=$!
  sleep 0.3
  ra=() rb=() ca=() cb=()
  for round in $(seq 0 $((rounds - 1))); do
    order=(c a b)
    order=("${order[@]:$((round % 3))}" "${order[@]:0:$((round % 3))}")
    declare -A got=()
    for who in "${order[@]}"; do
      case "$who" in
        c) got[c]="$(rps "http://127.0.0.1:$port$path_a" x)" ;;
        a) read -r "got[a]" cpu_a < <(measure a "${url[a]}$path_a" "${key[a]}") ;;
        b) read -r "got[b]" cpu_b < <(measure b "${url[b]}$path_b" "${key[b]}") ;;
      esac
    done
    ra+=("$(awk -v s="${got[a]}" -v c="${got[c]}" 'BEGIN { printf "%.3f", s / c }')")
    rb+=("$(awk -v s="${got[b]}" -v c="${got[c]}" 'BEGIN { printf "%.3f", s / c }')")
    ca+=("$cpu_a") cb+=("$cpu_b")
  done
  kill "$bare_pid"; wait "$bare_pid" 2>/dev/null || true
  ma="$(printf '%s\n' "${ra[@]}" | median)" mb="$(printf '%s\n' "${rb[@]}" | median)"
  mca="$(printf '%s\n' "${ca[@]}" | median)" mcb="$(printf '%s\n' "${cb[@]}" | median)"
  awk -v r="$row" -v a="${ra[*]}" -v b="${rb[*]}" -v ma="$ma" -v mb="$mb" -v ca="$mca" -v cb="$mcb" \
    'BEGIN { printf "| `GET %s` | %s | %s | %.3f | %.3f | %.2f | %.1f | %.1f | %.2f |\n", r, a, b, ma, mb, mb / ma, ca, cb, cb / ca }'
done
