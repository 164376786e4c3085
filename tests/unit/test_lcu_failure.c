/* test_lcu_failure.c — the λcu interpreter tells a program's runtime errors
 * from internal errors (lcu.h, LcuFailure): an unguarded failure (division
 * by zero, index out of range) is the program's runtime error in a λcu
 * program and an internal error in a guarded one (flattened from NESL); a
 * library hook that returns a value of the wrong type is always internal.
 * Exit status 0 iff every check passes. */
#include <stdlib.h>
#include <string.h>
#include "../../lcu/lcu.h"

static const char program[] =
    "function div (x : int, y : int) -> int {\n"
    "  return x / y\n"
    "}\n"
    "function at (xs : [int], i : int) -> int {\n"
    "  return xs[i]\n"
    "}\n"
    "function host (x : int) -> int {\n"
    "  return lib nesl_test \"U|int|int\" (x) -> int\n"
    "}\n";

typedef struct T { int pass, fail; } T;

/* The hook answers with a float where an int was declared. */
static LcuVal *bad_hook(void *ctx, LcuInterp *I, const char *name, const char *tag,
                        int nargs, LcuVal **args, const LcuType *result)
{
    (void)ctx; (void)name; (void)tag; (void)nargs; (void)args; (void)result;
    LcuScalar s = { .f = 1.5 };
    return lcu_val_scalar(I, LB_FLOAT, s);
}

/* Call fname(args) on a fresh interpreter; check the failure kind and that
 * the message on err starts with want_prefix. */
static void expect(T *t, const LcuProgram *p, bool guarded, const char *fname, int nargs,
                   const int64_t *ints, LcuFailure want, const char *want_prefix)
{
    char *msg = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&msg, &len);
    FILE *out = fopen("/dev/null", "w");
    LcuInterp *I = lcu_interp_new(p, out, err, NULL);
    lcu_interp_set_guarded(I, guarded);
    lcu_interp_set_hook(I, bad_hook, NULL);
    LcuVal *args[2];
    for (int i = 0; i < nargs; i++) {
        if (!strcmp(fname, "at") && i == 0) {
            args[i] = lcu_val_vec(I, LB_INT, 3);
        } else {
            LcuScalar s = { .i = ints[i] };
            args[i] = lcu_val_scalar(I, LB_INT, s);
        }
    }
    LcuVal *r;
    bool ok = lcu_interp_call(I, fname, nargs, args, &r);
    LcuFailure got = lcu_interp_failure(I);
    lcu_interp_free(I);
    fclose(out);
    fclose(err);
    if (!ok && got == want && !strncmp(msg, want_prefix, strlen(want_prefix))) {
        t->pass++;
    } else {
        t->fail++;
        printf("FAIL %s (guarded %d): ok %d, failure %d (want %d), message [%s] (want prefix [%s])\n",
               fname, guarded, ok, (int)got, (int)want, msg, want_prefix);
    }
    free(msg);
}

int main(void)
{
    T t = { 0, 0 };
    Arena *a = arena_new();
    Interner *in = interner_new();
    Diag d;
    diag_init(&d, stdout);
    Source src = { "test.lcu", program, strlen(program) };
    LcuProgram *p = lcu_parse(a, in, &d, &src);
    if (!p || !lcu_check(a, in, &d, p)) { printf("FAIL: the test program does not check\n"); return 1; }

    const int64_t div0[2] = { 7, 0 }, idx[2] = { 0, 5 }, one[1] = { 1 };
    expect(&t, p, false, "div", 2, div0, LCU_FAIL_RUNTIME, "RUNTIME ERROR: integer division by zero");
    expect(&t, p, true, "div", 2, div0, LCU_FAIL_INTERNAL,
           "nesslc: internal error: λcu interpreter: integer division by zero");
    expect(&t, p, false, "at", 2, idx, LCU_FAIL_RUNTIME, "RUNTIME ERROR: index 5 out of range");
    expect(&t, p, true, "at", 2, idx, LCU_FAIL_INTERNAL, "nesslc: internal error: λcu interpreter: index 5");
    expect(&t, p, false, "host", 1, one, LCU_FAIL_INTERNAL,
           "nesslc: internal error: λcu interpreter: library function nesl_test returned a value");

    /* A successful call clears the failure. */
    LcuInterp *I = lcu_interp_new(p, stdout, stdout, NULL);
    LcuScalar s6 = { .i = 6 }, s3 = { .i = 3 };
    LcuVal *args[2] = { lcu_val_scalar(I, LB_INT, s6), lcu_val_scalar(I, LB_INT, s3) }, *r;
    if (lcu_interp_call(I, "div", 2, args, &r) && r->s.i == 2 && lcu_interp_failure(I) == LCU_FAIL_NONE) t.pass++;
    else { t.fail++; printf("FAIL div(6, 3)\n"); }
    lcu_interp_free(I);

    interner_free(in);
    arena_free(a);
    printf("test_lcu_failure: %d passed, %d failed\n", t.pass, t.fail);
    return t.fail ? 1 : 0;
}
