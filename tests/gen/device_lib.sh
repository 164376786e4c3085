# device_lib.sh — shared by tests/gen/device_*.sh (sourced): after the
# fuzz workers have ended, sum their executions into $OUT/fuzz.txt and pack
# their findings.
#   fuzz_summary DIR N     (DIR/job-I.log for I in 1..N, DIR/crashes)
fuzz_summary() {
    local fz=$1 n=$2 sum=0 i x
    for i in $(seq 1 "$n"); do
        x=$(sed -n 's/^stat::number_of_executed_units: *//p' "$fz/job-$i.log")
        echo "fuzz job $i: ${x:-NO FINAL STATS} executions"
        [ -n "$x" ] || tail -3 "$fz/job-$i.log"
        sum=$((sum + ${x:-0}))
    done >"$OUT/fuzz.txt"
    echo "fuzz total: $sum executions, $(ls "$fz/crashes" | wc -l) findings" >>"$OUT/fuzz.txt"
    tar czf "$OUT/fuzz_crashes.tgz" -C "$fz" crashes
}
