#!/usr/bin/env bash
# Runs `herald bench serve` on a PostgreSQL server of this machine and says, for each round,
# how much CPU the PostgreSQL processes used (user + system, all of them: backends, WAL writer,
# checkpointer, autovacuum), in all and per notification, beside what the bench says of its own
# process. With --no-baseline a round is the server's broadcast alone; without it, the raw
# client's run (which does not touch PostgreSQL) comes first in the round. The figure includes
# the bench's own look at the queue's depth every 5 ms while it waits for the broadcast's end.
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
    case "${args[$i]}" in
    -n | --devices) count="${args[$((i + 1))]}" ;;
    --devices=*) count="${args[$i]#--devices=}" ;;
    -n*) count="${args[$i]#-n}" ;;
    esac
done
ticks_per_second="$(getconf CLK_TCK)"

# One line per PostgreSQL process: its pid, its user + system time, and that of its children it
# waited for (fields 14 to 17 of /proc/PID/stat, after the command name in parentheses).
postgres_snapshot() {
    local pid stat
    for pid in $(pgrep -x postgres || true); do
        stat="$(cat "/proc/$pid/stat" 2>/dev/null)" || continue
        read -r -a fields <<<"${stat##*) }"
        echo "$pid $((fields[11] + fields[12])) $((fields[13] + fields[14]))"
    done
}

# The ticks used between two snapshots. A process that ended in between counts through the
# postmaster's children's time (its whole life), less what it had used before the first.
ticks_between() {
    awk 'NR == FNR { own[$1] = $2; children[$1] = $3; next }
         { used += $2 - (($1 in own) ? own[$1] : 0) + $3 - (($1 in children) ? children[$1] : 0); seen[$1] = 1 }
         END { for (pid in own) if (!(pid in seen)) used -= own[pid]; print used + 0 }' <(echo "$1") <(echo "$2")
}

# The bench says on standard error when each broadcast starts and when it is recorded; the
# PostgreSQL processes' CPU is read at those two moments.
report="$(mktemp)"
trap 'rm -f "$report"' EXIT
status=0
"$herald" bench serve "${args[@]}" 2> >(
    while IFS= read -r line; do
        case "$line" in
        *": broadcasting") started="$(postgres_snapshot)" ;;
        *": broadcast recorded")
            used_ms=$(($(ticks_between "$started" "$(postgres_snapshot)") * 1000 / ticks_per_second))
            echo "${line%%:*}: PostgreSQL CPU during the broadcast ${used_ms} ms, $((used_ms * 1000 / count)) µs per notification" >>"$report"
            ;;
        *) echo "$line" >&2 ;;
        esac
    done
) || status=$?
# The reader above may still be writing its last line.
sleep 1
cat "$report"
exit "$status"
