#!/usr/bin/env bash
# run_tests.sh — nesslc's regression harness.
#
# Program tests: every tests/**/*.nesl, tests/lcu/*.lcu, tests/codegen/*.lcu
# and examples/*.nesl with a sibling NAME.expected, in every mode (executor;
# default: the AST interpreter, the λcu interpreter and the C back end, the
# last two with and without fusion), all against the one expected output;
# tests/fusion/NAME.lcu with a NAME.values file also has its values checked
# with kernels formed, fused and not (run_values).
# Each runs in its own directory as
#     timeout LIMIT NESSLC <mode options> NAME.nesl 2>&1   (or NAME.lcu)
# (LIMIT: --timeout, default 60 s)
# and passes iff the merged output equals NAME.expected byte for byte and the
# exit status agrees with it: nonzero iff the expected output has a line
# containing `error:` or `RUNTIME ERROR`.  NAME.args, if present, holds the
# options to use instead of the mode's (e.g. --emit=typed); one with
# -ffloat32 (and no --interp or --emit) runs only in the compiled modes (c,
# cuda-compile, cuda), built with -ffloat32.  In mode c a test
# is built with `NESSLC -o PROG NAME.nesl` (or NAME.lcu) and PROG is run (with
# --stats when NAME.args has it; --print-length=N goes to the build); the
# output of both counts.
#
# Unit tests: with --unit DIR, every executable in DIR is run from the
# repository root, with NESSLC set to the compiler under test, and passes
# iff it exits 0.
#
# The last line printed is always `N passed, N failed`; exit status 0 iff none
# failed.

set -u
shopt -s nullglob

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() {
    cat <<'EOF'
Usage: tests/run_tests.sh [OPTION]... [FILTER]...

  --nesslc PATH   compiler to test (default: ./nesslc at the repository root)
  --jobs N        tests run in parallel (default: number of CPUs)
  --timeout S     seconds a test may run (default 60; sanitizer builds need more)
  --mode MODE     executor, repeatable or comma-separated
                  interp  the reference AST interpreter (--interp)
                  lcu     flattening + fusion + the λcu interpreter (--interp=lcu)
                  lcu0    the same without fusion (--interp=lcu -O0)
                  c       the C back end: nesslc --target=c -o PROG, then PROG
                  c0      the same without fusion (-O0 -o PROG)
                  cuda-compile  the programs of mode c built with --target=cuda
                          (nvcc, no GPU needed); passes when the build
                          succeeds, or fails with the expected diagnostics
                  cuda    the programs of mode c built with --target=cuda and
                          run (GPU needed); float tokens compared with a
                          relative tolerance of 1e-6 (tests/float_cmp.py)
                  cuda0   the same without fusion (-O0)
                  default: interp,lcu,lcu0,c,c0
  --rerun ENV     modes cuda, cuda0: run each executable again with the
                  environment ENV (e.g. NESL_BT=16, one NAME=VALUE or
                  several separated by spaces); its exit status must equal
                  the first run's and its output too (float tokens as
                  above).  Given more than once, one more run each; an
                  empty ENV adds none
  --unit DIR      also run every executable in DIR as a unit test
  --unit-only     run only the unit tests
  -v, --verbose   print a line for every test, not only failures
  -h, --help      this help

A FILTER keeps the tests whose path (relative to the repository root, e.g.
tests/basic/add.nesl) or unit test name contains it.
EOF
}

# Mode -> nesslc options.  A new executor (λcu interpreter, C back end, CUDA)
# is one more line here.
mode_opts() {
    case $1 in
        interp) echo "--interp" ;;
        lcu) echo "--interp=lcu" ;;
        lcu0) echo "--interp=lcu -O0" ;;
        c|c0|cuda|cuda0|cuda-compile) echo "-o" ;;   # run_prog builds (and runs) the executable
        *) return 1 ;;
    esac
}

nesslc=$root/nesslc
limit=60
reruns=()
jobs=$(nproc 2>/dev/null || echo 4)
modes=()
unit_dir=
unit_only=0
verbose=0
filters=()

