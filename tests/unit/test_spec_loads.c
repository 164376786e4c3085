/* test_spec_loads.c — which reads of a device thunk the CUDA back end
 * loads at its top under a bounds select (cudagen/gen_spec.c,
 * nesl_spec_ld): in-range reads at indices that depend only on the
 * element's segment id (or on nothing that varies), when one of them is
 * read under a branch; never a read at the element's own index, a checked
 * read, a division by a variable, or a read at a predicate's pulled
 * element.  Values, including an untaken arm's index past its vector, are
 * checked by tests/codegen/spec_loads.lcu in every executor and under
 * memcheck on the GPU; this checks the choice, in the generated CUDA.
 * Uses $NESSLC.  Exit status 0 iff every check passes. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unit_shell.h"

static const char *prog_fmt =
    "kernel K (ids : [int], o : [int], q : [int], f : [int], a : [int], x : int) -> [int] {\n"
    "  %s\n"
    "}\n"
    "function main () -> [int] {\n"
    "  let l : [int] = [2, 0, 3, 1]\n"
    "  let s : sd = make_sd (l)\n"
    "  let ids : [int] = segids (s)\n"
    "  let o : [int] = offsets (s)\n"
    "  let a : [int] = [10, 20, 30, 40]\n"
    "  let q : [int] = [0, 1, 2, 3]\n"
    "  let f : [int] = [5, 6, 7, 8]\n"
    "  return run K (ids, o, q, f, a, 2)\n"
    "}\n";

#define USING " using ids, o, q, f, a, x } (#ids)\n  return r"

static int fails;

int main(void)
{
    const char *nesslc = unit_nesslc();
    char dir[] = "/tmp/nesl_spec_loads_XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    static const struct { const char *name, *body; long spec; } cases[] = {
        /* o, a, q and f (through q) at the segment id, under an if */
        { "branch", "let r = MAP { i => if i - o.[ids[i]] == 0 then a.[ids[i]] else f.[q.[ids[i]]]" USING, 4 },
        /* every read on every path: nothing to move */
        { "no_branch", "let r = MAP { i => a.[ids[i]] + o.[ids[i]]" USING, 0 },
        /* a.[i] is the element's own: only o moves */
        { "element_index", "let r = MAP { i => if i == 0 then a.[i] else o.[ids[i]]" USING, 1 },
        /* a checked read keeps its place and its check */
        { "checked", "let r = MAP { i => if i == 0 then a[ids[i]] else 0" USING, 0 },
        { "div_literal", "let r = MAP { i => if i == 0 then a.[ids[i] / 2] else 0" USING, 1 },
        { "div_variable", "let r = MAP { i => if i == 0 then a.[ids[i] / x] else 0" USING, 0 },
        /* a short-circuit operand is a branch too; x is the same for all */
        { "and_operand", "let r = MAP { i => if i > 0 && q.[x] > 0 then 1 else 0" USING, 1 },
        /* a predicate's index is its parameter j only where its read of f
         * at j is clamped (gen_kernel.c clamp_pred); its pulled element z
         * varies with the index, x does not */
        { "pred_scalar", "let (r, y) = FILTER { i => (i, a[i]) using a } { (j, z) => if f[j] > 6 then q.[x] > 0 else false using f, q, x } (#a)\n"
                         "  return r", 1 },
        { "pred_element", "let (r, y) = FILTER { i => (i, a[i]) using a } { (j, z) => if f[j] > 6 then q.[z - 10] > 0 else false using f, q } (#a)\n"
                          "  return r", 0 },
        { "pred_unclamped", "let (r, y) = FILTER { i => (i, a[i]) using a } { (j, z) => if z > 15 then q.[x] > 0 else false using q, x } (#a)\n"
                            "  return r", 0 },
    };
    char text[2048], file[64], what[128];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(text, sizeof text, prog_fmt, cases[i].body);
        snprintf(file, sizeof file, "%s.lcu", cases[i].name);
        if (!unit_write(dir, file, text)) return 1;
        snprintf(what, sizeof what, "%s: reads loaded at the top (CUDA)", cases[i].name);
        unit_expect(&fails, what, unit_count_cuda(nesslc, dir, file, "-O0", "= nesl_spec_ld("), cases[i].spec);
    }
    return unit_finish(dir, "test_spec_loads", fails);
}
