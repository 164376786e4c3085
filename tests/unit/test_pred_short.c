/* test_pred_short.c — which FILTER and PARTITION predicates lose their
 * per-element check (cudagen/gen_kernel.c clamp_pred): a vector read at
 * the index (the predicate's parameter of the pull's component that is
 * the index) on every path, where neither the pull nor anything else of
 * the predicate can fail; its error is then recorded before the launch
 * (nesl_cu_index_short; in a group of FILTERs in one launch, by
 * nesl_cu_filter_multi_later from nesl_filter_out's length and name).
 * The values and errors are checked by tests/codegen/pred_short_ok.lcu
 * and err_pred_short*.lcu in every executor; this checks the choice, in
 * the generated CUDA.  Uses $NESSLC.  Exit status 0 iff every check
 * passes. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unit_shell.h"

static const char *prog_fmt =
    "kernel K (v : [int], f : [bool], g : [bool], x : int, n : int) -> ([int], [int]) {\n"
    "  %s\n"
    "}\n"
    "function main () -> ([int], [int]) {\n"
    "  let v : [int] = [1, 2, 3, 4]\n"
    "  let f : [bool] = [true, false, true, true]\n"
    "  let g : [bool] = [false, true, true, false]\n"
    "  return run K (v, f, g, 2, 4)\n"
    "}\n";

#define PULL "{ i => (i, v[i]) using v }"

static int fails;

int main(void)
{
    const char *nesslc = unit_nesslc();
    char dir[] = "/tmp/nesl_pred_short_XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    static const struct { const char *name, *body; long short_reads, group_reads, checks; } cases[] = {
        { "filter", "let (a, y) = FILTER " PULL " { (j, z) => f[j] using f } (#v)\n  return (a, y)", 1, 0, 0 },
        { "partition", "let (a, y, b, w) = PARTITION " PULL " { (j, z) => f[j] using f } (#v)\n  return (a, b)", 1, 0, 0 },
        { "index_second", "let (y, a) = FILTER { i => (v[i], i) using v } { (z, j) => f[j] using f } (#v)\n  return (a, y)", 1, 0, 0 },
        /* the pull may fail (v read over n): its error must come first */
        { "pull_may_fail", "let (a, y) = FILTER { i => (i, v[i]) using v } { (j, z) => f[j] using f } (n)\n  return (a, y)", 0, 0, 2 },
        { "value_not_index", "let (a, y) = FILTER " PULL " { (j, z) => f[z] using f } (#v)\n  return (a, y)", 0, 0, 1 },
        { "two_vectors", "let (a, y) = FILTER " PULL " { (j, z) => f[j] == g[j] using f, g } (#v)\n  return (a, y)", 0, 0, 2 },
        { "may_fail_else", "let (a, y) = FILTER " PULL " { (j, z) => f[j] == (10 / x > 1) using f, x } (#v)\n  return (a, y)", 0, 0, 1 },
        { "conditional", "let (a, y) = FILTER " PULL " { (j, z) => if z > 2 then f[j] else false using f } (#v)\n  return (a, y)", 0, 0, 1 },
        { "shadowed", "let (a, y) = FILTER " PULL " { (j, z) => let j = 0 in f[j] using f } (#v)\n  return (a, y)", 0, 0, 1 },
        { "group", "let (a, y) = FILTER " PULL " { (j, z) => f[j] using f } (#v)\n"
                   "  let (b, w) = FILTER " PULL " { (j, z) => g[j] using g } (#v)\n  return (y, w)", 0, 2, 0 },
    };
    char text[2048], file[64], what[128];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(text, sizeof text, prog_fmt, cases[i].body);
        snprintf(file, sizeof file, "%s.lcu", cases[i].name);
        if (!unit_write(dir, file, text)) return 1;
        snprintf(what, sizeof what, "%s: checked before the launch (CUDA)", cases[i].name);
        unit_expect(&fails, what, unit_count_cuda(nesslc, dir, file, "-O0", "nesl_cu_index_short("), cases[i].short_reads);
        snprintf(what, sizeof what, "%s: checked by the group's launch (CUDA)", cases[i].name);
        unit_expect(&fails, what, unit_count_cuda(nesslc, dir, file, "-O0", "nesl_filter_out([^)]*, \"[fg]\")"), cases[i].group_reads ? 1 : 0);
        if (cases[i].group_reads) {
            snprintf(what, sizeof what, "%s: both FILTERs' vectors named (CUDA)", cases[i].name);
            unit_expect(&fails, what, unit_count_cuda(nesslc, dir, file, "-O0", "\"f\")[^\"]*\"g\")"), 1);
        }
        snprintf(what, sizeof what, "%s: per-element checks (CUDA)", cases[i].name);
        unit_expect(&fails, what, unit_count_cuda(nesslc, dir, file, "-O0", "nesl_ck_index(derr"), cases[i].checks);
    }
    return unit_finish(dir, "test_pred_short", fails);
}