while [ $# -gt 0 ]; do
    case $1 in
        --nesslc) nesslc=$2; shift 2 ;;
        --nesslc=*) nesslc=${1#*=}; shift ;;
        --jobs|-j) jobs=$2; shift 2 ;;
        --jobs=*) jobs=${1#*=}; shift ;;
        --timeout) limit=$2; shift 2 ;;
        --timeout=*) limit=${1#*=}; shift ;;
        --rerun) [ -n "$2" ] && reruns+=("$2"); shift 2 ;;
        --mode) IFS=, read -r -a m <<<"$2"; modes+=("${m[@]}"); shift 2 ;;
        --mode=*) IFS=, read -r -a m <<<"${1#*=}"; modes+=("${m[@]}"); shift ;;
        --unit) unit_dir=$2; shift 2 ;;
        --unit=*) unit_dir=${1#*=}; shift ;;
        --unit-only) unit_only=1; shift ;;
        -v|--verbose) verbose=1; shift ;;
        -h|--help) usage; exit 0 ;;
        --) shift; filters+=("$@"); break ;;
        -*) echo "run_tests.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) filters+=("$1"); shift ;;
    esac
done
[ ${#modes[@]} -gt 0 ] || modes=(interp lcu lcu0 c c0)
for m in "${modes[@]}"; do
    mode_opts "$m" >/dev/null || { echo "run_tests.sh: unknown mode '$m'" >&2; exit 2; }
done
case $jobs in ''|*[!0-9]*|0) echo "run_tests.sh: bad --jobs '$jobs'" >&2; exit 2 ;; esac
case $limit in ''|*[!0-9]*|0) echo "run_tests.sh: bad --timeout '$limit'" >&2; exit 2 ;; esac

# Tests cd into their own directory, so paths must be absolute.
abspath() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
nesslc=$(abspath "$nesslc")
[ -n "$unit_dir" ] && unit_dir=$(abspath "$unit_dir")

matches() {
    [ ${#filters[@]} -eq 0 ] && return 0
    local f
    for f in "${filters[@]}"; do
        [[ $1 == *"$f"* ]] && return 0
    done
    return 1
}

# Mode c: the options of NAME.args that the executable takes (--stats), or
# failure when NAME.args asks for something else (--emit=...).
c_run_opts() {   # args file
    local w out=
    for w in $(cat "$1"); do
        case $w in
            --interp|--interp=*|--form-kernels|--print-length=*|-ffloat32) ;;
            --stats|--stats=kernels) out="$out $w" ;;
            *) return 1 ;;
        esac
    done
    echo "$out"
}

# Mode c: the options of NAME.args for the build (--print-length=N, -ffloat32).
c_build_opts() {   # args file
    local w out=
    for w in $(cat "$1"); do
        case $w in
            --print-length=*|-ffloat32) out="$out $w" ;;
        esac
    done
    echo "$out"
}

# Run a generated executable in mode c: 4 OpenMP threads whatever the
# machine, and at most 4 GB of memory, which catches a runtime that leaks
# (tests/codegen/deep_recursion.lcu).
c_exec() {   # dir, executable, options...
    local d=$1 exe=$2
    shift 2
    (cd "$d" && { ulimit -v 4194304 2>/dev/null; true; } && OMP_NUM_THREADS=4 exec timeout "$limit" "$exe" "$@")
}

# Tests mode c skips: NAME.args it cannot honour, and λcu files with
# host-bridge library calls (lib NAME "TAG" with a tag): the bridge exists
# only for the NESL programs it was made for (their types).
c_skip() {   # test path
    local a=${1%.*}.args
    [ -f "$a" ] && ! c_run_opts "$a" >/dev/null && return 0
    [ -f "$a" ] && grep -q -- -ffloat32 "$a" && ! f32_compiled "$a" && return 0
    [[ $1 == *.lcu ]] && grep -q 'lib [A-Za-z_0-9]* *"[^"]' "$1" && return 0
    return 1
}

# NAME.args with -ffloat32 and no --interp/--emit: a single-precision
# program, for the compiled modes only (with an interpreter or --emit it is
# an error test of the driver, for the interpreter modes only).
f32_compiled() {   # args file
    [ -f "$1" ] && grep -q -- -ffloat32 "$1" && ! grep -q -e --interp -e --emit "$1"
}

exact_cmp() { cmp -s "$1" "$2"; }
float_cmp() { python3 "$root/tests/float_cmp.py" "$1" "$2"; }

