#!/usr/bin/env bash
# A real Prometheus scraping a real `sail serve` (docs/operations.md#metrics):
# serves on a fresh SQLite file with --metrics-addr, starts Prometheus with
# deploy/prometheus/sail-rules.yml and a one-second scrape of that listener,
# makes a few calls, then asks Prometheus's HTTP API that the target is up
# and that the request counter moved. Needs `prometheus` (Debian's package)
# and a built `sail` (cargo build -p sail).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
sail="${SAIL_BIN:-$repo/target/debug/sail}"
work="$(mktemp -d)"
db="sqlite://$work/sail.db?mode=rwc"
pids=()
finish() {
  status=$?
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  if [ "$status" -ne 0 ]; then
    echo "== sail serve"; tail -20 "$work/serve.log" 2>/dev/null || true
    echo "== prometheus"; tail -20 "$work/prometheus.log" 2>/dev/null || true
  fi
  rm -rf "$work"
  exit "$status"
}
trap finish EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

"$sail" migrate --database-url "$db" >/dev/null
partner=$("$sail" partners create --database-url "$db" --name "Scraped" --json | python3 -c 'import sys,json;print(json.load(sys.stdin)["id"])')
key=$("$sail" keys create --database-url "$db" --partner "$partner" --scopes expenses --json |
  python3 -c 'import sys,json;print(json.load(sys.stdin)["key"])')

"$sail" serve --database-url "$db" --http-addr 127.0.0.1:0 --grpc-addr 127.0.0.1:0 \
  --metrics-addr 127.0.0.1:0 >"$work/serve.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do
  grep -q "listening metrics=" "$work/serve.log" && break
  sleep 0.1
done
http=$(grep -o "listening http=[0-9.:]*" "$work/serve.log" | head -1 | cut -d= -f2)
metrics=$(grep -o "listening metrics=[0-9.:]*" "$work/serve.log" | head -1 | cut -d= -f2)
[ -n "$http" ] && [ -n "$metrics" ] || { echo "sail serve did not start"; exit 1; }

prom="127.0.0.1:$(free_port)"
cat >"$work/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $repo/deploy/prometheus/sail-rules.yml
scrape_configs:
  - job_name: sail
    static_configs:
      - targets: ["$metrics"]
YML
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
  --web.listen-address="$prom" >"$work/prometheus.log" 2>&1 &
pids+=($!)

for n in 1 2 3; do
  curl -fsS -o /dev/null -X POST "http://$http/api/v1/users" -H "Authorization: Bearer $key" \
    -H 'Content-Type: application/json' -d "{\"external_user_id\": \"scraped-$n\"}"
done

query() { # prints the value of the first sample of PromQL $1, or nothing
  curl -fsS --get "http://$prom/api/v1/query" --data-urlencode "query=$1" 2>/dev/null |
    python3 -c 'import sys,json; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")' 2>/dev/null || true
}
up="" requests=""
for _ in $(seq 1 60); do
  up=$(query 'up{job="sail"}')
  requests=$(query 'sum(sail_http_requests_total{job="sail", route="/api/v1/users", method="POST", status="201"})')
  [ "$up" = "1" ] && [ "${requests:-0}" = "3" ] && break
  sleep 1
done
[ "$up" = "1" ] || { echo "prometheus: the sail target is not up (up=$up)"; exit 1; }
[ "$requests" = "3" ] || { echo "prometheus: the request counter did not reach 3 (got '$requests')"; exit 1; }
rules=$(curl -fsS "http://$prom/api/v1/rules" | python3 -c 'import sys,json; print(sum(len(g["rules"]) for g in json.load(sys.stdin)["data"]["groups"]))')
[ "$rules" -ge 10 ] || { echo "prometheus loaded $rules rules"; exit 1; }
echo "prometheus scrape: target up, POST /api/v1/users counted 3, $rules rules loaded"
