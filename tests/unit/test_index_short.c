/* test_index_short.c — which reads at a SOAC's index lose their
 * per-element check (cudagen/gen_kernel.c clamp_read): a vector read at
 * the index on every path, not known to be as long as the size, in a
 * MAP, REDUCE, SCAN, FILTER or PARTITION that can fail no other way; its
 * error is then recorded before the launch (nesl_index_short,
 * nesl_cu_index_short).  The values and errors are checked by
 * tests/codegen/index_short_ok.lcu and err_index_short_*.lcu in every
 * executor; this checks the choice, in the generated C and CUDA.  Uses
 * $NESSLC.  Exit status 0 iff every check passes. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unit_shell.h"

static const char *prog_fmt =
    "kernel K (v : [int], w : [int], x : int, n : int) -> [int] {\n"
    "  let a = %s\n"
    "  return a\n"
    "}\n"
    "function main () -> [int] {\n"
    "  let v : [int] = [1, 2, 3, 4]\n"
    "  let w : [int] = [5, 6, 7, 8]\n"
    "  return run K (v, w, 2, 4)\n"
    "}\n";

static int fails;

int main(void)
{
    const char *nesslc = unit_nesslc();
    char dir[] = "/tmp/nesl_index_short_XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    static const struct { const char *name, *soac; long short_reads, checks; } cases[] = {
        { "map", "MAP { i => v[i] + 1 using v } (n)", 1, 0 },
        { "size_is_len", "MAP { i => v[i] + 1 using v } (#v)", 0, 0 },   /* in range already */
        { "conditional", "MAP { i => if i < 2 then v[i] else 0 using v } (n)", 0, 1 },
        { "short_circuit", "MAP { i => btoi (i < 2 && v[i] > 0) using v } (n)", 0, 1 },
        { "two_vectors", "MAP { i => v[i] + w[i] using v, w } (n)", 0, 2 },
        { "may_fail_else", "MAP { i => v[i] / x using v, x } (n)", 0, 1 },   /* a division by zero may come first */
        { "literal_divisor", "MAP { i => v[i] / 2 using v } (n)", 1, 0 },
        { "shadowed", "MAP { i => let i = 0 in v[i] using v } (n)", 0, 1 },
        { "scan", "SCAN { i => v[i] using v } (0) { (p, q) => p + q } (n)", 1, 0 },
        { "permute", "PERMUTE { i => v[i] using v } { i => 3 - i } (n)", 0, 1 },
    };
    char text[2048], file[64], what[128];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(text, sizeof text, prog_fmt, cases[i].soac);
        snprintf(file, sizeof file, "%s.lcu", cases[i].name);
        if (!unit_write(dir, file, text)) return 1;
        snprintf(what, sizeof what, "%s: reads checked before the launch (CUDA)", cases[i].name);
        unit_expect(&fails, what, unit_count_cuda(nesslc, dir, file, "-O0", "nesl_cu_index_short("), cases[i].short_reads);
        snprintf(what, sizeof what, "%s: per-element checks (CUDA)", cases[i].name);
        unit_expect(&fails, what, unit_count_cuda(nesslc, dir, file, "-O0", "nesl_ck_index(derr"), cases[i].checks);
    }
    return unit_finish(dir, "test_index_short", fails);
}
