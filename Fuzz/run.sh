#!/usr/bin/env bash
# Builds the libFuzzer targets (with AddressSanitizer) and runs each for a bounded time from its
# seed corpus; fails if any target crashes. The crashing input is kept in Fuzz/crashes/ (turn
# it into a regression test, then delete it).
#
#   Fuzz/run.sh [seconds per target] [target ...]     default: 60 s, every target
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-60}"
shift || true
targets=("$@")
if (( ${#targets[@]} == 0 )); then
    targets=(frames-server frames-client hpack json lint tokens scenario)
fi

echo "== building herald-fuzz (libFuzzer + AddressSanitizer, in .build-fuzz)"
# --sanitize fuzzer links libFuzzer's main; the one -sanitize=fuzzer,address after it instruments
# for both (given as two flags, the last one alone counts and coverage is lost).
(cd "$root" && HERALD_FUZZ=1 swift build --scratch-path .build-fuzz --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address --product herald-fuzz)
binary="$root/.build-fuzz/debug/herald-fuzz"
mkdir -p "$root/Fuzz/crashes"

failed=()
for target in "${targets[@]}"; do
    seeds="$root/Fuzz/Corpus/$target"
    [[ -d "$seeds" ]] || { echo "no seed corpus for $target ($seeds)" >&2; exit 2; }
    # New inputs go to a scratch folder; the committed seeds are only read.
    scratch="$(mktemp -d)"
    echo "== $target: $seconds s"
    if ! HERALD_FUZZ_TARGET="$target" "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
        -print_final_stats=1 -artifact_prefix="$root/Fuzz/crashes/$target-" "$scratch" "$seeds" 2>"$scratch.log"; then
        tail -40 "$scratch.log"
        failed+=("$target")
    else
        grep -E "^stat::number_of_executed_units|^#[0-9]+.*DONE" "$scratch.log" | tail -2 || true
    fi
    rm -rf "$scratch" "$scratch.log"
done

if (( ${#failed[@]} )); then
    echo "fuzzing found crashes in: ${failed[*]} (inputs in Fuzz/crashes/)" >&2
    exit 1
fi
echo "fuzzing: ${#targets[@]} targets, $seconds s each, no crash"
