#!/bin/sh
# run_fuzz_jobs.sh FUZZER SECONDS JOBS SEEDDIR DICT OUTDIR — run JOBS
# independent libFuzzer processes of FUZZER (each with its own -seed and
# corpus directory, all starting from SEEDDIR) for SECONDS, then print the
# total number of executions and whether any process found a problem.
# For many-core machines (doc/fuzzing.md); `make fuzz` runs one process.
set -u
fuzzer=$1 secs=$2 jobs=$3 seeds=$4 dict=$5 out=$6
mkdir -p "$out/crashes"
i=1
while [ "$i" -le "$jobs" ]; do
    mkdir -p "$out/corpus-$i"
    "$fuzzer" -seed="$i" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
        -dict="$dict" -artifact_prefix="$out/crashes/" -print_final_stats=1 \
        "$out/corpus-$i" "$seeds" >"$out/job-$i.log" 2>&1 &
    i=$((i + 1))
done
wait
total=0 bad=0
i=1
while [ "$i" -le "$jobs" ]; do
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/job-$i.log")
    [ -n "$n" ] || { bad=$((bad + 1)); n=0; echo "job $i: no final stats (crashed?):"; tail -5 "$out/job-$i.log"; }
    total=$((total + n))
    i=$((i + 1))
done
found=$(ls "$out/crashes" | wc -l)
echo "fuzz: $jobs jobs x ${secs}s: $total executions, $found findings, $bad jobs without final stats"
[ "$found" -eq 0 ] && [ "$bad" -eq 0 ]