# ---- collect tests: parallel arrays, in a deterministic order ----
kinds=() names=() args=()
if [ "$unit_only" = 0 ]; then
    if [ ! -x "$nesslc" ]; then
        echo "run_tests.sh: no compiler at $nesslc (run make first)" >&2
        echo "0 passed, 1 failed"
        exit 1
    fi
    while IFS= read -r t; do
        t=${t#./}
        [ -f "$root/${t%.*}.expected" ] || continue
        matches "$t" || continue
        # A test with its own options (NAME.args) or a λcu file is the same
        # run in every interpreter mode: it runs once.  Mode c runs every
        # test once more, except those it cannot run (c_skip).
        once=0
        for m in "${modes[@]}"; do
            # tests/fusion/NAME.lcu with NAME.values: the program's values,
            # with kernels formed, at -O0 and -O (run_values)
            if [ -f "$root/${t%.*}.values" ] && [ "$m" != interp ] && [ "$m" != cuda-compile ]; then
                kinds+=(values); names+=("$t"); args+=("$m")
            fi
            if [ "$m" = c ] || [ "$m" = c0 ] || [ "$m" = cuda ] || [ "$m" = cuda0 ] || [ "$m" = cuda-compile ]; then
                c_skip "$root/$t" && continue
                # a NESL test of --stats counts states them for the default -O
                [ "${m%0}" != "$m" ] && [[ $t == *.nesl ]] && [ -f "$root/${t%.*}.args" ] &&
                    grep -q -- --stats "$root/${t%.*}.args" && continue
                # bit-exact float checks (// nesslc-test: exact-floats) cannot hold on the GPU
                [ "${m%0}" = cuda ] && grep -q 'nesslc-test: exact-floats' "$root/$t" && continue
            else
                [ $once = 1 ] && continue
                # -ffloat32 tests (tests/float32) expect single-precision
                # answers: only the compiled modes run them
                f32_compiled "$root/${t%.*}.args" && continue
                [ -f "$root/${t%.*}.args" ] && once=1
                [[ $t == *.lcu ]] && once=1
            fi
            kinds+=(prog); names+=("$t"); args+=("$m")
        done
    done < <(cd "$root" && { find tests -name '*.nesl' -type f 2>/dev/null
                             find tests/lcu tests/codegen tests/fusion tests/float32 -name '*.lcu' -type f 2>/dev/null
                             find examples -maxdepth 1 -name '*.nesl' -type f 2>/dev/null; } |
             LC_ALL=C sort)
fi
if [ -n "$unit_dir" ] && [ -d "$unit_dir" ]; then
    for u in "$unit_dir"/*; do
        [ -f "$u" ] && [ -x "$u" ] || continue
        matches "${u##*/}" || continue
        kinds+=(unit); names+=("unit/${u##*/}"); args+=("$u")
    done
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/nesslc-tests.XXXXXX") || exit 1
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
trap 'kill $(jobs -p) 2>/dev/null; exit 130' INT TERM

# A result is two files: $i.res (PASS or FAIL) and $i.log (the report).
report_fail() {   # i, title, status, expected-file, actual-file
    {
        echo "FAIL: $2 (exit status $3)"
        if [ -n "$4" ]; then
            diff -u --label expected --label actual "$4" "$5" | head -n 40
        else
            tail -n 40 "$5"
        fi
        echo
    } >"$tmp/$1.log"
    echo FAIL >"$tmp/$1.res"
}

# -O0 for a .lcu test whose .args asks for --stats of the program as written
# (no --form-kernels): its counts are those of the unfused kernels.
olevel_for() {   # args file, mode
    case $2 in c0|cuda0) echo -O0; return ;; esac
    [ -f "$1" ] && [ -f "${1%.args}.lcu" ] && grep -q -- --stats "$1" && ! grep -q -- --form-kernels "$1" && echo -O0
}

