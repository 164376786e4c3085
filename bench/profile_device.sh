#!/usr/bin/env bash
# bench/profile_device.sh — where a benchmark's time goes, without a
# profiler (the GPU machine has no nsys): each built NESL program is run
# with --stats=time (per kernel: launches, bytes, and the time from a
# synchronized start to a synchronized end) and the kernels are listed by
# time, with the form times of --repeat.
#
#   bench/profile_device.sh NESLDIR [STEM...]     (default: every executable)
#
# The times add up what the syncs cost too, so they bound a kernel's share
# rather than measure it; the form times come from the same run.
set -u
dir=$1; shift
stems=("$@")
[ ${#stems[@]} -gt 0 ] || stems=($(cd "$dir" && ls | grep -v '\.log$'))
for s in "${stems[@]}"; do
    exe=$dir/$s
    [ -x "$exe" ] || { echo "== $s: not built"; continue; }
    echo "== $s"
    out=$(timeout 120 "$exe" --repeat=2 --stats=time 2>&1 | grep '^stats:\|^nesl-time\|RUNTIME ERROR')
    echo "$out" | grep 'nesl-time'
    echo "$out" | grep '^stats: kernel launches\|^stats: global memory'
    echo "$out" | grep '^stats: kernel .*ms$' | awk -F', ' '{t=$NF; sub(/ ms/,"",t); tot+=t; print t "\t" $0} END {print tot "\tsum of kernel ms"}' | sort -gr | head -16
done
