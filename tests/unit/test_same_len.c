/* test_same_len.c — fusion's equal-length facts (LcuSoac.same_len) reach
 * the code generators: in a zip `{x * y : x in xs; y in ys}` both
 * subscripts of the fused REDUCE's pull are unchecked, each length is
 * verified once on the host (nesl_same_len), and the program still reports
 * the length mismatch.  Without fusion (-O0) the subscripts stay checked
 * (only the sum's own read is unchecked), so the pattern test can fail.  Uses $NESSLC (the harness sets it).
 * Exit status 0 iff every check passes. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unit_shell.h"

/* The inputs are ranges, not literals: a literal is built by
 * concatenations whose reads are in range by construction, so they would
 * add unchecked loads to the count. */
static const char *prog =
    "function dot(xs, ys) = sum({x * y : x in xs; y in ys});\n"
    "dot({float(i) : i in [1:4]}, {float(i) : i in [4:7]});\n"
    "dot({float(i) : i in [1:3]}, {float(i) : i in [4:7]});\n";

/* an unchecked load at the SOAC's index (a thunk's in-range reads are
 * loaded at its top, cudagen/gen_expr.c): the fused pull has two, the
 * product's operands; unfused, only the REDUCE's pull of the products */
#define UNCHECKED "'^ *double [a-z_0-9]+ = [a-z_0-9]+_d_[0-9]+\\[\\(int32_t\\)[a-z_0-9]+\\];$'"

static int fails;


static void expect(const char *what, long got, long lo, long hi)
{
    if (got < lo || got > hi) {
        printf("FAIL: %s: %ld (expected %ld..%ld)\n", what, got, lo, hi);
        fails++;
    }
}

int main(void)
{
    const char *nesslc = unit_nesslc();
    char dir[] = "/tmp/nesl_same_len_XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    char cmd[1024];
    if (!unit_write(dir, "z.nesl", prog)) return 1;

    static const struct { const char *opts, *file; long lo, hi, same_lo, same_hi; } cases[] = {
        { "--emit=c", "z.c", 2, 2, 2, 99 },
        { "--emit=cuda", "z.cu", 2, 2, 2, 99 },
        { "-O0 --emit=c", "z0.c", 1, 1, 0, 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(cmd, sizeof cmd, "cd %s && %s %s -o %s z.nesl 2>&1 && grep -cE %s %s", dir, nesslc, cases[i].opts,
                 cases[i].file, UNCHECKED, cases[i].file);
        char what[128];
        snprintf(what, sizeof what, "unchecked products in %s", cases[i].opts);
        expect(what, unit_count(cmd), cases[i].lo, cases[i].hi);
        snprintf(cmd, sizeof cmd, "grep -c 'nesl_same_len(' %s/%s", dir, cases[i].file);
        snprintf(what, sizeof what, "nesl_same_len calls in %s", cases[i].opts);
        expect(what, unit_count(cmd), cases[i].same_lo, cases[i].same_hi);
    }

    /* the executable: the product, then the mismatch is still reported */
    snprintf(cmd, sizeof cmd, "cd %s && %s --target=c -o z z.nesl >build.txt 2>&1 && ./z >out.txt 2>&1; "
             "grep -c -e '^it = 32.0 : float$' -e 'RUNTIME ERROR: Length mismatch in apply-to-each.$' out.txt", dir, nesslc);
    expect("lines of the run's expected output", unit_count(cmd), 2, 2);

    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) printf("note: could not remove %s\n", dir);
    if (!fails) printf("PASS: test_same_len\n");
    return fails ? 1 : 0;
}