run_prog() {   # i, test path, mode
    local i=$1 t=$2 mode=$3
    local dir=$root/${t%/*} base=${t##*/} file=${t##*/}
    base=${base%.*}
    local exp=$dir/$base.expected out=$tmp/$i.out opts title=$t
    [ ${#modes[@]} -gt 1 ] && title="$t [$mode]"
    if [ -f "$dir/$base.args" ]; then
        opts=$(tr '\n' ' ' <"$dir/$base.args")
    else
        opts=$(mode_opts "$mode")
    fi
    # $opts is split into words on purpose; -f keeps it from globbing.
    set -f
    local st
    local compare=exact_cmp
    if [ "$mode" = cuda-compile ]; then
        # the build alone: success, or the expected compile-time diagnostics
        local bopts=
        [ -f "$dir/$base.args" ] && bopts=$(c_build_opts "$dir/$base.args")
        # The check is that nvcc compiles the code (mode cuda builds it as it
        # runs): PTX alone (compute_90: no ptxas) at -O0 unless
        # NESSLC_NVCCFLAGS says otherwise, 3x faster (doc/codegen.md)
        (cd "$dir" && NESSLC_NVCCFLAGS=${NESSLC_NVCCFLAGS-"-O0 -Xcicc -O0"} \
            exec timeout "$limit" "$nesslc" --target=cuda -arch=compute_90 $bopts $(olevel_for "$dir/$base.args" "$mode") -o "$tmp/$i.exe" "$file") >"$out" 2>&1
        st=$?
        rm -f "$tmp/$i.exe"
        set +f
        # a build passes when it prints nothing, or only the front end's
        # warnings that start the expected output; nvcc's are not there
        if [ $st -eq 0 ] && { [ ! -s "$out" ] || head -c "$(wc -c <"$out")" "$exp" | cmp -s - "$out"; }; then
            echo "PASS: $title" >"$tmp/$i.log"
            echo PASS >"$tmp/$i.res"
            return
        fi
        [ $st -eq 0 ] && st=1   # a build that prints something else fails
    elif [ "$mode" = cuda ] || [ "$mode" = cuda0 ]; then
        opts=
        local bopts=
        [ -f "$dir/$base.args" ] && opts=$(c_run_opts "$dir/$base.args") && bopts=$(c_build_opts "$dir/$base.args")
        (cd "$dir" && exec timeout "$limit" "$nesslc" --target=cuda $bopts $(olevel_for "$dir/$base.args" "$mode") -o "$tmp/$i.exe" "$file") >"$out" 2>&1
        st=$?
        if [ $st -eq 0 ]; then
            (cd "$dir" && exec timeout "$limit" "$tmp/$i.exe" $opts) >"$out.run" 2>&1
            st=$?
            cat "$out.run" >>"$out"
            # --rerun: the same executable under other settings of its
            # runtime (the block-local tail's, say) must say the same, up
            # to the float tolerance (a sum may be folded in another order)
            local rerun st2 st1=$st
            for rerun in "${reruns[@]}"; do
                [ $st1 -eq 124 ] && break
                (cd "$dir" && exec env $rerun timeout "$limit" "$tmp/$i.exe" $opts) >"$out.again" 2>&1
                st2=$?
                if [ $st2 -ne $st1 ] || ! float_cmp "$out.run" "$out.again"; then
                    echo "(run again with $rerun: exit status $st2, output:)" >>"$out"
                    cat "$out.again" >>"$out"
                    [ $st -eq 0 ] && st=1
                fi
            done
            rm -f "$out.run" "$out.again"
        fi
        rm -f "$tmp/$i.exe"
        compare=float_cmp
    elif [ "$mode" = c ] || [ "$mode" = c0 ]; then
        # build (the compiler's output is part of the result), then run
        opts=
        local bopts=
        [ -f "$dir/$base.args" ] && opts=$(c_run_opts "$dir/$base.args") && bopts=$(c_build_opts "$dir/$base.args")
        # --stats of a .lcu run as written (no --form-kernels) counts the
        # unfused kernels: the build must not fuse either.
        (cd "$dir" && exec timeout "$limit" "$nesslc" --target=c $bopts $(olevel_for "$dir/$base.args" "$mode") -o "$tmp/$i.exe" "$file") >"$out" 2>&1
        st=$?
        if [ $st -eq 0 ]; then
            c_exec "$dir" "$tmp/$i.exe" $opts >>"$out" 2>&1
            st=$?
        fi
        # tests/codegen: also built without OpenMP, with the same result
        if [ $st -ne 124 ] && [[ $t == tests/codegen/* ]]; then
            local seq=$tmp/$i.seq st2
            (cd "$dir" && exec timeout "$limit" "$nesslc" --target=c --no-openmp $(olevel_for "$dir/$base.args" "$mode") -o "$seq.exe" "$file") >"$seq.out" 2>&1
            st2=$?
            if [ $st2 -eq 0 ]; then
                c_exec "$dir" "$seq.exe" $opts >>"$seq.out" 2>&1
                st2=$?
            fi
            if [ $st2 -ne $st ] || ! cmp -s "$out" "$seq.out"; then
                echo "(built without OpenMP: exit status $st2, output:)" >>"$out"
                cat "$seq.out" >>"$out"
            fi
            rm -f "$seq.exe" "$seq.out"
        fi
        rm -f "$tmp/$i.exe"
    else
        (cd "$dir" && exec timeout "$limit" "$nesslc" $opts "$file") >"$out" 2>&1
        st=$?
    fi
    set +f
    local want_err=0
    grep -q -e 'error:' -e 'RUNTIME ERROR' "$exp" && want_err=1
    if [ $st -eq 124 ]; then
        echo "(timed out after $limit s)" >>"$out"
        report_fail "$i" "$title" "$st" "$exp" "$out"
    elif ! $compare "$exp" "$out"; then
        report_fail "$i" "$title" "$st" "$exp" "$out"
    elif [ $want_err = 1 ] && [ $st -eq 0 ]; then
        report_fail "$i" "$title: output matches but exit status should be nonzero" "$st" "" "$out"
    elif [ $want_err = 0 ] && [ $st -ne 0 ]; then
        report_fail "$i" "$title: output matches but exit status should be 0" "$st" "" "$out"
    else
        echo "PASS: $title" >"$tmp/$i.log"
        echo PASS >"$tmp/$i.res"
    fi
}

# tests/fusion: the values of NAME.lcu with its kernels formed, fused or
# not, in one executor, against NAME.values (derived by hand).
run_values() {   # i, test path, mode
    local i=$1 t=$2 mode=$3
    local dir=$root/${t%/*} file=${t##*/}
    local exp=$dir/${file%.lcu}.values out=$tmp/$i.out st compare=exact_cmp
    local title="$t [values, $mode]" olev=
    case $mode in *0) olev=-O0 ;; esac
    case $mode in
        lcu|lcu0)
            (cd "$dir" && exec timeout "$limit" "$nesslc" --form-kernels $olev --interp=lcu "$file") >"$out" 2>&1
            st=$? ;;
        c|c0|cuda|cuda0)
            local target=c
            [ "${mode%0}" = cuda ] && target=cuda && compare=float_cmp
            (cd "$dir" && exec timeout "$limit" "$nesslc" --target=$target --form-kernels $olev -o "$tmp/$i.exe" "$file") >"$out" 2>&1
            st=$?
            if [ $st -eq 0 ]; then
                if [ $target = c ]; then c_exec "$dir" "$tmp/$i.exe" >>"$out" 2>&1
                else (cd "$dir" && exec timeout "$limit" "$tmp/$i.exe") >>"$out" 2>&1; fi
                st=$?
            fi
            rm -f "$tmp/$i.exe" ;;
        *) st=2; echo "run_values: no mode $mode" >"$out" ;;
    esac
    if [ $st -ne 0 ] || ! $compare "$exp" "$out"; then
        report_fail "$i" "$title" "$st" "$exp" "$out"
    else
        echo "PASS: $title" >"$tmp/$i.log"
        echo PASS >"$tmp/$i.res"
    fi
}

