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
# Needs the PostgreSQL server on this machine (its processes are found by name).
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
        # Fields 14 to 17 of /proc/PID/stat (after the command name in parentheses): user and
        # system time, and those of children waited for (a backend or autovacuum worker that
        # ended counts in the postmaster's, so the sum never goes back).
        stat="$(cat "/proc/$pid/stat" 2>/dev/null)" || continue
        read -r -a fields <<<"${stat##*) }"
        total=$((total + fields[11] + fields[12] + fields[13] + fields[14]))
    done
    echo "$total"
}

# The bench says on standard error when each broadcast starts and when it is recorded; the
# PostgreSQL processes' CPU is read at those two moments.
report="$(mktemp)"
trap 'rm -f "$report"' EXIT
"$herald" bench serve "${args[@]}" 2> >(
    while IFS= read -r line; do
        case "$line" in
        *": broadcasting") started="$(postgres_ticks)" ;;
        *": broadcast recorded")
            used_ms=$((($(postgres_ticks) - started) * 1000 / ticks_per_second))
            echo "${line%%:*}: PostgreSQL CPU during the broadcast ${used_ms} ms, $((used_ms * 1000 / count)) µs per notification" >>"$report"
            ;;
        *) echo "$line" >&2 ;;
        esac
    done
)
# The reader above may still be writing its last line.
sleep 0.5
cat "$report"
