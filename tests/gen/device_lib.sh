# device_lib.sh — shared by tests/gen/device_*.sh (sourced).  After the
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

# Enter the carried directory D (this script's) and make $OUT; CUDA's bin
# on PATH where the machine has it.
#   device_setup         (sets D and OUT)
device_setup() {
    D=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
    OUT=${OUT:-/tmp/out}
    mkdir -p "$OUT"
    cd "$D" || exit 1
    export PATH=/usr/local/cuda/bin:$PATH
    [ -x /usr/local/cuda/bin/nvcc ] || export NESSLC_NVCC=$(command -v nvcc)
}

# Start N fuzz_nesl workers in the background, each with a fresh corpus
# and the test programs (seeds/) as seeds; workers past NORMAL run at
# nice 19 (they take what the campaign leaves idle).
#   start_fuzzers DIR N NORMAL SEED_BASE SECONDS
start_fuzzers() {
    local fz=$1 n=$2 normal=$3 base=$4 secs=$5 i pre
    mkdir -p "$fz/crashes"
    for i in $(seq 1 "$n"); do
        mkdir -p "$fz/corpus-$i"
        pre=""
        [ "$i" -gt "$normal" ] && pre="nice -n 19"
        $pre tests/fuzz/fuzz_nesl_none -seed=$((base + i)) -max_total_time="$secs" -timeout=10 \
            -rss_limit_mb=2048 -max_len=8192 -dict=tests/fuzz/nesl.dict -artifact_prefix="$fz/crashes/" \
            -print_final_stats=1 "$fz/corpus-$i" seeds >"$fz/job-$i.log" 2>&1 &
    done
}

# One random program's C build with CC and its run, timed (doc/difftest.md
# says why tcc is probed); one line on stdout.
#   tcc_probe SEED CC
tcc_probe() {
    local s b e
    python3 tests/gen/nesl_gen.py "$1" >/tmp/probe.nesl
    s=$(date +%s.%N)
    NESSLC_CC="$2" NESSLC_CFLAGS=-std=c11 ./nesslc -o /tmp/probe.exe /tmp/probe.nesl >/tmp/probe.build 2>&1
    b=$(date +%s.%N)
    /tmp/probe.exe >/tmp/probe.out 2>&1
    e=$(date +%s.%N)
    echo "tcc probe: build $(awk "BEGIN{print $b - $s}") s ($(wc -c </tmp/probe.build) bytes of messages), run $(awk "BEGIN{print $e - $b}") s"
}
