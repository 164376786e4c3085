/* lcu_verify.c — the check every λcu program a compiler phase builds must
 * pass: it type-checks, and print -> parse -> print is the identity (the text
 * form is the interface of the later phases).  Shared by the driver and the
 * fuzzers (tests/fuzz/), which treat a failure as a compiler bug. */
#include <stdlib.h>
#include <string.h>
#include "lcu.h"

static char *print_to_string(const LcuProgram *p, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f) ICE("open_memstream failed");
    lcu_print(f, p);
    fclose(f);
    return buf;
}

bool lcu_round_trips(const LcuProgram *p, FILE *err)
{
    size_t len1 = 0, len2 = 0;
    char *t1 = print_to_string(p, &len1);
    Arena *a = arena_new();
    Interner *in = interner_new();
    Diag d;
    diag_init(&d, err);
    Source src = { "<printed λcu>", t1, len1 };
    LcuProgram *q = lcu_parse(a, in, &d, &src);
    bool ok = false;
    if (q) {
        char *t2 = print_to_string(q, &len2);
        ok = len1 == len2 && memcmp(t1, t2, len1) == 0;
        free(t2);
    }
    interner_free(in);
    arena_free(a);
    free(t1);
    return ok;
}

bool lcu_verify_built(Arena *a, Interner *in, LcuProgram *p, const char *what, FILE *err)
{
    Diag d;
    diag_init(&d, err);
    if (!lcu_check(a, in, &d, p)) {
        fprintf(err, "nesslc: internal compiler error: the %s program does not type-check\n", what);
        return false;
    }
    if (!lcu_round_trips(p, err)) {
        fprintf(err, "nesslc: internal compiler error: the %s program does not round-trip through its text form\n", what);
        return false;
    }
    return true;
}
