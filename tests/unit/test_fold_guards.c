/* test_fold_guards.c — constant folding after literal propagation
 * (lcu/lcu_prune.c): a constant subscript of a sequence of known length
 * inside a function applied to each is bounds-checked as
 * `if 0 < 0 || 0 >= 2 then guard ... else ...` in a kernel's MAP; in
 * range, the check folds away (kernels included), out of range the guard
 * stays.  The values and the error are checked in every mode by
 * tests/lang/errors_const_subscript_lifted.nesl; this checks the λcu.
 * Uses $NESSLC (the harness sets it). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit_shell.h"

static const char *in_range =
    "function g(s) : [int] -> [int] = let r = {v ++ v : v in [s, s]} in r[0] ++ r[1];\n"
    "{g(s) : s in [[1, 2], [3], [] int]};\n";

static const char *out_of_range =
    "function h(s) : [int] -> [int] = let r = {v ++ v : v in [s, s]} in r[0] ++ r[2];\n"
    "{h(s) : s in [[1, 2], [3], [] int]};\n";

static int fails;

/* Lines of NAME.lcu (--emit=lcu of text) matching the extended regex re. */
static long count(const char *dir, const char *name, const char *text, const char *re)
{
    char file[256], cmd[1024];
    snprintf(file, sizeof file, "%s.nesl", name);
    if (!unit_write(dir, file, text)) return -1;
    snprintf(cmd, sizeof cmd, "%s --emit=lcu %s/%s.nesl > %s/%s.lcu 2>&1; echo $?", unit_nesslc(), dir, name, dir, name);
    unit_expect(&fails, "nesslc --emit=lcu exit status", unit_count(cmd), 0);
    snprintf(cmd, sizeof cmd, "grep -E -c '%s' %s/%s.lcu", re, dir, name);
    return unit_count(cmd);
}

int main(void)
{
    char dir[] = "/tmp/nesl_fold_guards_XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    /* the kernel that picks r[0] and r[1] out of the pairs exists ... */
    unit_expect(&fails, "the MAP that gathers r[0] and r[1]", count(dir, "in", in_range, "MAP \\{ k[0-9]+ => .*k[0-9]+ \\* 2 \\+ 1"), 1);
    /* ... with no guard, no comparison of two literals and no check of a
     * literal false left anywhere */
    unit_expect(&fails, "guards in range", count(dir, "in", in_range, "guard \\("), 0);
    unit_expect(&fails, "comparisons of literals", count(dir, "in", in_range, "(\\(|if |\\|\\| |&& |, )[0-9]+ (<|<=|>|>=|==|!=) [0-9]+([^0-9.]|$)"), 0);
    unit_expect(&fails, "checks of false", count(dir, "in", in_range, "check \\(false"), 0);
    /* out of range: r[2]'s guard stays (one line: the kernel) */
    unit_expect(&fails, "guards out of range", count(dir, "out", out_of_range, "guard \\(true"), 1);
    return unit_finish(dir, "test_fold_guards", fails);
}
