/* test_filters_one_launch.c — which FILTERs the CUDA target runs in one
 * launch (cudagen/gen_kernel.c gen_filters): consecutive FILTERs of a
 * kernel's count group over the same size expression whose pulls are the
 * same up to names (lcu_thunk_alpha_equal).  The programs' results are
 * checked by tests/lang/lifted_filters_one_launch.nesl and
 * tests/codegen/filters_one_launch_errors.lcu in every executor; this
 * checks the choice itself, in the generated CUDA (-O0: the kernels as
 * written).  Also which FILTERs keep rank words for filter_sd: those
 * whose pull has the index itself as a component (gen_kernel.c
 * filter_pos_comp; tests/codegen/kept_rank.lcu checks the values).  Uses
 * $NESSLC.  Exit status 0 iff every check passes. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unit_shell.h"

/* FILTERs 1 and 2 pull (i, xs[i]) under other names: one launch; FILTER
 * 3 pulls xs[i] + 1, or (SIZE) iterates over another size expression, or
 * (READS) reads FILTER 1's result, and runs on its own. */
static const char *prog_fmt =
    "kernel Parts (xs : [int], a : [bool], n : int) -> ([int], [int], [int], [int], [int], [int]) {\n"
    "  let (p1, v1) = FILTER { i => (i, xs[i]) using xs } { (j, x) => a[j] using a } (n)\n"
    "  let (p2, v2) = FILTER { k => (k, xs[k]) using xs } { (j, x) => x > 10 } (n)\n"
    "  let (p3, v3) = FILTER { i => (i, xs[i]%s) using xs } { (j, x) => %s } (%s)\n"
    "  return (p1, v1, p2, v2, p3, v3)\n"
    "}\n"
    "function main () -> ([int], [int], [int], [int], [int], [int]) {\n"
    "  let xs : [int] = [10, 11, 12, 13]\n"
    "  let a : [bool] = [true, false, true, false]\n"
    "  let (p1 : [int], v1 : [int], p2 : [int], v2 : [int], p3 : [int], v3 : [int]) = run Parts (xs, a, 4)\n"
    "  return (p1, v1, p2, v2, p3, v3)\n"
    "}\n";

static const char *parts3 =
    "function parts3(s, p) = ({e in s | e < p}, {e in s | e == p}, {e in s | e > p});\n"
    "{parts3(s, p) : s in [[3, 1, 4], [2]]; p in [3, 2]};\n";

/* FILTERs whose pulls have no component that is the index itself (an
 * expression of it, a PARTITION): no rank words. */
static const char *no_positions =
    "kernel K (xs : [int], n : int) -> ([int], [int], [int], [int]) {\n"
    "  let (a, b) = FILTER { i => (i + 0, xs[i]) using xs } { (j, x) => x > 10 } (n)\n"
    "  let (c, d) = PARTITION { i => i } { j => j > 1 } (n)\n"
    "  return (a, b, c, d)\n"
    "}\n"
    "function main () -> ([int], [int], [int], [int]) {\n"
    "  let xs : [int] = [10, 11, 12, 13]\n"
    "  let (a : [int], b : [int], c : [int], d : [int]) = run K (xs, 4)\n"
    "  return (a, b, c, d)\n"
    "}\n";

static int fails;

int main(void)
{
    const char *nesslc = unit_nesslc();
    char dir[] = "/tmp/nesl_filters_one_launch_XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    static const struct { const char *name, *pull, *pred, *size; long multi2, multi3, single; } cases[] = {
        { "same", "", "x < 13", "n", 0, 1, 0 },
        { "pull", " + 1", "x < 13", "n", 1, 0, 1 },
        { "size", "", "x < 13", "#xs", 1, 0, 1 },
        { "reads", "", "j < #p1 using p1", "n", 1, 0, 1 },
    };
    char text[2048], file[64], what[128];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(text, sizeof text, prog_fmt, cases[i].pull, cases[i].pred, cases[i].size);
        snprintf(file, sizeof file, "%s.lcu", cases[i].name);
        if (!unit_write(dir, file, text)) return 1;
        snprintf(what, sizeof what, "%s: launches of two FILTERs", cases[i].name);
        unit_expect(&fails, what, unit_count_cuda(nesslc, dir, file, "-O0", "nesl_cu_filter_multi_later<2>("), cases[i].multi2);
        snprintf(what, sizeof what, "%s: launches of three FILTERs", cases[i].name);
        unit_expect(&fails, what, unit_count_cuda(nesslc, dir, file, "-O0", "nesl_cu_filter_multi_later<3>("), cases[i].multi3);
        snprintf(what, sizeof what, "%s: FILTERs launched alone", cases[i].name);
        unit_expect(&fails, what, unit_count_cuda(nesslc, dir, file, "-O0", "nesl_cu_filter_later<false>(\\|nesl_cu_filter<false>("), cases[i].single);
    }
    /* quicksort's lesser, equal and greater, lifted: one launch; without
     * fusion (-O0) each FILTER is a kernel of its own, three launches */
    if (!unit_write(dir, "parts3.nesl", parts3)) return 1;
    unit_expect(&fails, "lifted parts3: launches of three FILTERs", unit_count_cuda(nesslc, dir, "parts3.nesl", "", "nesl_cu_filter_multi_later<3>("), 1);
    unit_expect(&fails, "lifted parts3 -O0: launches of three FILTERs", unit_count_cuda(nesslc, dir, "parts3.nesl", "-O0", "nesl_cu_filter_multi_later<3>("), 0);
    /* rank words: each of parts3's FILTERs keeps its positions (i, s[i]);
     * Parts' three pull (i, xs[i]) */
    unit_expect(&fails, "lifted parts3: FILTERs with rank words", unit_count_cuda(nesslc, dir, "parts3.nesl", "", "nesl_cu_kept_rank\\(_only\\)\\?("), 3);
    /* ... and nothing but filter_sd reads those positions: not stored (tests/unit/test_pos_unstored.c) */
    unit_expect(&fails, "lifted parts3: positions left to the rank words", unit_count_cuda(nesslc, dir, "parts3.nesl", "", "nesl_cu_kept_rank_only("), 3);
    unit_expect(&fails, "same: FILTERs with rank words", unit_count_cuda(nesslc, dir, "same.lcu", "-O0", "nesl_cu_kept_rank("), 3);
    if (!unit_write(dir, "no_positions.lcu", no_positions)) return 1;
    unit_expect(&fails, "no positions: FILTERs with rank words", unit_count_cuda(nesslc, dir, "no_positions.lcu", "-O0", "nesl_cu_kept_rank("), 0);
    unit_expect(&fails, "no positions: its FILTER and PARTITION", unit_count_cuda(nesslc, dir, "no_positions.lcu", "-O0", "nesl_cu_filter_later<"), 2);
    return unit_finish(dir, "test_filters_one_launch", fails);
}
