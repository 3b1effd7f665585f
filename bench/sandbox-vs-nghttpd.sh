#!/usr/bin/env bash
# Measures `herald sandbox` against nghttpd (the nghttp2 C reference server) under one h2load
# command: TLS, 4 connections x 100 concurrent streams, a ~150-byte JSON POST to
# /3/device/<token> with a valid provider token, tokens auto-accepted.
#
#   swift build -c release --product herald
#   bench/sandbox-vs-nghttpd.sh [requests] [rounds]
#
# Needs h2load (Debian nghttp2-client), nghttpd (nghttp2-server) and openssl.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
herald="${HERALD:-$root/.build/release/herald}"
requests="${1:-200000}"
rounds="${2:-3}"
work="$(mktemp -d)"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

for tool in h2load nghttpd openssl; do
    command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install nghttp2-client nghttp2-server openssl)" >&2; exit 2; }
done
[[ -x "$herald" ]] || { echo "build herald first: swift build -c release --product herald" >&2; exit 2; }

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=localhost \
    -keyout "$work/server.key" -out "$work/server.pem" 2>/dev/null
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$work/AuthKey_BENCH00001.p8" 2>/dev/null
jwt="$("$herald" token --key "$work/AuthKey_BENCH00001.p8" --team-id TEAM000001)"
printf '%s' '{"aps":{"alert":{"title":"Benchmark","body":"A notification of about 150 bytes, as in the issue"},"badge":1,"sound":"default"},"order":"A-1234567"}' > "$work/payload.json"
token="$(printf 'ab%.0s' {1..32})"

wait_for_port() { for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null && return 0; sleep 0.1; done; echo "port $1 did not open" >&2; exit 1; }

load() {
    h2load -n "$requests" -c 4 -m 100 -d "$work/payload.json" \
        -H "authorization: bearer $jwt" -H "apns-topic: com.example.app" -H "apns-push-type: alert" \
        "https://127.0.0.1:$1/3/device/$token" \
        | awk '/^finished in/ { gsub(",", "", $4); printf "%s req/s", $4 } /^requests:/ { gsub(",", "", $0); errored = $12 } /^status codes:/ { gsub(",", "", $0); printf " (%s 2xx, %s 4xx, %s errored)", $3, $7, errored }'
}

echo "machine: $(nproc) cores, $(uname -srm); $(h2load --version | head -1); $(nghttpd --version | head -1)"
echo "h2load -n $requests -c 4 -m 100 -d payload.json($(wc -c < "$work/payload.json") bytes) -H authorization/apns-topic/apns-push-type https://127.0.0.1:PORT/3/device/<64 hex>"

nghttpd --address=127.0.0.1 -n 1 29443 "$work/server.key" "$work/server.pem" >/dev/null 2>&1 & pids+=($!)
"$herald" sandbox --port 29197 --admin-port 0 --auto-accept --burst-limit 0 --quiet \
    --cert "$work/server.pem" --key "$work/server.key" >/dev/null 2>&1 & pids+=($!)
wait_for_port 29443
wait_for_port 29197

for round in $(seq "$rounds"); do
    echo "round $round: nghttpd $(load 29443); herald sandbox $(load 29197)"
done
