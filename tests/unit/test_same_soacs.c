/* test_same_soacs.c — the flattener binds a SOAC that an earlier binding
 * in scope already computes (alpha-equal, the same result types) to that
 * binding's variables, and a descriptor accessor read twice to the first
 * read (flatten/build.c, same_soac): a lifted sum(s) asked for twice is one
 * SEG_REDUCE, and so is Barnes-Hut's shape (1 + sum of the kids' sizes,
 * and flatten's lengths of the same kids).  Different sums stay apart.
 * Without fusion (-O0), so the SOACs counted are the flattener's.  Values:
 * tests/lang/same_soacs.nesl.  Uses $NESSLC.  Exit status 0 iff every
 * check passes. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "unit_shell.h"

static const struct { const char *name, *text; long seg_reduces; } cases[] = {
    { "twice", "{(sum(s), sum(s), #s) : s in [[1, 2], [3], [] int]};\n", 1 },
    { "kids", "{let k = {s : s in w | #s > 0} in (1 + sum({#x : x in k}), flatten(k)) : w in [[[1], [2, 3]], [[4]]]};\n", 1 },
    { "apart", "{(sum(s), sum({x * 2 : x in s})) : s in [[1, 2], [3]]};\n", 2 },
};

static int fails;

int main(void)
{
    const char *nesslc = unit_nesslc();
    char dir[] = "/tmp/nesl_same_soacs_XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    char file[64], cmd[1024], what[128];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(file, sizeof file, "%s.nesl", cases[i].name);
        if (!unit_write(dir, file, cases[i].text)) return 1;
        snprintf(cmd, sizeof cmd, "cd %s && %s -O0 --emit=lcu -o %s.lcu %s >/dev/null 2>&1 && grep -c 'SEG_REDUCE' %s.lcu", dir, nesslc,
                 file, file, file);
        snprintf(what, sizeof what, "%s: SEG_REDUCEs", cases[i].name);
        unit_expect(&fails, what, unit_count(cmd), cases[i].seg_reduces);
    }
    return unit_finish(dir, "test_same_soacs", fails);
}