run_unit() {   # i, name, binary
    local out=$tmp/$1.out st
    (cd "$root" && NESSLC=$nesslc exec timeout "$limit" "$3") >"$out" 2>&1
    st=$?
    if [ $st -eq 0 ]; then
        echo "PASS: $2" >"$tmp/$1.log"
        echo PASS >"$tmp/$1.res"
    else
        [ $st -eq 124 ] && echo "(timed out after $limit s)" >>"$out"
        report_fail "$1" "$2" "$st" "" "$out"
    fi
}

# ---- run in parallel; results are printed afterwards in list order ----
n=${#kinds[@]}
running=0
for ((i = 0; i < n; i++)); do
    if [ "${kinds[i]}" = prog ]; then
        run_prog "$i" "${names[i]}" "${args[i]}" &
    elif [ "${kinds[i]}" = values ]; then
        run_values "$i" "${names[i]}" "${args[i]}" &
    else
        run_unit "$i" "${names[i]}" "${args[i]}" &
    fi
    running=$((running + 1))
    if [ $running -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait

passed=0 failed=0
for ((i = 0; i < n; i++)); do
    res=; read -r res 2>/dev/null <"$tmp/$i.res"
    if [ "$res" = PASS ]; then
        passed=$((passed + 1))
        [ $verbose = 1 ] && cat "$tmp/$i.log"
    else
        failed=$((failed + 1))
        if [ -f "$tmp/$i.log" ]; then cat "$tmp/$i.log"
        else echo "FAIL: ${names[i]} (harness error: no result)"; echo; fi
    fi
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
