/* test_shared_args.c — a lifted call that passes one variable as two
 * argument components gets an instance of its own whose body reads one
 * parameter for both (flatten/program.c, FunReq.same), so a lifted
 * apply-to-each over the two needs no length check (a REDUCE and a host
 * wait: Barnes-Hut's split (b, {... : .. in b}) twice a level).  In the
 * emitted λcu: the lifted split of one sequence and its own flags has no
 * check of a REDUCE's result; split of two sequences keeps it.  The
 * values and errors of such calls are checked in every executor by
 * tests/lang/lifted_shared_args.nesl.  Uses $NESSLC.  Exit status 0 iff
 * every check passes. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "unit_shell.h"

static const char *shared = "{split(s, {x > 1 : x in s}) : s in [[1, 2], [3]]};\n";
static const char *apart = "{split(s, g) : s in [[1, 2], [3]]; g in [[t, f], [t]]};\n";

static int fails;

/* Lines of `nesslc --emit=lcu dir/file` that match pattern (-1: no build). */
static long lcu_lines(const char *nesslc, const char *dir, const char *file, const char *pattern)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd %s && %s --emit=lcu -o %s.lcu %s >/dev/null 2>&1 && grep -cE '%s' %s.lcu", dir, nesslc, file,
             file, pattern, file);
    return unit_count(cmd);
}

int main(void)
{
    const char *nesslc = unit_nesslc();
    char dir[] = "/tmp/nesl_shared_args_XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    if (!unit_write(dir, "shared.nesl", shared) || !unit_write(dir, "apart.nesl", apart)) return 1;
    const char *reduced_check = "check \\(x[0-9]+, site[0-9]+, \"Length mismatch";
    unit_expect(&fails, "split of one sequence: lifted instances", lcu_lines(nesslc, dir, "shared.nesl", "^function fl_split"), 1);
    unit_expect(&fails, "split of one sequence: checks of a REDUCE", lcu_lines(nesslc, dir, "shared.nesl", reduced_check), 0);
    unit_expect(&fails, "split of two sequences: lifted instances", lcu_lines(nesslc, dir, "apart.nesl", "^function fl_split"), 1);
    unit_expect(&fails, "split of two sequences: checks of a REDUCE", lcu_lines(nesslc, dir, "apart.nesl", reduced_check), 1);
    return unit_finish(dir, "test_shared_args", fails);
}
