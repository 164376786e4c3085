#!/bin/sh
# run_fuzz.sh DIR SECONDS TARGET... — run each libFuzzer target DIR/fuzz_T
# for SECONDS (niced, one process), then print its executions and whether it
# found anything.  Called by `make fuzz` (doc/fuzzing.md); run from the
# repository root.  Per target T:
#   DIR/seeds-T/    the seed corpus, refreshed from the test programs each run
#   DIR/corpus-T/   the corpus libFuzzer grows; kept between runs
#   DIR/crashes/    crash-*, timeout-*, leak-*, oom-* inputs (libFuzzer names)
#   DIR/T.log       libFuzzer's output
# Exit status 1 if any target found a problem.
set -u
dir=$1 secs=$2
shift 2
mkdir -p "$dir/crashes"
status=0
for t in "$@"; do
    case $t in
        nesl) seeds=$(find tests examples lib -name '*.nesl' | sort) ;;
        lcu)  seeds=$(find tests -name '*.lcu' | sort) ;;
        *) echo "run_fuzz.sh: unknown target '$t' (nesl or lcu)" >&2; exit 2 ;;
    esac
    rm -rf "$dir/seeds-$t"
    mkdir -p "$dir/seeds-$t" "$dir/corpus-$t"
    for f in $seeds; do cp "$f" "$dir/seeds-$t/$(echo "$f" | tr / _)"; done
    before=$(ls "$dir/crashes" | wc -l)
    echo "fuzz_$t: ${secs}s, $(echo "$seeds" | wc -l) seed files, log in $dir/$t.log"
    # -timeout: an input that runs longer is a hang; -rss_limit_mb: memory
    # must stay bounded; -max_len: room for the larger example programs.
    nice -n 10 "$dir/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
        -max_len=8192 -dict="tests/fuzz/$t.dict" -artifact_prefix="$dir/crashes/" \
        -print_final_stats=1 "$dir/corpus-$t" "$dir/seeds-$t" >"$dir/$t.log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/$t.log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/$t.log")
    found=$(($(ls "$dir/crashes" | wc -l) - before))
    if [ "$rc" -eq 0 ] && [ "$found" -eq 0 ]; then
        echo "fuzz_$t: ${execs:-?} executions (${rate:-?}/s), no crash, hang or leak"
    else
        echo "fuzz_$t: FOUND A PROBLEM after ${execs:-?} executions (exit $rc); see $dir/$t.log:"
        grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|artifact_prefix|Test unit written|fuzz_)' "$dir/$t.log" | head -8
        status=1
    fi
done
exit $status
