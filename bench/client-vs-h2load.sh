#!/usr/bin/env bash
# Measures Herald's APNs client (`herald bench`) against h2load (the nghttp2 C load generator):
# both send to the same `herald sandbox` over TLS, with the same payload, 4 connections and 100
# concurrent streams each, alternating in each round.
#
#   swift build -c release --product herald
#   bench/client-vs-h2load.sh [notifications] [rounds]
#
# Needs h2load (Debian nghttp2-client).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
herald="${HERALD:-$root/.build/release/herald}"
count="${1:-100000}"
rounds="${2:-3}"
work="$(mktemp -d)"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

command -v h2load >/dev/null || { echo "needs h2load (apt-get install nghttp2-client)" >&2; exit 2; }
[[ -x "$herald" ]] || { echo "build herald first: swift build -c release --product herald" >&2; exit 2; }

printf '%s' '{"aps":{"alert":{"title":"Benchmark","body":"A notification of about 150 bytes, as in the issue"},"badge":1,"sound":"default"},"order":"A-1234567"}' > "$work/payload.json"
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$work/AuthKey_BENCH00001.p8" 2>/dev/null
jwt="$("$herald" token --key "$work/AuthKey_BENCH00001.p8" --team-id TEAM000001)"
token="$(printf 'ab%.0s' {1..32})"

"$herald" sandbox --port 29197 --admin-port 0 --auto-accept --burst-limit 0 --quiet --cert-out "$work/sandbox.pem" >/dev/null 2>&1 & pids+=($!)
for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/29197) 2>/dev/null && break; sleep 0.1; done

echo "machine: $(nproc) cores, $(uname -srm); $(h2load --version | head -1)"
for round in $(seq "$rounds"); do
    h2=$(h2load -n "$count" -c 4 -m 100 -d "$work/payload.json" \
        -H "authorization: bearer $jwt" -H "apns-topic: com.example.app" -H "apns-push-type: alert" -H "apns-priority: 10" \
        "https://127.0.0.1:29197/3/device/$token" | awk '/^finished in/ { gsub(",", "", $4); print $4 }')
    hb=$("$herald" bench -n "$count" -c 4 -m 100 --url https://127.0.0.1:29197 --cacert "$work/sandbox.pem" \
        --payload "$work/payload.json" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["perSecond"])')
    python3 -c "import sys; h, b = float(sys.argv[1]), float(sys.argv[2]); print(f'round $round: h2load {h:,.0f} req/s; herald bench {b:,.0f} notifications/s; ratio {b / h:.2f}')" "$h2" "$hb"
done
