#!/usr/bin/env bash
# fusion_table.sh — fusion's effect on every example (examples/*.nesl with a
# .expected file), for doc/fusion.md "Measurements".
#
#   bench/fusion_table.sh counts          kernel launches and global-memory
#                                         bytes (read + written) at -O0 and -O,
#                                         from --interp=lcu --stats=kernels
#   bench/fusion_table.sh build DIR       build every example with
#                                         --target=cuda at -O0 and -O into
#                                         DIR/NAME.O0 and DIR/NAME.O1 (those
#                                         newer than nesslc and the source
#                                         are kept)
#   bench/fusion_table.sh time DIR        run every executable of DIR (GPU)
#                                         with --repeat=R (default 5), check
#                                         its output against NAME.expected
#                                         (tests/float_cmp.py) and print the
#                                         sum over its forms of the median
#                                         times (stderr `nesl-time form K: MS
#                                         ms (R runs)`) at -O0 and -O
#
# Options: --nesslc PATH (default ./nesslc), --repeat R.  Builds need nvcc;
# `time` needs only the executables, python3 and a GPU.
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
nesslc=$root/nesslc
repeat=5
args=()
while [ $# -gt 0 ]; do
    case $1 in
        --nesslc) nesslc=$2; shift 2 ;;
        --repeat) repeat=$2; shift 2 ;;
        *) args+=("$1"); shift ;;
    esac
done
case $nesslc in /*) ;; *) nesslc=$PWD/$nesslc ;; esac
set -- "${args[@]}"
cmd=${1:-}

examples() {
    for f in "$root"/examples/*.nesl; do
        [ -f "${f%.nesl}.expected" ] && basename "${f%.nesl}"
    done
}

# "LAUNCHES BYTES" of one example at one level (-O0 or -O).
counts_of() {   # name, level
    (cd "$root/examples" && "$nesslc" --interp=lcu --stats=kernels "$2" "$1.nesl") 2>&1 |
        awk '/^stats: kernel launches:/ { l = $4 }
             /^stats: global memory:/ { b = sprintf("%.0f", $4 + $7) }
             END { if (l == "" || b == "") exit 1; print l, b }'
}

case $cmd in
counts)
    echo "| example | launches -O0 | launches -O | bytes r+w -O0 | bytes r+w -O |"
    echo "|---|---|---|---|---|"
    for n in $(examples); do
        a=$(counts_of "$n" -O0) || { echo "$n: -O0 failed" >&2; exit 1; }
        b=$(counts_of "$n" -O) || { echo "$n: -O failed" >&2; exit 1; }
        set -- $a $b
        echo "| $n | $1 | $3 | $2 | $4 |"
    done ;;
build)
    dir=${2:?build DIR}
    mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
    for n in $(examples); do
        for o in 0 1; do
            # up to date: newer than the source and the compiler
            [ "$dir/$n.O$o" -nt "$root/examples/$n.nesl" ] && [ "$dir/$n.O$o" -nt "$nesslc" ] && continue
            (cd "$root/examples" && "$nesslc" --target=cuda -O$o -o "$dir/$n.O$o" "$n.nesl") ||
                { echo "$n -O$o: build failed" >&2; exit 1; }
        done
    done ;;
time)
    dir=$(cd "${2:?time DIR}" && pwd) || exit 1
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/fusion-table.XXXXXX") || exit 1
    trap 'rm -rf "$tmp"' EXIT
    command -v nvidia-smi >/dev/null && nvidia-smi -L
    echo "| example | ms -O0 | ms -O | speed-up | output |"
    echo "|---|---|---|---|---|"
    for n in $(examples); do
        row="| $n"
        ok=ok
        for o in 0 1; do
            exe=$dir/$n.O$o
            [ -x "$exe" ] || { row="$row | (no build)"; [ "$ok" = ok ] && ok=-; continue; }
            (cd "$root/examples" && timeout 300 "$exe" --repeat="$repeat") >"$tmp/out" 2>"$tmp/err"
            st=$?
            # the output of the timed runs is that of one run: checked like mode cuda
            if [ $st -ne 0 ] || ! python3 "$root/tests/float_cmp.py" "$root/examples/$n.expected" "$tmp/out"; then
                ok="FAIL(-O$o, status $st)"
            fi
            ms=$(awk '/^nesl-time form/ { s += $(NF - 3) } END { printf "%.3f", s }' "$tmp/err")
            row="$row | $ms"
            eval "ms$o=$ms"
        done
        sp=$(awk -v a="${ms0:-0}" -v b="${ms1:-0}" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }')
        echo "$row | $sp | $ok |"
        unset ms0 ms1
    done ;;
*)
    sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
    exit 2 ;;
esac
