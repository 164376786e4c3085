/* test_pos_unstored.c — which FILTERs the CUDA target leaves their kept
 * positions to the rank words, unstored (cudagen/gen_uses.c,
 * SoacGen.pos_dead): those whose positions output the host reads only as
 * filter_sd's kept vector or by #, at every run of the kernel, and no
 * later SOAC of the kernel reads.  The values are checked by
 * tests/codegen/pos_unstored.lcu and tests/codegen/sd_fused.lcu in every
 * executor; this checks the choice, in the generated CUDA (quicksort's
 * lifted FILTERs: tests/unit/test_filters_one_launch.c).  Uses $NESSLC.
 * Exit status 0 iff every check passes. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unit_shell.h"

/* K's positions p go to filter_sd; VEC and LEN are what else main
 * returns, and K's second SOAC (READ) may read them. */
static const char *prog_fmt =
    "kernel K (xs : [int], n : int) -> ([int], [int], [int]) {\n"
    "  let (p, v) = FILTER { i => (i, xs[i]) using xs } { (j, x) => x > 10 } (n)\n"
    "  let w = MAP { i => %s } (n)\n"
    "  return (p, v, w)\n"
    "}\n"
    "function main () -> ([int], [int], [int], int) {\n"
    "  let xs : [int] = [10, 11, 12, 13]\n"
    "  let s : sd = make_sd ([1, 3], 4)\n"
    "  let (p : [int], v : [int], w : [int]) = run K (xs, 4)\n"
    "  let t : sd = filter_sd (s, p)\n"
    "  return (lengths (t), v, %s, %s)\n"
    "}\n";

static int fails;

int main(void)
{
    const char *nesslc = unit_nesslc();
    char dir[] = "/tmp/nesl_pos_unstored_XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    static const struct { const char *name, *read, *vec, *len; long unstored; } cases[] = {
        { "only_sd", "xs[i] using xs", "w", "0", 1 },
        { "length", "xs[i] using xs", "w", "#p", 1 },   /* # reads the count, not the positions */
        { "indexed", "xs[i] using xs", "w", "p[0]", 0 },
        { "returned", "xs[i] using xs", "p", "0", 0 },
        { "kernel_reads", "p[i / 2] using p", "w", "0", 0 },   /* a later SOAC of the kernel reads them */
    };
    char text[2048], file[64], what[128];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(text, sizeof text, prog_fmt, cases[i].read, cases[i].vec, cases[i].len);
        snprintf(file, sizeof file, "%s.lcu", cases[i].name);
        if (!unit_write(dir, file, text)) return 1;
        snprintf(what, sizeof what, "%s: FILTERs leaving their positions to the rank words", cases[i].name);
        unit_expect(&fails, what, unit_count_cuda(nesslc, dir, file, "-O0", "nesl_cu_kept_rank_only("), cases[i].unstored);
        snprintf(what, sizeof what, "%s: FILTERs storing their positions with rank words", cases[i].name);
        unit_expect(&fails, what, unit_count_cuda(nesslc, dir, file, "-O0", "nesl_cu_kept_rank("), 1 - cases[i].unstored);
    }
    /* tests/codegen/pos_unstored.lcu: Two's two FILTERs and One's are
     * unstored; Both's positions are returned at one of its two runs */
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cp tests/codegen/pos_unstored.lcu %s/", dir);
    if (system(cmd) != 0) { printf("FAIL: cannot copy tests/codegen/pos_unstored.lcu\n"); return 1; }
    unit_expect(&fails, "pos_unstored.lcu: unstored", unit_count_cuda(nesslc, dir, "pos_unstored.lcu", "-O0", "nesl_cu_kept_rank_only("), 3);
    unit_expect(&fails, "pos_unstored.lcu: stored", unit_count_cuda(nesslc, dir, "pos_unstored.lcu", "-O0", "nesl_cu_kept_rank("), 1);
    return unit_finish(dir, "test_pos_unstored", fails);
}
