#!/usr/bin/env bash
# Runs `herald bench serve` on a PostgreSQL server of this machine and says, for each round,
# how much CPU the PostgreSQL processes used (user + system, all of them: backends, WAL writer,
# checkpointer, autovacuum), in all and per notification, beside what the bench says of its own
# process. With --no-baseline a round is the server's broadcast alone; without it, the raw
# client's run (which does not touch PostgreSQL) comes first in the round.
#
#   swift build -c release --product herald
#   bench/serve-postgres-cpu.sh -n 100000 --rounds 3 --postgres 'postgres://user@127.0.0.1:5432/db?schema=NEW'
#
# Needs the PostgreSQL server on this machine (its processes are found by name) and stdbuf.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
herald="${HERALD:-$root/.build/release/herald}"
count=100000
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
    if [[ "${args[$i]}" == "-n" ]]; then count="${args[$((i + 1))]}"; fi
done
ticks_per_second="$(getconf CLK_TCK)"

postgres_ticks() {
    local total=0 pid stat
    for pid in $(pgrep -x postgres || true); do
        # Fields 14 and 15 of /proc/PID/stat (after the command name in parentheses).
        stat="$(cat "/proc/$pid/stat" 2>/dev/null)" || continue
        read -r -a fields <<<"${stat##*) }"
        total=$((total + fields[11] + fields[12]))
    done
    echo "$total"
}

last=""
stdbuf -oL -eL "$herald" bench serve "${args[@]}" 2>&1 | while IFS= read -r line; do
    now="$(postgres_ticks)"
    echo "$line"
    case "$line" in
    registered* | round*)
        if [[ -n "$last" && "$line" == round* ]]; then
            used_ms=$(((now - last) * 1000 / ticks_per_second))
            echo "  PostgreSQL CPU in this round: ${used_ms} ms, $((used_ms * 1000 / count)) µs per notification"
        fi
        last="$now"
        ;;
    esac
done
