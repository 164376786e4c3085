#!/usr/bin/env bash
# bench/work/run.sh — work efficiency of the flattened (unfused) programs:
# elements processed per SOAC kind under the λcu interpreter (--stats) for
# quicksort and dot product at n = 10^3, 10^4, 10^5.  Quicksort should grow
# as n log n, dot product as n.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
nesslc=${NESSLC:-$here/../../nesslc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-10s %8s %9s %12s %12s %10s\n' program n launches elements "elems/n" "elems/nlgn"
for prog in quicksort dot; do
    for n in 1000 10000 100000; do
        sed "s/@N@/$n/g" "$here/$prog.nesl.in" >"$tmp/$prog.nesl"
        "$nesslc" --interp=lcu --stats "$tmp/$prog.nesl" >"$tmp/out"
        launches=$(sed -n 's/^stats: kernel launches: //p' "$tmp/out")
        elems=$(sed -n 's/^stats: [A-Z_]*: [0-9]* launch[es]*, \([0-9]*\) elements$/\1/p' "$tmp/out" | paste -sd+ | bc)
        awk -v p=$prog -v n=$n -v l=$launches -v e=$elems \
            'BEGIN { printf "%-10s %8d %9d %12d %12.1f %10.1f\n", p, n, l, e, e / n, e / (n * log(n) / log(2)) }'
    done
done
