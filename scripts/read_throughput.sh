#!/usr/bin/env bash
# Reads per second through `sail serve` (the gateway calling its core in
# process) and through `sail core` + `sail gateway --core-url` (the network
# path), each as a ratio of a bare axum handler answering from memory, all
# measured in this run on this machine (SQLite, rate limits off). Prints a
# Markdown table for docs/benchmarks.md. Needs wrk (Debian's `wrk`).
#
#   scripts/read_throughput.sh [seconds per measurement, default 8]
set -euo pipefail
seconds="${1:-8}"
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install wrk" >&2; exit 1; }
cargo build -q --release -p sail
cargo build -q --release -p sail-api --example bare_axum
sail="$PWD/target/release/sail"
bare="$PWD/target/release/examples/bare_axum"
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
export SAIL_DATABASE_URL="sqlite://$work/sail.db?mode=rwc"
cd "$work"
"$sail" migrate >/dev/null 2>&1
eval "$("$sail" dev bootstrap 2>/dev/null)"
http=127.0.0.1:18181 grpc=127.0.0.1:15151

rps() { # url → requests per second
  wrk -t2 -c16 -d"${seconds}s" -H "Authorization: Bearer $SAIL_KEY" "$1" | awk '/Requests\/sec/ {print $2}'
}
wait_http() { for _ in $(seq 100); do curl -sf "http://$http/healthz" >/dev/null 2>&1 && return; sleep 0.1; done; }

"$bare" "$http" >/dev/null 2>&1 & pid=$!
sleep 0.5
ceiling="$(rps "http://$http/api/v1/merchants")"
kill "$pid"; wait "$pid" 2>/dev/null || true

declare -A result
measure() { # label
  wait_http
  local user
  user="$(curl -s -XPOST -H "Authorization: Bearer $SAIL_KEY" -H 'content-type: application/json' \
    -d "{\"external_user_id\":\"bench-$1-$RANDOM\"}" "http://$http/api/v1/users" | sed 's/.*"id":"\([^"]*\)".*/\1/')"
  result[$1,merchants]="$(rps "http://$http/api/v1/merchants?search=walgren")"
  result[$1,administrators]="$(rps "http://$http/api/v1/administrators")"
  result[$1,user]="$(rps "http://$http/api/v1/users/$user")"
  result[$1,users]="$(rps "http://$http/api/v1/users?limit=25")"
}
"$sail" serve --http-addr "$http" --grpc-addr "$grpc" --rate-limit-rps 0 >serve.log 2>&1 & pid=$!
measure inproc
kill "$pid"; wait "$pid" 2>/dev/null || true
# A core names its key (the embedded database made one on first use).
SAIL_ENCRYPTION_KEY="$(head -1 sail.db.key)" "$sail" core --grpc-addr "$grpc" --rate-limit-rps 0 >core.log 2>&1 & core=$!
"$sail" gateway --http-addr "$http" --core-url "http://$grpc" >gateway.log 2>&1 & gateway=$!
measure network
kill "$gateway" "$core"; wait 2>/dev/null || true

echo "| request | sail serve (in process) | core + gateway (network) |"
echo "|---|---|---|"
printf '| bare axum, from memory (the ceiling) | %.0f/s | |\n' "$ceiling"
for row in "merchants:GET /merchants?search=walgren" "administrators:GET /administrators" \
           "user:GET /users/{id}" "users:GET /users?limit=25"; do
  key="${row%%:*}" label="${row#*:}"
  a="${result[inproc,$key]}" b="${result[network,$key]}"
  awk -v l="$label" -v a="$a" -v b="$b" -v c="$ceiling" \
    'BEGIN { printf "| `%s` | %.0f/s (%.3f) | %.0f/s (%.3f) |\n", l, a, a / c, b, b / c }'
done
